"""The plain reader: a plain situation straight to the per-suit tables.

A tile tap on the picker asks the same two questions over and over: is this a
win, and what does it wait on.  For a ruleset whose answer is the shape alone
(`Ruleset.plain_reader_forms`), the careful path (parse_situation: every field
validated, a Hand of tuples and bytes built, then the table look-ups) costs
several times the look-ups themselves.  Here a *plain* situation -- no melds,
no flags, winds, table or flowers, the concealed tiles in the canonical
compact order ("123m456p789s11z") -- is read straight into one packed int per
suit: five bits a kind (kind i of the suit at bit 5*i), the win tile included,
the wild kinds taken out.  The shipped tables are then indexed from the
packed ints by two dict hits, which also refuse any count above four.

Anything else (another field, another spelling, a flower, a fifth copy, a
wrong count) returns None and the caller takes the careful path, so every
refusal is still the careful path's error, word for word; the answer of a
plain situation is the careful path's answer (tests/rules/test_plain_reader.py holds
the two to the same result on generated situations, good and broken).

It is a reader of the situation format beside rules/hand.py's: without it a
new hand's waits cost about 1.6 times as much and its win check about 2.3
times (`python -m benchmarks.mcr_ab --readers`).
"""

from __future__ import annotations

import re
import sys
from itertools import combinations, product
from typing import Any, NamedTuple

from rules import shapes
from rules.adds import MASK_TILES, ROW_ID, ROWS, row_mask
from rules.decompose import Forms
from rules.tiles import N_KINDS, TILE_OF_CODE, TILE_STRS

# The fields a plain situation may have; any other (melds, flags, winds,
# flowers, table, extras) sends it to the careful path.
_PLAIN = frozenset({"id", "ruleset", "params", "concealed", "win_tile", "wild"})
# The canonical compact order, one run of digits per suit ("123m456p789s11z",
# what rules.tiles.tiles_str writes); "1m1m2m..." and lists of codes are read
# too.  Anything else (spaces, Chinese names, "东") is the careful path's.
_CANON = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?").fullmatch
# A suit's kinds packed in one int, five bits a kind (kind i of the suit at
# bit 5*i): digit -> its bit, per suit.
_DIGIT_BIT = tuple(
    {str(d): 1 << 5 * (d - 1) for d in range(1, 10 if x < 3 else 8)}.__getitem__ for x in range(4)
)
# tile code -> (tile, suit, shift of its kind in the suit's packed int)
_POS = {code: (t, t // 9, 5 * (t % 9)) for code, t in TILE_OF_CODE.items() if t < N_KINDS}
# A code per tile ("1m1m2m...") is read two characters at a time, as the
# 16-bit ints of its ASCII bytes: pair -> the kind's bit in the whole hand
# packed in one int (kind t at bit 5*t).  A small dict: a hand's first sight
# touches little memory.
_PAIR_BIT = {
    int.from_bytes(code.encode(), sys.byteorder): 1 << 5 * t for code, (t, _, _) in _POS.items()
}
_PAIR_BIT_GET = _PAIR_BIT.__getitem__
_KIND_BIT_GET = {code: 1 << 5 * t for code, (t, _, _) in _POS.items()}.__getitem__
_M = (1 << 45) - 1  # one suit's nine kinds in the whole-hand int
_ODD_BITS = sum(1 << 5 * i for i in range(9))  # bit 0 of every kind of a suit
_HONOR_BITS = sum(1 << 5 * i for i in range(7))
_OVER_TWO = (13 * _ODD_BITS, 16 * _ODD_BITS)  # + 13 reaches 16 exactly when a count is 3+


class _Index(NamedTuple):
    """A suit's shipped table, indexed from packed counts (low kinds, high kinds)."""

    low: dict[int, int]  # packed counts of the low kinds -> their part of the index
    high: dict[int, int]  # packed counts of the high kinds, shifted down -> theirs
    mask: int
    shift: int
    codes: bytes
    values: tuple[tuple[int, int], ...]


def _index(n: int) -> _Index:
    t = shapes.NEED_TABLES[n]
    s = t.split

    def part(m: int, first: int) -> dict[int, int]:
        out = {}
        for digits in product(range(5), repeat=m):
            packed = sum(d << 5 * i for i, d in enumerate(digits))
            out[packed] = sum(d * 5 ** (first + i) for i, d in enumerate(digits))
        return out

    return _Index(part(s, 0), part(n - s, s), (1 << 5 * s) - 1, 5 * s, t.codes, t.values)


_SUIT = _index(9)
_HONOR = _index(7)


_L9, _H9 = _SUIT.low.__getitem__, _SUIT.high.__getitem__
_L7, _H7 = _HONOR.low.__getitem__, _HONOR.high.__getitem__
_C9, _V9, _C7, _V7 = _SUIT.codes, _SUIT.values, _HONOR.codes, _HONOR.values
_M9, _S9, _M7, _S7 = _SUIT.mask, _SUIT.shift, _HONOR.mask, _HONOR.shift


# (packed counts per suit, each suit's place in its shipped table, wild tiles,
# wild kind -> copies held)
Plain = tuple[list[int], tuple[int, int, int, int], int, dict[int, int]]


def read(sit: dict[str, Any], need_win_tile: bool) -> Plain | None:
    """A plain situation's tiles, or None for the careful path (see the module doc).

    The packed counts are the natural tiles, the win tile included and the
    wild kinds taken out.  A count above four has no place in the tables:
    the careful path refuses it."""
    if not _PLAIN.issuperset(sit):
        return None
    raw = sit.get("concealed")
    if raw.__class__ is str:
        if len(raw) == 26:  # a code per tile, "1m1m2m..." (never the grouped form's length)
            if not raw.isascii():
                return None
            try:
                h = sum(map(_PAIR_BIT_GET, memoryview(raw.encode()).cast("H")))
            except KeyError:
                return None
            ks = [h & _M, h >> 45 & _M, h >> 90 & _M, h >> 135]
        else:
            m = _CANON(raw)
            if m is None:
                return None
            g0, g1, g2, g3 = m.groups()
            ks = [
                sum(map(_DIGIT_BIT[0], g0)) if g0 else 0,
                sum(map(_DIGIT_BIT[1], g1)) if g1 else 0,
                sum(map(_DIGIT_BIT[2], g2)) if g2 else 0,
                sum(map(_DIGIT_BIT[3], g3)) if g3 else 0,
            ]
            n = len(raw) - (g0 is not None) - (g1 is not None) - (g2 is not None)
            if n - (g3 is not None) != 13:
                return None
    elif raw.__class__ is list and len(raw) == 13:
        try:
            h = sum(map(_KIND_BIT_GET, raw))
        except (KeyError, TypeError):
            return None
        ks = [h & _M, h >> 45 & _M, h >> 90 & _M, h >> 135]
    else:
        return None
    if need_win_tile:
        w = sit.get("win_tile")
        pos = _POS.get(w) if w.__class__ is str else None
        if pos is None:
            return None
        ks[pos[1]] += 1 << pos[2]
    wild_raw = sit.get("wild")
    wilds = 0
    wild_held: dict[int, int] = {}
    if wild_raw:
        if wild_raw.__class__ is not list:
            return None
        try:
            for code in wild_raw:
                t, x, shift = _POS[code]
                if t in wild_held:
                    continue
                c = ks[x] >> shift & 31
                if c > 4:
                    return None
                ks[x] -= c << shift
                wilds += c
                wild_held[t] = c
        except (KeyError, TypeError):  # not a tile code, or not even hashable
            return None
    k0, k1, k2, k3 = ks
    try:
        ix = (
            _L9(k0 & _M9) + _H9(k0 >> _S9),
            _L9(k1 & _M9) + _H9(k1 >> _S9),
            _L9(k2 & _M9) + _H9(k2 >> _S9),
            _L7(k3 & _M7) + _H7(k3 >> _S7),
        )
    except KeyError:  # a count above four
        return None
    return ks, ix, wilds, wild_held


def plain_forms(forms: Forms) -> bool:
    """Whether this reader's answers cover these forms: four sets and a pair, and
    seven pairs; the rest (orphans, knitted, lan, extra sets) take the careful path."""
    return forms == Forms(seven_pairs=forms.seven_pairs, seven_pairs_quads=forms.seven_pairs_quads)


def _seven_pairs_need(packed: list[int], quads: bool) -> int:
    """shapes.seven_pairs_need on packed counts: the kinds held an odd number of times."""
    odd = 0
    for k in packed:
        if not quads and (k + _OVER_TWO[0]) & _OVER_TWO[1]:
            return shapes.INF
        odd += (k & _ODD_BITS).bit_count()
    return odd


def is_win(sit: dict[str, Any], forms: Forms) -> bool | None:
    """score()'s `win` of a plain situation under plain forms, or None for the careful path."""
    p = read(sit, True)
    if p is None:
        return None
    ks, ix, wilds, _ = p
    a = _V9[_C9[ix[0]]]
    b = _V9[_C9[ix[1]]]
    c = _V9[_C9[ix[2]]]
    d = _V7[_C7[ix[3]]]
    m = a[0] + b[0] + c[0] + d[0] + min(a[1], b[1], c[1], d[1])
    if m <= wilds and (wilds - m) % 3 == 0:
        return True
    return forms.seven_pairs and _seven_pairs_need(ks, forms.seven_pairs_quads) <= wilds


# A suit's kinds as a 9-bit mask (kind j of the suit at bit j), the form the
# waits are gathered in: bit 0 of each kind's five bits -> that mask.
_SQUEEZE = {sum(1 << 5 * j for j in js): sum(1 << j for j in js) for r in range(10) for js in combinations(range(9), r)}  # fmt: skip
_SQUEEZE_GET = _SQUEEZE.__getitem__
# per suit: a mask -> its tiles' codes, in tile order
_MASK_CODES = tuple(
    tuple(tuple(map(TILE_STRS.__getitem__, ts)) for ts in per) for per in MASK_TILES
)


def _seven_pairs_waits(ks: list[int], wilds: int, quads: bool) -> list[int] | None:
    """shapes.seven_pairs_waits on packed counts (13 tiles), as a mask per suit
    (None for none), from bit operations.

    One more tile flips one kind between odd and even: an odd kind is a wait
    when one single fewer fits the wild tiles, an even one (below four) when
    one more does; without quads only a lone tile or an absent kind."""
    singles = _seven_pairs_need(ks, quads)
    odd_ok = singles - 1 <= wilds
    even_ok = singles + 1 <= wilds
    if not (odd_ok or even_ok):
        return None
    out = []
    for x, k in enumerate(ks):
        odd = k & _ODD_BITS
        four = k >> 2 & _ODD_BITS  # counts are at most 4 here: bit 2 is a four
        if quads:
            even = _ODD_BITS & ~odd & ~four
        else:  # counts are at most 2 here
            odd &= ~(k >> 1)
            even = _ODD_BITS & ~k & ~(k >> 1)
        if x == 3:
            even &= _HONOR_BITS
        out.append(_SQUEEZE_GET((odd if odd_ok else 0) | (even if even_ok else 0)))
    return out


_STEP = (tuple(5**j for j in range(9)),) * 3 + (tuple(5**j for j in range(7)),)


def _row_of_index(x: int, i: int, k: int, other: int, budget: int) -> int:
    """A pattern without a shipped row (rare): from its one-more-tile look-ups."""
    codes, values = (_C7, _V7) if x == 3 else (_C9, _V9)
    mask = 0
    for j, step in enumerate(_STEP[x]):
        if k >> 5 * j & 31 < 4:
            a0, a1 = values[codes[i + step]]
            if a0 + (a1 if a1 < other else other) <= budget:
                mask |= 1 << j
    return mask


def wait_masks(sit: dict[str, Any], forms: Forms) -> list[int] | None:
    """decompose.waits of a plain situation (13 tiles) under plain forms as a
    mask per suit, or None for the careful path."""
    p = read(sit, False)
    if p is None:
        return None
    ks, ix, wilds, wild_held = p
    needs = (_V9[_C9[ix[0]]], _V9[_C9[ix[1]]], _V9[_C9[ix[2]]], _V7[_C7[ix[3]]])
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    d0, d1, d2, d3 = needs[0][1], needs[1][1], needs[2][1], needs[3][1]
    masks = [0, 0, 0, 0]
    # One more tile lowers the least need by one at most: a hand that needs
    # more than one over its wild tiles waits on nothing in the standard form.
    if s0 + min(d0, d1, d2, d3) - 1 <= wilds:
        others = (min(d1, d2, d3), min(d0, d2, d3), min(d0, d1, d3), min(d0, d1, d2))
        get = ROWS.get
        spare = wilds - s0
        for x in range(4):
            other = others[x]
            row_id = ROW_ID[x][ix[x]]
            if row_id and -8 <= other <= 7 and -16 <= spare <= 15:
                key = ((row_id << 1 | (x == 3)) << 4 | other + 8) << 5 | spare + 16
                row = get(key)
                masks[x] = row_mask(key) if row is None else row
            else:
                masks[x] = _row_of_index(x, ix[x], ks[x], other, spare + needs[x][0])
    if forms.seven_pairs:
        extra = _seven_pairs_waits(ks, wilds, forms.seven_pairs_quads)
        if extra is not None:
            masks = [a | b for a, b in zip(masks, extra, strict=True)]
    if wild_held:
        # A wild tile drawn completes the hand exactly when something does
        # (decompose.waits_counts); a wild kind is no natural wait.
        completes = any(masks)
        for w, c in wild_held.items():
            bit = 1 << w % 9
            x = w // 9
            masks[x] = masks[x] | bit if completes and c < 4 else masks[x] & ~bit
    return masks


def waits(sit: dict[str, Any], forms: Forms) -> list[int] | None:
    """decompose.waits of a plain situation (13 tiles) under plain forms, or None
    for the careful path: the same kinds, in tile order."""
    masks = wait_masks(sit, forms)
    if masks is None:
        return None
    t = MASK_TILES
    return [*t[0][masks[0]], *t[1][masks[1]], *t[2][masks[2]], *t[3][masks[3]]]


def wait_codes(sit: dict[str, Any], forms: Forms) -> list[str] | None:
    """waits() as tile codes ("1m"), the API's answer."""
    masks = wait_masks(sit, forms)
    if masks is None:
        return None
    c = _MASK_CODES
    return [*c[0][masks[0]], *c[1][masks[1]], *c[2][masks[2]], *c[3][masks[3]]]
