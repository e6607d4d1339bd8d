"""The till's pages: collecting a table's fee by method or
leaving it owed, the day's close-out, reports by day/week/month and their CSV,
members' balances and statements; another room's admin sees none of it."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.players import Player
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services import till
from tests.factories import make_room, make_table, member_client, record

pytestmark = pytest.mark.django_db

HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}


@pytest.fixture(autouse=True)
def till_clock() -> Iterator[None]:
    with clock.frozen(dt.datetime(2026, 11, 27, 19, 0)):
        yield


def evening(room: Room, tables: int = 1, minutes: int = 130) -> list[GameSession]:
    start = clock.now()
    made = []
    numbered = room.add_tables(room.next_table_number(), tables)
    for t in numbered:
        s = make_table(room=room, room_table=t, time_fee=HOURLY, seated=True)
        record(s)
        made.append(s)
    clock.set_now(start + dt.timedelta(minutes=minutes))
    for s in made:
        s.close()
    return made


def url(name: str, room: Room, *args: object) -> str:
    return reverse(f"scorer:{name}", args=[room.slug, *args])


def test_collect_a_table_then_the_day_and_the_month(room: Room, boss: Client) -> None:
    (s,) = evening(room)
    wang = Player.objects.get(room=room, name="老王")
    r = boss.post(
        url("manage_balances", room), {"player": wang.pk, "amount": "100", "method": "cash"}
    )
    assert r.status_code == 302 and till.balance_of(wang) == 100
    assert boss.post(
        url("manage_balances", room), {"player": wang.pk, "amount": "-1", "method": "cash"}
    )
    assert till.balance_of(wang) == 100
    page = boss.get(url("manage_till_table", room, s.code)).content.decode()
    assert (
        "Member&#x27;s balance (100 yuan)" in page or "会员余额（100 元）" in page or "100" in page
    )
    boss.post(
        url("manage_till_table", room, s.code),
        {"seat_0": "balance", "seat_1": "cash", "seat_2": "wechat", "seat_3": "owed"},
    )
    assert till.balance_of(wang) == 81.25
    day = boss.get(url("manage_till", room) + "?day=2026-11-27").content.decode()
    assert 'data-figure="charged">75.00 元<' in day
    assert 'data-figure="collected">56.25 元<' in day
    assert 'data-figure="owed">18.75 元<' in day and "美玲" in day
    review = boss.post(url("manage_till", room), {"day": "2026-11-27", "action": "review"})
    seen = re.search(r'name="seen" value="(\w+)"', review.content.decode())
    assert seen is not None and 'id="close-review"' in review.content.decode()
    boss.post(url("manage_till", room), {"day": "2026-11-27", "action": "close", "seen": seen[1]})
    day = boss.get(url("manage_till", room) + "?day=2026-11-27").content.decode()
    assert 'id="day-closed"' in day
    month = boss.get(
        url("manage_till_report", room) + "?period=month&day=2026-11-15"
    ).content.decode()
    assert "2026-11-27" in month and "75" in month
    statement = boss.get(url("manage_statement", room, wang.pk)).content.decode()
    assert 'id="balance">81.25 元<' in statement


def test_the_report_csv_in_the_pages_language(room: Room) -> None:
    evening(room, tables=2)
    for language, head in (("zh-hans", "日期"), ("en", "Day")):
        client = member_client(room, f"boss-{language}", RoomMember.OWNER, "老板")
        client.cookies["django_language"] = language
        r = client.get(url("manage_till_report", room) + "?period=week&day=2026-11-27&format=csv")
        rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
        assert rows[0][0] == head
        assert [row[0] for row in rows[1:3]] == ["2026-11-27", "2026-11-27"]
        assert rows[-1][5:9] == ["150.00", "0.00", "0.00", "150.00"]


def test_query_counts_do_not_grow_with_tables(room: Room, boss: Client) -> None:
    evening(room, tables=1)

    def count() -> int:
        with CaptureQueriesContext(connection) as q:
            boss.get(url("manage_till_report", room) + "?period=month&day=2026-11-27")
            boss.get(url("manage_till", room) + "?day=2026-11-27")
        return len(q)

    count()  # (the first pages of a signed-in phone save its session once)
    few = count()
    clock.set_now(dt.datetime(2026, 11, 27, 19, 0))
    evening(room, tables=5)
    assert count() == few


def test_another_rooms_admin_sees_none_of_it(room: Room, boss: Client) -> None:
    other = make_room("other", "别家")
    (s,) = evening(other)
    p = Player.objects.filter(room=other).first()
    assert p is not None
    assert boss.get(url("manage_till_table", room, s.code)).status_code == 404
    assert boss.get(url("manage_statement", room, p.pk)).status_code == 404
    r = boss.post(url("manage_balances", room), {"player": p.pk, "amount": "10", "method": "cash"})
    assert r.status_code == 302 and till.balance_of(p) == 0
    assert "别家" not in boss.get(url("manage_till", room) + "?day=2026-11-27").content.decode()
