"""The books' two paths agree, over random evenings (hypothesis): one day's books (who
owes: every charge and collection read seat by seat, `_seat_slots`) and the reports'
(no one's debts shown: a table whose money all fell on one day summed per table by the
database, the others read seat by seat) give every line the same figures, for each day
and for the days together; and the money taken, summed per day, method and admin by
the database, equals the rows' own sums by the test's own day arithmetic.

The evenings are test_books_property's (tables reopened, refunds, part-payments, 日结,
days crossed), so tables paid on a later day, refunded a day after, or closed again
across the day's end take the seat-by-seat path next to tables summed."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, example, given, settings

from scorer.models.money import Collection
from scorer.models.rooms import Room
from scorer.money import clock
from scorer.services import books as book
from scorer.services import calendar
from tests.support.books import PAID, T0, evening, local_day, steps

pytestmark = pytest.mark.django_db


def figures(b: book.Books) -> list[tuple[object, ...]]:
    return [
        (r.day, r.session_id, r.charged, r.collected, r.later, r.point_money, r.points, r.rounds)
        + (r.reopened,)
        for r in b.rows
    ]


def taken_by_admin(room: Room, day: dt.date) -> dict[str, Decimal]:
    """The day's money taken per admin, from the rows by the test's own day arithmetic."""
    rows = [c for c in Collection.objects.filter(room=room) if local_day(room, c.at) == day]
    names = {c.by_name for c in rows}
    return {n: sum((c.amount for c in rows if c.by_name == n), Decimal(0)) for n in names}


def compare(room: Room) -> None:
    today = calendar.today(room)
    first = today - dt.timedelta(days=3)
    spans = [(first + dt.timedelta(days=k),) * 2 for k in range(5)] + [(first, today)]
    for a, b in spans:
        by_seat = book.books(room, a, b, owing=True)
        summed = book.books(room, a, b, owing=False)
        assert figures(summed) == figures(by_seat)
        assert summed.taken == by_seat.taken and summed.by_admin == by_seat.by_admin
        if any(r.later for r in by_seat.rows):
            event("paid on a later day")
    for day in (today - dt.timedelta(days=1), today):
        b = book.books(room, day, owing=False)
        assert b.total.by_admin == {k: v for k, v in taken_by_admin(room, day).items()}


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(history=steps)
# A second table paid the next day, then reopened, closed lower and refunded the day
# after: its money is on three days (the seat-by-seat path beside the summed one).
@example(
    history=[
        ("open", 1, 1),
        ("play", 1, 1),
        ("wait", 1, 90),
        ("close", 1, 1),
        ("long", 1, 20),
        ("collect", 1, 5),
        ("reopen", 1, 1),
        ("back", 1, 1),
        ("long", 1, 24),
        ("refund", 1, 7),
        ("collect", 0, 6),
    ]
)
def test_the_summed_books_equal_the_books_read_seat_by_seat(
    room: Room, history: list[tuple[str, int, int]]
) -> None:
    with transaction.atomic(), clock.frozen(T0):
        evening(room, PAID + history)
        compare(room)
        transaction.set_rollback(True)  # (each example its own evening)
