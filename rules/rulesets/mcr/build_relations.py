"""python -m rules.rulesets.mcr.build_relations: (re)build rules/rulesets/mcr/data/mcr_relations.bin.

The fans that a hand's chows make among themselves (`chow_relation_fans`: 一般高,
喜相逢, 连六, 老少副 and the three- and four-chow fans, with 套算一次) and those its
pungs and kongs make (`pung_relation_fans`: 双同刻, 三同刻, 一色三节高, 三风刻 ...)
depend on the sets alone, and there are few of them: 12,650 multisets of at
most four chows (21 kinds of chow), 52,956 sets of at most four pungs (34 kinds,
no kind twice).  About three new hands in ten meet a chow or pung set for the
first time; shipped, its fans are a look-up (context.shipped_chow_fans,
shipped_pung_fans) rather
than worked out then.  Built in about half a second from the
functions of context.py, which stay the definition: tests/rules/test_mcr_relations.py
rebuilds the file and compares it byte for byte, and reads every entry back
against the functions.

Indexes: the chows by their middle tiles' places in the reference order
(万 条 饼: 7 chows a suit, 0-20), a multiset a0 <= a1 <= ... as the
combination (a0, a1 + 1, a2 + 2, ...) ranked by the combinatorial number system
(sum of C(b_i, i + 1)) after the smaller multisets; the pungs by their tiles'
places in the reference order (0-33), strictly increasing, ranked the same way.

The file, zlib-compressed: b"MJRL1", a 4-byte length and that many bytes of
JSON (the distinct answers, each as its [fan, count] pairs in the functions'
order, chows' first), then one byte per chow multiset and one per pung set
naming its answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path

from rules.build_tables import table_main

MAGIC = b"MJRL1"
PATH = Path(__file__).resolve().parent / "data" / "mcr_relations.bin"
MAX_SETS = 4
N_CHOWS = 21  # chow middles: ranks 2-8 of the three suits
N_PUNGS = 34


def chow_middles() -> list[int]:
    """The chows' middle tiles by their place in the reference order (万 条 饼)."""
    return [9 * s + r for s in (0, 2, 1) for r in range(1, 8)]


def pung_tiles() -> list[int]:
    """The tiles by their place in the reference order (context.ORDER_KEY)."""
    from rules.rulesets.mcr.context import ORDER_KEY

    return sorted(range(N_PUNGS), key=ORDER_KEY.__getitem__)


def offsets(n: int, multiset: bool) -> list[int]:
    """Where the keys of k sets start (k = 0..MAX_SETS), and the total at the end."""
    out = [0]
    for k in range(MAX_SETS + 1):
        out.append(out[-1] + (comb(n + k - 1, k) if multiset else comb(n, k)))
    return out


def chow_keys() -> Iterator[tuple[int, ...]]:
    """Every chow multiset as places 0-20, in index order."""
    for k in range(MAX_SETS + 1):
        combos = list(combinations_with_replacement(range(N_CHOWS), k))
        combos.sort(key=lambda a: sum(comb(x + i, i + 1) for i, x in enumerate(a)))
        yield from combos


def pung_keys() -> Iterator[tuple[int, ...]]:
    """Every pung set as places 0-33, in index order."""
    for k in range(MAX_SETS + 1):
        combos = list(combinations(range(N_PUNGS), k))
        combos.sort(key=lambda a: sum(comb(x, i + 1) for i, x in enumerate(a)))
        yield from combos


def _encode(answers: Sequence[dict[int, int]], distinct: dict[tuple[tuple[int, int], ...], int],
            out: bytearray) -> None:  # fmt: skip
    for d in answers:
        key = tuple(d.items())
        code = distinct.setdefault(key, len(distinct))
        out.append(code)


def build() -> bytes:
    """The file's bytes (before compression)."""
    from rules.rulesets.mcr.context import chow_relation_fans, pung_relation_fans

    mids = chow_middles()
    tiles = pung_tiles()
    distinct: dict[tuple[tuple[int, int], ...], int] = {}
    chows = bytearray()
    _encode([chow_relation_fans([mids[a] for a in key]) for key in chow_keys()], distinct, chows)
    pungs = bytearray()
    _encode([pung_relation_fans([tiles[a] for a in key]) for key in pung_keys()], distinct, pungs)
    if len(distinct) > 256:
        raise ValueError(f"{len(distinct)} distinct answers do not fit a byte")
    assert len(chows) == offsets(N_CHOWS, True)[-1]
    assert len(pungs) == offsets(N_PUNGS, False)[-1]
    values = [[list(p) for p in key] for key in distinct]
    head = json.dumps(values, separators=(",", ":")).encode()
    return MAGIC + len(head).to_bytes(4, "little") + head + bytes(chows) + bytes(pungs)


def main(argv: Sequence[str] | None = None) -> int:
    return table_main("python -m rules.rulesets.mcr.build_relations", PATH, build, argv)


if __name__ == "__main__":
    raise SystemExit(main())
