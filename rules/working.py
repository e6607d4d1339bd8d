"""The working of a win as structured terms: what each payer pays, and how it came.

A ruleset's result carries `terms` (docs/situation.md): one `Term` per group of
payers paying the same amount for the same reason, built from a base, factors
(each with a power), additions, optional multipliers applied last (`per`), and
an optional limit (`cap`: at most; `instead`: the amount whatever the rest,
with why).  The core knows these shapes only, never a ruleset: each ruleset's
package writes its own terms, `evaluate` works one out, `term_text` prints it
the one way every page shows it ("6 × 2² = 24", "44 番 + 8 = 52").  Because the
printed line is made from the same numbers that `evaluate` reads, a test that
holds every term's value to the payments holds what is printed too
(tests/rules/test_working.py).

    amount = min( (base × Π factorᵖᵒʷᵉʳ + Σ additions) × Π per , cap )   or `instead`

A fractional value (武汉's ×1.5) rounds half up to a whole amount.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NotRequired, TypedDict


class Item(TypedDict):
    """One number of a term: `value` (whole, or a fraction as a float: 1.5), how
    often it multiplies (`power`, factors only), and its words: `name_*` before the
    number (底分 8, 自摸 ×2), `unit_*` after it (44 番)."""

    value: int | float
    power: NotRequired[int]
    name_zh: NotRequired[str]
    name_en: NotRequired[str]
    unit_zh: NotRequired[str]
    unit_en: NotRequired[str]


class Term(TypedDict):
    """What each of `payers` pays `to` (None: to the room) for one reason."""

    payers: list[int]
    to: int | None
    amount: int  # what each payer pays, = evaluate(term)
    base: NotRequired[Item]
    factors: NotRequired[list[Item]]
    additions: NotRequired[list[Item]]
    per: NotRequired[list[Item]]  # multiply the sum last: (2³ + 5) × 2
    cap: NotRequired[Item]  # at most this (封顶)
    instead: NotRequired[Item]  # the amount is this, whatever the rest (金顶)
    reason: NotRequired[str]  # the payment's reason, where it is not the win itself
    note_zh: NotRequired[str]  # said after the amount (what the factors were)
    note_en: NotRequired[str]


def item(
    value: int | float | Fraction, power: int = 1, name: tuple[str, str] = ("", ""),
    unit: tuple[str, str] = ("", ""),
) -> Item:  # fmt: skip
    """An Item; a Fraction is kept whole where it is, as a float where not (1.5)."""
    if isinstance(value, Fraction):
        value = value.numerator if value.denominator == 1 else float(value)
    out: Item = {"value": value}
    if power != 1:
        out["power"] = power
    if name[0] or name[1]:
        out["name_zh"], out["name_en"] = name
    if unit[0] or unit[1]:
        out["unit_zh"], out["unit_en"] = unit
    return out


def term(
    payers: Iterable[int], to: int | None, amount: int, *, base: Item | None = None,
    factors: Sequence[Item] = (), additions: Sequence[Item] = (), per: Sequence[Item] = (),
    cap: Item | None = None, instead: Item | None = None, reason: str = "",
    note: tuple[str, str] = ("", ""),
) -> Term:  # fmt: skip
    """A Term with only the parts it has."""
    out: Term = {"payers": list(payers), "to": to, "amount": amount}
    if base is not None:
        out["base"] = base
    if factors:
        out["factors"] = list(factors)
    if additions:
        out["additions"] = list(additions)
    if per:
        out["per"] = list(per)
    if cap is not None:
        out["cap"] = cap
    if instead is not None:
        out["instead"] = instead
    if reason:
        out["reason"] = reason
    if note[0] or note[1]:
        out["note_zh"], out["note_en"] = note
    return out


def _q(x: Any) -> Fraction:
    return Fraction(str(x)) if isinstance(x, float) else Fraction(x)


def raw_value(t: Mapping[str, Any]) -> Fraction:
    """The term's value before its cap or `instead`: (base × factors + additions) × per."""
    factors = t.get("factors") or []
    v = _q(t["base"]["value"]) if "base" in t else Fraction(1 if factors else 0)
    for f in factors:
        v *= _q(f["value"]) ** int(f.get("power", 1))
    for a in t.get("additions") or []:
        v += _q(a["value"])
    for m in t.get("per") or []:
        v *= _q(m["value"])
    return v


def whole(v: Fraction) -> int:
    """A whole amount: a fraction rounds half up."""
    return int(v) if v.denominator == 1 else int(v + Fraction(1, 2))


def evaluate(t: Mapping[str, Any]) -> int:
    """What each payer of the term pays, worked out from its parts alone."""
    if "instead" in t:
        return whole(_q(t["instead"]["value"]))
    v = whole(raw_value(t))
    if "cap" in t:
        v = min(v, whole(_q(t["cap"]["value"])))
    return v


def merged(terms: Iterable[Term]) -> list[Term]:
    """The terms with those that differ only in their payers made one ("丙、丁 各：…"),
    in the order of their first payer."""
    out: list[Term] = []
    for t in terms:
        same = next((o for o in out if {**o, "payers": []} == {**t, "payers": []}), None)
        if same is None:
            out.append({**t, "payers": list(t["payers"])})
        else:
            same["payers"].extend(t["payers"])
    return out


def by_payment(terms: Iterable[Mapping[str, Any]]) -> dict[tuple[int, int | None], int]:
    """(from, to) -> what the terms, evaluated, make that payer pay that receiver in all."""
    out: dict[tuple[int, int | None], int] = {}
    for t in terms:
        v = evaluate(t)
        for p in t["payers"]:
            out[p, t["to"]] = out.get((p, t["to"]), 0) + v
    return {k: v for k, v in out.items() if v}


# ---------------------------------------------------------------- printed


def _num(x: Any) -> str:
    q = _q(x)
    return str(q.numerator) if q.denominator == 1 else f"{float(q):g}"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _item(it: Mapping[str, Any], zh: bool, factor: bool = False) -> str:
    """A number with its words: "底分 8", "44 番"; a factor's name after it, in
    brackets, so the product reads as numbers: "2（庄家）", "2³"."""
    s = _num(it["value"])
    p = int(it.get("power", 1)) if factor else 1
    if p != 1:
        s += str(p).translate(_SUPERSCRIPT)
    name = it.get("name_zh" if zh else "name_en") or ""
    unit = it.get("unit_zh" if zh else "unit_en") or ""
    if factor and name:
        return f"{s}（{name}）" if zh else f"{s} ({name})"
    return " ".join(x for x in (name, s, unit) if x)


def expression(t: Mapping[str, Any], zh: bool) -> str:
    """The calculation, without the payers: "6 × 2² = 24", "44 番 + 8 = 52"."""
    parts: list[str] = []
    factors = t.get("factors") or []
    if "base" in t:
        parts.append(_item(t["base"], zh))
    parts += [_item(f, zh, factor=True) for f in factors]
    product = " × ".join(parts)
    adds = [_item(a, zh) for a in t.get("additions") or []]
    body = " + ".join(x for x in (product, *adds) if x)
    per = [_item(m, zh) for m in t.get("per") or []]
    if per:  # written first, as a table says it: "1 × 3 × (庄 2 + 炮子 1 + 2)"
        body = " × ".join([*per, f"({body})" if len(parts) + len(adds) > 1 else body])
    exact = raw_value(t)
    raw = whole(exact)
    alone = len(parts) + len(adds) == 1 and not factors and not per
    text = body if alone else f"{body} = {_num(exact)}"
    if exact != raw:  # a fraction, rounded half up
        text += f" → {raw}"
    if "instead" in t:
        text += f" → {_item(t['instead'], zh)}"
    elif "cap" in t and whole(_q(t["cap"]["value"])) < raw:
        text += f" → {_item(t['cap'], zh)}"
    note = t.get("note_zh" if zh else "note_en")
    if note:
        text += f"（{note}）" if zh else f" ({note})"
    return text


def term_text(t: Mapping[str, Any], zh: bool, seat: Callable[[int], str]) -> str:
    """One line of the working: who pays, and how the amount came.

    zh "丙：44 番 + 8 = 52" / "甲、丁 各：8"; en "丙: 44 fans + 8 = 52" /
    "甲, 丁 each: 8"; a kong's money names its receiver: "乙、丙 → 甲 各：暗杠 4".  `seat` names a seat (a player's name on a page)."""
    payers = [seat(p) for p in t["payers"]]
    # Money that is not the win's own (a kong's) may go to another: said.
    to = f" → {seat(t['to'])}" if t.get("reason") and t.get("to") is not None else ""
    if zh:
        who = "、".join(payers) + to + (" 各" if len(payers) > 1 else "")
        return f"{who}：{expression(t, zh)}"
    who = ", ".join(payers) + to + (" each" if len(payers) > 1 else "")
    return f"{who}: {expression(t, zh)}"


def seat_words(zh: bool) -> Callable[[int], str]:
    """How the engine names a seat where no names are known (the CLI, notes)."""
    return (lambda s: f"{s} 号位") if zh else (lambda s: f"seat {s}")


__all__ = [
    "Item",
    "Term",
    "by_payment",
    "evaluate",
    "expression",
    "item",
    "merged",
    "raw_value",
    "seat_words",
    "term",
    "term_text",
    "whole",
]
