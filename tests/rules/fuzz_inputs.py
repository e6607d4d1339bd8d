"""Malformed situations and rounds for the fuzz tests.

Each case starts from a valid situation or round and changes one or two of its
values into a look-alike of another type: 4 -> 4.0, 1 -> 1.7 / True / Infinity,
"E" -> ["E"], a string -> a lone surrogate.  Random JSON finds nothing a parser
does not already refuse; look-alikes are what slipped past the checks (4.0 == 4,
int(1.7) == 1, a list is not hashable).  Every mutation is recorded, so a test
can also say what the answer must be: an integer field given anything but an
integer is refused, never scored.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

Path = tuple[Any, ...]

LONE = "\ud800"  # a lone surrogate: no UTF-8 encoding exists for it

SITUATIONS: list[dict[str, Any]] = [
    {"id": "s1", "ruleset": "mcr",
     "concealed": ["1m", "2m", "3m", "5p", "5p", "5p", "7s", "8s", "9s", "1z"],
     "melds": [{"type": "pung", "tiles": ["6z", "6z", "6z"], "exposed": True,
                "claimed_from": "across"}],
     "win_tile": "1z", "self_drawn": False, "seat_wind": "E", "prevalent_wind": "S",
     "flowers": 1, "table": {"players": 4, "dealer": 0, "winner": 0, "discarder": 2}},
    {"id": "s2", "ruleset": "sichuan", "concealed": "1112345678999m", "win_tile": "5m",
     "self_drawn": True, "seat_wind": "W", "prevalent_wind": "E",
     "table": {"players": 4, "dealer": 1, "winner": 0, "discarder": None}},
    {"id": "s3", "ruleset": "generic", "concealed": "123m456p789s1122z", "win_tile": "2z",
     "wild": ["5m"], "seat_wind": "N", "table": {"players": 3, "dealer": 0, "winner": 1,
                                                   "discarder": 2}},
]  # fmt: skip

ROUNDS: list[dict[str, Any]] = [
    {"id": "r1", "ruleset": "mcr", "players": 4, "dealer": 0, "prevalent_wind": "E",
     "events": [{"type": "win", "discarder": 2,
                 "winners": [{"seat": 0, "fans": {"48": 1, "70": 1, "62": 2}, "flowers": 1}]}]},
    {"id": "r2", "ruleset": "mcr", "players": 4, "dealer": 1, "prevalent_wind": "S",
     "seating": [1, 0, 3, 2],
     "events": [{"type": "win", "discarder": None,
                 "winners": [{"seat": 0, "hand": {"concealed": "123m456m789m123p5p",
                                                  "win_tile": "5p", "seat_wind": "E"}}]}]},
    {"id": "r3", "ruleset": "sichuan", "players": 4, "dealer": 0,
     "events": [{"type": "kong", "player": 1, "kong": "concealed"},
                {"type": "win", "discarder": 2, "winners": [{"seat": 0, "fans": {"3": 1, "15": 1}}]},
                {"type": "win", "discarder": None, "winners": [{"seat": 1, "fans": {}}]},
                {"type": "wall_end", "hands": [{"seat": 2, "status": "ready", "fans": {"2": 1}},
                                               {"seat": 3, "status": "pig"}]}]},
    {"id": "r4", "ruleset": "sichuan", "players": 3, "dealer": 2,
     "events": [{"type": "win", "discarder": 1,
                 "winners": [{"seat": 0, "hand": {"concealed": "1112345678999m",
                                                  "win_tile": "5m"}}]}]},
    {"id": "r5", "ruleset": "yunnan", "players": 4, "dealer": 0, "prevalent_wind": "W",
     "events": [{"type": "win", "discarder": 3, "winners": [{"seat": 1, "fans": {"2": 1}}]}]},
    {"id": "r6", "ruleset": "jian", "dealer": 0, "wild": ["8p", "9p"],
     "events": [{"type": "draw",
                 "seat_inputs": {"zheng_jing": [0, 2, 0, 0], "fu_jing": [1, 1, 0, 0]}}]},
    {"id": "r7", "ruleset": "wuhan", "dealer": 0, "turned": "5m",
     "events": [{"type": "win", "discarder": 2,
                 "winners": [{"seat": 1, "hand": {
                     "concealed": "345m567s8p", "win_tile": "8p",
                     "melds": [{"type": "chi", "tiles": "234p", "claimed_from": "left"},
                               {"type": "kong", "tiles": "9999m", "added": True,
                                "claimed_from": "right"}]}}],
                 "seat_inputs": {"openings": [0, 0, 1, 0], "an_gang": [1, 0, 0, 0],
                                 "hz_gang": [0, 0, 0, 1]}}]},
]  # fmt: skip


def nodes(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every value inside `value` (not `value` itself), by its path of keys and indexes."""
    if not isinstance(value, (dict, list)):
        return
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, sub in items:
        yield (*path, key)
        yield from nodes(sub, (*path, key))


def get(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


def is_int(v: Any) -> bool:
    return type(v) is int


def look_alikes(v: Any) -> st.SearchStrategy[Any]:
    """Values of another type that pass for `v` in a careless check."""
    nasty: list[Any] = [None, math.nan, math.inf, LONE, [], {}]
    if isinstance(v, bool):
        return st.sampled_from([0, 1, 1.0, "true", *nasty])
    if is_int(v):
        return st.sampled_from(
            [float(v), v + 0.7, v - 0.5, True, False, str(v), -math.inf, 10**30, -1, [v],
             {"v": v}, *nasty]
        )  # fmt: skip
    if isinstance(v, str):
        return st.sampled_from(
            [[v], {v: v}, [], {}, 0, 1.0, True, "", v.lower(), v + LONE, "东", "x", *nasty]
        )
    if isinstance(v, list):
        return st.sampled_from([[], [None], [v], {}, "", 0, [*v, *v], *nasty])
    if isinstance(v, dict):
        return st.sampled_from(
            [{}, [v], "", 0, {**v, "1.5": 1}, {**v, "-1": 1}, {**v, LONE: 1}, {**v, "inf": 1},
             *nasty]
        )  # fmt: skip
    return st.sampled_from([0, 0.5, "", "E", [None], {"": None}, *nasty])


@dataclass(frozen=True)
class Mutated:
    """A template with some of its values replaced: `changes` holds (path, old, new)."""

    base: dict[str, Any]
    value: dict[str, Any]
    changes: tuple[tuple[Path, Any, Any], ...]

    @property
    def ints_broken(self) -> bool:
        """An integer field (other than the echoed `id`) now holds something that is
        neither an integer nor null (null is "not given"): it must be refused."""
        return any(
            path[-1] != "id" and is_int(self._in_base(path)) and not is_int(new)
            and new is not None and self._holds(path, new)
            for path, _old, new in self.changes
        )  # fmt: skip

    def _in_base(self, path: Path) -> Any:
        try:
            return get(self.base, path)
        except (KeyError, IndexError, TypeError):
            return None

    def _holds(self, path: Path, new: Any) -> bool:
        """Whether `new` is still in place (a later change may have replaced a parent)."""
        try:
            return get(self.value, path) is new
        except (KeyError, IndexError, TypeError):
            return False


@st.composite
def mutated(draw: st.DrawFn, templates: list[dict[str, Any]]) -> Mutated:
    """One template with one or two of its values replaced by a look-alike."""
    base = draw(st.sampled_from(templates))
    value = copy.deepcopy(base)
    changes: list[tuple[Path, Any, Any]] = []
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(list(nodes(value))))
        old = get(value, path)
        new = draw(look_alikes(old))
        get(value, path[:-1])[path[-1]] = new
        changes.append((path, old, new))
    return Mutated(base, value, tuple(changes))


def without_win_tile(situation: dict[str, Any]) -> dict[str, Any]:
    """The waits form of a situation: the hand one tile short."""
    return {k: v for k, v in situation.items() if k != "win_tile"}
