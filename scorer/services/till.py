"""The room's till: what a closed table owes in 元, what was collected and how (a
refund is a collection of a negative amount), members' balances, the day's
close-out (日结) and the hour the room's day ends.  The figures themselves are read
by one function, scorer/services/books.py `books`.

Every money change here is a function that locks the rows the race is about
(scorer/models/locking.py `lock_objects`, one transaction) and writes the room's
log (scorer/models/roomlog.py) in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError
from django.db.models import Sum
from django.utils.translation import gettext

from scorer.clean.parse import money_or_none
from scorer.clean.text import PLAYER_NAME, clean_text
from scorer.models import GameSession
from scorer.models.locking import lock_objects
from scorer.models.locking import locked as locked_table
from scorer.models.money import (
    BALANCE,
    HAND_METHODS,
    METHODS,
    ZERO,
    BalanceEntry,
    Collection,
    DayClose,
)
from scorer.models.players import Player, Seat
from scorer.models.roomlog import (
    TILL_COLLECTED,
    TILL_DAY_CLOSED,
    TILL_DAY_END_SET,
    TILL_REFUNDED,
    TILL_TOPPED_UP,
)
from scorer.models.rooms import LAST_DAY_END_HOUR, Room, RoomMember
from scorer.money import clock
from scorer.money.timefee import CENT, MAX_PRICE
from scorer.services.books import BookRow, Charged, books
from scorer.services.calendar import Calendar
from scorer.services.kept import kept_figures

OWED = "owed"  # a seat left owing (a choice of the collect form, no row)


# ----------------------------------------------------------------------------- a table's money


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
    rest: Mapping[int, str] | None = None,
) -> list[Collection]:
    """An admin marks a closed table's fee collected, seat by seat: `choices` a method
    (现金, 微信, 支付宝, 会员余额) or OWED per seat; `amounts` (optional) a part of a
    seat's due taken by that method; `rest` (optional) the method that takes what is
    left of the seat's due after it (balance first, the rest in cash).  A seat owing
    less than nothing (a reopen lowered a fee already paid) is given back by the
    method chosen (a refund, never from or to a balance).  From a member's balance,
    the admin's choice is the confirmation (names are typed by anyone at a table):
    only what the balance holds is taken, the rest stays owed (or goes to `rest`).

    Race: two admins collecting the same table at once would both see the seat
    owing and take it twice; the table's row lock orders them, and the second
    finds nothing owed.  A balance is charged under its player's row lock too."""
    # The table's lock (a closed table is what is collected), then the balances
    # charged, all at once: the one order the locking rule allows.
    with locked_table(session, closed_ok=True) as locked:
        money = table_money(locked)
        members = [s.player for s in money.seats if s.player and choices.get(s.seat) == BALANCE]
        with lock_objects(*members):
            made: list[Collection] = []
            for seat in money.seats:
                due = seat.owed
                part = (amounts or {}).get(seat.seat)
                steps = [(choices.get(seat.seat, OWED), part)]
                if rest and rest.get(seat.seat) in HAND_METHODS:
                    steps.append((rest[seat.seat], None))
                for method, cap in steps:
                    if method not in METHODS or not due:
                        continue
                    take = due
                    if cap is not None:  # a part of what is due, never more
                        take = min(due, abs(cap)) if due > 0 else max(due, -abs(cap))
                    c = _take(locked, seat, method, take, by)
                    if c is not None:
                        made.append(c)
                        due -= c.amount
        if made:
            locked.bump()
        return made


def _take(
    locked: GameSession, seat: SeatMoney, method: str, due: Decimal, by: RoomMember
) -> Collection | None:
    """One seat's money taken (or given back) by one method, under the table's lock
    (and, from a balance, its player's: `collect` takes them)."""
    if not due:
        return None
    if method == BALANCE:
        if seat.player is None or due < 0:
            return None  # no member here, or a refund: given back by hand
        due = min(due, max(balance_of(seat.player), ZERO))
        if not due:
            return None
        BalanceEntry.objects.create(
            room_id=locked.room_id,
            player=seat.player,
            kind=BalanceEntry.CHARGE,
            amount=-due,
            method=BALANCE,
            session=locked,
            by_name=by.shown_name[:80],
        )
    made = Collection.objects.create(
        room_id=locked.room_id,
        session=locked,
        seat=seat.seat,
        amount=due,
        method=method,
        by=by.user,
        by_name=by.shown_name[:80],
    )
    # A refund is said as one: who was given back how much (never "-20.00").
    locked.room.log_action(
        TILL_COLLECTED if due > 0 else TILL_REFUNDED,
        by,
        {
            **locked.log_data(),
            "seat": seat.seat,
            "name": seat.name,
            "amount": str(abs(due)),
            "method": method,
        },
    )
    return made


class BadAmount(ValueError):
    """An amount of money that is none (not positive, too big, finer than a 分)."""


def checked_amount(raw: Any) -> Decimal:
    """An amount typed on the till (a top-up): 0.01 to MAX_PRICE 元, read by scorer/clean/parse.py
    (a form field's surrounding spaces dropped, as a form does)."""
    value = money_or_none(raw.strip() if isinstance(raw, str) else raw, CENT, MAX_PRICE)
    if value is None:
        raise BadAmount(raw)
    return value


class LooksLike(ValueError):
    """A new member's name that looks like a room player's without being it."""

    def __init__(self, name: str, other: Player) -> None:
        super().__init__(name)
        self.name, self.other = name, other


def new_member(room: Room, name: str) -> Player:
    """A new member of the room's till ("新会员"), before he has played: a player of
    the room by that name (cleaned as every player's name).  TextRefused for a name no
    player may have; LooksLike for one that looks like a player's (Player.looking_like:
    the admin picks him, or types the name apart); ValueError for a blank one or one a
    player goes by already."""
    name = clean_text(PLAYER_NAME, name)
    if not name:
        raise ValueError("empty name")
    other = Player.looking_like(room.pk, name)
    if other is not None:
        raise LooksLike(name, other)
    # The room's row lock: two admins adding the same name at once make one.
    with lock_objects(room):
        if Player.named(room.pk, name) is not None:
            raise ValueError("name taken")
        return Player.objects.create(room=room, name=name)


def top_up(player: Player, amount: Decimal, method: str, by: RoomMember) -> BalanceEntry:
    """A member pays money into his balance (会员储值) by `method` (cash, WeChat, Alipay).

    Race: a top-up and a charge to the same balance at once; the player's row lock
    orders them, so a charge never reads a balance a top-up is changing."""
    if method not in HAND_METHODS:
        raise ValueError(method)
    amount = checked_amount(amount)
    with lock_objects(player) as (locked,):
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


# ----------------------------------------------------------------------------- 日结


class DayRefused(Exception):
    """A 日结 refused: `message` says why in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def figures_seen(figures: dict[str, Any]) -> str:
    """A short digest of the figures a 日结's second tap showed: the close keeps them
    only if they are still the day's (a table closed between the taps is shown first)."""
    text = json.dumps(figures, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def close_day(
    room: Room,
    day: dt.date,
    by: RoomMember,
    counted: Decimal | None = None,
    seen: str | None = None,
) -> DayClose:
    """日结: an admin closes the room's day, keeping its figures (kept.kept_figures),
    its first and last instants and, if he counted it, the cash in the drawer.

    Refused (DayRefused): a day that has not begun, a day closed already, figures
    that changed since the second tap showed them (`seen`).  Race: two admins
    closing at once, or the owner moving the end hour meanwhile: the room's row
    lock orders them (taken before anything is read; no table lock is held here),
    and the unique constraint is the last word."""
    try:
        with lock_objects(room) as (locked_room,):
            if locked_room.day_closes.filter(day=day).exists():
                raise DayRefused(gettext("That day was closed already."))
            cal = Calendar.of(locked_room, day, day)
            start, end = cal.range(day)
            if start > clock.now():
                raise DayRefused(gettext("That day has not begun: it can be closed once it has."))
            figures = kept_figures(books(locked_room, day))
            if seen is not None and seen != figures_seen(figures):
                raise DayRefused(
                    gettext("The day's figures changed since they were shown: check them again.")
                )
            if counted is not None:
                figures["cash_counted"] = str(counted)
            made = DayClose.objects.create(
                room=locked_room,
                day=day,
                by_name=by.shown_name[:80],
                figures=figures,
                start=start,
                end=end,
                cash_counted=counted,
            )
            log = {
                "day": day.isoformat(),
                "charged": figures["charged"],
                "collected": figures["collected"],
                "owed": figures["owed"],
            }
            if counted is not None:
                log["counted"] = str(counted)
            locked_room.log_action(TILL_DAY_CLOSED, by, log)
            return made
    except IntegrityError:
        raise DayRefused(gettext("That day was closed already.")) from None


def set_day_end(room: Room, hour: int, by: RoomMember) -> bool:
    """The owner sets the hour the room's day ends (0 to 12, the next morning): it
    applies to every day not closed (a closed day keeps its boundaries).  False
    when it is the hour already.  The room's log keeps the change."""
    if not by.is_owner:
        raise PermissionError("the day's end hour is the owner's")
    if not 0 <= hour <= LAST_DAY_END_HOUR:
        raise ValueError(hour)
    with lock_objects(room) as (locked_room,):
        before = locked_room.day_ends_hour
        if before == hour:
            return False
        locked_room.day_ends_hour = hour
        locked_room.save(update_fields=["day_ends_hour"])
        locked_room.log_action(
            TILL_DAY_END_SET, by, {"before": f"{before}:00", "after": f"{hour}:00"}
        )
    room.day_ends_hour = hour
    return True


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
    "DayRefused",
    "SeatMoney",
    "TableMoney",
    "balance_of",
    "checked_amount",
    "close_day",
    "collect",
    "figures_seen",
    "method_label",
    "new_member",
    "period",
    "seats_of",
    "set_day_end",
    "statement",
    "sum_money",
    "table_money",
    "top_up",
]
