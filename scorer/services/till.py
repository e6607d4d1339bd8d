"""The room's till: what its tables owe in 元, what was collected and how, what is
still owed, members' balances, the day's close-out (日结) and reports by day, week
and month.

Every money change here is a function in one transaction.atomic() that locks the
row the race is about (select_for_update) and writes the room's log
(scorer/models/roomlog.py) in the same transaction.  The figures are read in a fixed
number of queries whatever the size of the room or of the site
(benchmarks/rooms.py measures them at 1,000 rooms).

**The room's day** ends at an hour the room sets (`Room.day_ends_hour`, 06:00 by
default): a table closed at 02:00 counts on the evening before.  A table's money
counts on the day of its (last) close; what was collected for it counts with it,
whenever it was collected, so that for every table and every day
charged = collected + owed (owed < 0: to refund).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Sum, Value
from django.utils import timezone
from django.utils.translation import gettext

from scorer import clock
from scorer.models import GameSession
from scorer.models.money import (
    BALANCE,
    HAND_METHODS,
    METHODS,
    ZERO,
    BalanceEntry,
    Collection,
    DayClose,
    TableCharge,
)
from scorer.models.players import Player, Seat
from scorer.models.roomlog import TILL_COLLECTED, TILL_DAY_CLOSED, TILL_TOPPED_UP
from scorer.models.rooms import Room, RoomMember
from scorer.models.sessions import locked as locked_table
from scorer.parse import money_or_none
from scorer.services.day import table_label
from scorer.timefee import CENT, MAX_PRICE

OWED = "owed"  # a seat left owing (a choice of the collect form, no row)


# ----------------------------------------------------------------------------- the room's day


def room_day(room: Room, when: dt.datetime) -> dt.date:
    """The room's day an instant falls on: before its day's end hour, the day before."""
    local = timezone.localtime(when)
    return (local - dt.timedelta(hours=room.day_ends_hour)).date()


def day_range(
    room: Room, first: dt.date, last: dt.date | None = None
) -> tuple[dt.datetime, dt.datetime]:
    """The room's days first..last (included) as [start, end) instants."""
    hour = dt.time(room.day_ends_hour)
    start = timezone.make_aware(dt.datetime.combine(first, hour))
    end = timezone.make_aware(dt.datetime.combine((last or first) + dt.timedelta(days=1), hour))
    return start, end


def today(room: Room) -> dt.date:
    return room_day(room, clock.now())


# ----------------------------------------------------------------------------- a table's money


@dataclass(kw_only=True)
class Charged:
    """What was charged and what was collected, summed as the till goes: a seat, one
    table's day in the books, or their totals.  Keyword-only, so each subclass's own
    fields come first in its constructor."""

    charged: Decimal = ZERO
    collected: Decimal = ZERO

    @property
    def owed(self) -> Decimal:
        """Still owed (negative: to give back)."""
        return self.charged - self.collected


@dataclass
class SeatMoney(Charged):
    seat: int
    name: str
    player: Player | None


@dataclass
class TableMoney:
    session: GameSession
    seats: list[SeatMoney]
    by_method: dict[str, Decimal] = field(default_factory=dict)

    @property
    def charged(self) -> Decimal:
        return sum((s.charged for s in self.seats), ZERO)

    @property
    def collected(self) -> Decimal:
        return sum((s.collected for s in self.seats), ZERO)

    @property
    def owed(self) -> Decimal:
        return self.charged - self.collected

    @property
    def any(self) -> bool:
        return bool(self.charged or self.collected)


def table_money(session: GameSession) -> TableMoney:
    """A table's money ledger: per seat, what it owes the room, what was collected (3 queries)."""
    players = {
        s.seat: s.player for s in Seat.objects.filter(session=session).select_related("player")
    }
    seats = [
        SeatMoney(seat, str(name), players.get(seat)) for seat, name in enumerate(session.players)
    ]
    for seat, amount in session.charges.filter(undone_at__isnull=True).values_list(
        "seat", "amount"
    ):
        if seat < len(seats):
            seats[seat].charged += amount
    money = TableMoney(session, seats)
    for seat, method, amount in session.collections.values_list("seat", "method", "amount"):
        if seat < len(seats):
            seats[seat].collected += amount
        money.by_method[method] = money.by_method.get(method, ZERO) + amount
    return money


def balance_of(player: Player) -> Decimal:
    return player.balance_entries.aggregate(s=Sum("amount"))["s"] or ZERO


def collect(
    session: GameSession,
    choices: Mapping[int, str],
    by: RoomMember,
    amounts: Mapping[int, Decimal] | None = None,
) -> list[Collection]:
    """An admin marks a closed table's fee collected, seat by seat: `choices` a method
    (现金, 微信, 支付宝, 会员余额) or OWED per seat; `amounts` (optional) a part of a
    seat's due.  A seat owing less than nothing (a reopen lowered a fee already
    paid) is given back by the method chosen.  From a member's balance, the admin's
    choice is the confirmation (names are typed by anyone at a table): only what the
    balance holds is taken, the rest stays owed.

    Race: two admins collecting the same table at once would both see the seat
    owing and take it twice; the table's row lock orders them, and the second
    finds nothing owed.  A balance is charged under its player's row lock too."""
    # The table's lock (sessions.locked; a closed table is what is collected), then a
    # balance's: the one order the locking rule allows.
    with locked_table(session, closed_ok=True) as locked:
        money = table_money(locked)
        made: list[Collection] = []
        for seat in money.seats:
            method = choices.get(seat.seat, OWED)
            due = seat.owed
            if method not in METHODS or not due:
                continue
            if amounts is not None and seat.seat in amounts:
                part = abs(amounts[seat.seat])  # a part of what is due, never more
                due = min(due, part) if due > 0 else max(due, -part)
                if not due:
                    continue
            if method == BALANCE:
                if seat.player is None or due < 0:
                    continue  # no member here, or a refund: given back by hand
                Player.objects.select_for_update().get(pk=seat.player.pk)
                due = min(due, max(balance_of(seat.player), ZERO))
                if not due:
                    continue
                BalanceEntry.objects.create(
                    room_id=locked.room_id,
                    player=seat.player,
                    kind=BalanceEntry.CHARGE,
                    amount=-due,
                    method=BALANCE,
                    session=locked,
                    by_name=by.shown_name[:80],
                )
            made.append(
                Collection.objects.create(
                    room_id=locked.room_id,
                    session=locked,
                    seat=seat.seat,
                    amount=due,
                    method=method,
                    by=by.user,
                    by_name=by.shown_name[:80],
                )
            )
            locked.room.log_action(
                TILL_COLLECTED,
                by,
                {
                    **locked.log_data(),
                    "seat": seat.seat,
                    "name": seat.name,
                    "amount": str(due),
                    "method": method,
                },
            )
        if made:
            locked.bump()
        return made


class BadAmount(ValueError):
    """An amount of money that is none (not positive, too big, finer than a 分)."""


def checked_amount(raw: Any) -> Decimal:
    """An amount typed on the till (a top-up): 0.01 to MAX_PRICE 元, read by scorer/parse.py
    (a form field's surrounding spaces dropped, as a form does)."""
    value = money_or_none(raw.strip() if isinstance(raw, str) else raw, CENT, MAX_PRICE)
    if value is None:
        raise BadAmount(raw)
    return value


def top_up(player: Player, amount: Decimal, method: str, by: RoomMember) -> BalanceEntry:
    """A member pays money into his balance (会员储值) by `method` (cash, WeChat, Alipay).

    Race: a top-up and a charge to the same balance at once; the player's row lock
    orders them, so a charge never reads a balance a top-up is changing."""
    if method not in HAND_METHODS:
        raise ValueError(method)
    amount = checked_amount(amount)
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        entry = BalanceEntry.objects.create(
            room_id=locked.room_id,
            player=locked,
            kind=BalanceEntry.TOPUP,
            amount=amount,
            method=method,
            by_name=by.shown_name[:80],
        )
        by.room.log_action(
            TILL_TOPPED_UP,
            by,
            {
                "player": locked.name,
                "player_id": locked.pk,
                "amount": str(amount),
                "method": method,
            },
        )
        return entry


# ----------------------------------------------------------------------------- the books


@dataclass
class BookRow(Charged):
    """One table's money on one of the room's days."""

    day: dt.date
    session_id: int
    code: str
    label: str
    config: str
    players: list[str]
    owing: list[tuple[str, Decimal, Player | None]] = field(default_factory=list)


@dataclass
class Totals(Charged):
    label: str


@dataclass
class Books:
    """The room's money over some days: a row per table and day, totals per day, per
    table and per configuration, and what was collected by method."""

    first: dt.date
    last: dt.date
    rows: list[BookRow] = field(default_factory=list)
    by_method: dict[str, Decimal] = field(default_factory=dict)

    def _group(self, key: Any, label: Any) -> list[Totals]:
        out: dict[Any, Totals] = {}
        for r in self.rows:
            t = out.setdefault(key(r), Totals(label(r)))
            t.charged += r.charged
            t.collected += r.collected
        return [out[k] for k in sorted(out, key=lambda k: (k is None, k))]

    @property
    def days(self) -> list[Totals]:
        return self._group(lambda r: r.day, lambda r: r.day.isoformat())

    @property
    def tables(self) -> list[Totals]:
        return self._group(lambda r: r.label, lambda r: r.label)

    @property
    def configs(self) -> list[Totals]:
        return self._group(lambda r: r.config, lambda r: r.config)

    @property
    def total(self) -> Totals:
        t = Totals(gettext("Total"))
        for r in self.rows:
            t.charged += r.charged
            t.collected += r.collected
        return t

    @property
    def methods(self) -> list[tuple[str, Decimal]]:
        return [(str(METHODS[m]), self.by_method[m]) for m in METHODS if m in self.by_method]

    @property
    def owing(self) -> list[tuple[BookRow, str, Decimal, Player | None]]:
        return [(r, name, owed, p) for r in self.rows for name, owed, p in r.owing if owed]


def books(
    room: Room, first: dt.date, last: dt.date | None = None, owing: bool | None = None
) -> Books:
    """The room's money over its days first..last (6 queries at most, whatever the
    number of rooms, tables or days): each table charged on those days (its last
    close), what was collected for it (whenever), what it still owes and, with
    `owing` (one day's books by default: the close-out lists them), who owes it.
    Over many days the sums are made by the database, a row per table."""
    last = last or first
    owing = first == last if owing is None else owing
    start, end = day_range(room, first, last)
    out = Books(first, last)
    # An imported table counts once the room's admins took it in (GameSession.in_books).
    charges = TableCharge.objects.filter(
        room=room, undone_at__isnull=True, at__gte=start, at__lt=end
    ).filter(GameSession.in_books_q("session__"))
    # A table charged nothing at its last close (reopened, no round left) that has
    # collections: what was taken is to refund, on its day too.
    standing = TableCharge.objects.filter(session=OuterRef("session"), undone_at__isnull=True)
    refunds = (
        Collection.objects.filter(
            room=room, session__closed_at__gte=start, session__closed_at__lt=end
        )
        .filter(GameSession.in_books_q("session__"), ~Exists(standing))
        .values_list("session_id", "session__closed_at")
        .distinct()
    )
    per_seat: dict[int, dict[int, list[Decimal]]] = defaultdict(
        lambda: defaultdict(lambda: [ZERO, ZERO])
    )
    closed_at: dict[int, dt.datetime] = {}
    rows: Iterable[tuple[int, int, Decimal, dt.datetime]]
    if owing:
        rows = charges.values_list("session_id", "seat", "amount", "at").order_by()
    else:  # a row per table: seat -1 holds the table's sums
        sums = charges.values("session_id").annotate(s=Sum("amount"), last=Max("at"))
        rows = sums.values_list("session_id", Value(-1), "s", "last").order_by()
    for session_id, seat, amount, at in rows:
        per_seat[session_id][seat][0] += amount
        closed_at[session_id] = at
    for session_id, closed in refunds:
        if closed is not None:
            closed_at.setdefault(session_id, closed)
    ids = sorted(closed_at, key=lambda pk: (closed_at[pk], pk))
    if not ids:
        return out
    paid = Collection.objects.filter(session_id__in=ids)
    collected: Iterable[tuple[int, int, str, Decimal]]
    if owing:
        collected = paid.values_list("session_id", "seat", "method", "amount").order_by()
    else:
        by_table = paid.values("session_id", "method").annotate(s=Sum("amount"))
        collected = by_table.values_list("session_id", Value(-1), "method", "s").order_by()
    for session_id, seat, method, amount in collected:
        per_seat[session_id][seat][1] += amount
        out.by_method[method] = out.by_method.get(method, ZERO) + amount
    sessions = {
        row[0]: row
        for row in GameSession.objects.filter(pk__in=ids).values_list(
            "pk",
            "code",
            "players",
            "preset",
            "imported_at",
            "ruleset",
            "room_table__number",
            "room_table__name",
        )
    }
    players: dict[tuple[int, int], Player] = {}
    if owing:
        players = {
            (s.session_id, s.seat): s.player
            for s in Seat.objects.filter(session_id__in=ids).select_related("player")
        }
    configs = dict(room.configs.values_list("pk", "name"))
    labels: dict[int | None, str] = {}
    no_table = table_label(None)
    for session_id in ids:
        _, code, names_raw, preset, imported_at, ruleset, number, name = sessions[session_id]
        pk = GameSession.config_id_of(preset, imported_at)
        names = [str(n) for n in names_raw]
        if number not in labels:  # (said once per table: no model made per row)
            labels[number] = (
                no_table if number is None else name or gettext("Table %(n)s") % {"n": number}
            )
        row = BookRow(
            day=room_day(room, closed_at[session_id]),
            session_id=session_id,
            code=code,
            label=labels[number],
            config=(configs.get(pk) if pk is not None else None) or ruleset,
            players=names,
        )
        for seat, (charged, got) in sorted(per_seat[session_id].items()):
            row.charged += charged
            row.collected += got
            if owing and charged != got and seat < len(names):
                row.owing.append((names[seat], charged - got, players.get((session_id, seat))))
        out.rows.append(row)
    return out


def close_day(room: Room, day: dt.date, by: RoomMember) -> DayClose | None:
    """日结: an admin closes the room's day, keeping what it showed and who closed it.
    None when it was closed already (two admins at once: the unique constraint lets
    one in; the other's insert rolls back and finds it)."""
    figures = books(room, day)
    total = figures.total
    data = {
        "charged": str(total.charged),
        "collected": str(total.collected),
        "owed": str(total.owed),
        "by_method": {m: str(v) for m, v in figures.by_method.items()},
        "tables": len(figures.rows),
    }
    try:
        with transaction.atomic():
            made = DayClose.objects.create(
                room=room, day=day, by_name=by.shown_name[:80], figures=data
            )
            room.log_action(TILL_DAY_CLOSED, by, {"day": day.isoformat(), **data})
            return made
    except IntegrityError:
        return None


def statement(player: Player) -> tuple[list[BalanceEntry], Decimal]:
    """A member's statement: every top-up and charge, oldest first, and his balance."""
    entries = list(
        player.balance_entries.select_related("session__room_table").order_by("at", "pk")
    )
    return entries, sum((e.amount for e in entries), ZERO)


def period(kind: str, day: dt.date) -> tuple[dt.date, dt.date]:
    """The day, week (Monday to Sunday) or month around `day`."""
    if kind == "week":
        first = day - dt.timedelta(days=day.weekday())
        return first, first + dt.timedelta(days=6)
    if kind == "month":
        first = day.replace(day=1)
        nxt = (first + dt.timedelta(days=32)).replace(day=1)
        return first, nxt - dt.timedelta(days=1)
    return day, day


def sum_money(values: Iterable[Decimal]) -> Decimal:
    return sum(values, ZERO)


def method_label(method: str) -> str:
    return str(METHODS.get(method, method))


def seats_of(rows: Sequence[BookRow]) -> int:
    return sum(len(r.players) for r in rows)


__all__ = [
    "OWED",
    "BadAmount",
    "BookRow",
    "Books",
    "Charged",
    "SeatMoney",
    "TableMoney",
    "Totals",
    "balance_of",
    "books",
    "checked_amount",
    "close_day",
    "collect",
    "day_range",
    "method_label",
    "period",
    "room_day",
    "seats_of",
    "statement",
    "sum_money",
    "table_money",
    "today",
    "top_up",
]
