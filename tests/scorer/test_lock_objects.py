"""`lock_objects`, the one way into a change of any row (scorer/models/locking.py):
rows locked in one fixed order whatever order they are named in, read again under
the lock, and a lock taken out of that order refused before it can deadlock."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorer.models import GameSession
from scorer.models.locking import LOCK_ORDER, LockOrderError, lock_objects, locked
from scorer.models.players import Player
from scorer.models.rooms import Room
from tests.factories import make_room, make_table

pytestmark = pytest.mark.django_db


def tables_read(queries: list[dict[str, str]]) -> list[str]:
    """The tables of the SELECTs run, in order."""
    out = []
    for q in queries:
        found = re.match(r'SELECT .*? FROM "?(\w+)"?', q["sql"])
        if found:
            out.append(found.group(1))
    return out


def test_rows_are_locked_by_rank_then_pk_whatever_the_order_named() -> None:
    room = make_room("east")
    s = make_table(room=room, players=["甲", "乙", "丙", "丁"], seated=True)
    a, b = Player.objects.filter(room=room).order_by("pk")[:2]
    with CaptureQueriesContext(connection) as seen, lock_objects(b, s, room, a) as rows:
        pass
    assert [type(r) for r in rows] == [Player, GameSession, Room, Player]  # as named
    assert [r.pk for r in rows] == [b.pk, s.pk, room.pk, a.pk]
    assert all(row is not given for row, given in zip(rows, [b, s, room, a], strict=True))
    read = tables_read(seen.captured_queries)
    assert read == ["scorer_room", "scorer_gamesession", "scorer_player"]
    player_query = next(q["sql"] for q in seen.captured_queries if "scorer_player" in q["sql"])
    assert "ORDER BY" in player_query  # by pk within a model


def test_the_order_is_room_its_rows_a_table_a_player() -> None:
    assert LOCK_ORDER[0] == "scorer.Room"
    assert LOCK_ORDER.index("scorer.RoomTable") < LOCK_ORDER.index("scorer.GameSession")
    assert LOCK_ORDER.index("scorer.GameSession") < LOCK_ORDER.index("scorer.Player")


def test_a_lock_of_an_earlier_rank_under_a_later_one_is_refused() -> None:
    room = make_room("east")
    s = make_table(room=room)
    with pytest.raises(LockOrderError), locked(s), lock_objects(room):
        pass
    # Later ranks, and rows held already, are taken.
    player = Player.objects.create(room=room, name="甲")
    with lock_objects(room), locked(s) as row, lock_objects(player, s) as (p, again):
        assert (p.pk, again.pk, row.pk) == (player.pk, s.pk, s.pk)


def test_an_inner_locks_rows_stay_held_until_the_outer_one_ends() -> None:
    """The inner lock's rows are the transaction's until it ends: a lower pk of the
    same rank after them is out of order too."""
    room = make_room("east")
    low, high = (Player.objects.create(room=room, name=n) for n in ("甲", "乙"))
    with pytest.raises(LockOrderError), lock_objects(room):
        with lock_objects(high):
            pass
        with lock_objects(low):
            pass
    with lock_objects(room):  # the outer lock ended: a new order begins
        pass
    with lock_objects(low):
        pass


def test_a_row_gone_meanwhile_is_its_models_does_not_exist() -> None:
    room = make_room("east")
    gone = Player.objects.create(room=room, name="甲")
    Player.objects.filter(pk=gone.pk).delete()
    with pytest.raises(Player.DoesNotExist), lock_objects(room, gone):
        pass


def test_a_model_with_no_rank_is_refused() -> None:
    user = User.objects.create_user("x")
    with pytest.raises(ValueError, match="no place in the lock order"), lock_objects(user):
        pass
