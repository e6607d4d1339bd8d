"""The hand's tiles as the record forms carry them: the melds (type and lowest tile),
read and written the way the situation format has them, and a posted tile.

Below both forms' states (scorer/entry/pick.py, event_pick.py) and the picker that
shows them (scorer/record/picker.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import RuleError
from rules.tiles import parse_tile, parse_tiles, tiles_str

HAND_SIZE = 14  # a kong counts 3 here, as in the situation format
MELD_TYPES = ("chi", "pung", "kong", "concealed_kong", "added_kong")
MELD_FROM = ("left", "across", "right")  # 上家, 对家, 下家


def posted_tile(raw: str, usable: set[int]) -> int | None:
    """A tile the form posted (the winning tile, the turned indicator): None when it
    is blank, no tile, or none of this game's tiles, as a hand-edited form may say."""
    try:
        t = parse_tile(raw) if raw else None
    except RuleError:
        return None
    return t if t in usable else None


def meld_tiles(mtype: str, t: int) -> list[int] | None:
    """The tiles of a meld given its lowest tile; None when there is no such meld (chi on 8m)."""
    if mtype == "chi":
        return [t, t + 1, t + 2] if t < 27 and t % 9 <= 6 else None
    return [t] * (3 if mtype == "pung" else 4)


def meld_dict(mtype: str, t: int) -> dict[str, Any]:
    tiles = tiles_str(meld_tiles(mtype, t) or [])
    if mtype == "concealed_kong":
        return {"type": "kong", "tiles": tiles, "exposed": False}
    if mtype == "added_kong":
        return {"type": "kong", "tiles": tiles, "exposed": True, "added": True}
    return {"type": mtype, "tiles": tiles, "exposed": True}


def meld_of(m: Mapping[str, Any]) -> tuple[str, int] | None:
    """A stored meld (meld_dict's) as the form's (type, lowest tile); None if empty.
    Raises RuleError on tiles it cannot read."""
    tiles = parse_tiles(m.get("tiles", []))
    mtype = str(m.get("type"))
    if mtype == "kong" and m.get("exposed", True) is False:
        mtype = "concealed_kong"
    elif mtype == "kong" and m.get("added"):
        mtype = "added_kong"
    return (mtype, min(tiles)) if tiles else None
