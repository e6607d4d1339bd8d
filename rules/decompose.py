"""The one decomposition layer every ruleset reads.

Rulesets say which winning forms they accept with a `Forms` flags object;
this module answers "is it a win", "every way it is one" and "what does it
wait for" for a Hand, with wild tiles resolved into ordinary tiles, and
caches the answers per (tiles, forms) so that a fan table scoring one hand
many ways, or a preview re-scored after every tap, cuts the hand once.
"""

from __future__ import annotations

from bisect import insort
from contextlib import suppress
from dataclasses import dataclass

from rules import shapes
from rules.errors import RuleError
from rules.hand import Hand
from rules.shapes import Decomposition


@dataclass(frozen=True, slots=True)
class Forms:
    """Which winning forms a ruleset accepts.  Four sets and a pair always."""

    seven_pairs: bool = True
    seven_pairs_quads: bool = True  # four of a kind may be two of the seven pairs
    thirteen_orphans: bool = False
    honors_knitted: bool = False  # 全不靠
    seven_honors_knitted: bool = False  # 七星不靠
    knitted_straight: bool = False  # 组合龙 + a set + the pair
    lan: bool = False  # 十三烂 (14 different tiles, 3 apart in a suit)
    seven_honors_lan: bool = False  # 七星十三烂
    # Sets of three different tiles that count as a set, concealed only (中发白,
    # 1条+东+南 "孔雀东南飞"): each a sorted triple of kinds.
    extra_sets: tuple[tuple[int, int, int], ...] = ()


def _without_extra_sets(
    counts: bytes, sets: tuple[tuple[int, int, int], ...]
) -> list[tuple[bytes, tuple[int, ...]]]:
    """Every way to take some of the extra sets out of the counts: the counts
    left, and the first tile of each set taken.  Exact: a standard shape is then
    looked for in each remainder, so no cut is missed."""
    out: list[tuple[bytes, tuple[int, ...]]] = [(counts, ())]
    for triple in sets:
        grown = []
        for rest, taken in out:
            buf = bytearray(rest)
            n = 0
            while all(buf[t] for t in triple):
                for t in triple:
                    buf[t] -= 1
                n += 1
                grown.append((bytes(buf), taken + (triple[0],) * n))
        out += grown
    return out


def is_win_counts(
    counts: bytes, wilds: int, n_melds: int, forms: Forms, caps: tuple[int, ...] | None = None
) -> bool:
    if shapes.is_standard_win(counts, wilds, caps):
        return True
    if forms.extra_sets and any(
        shapes.is_standard_win(rest, wilds, caps)
        for rest, taken in _without_extra_sets(counts, forms.extra_sets)
        if taken
    ):
        return True
    if n_melds == 0:
        if forms.seven_pairs and shapes.is_seven_pairs(counts, wilds, forms.seven_pairs_quads):
            return True
        if forms.thirteen_orphans and shapes.is_thirteen_orphans(counts, wilds):
            return True
        if forms.honors_knitted and shapes.is_knitted(counts, wilds, False):
            return True
        if forms.seven_honors_knitted and shapes.is_knitted(counts, wilds, True):
            return True
        if forms.lan and shapes.is_lan(counts, wilds, False):
            return True
        if forms.seven_honors_lan and shapes.is_lan(counts, wilds, True):
            return True
    return (
        forms.knitted_straight and n_melds <= 1 and shapes.is_knitted_straight(counts, wilds, caps)
    )


DECOMPOSITION_CACHE_SIZE = 4096  # hands whose decompositions are kept
CACHE_MAX_DECOMPOSITIONS = 64  # a bigger result is handed out, never kept
# Building more than this many decompositions is refused (too_many_wilds): no
# ruleset that reads them all lets that many wild tiles in (generic and house
# count and list them instead, jian looks for the best reading alone).
BUILD_MAX_DECOMPOSITIONS = 20_000
_DEC: dict[tuple[bytes, int, int, Forms, tuple[int, ...] | None], tuple[Decomposition, ...]] = {}


def _build(
    counts: bytes, wilds: int, n_melds: int, forms: Forms, caps: tuple[int, ...] | None
) -> tuple[Decomposition, ...]:
    out: list[Decomposition] = list(shapes.standard_decompositions(counts, wilds, caps))
    for rest, taken in _without_extra_sets(counts, forms.extra_sets)[1:]:
        extra = tuple(shapes.Group("set3", t) for t in taken)
        out += [
            d._replace(groups=tuple(sorted(d.groups + extra)))
            for d in shapes.standard_decompositions(rest, wilds, caps)
        ]
    if n_melds == 0:
        if forms.seven_pairs:
            out += shapes.seven_pairs_decompositions(counts, wilds, forms.seven_pairs_quads)
        out += _special(counts, wilds, forms)
    if forms.knitted_straight and n_melds <= 1:
        out += shapes.knitted_straight_decompositions(counts, wilds, caps)
    return tuple(out)


def _special(counts: bytes, wilds: int, forms: Forms) -> list[Decomposition]:
    """The fully concealed forms other than seven pairs (each a handful of readings)."""
    out: list[Decomposition] = []
    if forms.thirteen_orphans:
        out += shapes.thirteen_orphans_decompositions(counts, wilds)
    if forms.honors_knitted:
        out += shapes.knitted_decompositions(counts, wilds, False)
    if forms.seven_honors_knitted:
        out += shapes.knitted_decompositions(counts, wilds, True)
    if forms.lan:
        out += shapes.lan_decompositions(counts, wilds, False)
    if forms.seven_honors_lan:
        out += shapes.lan_decompositions(counts, wilds, True)
    return out


def decompositions_counts(
    counts: bytes, wilds: int, n_melds: int, forms: Forms, caps: tuple[int, ...] | None = None
) -> tuple[Decomposition, ...]:
    """Every decomposition, built; cached per (tiles, forms) unless the result is big.

    With more than four wild tiles the number is counted first and a hand with
    more than BUILD_MAX_DECOMPOSITIONS is refused rather than built."""
    key = (counts, wilds, n_melds, forms, caps)
    r = _DEC.get(key)
    if r is not None:
        return r
    if (
        wilds > 4
        and count_decompositions(counts, wilds, n_melds, forms, caps) > BUILD_MAX_DECOMPOSITIONS
    ):
        raise too_many_wilds(wilds)
    r = _build(counts, wilds, n_melds, forms, caps)
    _keep(key, r)
    return r


def _keep(
    key: tuple[bytes, int, int, Forms, tuple[int, ...] | None], r: tuple[Decomposition, ...]
) -> None:
    if len(r) <= CACHE_MAX_DECOMPOSITIONS:
        if len(_DEC) >= DECOMPOSITION_CACHE_SIZE:
            # The oldest entry.  Threads (runserver) may evict at once: losing
            # a race costs a cache entry, never an error.
            with suppress(KeyError, RuntimeError, StopIteration):
                del _DEC[next(iter(_DEC))]
        _DEC[key] = r


def listing(
    counts: bytes,
    wilds: int,
    n_melds: int,
    forms: Forms,
    caps: tuple[int, ...] | None = None,
    limit: int = 50,
) -> tuple[list[Decomposition], int]:
    """The first `limit` decompositions and their exact number, the win decided
    first by the table look-ups; no more than `limit` are ever built."""
    key = (counts, wilds, n_melds, forms, caps)
    hit = _DEC.get(key)
    if hit is not None:
        return list(hit[:limit]), len(hit)
    if not is_win_counts(counts, wilds, n_melds, forms, caps):
        _keep(key, ())
        return [], 0
    if wilds <= shapes.SMALL_BUDGET:  # a few hundred at most: every one built
        every = decompositions_counts(counts, wilds, n_melds, forms, caps)
        return list(every[:limit]), len(every)
    listed = first_decompositions(counts, wilds, n_melds, forms, caps, limit)
    if len(listed) < limit:
        _keep(key, tuple(listed))
        return listed, len(listed)
    return listed, count_decompositions(counts, wilds, n_melds, forms, caps)


def too_many_wilds(wilds: int) -> RuleError:
    """The refusal of a hand whose readings are too many to build (a safety net:
    the rulesets that build them all cap the wild tiles first)."""
    return RuleError(
        "too_many_wilds",
        f"{wilds} wild tiles make too many readings of this hand for this ruleset",
        f"{wilds} 张癞子让这手牌的组合太多，这个规则算不了",
    )


def count_decompositions(
    counts: bytes, wilds: int, n_melds: int, forms: Forms, caps: tuple[int, ...] | None = None
) -> int:
    """len(decompositions_counts(...)) without building them: a per-suit product."""
    n = shapes.standard_count(counts, wilds, caps)
    for rest, _ in _without_extra_sets(counts, forms.extra_sets)[1:]:
        n += shapes.standard_count(rest, wilds, caps)
    if n_melds == 0:
        if forms.seven_pairs:
            n += shapes.seven_pairs_count(counts, wilds, forms.seven_pairs_quads)
        n += len(_special(counts, wilds, forms))
    if forms.knitted_straight and n_melds <= 1:
        n += len(shapes.knitted_straight_decompositions(counts, wilds, caps))
    return n


def first_decompositions(
    counts: bytes,
    wilds: int,
    n_melds: int,
    forms: Forms,
    caps: tuple[int, ...] | None = None,
    limit: int = 50,
) -> list[Decomposition]:
    """decompositions_counts(...)[:limit], building only those."""
    hit = _DEC.get((counts, wilds, n_melds, forms, caps))
    if hit is not None:
        return list(hit[:limit])
    out = shapes.standard_decompositions_first(counts, wilds, caps, limit)
    for rest, taken in _without_extra_sets(counts, forms.extra_sets)[1:]:
        extra = tuple(shapes.Group("set3", t) for t in taken)
        out += [
            d._replace(groups=tuple(sorted(d.groups + extra)))
            for d in shapes.standard_decompositions_first(rest, wilds, caps, limit - len(out))
        ]
    if n_melds == 0:
        if forms.seven_pairs and len(out) < limit:
            out += shapes.seven_pairs_decompositions(
                counts, wilds, forms.seven_pairs_quads, limit=limit - len(out)
            )
        out += _special(counts, wilds, forms)
    if forms.knitted_straight and n_melds <= 1:
        out += shapes.knitted_straight_decompositions(counts, wilds, caps)
    return out[:limit]


def decompositions(hand: Hand, forms: Forms) -> tuple[Decomposition, ...]:
    """Every way the hand's concealed tiles (win tile included) form a winning shape."""
    return decompositions_counts(hand.counts, hand.wilds, len(hand.melds), forms, hand.caps)


def waits_counts(
    counts: bytes,
    wilds: int,
    held: bytes,
    wild_kinds: frozenset[int],
    n_melds: int,
    forms: Forms,
    caps: tuple[int, ...] | None = None,
) -> list[int]:
    """Tile kinds that complete a hand one tile short, in tile order.

    A kind the hand already holds four of (concealed and melds) is no wait.
    A wild kind is a wait when one more wild tile completes the hand.
    """
    if (sum(counts) + wilds) % 3 != 1:
        return []
    out = shapes.standard_waits(counts, wilds, caps)
    extra: set[int] = set()
    if n_melds == 0 and forms.seven_pairs:
        extra.update(shapes.seven_pairs_waits(counts, wilds, forms.seven_pairs_quads))
    others = (
        bool(forms.extra_sets)
        or n_melds == 0
        and (
            forms.thirteen_orphans
            or forms.honors_knitted
            or forms.seven_honors_knitted
            or forms.lan
            or forms.seven_honors_lan
        )
    )
    if others or (forms.knitted_straight and n_melds <= 1):
        buf = bytearray(counts)
        for t in range(34):
            if counts[t] >= (caps[t] if caps else 4):
                continue
            buf[t] += 1
            if is_win_counts(bytes(buf), wilds, n_melds, forms, caps):
                extra.add(t)
            buf[t] -= 1
    if extra:
        out = sorted(extra.union(out))
    if n_melds:
        completes = bool(out)
        out = [t for t in out if held[t] < 4]
    else:
        completes = bool(out)  # without melds the tables already refuse a fifth copy
    if wild_kinds:
        # A wild tile drawn can stand for any kind a natural tile could (the caps
        # bind both alike), so it completes the hand exactly when something does.
        for w in wild_kinds:
            if w in out:
                out.remove(w)
        if completes:
            for w in wild_kinds:
                if held[w] < 4:
                    insort(out, w)
    return out


def waits(hand: Hand, forms: Forms) -> list[int]:
    """Waits of a hand built without a win tile (parse_situation(need_win_tile=False))."""
    caps = tuple(4 - m for m in hand.meld_counts) if hand.melds else None
    return waits_counts(hand.counts, hand.wilds, hand.held, hand.wild, len(hand.melds), forms, caps)
