"""台费: what the room charges a table, and how it is taken.

A room sets it per configuration (`RoomConfig.fee`); a table snapshots it when it
starts (`GameSession.fee`), like every parameter.  Five ways, as chess rooms
charge:

- ``none``: no fee.
- ``aa``: a fixed amount from every player, taken when the table closes (AA).
- ``win_fixed``: a fixed amount from every winner of a round (never more than
  what that round brought him).
- ``win_percent`` (抽水): a percentage of what each winner of a round won, rounded
  down to a whole point, at most ``cap`` points a winner (0: no cap).
- ``big_winner`` (大赢家付): the whole fee from the biggest winner, at the close
  (players tied at the top share it, the odd points from the first seats).

Amounts are in the table's points, the ledger's unit: the room's take is a
line of the same ledger as the players' scores and is shown as money wherever
the table has a money rate.  The room's take is never hidden inside the
players' zero-sum: a round's `deltas` are the players' net after the fee and
`room_take` the room's, so that ``sum(deltas) + room_take == 0``.

A "win" is what a winner's seat took in that round (its points before the
fee): a round of one win is the winner's delta, a round played as events (血战,
kongs paying at once) is each winner's net for the round.  A winner whose net
for the round is not positive pays nothing; a draw pays nothing.

Written here, not taken from a library: a room's fee is this module's ~200 lines
of arithmetic, and no package knows chess rooms' ways of charging.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from typing import Any, TypeVar

from django.utils.translation import gettext, gettext_lazy, ngettext

from rules import RuleError
from scorer.clean.parse import decimal_or_none, int_or_none
from scorer.scoring import ScoredEntry

NONE, AA, WIN_FIXED, WIN_PERCENT, BIG_WINNER = (
    "none",
    "aa",
    "win_fixed",
    "win_percent",
    "big_winner",
)
MODES = (NONE, AA, WIN_FIXED, WIN_PERCENT, BIG_WINNER)
AT_CLOSE = (AA, BIG_WINNER)  # charged once, when the table closes
PER_ROUND = (WIN_FIXED, WIN_PERCENT)  # charged with every round that has a winner

# The ways tied to what a player wins.  Some places have treated them as 抽头
# (skimming the players' stakes): the fee choice lists them last, under a heading
# and with a note, and a configuration's default (no fee) is never one of them.
WIN_LINKED = (WIN_FIXED, WIN_PERCENT, BIG_WINNER)

MODE_LABELS = {
    NONE: gettext_lazy("No table fee"),
    AA: gettext_lazy("Every player pays a fixed fee at the close (AA)"),
    WIN_FIXED: gettext_lazy("Each winner pays a fixed amount per round"),
    WIN_PERCENT: gettext_lazy("A percentage of each win, with a cap (rake)"),
    BIG_WINNER: gettext_lazy("The biggest winner pays the whole fee at the close"),
}

WIN_LINKED_HEADING = gettext_lazy("Tied to winnings")
WIN_LINKED_NOTE = gettext_lazy(
    "Some places treat fees tied to winnings (a share of each win, the biggest winner"
    " paying) as 抽头. Follow your local rules."
)


def mode_choices() -> list[tuple[Any, Any]]:
    """The fee choice of a configuration's form: the ways not tied to winnings first (by
    time, per person), then no fee, then the win-linked ones grouped under their heading
    (an <optgroup>), each group in MODE_LABELS' order."""
    plain = [(m, label) for m, label in MODE_LABELS.items() if m not in (NONE, *WIN_LINKED)]
    linked = [(m, label) for m, label in MODE_LABELS.items() if m in WIN_LINKED]
    return [*plain, (NONE, MODE_LABELS[NONE]), (WIN_LINKED_HEADING, linked)]


MAX_AMOUNT = 100_000  # points: far beyond any room's fee, a typo's guard
MAX_PERCENT = Decimal(100)
FEE_REASON = "fee"  # Transfer.reason of a payment to the room (to_seat None)
FEE_KIND = "fee"  # RoundRevision.kind of the fee charged when a table closes
POINTS, YUAN = "points", "yuan"  # a fee's unit ("unit" in the stored JSON; points if none)
CENT = Decimal("0.01")


def _bad(en: str, zh: str) -> RuleError:
    return RuleError("bad_input", en, zh)


R = TypeVar("R")


def read_stored(from_json: Callable[[Any], R], nothing: Callable[[], R], data: Any) -> R:
    """A rule a stored table holds (台费 or 计时): what was stored was checked when it was
    saved, so a rule since unreadable (RuleError) gives `nothing()`, the rule that
    charges nothing, rather than breaking the table."""
    try:
        return from_json(data)
    except RuleError:
        return nothing()


def stored_mode(
    data: Any, modes: Sequence[str], known: set[str], what: tuple[str, str, str]
) -> str:
    """The mode a stored rule (台费 or 计时) names, "none" for {} and None (a table from
    before it); RuleError when `data` is no object, names an unknown mode or has a key
    not `known`.  `what`: the rule's name in English and in Chinese, and its 收法."""
    en, zh, how = what
    if data in (None, {}):
        return NONE
    if not isinstance(data, Mapping):
        raise _bad(f"the {en} must be an object", f"{zh}的设置格式不对")
    mode = data.get("mode", NONE)
    if mode not in modes:
        raise _bad(f"unknown {en} {mode!r}", f"不认识这种{how}")
    extra = sorted(set(data) - known)
    if extra:
        raise _bad(f"the {en} has no {extra[0]!r}", f"{zh}没有 {extra[0]} 这一项")
    return str(mode)


def _whole(raw: Any, what_en: str, what_zh: str, low: int) -> int:
    """A whole number of points from the stored JSON (an int, or text reading as one)."""
    value = int_or_none(raw)
    if value is None:
        raise _bad(f"the {what_en} must be a whole number", f"{what_zh}必须是整数")
    if not low <= value <= MAX_AMOUNT:
        raise _bad(
            f"the {what_en} must be from {low} to {MAX_AMOUNT} points",
            f"{what_zh}必须在 {low} 到 {MAX_AMOUNT} 分之间",
        )
    return value


def _percent(raw: Any) -> Decimal:
    # Stored as a JSON number (2.5: FeeRule.to_json); read by its shortest text.
    value = decimal_or_none(repr(raw) if isinstance(raw, float) else raw, 6)
    if value is None:
        raise _bad("the percentage must be a number", "抽水比例必须是数字")
    if not 0 < value <= MAX_PERCENT:
        raise _bad(
            "the percentage must be more than 0 and at most 100",
            "抽水比例必须大于 0，最多 100",
        )
    if value != value.quantize(Decimal("0.1")):
        raise _bad(
            "the percentage takes at most one decimal (2.5)", "抽水比例最多一位小数（如 2.5）"
        )
    return value.normalize() if value != value.to_integral_value() else value.quantize(Decimal(1))


@dataclass(frozen=True)
class FeeRule:
    """How a room charges a table; built from (and back to) the stored JSON."""

    mode: str = NONE
    amount: int = 0  # aa: per player; win_fixed: per winner; big_winner: the whole fee
    percent: Decimal = Decimal(0)  # win_percent
    cap: int = 0  # win_percent: at most this per winner (0: no cap)
    # In 元 rather than points ("unit": "yuan"): charged at the close into the table's
    # money ledger (scorer/models/money.py), never into the points; `price` the amount (AA:
    # each; 每把: each winner; 大赢家: the whole), `cap_yuan` 抽水's cap (0: none).
    yuan: bool = False
    price: Decimal = Decimal(0)
    cap_yuan: Decimal = Decimal(0)

    @classmethod
    def from_json(cls, data: Any) -> FeeRule:
        """The rule a stored fee says; RuleError (both languages) when it says nothing sound.
        {} and None are no fee (a configuration or a table from before fees)."""
        known = {"mode", "amount", "percent", "cap", "unit"}
        mode = stored_mode(data, MODES, known, ("table fee", "台费", "台费收法"))
        if mode == NONE:
            return cls()
        unit = data.get("unit", POINTS)
        if unit not in (POINTS, YUAN):
            raise _bad("a fee is in points or in yuan", "台费的单位只能是分或元")
        if unit == YUAN:
            if mode == WIN_PERCENT:
                cap = data.get("cap", 0) or 0
                return cls(
                    mode=mode,
                    percent=_percent(data.get("percent")),
                    yuan=True,
                    cap_yuan=Decimal(0) if cap in (0, "0") else _yuan(cap),
                )
            return cls(mode=mode, yuan=True, price=_yuan(data.get("amount")))
        if mode == WIN_PERCENT:
            cap = _whole(data.get("cap", 0) or 0, "cap", "封顶", 0)
            return cls(mode=mode, percent=_percent(data.get("percent")), cap=cap)
        return cls(mode=mode, amount=_whole(data.get("amount"), "fee", "台费", 1))

    @classmethod
    def of(cls, data: Any) -> FeeRule:
        """The rule of a stored table: what was stored was checked when it was saved;
        anything since unreadable charges nothing rather than breaking the table."""
        return read_stored(cls.from_json, cls, data)

    def to_json(self) -> dict[str, Any]:
        if self.mode == NONE:
            return {}
        if self.yuan:
            out: dict[str, Any] = {"mode": self.mode, "unit": YUAN}
            if self.mode == WIN_PERCENT:
                pct = self.percent
                out["percent"] = int(pct) if pct == pct.to_integral_value() else float(pct)
                out["cap"] = str(self.cap_yuan)
            else:
                out["amount"] = str(self.price)
            return out
        if self.mode == WIN_PERCENT:
            pct = self.percent
            return {
                "mode": self.mode,
                "percent": int(pct) if pct == pct.to_integral_value() else float(pct),
                "cap": self.cap,
            }
        return {"mode": self.mode, "amount": self.amount}

    @property
    def charges(self) -> bool:
        return self.mode != NONE

    # -- per round -------------------------------------------------------

    def round_fees(self, deltas: Sequence[int], winners: Sequence[int]) -> list[int]:
        """What each seat pays the room for one round (its players' zero-sum `deltas`
        before any fee): only winners with a positive net pay, never more than that net."""
        out = [0] * len(deltas)
        if self.mode not in PER_ROUND or self.yuan:
            return out  # (a fee in 元 is money, charged at the close: never points)
        for seat in sorted(set(winners)):
            if not (isinstance(seat, int) and 0 <= seat < len(deltas)):
                continue
            won = int(deltas[seat])
            if won <= 0:
                continue
            if self.mode == WIN_FIXED:
                fee = self.amount
            else:
                # Rounded down to a whole point: the ledger counts whole points, and the
                # fraction stays with the player.
                fee = int((Decimal(won) * self.percent / 100).to_integral_value(ROUND_FLOOR))
                if self.cap:
                    fee = min(fee, self.cap)
            out[seat] = min(fee, won)
        return out

    # -- at the close ----------------------------------------------------

    def close_fees(self, totals: Sequence[int]) -> list[int]:
        """What each seat pays the room when the table closes, from its totals then."""
        n = len(totals)
        if self.yuan:
            return [0] * n  # money, not points: money_at_close
        if self.mode == AA:
            return [self.amount] * n
        if self.mode == BIG_WINNER and n:
            top = max(totals)
            tied = [s for s in range(n) if totals[s] == top]
            share, odd = divmod(self.amount, len(tied))
            out = [0] * n
            for i, seat in enumerate(tied):
                out[seat] = share + (1 if i < odd else 0)
            return out
        return [0] * n

    @property
    def needs_rate(self) -> bool:
        """A win-linked fee in 元 is taken from the money a win is worth: the table needs
        its money rate (the start form asks for it)."""
        return self.yuan and self.mode in PER_ROUND

    def money_at_close(
        self,
        totals: Sequence[int],
        wins: Sequence[tuple[Sequence[int], Sequence[int]]],
        rate: Decimal | None,
    ) -> list[Decimal]:
        """What each seat owes the room in 元 at the close for a fee set in 元: AA each,
        the biggest winner the whole (tied: shared, the odd 分 on the first seats), or
        per round (`wins`: each round's deltas and winners) a fixed amount or a
        percentage of each winner's net in money (rounded down to the 分), never more
        than the win is worth.  Nothing for a fee in points, or a win-linked fee on a
        table with no rate."""
        n = len(totals)
        out = [Decimal("0.00")] * n
        if not self.yuan or not n:
            return out
        if self.mode == AA:
            return [self.price] * n
        if self.mode == BIG_WINNER:
            top = max(totals)
            tied = [s for s in range(n) if totals[s] == top]
            cents, odd = divmod(int(self.price * 100), len(tied))
            for i, seat in enumerate(tied):
                out[seat] = Decimal(cents + (1 if i < odd else 0)) / 100
            return out
        if rate is None or rate <= 0:
            return out
        for deltas, winners in wins:
            for seat in sorted(set(winners)):
                if not (isinstance(seat, int) and 0 <= seat < min(n, len(deltas))):
                    continue
                worth = Decimal(int(deltas[seat])) * rate
                if worth <= 0:
                    continue
                if self.mode == WIN_FIXED:
                    fee = self.price
                else:
                    fee = (worth * self.percent / 100).quantize(CENT, rounding=ROUND_FLOOR)
                    if self.cap_yuan:
                        fee = min(fee, self.cap_yuan)
                out[seat] += min(fee, worth)
        return [o.quantize(CENT) for o in out]

    # -- words -----------------------------------------------------------

    def describe(self) -> str:
        """How this rule charges, in the reader's language (the start page's line)."""
        if self.yuan:
            return self._describe_yuan()
        if self.mode == AA:
            return ngettext(
                "Table fee: %(n)s point from every player, at the close (AA).",
                "Table fee: %(n)s points from every player, at the close (AA).",
                self.amount,
            ) % {"n": self.amount}
        if self.mode == WIN_FIXED:
            return ngettext(
                "Table fee: %(n)s point from each winner, every round.",
                "Table fee: %(n)s points from each winner, every round.",
                self.amount,
            ) % {"n": self.amount}
        if self.mode == WIN_PERCENT:
            if self.cap:
                return ngettext(
                    "Table fee (rake): %(p)s%% of each win, at most %(cap)s point.",
                    "Table fee (rake): %(p)s%% of each win, at most %(cap)s points.",
                    self.cap,
                ) % {"p": self.percent, "cap": self.cap}
            return gettext("Table fee (rake): %(p)s%% of each win.") % {"p": self.percent}
        if self.mode == BIG_WINNER:
            return ngettext(
                "Table fee: %(n)s point, paid by the biggest winner at the close.",
                "Table fee: %(n)s points, paid by the biggest winner at the close.",
                self.amount,
            ) % {"n": self.amount}
        return gettext("No table fee.")

    def _describe_yuan(self) -> str:
        amount = _yuan_text(self.price)
        if self.mode == AA:
            return gettext("Table fee: %(n)s yuan from every player, at the close (AA).") % {
                "n": amount
            }
        if self.mode == WIN_FIXED:
            return gettext("Table fee: %(n)s yuan from each winner, every round.") % {"n": amount}
        if self.mode == WIN_PERCENT:
            if self.cap_yuan:
                return gettext(
                    "Table fee (rake): %(p)s%% of each win's money, at most %(cap)s yuan."
                ) % {"p": self.percent, "cap": _yuan_text(self.cap_yuan)}
            return gettext("Table fee (rake): %(p)s%% of each win's money.") % {"p": self.percent}
        return gettext("Table fee: %(n)s yuan, paid by the biggest winner at the close.") % {
            "n": amount
        }


def _yuan(raw: Any) -> Decimal:
    """An amount in 元 of the stored JSON, to the 分."""
    value = decimal_or_none(raw, 2)
    if value is None:
        raise _bad("the fee must be an amount in yuan", "台费必须是金额（元）")
    if not 0 < value <= MAX_AMOUNT:
        raise _bad(
            f"the fee must be more than 0 and at most {MAX_AMOUNT} yuan, to the fen",
            f"台费必须大于 0 元、最多 {MAX_AMOUNT} 元，精确到分",
        )
    return value.quantize(CENT)


def _yuan_text(value: Decimal) -> str:
    return str(value.quantize(Decimal(1))) if value == value.to_integral_value() else str(value)


def checked_fee(data: Any) -> dict[str, Any]:
    """A fee as stored, normalized; RuleError when it is not one."""
    return FeeRule.from_json(data).to_json()


def charged(scored: ScoredEntry, rule: FeeRule) -> ScoredEntry:
    """A scored round with the room's per-round fee taken from its winners: the deltas
    become the players' net, the fee is a payment to the room (`to` None) and its
    `room_take`; the room's share of each seat is kept in the result (`room_fee`),
    which the statistics read to count a win at its full value."""
    fees = rule.round_fees(scored.deltas, scored.winners)
    if not any(fees):
        return scored
    deltas = [d - f for d, f in zip(scored.deltas, fees, strict=True)]
    payments = [
        *scored.payments,
        *(
            {"from": s, "to": None, "amount": f, "reason": FEE_REASON}
            for s, f in enumerate(fees)
            if f
        ),
    ]
    result = {**scored.result, "room_fee": fees}
    return dataclasses.replace(
        scored,
        deltas=deltas,
        payments=payments,
        result=result,
        room_take=scored.room_take + sum(fees),
    )


def seat_fees(result: Any, n: int) -> list[int]:
    """What each seat paid the room in one version of a round (0s for none)."""
    fees = result.get("room_fee") if isinstance(result, Mapping) else None
    if isinstance(fees, list) and len(fees) == n and all(isinstance(f, int) for f in fees):
        return list(fees)
    return [0] * n


def close_entry(
    rule: FeeRule, totals: Sequence[int], dealer: int = 0, wind: str = "E"
) -> ScoredEntry | None:
    """The round a closing table's fee is recorded as (kind "fee"), from the players'
    totals at the close; None when this rule charges nothing then.  Its entry keeps the
    totals it was charged on, so that an imported table's fee is checked again."""
    fees = rule.close_fees(totals)
    if not any(fees):
        return None
    return ScoredEntry(
        kind=FEE_KIND,
        dealer=dealer,
        prevalent_wind=wind,
        winners=[],
        entry={"kind": FEE_KIND, "mode": rule.mode, "totals": [int(t) for t in totals]},
        result={"room_fee": fees},
        deltas=[-f for f in fees],
        payments=[
            {"from": s, "to": None, "amount": f, "reason": FEE_REASON}
            for s, f in enumerate(fees)
            if f
        ],
        room_take=sum(fees),
    )


def rescore_close(rule: FeeRule, entry: Any, n: int, dealer: int, wind: str) -> ScoredEntry:
    """A close-time fee round read back (an import): charged again from its own totals."""
    totals = entry.get("totals") if isinstance(entry, Mapping) else None
    if (
        not isinstance(totals, list)
        or len(totals) != n
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals)
    ):
        raise _bad("a table fee has no totals to be charged on", "台费缺少结算时的总分")
    if rule.mode not in AT_CLOSE or entry.get("mode") != rule.mode:
        raise _bad(
            "a table fee at the close that this table's fee does not charge",
            "这桌的台费设置不会在结束时收这笔台费",
        )
    scored = close_entry(rule, totals, dealer, wind)
    if scored is None:
        raise _bad("a table fee of nothing", "台费为零")
    return scored


__all__ = [
    "AA",
    "AT_CLOSE",
    "BIG_WINNER",
    "FEE_KIND",
    "FEE_REASON",
    "MODES",
    "NONE",
    "PER_ROUND",
    "WIN_FIXED",
    "WIN_LINKED",
    "WIN_LINKED_NOTE",
    "WIN_PERCENT",
    "YUAN",
    "FeeRule",
    "charged",
    "checked_fee",
    "close_entry",
    "mode_choices",
    "read_stored",
    "rescore_close",
    "seat_fees",
    "stored_mode",
]
