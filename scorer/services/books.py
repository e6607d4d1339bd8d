"""The room's books: its money for a day, read one way, by one function (`books`), for
今天 (the dashboard), 收银 (the day's close-out), the day report and its CSV, and the
week and month reports.

**The room's day** is cut at its end hour, a closed day's as it was closed with: the
days are scorer/services/calendar.py's (`Calendar`).

**When money counts** (every figure in 元):
- a table's money charge (its 计时 fee and fees set in 元, `TableCharge`) on the day
  of its close.  Reopened, the table keeps its last close's charge in the books,
  marked reopened, until it closes again; that close replaces it and the
  difference (more owed, or to refund) counts on that close's day;
- a collection or a refund (`Collection`) on the day it was taken, by its method and
  the admin who took it, whatever its table does later;
- what was collected for a table is set against its charges oldest first (a refund
  against the charge that made it), so a day's line says how much of its charges
  was collected, and how much of that on a later day ("paid later");
- point fees (`room_take` of the rounds, the players' ledger) on the day of their
  round: in 元 at their table's rate, in 分 in a column of their own where the table
  has none.  They are settled among the players at the table (the room is a payee
  of the settle-up), never collected by the till.

Identities (tests/scorer/test_books_property.py): per table, charged = collected +
owed; per day, the money taken that day is the sum of that day's collections and
refunds; the day's charges are what was collected for them (on any day) plus what
is still owed.

An imported table counts once the room's admins took it in (`_in_books`, the one
place that says so).  Queries: a fixed number, whatever the days or the tables; the
rows read one by one are a day's (who owes, the day report's points), while a week or
a month is summed by the database where the figures allow (docs/performance.md).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, Greatest
from django.utils.translation import gettext

from scorer.clean.parse import int_or_none
from scorer.models import GameSession, Round, RoundRevision
from scorer.models.money import METHODS, ZERO, Collection, TableCharge
from scorer.models.players import Player, Seat
from scorer.models.rooms import Room
from scorer.models.rounds import SessionChange
from scorer.services.calendar import Calendar
from scorer.services.day import table_label

# ----------------------------------------------------------------------------- the day


def _in_books(qs: QuerySet[Any], prefix: str = "session__") -> QuerySet[Any]:
    """The rows of tables the room's books count: played here, or imported and taken in
    (GameSession.in_books_q).  The one place the books read it."""
    return qs.filter(GameSession.in_books_q(prefix))


# ----------------------------------------------------------------------------- the rows


@dataclass(kw_only=True)
class Charged:
    """What was charged and what was collected for it, summed as the till goes: a
    seat, one table's day in the books, or their totals.  Keyword-only, so each
    subclass's own fields come first in its constructor."""

    charged: Decimal = ZERO
    collected: Decimal = ZERO
    # Of `collected`, what was taken on a day after the charge's ("paid later").
    later: Decimal = ZERO
    # Point fees (the rounds' room_take): in 元 where the table has a rate, else in 分.
    point_money: Decimal = ZERO
    points: int = 0

    @property
    def owed(self) -> Decimal:
        """Still owed (negative: to give back)."""
        return self.charged - self.collected

    def add(self, other: Charged) -> None:
        self.charged += other.charged
        self.collected += other.collected
        self.later += other.later
        self.point_money += other.point_money
        self.points += other.points


@dataclass
class BookRow(Charged):
    """One table's money on one of the room's days."""

    day: dt.date
    session_id: int
    code: str
    label: str
    config: str
    players: list[str]
    number: int | None = None
    started: dt.datetime | None = None
    closed: dt.datetime | None = None  # None: the table stands reopened (or open)
    reopened: dt.datetime | None = None  # since when, for a reopened table
    rounds: int = 0
    results: list[int] = field(default_factory=list)
    unreadable: bool = False
    owing: list[tuple[str, Decimal, Player | None]] = field(default_factory=list)

    @property
    def results_named(self) -> list[tuple[str, int]]:
        return list(zip(self.players, self.results, strict=False))


@dataclass
class Totals(Charged):
    label: str
    # Money taken that day (collections and refunds), by method and by admin.
    taken: dict[str, Decimal] = field(default_factory=dict)
    by_admin: dict[str, Decimal] = field(default_factory=dict)

    @property
    def taken_total(self) -> Decimal:
        return sum(self.taken.values(), ZERO)

    @property
    def methods(self) -> list[tuple[str, Decimal]]:
        return [(str(METHODS[m]), self.taken[m]) for m in METHODS if m in self.taken]


@dataclass
class Books:
    """The room's money over some days: a line per table and day, the money taken,
    and totals per day, per table and per configuration."""

    first: dt.date
    last: dt.date
    start: dt.datetime
    end: dt.datetime
    rows: list[BookRow] = field(default_factory=list)
    taken: dict[dt.date, dict[str, Decimal]] = field(default_factory=dict)
    by_admin: dict[dt.date, dict[str, Decimal]] = field(default_factory=dict)

    def _group(self, key: Any, label: Any) -> list[Totals]:
        out: dict[Any, Totals] = {}
        for r in self.rows:
            out.setdefault(key(r), Totals(label=label(r))).add(r)
        return [out[k] for k in sorted(out, key=lambda k: (k is None, k))]

    @property
    def days(self) -> list[Totals]:
        out = {t.label: t for t in self._group(lambda r: r.day, lambda r: r.day.isoformat())}
        for day in sorted(set(self.taken) | set(self.by_admin)):
            t = out.setdefault(day.isoformat(), Totals(label=day.isoformat()))
            t.taken, t.by_admin = self.taken.get(day, {}), self.by_admin.get(day, {})
        return [out[k] for k in sorted(out)]

    @property
    def tables(self) -> list[Totals]:
        return self._group(lambda r: (r.number is None, r.number or 0, r.label), lambda r: r.label)

    @property
    def configs(self) -> list[Totals]:
        return self._group(lambda r: r.config, lambda r: r.config)

    @property
    def total(self) -> Totals:
        t = Totals(label=gettext("Total"))
        for r in self.rows:
            t.add(r)
        for by, into in ((self.taken, t.taken), (self.by_admin, t.by_admin)):
            for sums in by.values():
                for k, v in sums.items():
                    into[k] = into.get(k, ZERO) + v
        return t

    @property
    def owing(self) -> list[tuple[BookRow, str, Decimal, Player | None]]:
        return [(r, name, owed, p) for r in self.rows for name, owed, p in r.owing if owed]

    @property
    def reopened(self) -> list[BookRow]:
        return [r for r in self.rows if r.reopened is not None]

    @property
    def any_points(self) -> bool:
        return any(r.points for r in self.rows)

    @property
    def any_point_money(self) -> bool:
        return any(r.point_money for r in self.rows)


# ----------------------------------------------------------------------------- reading


@dataclass
class _Slot:
    """One seat's charge on one day, with what was set against it."""

    day: dt.date
    charged: Decimal = ZERO
    collected: Decimal = ZERO
    later: Decimal = ZERO
    touched: bool = False

    @property
    def owed(self) -> Decimal:
        return self.charged - self.collected


def _set_against(
    slots: list[_Slot], amount: Decimal, day: dt.date, last: dt.date | None = None
) -> None:
    """A collection (or a refund, negative) set against a seat's charges: the oldest
    unpaid first (a refund: the newest to refund first), the rest on the newest."""
    if not slots:
        slots.append(_Slot(last or day))
    order = slots if amount > 0 else list(reversed(slots))
    left = amount
    for slot in order:
        if not left:
            break
        room = slot.owed
        part = min(room, left) if amount > 0 else max(room, left)
        if (part > 0) if amount > 0 else (part < 0):
            slot.collected += part
            slot.later += part if day > slot.day else ZERO
            left -= part
    if left:
        slots[-1].collected += left
        slots[-1].later += left if day > slots[-1].day else ZERO


def books(
    room: Room,
    first: dt.date,
    last: dt.date | None = None,
    owing: bool | None = None,
    results: bool = False,
) -> Books:
    """The room's money over its days first..last: a line per table and day on which
    its charge changed (a close), a round of it was recorded or it started; the
    money taken each day by method and by admin; with `owing` (one day's books by
    default), who owes what; with `results` (the day report), each line's players'
    points, read round by round.  Without, the rounds are summed by the database, a
    row per table (a month of a busy room is thousands of rounds).  Likewise the
    money: without `owing`, a table whose charges and collections all fell on one day
    is summed per table by the database, and only the others' rows are read to set
    each seat's payments against its charges (tests/scorer/test_books_sums.py: the
    two ways agree).  A fixed number of queries (13 at most), none given a list of the
    period's tables (the database finds them again by subquery)."""
    last = last or first
    owing = first == last if owing is None else owing
    cal = Calendar.of(room, first, last)
    start, end = cal.range(first, last)
    out = Books(first, last, start, end)
    in_range = Q(at__gte=start, at__lt=end) | Q(undone_at__gte=start, undone_at__lt=end)
    money = _in_books(TableCharge.objects.filter(room=room).filter(in_range))
    money_ids = set(money.order_by().values_list("session_id", flat=True).distinct())
    standing = _in_books(
        Round.objects.filter(
            session__room=room, status=Round.ACTIVE, created_at__gte=start, created_at__lt=end
        )
    )
    rounds, summed = _rounds(standing, cal, results)
    made = Q(created_at__gte=start, created_at__lt=end) & GameSession.in_books_q("")
    started = set(room.sessions.filter(made).values_list("pk", flat=True))
    taken = _in_books(Collection.objects.filter(room=room, at__gte=start, at__lt=end))
    _takings(out, cal, first, last, taken)
    played = {r[0] for r in rounds} | {r[0] for r in summed}
    ids = money_ids | played | started
    if not ids:
        return out
    # The tables, by the queries that found them (a month's ids as parameters cost
    # more than its rows).
    lines = _Lines(
        room, Q(pk__in=money.values("session_id")) | Q(pk__in=played) | made, first, last
    )
    players: dict[tuple[int, int], Player] = {}
    if owing:
        players = {
            (s.session_id, s.seat): s.player
            for s in Seat.objects.filter(session_id__in=money_ids).select_related("player")
        }
        by_seat = money_ids
    else:
        # Who owes is not shown: a table whose money all fell on one day is summed by the
        # database; the others' seats are read one by one.
        by_seat = _money_of_one_day(room, lines, money, cal)
    for (sid, seat), seat_slots in _seat_slots(by_seat, cal).items():
        for slot in seat_slots:
            lines.add_slot(sid, seat, slot, players if owing else None)
    for sid, at, take, deltas, kind in rounds:
        lines.add_round(sid, cal.day_of(at), take, deltas, kind)
    for sid, day, take, hands in summed:
        lines.add_points(sid, day, take, hands)
    for sid in started:
        lines.line(sid, cal.day_of(lines.sessions[sid].created_at))  # its line, if nothing else
    lines.mark_reopened()
    out.rows = sorted(
        lines.rows.values(),
        key=lambda r: (r.day, r.number is None, r.number or 0, r.started or start, r.session_id),
    )
    return out


def _money_of_one_day(
    room: Room, lines: _Lines, money: QuerySet[TableCharge], cal: Calendar
) -> set[int]:
    """The tables whose every charge, striking-through and collection fell on one day of
    the books: summed per table by the database (2 queries, each a table's first and last
    instant) onto that day's line, as `_seat_slots` would (a slot a seat, nothing paid
    later).  Returns the others, to be read seat by seat."""
    tables = money.values("session_id")
    charges = (
        TableCharge.objects.filter(room=room, session__in=tables)
        .values("session_id")
        .annotate(
            net=Sum("amount", filter=Q(undone_at__isnull=True)),
            lo=Min("at"),
            hi=Greatest(Max("at"), Coalesce(Max("undone_at"), Max("at"))),
        )
        .values_list("session_id", "net", "lo", "hi")
        .order_by()
    )
    paid = {
        sid: (total, lo, hi)
        for sid, total, lo, hi in Collection.objects.filter(room=room, session__in=tables)
        .values("session_id")
        .annotate(total=Sum("amount"), lo=Min("at"), hi=Max("at"))
        .values_list("session_id", "total", "lo", "hi")
        .order_by()
    }
    across: set[int] = set()
    for sid, net, lo, hi in charges:
        if sid not in lines.sessions:  # charged since its tables were read: not in these books
            continue
        collected, paid_lo, paid_hi = paid.get(sid, (ZERO, lo, hi))
        day = cal.day_of(min(lo, paid_lo))
        if day != cal.day_of(max(hi, paid_hi)):  # (a day is an interval: all between)
            across.add(sid)
            continue
        row = lines.line(sid, day)
        if row is not None:
            row.charged += net or ZERO
            row.collected += collected
    return across


def _rounds(
    standing: QuerySet[Round], cal: Calendar, results: bool
) -> tuple[list[tuple[Any, ...]], list[tuple[int, dt.date, int, int]]]:
    """The standing rounds of the days: one by one (their points, for the results), or
    summed per table by the database where all of a table's rounds fall on one day
    (the rare table played across the day's end is read one by one)."""
    fields = ("session_id", "created_at", "current__room_take", "current__deltas", "current__kind")
    if results:
        return list(standing.values_list(*fields)), []
    summed: list[tuple[int, dt.date, int, int]] = []
    across: list[int] = []
    per_table = standing.values("session_id").annotate(
        take=Sum("current__room_take"),
        hands=Count("id", filter=Round.hands_q()),
        lo=Min("created_at"),
        hi=Max("created_at"),
    )
    for row in per_table.values_list("session_id", "take", "hands", "lo", "hi"):
        sid, take, hands, lo, hi = row
        day = cal.day_of(lo)
        if day == cal.day_of(hi):
            summed.append((sid, day, take or 0, hands))
        else:
            across.append(sid)
    one_by_one = list(standing.filter(session_id__in=across).values_list(*fields)) if across else []
    return one_by_one, summed


def _takings(
    out: Books, cal: Calendar, first: dt.date, last: dt.date, taken: QuerySet[Collection]
) -> None:
    """The money taken (collections and refunds) on each day, by method and by admin:
    summed by the database (1 query), in the order they were first taken."""
    sums = (
        taken.annotate(day=cal.day_sql("at", first, last))
        .values("day", "method", "by_name")
        .annotate(total=Sum("amount"), first=Min("at"), first_pk=Min("pk"))
        .order_by("first", "first_pk")
        .values_list("day", "method", "by_name", "total", "first")
    )
    for ordinal, method, by_name, amount, at in sums:
        # (0: between a closed day's bounds and the next day's, which meet by design)
        day = dt.date.fromordinal(ordinal) if ordinal else cal.day_of(at)
        by_method = out.taken.setdefault(day, {})
        by_method[method] = by_method.get(method, ZERO) + amount
        admins = out.by_admin.setdefault(day, {})
        admins[by_name] = admins.get(by_name, ZERO) + amount


def _seat_slots(ids: set[int], cal: Calendar) -> dict[tuple[int, int], list[_Slot]]:
    """Each seat's charges by day and what was set against them: every charge (and its
    striking through) and collection of those tables, whenever, in time order."""
    slots: dict[tuple[int, int], list[_Slot]] = defaultdict(list)
    events: list[tuple[dt.datetime, int, int, int, Decimal]] = []  # (at, order, session, seat, ±)
    for sid, seat, amount, at, undone in TableCharge.objects.filter(session_id__in=ids).values_list(
        "session_id", "seat", "amount", "at", "undone_at"
    ):
        events.append((at, 0, sid, seat, amount))
        if undone is not None:
            events.append((undone, 0, sid, seat, -amount))
    for sid, seat, amount, at in Collection.objects.filter(session_id__in=ids).values_list(
        "session_id", "seat", "amount", "at"
    ):
        events.append((at, 1, sid, seat, amount))
    events.sort(key=lambda e: (e[0], e[1]))
    for at, kind, sid, seat, amount in events:
        day = cal.day_of(at)
        seat_slots = slots[(sid, seat)]
        if kind == 0:
            if not seat_slots or seat_slots[-1].day != day:
                seat_slots.append(_Slot(day))
            seat_slots[-1].charged += amount
            seat_slots[-1].touched = True
        else:
            _set_against(seat_slots, amount, day)
    return slots


class _Lines:
    """The books' lines, a table's day each, made as the rows that fill them are read."""

    def __init__(self, room: Room, tables: Q, first: dt.date, last: dt.date) -> None:
        self.first, self.last = first, last
        self.rows: dict[tuple[int, dt.date], BookRow] = {}
        self.configs = dict(room.configs.values_list("pk", "name"))
        fields = ("pk", "code", "players", "preset", "ruleset", "room_table", "money_per_point")
        self.sessions = {
            s.pk: s
            for s in GameSession.objects.filter(tables, room=room)
            .only(*fields, "created_at", "closed_at", "imported_at")
            .select_related("room_table")
        }

    def line(self, sid: int, day: dt.date) -> BookRow | None:
        """The table's line on that day (None: a day outside the books asked for)."""
        if not self.first <= day <= self.last:
            return None
        if (sid, day) not in self.rows:
            s = self.sessions[sid]
            pk = GameSession.config_id_of(s.preset, s.imported_at)
            self.rows[(sid, day)] = BookRow(
                day=day,
                session_id=sid,
                code=s.code,
                label=table_label(s.room_table),
                config=(self.configs.get(pk) if pk is not None else None) or s.ruleset,
                players=[str(n) for n in s.players],
                number=s.room_table.number if s.room_table is not None else None,
                started=s.created_at,
                closed=s.closed_at,
                results=[0] * len(s.players),
            )
        return self.rows[(sid, day)]

    def add_slot(
        self, sid: int, seat: int, slot: _Slot, players: dict[tuple[int, int], Player] | None
    ) -> None:
        row = self.line(sid, slot.day) if slot.touched or slot.collected else None
        if row is None:
            return
        row.charged += slot.charged
        row.collected += slot.collected
        row.later += slot.later
        if players is not None and slot.owed and seat < len(row.players):
            row.owing.append((row.players[seat], slot.owed, players.get((sid, seat))))

    def add_round(self, sid: int, day: dt.date, take: Any, deltas: Any, kind: str) -> None:
        row = self.line(sid, day)
        if row is None:
            return
        # A stored line the books can't read (points not whole numbers: written by no
        # version of the app, but a database is not a promise): said so, left out.
        points = [int_or_none(d) for d in (deltas or [])[: len(row.results)]]
        room_take = int_or_none(take or 0)
        if room_take is None or None in points or not isinstance(deltas, list):
            row.unreadable = True
            return
        self.add_points(sid, day, room_take, int(kind in RoundRevision.HANDS))  # 局: hands
        for seat, p in enumerate(points):
            row.results[seat] += p or 0

    def add_points(self, sid: int, day: dt.date, take: int, hands: int) -> None:
        """A table's rounds of one day: its point fees (in 元 at its rate, else in 分)
        and its 局."""
        row = self.line(sid, day)
        if row is None:
            return
        rate = self.sessions[sid].money_per_point
        if rate is None:
            row.points += take
        else:
            row.point_money += take * rate
        row.rounds += hands

    def mark_reopened(self) -> None:
        """A reopened table's lines that keep its last close's charge: since when."""
        reopened = {sid for sid, _ in self.rows if self.sessions[sid].closed_at is None}
        if not reopened:
            return
        since = dict(
            SessionChange.objects.filter(session_id__in=reopened, action=SessionChange.REOPEN)
            .values("session_id")
            .annotate(last=Max("at"))
            .values_list("session_id", "last")
        )
        for row in self.rows.values():
            if row.closed is None and row.charged and row.session_id in since:
                row.reopened = since[row.session_id]


def reopened_paid(room: Room) -> list[GameSession]:
    """The room's tables reopened after money was collected for them: their admins are
    told (dashboard, till) until they close again (1 query)."""
    return list(
        _in_books(room.sessions.filter(closed_at__isnull=True, collections__isnull=False), "")
        .distinct()
        .select_related("room_table")
    )


__all__ = [
    "BookRow",
    "Books",
    "Charged",
    "Totals",
    "books",
    "reopened_paid",
]
