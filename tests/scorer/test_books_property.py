"""The books hold still, over random evenings (hypothesis): tables opened, played,
closed, reopened (from a player's phone) and closed again; seats paid in part, in
full, by several methods, refunds given; 日结 taken at random moments, with a cash
count; days crossed.  After every step:

- the money taken on each day, by method, never drops when a table is reopened;
- a closed day's kept figures never change (the row, and what its page shows);
- per table, charged = collected + owed; per day, the money taken is the sum of that
  day's collections and refunds (counted here from the rows, by the test's own day
  arithmetic); the day's charges are what was collected for them plus what is owed;

and at the evening's end 今天, 收银, the day CSV and the month report give the same
totals for every day.

max_examples is modest: each example is an evening in the database."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings

from scorer.models.rooms import Room
from scorer.money import clock
from tests.support.books import PAID, T0, evening, steps

pytestmark = pytest.mark.django_db


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(history=steps)
def test_random_evenings_hold_the_books_still(
    room: Room, history: list[tuple[str, int, int]]
) -> None:
    with transaction.atomic(), clock.frozen(T0):
        evening(room, PAID + history)
        transaction.set_rollback(True)  # (each example its own evening)
