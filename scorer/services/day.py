"""The room's day, as its admins follow it: the tables open now, what the room took
today (台费), and a day's report.

Every figure is read in a fixed number of queries whatever the size of the room
or of the site (benchmarks/rooms.py measures them at 1,000 rooms): the rounds of
all the tables in one query, their sums made here.

"Today" is a day in the site's local time (TIME_ZONE), from midnight to midnight:
a round counts on the day it was recorded, so a table played across midnight is
split between two days' reports.  A round undone does not count; a corrected
round counts as its current version says.

The books count the tables played in the room.  A table imported from a file
(anyone may import on a room's page) counts only once the room's admins have
taken it in (GameSession.take_in), and then its rounds on the days the file says
they were played; until then the dashboard lists it apart, for them to decide.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext

from scorer import clock
from scorer.models import GameSession, Round, RoundRevision
from scorer.models.rooms import Room, RoomTable
from scorer.parse import int_or_none

# An open table with no change for this long is marked stale on the dashboard:
# players who went home without closing it (its admins close it, saying why).
STALE_AFTER = dt.timedelta(hours=2)


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The day's first and last instant (excluded), in the site's local time."""
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    end = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min))
    return start, end


def today() -> dt.date:
    return timezone.localdate()


def _day_rounds(room: Room, day: dt.date) -> Any:
    """The standing rounds of the room's tables recorded on that day.

    `session__updated_at__gte`: a table with a round recorded that day changed that
    day or later (every change bumps it), so tables finished before the day are
    never read: the day costs the same after a year of tables as on the first.
    """
    start, end = day_bounds(day)
    return Round.objects.filter(
        GameSession.in_books_q("session__"),
        session__room=room,
        session__updated_at__gte=start,
        session__created_at__lt=end,
        status=Round.ACTIVE,
        created_at__gte=start,
        created_at__lt=end,
    )


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


# ----------------------------------------------------------------------------- fees


@dataclass
class FeeLine:
    label: str
    number: int | None
    rounds: int = 0
    take: int = 0  # in the tables' points
    money: Decimal | None = None  # where the tables have a rate


@dataclass
class Fees:
    lines: list[FeeLine] = field(default_factory=list)
    total: FeeLine = field(default_factory=lambda: FeeLine("", None))


def _add_money(line: FeeLine, take: int, rate: Decimal | None) -> None:
    if rate is not None:
        line.money = (line.money or Decimal(0)) + take * rate


def fees_of_day(room: Room, day: dt.date, label_total: str = "") -> Fees:
    """What the room took on that day, per fixed table and in total (1 query): the
    `room_take` of the current versions of the day's standing rounds."""
    per_session = (
        _day_rounds(room, day)
        .values(
            "session_id",
            "session__money_per_point",
            "session__room_table_id",
            "session__room_table__number",
            "session__room_table__name",
        )
        .annotate(take=Sum("current__room_take"), rounds=Count("id", filter=Round.hands_q()))
    )
    by_table: dict[int | None, FeeLine] = {}
    fees = Fees(total=FeeLine(label_total, None))
    for row in per_session:
        key = row["session__room_table_id"]
        line = by_table.get(key)
        if line is None:
            number = row["session__room_table__number"]
            name = row["session__room_table__name"]
            t = None if key is None else RoomTable(number=number, name=name)
            line = by_table[key] = FeeLine(table_label(t), number)
        take = int(row["take"] or 0)
        rate = row["session__money_per_point"]
        for target in (line, fees.total):
            target.take += take
            target.rounds += row["rounds"]
            _add_money(target, take, rate)
    fees.lines = sorted(by_table.values(), key=lambda f: (f.number is None, f.number or 0))
    return fees


# ----------------------------------------------------------------------------- the report


@dataclass
class ReportRow:
    session: GameSession
    label: str
    config: str
    rounds: int = 0
    results: list[tuple[str, int]] = field(default_factory=list)
    take: int = 0
    money: Decimal | None = None
    # A stored line the report can't read (points that are not whole numbers: written by
    # no version of the app, but a database is not a promise): said so, left out of sums.
    unreadable: bool = False


def day_report(room: Room, day: dt.date) -> list[ReportRow]:
    """Every table played on that day (a round recorded, or started that day): its
    players' results over the day's rounds and the room's take (3 queries)."""
    start, end = day_bounds(day)
    rounds = list(
        _day_rounds(room, day).values_list(
            "session_id", "current__deltas", "current__room_take", "current__kind"
        )
    )
    ids = {r[0] for r in rounds}
    sessions = list(
        room.sessions.filter(Q(pk__in=ids) | Q(created_at__gte=start, created_at__lt=end))
        .filter(GameSession.in_books_q())
        .select_related("room_table")
        .order_by("room_table__number", "created_at", "pk")
    )
    configs = dict(room.configs.values_list("pk", "name"))
    rows: dict[int, ReportRow] = {}
    for s in sessions:
        config_pk = GameSession.config_id_of(s.preset, s.imported_at)
        config = configs.get(config_pk) if config_pk is not None else None
        rows[s.pk] = ReportRow(
            session=s,
            label=table_label(s.room_table),
            config=config or s.ruleset,
            results=[(str(n), 0) for n in s.players],
        )
    totals: dict[int, list[int]] = {pk: [0] * len(r.results) for pk, r in rows.items()}
    for session_id, deltas, take, kind in rounds:
        row = rows[session_id]
        seat_totals = totals[session_id]
        points = [int_or_none(d) for d in (deltas or [])[: len(seat_totals)]]
        room_take = int_or_none(take or 0)
        if room_take is None or None in points or not isinstance(deltas, list):
            row.unreadable = True
            continue
        row.rounds += kind in RoundRevision.HANDS  # 局: hands; every line's points count
        row.take += room_take
        for seat, d in enumerate(points):
            seat_totals[seat] += d or 0
    for pk, row in rows.items():
        row.results = [(name, t) for (name, _), t in zip(row.results, totals[pk], strict=True)]
        rate = row.session.money_per_point
        row.money = None if rate is None else row.take * rate
    # Fixed tables in number order, then the others, each in the order they started.
    return sorted(rows.values(), key=lambda r: _table_order(r.session))


def sum_money(values: Iterable[Decimal | None]) -> Decimal | None:
    known = [v for v in values if v is not None]
    return sum(known, Decimal(0)) if known else None


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def results_text(results: Sequence[tuple[str, int]]) -> str:
    return " · ".join(f"{name} {signed(total)}" for name, total in results)


__all__ = [
    "STALE_AFTER",
    "FeeLine",
    "Fees",
    "OpenTable",
    "ReportRow",
    "day_bounds",
    "day_report",
    "fees_of_day",
    "open_tables",
    "results_text",
    "sum_money",
    "tables_now",
    "today",
]
