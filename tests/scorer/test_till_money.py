"""The till: a closed table's 计时 fee in 元 in its money ledger,
collected by method or owed, a reopen that never undoes what was collected, the
room's day ending at its own hour, members' balances."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.test import Client

from rules import RuleError
from scorer.models.money import ALIPAY, BALANCE, CASH, WECHAT, BalanceEntry
from scorer.models.players import Player
from scorer.models.roomlog import TILL_COLLECTED, TILL_DAY_CLOSED, TILL_TOPPED_UP
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services import books as book
from scorer.services import till
from tests.factories import make_table, record

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 27, 19, 0)
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}
D = Decimal


@pytest.fixture(autouse=True)
def till_clock() -> Iterator[None]:
    with clock.frozen(T0):
        yield


def at(minutes: int) -> dt.datetime:
    return clock.now().replace(hour=19, minute=0) + dt.timedelta(minutes=minutes)


def boss_of(room: Room) -> RoomMember:
    return RoomMember.objects.get(room=room, role=RoomMember.OWNER)


def played(room: Room, minutes: int, **fields: object) -> object:
    """A table of four, seated, one round, closed after `minutes` (a 20-minute pause)."""
    start = clock.now()
    s = make_table(room=room, time_fee=HOURLY, seated=True, **fields)
    record(s)
    clock.set_now(start + dt.timedelta(minutes=30))
    s.pause()
    clock.set_now(start + dt.timedelta(minutes=50))
    s.resume()
    clock.set_now(start + dt.timedelta(minutes=minutes + 20))
    assert s.close()
    return s


def test_a_closed_tables_fee_is_money_apart_from_the_points(room: Room, boss: Client) -> None:
    s = played(room, 130)
    assert s.money_charged() == [D("18.75")] * 4  # 75 元 AA
    # The players' points and the room's points take are as they were: zero-sum.
    assert sum(s.tallies()) + s.room_take() == 0 and s.room_take() == 0
    money = till.table_money(s)
    assert money.charged == 75 and money.owed == 75


def test_collected_by_method_or_owed_and_a_reopen_shows_the_difference(
    room: Room, boss: Client
) -> None:
    member = boss_of(room)
    s = played(room, 130)
    made = till.collect(s, {0: CASH, 1: WECHAT, 2: ALIPAY, 3: till.OWED}, member)
    assert [c.amount for c in made] == [D("18.75")] * 3
    assert till.collect(s, {0: CASH}, member) == []  # a second tap takes nothing
    assert room.log.filter(action=TILL_COLLECTED).count() == 3
    money = till.table_money(s)
    assert (money.charged, money.collected, money.owed) == (75, D("56.25"), D("18.75"))
    # Reopened, played on an hour, closed: 105 元; what was collected stays collected.
    assert s.reopen(note="one more")
    clock.set_now(clock.now() + dt.timedelta(minutes=60))
    assert s.close()
    money = till.table_money(s)
    assert money.charged == 105 and money.collected == D("56.25")
    assert [x.owed for x in money.seats] == [D("7.50"), D("7.50"), D("7.50"), D("26.25")]
    # Reopened and closed at once, an hour earlier than played: to refund.
    s.reopen()
    s.close(at=s.created_at + dt.timedelta(minutes=40))
    money = till.table_money(s)
    assert money.charged == 60 and money.owed == D("3.75")
    assert [x.owed for x in money.seats] == [D("-3.75"), D("-3.75"), D("-3.75"), D("15.00")]
    till.collect(s, {0: CASH, 1: CASH, 2: CASH, 3: CASH}, member)
    money = till.table_money(s)
    assert money.owed == 0 and money.by_method[CASH] == D("18.75") - D("3.75") * 3 + D("15.00")


def test_a_member_pays_from_his_balance_and_a_short_one_leaves_it_owed(
    room: Room, boss: Client
) -> None:
    member = boss_of(room)
    s = played(room, 130)
    wang = Player.objects.get(room=room, name="老王")
    li = Player.objects.get(room=room, name="小李")
    till.top_up(wang, D("100"), CASH, member)
    till.top_up(li, D("10"), WECHAT, member)
    with pytest.raises(till.BadAmount):
        till.top_up(li, D("-5"), CASH, member)
    till.collect(s, {0: BALANCE, 1: BALANCE, 2: BALANCE, 3: CASH}, member)
    assert till.balance_of(wang) == D("81.25")
    assert till.balance_of(li) == 0  # 10 of 18.75 taken, 8.75 owed
    seats = till.table_money(s).seats
    assert [x.owed for x in seats] == [0, D("8.75"), D("18.75"), 0]  # 阿强 has no balance
    entries, balance = till.statement(wang)
    assert [e.kind for e in entries] == [BalanceEntry.TOPUP, BalanceEntry.CHARGE]
    assert balance == D("81.25")
    assert room.log.filter(action=TILL_TOPPED_UP).count() == 2
    # A merge moves the balance with the seats ("小王" is how 老王 was once typed).
    alias = Player.objects.create(room=room, name="小王")
    till.top_up(alias, D("10"), CASH, member)
    alias.merge_into(wang)
    assert till.balance_of(wang) == D("91.25")


def test_the_rooms_day_ends_at_its_hour_and_the_day_is_closed(room: Room, boss: Client) -> None:
    member = boss_of(room)
    clock.set_now(dt.datetime(2026, 11, 27, 23, 0))
    s = played(room, 130)  # closes at 01:30 on the 28th: the 27th's evening
    assert s.closed_at is not None and s.closed_at.day == 28
    till.collect(s, {0: CASH, 1: CASH}, member)
    day = dt.date(2026, 11, 27)
    books = book.books(room, day)
    assert [r.day for r in books.rows] == [day]
    assert books.total.charged == 75 and books.total.collected == D("37.50")
    assert books.total.methods == [("现金", D("37.50"))]
    assert [(name, owed) for _, name, owed, _ in books.owing] == [
        ("阿强", D("18.75")),
        ("美玲", D("18.75")),
    ]
    assert book.books(room, dt.date(2026, 11, 28)).rows == []
    closed = till.close_day(room, day, member)
    assert closed.figures["owed"] == "37.50"
    with pytest.raises(till.DayRefused):
        till.close_day(room, day, member)
    assert room.log.filter(action=TILL_DAY_CLOSED).count() == 1
    # A new end hour applies to the days not closed: the 27th keeps its boundaries.
    till.set_day_end(room, 0, member)
    assert book.books(room, dt.date(2026, 11, 28)).rows == []
    assert [r.day for r in book.books(room, day).rows] == [day]


def test_periods() -> None:
    day = dt.date(2026, 11, 27)  # a Friday
    assert till.period("week", day) == (dt.date(2026, 11, 23), dt.date(2026, 11, 29))
    assert till.period("month", day) == (dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    assert till.period("month", dt.date(2026, 12, 5))[1] == dt.date(2026, 12, 31)
    assert till.period("day", day) == (day, day)


def test_the_money_ledger_travels_in_the_export_and_the_api(room: Room, boss: Client) -> None:
    from django.urls import reverse

    from scorer.services.export import import_table, table_json

    s = played(room, 130)
    data = json.loads(json.dumps(table_json(s)))
    assert data["money_charged"] == ["18.75"] * 4 and data["time_fee"]["mode"] == "hour"
    assert len(data["pauses"]) == 1
    copy = import_table(data, copy_of=data["origin"], room=room)
    assert copy.money_charged() == [D("18.75")] * 4  # charged again on the file's clock
    assert book.books(room, s.closed_at.date()).total.charged == 75  # not taken in yet
    with pytest.raises(RuleError):
        import_table({**data, "money_charged": ["1.00"] * 4}, copy_of=data["origin"], room=room)
    body = Client().get(reverse("scorer:api_session", args=[s.code])).json()
    assert body["money_charged"] == ["18.75"] * 4 and body["time_fee_so_far"] == "75.00"
    assert body["clock"] == {"seconds": 130 * 60, "paused": False}


def test_aa_in_yuan_is_charged_in_the_money_ledger(room: Room, boss: Client) -> None:
    s = make_table(room=room, fee={"mode": "aa", "unit": "yuan", "amount": "20"}, seated=True)
    record(s)
    assert s.close()
    assert s.money_charged() == [D(20)] * 4
    assert s.room_take() == 0 and sum(s.tallies()) == 0  # never in the points
    assert till.table_money(s).charged == 80


def test_a_rake_in_yuan_needs_the_tables_money_rate(room: Room) -> None:
    from django.urls import reverse

    from tests.support.start import form_data

    config = room.offered_configs()[0]
    config.fee = {"mode": "win_percent", "unit": "yuan", "percent": 10, "cap": "0"}
    config.save()
    url = reverse("scorer:room_create", args=[room.slug])
    r = Client().post(url, form_data(config, ["甲", "乙", "丙", "丁"]))
    assert (
        r.status_code == 400
        and "money per point" in r.content.decode().lower()
        or ("每分" in r.content.decode())
    )
    r = Client().post(url, form_data(config, ["甲", "乙", "丙", "丁"], money_per_point="0.5"))
    assert r.status_code == 302
