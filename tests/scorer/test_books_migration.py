"""A database in use: charges struck through at a reopening (before the books held
still) are struck through at the close that replaced them, or, while the table
stands reopened, kept in the books."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scorer", "0021_till")]
AFTER = [("scorer", "0022_books")]
T = timezone.make_aware(dt.datetime(2026, 11, 27, 19, 0))


def test_charges_undone_at_a_reopen_move_to_the_close_that_replaced_them() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    room = old.get_model("scorer", "Room").objects.create(name="r", slug="r")
    Session = old.get_model("scorer", "GameSession")
    Charge = old.get_model("scorer", "TableCharge")
    closed_again = Session.objects.create(
        code="a", room=room, ruleset="mcr", players=["甲"], closed_at=T + dt.timedelta(hours=5)
    )
    reopened = Session.objects.create(code="b", room=room, ruleset="mcr", players=["甲"])
    nothing_left = Session.objects.create(
        code="c", room=room, ruleset="mcr", players=["甲"], closed_at=T + dt.timedelta(hours=6)
    )
    at_reopen = T + dt.timedelta(hours=4, minutes=30)
    first = Charge.objects.create(
        room=room, session=closed_again, seat=0, amount=Decimal("50"), at=T + dt.timedelta(hours=4),
        undone_at=at_reopen,
    )  # fmt: skip
    Charge.objects.create(room=room, session=closed_again, seat=0, amount=Decimal("57.50"),
                          at=closed_again.closed_at)  # fmt: skip
    kept = Charge.objects.create(
        room=room, session=reopened, seat=0, amount=Decimal("50"), at=T, undone_at=at_reopen
    )
    gone = Charge.objects.create(
        room=room, session=nothing_left, seat=0, amount=Decimal("50"), at=T, undone_at=at_reopen
    )
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("scorer", "TableCharge")
    assert new.objects.get(pk=first.pk).undone_at == closed_again.closed_at
    assert new.objects.get(pk=kept.pk).undone_at is None
    assert new.objects.get(pk=gone.pk).undone_at == nothing_left.closed_at
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
