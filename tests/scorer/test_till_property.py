"""The till's invariants over random evenings (hypothesis):
tables opened, paused, resumed, played, closed, reopened; balances topped up; fees
collected in part, in full, from a balance or left owed.  After every step:

- charged = collected + owed, for every table and for the day (and the day's
  figures are the tables' sums);
- (each table after every step that touched it, all of them at the evening's end)
- a table's charge is its rule's fee on its time less its pauses, counted here
  apart from the app's clock arithmetic;
- a member's balance = his top-ups - what was taken from it;
- the players' points plus the room's take are zero on every table.

max_examples is modest: each example is an evening in the database."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rules import RuleError
from scorer.models.money import ALIPAY, BALANCE, CASH, WECHAT
from scorer.models.players import Player
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.money.timefee import TimeFee
from scorer.services import books as book
from scorer.services import till
from tests.factories import SHORT_NAMES, make_member, make_table, record

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
RULES = [
    {"mode": "hour", "price": "30", "unit": 30, "minimum": 120},
    {"mode": "block", "price": "50", "hours": 4, "grace": 10, "overtime": "block"},
    {
        "mode": "block", "price": "50", "hours": 4, "grace": 10,
        "overtime": "hour", "overtime_price": "15", "unit": 30,
    },
    {"mode": "hour", "price": "33.33", "unit": 7, "minimum": 0},
]  # fmt: skip
OPS = ["open", "wait", "pause", "resume", "play", "close", "reopen", "topup", "collect"]
METHODS = [CASH, WECHAT, ALIPAY, BALANCE, till.OWED]

steps = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(0, 3), st.integers(1, 200)),
    min_size=4,
    max_size=30,
)


class Table:
    """The test's own account of one table's time: running spans, apart from the app."""

    def __init__(self, session: object, rule: dict[str, object], now: dt.datetime) -> None:
        self.s = session
        self.rule = TimeFee.from_json(rule)
        self.ran = 0  # seconds billed so far
        self.since: dt.datetime | None = now  # running since (None: paused or closed)
        self.played = False
        self.charge = Decimal(0)  # its last close's charge (kept while reopened)

    def stop(self, now: dt.datetime) -> None:
        if self.since is not None:
            self.ran += int((now - self.since).total_seconds())
            self.since = None


@settings(
    max_examples=15,
    deadline=None,
    # The room is made once (its presets are the costly part); each evening is rolled back.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # (shrinking an evening is slow)
)
@given(history=steps)
def test_random_evenings_keep_the_books_whole(
    room: Room, history: list[tuple[str, int, int]]
) -> None:
    with transaction.atomic(), clock.frozen(T0):
        evening(room, history)
        transaction.set_rollback(True)  # (each example its own evening)


def evening(room: Room, history: list[tuple[str, int, int]]) -> None:
    member = make_member(room, "boss", RoomMember.OWNER, "老板")
    tables: list[Table] = []
    topped: dict[int, Decimal] = {}
    for op, which, n in history:
        now = clock.now()
        t = tables[which % len(tables)] if tables else None
        if op == "open" or t is None:
            s = make_table(room=room, players=SHORT_NAMES, time_fee=RULES[which], seated=True)
            tables.append(Table(s, RULES[which], now))
        elif op == "wait":
            clock.set_now(now + dt.timedelta(minutes=n))
        elif op == "pause" and t.s.pause(by=member):
            t.stop(now)
        elif op == "resume" and t.s.resume(by=member):
            t.since = now
        elif op == "play":
            try:
                record(t.s)
                t.played = True
            except RuleError:
                assert t.s.closed_at is not None  # a closed table takes no round
        elif op == "close" and t.s.close():
            t.stop(now)
            t.charge = t.rule.fee(t.ran) if t.played else Decimal(0)
        elif op == "reopen" and t.s.reopen():
            t.since = clock.now()
        elif op == "topup":
            player = Player.objects.get(room=room, name=SHORT_NAMES[which])
            till.top_up(player, Decimal(n), CASH, member)
            topped[player.pk] = topped.get(player.pk, Decimal(0)) + n
        elif op == "collect" and t.s.closed_at is not None:
            choices = {seat: METHODS[(seat + n) % len(METHODS)] for seat in range(4)}
            part = {seat: Decimal(n) / 7 for seat in range(4)} if n % 2 else None
            part = {k: v.quantize(Decimal("0.01")) for k, v in part.items()} if part else None
            till.collect(t.s, choices, member, amounts=part)
        if t is not None:
            check_table(t)
    check(room, tables, topped)


def check_table(t: Table) -> till.TableMoney:
    t.s.refresh_from_db()
    assert sum(t.s.tallies()) + t.s.room_take() == 0
    money = till.table_money(t.s)
    assert money.charged == money.collected + money.owed
    assert money.collected == sum(money.by_method.values(), Decimal(0))
    # Closed, its fee on its time; reopened, its last close's (kept in the books).
    assert money.charged == t.charge
    if t.s.closed_at is not None:
        assert t.charge == (t.rule.fee(t.ran) if t.played else Decimal(0))
    return money


def check(room: Room, tables: list[Table], topped: dict[int, Decimal]) -> None:
    """At the evening's end: every table, the days' books, every balance."""
    day_charged = day_collected = Decimal(0)
    for t in tables:
        money = check_table(t)
        day_charged += money.charged
        day_collected += money.collected
    books = book.books(room, T0.date() - dt.timedelta(days=1), T0.date() + dt.timedelta(days=2))
    assert books.total.charged == day_charged
    assert books.total.collected == day_collected
    assert books.total.charged == books.total.collected + books.total.owed
    assert sum((d.charged for d in books.days), Decimal(0)) == books.total.charged
    for p in Player.objects.filter(room=room):
        taken = -sum((e.amount for e in p.balance_entries.filter(kind="charge")), Decimal(0))
        assert till.balance_of(p) == topped.get(p.pk, Decimal(0)) - taken
        assert till.balance_of(p) >= 0  # a balance is never charged past what it holds
