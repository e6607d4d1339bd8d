"""The league's pages: who sees them (public by the owner's choice, off by default,
logged), the standings with ties shared, the 大牌榜 drawn with its tiles and linked to
its round for the room's admins only, the picture and the CSVs, the admin page's
seasons and 不参加排名, a player's page's season and rating only while the league is
public, and the league's own stream."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.live.broker import league_topic
from scorer.models import League, Player, RoomLogEntry, Season
from scorer.models.roomlog import LEAGUE_LEFT_OUT, LEAGUE_SHOWN, SEASON_OPENED
from scorer.money import clock
from tests.factories import by_tiles, make_member, make_room, make_table, member_client, play
from tests.pages import html

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 20)


def evening(room: Any, n: int = 2) -> list[Any]:
    out = []
    for i in range(n):
        s = make_table("mcr", ("甲", "乙", "丙", "丁"), seated=True, room=room)
        play(s, [by_tiles(i % 3, (i + 1) % 3)])  # 甲 on 乙, 乙 on 丙, 丙 on 甲
        s.close()
        out.append(s)
    return out


@pytest.fixture
def league_room() -> Any:
    room = make_room("laoli")
    boss = make_member(room, "boss")
    today = clock.now().date()
    Season.open(room, boss, list(room.configs.filter(ruleset="mcr")), name="十一月月赛",
                first_day=today - dt.timedelta(days=3), last_day=today + dt.timedelta(days=3),
                min_tables=1)  # fmt: skip
    evening(room, 3)  # 甲, 乙 and 丙 equal on the whole chain
    return room


def test_the_league_is_the_admins_only_until_the_owner_makes_it_public(league_room: Any) -> None:
    url = reverse("scorer:league", args=[league_room.slug])
    assert Client().get(url).status_code == 404
    boss = member_client(league_room, "owner2")
    page = html(boss.get(url))
    assert "十一月月赛" in page and page.count('class="league-row"') == 4
    home = html(Client().get(reverse("scorer:room", args=[league_room.slug])))
    assert url not in home
    r = boss.post(reverse("scorer:manage_league_public", args=[league_room.slug]), {"public": "1"})
    assert r.status_code == 302
    assert RoomLogEntry.objects.filter(room=league_room, action=LEAGUE_SHOWN).exists()
    assert Client().get(url).status_code == 200
    home = html(Client().get(reverse("scorer:room", args=[league_room.slug])))
    assert url in home


def test_an_admin_who_is_not_the_owner_cannot_make_it_public(league_room: Any) -> None:
    from scorer.models import RoomMember

    admin = member_client(league_room, "helper", RoomMember.ADMIN)
    r = admin.post(reverse("scorer:manage_league_public", args=[league_room.slug]), {"public": "1"})
    assert r.status_code == 404 and not League.of(league_room).public


def test_ties_are_shared_and_big_hands_link_their_round_for_admins_only(league_room: Any) -> None:
    League.of(league_room).set_public(True, make_member(league_room, "o3"))
    url = reverse("scorer:league", args=[league_room.slug])
    public = html(Client().get(url))
    ranks = re.findall(r'class="num lg-rank"><span class="lg-num">(\d+)<', public)
    assert ranks == ["1", "1", "1", "4"]
    assert 'class="pk-tile' in public and "/rounds/" not in public and "/s/" not in public
    admin_page = html(member_client(league_room, "o4").get(url))
    assert "/rounds/" in admin_page


def test_the_picture_and_the_csvs(league_room: Any) -> None:
    season = Season.objects.get(room=league_room)
    boss = member_client(league_room, "o5")
    svg = boss.get(reverse("scorer:league_svg", args=[league_room.slug, season.pk]))
    assert svg["Content-Type"].startswith("image/svg+xml") and b"<svg" in svg.content
    assert "甲" in svg.content.decode()
    csv = boss.get(reverse("scorer:league_csv", args=[league_room.slug, season.pk]))
    assert csv.status_code == 200 and "甲" in csv.content.decode("utf-8-sig")
    rows = boss.get(reverse("scorer:league_tables_csv", args=[league_room.slug, season.pk]))
    assert len(rows.content.decode("utf-8-sig").strip().splitlines()) == 1 + 12


def test_a_season_opened_from_the_admin_page_and_a_player_left_out(league_room: Any) -> None:
    boss = member_client(league_room, "o6")
    url = reverse("scorer:manage_league", args=[league_room.slug])
    assert boss.get(url).status_code == 200
    mcr = league_room.configs.filter(ruleset="mcr").first()
    data = {"name": "十二月月赛", "first_day": "2026-12-01", "last_day": "2026-12-31",
            "configs": [str(mcr.pk)], "ranking": "points", "points_4": "4,2,1,0",
            "points_3": "4,2,0", "points_2": "4,0", "uma_4": "20,10,-10,-20",
            "uma_3": "15,0,-15", "uma_2": "10,-10", "min_tables": "3", "best_n": ""}  # fmt: skip
    assert boss.post(url, {**data, "min_tables": "x"}).status_code == 400
    assert not Season.objects.filter(name="十二月月赛").exists()
    assert boss.post(url, {**data, "points_4": "4,2,1"}).status_code == 400
    assert boss.post(url, data).status_code == 302
    assert Season.objects.get(name="十二月月赛").min_tables == 3
    assert RoomLogEntry.objects.filter(room=league_room, action=SEASON_OPENED).count() == 2
    jia = Player.objects.get(room=league_room, name="甲")
    boss.post(
        reverse("scorer:manage_league_left_out", args=[league_room.slug, jia.pk]), {"out": "1"}
    )
    assert RoomLogEntry.objects.filter(room=league_room, action=LEAGUE_LEFT_OUT).exists()
    page = html(boss.get(reverse("scorer:league", args=[league_room.slug])))
    assert page.count('class="league-row"') == 3


def test_a_players_page_shows_season_and_rating_only_while_public(league_room: Any) -> None:
    jia = Player.objects.get(room=league_room, name="甲")
    url = reverse("scorer:player", args=[jia.slug])
    page = html(Client().get(url))
    assert "十一月月赛" not in page and "player-ratings" not in page
    assert "player-all-time" in page and "(1/3)" in page  # 1 win in 3 hands
    League.of(league_room).set_public(True, make_member(league_room, "o7"))
    page = html(Client().get(url))
    assert "十一月月赛" in page and "player-ratings" in page


def test_the_league_stream_is_its_own_and_tells_a_close(
    league_room: Any, django_capture_on_commit_callbacks: Any
) -> None:
    url = reverse("scorer:league_events", args=[league_room.slug])
    assert Client().get(url).status_code == 404
    League.of(league_room).set_public(True, make_member(league_room, "o8"))
    answer = Client().get(url)
    # Read to its end (it ends at once in the suite): the client then closes it, and the
    # stream's place in the worker's count is given back.
    assert answer.status_code == 200 and b"retry: " in b"".join(answer.streaming_content)
    heard: list[Any] = []
    from scorer.live.broker import broker

    with (
        broker().subscribe(league_topic(league_room.pk), heard.append),
        django_capture_on_commit_callbacks(execute=True),
    ):
        evening(league_room, 1)
    assert heard and all(isinstance(v, int) for v in heard)


def test_the_standings_cached_for_the_page_move_with_every_change(league_room: Any) -> None:
    boss = member_client(league_room, "o9")
    url = reverse("scorer:league", args=[league_room.slug])
    assert "甲" in html(boss.get(url))
    Player.objects.get(room=league_room, name="甲").rename("老甲")
    page = html(boss.get(url))
    assert "老甲" in page
    before = page.count('class="league-row"')
    s = make_table("mcr", ("戊", "乙", "丙", "丁"), seated=True, room=league_room)
    play(s, [by_tiles(0, 1)])
    s.close()
    assert html(boss.get(url)).count('class="league-row"') == before + 1


def test_head_to_head_counts_who_dealt_into_whom(league_room: Any) -> None:
    from scorer.services.league import head_to_head, rivals

    jia, yi = (Player.objects.get(room=league_room, name=n) for n in ("甲", "乙"))
    h2h = head_to_head(jia, yi)
    assert h2h["tables"] == 3 and h2h["b_into_a"] == 1 and h2h["a_into_b"] == 0
    from scorer.models import TableResult

    assert h2h["net_a"] == sum(
        TableResult.objects.filter(player=jia).values_list("points", flat=True)
    )
    mine = {r["name"]: r for r in rivals(jia)}
    assert set(mine) == {"乙", "丙", "丁"}
    assert {k: mine["乙"][k] for k in h2h} == h2h
    assert mine["丙"]["a_into_b"] == 1  # 甲 dealt into 丙 at the third table


def test_a_players_league_part_moves_with_the_next_close(league_room: Any) -> None:
    jia = Player.objects.get(room=league_room, name="甲")
    url = reverse("scorer:player", args=[jia.slug])
    assert "(1/3)" in html(Client().get(url))  # 1 win in 3 hands
    s = make_table("mcr", ("甲", "乙", "丙", "丁"), seated=True, room=league_room)
    play(s, [by_tiles(0, 1)])
    s.close()
    assert "(2/4)" in html(Client().get(url))


def test_every_league_page_is_its_rooms_only(league_room: Any) -> None:
    """Every route of a room's league (found in the URL configuration, so a page added
    later is walked too): while the league is private, a phone and another room's owner
    are answered 404; made public, a season of another room under this room's address
    is still a 404, and nothing of the other room shows."""
    from tests.room_places import scorer_routes

    west = make_room("west")
    west_owner = make_member(west, "west-boss")
    today = clock.now().date()
    theirs = Season.open(west, west_owner, [], name="西边月赛", first_day=today, last_day=today)
    ours = league_room.seasons.get()
    routes = [r for r in scorer_routes() if r.startswith("r/<slug:slug>/league/")]
    assert len(routes) >= 6

    def path(route: str, season: Season) -> str:
        return "/" + route.replace("<slug:slug>", league_room.slug).replace(
            "<num:pk>", str(season.pk)
        )

    west_phone = member_client(west, "west-admin")
    for route in routes:
        for visitor in (Client(), west_phone):
            assert visitor.get(path(route, ours)).status_code == 404, route
    League.of(league_room).set_public(True, make_member(league_room, "o9"))
    for route in routes:
        answer = Client().get(path(route, theirs))
        if "<num:pk>" in route:
            assert answer.status_code == 404, route
        elif not answer.streaming:
            assert "西边月赛" not in answer.content.decode(), route
        else:
            b"".join(answer.streaming_content)  # (read to its end: the client closes it)
    asked = Client().get(reverse("scorer:league", args=[league_room.slug]), {"season": theirs.pk})
    assert asked.status_code == 200 and "西边月赛" not in asked.content.decode()
