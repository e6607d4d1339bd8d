"""The shipped one-more-tile rows (rules/data/suit_adds.bin) and what reads them.

A hand's waits are, suit by suit, the kinds one more tile of completes the
hand.  For a suit pattern that depends on what each kind added does to the
pattern's needs (the need tables, looked up nine times), on the best pair
difference of the other suits and on the wild tiles to spare.  Looking the
nine up on a pattern's first sight cost more than the rest of a waits answer,
and a tile tap is mostly a first sight; so `python -m rules.build_tables`
ships each pattern's row of "what one more tile does", relative to the
pattern's own need (most patterns share their row), and a row with a pair
difference and a spare gives a mask of the suit's kinds, kept in a small
cache that new hands mostly hit.  Read by rules/plain_reader.py and by
shapes.standard_waits; tests/rules/test_tables.py holds the rows to the need
tables' own look-ups.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from pathlib import Path


def _load_adds() -> tuple[tuple[array[int], bytes, int], ...]:
    """rules/data/suit_adds.bin (rules/build_tables.py): per suit kind, each
    pattern's row number and the rows."""
    raw = zlib.decompress((Path(__file__).parent / "data" / "suit_adds.bin").read_bytes())
    assert raw[:5] == b"MJSA1", "rules/data/suit_adds.bin: not a table file"
    pos = 5
    out = []
    for n in (9, 7):
        size = int.from_bytes(raw[pos : pos + 4], "little")
        ids = array("H")
        ids.frombytes(memoryview(raw)[pos + 4 : pos + 4 + 2 * size])
        if sys.byteorder == "big":
            ids.byteswap()
        pos += 4 + 2 * size
        count = int.from_bytes(raw[pos : pos + 4], "little")
        out.append((ids, raw[pos + 4 : pos + 4 + n * count], n))
        pos += 4 + n * count
    return tuple(out)


_ADDS = _load_adds()
ROW_ID = (_ADDS[0][0], _ADDS[0][0], _ADDS[0][0], _ADDS[1][0])
_NO_ADD = 255


# (row number, honors, best pair difference elsewhere, spare wild tiles),
# packed in one int -> the mask of the kinds one more tile of completes the
# hand.  Patterns share rows, and the spare and the pair difference take a
# few values each, so a hand never seen mostly meets keys seen before; the
# cache has a limit all the same.
ROWS: dict[int, int] = {}
ROWS_CACHE_MAX = 50_000


def row_key(row_id: int, honors: bool, other: int, spare: int) -> int | None:
    """The cache key of a row under a pair difference and a spare (None when they
    fall outside what the key holds: the caller works the row out itself)."""
    if not row_id or not (-8 <= other <= 7 and -16 <= spare <= 15):
        return None
    return ((row_id << 1 | honors) << 4 | other + 8) << 5 | spare + 16


def row_mask(key: int) -> int:
    """The kinds (bit j: kind j of the suit) that one more tile of completes the
    hand, for a row_key: kind j is one when its need after it, less the
    pattern's own, plus the least pair difference (this suit's after it, or
    the best elsewhere) is within the spare wild tiles."""
    spare = (key & 31) - 16
    other = (key >> 5 & 15) - 8
    _, rows, n = _ADDS[key >> 9 & 1]
    at = ((key >> 10) - 1) * n
    mask = 0
    for j, b in enumerate(rows[at : at + n]):
        if b != _NO_ADD:
            pair = (b & 15) - 8
            if (b >> 4) - 1 + (pair if pair < other else other) <= spare:
                mask |= 1 << j
    if len(ROWS) >= ROWS_CACHE_MAX:
        ROWS.clear()
    ROWS[key] = mask
    return mask


# per suit: a mask of its kinds -> their tiles, in tile order
MASK_TILES = tuple(
    tuple(tuple(off + j for j in range(n) if m >> j & 1) for m in range(1 << n))
    for off, n in ((0, 9), (9, 9), (18, 9), (27, 7))
)
