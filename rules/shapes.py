"""Winning shapes: exact win checks, decompositions and waits, wild tiles included.

Everything works on a list of 34 counts of *natural* tiles (wild tiles taken
out) plus the number of wild tiles.  The hand is cut into its four suits;
each suit's pattern is solved once and remembered:

* ``suit_need(pattern)`` is the least number of wild tiles that turn the
  pattern into sets only, and into sets plus the pair.  A hand wins when the
  suits' needs, with the pair in one of them, add up to no more than the
  hand's wild tiles.  That is exact, not greedy: the table entry is a
  minimum over every way of cutting the pattern, and wild tiles left over
  always come in threes (tile counts force it) that stand for a pung of a
  kind the hand does not touch, of which 14 tiles leave at least 20.
* ``suit_decompositions(pattern, budget)`` lists every way the pattern plus
  exactly k wild tiles forms sets (and the pair), for every k up to the
  budget, with what each wild tile stands for.

The four-copies rule binds what wild tiles stand for: a kind's natural
tiles, the tiles wild ones stand for and the copies in declared melds never
exceed four.  Declared melds enter as per-kind caps (4 minus the copies in
melds); without melds every cap is 4 and the tables are shared by all hands.

Seed 004's greedy wildcard method (replace one tile of a broken chow, then
one of a pair ...) misses hands such as 1122345m111222z + 1 wild; the exact
tables here do not, and the tests keep those hands as regressions.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, product
from pathlib import Path
from typing import NamedTuple

from rules import adds
from rules.tiles import HONORS, ORPHANS

INF = 99
_SUITS = ((0, 9), (9, 18), (18, 27), (27, 34))
FULL_CAPS = (4,) * 34


class Group(NamedTuple):
    """One part of a decomposition.

    kind: 'chow' (tile = lowest), 'pung', 'pair', 'single' (one tile of a
    13-orphans or knitted hand) or 'knit' (tile, tile+3, tile+6 of a
    knitted straight) or 'set3' (a set of three different tiles a ruleset
    declares in `Forms.extra_sets`, tile = its first).
    """

    kind: str
    tile: int


class Decomposition(NamedTuple):
    """One way the concealed tiles (win tile included) form a winning shape.

    form: 'standard' (sets + pair), 'seven_pairs', 'thirteen_orphans',
    'honors_knitted' (全不靠), 'seven_honors_knitted' (七星不靠) or
    'knitted_straight' (组合龙 + a set + the pair).
    wild_as: the kinds the wild tiles stand for, sorted; rulesets read it
    for 软胡/硬胡, 德国 (every 精 standing for itself) and the like.
    """

    form: str
    groups: tuple[Group, ...]
    wild_as: tuple[int, ...] = ()


# ---------------------------------------------------------------------------
# per-suit solving


def _solve_need(c: bytes, caps: bytes, pair: bool) -> int:
    """Least wild tiles to cut c (one suit) into sets (+ the pair if `pair`)."""
    n = len(c)
    honor = n == 7
    memo: dict[tuple[int, int, int, bool], int] = {}

    def go(i: int, a: int, b: int, need_pair: bool) -> int:
        # a: chows begun at i-1 (need i and i+1); b: chows begun at i-2 (need i)
        if i == n:
            return INF if need_pair else 0
        key = (i, a, b, need_pair)
        if key in memo:
            return memo[key]
        best = INF
        ci = c[i]
        cap = caps[i]
        max_s = 0 if honor or i > n - 3 else 4
        for u in (0, 1):
            for q in (0, 1) if need_pair else (0,):
                base = a + b + 3 * u + 2 * q
                for s in range(max_s + 1):
                    needed = base + s
                    if needed > cap:
                        break
                    if needed < ci:
                        continue
                    r = go(i + 1, s, a, need_pair and not q)
                    if r < INF and needed - ci + r < best:
                        best = needed - ci + r
        memo[key] = best
        return best

    return go(0, 0, 0, pair)


_FULL_CAP_BYTES = {9: bytes([4] * 9), 7: bytes([4] * 7)}
# pattern -> (need without pair, need with pair minus need without pair).  The
# second item is a difference so that the hot path adds four numbers and
# takes one min; INF entries stay correct because the difference cancels.
# Filled from the shipped tables (below) as patterns are met, up to a size;
# hot paths elsewhere read it first (`SUIT_NEEDS.get(k) or suit_need(k)`).
SUIT_NEEDS: dict[bytes, tuple[int, int]] = {}
NEED_CACHE_MAX = 100_000
_NEED_CAPPED: dict[tuple[bytes, bytes], tuple[int, int]] = {}
NEED_CAPPED_MAX = 20_000


# The shipped per-suit tables (rules/data/suit_need.bin, built by
# `python -m rules.build_tables`): for a 9- or 7-kind suit, one byte per pattern
# at index sum(count[i] * 5**i), naming a (need, extra need with the pair)
# entry of a short list.  The index is found from two halves of the pattern,
# each a dict hit.
class _Table(NamedTuple):
    codes: bytes
    values: tuple[tuple[int, int], ...]
    low: dict[bytes, int]  # first half of the pattern -> its part of the index
    high: dict[bytes, int]  # second half -> its part
    split: int
    step: tuple[int, ...]  # 5**i: the index of the pattern with one more tile i


def _halves(n: int, split: int) -> tuple[dict[bytes, int], dict[bytes, int]]:
    def all_of(m: int, weight: int) -> dict[bytes, int]:
        # product() runs its last place fastest: reversed, that is count[0]
        return {
            bytes(digits[::-1]): x * weight for x, digits in enumerate(product(range(5), repeat=m))
        }

    return all_of(split, 1), all_of(n - split, 5**split)


def _load_tables() -> dict[int, _Table]:
    raw = zlib.decompress((Path(__file__).parent / "data" / "suit_need.bin").read_bytes())
    assert raw[:5] == b"MJSN1", "rules/data/suit_need.bin: not a table file"
    pos = 5
    out = {}
    for n, split in ((9, 5), (7, 4)):
        size = int.from_bytes(raw[pos : pos + 4], "little")
        assert size == 5**n
        codes = raw[pos + 4 : pos + 4 + size]
        pos += 4 + size
        k = raw[pos] + 1
        vals = [(raw[pos + 1 + 2 * i], raw[pos + 2 + 2 * i]) for i in range(k)]
        pos += 1 + 2 * k
        low, high = _halves(n, split)
        out[n] = _Table(
            codes,
            tuple((a, b - a) for a, b in vals),
            low,
            high,
            split,
            tuple(5**i for i in range(n)),
        )
    return out


NEED_TABLES = _load_tables()


def _index(key: bytes) -> int:
    """The pattern's place in its table (KeyError for a count above 4)."""
    t = NEED_TABLES[len(key)]
    s = t.split
    return t.low[key[:s]] + t.high[key[s:]]


def suit_need(key: bytes, caps: bytes | None = None) -> tuple[int, int]:
    """(need without pair, extra need when the pair is here) for one suit pattern."""
    if caps is None or caps == _FULL_CAP_BYTES[len(key)]:
        r = SUIT_NEEDS.get(key)
        if r is None:
            t = NEED_TABLES[len(key)]
            s = t.split
            lo = t.low.get(key[:s])
            hi = t.high.get(key[s:])
            if lo is not None and hi is not None:
                r = t.values[t.codes[lo + hi]]
            else:  # a count above four: only the solver knows
                full = _FULL_CAP_BYTES[len(key)]
                n0 = _solve_need(key, full, False)
                r = (n0, _solve_need(key, full, True) - n0)
            if len(SUIT_NEEDS) < NEED_CACHE_MAX:
                SUIT_NEEDS[key] = r
        return r
    ck = (key, caps)
    r = _NEED_CAPPED.get(ck)
    if r is None:
        n0 = _solve_need(key, caps, False)
        r = (n0, _solve_need(key, caps, True) - n0)
        if len(_NEED_CAPPED) < NEED_CAPPED_MAX:
            _NEED_CAPPED[ck] = r
    return r


_Part = tuple[tuple[Group, ...], tuple[int, ...]]


def _solve_enum(c: bytes, caps: bytes, off: int, pair: bool, budget: int) -> list[list[_Part]]:
    """Every cut of c plus exactly k wild tiles (k = 0..budget), bucketed by k."""
    n = len(c)
    honor = n == 7
    memo: dict[
        tuple[int, int, int, bool, int], list[tuple[int, tuple[Group, ...], tuple[int, ...]]]
    ] = {}

    def go(
        i: int, a: int, b: int, need_pair: bool, left: int
    ) -> list[tuple[int, tuple[Group, ...], tuple[int, ...]]]:
        if i == n:
            return [] if need_pair else [(0, (), ())]
        key = (i, a, b, need_pair, left)
        hit = memo.get(key)
        if hit is not None:
            return hit
        out: list[tuple[int, tuple[Group, ...], tuple[int, ...]]] = []
        ci = c[i]
        cap = caps[i]
        t = off + i
        max_s = 0 if honor or i > n - 3 else 4
        for u in (0, 1):
            for q in (0, 1) if need_pair else (0,):
                base = a + b + 3 * u + 2 * q
                # the chows begun here: enough to use the tiles, within the cap,
                # the wild tiles left and four
                lo = ci - base if ci > base else 0
                hi = min(max_s, cap - base, ci - base + left)
                for s in range(lo, hi + 1):
                    fill = base + s - ci
                    here = (
                        ((Group("pung", t),) if u else ())
                        + ((Group("pair", t),) if q else ())
                        + (Group("chow", t),) * s
                    )
                    wild_here = (t,) * fill
                    for used, groups, wild in go(i + 1, s, a, need_pair and not q, left - fill):
                        out.append((used + fill, here + groups, wild_here + wild))
        memo[key] = out
        return out

    buckets: list[list[_Part]] = [[] for _ in range(budget + 1)]
    for used, groups, wild in go(0, 0, 0, pair, budget):
        buckets[used].append((groups, wild))
    return buckets


_ENUM: dict[tuple[bytes, bytes, int, bool, int], tuple[tuple[int, list[_Part]], ...]] = {}
ENUM_CACHE_MAX = 20_000  # suit patterns' cuts kept (then the cache starts again)
ENUM_KEEP_MAX = 256  # a pattern with more cuts is not kept
# Up to this many wild tiles a suit's cuts are built and kept (a few dozen at
# most); beyond it they are counted and the first few walked (_count_dp).
SMALL_BUDGET = 4


def _small_parts(
    key: bytes, caps: bytes, off: int, pair: bool, budget: int, chows: bool
) -> list[list[_Part]]:
    """suit_decompositions as a list by k, only the cuts without chows when asked."""
    out: list[list[_Part]] = [[] for _ in range(budget + 1)]
    for k, parts in suit_decompositions(key, caps, off, pair, budget):
        out[k] = parts if chows else [p for p in parts if all(g.kind != "chow" for g in p[0])]
    return out


def suit_decompositions(
    key: bytes, caps: bytes, off: int, pair: bool, budget: int
) -> tuple[tuple[int, list[_Part]], ...]:
    """(k, cuts using exactly k wild tiles) for every k <= budget that has cuts, k ascending."""
    ck = (key, caps, off, pair, budget)
    r = _ENUM.get(ck)
    if r is None:
        buckets = _solve_enum(key, caps, off, pair, budget)
        r = tuple((k, parts) for k, parts in enumerate(buckets) if parts)
        if len(_ENUM) >= ENUM_CACHE_MAX:
            _ENUM.clear()
        if sum(len(parts) for _, parts in r) <= ENUM_KEEP_MAX:
            _ENUM[ck] = r
    return r


# ---------------------------------------------------------------------------
# standard form: sets + pair


def _keys(counts: bytes) -> tuple[bytes, bytes, bytes, bytes]:
    return (counts[0:9], counts[9:18], counts[18:27], counts[27:34])


def _cap_keys(caps: Sequence[int] | None) -> tuple[bytes | None, ...]:
    if caps is None:
        return (None, None, None, None)
    return (bytes(caps[0:9]), bytes(caps[9:18]), bytes(caps[18:27]), bytes(caps[27:34]))


def standard_need(counts: bytes, caps: Sequence[int] | None = None) -> int:
    """Least wild tiles that complete `counts` into sets plus one pair."""
    ks = _keys(counts)
    cks = _cap_keys(caps)
    needs = [suit_need(k, ck) for k, ck in zip(ks, cks, strict=True)]
    return sum(n[0] for n in needs) + min(n[1] for n in needs)


def is_standard_win(counts: bytes, wilds: int = 0, caps: Sequence[int] | None = None) -> bool:
    """Sets + pair from `counts` natural tiles and `wilds` wild tiles (any number of sets).

    The hot path of the engine (waits, previews, brute checks call it many
    times), hence bytes input and the inlined table look-ups.
    """
    if caps is None:
        get = SUIT_NEEDS.get
        k = counts[0:9]
        a = get(k) or suit_need(k)
        k = counts[9:18]
        b = get(k) or suit_need(k)
        k = counts[18:27]
        c = get(k) or suit_need(k)
        k = counts[27:34]
        d = get(k) or suit_need(k)
        m = a[0] + b[0] + c[0] + d[0] + min(a[1], b[1], c[1], d[1])
    else:
        m = standard_need(counts, caps)
    # Left-over wild tiles must come in threes (a pung of an untouched kind).
    return m <= wilds and (wilds - m) % 3 == 0


def standard_decompositions(
    counts: bytes, wilds: int = 0, caps: Sequence[int] | None = None
) -> list[Decomposition]:
    """Every cut into sets + pair using all `wilds` wild tiles, with what they stand for."""
    if (sum(counts) + wilds) % 3 != 2:
        return []
    if wilds == 0 and (caps is None or all(map(int.__le__, counts, caps))):
        return _natural_decompositions(counts)
    ks = _keys(counts)
    cap_b = tuple(
        bytes(caps[lo:hi]) if caps is not None else _FULL_CAP_BYTES[hi - lo] for lo, hi in _SUITS
    )
    cks = tuple(None if caps is None else cb for cb in cap_b)
    needs = [suit_need(k, ck) for k, ck in zip(ks, cks, strict=True)]
    out: list[Decomposition] = []
    s0 = sum(n[0] for n in needs)
    for pair_suit in range(4):
        if s0 + needs[pair_suit][1] > wilds:
            continue
        t0 = suit_decompositions(ks[0], cap_b[0], 0, pair_suit == 0, wilds)
        t1 = suit_decompositions(ks[1], cap_b[1], 9, pair_suit == 1, wilds)
        t2 = suit_decompositions(ks[2], cap_b[2], 18, pair_suit == 2, wilds)
        last = dict(suit_decompositions(ks[3], cap_b[3], 27, pair_suit == 3, wilds))
        for k0, p0 in t0:
            for k1, p1 in t1:
                if k0 + k1 > wilds:
                    break
                for k2, p2 in t2:
                    p3 = last.get(wilds - k0 - k1 - k2)
                    if p3 is None:
                        continue
                    # Parts list their wild tiles in tile order and suits come in
                    # tile order, so the concatenation is already sorted.
                    for (g0, w0), (g1, w1), (g2, w2), (g3, w3) in product(p0, p1, p2, p3):
                        out.append(Decomposition("standard", g0 + g1 + g2 + g3, w0 + w1 + w2 + w3))
    return out


_NAT: dict[tuple[bytes, int, bool], list[tuple[Group, ...]]] = {}
NAT_CACHE_MAX = 50_000


def _natural_cuts(c: bytes, off: int, pair: bool) -> list[tuple[Group, ...]]:
    """The cuts of one suit without wild tiles, in suit_decompositions' order.

    Without wild tiles each kind's pung and pair decide its chows, so this is
    _solve_enum with one choice fewer, no memo and a look at the next two
    kinds before a chow is begun: several times faster on a new pattern."""
    n = len(c)
    honor = n == 7
    out: list[tuple[Group, ...]] = []

    def go(i: int, a: int, b: int, need_pair: bool, acc: tuple[Group, ...]) -> None:
        if i == n:
            if not need_pair:
                out.append(acc)
            return
        r = c[i] - a - b
        if r < 0:
            return
        t = off + i
        max_s = 0 if honor or i > n - 3 else 4
        for u in (0, 1):
            for q in (0, 1) if need_pair else (0,):
                s = r - 3 * u - 2 * q
                if s < 0 or s > max_s or (s and (c[i + 1] < s + a or c[i + 2] < s)):
                    continue
                here = (
                    ((Group("pung", t),) if u else ())
                    + ((Group("pair", t),) if q else ())
                    + (Group("chow", t),) * s
                )
                go(i + 1, s, a, need_pair and not q, acc + here)

    go(0, 0, 0, pair, ())
    return out


def _nat_parts(key: bytes, x: int, pair: bool) -> list[tuple[Group, ...]]:
    """The cuts of one suit without wild tiles (groups only), cached."""
    ck = (key, x, pair)
    r = _NAT.get(ck)
    if r is None:
        r = _natural_cuts(key, _SUITS[x][0], pair)
        if len(_NAT) >= NAT_CACHE_MAX:
            _NAT.clear()
        _NAT[ck] = r
    return r


def natural_pair_suits(ks: tuple[bytes, bytes, bytes, bytes]) -> list[int]:
    """The suits (0-3) that can hold the pair of a win without wild tiles, read off the
    per-suit needs: every suit complete as sets, this one as sets and a pair.  The one
    reading of the tables both the engine's natural cuts and MCR's cuts start from."""
    get = SUIT_NEEDS.get
    needs = [get(k) or suit_need(k) for k in ks]
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    return [ps for ps in range(4) if s0 + needs[ps][1] <= 0]


def _natural_decompositions(counts: bytes) -> list[Decomposition]:
    """standard_decompositions without wild tiles (caps cannot bind): the needs
    say which suit can hold the pair, and each suit's cuts are looked up."""
    ks = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    out: list[Decomposition] = []
    for ps in natural_pair_suits(ks):
        p0 = _nat_parts(ks[0], 0, ps == 0)
        p1 = _nat_parts(ks[1], 1, ps == 1)
        p2 = _nat_parts(ks[2], 2, ps == 2)
        p3 = _nat_parts(ks[3], 3, ps == 3)
        for g0, g1, g2, g3 in product(p0, p1, p2, p3):
            out.append(Decomposition("standard", g0 + g1 + g2 + g3))
    return out


# ---------------------------------------------------------------------------
# seven pairs


_ODD = bytes(i & 1 for i in range(256))  # translate table: count -> 1 when odd


def seven_pairs_need(counts: bytes, quads: bool = True) -> int:
    """Wild tiles needed for seven pairs; INF when impossible.

    With `quads`, four of a kind is two pairs (most rulesets); without, every
    pair must be a different kind.
    """
    if not quads and max(counts) > 2:
        return INF
    return counts.translate(_ODD).count(1)


def is_seven_pairs(counts: bytes, wilds: int = 0, quads: bool = True) -> bool:
    if sum(counts) + wilds != 14:
        return False
    return seven_pairs_need(counts, quads) <= wilds


def seven_pairs_decompositions(
    counts: bytes,
    wilds: int = 0,
    quads: bool = True,
    caps: Sequence[int] | None = None,
    limit: int | None = None,
) -> list[Decomposition]:
    """Every seven-pairs reading (the first `limit` of them when given)."""
    if not is_seven_pairs(counts, wilds, quads) or limit == 0:
        return []
    caps = caps or FULL_CAPS
    pairs: list[int] = []
    wild_fixed: list[int] = []
    for t, c in enumerate(counts):
        if c:
            pairs.extend([t] * ((c + 1) // 2))
            if c & 1:
                wild_fixed.append(t)
    free = (wilds - len(wild_fixed)) // 2
    if free == 0:
        return [
            Decomposition("seven_pairs", tuple(Group("pair", t) for t in pairs), tuple(wild_fixed))
        ]
    have = [0] * 34
    for t in pairs:
        have[t] += 2
    out = []
    for extra in combinations_with_replacement(range(34), free):
        ok = True
        tally = list(have)
        for t in extra:
            tally[t] += 2
            if tally[t] > caps[t] or (not quads and tally[t] > 2):
                ok = False
                break
        if ok:
            allp = sorted(pairs + list(extra))
            out.append(
                Decomposition(
                    "seven_pairs",
                    tuple(Group("pair", t) for t in allp),
                    tuple(sorted(wild_fixed + [t for t in extra for _ in (0, 1)])),
                )
            )
            if limit is not None and len(out) >= limit:
                break
    return out


def seven_pairs_waits(counts: bytes, wilds: int = 0, quads: bool = True) -> list[int]:
    """Kinds t for which counts + t is seven pairs (13 tiles in hand, no melds).

    Adding t flips one kind between odd and even, so the answer follows from
    the number of odd kinds alone; most hands are refused without a loop.
    """
    if sum(counts) + wilds != 13:
        return []
    singles = seven_pairs_need(counts, quads)
    odd_ok = singles - 1 <= wilds
    even_ok = singles + 1 <= wilds
    if not (odd_ok or even_ok):
        return []
    out = []
    for t in range(34):
        c = counts[t]
        if c & 1:
            if odd_ok and (quads or c == 1):
                out.append(t)
        elif even_ok and c < 4 and (quads or c == 0):
            out.append(t)
    return out


# ---------------------------------------------------------------------------
# thirteen orphans 十三幺


def is_thirteen_orphans(counts: Sequence[int], wilds: int = 0) -> bool:
    if sum(counts) + wilds != 14:
        return False
    pairs = 0
    for t in range(34):
        c = counts[t]
        if c:
            if t not in _ORPHAN_SET or c > 2:
                return False
            if c == 2:
                pairs += 1
    return pairs <= 1


_ORPHAN_SET = frozenset(ORPHANS)


def thirteen_orphans_decompositions(counts: Sequence[int], wilds: int = 0) -> list[Decomposition]:
    if not is_thirteen_orphans(counts, wilds):
        return []
    missing = [t for t in ORPHANS if counts[t] == 0]
    pair = [t for t in ORPHANS if counts[t] == 2]
    options = pair if pair else list(ORPHANS)
    out = []
    for p in options:
        wild_as = list(missing) + ([] if pair else [p])
        groups = tuple(Group("pair" if t == p else "single", t) for t in ORPHANS)
        out.append(Decomposition("thirteen_orphans", groups, tuple(sorted(wild_as))))
    return out


# ---------------------------------------------------------------------------
# knitted forms: 全不靠, 七星不靠, 组合龙

# The six ways to give 147 / 258 / 369 to the three suits.
KNIT_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            9 * suit + start + 3 * j
            for suit, start in zip(perm, (0, 1, 2), strict=True)
            for j in range(3)
        )
    )
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


def _knit_groups(pattern: tuple[int, ...]) -> tuple[Group, ...]:
    return tuple(Group("knit", t) for t in pattern if t % 9 < 3)


def knitted_decompositions(
    counts: Sequence[int], wilds: int = 0, seven_honors: bool = False
) -> list[Decomposition]:
    """全不靠 (14 different tiles out of one knitted pattern's 9 and the 7 honors)
    or, with `seven_honors`, 七星不靠 (all 7 honors among them)."""
    if sum(counts) + wilds != 14 or any(c > 1 for c in counts):
        return []
    form = "seven_honors_knitted" if seven_honors else "honors_knitted"
    out = []
    present = {t for t in range(34) if counts[t]}
    for pat in KNIT_PATTERNS:
        allowed = set(pat) | set(HONORS)
        if not present <= allowed:
            continue
        free = [t for t in sorted(allowed) if t not in present]
        must = [t for t in HONORS if t not in present] if seven_honors else []
        if len(must) > wilds:
            continue
        rest = [t for t in free if t not in must]
        for extra in combinations(rest, wilds - len(must)):
            tiles = sorted(present | set(must) | set(extra))
            out.append(
                Decomposition(
                    form,
                    tuple(Group("single", t) for t in tiles),
                    tuple(sorted(must + list(extra))),
                )
            )
    return out


def is_knitted(counts: Sequence[int], wilds: int = 0, seven_honors: bool = False) -> bool:
    if sum(counts) + wilds != 14 or any(c > 1 for c in counts):
        return False
    present = [t for t in range(34) if counts[t]]
    for pat in KNIT_PATTERNS:
        allowed = set(pat) | set(HONORS)
        if all(t in allowed for t in present):
            if not seven_honors:
                return True
            if sum(1 for t in HONORS if not counts[t]) <= wilds:
                return True
    return False


# ---------------------------------------------------------------------------
# 十三烂 (Jiangxi "thirteen rotten"): 14 different tiles, no two of a suit
# closer than three apart, honors any; 七星十三烂 has all seven honors.


def _lan_ok(mask: int) -> bool:
    ranks = [r for r in range(9) if mask >> r & 1]
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:], strict=False))


# For each set of ranks held in a suit (a 9-bit mask): the most ranks a 十三烂
# can hold in that suit keeping them, or -1 when they are already too close.
_LAN_OK = tuple(s for s in range(512) if _lan_ok(s))  # the 3-apart rank sets (a few dozen)
_LAN_ROOM = tuple(
    max((bin(s).count("1") for s in _LAN_OK if s & m == m), default=-1) for m in range(512)
)


def _suit_mask(counts: Sequence[int], lo: int) -> int:
    return sum(1 << r for r in range(9) if counts[lo + r])


def lan_room(counts: Sequence[int], seven_honors: bool) -> int:
    """How many wild tiles a 十三烂 of these natural tiles can take (-1: not one).

    Counts above one are no 十三烂; in each suit the wild tiles can fill the
    ranks the best 3-apart pattern through the held ranks leaves free, and
    every honor not held (七星: they must fill those first, which the caller's
    total of 14 tiles decides)."""
    if any(c > 1 for c in counts[:34]):
        return -1
    room = 0
    for lo in (0, 9, 18):
        m = _suit_mask(counts, lo)
        best = _LAN_ROOM[m]
        if best < 0:
            return -1
        room += best - bin(m).count("1")
    return room + sum(1 for t in HONORS if not counts[t])


def is_lan(counts: Sequence[int], wilds: int = 0, seven_honors: bool = False) -> bool:
    if sum(counts[:34]) + wilds != 14:
        return False
    room = lan_room(counts, seven_honors)
    if room < wilds:
        return False
    # 七星: the honors not held are filled by wild tiles before anything else.
    return not seven_honors or sum(1 for t in HONORS if not counts[t]) <= wilds


def lan_decompositions(
    counts: Sequence[int], wilds: int = 0, seven_honors: bool = False
) -> list[Decomposition]:
    """One reading of a 十三烂 (form "lan", or "seven_honors_lan"): the honors not
    held first, then the lowest free ranks that keep the pattern.

    What the wild tiles stand for in a 十三烂 changes nothing but whether they
    stand for themselves (德国), which a ruleset checks on the natural reading;
    listing every choice would run to millions, so one reading is listed.
    """
    if not is_lan(counts, wilds, seven_honors):
        return []
    form = "seven_honors_lan" if seven_honors else "lan"
    free_h = [t for t in HONORS if not counts[t]]
    chosen = free_h[:wilds]
    left = wilds - len(chosen)
    for lo in (0, 9, 18):
        if not left:
            break
        m = _suit_mask(counts, lo)
        target = _LAN_ROOM[m]
        # The lowest-ranked best pattern through the held ranks.
        best = min(
            (sm for sm in range(512) if sm & m == m and _lan_ok(sm)
             and bin(sm).count("1") == target),
            key=lambda sm: [r for r in range(9) if sm >> r & 1],
        )  # fmt: skip
        for r in range(9):
            if left and best >> r & 1 and not m >> r & 1:
                chosen.append(lo + r)
                left -= 1
    tiles = sorted([t for t in range(34) if counts[t]] + chosen)
    return [Decomposition(form, tuple(Group("single", t) for t in tiles), tuple(sorted(chosen)))]


def sets_need(counts: bytes, caps: Sequence[int] | None = None) -> int:
    """Least wild tiles that complete `counts` into sets only (no pair): 精调
    asks it of a hand without its 精, which then waits on any tile."""
    cks = _cap_keys(caps)
    return sum(suit_need(k, ck)[0] for k, ck in zip(_keys(counts), cks, strict=True))


def knitted_straight_decompositions(
    counts: Sequence[int], wilds: int = 0, caps: Sequence[int] | None = None
) -> list[Decomposition]:
    """组合龙: the nine tiles of one knitted pattern plus sets and the pair from the rest.

    With declared melds the rest is smaller (some rulesets allow one exposed set);
    tile counts decide how many sets remain.
    """
    caps = caps or FULL_CAPS
    out: list[Decomposition] = []
    for pat in KNIT_PATTERNS:
        rest = list(counts)
        wild_used: list[int] = []
        for t in pat:
            if rest[t]:
                rest[t] -= 1
            else:
                wild_used.append(t)
        left = wilds - len(wild_used)
        if left < 0:
            continue
        sub_caps = list(caps)
        for t in pat:
            sub_caps[t] -= 1
        if min(sub_caps) < 0:
            continue
        for d in standard_decompositions(bytes(rest), left, sub_caps):
            out.append(
                Decomposition(
                    "knitted_straight",
                    _knit_groups(pat) + d.groups,
                    tuple(sorted(wild_used + list(d.wild_as))),
                )
            )
    return out


def is_knitted_straight(
    counts: Sequence[int], wilds: int = 0, caps: Sequence[int] | None = None
) -> bool:
    caps = caps or FULL_CAPS
    for pat in KNIT_PATTERNS:
        rest = list(counts)
        missing = 0
        for t in pat:
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
        if missing > wilds:
            continue
        sub_caps = list(caps)
        for t in pat:
            sub_caps[t] -= 1
        if min(sub_caps) < 0:
            continue
        if is_standard_win(bytes(rest), wilds - missing, sub_caps):
            return True
    return False


# ---------------------------------------------------------------------------
# waits


# (pattern, caps) -> suit_adds' answer, kept as met (read first on hot paths)
SUIT_ADDS: dict[tuple[bytes, bytes | None], tuple[tuple[int, int], ...]] = {}
ADD_CACHE_MAX = 50_000


def suit_adds(key: bytes, caps: bytes | None) -> tuple[tuple[int, int], ...]:
    """For each kind j of the suit: the suit's needs after one more tile j."""
    ck = (key, caps)
    r = SUIT_ADDS.get(ck)
    if r is None and caps is None and max(key) <= 4:
        # straight from the shipped table: one more tile j is 5**j further on
        t = NEED_TABLES[len(key)]
        i = _index(key)
        codes, values = t.codes, t.values
        r = tuple(
            (INF, 0) if c >= 4 else values[codes[i + step]]
            for c, step in zip(key, t.step, strict=True)
        )
        if len(SUIT_ADDS) < ADD_CACHE_MAX:
            SUIT_ADDS[ck] = r
    if r is None:
        rows = []
        for j in range(len(key)):
            if key[j] >= (caps[j] if caps is not None else 4):
                rows.append((INF, 0))
            else:
                k2 = bytearray(key)
                k2[j] += 1
                rows.append(suit_need(bytes(k2), caps))
        r = tuple(rows)
        if len(SUIT_ADDS) < ADD_CACHE_MAX:
            SUIT_ADDS[ck] = r
    return r


_MAX_T = 14
_MIN_T = -8  # pair differences are negative, so budgets can be too
# (suit, pattern, caps, best pair elsewhere) -> for each budget T in _MIN_T.._MAX_T
# the kinds whose addition completes the suit within T wild tiles.
_WAIT_ROWS: dict[tuple[int, bytes, bytes | None, int], tuple[tuple[int, ...], ...]] = {}
WAIT_ROWS_CACHE_MAX = 50_000
_WAIT_SEEN: set[tuple[int, bytes, bytes | None, int]] = set()


def _wait_rows(x: int, key: bytes, caps: bytes | None, other: int) -> tuple[tuple[int, ...], ...]:
    ck = (x, key, caps, other)
    r = _WAIT_ROWS.get(ck)
    if r is None:
        off = _SUITS[x][0]
        vals = [(a0 + min(a1, other), off + j) for j, (a0, a1) in enumerate(suit_adds(key, caps))]
        # a row changes only at the few distinct values: build each once
        steps = sorted({v for v, _ in vals if v <= _MAX_T})
        rows: list[tuple[int, ...]] = []
        cur: tuple[int, ...] = ()
        i = 0
        for budget in range(_MIN_T, _MAX_T + 1):
            if i < len(steps) and steps[i] <= budget:
                while i < len(steps) and steps[i] <= budget:
                    i += 1
                cur = tuple(t for v, t in vals if v <= budget)
            rows.append(cur)
        r = tuple(rows)
        if len(_WAIT_ROWS) < WAIT_ROWS_CACHE_MAX:
            _WAIT_ROWS[ck] = r
    return r


def suit_wait_tiles(x: int, key: bytes, other: int, spare: int) -> tuple[int, ...] | None:
    """The kinds of suit x (pattern `key`, no caps) that one more tile of completes
    the hand, from the pattern's shipped one-more-tile row (rules/adds.py): `other`
    the best pair difference of the other suits, `spare` the wild tiles less the
    hand's needs without the pair.  None when the pattern has no row (a count
    above four, four of an honor) or the values fall outside what a row key
    holds: the caller works it out from the tables."""
    t = NEED_TABLES[len(key)]
    lo = t.low.get(key[: t.split])
    hi = t.high.get(key[t.split :])
    if lo is None or hi is None:
        return None
    k = adds.row_key(adds.ROW_ID[x][lo + hi], x == 3, other, spare)
    if k is None:
        return None
    m = adds.ROWS.get(k)
    return adds.MASK_TILES[x][adds.row_mask(k) if m is None else m]


def standard_waits(counts: bytes, wilds: int = 0, caps: Sequence[int] | None = None) -> list[int]:
    """Kinds t for which counts + t is sets + pair with `wilds` wild tiles, in tile order.

    Only the natural tile kinds: the caller decides about wild kinds and
    about kinds the hand already holds four of.  Once the tile count fits,
    every completion needs a number of wild tiles congruent to `wilds`
    mod 3, so a kind is a wait exactly when its least need is <= wilds.
    """
    if (sum(counts) + wilds) % 3 != 1:
        return []
    ks = _keys(counts)
    if caps is None:
        cks: tuple[bytes | None, ...] = (None, None, None, None)
        get = SUIT_NEEDS.get
        needs = [get(k) or suit_need(k) for k in ks]
    else:
        cks = _cap_keys(caps)
        needs = [suit_need(k, ck) for k, ck in zip(ks, cks, strict=True)]
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    d0, d1, d2, d3 = needs[0][1], needs[1][1], needs[2][1], needs[3][1]
    # One more tile lowers the least need by one at most.
    if s0 + min(d0, d1, d2, d3) - 1 > wilds:
        return []
    others = (min(d1, d2, d3), min(d0, d2, d3), min(d0, d1, d3), min(d0, d1, d2))
    out: list[int] = []
    rows_get = _WAIT_ROWS.get
    spare = wilds - s0
    for x in range(4):
        budget = spare + needs[x][0]
        if budget < _MIN_T:
            continue
        k = ks[x]
        ck = (x, k, cks[x], others[x])
        rows = rows_get(ck)
        if rows is None:
            if ck not in _WAIT_SEEN:
                # First sight: this budget's kinds from the pattern's shipped
                # one-more-tile row (rules/adds.py), or from the table look-ups;
                # the rows for every budget are built on the second.
                if len(_WAIT_SEEN) >= WAIT_ROWS_CACHE_MAX:
                    _WAIT_SEEN.clear()
                _WAIT_SEEN.add(ck)
                other = others[x]
                shipped = suit_wait_tiles(x, k, other, spare) if caps is None else None
                if shipped is not None:
                    out += shipped
                    continue
                j = _SUITS[x][0]
                for a0, a1 in SUIT_ADDS.get((k, cks[x])) or suit_adds(k, cks[x]):
                    if a0 + (a1 if a1 < other else other) <= budget:
                        out.append(j)
                    j += 1
                continue
            rows = _wait_rows(*ck)
        out += rows[(budget if budget <= _MAX_T else _MAX_T) - _MIN_T]
    return out


# ---------------------------------------------------------------------------
# counting and listing without building every decomposition
#
# A hand with many wild tiles has millions of decompositions (13 wild tiles:
# over four million), so building them all is never done for an answer that
# only needs their number, the first few, or the first of some kind.  The
# number is a sum over (pair suit, wild tiles per suit) of a product of
# per-suit counts; the listing walks the same order as
# standard_decompositions and stops when it has enough.

_CountVec = list[int]
_COUNT: dict[tuple[bytes, bytes, bool, int, bool], tuple[int, ...]] = {}
COUNT_CACHE_MAX = 50_000  # per-suit count vectors kept (each at most 15 ints)


def _count_dp(
    c: bytes, caps: bytes, pair: bool, budget: int, chows: bool
) -> dict[tuple[int, int, int, bool], _CountVec]:
    """The counting twin of _solve_enum: for each state, the number of ways to
    finish the suit using exactly k wild tiles (k = 0..budget).  Returned as
    the memo so that a listing can prune dead branches with it."""
    n = len(c)
    honor = n == 7 or not chows
    memo: dict[tuple[int, int, int, bool], _CountVec] = {}
    done = [1] + [0] * budget
    none = [0] * (budget + 1)

    def go(i: int, a: int, b: int, need_pair: bool) -> _CountVec:
        if i == n:
            return none if need_pair else done
        key = (i, a, b, need_pair)
        hit = memo.get(key)
        if hit is not None:
            return hit
        out = [0] * (budget + 1)
        ci = c[i]
        cap = caps[i]
        max_s = 0 if honor or i > n - 3 else 4
        for u in (0, 1):
            for q in (0, 1) if need_pair else (0,):
                base = a + b + 3 * u + 2 * q
                for s in range(max_s + 1):
                    needed = base + s
                    if needed > cap:
                        break
                    fill = needed - ci
                    if fill < 0:
                        continue
                    if fill > budget:
                        break
                    sub = go(i + 1, s, a, need_pair and not q)
                    for x in range(budget + 1 - fill):
                        v = sub[x]
                        if v:
                            out[x + fill] += v
        memo[key] = out
        return out

    go(0, 0, 0, pair)
    return memo


def suit_counts(
    key: bytes, caps: bytes, pair: bool, budget: int, chows: bool = True
) -> tuple[int, ...]:
    """Number of cuts of one suit pattern using exactly k wild tiles, k = 0..budget
    (only cuts without chows when `chows` is off)."""
    ck = (key, caps, pair, budget, chows)
    r = _COUNT.get(ck)
    if r is None and budget <= SMALL_BUDGET:
        return tuple(len(p) for p in _small_parts(key, caps, 0, pair, budget, chows))
    if r is None:
        memo = _count_dp(key, caps, pair, budget, chows)
        r = tuple(memo[(0, 0, 0, pair)])
        if len(_COUNT) >= COUNT_CACHE_MAX:
            _COUNT.clear()
        _COUNT[ck] = r
    return r


def _suit_parts(
    c: bytes, caps: bytes, off: int, pair: bool, k: int, budget: int, chows: bool, limit: int
) -> list[_Part]:
    """The first `limit` cuts of one suit using exactly k wild tiles, in the order
    suit_decompositions lists them (a depth-first walk that skips dead branches)."""
    if budget <= SMALL_BUDGET:
        return _small_parts(c, caps, off, pair, budget, chows)[k][:limit]
    memo = _count_dp(c, caps, pair, budget, chows)
    n = len(c)
    honor = n == 7 or not chows
    out: list[_Part] = []

    def walk(i: int, a: int, b: int, need_pair: bool, left: int, groups: tuple[Group, ...],
             wild: tuple[int, ...]) -> bool:  # fmt: skip
        """Appends the cuts below this state; False once `limit` is reached."""
        if i == n:
            out.append((groups, wild))
            return len(out) < limit
        ci = c[i]
        cap = caps[i]
        t = off + i
        max_s = 0 if honor or i > n - 3 else 4
        for u in (0, 1):
            for q in (0, 1) if need_pair else (0,):
                base = a + b + 3 * u + 2 * q
                for s in range(max_s + 1):
                    needed = base + s
                    if needed > cap:
                        break
                    fill = needed - ci
                    if fill < 0:
                        continue
                    if fill > left:
                        break
                    np = need_pair and not q
                    rest = left - fill
                    if i + 1 < n:
                        if not memo[(i + 1, s, a, np)][rest]:
                            continue
                    elif rest or np:
                        continue
                    here = (
                        ((Group("pung", t),) if u else ())
                        + ((Group("pair", t),) if q else ())
                        + (Group("chow", t),) * s
                    )
                    if not walk(i + 1, s, a, np, rest, groups + here, wild + (t,) * fill):
                        return False
        return True

    if memo[(0, 0, 0, pair)][k] and limit > 0:
        walk(0, 0, 0, pair, k, (), ())
    return out


def _standard_plan(
    counts: bytes, wilds: int, caps: Sequence[int] | None, chows: bool
) -> list[tuple[int, tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """(pair suit, wild tiles per suit, cuts per suit) of every non-empty block
    of standard decompositions, in the order standard_decompositions lists them."""
    if (sum(counts) + wilds) % 3 != 2:
        return []
    ks = _keys(counts)
    cap_b = tuple(
        bytes(caps[lo:hi]) if caps is not None else _FULL_CAP_BYTES[hi - lo] for lo, hi in _SUITS
    )
    cks = tuple(None if caps is None else cb for cb in cap_b)
    needs = [suit_need(k, ck) for k, ck in zip(ks, cks, strict=True)]
    s0 = sum(n[0] for n in needs)
    plan = []
    for ps in range(4):
        if s0 + needs[ps][1] > wilds:
            continue
        v0, v1, v2, v3 = (suit_counts(ks[x], cap_b[x], ps == x, wilds, chows) for x in range(4))
        for k0 in range(wilds + 1):
            if not v0[k0]:
                continue
            for k1 in range(wilds + 1 - k0):
                if not v1[k1]:
                    continue
                for k2 in range(wilds + 1 - k0 - k1):
                    k3 = wilds - k0 - k1 - k2
                    if v2[k2] and v3[k3]:
                        plan.append((ps, (k0, k1, k2, k3), (v0[k0], v1[k1], v2[k2], v3[k3])))
    return plan


def standard_count(
    counts: bytes, wilds: int = 0, caps: Sequence[int] | None = None, chows: bool = True
) -> int:
    """len(standard_decompositions(...)) without building them (only those
    without chows when `chows` is off)."""
    return sum(a * b * c * d for _, _, (a, b, c, d) in _standard_plan(counts, wilds, caps, chows))


def standard_decompositions_first(
    counts: bytes,
    wilds: int = 0,
    caps: Sequence[int] | None = None,
    limit: int = 50,
    chows: bool = True,
) -> list[Decomposition]:
    """The first `limit` of standard_decompositions(...), in its order, built alone
    (only those without chows when `chows` is off, still in that order)."""
    out: list[Decomposition] = []
    if limit <= 0:
        return out
    ks = _keys(counts)
    cap_b = tuple(
        bytes(caps[lo:hi]) if caps is not None else _FULL_CAP_BYTES[hi - lo] for lo, hi in _SUITS
    )
    for ps, kk, _ in _standard_plan(counts, wilds, caps, chows):
        left = limit - len(out)
        p = [
            _suit_parts(ks[x], cap_b[x], _SUITS[x][0], ps == x, kk[x], wilds, chows, left)
            for x in range(4)
        ]
        for (g0, w0), (g1, w1), (g2, w2), (g3, w3) in product(*p):
            out.append(Decomposition("standard", g0 + g1 + g2 + g3, w0 + w1 + w2 + w3))
            if len(out) >= limit:
                return out
    return out


def seven_pairs_count(counts: bytes, wilds: int = 0, quads: bool = True) -> int:
    """len(seven_pairs_decompositions(...)) without building them."""
    if not is_seven_pairs(counts, wilds, quads):
        return 0
    singles = sum(1 for c in counts if c & 1)
    free = (wilds - singles) // 2
    # ways to give `free` more pairs to the kinds, each within four of a kind
    # (one pair a kind without quads)
    ways = [1] + [0] * free
    for c in counts:
        have = c + (c & 1)
        room = (4 - have) // 2 if quads else (0 if have else 1)
        if room <= 0:
            continue
        new = [0] * (free + 1)
        for x, v in enumerate(ways):
            if v:
                for e in range(min(room, free - x) + 1):
                    new[x + e] += v
        ways = new
    return ways[free]
