"""The room's tables as its admins follow them: the tables open now, with their
standings, and the imported tables not taken into the books.  The room's money
(what it took today, the day's report) is its books' (scorer/services/books.py).

Read in a fixed number of queries whatever the size of the room or of the site
(benchmarks/rooms.py measures them at 1,000 rooms).

A table imported from a file (anyone may import on a room's page) counts in the
books only once the room's admins have taken it in (GameSession.take_in); until
then the dashboard lists it apart, for them to decide.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from scorer.models import GameSession, Round, RoundRevision
from scorer.models.rooms import Room, RoomTable
from scorer.money import clock

# An open table with no change for this long is marked stale on the dashboard:
# players who went home without closing it (its admins close it, saying why).
STALE_AFTER = dt.timedelta(hours=2)


def table_label(t: RoomTable | None) -> str:
    return t.label if t is not None else gettext("No fixed table")


# ----------------------------------------------------------------------------- open tables


@dataclass
class OpenTable:
    session: GameSession
    label: str
    # (name, total) per seat, highest first: the table's standings so far.
    standings: list[tuple[str, int]]
    rounds: int
    in_progress: bool
    last_activity: dt.datetime
    stale: bool
    # The table's clock (scorer/present/fee.py clock_view), set by the page that shows it.
    clock: dict[str, Any] | None = None


def open_tables(room: Room, now: dt.datetime | None = None) -> list[OpenTable]:
    """The room's open tables (sessions) in its books, by table number (2 queries)."""
    return tables_now(room, now)[0]


def tables_now(
    room: Room, now: dt.datetime | None = None
) -> tuple[list[OpenTable], list[OpenTable]]:
    """The room's open tables in its books, by table number; and the tables imported
    into the room that its admins have not taken in, open or closed (2 queries for
    both: the dashboard shows them together)."""
    now = now or clock.now()
    sessions = list(
        room.sessions.filter(
            Q(closed_at__isnull=True) | Q(imported_at__isnull=False, taken_in_at__isnull=True)
        )
        .select_related("room_table")
        .order_by("room_table__number", "-updated_at", "-pk")
    )
    totals: dict[int, list[int]] = {s.pk: [0] * s.n_players for s in sessions}
    counts: dict[int, int] = defaultdict(int)
    playing: set[int] = set()
    rows = Round.objects.filter(session__in=[s.pk for s in sessions], status=Round.ACTIVE)
    for session_id, deltas, in_progress, kind in rows.values_list(
        "session_id", "current__deltas", "in_progress", "current__kind"
    ):
        counts[session_id] += kind in RoundRevision.HANDS  # 局: hands, not the other lines
        if in_progress:
            playing.add(session_id)
        seat_totals = totals[session_id]
        for seat, d in enumerate((deltas or [])[: len(seat_totals)]):
            seat_totals[seat] += int(d)
    out = []
    for s in sessions:
        standings = sorted(
            zip([str(n) for n in s.players], totals[s.pk], strict=True), key=lambda p: -p[1]
        )
        out.append(
            OpenTable(
                session=s,
                label=table_label(s.room_table),
                standings=standings,
                rounds=counts[s.pk],
                in_progress=s.pk in playing,
                last_activity=s.updated_at,
                stale=now - s.updated_at > STALE_AFTER,
            )
        )
    out.sort(key=lambda t: _table_order(t.session))  # stable: latest activity first within
    return [t for t in out if t.session.in_books], [t for t in out if not t.session.in_books]


def _table_order(s: GameSession) -> tuple[bool, int]:
    """Fixed tables in number order, then the tables started from the room's page
    (SQLite and PostgreSQL put NULL at opposite ends: sorted here)."""
    return (s.room_table is None, s.room_table.number if s.room_table is not None else 0)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def results_text(results: Sequence[tuple[str, int]]) -> str:
    return " · ".join(f"{name} {signed(total)}" for name, total in results)


__all__ = [
    "STALE_AFTER",
    "OpenTable",
    "open_tables",
    "results_text",
    "table_label",
    "tables_now",
]
