"""The one way into a change of any row: `lock_objects(*rows)`, and its case for a
table, `locked(session)`.  (After pretix's `lock_objects`,
pretix/base/services/locking.py.)

**The locking rule.**  A change opens `lock_objects` with every row its race is
about, before it reads anything else: it starts a transaction and reads those rows
again under their row locks (SELECT … FOR UPDATE), so two phones or two admins
changing the same rows are served one after the other, the second seeing what the
first did.  The rows are locked **in one fixed order**, whatever order the caller
names them in: first by the rank of their model in `LOCK_ORDER`, then by primary
key within a model.  Two changes that lock in the same order never wait on each
other in a circle, so PostgreSQL never has to break a deadlock (on SQLite, which
locks the whole database at the first write, the order changes nothing and
select_for_update() is a no-op; the transaction is the lock there).

The order, widest first:

1. the room (its own settings: name, day's end, which configurations it offers,
   their order, its league's visibility);
2. the room's own rows: a configuration, a member, an invitation, a fixed table,
   a season, the league's choices;
3. a table (GameSession): its rounds, their revisions, its trails (RoundChange,
   SessionChange) and its money rows (TableCharge, Collection) are read and written
   only under its lock;
4. a player (his name, his balance: a balance is charged under the table's lock,
   so the player comes after the table).

A lock taken while another is held (a change calling another under its lock) must
come later in that order, or be one held already; `lock_objects` refuses one that
comes earlier (LockOrderError), so a change that breaks the rule fails its tests
rather than deadlocking once in production.  A change that needs rows of two ranks
names them all in one call (a merge of two players names the tables whose seats
move, then the players).

The room's row is locked FOR NO KEY UPDATE: every row of the room (its log, its
money rows, its players) refers to it, and PostgreSQL's check of such a reference
takes a KEY SHARE lock on the room, which a FOR UPDATE lock would block: every
logged change in the room would queue behind one admin's reordering, and one that
held its own row meanwhile would deadlock with it.  The weaker lock orders the
room's own changes the same and lets the references through.  The room's counters
(`league_version`) are moved by an UPDATE at the end of a table's change: so a
change holding the room's lock never waits for a table's.

`locked(session)` is the case of one table: it also refuses a closed table
(TABLE_CLOSED), which reopening, and what reads a closed table's money, allow.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar, cast

from django.db import models, transaction

from scorer.models import errors

# The ranks, widest first (the module's docstring says why this order).
LOCK_ORDER: tuple[str, ...] = (
    "scorer.Room",
    "scorer.RoomConfig",
    "scorer.RoomMember",
    "scorer.RoomInvite",
    "scorer.RoomTable",
    "scorer.Season",
    "scorer.League",
    "scorer.GameSession",
    "scorer.Player",
)
RANK = {label: rank for rank, label in enumerate(LOCK_ORDER)}
# Locked FOR NO KEY UPDATE: the rows every row of a room refers to (see above).
NO_KEY = frozenset({"scorer.Room"})

# The (rank, pk) of the rows this context holds locked: filled from the outermost
# lock_objects to its end (an inner one's rows stay locked with the transaction).
_held: ContextVar[set[tuple[int, Any]] | None] = ContextVar("locked_rows", default=None)


class LockOrderError(RuntimeError):
    """A lock taken out of the one order (the module's docstring): a deadlock waiting."""


M = TypeVar("M", bound=models.Model)


def rank_of(row: models.Model) -> int:
    """The place of `row`'s model in LOCK_ORDER; ValueError for a model it names not."""
    label = row._meta.label
    if label not in RANK:
        raise ValueError(f"{label} has no place in the lock order (scorer/models/locking.py)")
    return RANK[label]


@contextmanager
def lock_objects(*rows: M) -> Iterator[list[M]]:
    """A transaction holding the row locks of `rows`, taken in the one order (rank,
    then pk); yields each row read again under its lock, in the order given.  The
    rows given are the caller's copies as they were before the lock: read and change
    the ones yielded.  A row gone meanwhile raises its model's DoesNotExist (nothing
    changed).  LockOrderError for a row of an earlier rank than one held already."""
    keys = {(rank_of(r), r.pk): r for r in rows}
    held = _held.get()
    outermost = held is None
    held = set() if held is None else held
    new = sorted(k for k in keys if k not in held)
    if held and new and new[0] < max(held):
        raise LockOrderError(
            f"{keys[new[0]]._meta.label} {new[0][1]} locked after a row of a later rank: "
            "name every row in the first lock_objects (scorer/models/locking.py)"
        )
    token = _held.set(held) if outermost else None
    try:
        with transaction.atomic():
            found = {k: _read(keys[k]) for k in keys if k in held}
            for rank in sorted({rank for rank, _pk in new}):
                found.update(_lock_rank(rank, [keys[k] for k in new if k[0] == rank]))
            held.update(new)
            yield [found[(rank_of(r), r.pk)] for r in rows]
    finally:
        if token is not None:
            _held.reset(token)


def _read(row: models.Model) -> Any:
    """A row held locked already, read again (its lock is the transaction's)."""
    return cast(Any, type(row)).objects.get(pk=row.pk)


def _lock_rank(rank: int, rows: list[models.Model]) -> dict[tuple[int, Any], Any]:
    """The rows of one model locked and read again, in pk order (one query)."""
    model = cast(Any, type(rows[0]))
    no_key = LOCK_ORDER[rank] in NO_KEY
    query = model.objects.select_for_update(no_key=no_key).filter(pk__in=[r.pk for r in rows])
    found = {(rank, row.pk): row for row in query.order_by("pk")}
    gone = [r.pk for r in rows if (rank, r.pk) not in found]
    if gone:
        raise model.DoesNotExist(f"{LOCK_ORDER[rank]} {gone[0]} is gone")
    return found


class TableRow(Protocol):
    """What the lock reads of a session (scorer.models.GameSession is one)."""

    pk: Any
    closed_at: dt.datetime | None


Row = TypeVar("Row", bound=TableRow)


@contextmanager
def locked(session: Row, *, closed_ok: bool = False) -> Iterator[Row]:
    """The one way into a change of a table: `lock_objects(session)`, the session's
    row read again under its lock, and a closed table refused (errors.TABLE_CLOSED)
    unless `closed_ok` (closing, reopening, taking in, the clock and the till's
    collection, which look at a closed table on purpose).

    The row given back is the one to read and change: `session` is the caller's
    copy, as it was before the lock.  (The session's class is read off `session`:
    this module lies below the sessions' own.)"""
    with lock_objects(cast(models.Model, session)) as (row,):
        if cast(Any, row).closed_at is not None and not closed_ok:
            raise errors.TABLE_CLOSED.error()
        yield cast(Row, row)
