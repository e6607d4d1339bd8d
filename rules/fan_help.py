"""What a fan means: its words, an example hand, and the everyday names players call it.

A ruleset's package lists a `FanHelp` per fan id (`Ruleset.fan_help()`); the fan
picker shows the meaning and the example when a fan is tapped open, and its
search finds a fan by its aliases too ("碰碰胡" for 碰碰和, "七对子", "self drawn").
The core knows the shapes only.  Each example is a hand the engine scores with
that fan (tests/rules/test_fan_help.py), so an example that stops showing its fan
fails.

An example is a compact tile string: the concealed tiles, the melds in brackets
(`[123m]` a chi, `[555z]` a pung, `[2222p]` an exposed kong, `{1111m}` a
concealed kong) and the winning tile after `+`:

    "34p55z [123m] [678s] [888m] +2p"

What a fan needs besides the tiles (self-drawn, the last tile, the winds, flowers,
a parameter) is given in `situation` and `params`, as a situation spells them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules.tiles import parse_tiles, tile_str

_TOKEN = re.compile(r"\[([^\]]+)\]|\{([^}]+)\}|\+(\S+)|([^\s\[\]{}+]+)")


@dataclass(frozen=True)
class FanHelp:
    """One fan's help: the example (see the module), what the example needs besides
    its tiles, the meaning in both languages (empty: the fan's own rule text, where
    its row has one) and its everyday names for the search."""

    example: str
    situation: Mapping[str, Any] = field(default_factory=dict)
    meaning_zh: str = ""
    meaning_en: str = ""
    aliases: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    # A fan no hand makes (十老头: ten honor discards in a row), only picked: its
    # example is the fan picked by hand (quick entry), the tiles shown beside it.
    picked: bool = False
    # A fan the result names in its notes only, folded into another row (芜湖's two
    # 嘴子 are one 全交 row, "全交（清一色）"): the name the notes say.
    folded: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "situation", MappingProxyType(dict(self.situation)))
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        parse_example(self.example)  # a bad example is a programming error


def _codes(text: str) -> str:
    return "".join(tile_str(t) for t in parse_tiles(text))


def _meld(text: str, concealed: bool) -> dict[str, Any]:
    tiles = parse_tiles(text)
    if len(tiles) == 4:
        out: dict[str, Any] = {"type": "kong", "tiles": _codes(text)}
        if concealed:
            out["exposed"] = False
        return out
    kind = "pung" if len(set(tiles)) == 1 else "chi"
    return {"type": kind, "tiles": _codes(text)}


def parse_example(example: str) -> dict[str, Any]:
    """The example's tiles as a situation's fields: `concealed`, `melds`, `win_tile`."""
    concealed: list[str] = []
    melds: list[dict[str, Any]] = []
    win = ""
    for exposed, hidden, won, plain in _TOKEN.findall(example):
        if exposed:
            melds.append(_meld(exposed, False))
        elif hidden:
            melds.append(_meld(hidden, True))
        elif won:
            win = _codes(won)
        else:
            concealed.append(_codes(plain))
    if len(parse_tiles(win)) != 1:
        raise ValueError(f"example {example!r}: name one winning tile after '+'")
    return {"concealed": "".join(concealed), "melds": melds, "win_tile": win}


def example_situation(ruleset: str, help: FanHelp) -> dict[str, Any]:
    """The situation `rules.score` is asked for the example: its tiles, what it needs."""
    return {
        "ruleset": ruleset,
        **parse_example(help.example),
        **dict(help.situation),
        **({"params": dict(help.params)} if help.params else {}),
    }


def example_groups(example: str) -> list[dict[str, Any]]:
    """The example as the picker shows it: each group's tile codes and what it is
    (`hand`, `meld`, `concealed_kong`, `win`), in the order written."""
    out: list[dict[str, Any]] = []
    for exposed, hidden, won, plain in _TOKEN.findall(example):
        kind = "meld" if exposed else "concealed_kong" if hidden else "win" if won else "hand"
        text = exposed or hidden or won or plain
        out.append({"kind": kind, "tiles": [tile_str(t) for t in parse_tiles(text)]})
    return out


__all__ = ["FanHelp", "example_groups", "example_situation", "parse_example"]
