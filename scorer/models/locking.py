"""The one lock every change of a table takes: `locked(session)`.

**The locking rule** (one, for every change of a table): a change opens
`locked(session)`, which starts a transaction and takes the session's row lock
(SELECT … FOR UPDATE) before anything else is read, then refuses a closed table
(TABLE_CLOSED; reopening, and what reads a closed table's money, say so).  The
table's row is the one lock: its rounds, their revisions, its trails
(RoundChange, SessionChange) and its money rows (TableCharge, Collection) are
read and written only under it, so two phones (or a phone and an admin) changing
one table are served one after the other, the second seeing what the first did.
A player's balance is locked after the table, never before (scorer/services/till.py), so
two locks are always taken in that one order and never wait on each other.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar, cast

from django.db import transaction

from scorer.models import errors


class TableRow(Protocol):
    """What the lock reads of a session (scorer.models.GameSession is one)."""

    pk: Any
    closed_at: dt.datetime | None


Row = TypeVar("Row", bound=TableRow)


@contextmanager
def locked(session: Row, *, closed_ok: bool = False) -> Iterator[Row]:
    """The one way into a change of a table: a transaction, the session's row read
    again under its lock (SELECT … FOR UPDATE), and a closed table refused
    (errors.TABLE_CLOSED) unless `closed_ok` (closing, reopening, taking in, the
    clock and the till's collection, which look at a closed table on purpose).

    The row given back is the one to read and change: `session` is the caller's
    copy, as it was before the lock.  (The session's class is read off `session`:
    this module lies below the sessions' own.)
    """
    model = cast(Any, type(session))
    with transaction.atomic():
        row: Row = model.objects.select_for_update().get(pk=session.pk)
        if row.closed_at is not None and not closed_ok:
            raise errors.TABLE_CLOSED.error()
        yield row
