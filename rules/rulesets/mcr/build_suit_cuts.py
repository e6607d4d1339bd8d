"""python -m rules.rulesets.mcr.build_suit_cuts: (re)build rules/rulesets/mcr/data/mcr_suit_cuts.bin.

MCR reads a hand's cuts into sets and a pair from each suit's cuts
(scoring._suit_packs); cutting a suit pattern by the walk in Python
(scoring.suit_cuts) costs about 5 µs, and one new hand in five or six meets a
pattern for the first time.  So every pattern of one suit that can be cut at all
is here: those
of at most four sets (sets only, and sets with the pair), counts at most four a
kind; 9 kinds for a suit, 7 for the honors (no chows).  Built in a few seconds
from `suit_cuts` itself, which stays the definition
(tests/rules/test_mcr_suit_cuts.py rebuilds the file and reads every entry
back against it); a pattern not here (none a hand can hold) is cut by the walk.

The file, zlib-compressed: b"MJSC1", then four sections (9 kinds without and
with the pair, then 7 kinds likewise), each: the number of patterns N (4
bytes), N pattern indexes ascending (index = sum of count[i] * 5**i, 4 bytes
each), N + 1 offsets (4 bytes each) into the section's entries, the entries'
length (4 bytes) and the entries: the pattern's cuts in `suit_cuts`' order,
each as its number of groups then one byte a group (3 * first kind + 0 pung /
1 pair / 2 chow).  All numbers little-endian.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from pathlib import Path

from rules.build_tables import table_main

MAGIC = b"MJSC1"
PATH = Path(__file__).resolve().parent / "data" / "mcr_suit_cuts.bin"
SECTIONS = ((9, False), (9, True), (7, False), (7, True))


def patterns(n: int, pair: bool) -> list[bytes]:
    """Every pattern of an n-kind suit that is at most four sets (and the pair)."""
    sets = [tuple(3 if j == i else 0 for j in range(n)) for i in range(n)]
    if n == 9:
        sets += [tuple(1 if i <= j <= i + 2 else 0 for j in range(n)) for i in range(7)]
    level = {bytes(n)}
    found = set(level)
    for _ in range(4):
        level = {
            k
            for p in level
            for s in sets
            if max(k := bytes(a + b for a, b in zip(p, s, strict=True))) <= 4
        }
        found |= level
    if pair:
        found = {
            k
            for p in found
            for i in range(n)
            if p[i] <= 2 and (k := p[:i] + bytes([p[i] + 2]) + p[i + 1 :])
        }
    return sorted(found, key=index)


def index(key: bytes) -> int:
    """The pattern's place among the 5**n patterns: sum of count[i] * 5**i."""
    x = 0
    for c in reversed(key):
        x = 5 * x + c
    return x


def build() -> bytes:
    """The file's bytes (before compression)."""
    from rules.rulesets.mcr.scoring import suit_cuts

    out = bytearray(MAGIC)
    for n, pair in SECTIONS:
        keys = patterns(n, pair)
        idx = array("I", [index(k) for k in keys])
        offs = array("I", [0])
        entries = bytearray()
        for k in keys:
            for cut in suit_cuts(k, pair):
                entries.append(len(cut))
                entries += bytes(3 * i + kind for i, kind in cut)
            offs.append(len(entries))
        for a in (idx, offs):
            if a.itemsize != 4:  # pragma: no cover - every platform we run has 4-byte I
                raise RuntimeError("array('I') is not 4 bytes here")
            if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
                a.byteswap()
        out += len(keys).to_bytes(4, "little") + idx.tobytes() + offs.tobytes()
        out += len(entries).to_bytes(4, "little") + entries
    return bytes(out)


def main(argv: Sequence[str] | None = None) -> int:
    return table_main("python -m rules.rulesets.mcr.build_suit_cuts", PATH, build, argv)


if __name__ == "__main__":
    raise SystemExit(main())
