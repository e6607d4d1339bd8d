"""计时 table fees: what a table owes the room for its time, in 元 (Decimal, to the 分).

Two ways, as chess rooms charge (docs/fees.md has the worked examples, each a test):

- ``hour``: ``price`` 元 an hour, billed per ``unit`` minutes rounded up, with a
  ``minimum`` in minutes (30 元 an hour, per 30 minutes, at least 2 hours).
- ``block`` (按场): ``price`` 元 per block of ``hours`` hours; ``grace`` minutes past
  a block's end are free; past the grace, the overtime is either a new block
  (``overtime`` "block") or ``overtime_price`` 元 an hour per ``unit`` minutes
  rounded up, counted from the block's end (``overtime`` "hour").

The time is the table's billed time (scorer/money/clock.py: start to close, less its
pauses).  The table pays the fee as one; it is shared AA among its players, the
odd 分 falling on the seats in seat order (`split`).  A configuration sets the
rule, a fixed table (包间A) may set its own, and a table snapshots the one it
started under (GameSession.time_fee), like every parameter.

Pure functions of Decimal and int, written here: a room's time fee is a few lines
of arithmetic, and no package knows 按场 with a grace.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from rules import RuleError
from scorer.clean.parse import decimal_or_none, int_or_none
from scorer.money.fees import read_stored, stored_mode

NONE, HOUR, BLOCK = "none", "hour", "block"
MODES = (NONE, HOUR, BLOCK)
OVER_BLOCK, OVER_HOUR = "block", "hour"
MODE_LABELS = {
    NONE: gettext_lazy("No time fee"),
    HOUR: gettext_lazy("By the hour"),
    BLOCK: gettext_lazy("By the session (场) of some hours"),
}
MAX_PRICE = Decimal(100_000)
CENT = Decimal("0.01")


def _bad(en: str, zh: str) -> RuleError:
    return RuleError("bad_input", en, zh)


def _price(raw: Any, what_en: str, what_zh: str) -> Decimal:
    value = decimal_or_none(raw, 6)
    if value is None:
        raise _bad(f"the {what_en} must be an amount in yuan", f"{what_zh}必须是金额（元）")
    if not 0 < value <= MAX_PRICE:
        raise _bad(
            f"the {what_en} must be more than 0 and at most {MAX_PRICE} yuan",
            f"{what_zh}必须大于 0 元，最多 {MAX_PRICE} 元",
        )
    if value != value.quantize(CENT):
        raise _bad(f"the {what_en} goes to the fen (0.01)", f"{what_zh}最多精确到分（0.01）")
    return value.quantize(CENT)


def _minutes(raw: Any, what_en: str, what_zh: str, low: int, high: int) -> int:
    value = int_or_none(raw)
    if value is None or not low <= value <= high:
        raise _bad(
            f"the {what_en} must be a whole number from {low} to {high}",
            f"{what_zh}必须是 {low} 到 {high} 之间的整数",
        )
    return value


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class TimeFee:
    """How a table's time is billed; built from (and back to) the stored JSON."""

    mode: str = NONE
    price: Decimal = Decimal(0)  # 元: an hour (hour), a block (block)
    unit: int = 30  # minutes, rounded up (hour; block's overtime by the hour)
    minimum: int = 0  # minutes (hour)
    hours: int = 4  # a block's length (block)
    grace: int = 0  # minutes past a block's end that are free (block)
    overtime: str = OVER_BLOCK  # block: a new block, or by the hour
    overtime_price: Decimal = Decimal(0)  # 元 an hour (block, overtime by the hour)

    @classmethod
    def from_json(cls, data: Any) -> TimeFee:
        """The rule stored `data` says; RuleError (both languages) when it says nothing sound."""
        known = {"mode", "price", "unit", "minimum", "hours", "grace", "overtime", "overtime_price"}
        mode = stored_mode(data, MODES, known, ("time fee", "计时费", "计时收法"))
        if mode == NONE:
            return cls()
        price = _price(data.get("price"), "price", "价格")
        unit = _minutes(data.get("unit", 30), "unit (minutes)", "计费单位（分钟）", 1, 1440)
        if mode == HOUR:
            minimum = _minutes(
                data.get("minimum", 0), "minimum (minutes)", "最低消费（分钟）", 0, 1440
            )
            return cls(mode=HOUR, price=price, unit=unit, minimum=minimum)
        hours = _minutes(data.get("hours", 4), "block (hours)", "每场时长（小时）", 1, 24)
        grace = _minutes(data.get("grace", 0), "grace (minutes)", "宽限（分钟）", 0, 240)
        overtime = data.get("overtime", OVER_BLOCK)
        if overtime not in (OVER_BLOCK, OVER_HOUR):
            raise _bad("overtime is a new block or by the hour", "超时只能按新的一场或按小时计")
        over_price = Decimal(0)
        if overtime == OVER_HOUR:
            over_price = _price(data.get("overtime_price"), "overtime price", "超时价格")
        return cls(
            mode=BLOCK,
            price=price,
            unit=unit,
            hours=hours,
            grace=grace,
            overtime=overtime,
            overtime_price=over_price,
        )

    @classmethod
    def of(cls, data: Any) -> TimeFee:
        """A stored table's rule: anything since unreadable bills nothing."""
        return read_stored(cls.from_json, cls, data)

    def to_json(self) -> dict[str, Any]:
        if self.mode == NONE:
            return {}
        if self.mode == HOUR:
            return {
                "mode": HOUR,
                "price": str(self.price),
                "unit": self.unit,
                "minimum": self.minimum,
            }
        out: dict[str, Any] = {
            "mode": BLOCK,
            "price": str(self.price),
            "hours": self.hours,
            "grace": self.grace,
            "overtime": self.overtime,
        }
        if self.overtime == OVER_HOUR:
            out.update(overtime_price=str(self.overtime_price), unit=self.unit)
        return out

    @property
    def charges(self) -> bool:
        return self.mode != NONE

    def fee(self, seconds: int) -> Decimal:
        """What `seconds` of billed time cost, in 元 to the 分."""
        seconds = max(0, int(seconds))
        if self.mode == HOUR:
            unit = self.unit * 60
            units = max(_ceil(seconds, unit), _ceil(self.minimum * 60, unit))
            return _cents(self.price * units * self.unit / 60)
        if self.mode == BLOCK:
            block, grace = self.hours * 3600, self.grace * 60
            if self.overtime == OVER_BLOCK:
                # Each block's end has its grace: a new block starts once it is passed.
                return _cents(self.price * max(1, _ceil(seconds - grace, block)))
            over = seconds - block
            fee = self.price
            if over > grace:
                # Counted from the block's end (not from the grace's), per unit rounded up.
                units = _ceil(over, self.unit * 60)
                fee += self.overtime_price * units * self.unit / 60
            return _cents(fee)
        return Decimal("0.00")

    def steps(self, start: int, horizon: int = 8 * 3600) -> list[list[Any]]:
        """The fee as a step function of billed seconds from `start` for `horizon`
        seconds: [[after, fee], ...], the fee for a time past `after` (the first
        step's `after` is -1).  The page's clock ticks through them without knowing
        the rule: one rule, here, and no copy of it in the script."""
        first_minute = max(0, start // 60)
        out: list[list[Any]] = [[-1, str(self.fee(first_minute * 60))]]
        last = out[0][1]
        for minute in range(first_minute, first_minute + horizon // 60 + 1):
            # Every unit is whole minutes: the fee is the same for all of (m, m+1] minutes.
            fee = str(self.fee(minute * 60 + 1))
            if fee != last:
                out.append([minute * 60, fee])
                last = fee
        return out

    def describe(self) -> str:
        """How this rule bills, in the reader's language (the table page's line)."""
        if self.mode == HOUR:
            said = gettext("%(price)s yuan an hour, per %(unit)s minutes") % {
                "price": money(self.price),
                "unit": self.unit,
            }
            if self.minimum:
                said += gettext(", at least %(m)s minutes") % {"m": self.minimum}
            return said
        if self.mode == BLOCK:
            said = gettext("%(price)s yuan per %(hours)s-hour session") % {
                "price": money(self.price),
                "hours": self.hours,
            }
            if self.grace:
                said += gettext(", %(g)s minutes' grace") % {"g": self.grace}
            if self.overtime == OVER_HOUR:
                # Said per unit, as it is billed: 15 元 an hour per 30 minutes is 7.50 a unit.
                said += gettext(", overtime %(price)s yuan per %(unit)s minutes") % {
                    "price": f"{_cents(self.overtime_price * self.unit / 60):.2f}",
                    "unit": self.unit,
                }
            else:
                said += gettext("; overtime is a new session")
            return said
        return gettext("No time fee")

    def words(self) -> str:
        """The rule in a sentence of the page's language, where a log or a history says
        it: "计时：每场 4 小时 50 元，宽限 10 分钟，超时每 30 分钟 7.50 元"."""
        if not self.charges:
            return gettext("No time fee")
        return gettext("Time fee: %(rule)s") % {"rule": self.describe()}


def time_fee_words(data: Any) -> str:
    """A stored time fee (a log's before or after) in words; one that no longer reads
    as a rule is said as none rather than shown raw."""
    try:
        return TimeFee.of(data or {}).words()
    except RuleError:
        return gettext("No time fee")


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def money(value: Decimal) -> str:
    """57.50 → "57.50", 50.00 → "50" (the pages' way of writing 元)."""
    value = _cents(value)
    return str(value.quantize(Decimal(1))) if value == value.to_integral_value() else str(value)


def split(total: Decimal, n: int) -> list[Decimal]:
    """`total` 元 shared by `n` seats (AA): equal to the 分, the odd 分 on the first seats."""
    if n <= 0:
        return []
    cents = int(_cents(total) * 100)
    share, odd = divmod(cents, n)
    return [Decimal(share + (1 if seat < odd else 0)) / 100 for seat in range(n)]


def checked_time_fee(data: Any) -> dict[str, Any]:
    """A time fee as stored, normalized; RuleError when it is not one."""
    return TimeFee.from_json(data).to_json()


__all__ = [
    "BLOCK",
    "HOUR",
    "MODES",
    "MODE_LABELS",
    "NONE",
    "OVER_BLOCK",
    "OVER_HOUR",
    "TimeFee",
    "checked_time_fee",
    "money",
    "split",
]
