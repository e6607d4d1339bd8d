"""The player registry: names reused across tables, a rename that keeps the record,
and each player's figures checked against a count made by hand while generating
the tables (whole rounds of 国标 and rounds of events of 云南, some undone).  His
figures are read from the results kept when each table closed."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession, Round
from scorer.models.players import Player
from scorer.models.rooms import default_room
from scorer.services.player_records import records
from scorer.services.seating import seat_players
from tests.factories import by_tiles, event, make_table, member_client, record
from tests.pages import html
from tests.support.start import start_data

pytestmark = pytest.mark.django_db

POOL = ["甲", "乙", "丙", "丁", "戊", "己"]
MCR_HANDS = [
    {"concealed": "111m222m333m456p7z", "win_tile": "7z"},
    {"concealed": "123m456m789m123p5p", "win_tile": "5p"},
]


class Expected:
    """What each player's record must say, counted as the rounds are made."""

    def __init__(self) -> None:
        self.c: dict[tuple[str, str], dict[str, Any]] = defaultdict(
            lambda: {
                "tables": 0,
                "rounds": 0,
                "wins": 0,
                "self": 0,
                "dealt": 0,
                "net": 0,
                "hands": [],
            }  # fmt: skip
        )

    def bump(self, name: str, ruleset: str, key: str, by: int = 1) -> None:
        for rs in ("", ruleset):
            self.c[(name, rs)][key] += by

    def hand(self, name: str, ruleset: str, amount: int) -> None:
        for rs in ("", ruleset):
            self.c[(name, rs)]["hands"].append(amount)


def table(ruleset: str, names: list[str]) -> GameSession:
    s = make_table(ruleset, names)
    s.params = dict(s.rules.params)
    s.save()
    seat_players(s)
    return s


def generate(seed: int) -> Expected:
    rng = random.Random(seed)
    exp = Expected()
    for _ in range(5):
        names = rng.sample(POOL, 4)
        ruleset = rng.choice(["mcr", "yunnan"])
        s = table(ruleset, names)
        for n in names:
            exp.bump(n, ruleset, "tables")
        for _ in range(rng.randint(1, 5)):
            winner = rng.randrange(4)
            discarder = rng.choice([None, *[x for x in range(4) if x != winner]])
            if ruleset == "mcr":
                rnd = record(s, by_tiles(winner, discarder, rng.choice(MCR_HANDS)))
            else:
                # A 暗杠 first (paid at once), then a 1-番 win entered by its fan.
                event(s, {"type": "kong", "player": rng.randrange(4), "kong": "concealed"})
                won = {"seat": winner, "fans": {"1": 1}}
                rnd = event(s, {"type": "win", "discarder": discarder, "winners": [won]})
            if rng.random() < 0.2:
                s.undo_last()
                continue
            rnd = Round.objects.select_related("current").get(pk=rnd.pk)
            assert rnd.current is not None
            deltas = rnd.current.deltas
            win_part = deltas if ruleset == "mcr" else rnd.current.result["events"][-1]["deltas"]
            for seat, name in enumerate(names):
                exp.bump(name, ruleset, "rounds")
                exp.bump(name, ruleset, "net", deltas[seat])
            exp.bump(names[winner], ruleset, "wins")
            exp.hand(names[winner], ruleset, win_part[winner])
            if discarder is None:
                exp.bump(names[winner], ruleset, "self")
            else:
                exp.bump(names[discarder], ruleset, "dealt")
        s.close()
    return exp


@pytest.mark.parametrize("seed", range(3))
def test_records_match_a_hand_count(seed: int) -> None:
    exp = generate(seed)
    for name in POOL:
        player = Player.objects.filter(name=name).first()
        if player is None:
            continue
        by, timeline = records(player)
        for rs, rec in by.items():
            want = exp.c[(name, rs)]
            got = {"tables": rec.tables, "rounds": rec.rounds, "wins": rec.wins,
                   "self": rec.self_draws, "dealt": rec.dealt_in, "net": rec.net,
                   "won": rec.won, "top": rec.biggest_hand}  # fmt: skip
            hands = want["hands"]
            assert got == {**{k: v for k, v in want.items() if k != "hands"},
                           "won": sum(hands), "top": max(hands, default=None)}, (name, rs)  # fmt: skip
        assert timeline[-1][1] == exp.c[(name, "")]["net"]


def test_names_are_one_player_across_tables_and_rename_keeps_the_record(client: Client) -> None:
    a = table("mcr", ["甲", "乙", "丙", "丁"])
    b = table("mcr", ["丁", "甲", "戊", "己"])
    assert Player.objects.count() == 6
    jia = Player.objects.get(name="甲")
    assert sorted(s.session_id for s in jia.seats.all()) == sorted([a.pk, b.pk])
    # The room's admins rename a player; a player's page renames nobody.
    room = default_room()
    boss = member_client(room, "boss")
    rename = reverse("scorer:manage_player_rename", args=[room.slug, jia.pk])
    r = boss.post(rename, {"name": "老甲"})
    assert r.status_code == 302
    jia.refresh_from_db()
    assert jia.name == "老甲" and jia.seats.count() == 2
    assert list(a.players) == ["甲", "乙", "丙", "丁"]  # the table keeps its names
    # A taken name is refused; nothing changes.
    boss.post(rename, {"name": "乙"})
    jia.refresh_from_db()
    assert jia.name == "老甲"
    a.close()
    page = html(client.get(reverse("scorer:player", args=[jia.slug])))
    assert "老甲" in page and page.count('class="player-record"') == 2  # all, and 国标


def test_start_page_offers_recent_names_and_starting_registers_them(client: Client) -> None:
    table("mcr", ["甲", "乙", "丙", "丁"])
    home = html(client.get(reverse("scorer:home")))
    assert '<datalist id="recent-players">' in home and '<option value="甲">' in home
    assert 'list="recent-players"' in home
    data = start_data(name_0="甲", name_1="戊", name_2="己", name_3="庚")
    r = client.post(reverse("scorer:create"), data)
    assert r.status_code == 302
    assert Player.objects.get(name="甲").seats.count() == 2
    assert Player.objects.filter(name="庚").exists()


def test_a_player_saved_without_a_room_is_the_default_rooms() -> None:
    saved = Player.objects.create(name="甲")
    assert saved.room == default_room()
    assert Player.objects.get(pk=saved.pk).room_id == default_room().pk


def test_one_discard_several_winners_is_one_deal_in() -> None:
    """一炮多响: two players win on 乙's one discard; 乙 dealt in once, each winner won."""
    s = table("sichuan", ["甲", "乙", "丙", "丁"])
    hand = {"concealed": "11123456888s99s", "win_tile": "7s"}
    other = {"concealed": "222666888m4447s", "win_tile": "7s"}
    event(s, {"type": "win", "discarder": 1, "winners": [{"seat": 2, "hand": hand}]})
    event(s, {"type": "win", "discarder": 1, "winners": [{"seat": 0, "hand": other}]},
          join_last_win=True)  # fmt: skip
    s.refresh_from_db()
    if s.round_in_progress() is not None:
        hands = [{"seat": 1, "status": "not_ready"}, {"seat": 3, "status": "not_ready"}]
        event(s, {"type": "wall_end", "hands": hands})
    s.close()
    by, _ = records(Player.objects.get(name="乙"))
    assert by["sichuan"].dealt_in == 1 and by["sichuan"].wins == 0
    for name in ("甲", "丙"):
        rec = records(Player.objects.get(name=name))[0]["sichuan"]
        assert rec.wins == 1 and rec.dealt_in == 0
