"""A result shown the way its table counts: the unit (番 or 分) and the working.

Each ruleset declares its `Scoring` (rules/table.py): fans that add up (国标,
四川 …), a flat value ×2 per item (北京, 河北, 山东), every shape worth the
same with the amounts made by 炮子 (陕西), or a base times each player's
factors (武汉).  The pages read that declaration and the result's own
`terms` (the working as numbers, rules/working.py) or, for a round stored before
them, its `working` lines; nothing here names a ruleset or computes an amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import ngettext

from rules.table import Scoring
from rules.working import term_text
from scorer.language import is_zh, seat_name
from scorer.present.words import name_seats


def total_text(total: Any, scoring: Scoring) -> str:
    """8 fans / 20 points (8 番 / 20 分): a result's total in its table's unit."""
    n = total if isinstance(total, int) and not isinstance(total, bool) else 0
    if scoring.unit == "point":
        return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}
    return ngettext("%(n)s fan", "%(n)s fans", n) % {"n": n}


def fan_value(fan: Mapping[str, Any], scoring: Scoring) -> str:
    """What one row of a result is worth as the table counts it: "2" or "2 ×3" where
    fans add up, "×2" where each item doubles, nothing where every shape is worth
    the same (the working says what it is worth)."""
    points, count = fan.get("points", 0), fan.get("count", 1)
    many = isinstance(count, int) and count > 1
    if scoring.compose == "double":
        return " ".join(["×2"] * (count if many else 1))
    if scoring.compose == "flat":
        return ""
    return f"{points} ×{count}" if many else f"{points}"


def fan_rows(fans: Sequence[Any], scoring: Scoring) -> list[dict[str, Any]]:
    """The result's fans with the value each shows (`shown`)."""
    return [{**f, "shown": fan_value(f, scoring)} for f in fans if isinstance(f, Mapping)]


def working_lines(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """How the amounts came, payer by payer, in the reader's language, seats named:
    "丙：44 番 + 底分 8 = 52", "甲、丁 各：底分 8", "乙：底分 6 × 2² = 24".

    Printed from the result's `terms` (rules/working.py), the numbers the amounts
    are worked out from, the one way on the record preview, the round page and the
    ledger; a round stored before terms existed shows its `working` lines."""
    zh = is_zh()
    terms = result.get("terms")
    if isinstance(terms, list) and terms:
        try:
            # (seats named inside a term too: 承包's "2 号位 + 3 号位")
            return [
                name_seats(term_text(t, zh, lambda s: seat_name(list(names), s)), list(names))
                for t in terms
            ]
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            pass  # a hand-made or damaged result: its words, as stored
    lines = result.get("working_zh" if zh else "working") or []
    return [name_seats(str(line), list(names)) for line in lines]


__all__ = ["fan_rows", "fan_value", "total_text", "working_lines"]
