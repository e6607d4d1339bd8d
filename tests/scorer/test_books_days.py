"""When money counts: a debt paid on a later day is money taken that day and, on its
table's day, collected "paid later"; a reopened table keeps its last close's charge,
marked, and the next close's difference counts on that close's day; what each admin
took; an undone take-in or an imported table never counts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from scorer.models.money import CASH, WECHAT
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services import books as book
from scorer.services import till
from tests.factories import make_member, make_table, record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("till_evening")]

T0 = dt.datetime(2026, 11, 27, 19, 0)
DAY1, DAY2 = dt.date(2026, 11, 27), dt.date(2026, 11, 28)
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 60}
D = Decimal


def later(**kw: int) -> None:
    clock.set_now(clock.now() + dt.timedelta(**kw))


def owner(room: Room) -> RoomMember:
    return RoomMember.objects.get(room=room, role=RoomMember.OWNER)


def test_a_debt_paid_the_next_day(room: Room, boss: object) -> None:
    s = make_table(room=room, time_fee=HOURLY, seated=True)
    record(s)
    later(minutes=120)
    assert s.close()  # 60 元 on the 27th, nothing paid
    later(days=1)
    till.collect(s, dict.fromkeys(range(4), CASH), owner(room))
    first, second = book.books(room, DAY1), book.books(room, DAY2)
    (row,) = first.rows
    assert (row.charged, row.collected, row.later, row.owed) == (60, 60, 60, 0)
    assert first.total.taken == {} and second.total.taken == {CASH: D("60.00")}
    assert second.rows == []  # the money is the 28th's; the charge stays the 27th's


def test_a_reopened_table_across_days(room: Room, boss: object) -> None:
    s = make_table(room=room, time_fee=HOURLY, seated=True)
    record(s)
    later(minutes=120)
    assert s.close()  # 60 on the 27th, paid
    till.collect(s, dict.fromkeys(range(4), WECHAT), owner(room))
    later(hours=10)  # 07:00 on the 28th: the 28th
    assert s.reopen(author="phone")
    (row,) = book.books(room, DAY1).rows
    assert row.charged == 60 and row.reopened is not None
    assert book.reopened_paid(room) == [s]
    assert book.books(room, DAY1).total.taken == {WECHAT: D("60.00")}
    record(s)
    later(minutes=30)
    assert s.close()  # 2 h 30 of play: 75, the 15 more on the 28th
    (row,) = book.books(room, DAY1).rows
    assert (row.charged, row.collected, row.reopened) == (60, 60, None)
    (row,) = book.books(room, DAY2).rows
    assert (row.charged, row.collected, row.owed) == (15, 0, 15)
    assert book.reopened_paid(room) == []
    month = book.books(room, dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    assert month.total.charged == 75 and month.total.owed == 15


def test_what_each_admin_took(room: Room, boss: object) -> None:
    s = make_table(room=room, time_fee=HOURLY, seated=True)
    record(s)
    later(minutes=120)
    assert s.close()
    staff = make_member(room, "xiaomei", RoomMember.ADMIN, "小美")
    till.collect(s, {0: CASH, 1: CASH}, owner(room))
    till.collect(s, {2: WECHAT}, staff)
    day = book.books(room, DAY1).total
    assert day.by_admin == {"老板": D("30.00"), "小美": D("15.00")}
    assert day.taken == {CASH: D("30.00"), WECHAT: D("15.00")}


def test_point_fees_of_a_table_played_across_the_days_end(room: Room, boss: object) -> None:
    """Rounds summed by the database (the month) or read one by one (the day report):
    the same point fees on the same days, a table across the day's end split."""
    s = make_table(room=room, fee={"mode": "win_fixed", "amount": 2}, seated=True)
    record(s)
    record(s)
    later(hours=12)  # 07:00 on the 28th
    record(s)
    month = book.books(room, dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    by_day = {r.day: (r.points, r.rounds) for r in month.rows}
    for day in (DAY1, DAY2):
        (row,) = book.books(room, day, results=True).rows
        assert by_day[day] == (row.points, row.rounds) and row.points > 0
    assert [r.rounds for r in month.rows] == [2, 1]
    other = make_table(room=room, fee={"mode": "win_fixed", "amount": 2}, seated=True)
    record(other)  # one day only: summed by the database
    (row,) = [r for r in book.books(room, DAY2).rows if r.session_id == other.pk]
    assert row.rounds == 1 and row.points == book.books(room, DAY2, results=True).rows[1].points
