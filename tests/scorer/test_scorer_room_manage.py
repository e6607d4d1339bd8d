"""A room's admins on a phone: its tables and their QR sheet, the day's dashboard
(open tables, today's 台费), closing a stale table, the day report; every page the
room's own (another room's admin gets 404, a visitor the sign-in page), each read in
a fixed number of queries however many tables and rooms there are."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.shortcuts import resolve_url
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorer.models import GameSession, Round, RoundRevision, SessionChange
from scorer.models.players import Player
from scorer.models.rooms import Room, RoomMember, RoomTable
from scorer.services import books as book
from scorer.services import calendar
from scorer.services.player_records import records
from scorer.web.share import qr_svg
from tests.factories import NAMES, by_tiles, make_table, member_client, record
from tests.pages import html, text, text_of

pytestmark = pytest.mark.django_db


def play(t: RoomTable | None, room: Room, rounds: int = 2, take: int = 0, **kw: Any) -> GameSession:
    """A session at table t with `rounds` rounds, each taking `take` for the room
    (set on the revisions directly: recording the fee is the fee rule's part)."""
    s = make_table(room=room, room_table=t, seated=True, **kw)
    for i in range(rounds):
        rnd = record(s, by_tiles(winner=i % 4, discarder=(i + 1) % 4))
        if take:
            rev = rnd.current
            assert rev is not None
            deltas = list(rev.deltas)
            deltas[rev.winners[0]] -= take  # from the winner, as 抽水 does
            RoundRevision.objects.filter(pk=rev.pk).update(deltas=deltas, room_take=take)
    s.refresh_from_db()
    return s


# ----------------------------------------------------------------------------- tables


def test_add_tables_one_named_or_several_numbered(room: Room, boss: Client) -> None:
    url = reverse("scorer:manage_tables", args=[room.slug])
    page = html(boss.get(url))
    assert re.search(r'name="number" value="1"', page)  # the next free number
    assert boss.post(url, {"number": "1", "count": "5"}).status_code == 302
    assert list(room.tables.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert boss.post(url, {"number": "8", "count": "1", "name": "包间A"}).status_code == 302
    assert room.tables.get(number=8).label == "包间A"
    page = html(boss.get(url))
    assert re.search(r'name="number" value="9"', page)
    assert "3号桌" in text_of(page) and "包间A" in text_of(page)


def test_adding_a_number_the_room_has_saves_nothing(room: Room, boss: Client) -> None:
    room.add_tables(3)
    url = reverse("scorer:manage_tables", args=[room.slug])
    response = boss.post(url, {"number": "2", "count": "3"})  # 2, 3, 4: 3 is taken
    assert response.status_code == 400
    assert "房间已有 3 号桌" in text(response)
    assert list(room.tables.values_list("number", flat=True)) == [3]
    response = boss.post(url, {"number": "5", "count": "2", "name": "包间"})
    assert response.status_code == 400 and room.tables.count() == 1


def test_renumber_and_rename_keep_the_qr_code(room: Room, boss: Client) -> None:
    t3, t4 = room.add_tables(3, 2)
    url = reverse("scorer:manage_table", args=[room.slug, 3])
    assert 'name="name"' in html(boss.get(url))
    response = boss.post(url, {"number": "4", "name": ""})
    assert response.status_code == 400  # 4 is taken: said on the field
    assert "已有 4 号桌" in text(response)
    assert boss.post(url, {"number": "7", "name": "包间B"}).status_code == 302
    t = RoomTable.objects.get(pk=t3.pk)
    assert (t.number, t.label, t.code) == (7, "包间B", t3.code)


def test_a_tables_qr_code_holds_its_stable_url(room: Room, boss: Client) -> None:
    (t,) = room.add_tables(3)
    response = boss.get(reverse("scorer:manage_table_qr", args=[room.slug, 3]))
    assert response["Content-Type"] == "image/svg+xml"
    url = "http://testserver" + reverse("scorer:table", args=[room.slug, t.code])
    assert response.content == qr_svg(url)
    assert boss.get(reverse("scorer:manage_table_qr", args=[room.slug, 9])).status_code == 404


def test_the_qr_sheet_has_every_table_with_its_label_and_the_rooms_name(
    room: Room, boss: Client
) -> None:
    tables = room.add_tables(1, 13)
    RoomTable.objects.filter(number=2).update(name="包间A")
    page = html(boss.get(reverse("scorer:manage_qr_sheet", args=[room.slug])))
    assert page.count('<figure class="qr-card">') == 13
    # The codes' SVGs carry no id of their own (13 of one id would clash): nothing
    # from the sheet on has one. (A slice: the regex this was once cost a minute.)
    assert page.count("<svg ") == 13 and ' id="' not in page[page.index('<div class="qr-sheet') :]
    words = text_of(page)
    assert "1号桌" in words and "包间A" in words and "13号桌" in words
    assert words.count("老李棋牌室") >= 13
    for t in tables:
        assert reverse("scorer:table", args=[room.slug, t.code]) in page
    assert "css/room.css" in page and "js/print.js" in page  # the A4 print stylesheet
    # Served on 127.0.0.1 only, the page warns that phones cannot open these codes.
    local = boss.get(reverse("scorer:manage_qr_sheet", args=[room.slug]), HTTP_HOST="127.0.0.1")
    assert "127.0.0.1" in text(local)


# ----------------------------------------------------------------------------- the day


def test_the_dashboard_shows_open_tables_with_standings_rounds_and_activity(
    room: Room, boss: Client
) -> None:
    t3, t5 = room.add_tables(3), room.add_tables(5)
    s3 = play(t3[0], room, rounds=3)
    play(t5[0], room, rounds=1).close("x")  # closed: not on the list
    stale = play(None, room, rounds=1)
    GameSession.objects.filter(pk=stale.pk).update(
        updated_at=timezone.now() - dt.timedelta(hours=5)
    )
    page = html(boss.get(reverse("scorer:manage", args=[room.slug])))
    text = text_of(page)
    assert "2 桌在玩" in text
    assert f"open-{s3.code}" in page and f"open-{stale.code}" in page
    # 3号桌 first, its standings highest first; the table without a number after it.
    assert page.index(f"open-{s3.code}") < page.index(f"open-{stale.code}")
    totals = s3.tallies()
    block = page[page.index(f"open-{s3.code}") : page.index(f"open-{stale.code}")]
    assert "3 局" in text_of(block)
    best = max(range(4), key=lambda i: totals[i])
    assert text_of(block).index(NAMES[best]) < min(
        text_of(block).index(NAMES[i]) for i in range(4) if i != best
    )
    assert 'class="stale"' not in block
    assert "无人操作" in text_of(page[page.index(f"open-{stale.code}") :])


def test_todays_fees_per_table_and_in_total(room: Room, boss: Client) -> None:
    (t3,) = room.add_tables(3)
    (t4,) = room.add_tables(4)
    play(t3, room, rounds=2, take=5, money_per_point=Decimal("0.5"))
    play(t3, room, rounds=1, take=3, money_per_point=Decimal("0.5")).close("x")
    play(t4, room, rounds=2, take=4)
    undone = play(t4, room, rounds=1, take=100)
    undone.undo_last("x")  # an undone round takes nothing
    old = play(t4, room, rounds=1, take=50)  # yesterday's
    Round.objects.filter(session=old).update(created_at=timezone.now() - dt.timedelta(days=1))
    play(None, room, rounds=1, take=2)
    other = Room.open("别家", "other")
    play(RoomTable.objects.create(room=other, number=3), other, rounds=2, take=9)

    page = html(boss.get(reverse("scorer:manage", args=[room.slug])))
    # The day's books: point fees at a table with a rate in 元 (13 points at 0.5), the
    # others in 分 in a column of their own (8 + 2): no undone round, no other room's,
    # no round of yesterday.
    day = book.books(room, calendar.today(room))
    assert day.total.points == 10 and day.total.point_money == Decimal("6.50")
    assert 'id="fees-points">10<' in page and "按分台费 6.50 元" in text_of(page)
    assert [r.points for r in day.rows if r.number == 4] == [8, 0, 0]


def test_close_a_stale_table_with_a_reason(room: Room, boss: Client) -> None:
    s = play(None, room, rounds=1)
    url = reverse("scorer:manage_close", args=[room.slug, s.code])
    boss.post(url, {"note": "  "})
    s.refresh_from_db()
    assert s.closed_at is None  # no reason, not closed
    response = boss.post(url, {"note": "客人走了没结束"}, follow=True)
    s.refresh_from_db()
    assert s.closed_at is not None
    change = SessionChange.objects.get(session=s, action=SessionChange.CLOSE)
    assert (change.author, change.note) == ("老板", "客人走了没结束")
    assert "本桌已结束" in text(response)
    # The table's own result page shows who closed it and why.
    final = html(Client().get(reverse("scorer:final", args=[s.code])))
    assert "客人走了没结束" in text_of(final)
    assert boss.get(url).status_code == 405


def test_report_csv_of_a_day_in_the_pages_language(room: Room, boss: Client) -> None:
    (t3,) = room.add_tables(3)
    s3 = play(t3, room, rounds=2, take=5, money_per_point=Decimal("0.5"))
    s0 = play(None, room, rounds=1, take=2)
    old = play(t3, room, rounds=1, take=50)
    GameSession.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=1))
    Round.objects.filter(session=old).update(created_at=timezone.now() - dt.timedelta(days=1))
    url = reverse("scorer:manage_report", args=[room.slug])
    response = boss.get(url)
    assert response["Content-Type"].startswith("text/csv")
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert rows[0][0] == "牌桌" and rows[0][-1] == "按分台费（分）"
    assert [r[0] for r in rows[1:]] == ["3号桌", "不在固定桌", "合计"]
    t3row = rows[1]
    totals = s3.tallies()
    assert t3row[5] == "2" and t3row[-2] == "5.00" and t3row[-1] == "0"  # 10 points at 0.5
    for name, total in zip(NAMES, totals, strict=True):
        assert f"{name} {total:+d}" in t3row[6] or (total == 0 and f"{name} 0" in t3row[6])
    started = timezone.localtime(s3.created_at).strftime("%Y-%m-%d %H:%M")
    assert t3row[2] == started  # local time (Asia/Shanghai), not UTC
    assert rows[2][-1] == "2" and rows[2][-2] == "0.00"
    assert rows[-1][5] == "3" and rows[-1][-1] == "2" and rows[-1][-2] == "5.00"
    assert s0.code not in body and s3.code not in body  # a table's code is its key
    # Yesterday: the old table only; in English.
    boss.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    day = (calendar.today(room) - dt.timedelta(days=1)).isoformat()
    rows = list(csv.reader(io.StringIO(html(boss.get(url, {"day": day})).lstrip("\ufeff"))))
    assert rows[0][0] == "Table" and [r[0] for r in rows[1:]] == ["Table 3", "Total"]
    assert rows[1][-1] == "50" and rows[-1][-1] == "50"
    bad = boss.get(url, {"day": "26/11/2026"})
    assert bad.status_code == 400 and "2026-11-26" in html(bad)


# ----------------------------------------------------------------------------- isolation


def my_urls(room: Room) -> list[tuple[str, str]]:
    """(method, url) of every room-scoped page built here."""
    (t,) = room.add_tables(3)
    s = play(t, room, rounds=1)
    slug = room.slug
    return [
        ("get", reverse("scorer:manage", args=[slug])),
        ("post", reverse("scorer:manage_close", args=[slug, s.code])),
        ("get", reverse("scorer:manage_report", args=[slug])),
        ("get", reverse("scorer:manage_tables", args=[slug])),
        ("post", reverse("scorer:manage_tables", args=[slug])),
        ("get", reverse("scorer:manage_table", args=[slug, 3])),
        ("post", reverse("scorer:manage_table", args=[slug, 3])),
        ("get", reverse("scorer:manage_table_qr", args=[slug, 3])),
        ("get", reverse("scorer:manage_qr_sheet", args=[slug])),
    ]


def test_every_manage_page_is_the_rooms_own(room: Room, boss: Client) -> None:
    other = Room.open("别家", "other")
    stranger = member_client(other, "other-boss")
    staff = User.objects.create_user("staff", password="x" * 20, is_staff=True)
    staff_client = Client()
    staff_client.force_login(staff)  # the site's staff, not a superuser: no room of its own
    anonymous = Client()
    for method, url in my_urls(room):
        data = {"note": "x", "number": "9", "count": "1"} if method == "post" else {}
        for client in (stranger, staff_client):
            assert getattr(client, method)(url, data).status_code == 404, url
        response = getattr(anonymous, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(resolve_url(settings.LOGIN_URL)), url
        assert getattr(boss, method)(url, data).status_code in (200, 302, 400), url
    assert (
        not other.tables.exists()
        and not GameSession.objects.filter(closed_at__isnull=False).exclude(room=room).exists()
    )
    # An admin (not only the owner) manages the room's day and tables.
    admin = member_client(room, "helper", RoomMember.ADMIN)
    assert admin.get(reverse("scorer:manage", args=[room.slug])).status_code == 200


# ----------------------------------------------------------------------------- queries


def populate(room: Room, tables: int) -> None:
    first = room.next_table_number()
    for t in room.add_tables(first, tables):
        play(t, room, rounds=2, take=1)
    play(None, room, rounds=1, take=1)


# The phone's session and its user (2), the membership (1), then the page's own reads:
# the dashboard's open tables and their rounds, the room's day (its closes), the
# day's books (scorer/services/books.py: the closes around the day, the tables
# charged, the rounds, the tables started, the money taken, the tables' rows, their
# charges and collections, the configurations' names), the reopened paid tables and
# the imported tables taken in lately; the report's day and books; the start page's
# configurations and names.
QUERIES = {"manage": 16, "manage_report": 12, "room": 3, "manage_qr_sheet": 4}


@pytest.mark.parametrize(
    ("name", "needs_login"),
    [("manage", True), ("manage_report", True), ("room", False), ("manage_qr_sheet", True)],
)
def test_the_rooms_pages_cost_the_same_queries_however_big(name: str, needs_login: bool) -> None:
    """2 tables in 1 room, then 6 tables in a room among 3: the same count."""
    counts = []
    for tables, rooms in ((2, 1), (6, 3)):
        room = Room.open(f"r{tables}", f"r{tables}")
        for i in range(rooms - 1):
            extra = Room.open(f"x{tables}{i}", f"x{tables}{i}")
            populate(extra, tables)
        populate(room, tables)
        client = member_client(room, f"boss{tables}") if needs_login else Client()
        url = reverse(f"scorer:{name}", args=[room.slug])
        client.get(url)  # the phone has been here before
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts == [QUERIES[name]] * 2


def test_a_tables_page_costs_the_same_queries_with_more_rooms(
    django_assert_max_num_queries: Any,
) -> None:
    room = Room.open("r", "r")
    (t,) = room.add_tables(3)
    play(t, room, rounds=3).close("x")
    url = reverse("scorer:table", args=[room.slug, t.code])
    client = Client()
    client.get(url)
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200


# ----------------------------------------------------------------------------- statistics


def test_a_players_record_counts_his_rooms_tables_only(room: Room) -> None:
    other = Room.open("别家", "other")
    play(None, room, rounds=2).close()
    play(None, other, rounds=3).close()
    mine = Player.objects.get(room=room, name="老王")
    theirs = Player.objects.get(room=other, name="老王")
    assert mine.pk != theirs.pk
    assert records(mine)[0][""].rounds == 2 and records(mine)[0][""].tables == 1
    assert records(theirs)[0][""].rounds == 3
