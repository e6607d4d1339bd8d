"""python -m rules.build_tables: (re)build rules/data/suit_need.bin, the per-suit tables.

For every pattern of one suit (counts 0-4 of its 9 kinds, or 7 for the honors)
the least number of wild tiles that complete it into sets only, and into sets
plus the pair, every kind capped at four: what `shapes.suit_need` answers.
Shipping them means a fresh process answers its first hand as fast as its
thousandth (solving one pattern lazily cost about half a millisecond).

How it is built, without solving 2.4 million patterns one by one: a pattern
completes into sets (+ pair) exactly when it is one of the "complete" patterns
(sums of pungs and chows, + one pair, at most four a kind), so its need is the
least number of tiles to add to reach a complete pattern.  The complete
patterns are found by adding sets from the empty one; then, from the fullest
pattern down, need(x) = 0 if x is complete else 1 + min over the kinds i below
four of need(x + i).  About 20 s in pure Python; the result is compared with the
solver (`shapes._solve_need`) pattern by pattern in tests/rules/test_tables.py.

The file: b"MJSN1", then for the 9-kind and the 7-kind suit in turn: the number
of patterns as 4 bytes, then one byte per pattern (index = sum of count[i] * 5**i)
naming an entry of a small list of (need without pair, need with pair) pairs
that follows the patterns (1 byte length, 2 bytes per entry); the whole
zlib-compressed.  99 stands for impossible (shapes.INF).

It also writes rules/data/suit_adds.bin, what one more tile does to each
pattern a hand can hold (at most 13 tiles in the suit), for the waits
(rules/plain_reader.py): a tile tap asks the waits of a hand never seen, and working
a pattern's nine "one more tile" look-ups out on first sight cost more than
the rest of the answer.  Most patterns share their row: for each kind j, the
need after one more j *less the pattern's own*, and the pair's difference
after it; 20,590 distinct rows for a 9-kind suit, 2,242 for the honors.  The
file: b"MJSA1", then for the 9-kind and the 7-kind suit: the number of
patterns (4 bytes), a 2-byte row number per pattern (0: no row -- more than
13 tiles, or an impossible need involved -- the caller works it out), the
number of rows (4 bytes) and the rows, n bytes each: per kind
(need difference + 1) * 16 + (pair difference + 8) (or no row where those
fall outside -1..12 and -8..7), or 255 when one more of the
kind can never complete the suit (held four times, or four honors); the whole
zlib-compressed.
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

INF = 99
MAGIC = b"MJSN1"
PATH = Path(__file__).parent / "data" / "suit_need.bin"
ADDS_MAGIC = b"MJSA1"
ADDS_PATH = Path(__file__).parent / "data" / "suit_adds.bin"
ADDS_MOST = 13  # tiles of one suit a 13-tile hand can hold
NO_ADD = 255  # the kind is held four times


def _sets(n: int) -> list[list[int]]:
    """Pungs of every kind, chows in a 9-kind suit, as per-kind additions."""
    out = []
    for i in range(n):
        out.append([3 if j == i else 0 for j in range(n)])
    if n == 9:
        for i in range(7):
            out.append([1 if i <= j <= i + 2 else 0 for j in range(n)])
    return out


def build_suit(n: int) -> tuple[bytearray, bytearray]:
    """(need without pair, need with pair) for all 5**n patterns, as two byte arrays."""
    size = 5**n
    pow5 = [5**i for i in range(n)]
    # digits of every index, once
    digits = [[(x // p) % 5 for p in pow5] for x in range(size)]
    complete = bytearray(size)  # 1: sets only; 2: sets + pair; 3: both
    complete[0] = 1
    sets = [(s, sum(s[i] * pow5[i] for i in range(n))) for s in _sets(n)]
    frontier = [0]
    while frontier:
        nxt = []
        for x in frontier:
            dx = digits[x]
            for s, ds in sets:
                if all(dx[i] + s[i] <= 4 for i in range(n)):
                    y = x + ds
                    if not complete[y] & 1:
                        complete[y] |= 1
                        nxt.append(y)
        frontier = nxt
    for x in range(size):
        if complete[x] & 1:
            dx = digits[x]
            for i in range(n):
                if dx[i] <= 2:
                    complete[x + 2 * pow5[i]] |= 2
    need0 = bytearray([INF]) * size
    need1 = bytearray([INF]) * size
    # from the fullest pattern down: a pattern's neighbours x + i have higher index
    for x in range(size - 1, -1, -1):
        c = complete[x]
        dx = digits[x]
        best0 = 0 if c & 1 else INF
        best1 = 0 if c & 2 else INF
        if best0 or best1:
            for i in range(n):
                if dx[i] < 4:
                    y = x + pow5[i]
                    if best0 and need0[y] + 1 < best0:
                        best0 = need0[y] + 1
                    if best1 and need1[y] + 1 < best1:
                        best1 = need1[y] + 1
        need0[x] = min(best0, INF)
        need1[x] = min(best1, INF)
    return need0, need1


def add_rows(n: int, need0: bytearray, need1: bytearray) -> tuple[list[int], list[bytes]]:
    """Each pattern's row number (0: none) and the rows (see the module doc)."""
    pow5 = [5**i for i in range(n)]
    ids = [0] * 5**n
    rows: dict[bytes, int] = {}
    for x in range(5**n):
        digits = [(x // p) % 5 for p in pow5]
        if sum(digits) > ADDS_MOST or need0[x] >= INF:
            continue
        row = bytearray(n)
        for j in range(n):
            if digits[j] == 4:
                row[j] = NO_ADD
                continue
            y = x + pow5[j]
            if need0[y] >= INF and need1[y] >= INF:  # never completes: as a fifth copy
                row[j] = NO_ADD
                continue
            if need0[y] >= INF or need1[y] >= INF:
                break
            up, pair = need0[y] - need0[x], need1[y] - need0[y]
            if not (-1 <= up <= 12 and -8 <= pair <= 7):
                break  # outside what a byte holds: no row
            row[j] = (up + 1) * 16 + pair + 8
        else:
            ids[x] = rows.setdefault(bytes(row), len(rows) + 1)
    if len(rows) >= 1 << 16:
        raise ValueError("more than 65,535 rows")
    return ids, list(rows)


def encode_adds(built: dict[int, tuple[bytearray, bytearray]]) -> bytes:
    parts = [ADDS_MAGIC]
    for n in (9, 7):
        ids, rows = add_rows(n, *built[n])
        parts.append(len(ids).to_bytes(4, "little"))
        parts.append(b"".join(i.to_bytes(2, "little") for i in ids))
        parts.append(len(rows).to_bytes(4, "little"))
        parts.append(b"".join(rows))
    return zlib.compress(b"".join(parts), 9)


def encode(built: dict[int, tuple[bytearray, bytearray]] | None = None) -> bytes:
    parts = [MAGIC]
    for n in (9, 7):
        need0, need1 = built[n] if built else build_suit(n)
        pairs: dict[tuple[int, int], int] = {}
        codes = bytearray(len(need0))
        for x in range(len(need0)):
            p = (need0[x], need1[x])
            code = pairs.get(p)
            if code is None:
                code = pairs[p] = len(pairs)
                if code > 255:
                    raise ValueError("more than 256 distinct need pairs")
            codes[x] = code
        parts.append(len(codes).to_bytes(4, "little"))
        parts.append(bytes(codes))
        parts.append(bytes([len(pairs) - 1]))
        for a, b in pairs:
            parts.append(bytes([a, b]))
    return zlib.compress(b"".join(parts), 9)


def table_main(
    prog: str, default: Path, build: Callable[[], bytes], argv: Sequence[str] | None
) -> int:
    """The command line of a ruleset's table builder: `--out` (default: where the
    ruleset loads it from), the built bytes zlib-compressed and written, and a line
    with the size and the time."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("--out", type=Path, default=default)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    data = zlib.compress(build(), 9)
    args.out.write_bytes(data)
    print(f"{args.out}: {len(data):,} bytes in {time.perf_counter() - t0:.1f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rules.build_tables", description=__doc__)
    ap.add_argument("--out", type=Path, default=PATH)
    ap.add_argument("--adds-out", type=Path, default=ADDS_PATH)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    built = {n: build_suit(n) for n in (9, 7)}
    for path, data in ((args.out, encode(built)), (args.adds_out, encode_adds(built))):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path} ({len(data):,} bytes)")
    print(f"in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
