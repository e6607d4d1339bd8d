"""The plain values situations and rounds are made of, judged in one place.

JSON gives numbers as int or float and Python's comparisons are lenient:
4.0 == 4, True == 1, int(1.7) == 1, and `x in a_dict` raises on a list.  A
check written as `players in (2, 3, 4)` therefore lets 4.0 through to code
that needs an int, and a wind looked up in a dict raises TypeError on a list.
Every field that is a count, a seat or a wind is read through these functions
at the edge (the situation, the round, a quick entry's fans), so the rest of
the engine only ever sees ints and the four wind letters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RuleError

WIND_ALIASES = {
    "E": "E",
    "S": "S",
    "W": "W",
    "N": "N",
    "东": "E",
    "東": "E",
    "南": "S",
    "西": "W",
    "北": "N",
}

# A quick entry's count of one fan: no table counts a fan more often (the web
# form offers 1..99); each ruleset checks its own, tighter limit after this.
MAX_FAN_COUNT = 99


def is_whole(v: Any) -> bool:
    """An int and nothing that merely compares equal to one (4.0, True, "4")."""
    return isinstance(v, int) and not isinstance(v, bool)


def whole_in(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def one_of(v: Any, allowed: tuple[int, ...]) -> bool:
    """`v in allowed` for whole numbers only (4.0 in (2, 3, 4) is true in Python)."""
    return isinstance(v, int) and not isinstance(v, bool) and v in allowed


def wind(v: Any) -> str | None:
    """E / S / W / N for a wind given as a letter (either case) or its character, else None."""
    if not isinstance(v, str):
        return None
    return WIND_ALIASES.get(v) or WIND_ALIASES.get(v.strip().upper()) or WIND_ALIASES.get(v.strip())


def fan_counts(raw: Any) -> dict[int, int]:
    """A quick entry's picked fans, `{"48": 1, "62": 2}`: ids as whole numbers (JSON
    keys are strings of digits), counts whole numbers from 0 to MAX_FAN_COUNT.
    Never truncated: 1.7 is refused, not read as 1."""
    if not isinstance(raw, Mapping):
        raise RuleError("bad_input", "fans must be an object", "番种格式不对")
    fans: dict[int, int] = {}
    for k, v in raw.items():
        fid = fan_id(k)
        if fid is None:
            raise RuleError(
                "bad_input",
                f"fan ids must be whole numbers, not {k!r}",
                "番种编号必须是整数",
            )
        if not whole_in(v, 0, MAX_FAN_COUNT):
            raise RuleError(
                "bad_input",
                f"fan counts must be whole numbers from 0 to {MAX_FAN_COUNT}, not {v!r}",
                f"番数必须是 0 到 {MAX_FAN_COUNT} 的整数",
            )
        fans[fid] = v
    return fans


def flower_count(v: Any) -> int:
    """A quick entry's `flowers`: a whole number from 0 to 8; missing or null is 0."""
    if v is None:
        return 0
    if not whole_in(v, 0, 8):
        raise RuleError(
            "bad_input",
            f"flowers: a whole number from 0 to 8, not {v!r}",
            "花牌张数必须是 0 到 8 的整数",
        )
    return int(v)


def fan_id(k: Any) -> int | None:
    """A fan's id from a JSON key ("48") or an int; None for anything else ("1.5", "٣")."""
    if is_whole(k):
        return int(k)
    if isinstance(k, str) and 0 < len(k) <= 6 and k.isascii() and k.isdigit():
        return int(k)
    return None
