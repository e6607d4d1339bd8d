"""Property tests: the rule engine against a plain brute-force reference.

The reference below is written from the rules alone (it does not import
rules.shapes): a natural hand (no wild tiles) is checked by the classic
recursion, and a hand with wild tiles by replacing its wild tiles with every
multiset of tile kinds (itertools.combinations_with_replacement), skipping
replacements that would make more than four of a kind (or more than the
per-kind caps left by declared melds), and checking each natural hand.

Hands come from a 136-tile wall (never more than four of a kind).  Random
hands almost never win, so most hands are built as a winning shape first;
then some of their tiles become wild tiles and sometimes one tile is changed.

Example counts scale with the number of wild tiles: the reference checks
34 natural hands for a hand with one wild tile and 66,045 for four.  About
4,300 hands in all take some 30 s on a 2-core machine.  The settings profile
"rules-brute" runs Hypothesis derandomized and without an example database,
so a CI run is reproducible; RULES_BRUTE_SCALE=10 in the environment runs
ten times as many hands.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import score, shapes, waits
from rules.tiles import parse_tiles, tile_str, tiles_str

# ---------------------------------------------------------------------------
# the reference (independent of rules.shapes)

N = 34
FOUR: tuple[int, ...] = (4,) * N
SUITED = range(27)
HONOR_KINDS = tuple(range(27, 34))
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, *HONOR_KINDS)

Counts = tuple[int, ...]
GroupT = tuple[str, int]  # ('chow' | 'pung' | 'pair' | 'single' | 'knit', tile)
Shape = tuple[GroupT, ...]  # a multiset of groups, as a sorted tuple
Check = Callable[[Counts], bool]
Decomposer = Callable[[Counts], frozenset[Shape]]


def chow_starts(t: int) -> bool:
    """Whether a chow can begin at t (t, t+1, t+2 in one suit, not honors)."""
    return t < 27 and t % 9 <= 6


def _sets_only(c: list[int], i: int) -> bool:
    """Whether c (from kind i on) is sets only: the lowest tile is in a pung or a chow."""
    while i < N and c[i] == 0:
        i += 1
    if i == N:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if chow_starts(i) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def plain_win(counts: Counts) -> bool:
    """Sets + one pair, no wild tiles: try the pair on each kind, then sets only.

    Not memoized: the hands a brute-force run checks are nearly all
    different, and an lru_cache made the runs twice as slow.
    """
    if sum(counts) % 3 != 2:
        return False
    c = list(counts)
    for p in range(N):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c, 0)
            c[p] += 2
            if ok:
                return True
    return False


def plain_seven_pairs(counts: Counts, quads: bool) -> bool:
    """14 tiles in pairs; four of a kind is two pairs only with `quads`."""
    return sum(counts) == 14 and all(c % 2 == 0 and (quads or c <= 2) for c in counts)


@lru_cache(maxsize=1 << 14)
def plain_decompositions(counts: Counts) -> frozenset[Shape]:
    """Every distinct cut of a natural hand into sets + one pair."""
    if not plain_win(counts):
        return frozenset()
    out: set[Shape] = set()
    c = list(counts)
    acc: list[GroupT] = []

    def go(i: int, pair_done: bool) -> None:
        while i < N and c[i] == 0:
            i += 1
        if i == N:
            if pair_done:
                out.add(tuple(sorted(acc)))
            return
        # the lowest tile is in the pair, a pung or a chow beginning here
        options: list[tuple[str, tuple[int, ...]]] = []
        if not pair_done and c[i] >= 2:
            options.append(("pair", (i, i)))
        if c[i] >= 3:
            options.append(("pung", (i, i, i)))
        if chow_starts(i) and c[i + 1] and c[i + 2]:
            options.append(("chow", (i, i + 1, i + 2)))
        for kind, tiles in options:
            for t in tiles:
                c[t] -= 1
            acc.append((kind, i))
            go(i, pair_done or kind == "pair")
            acc.pop()
            for t in tiles:
                c[t] += 1

    go(0, False)
    return frozenset(out)


def plain_seven_pairs_decompositions(counts: Counts, quads: bool) -> frozenset[Shape]:
    if not plain_seven_pairs(counts, quads):
        return frozenset()
    return frozenset({tuple(("pair", t) for t in range(N) for _ in range(counts[t] // 2))})


def plain_thirteen_orphans(counts: Counts) -> bool:
    """One of each terminal and honor, one of them twice."""
    if sum(counts) != 14 or any(counts[t] for t in range(N) if t not in ORPHAN_KINDS):
        return False
    return sorted(counts[t] for t in ORPHAN_KINDS) == [1] * 12 + [2]


def plain_thirteen_orphans_decompositions(counts: Counts) -> frozenset[Shape]:
    if not plain_thirteen_orphans(counts):
        return frozenset()
    return frozenset(
        {tuple(sorted(("pair" if counts[t] == 2 else "single", t) for t in ORPHAN_KINDS))}
    )


# 147 / 258 / 369 given to the three suits in each of the six ways
KNITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + start + 3 * j for start, suit in enumerate(perm) for j in range(3)))
    for perm in permutations(range(3))
)


def plain_knitted(counts: Counts, seven_honors: bool) -> bool:
    """全不靠: 14 different tiles out of one knitted pattern and the honors (七星不靠: all honors)."""
    if sum(counts) != 14 or max(counts) > 1:
        return False
    if seven_honors and not all(counts[t] for t in HONOR_KINDS):
        return False
    present = {t for t in range(N) if counts[t]}
    return any(present <= set(pat) | set(HONOR_KINDS) for pat in KNITS)


def plain_knitted_decompositions(counts: Counts, seven_honors: bool) -> frozenset[Shape]:
    if not plain_knitted(counts, seven_honors):
        return frozenset()
    return frozenset({tuple(("single", t) for t in range(N) if counts[t])})


def _without(counts: Counts, tiles: Sequence[int]) -> Counts | None:
    c = list(counts)
    for t in tiles:
        if not c[t]:
            return None
        c[t] -= 1
    return tuple(c)


def plain_knitted_straight(counts: Counts) -> bool:
    """组合龙: the nine tiles of one pattern, and sets + pair from the rest."""
    for pat in KNITS:
        rest = _without(counts, pat)
        if rest is not None and plain_win(rest):
            return True
    return False


def plain_knitted_straight_decompositions(counts: Counts) -> frozenset[Shape]:
    out: set[Shape] = set()
    for pat in KNITS:
        rest = _without(counts, pat)
        if rest is None:
            continue
        knit: Shape = tuple(("knit", t) for t in pat if t % 9 < 3)
        for d in plain_decompositions(rest):
            out.add(tuple(sorted(knit + d)))
    return frozenset(out)


def substitutions(
    counts: Counts, wilds: int, caps: Sequence[int] | None = None
) -> Iterator[tuple[tuple[int, ...], Counts]]:
    """(what the wild tiles stand for, sorted; the completed natural hand), every way.

    A kind never ends up with more than caps[kind] (4 by default) tiles.
    """
    limit = FOUR if caps is None else tuple(caps)
    if any(c > lim for c, lim in zip(counts, limit, strict=True)):
        return
    base = list(counts)
    for combo in combinations_with_replacement(range(N), wilds):
        full = base.copy()
        for t in combo:
            full[t] += 1
        if all(full[t] <= limit[t] for t in combo):
            yield combo, tuple(full)


def brute(counts: Counts, wilds: int, caps: Sequence[int] | None, check: Check) -> bool:
    """Whether some replacement of the wild tiles makes `check` true."""
    return any(check(full) for _, full in substitutions(counts, wilds, caps))


def brute_win(
    counts: Counts,
    wilds: int = 0,
    caps: Sequence[int] | None = None,
    seven_pairs: bool = False,
    quads: bool = True,
) -> bool:
    """Standard form, and seven pairs too when `seven_pairs`."""
    if (sum(counts) + wilds) % 3 != 2:
        return False
    if seven_pairs:
        return brute(counts, wilds, caps, lambda f: plain_win(f) or plain_seven_pairs(f, quads))
    return brute(counts, wilds, caps, plain_win)


def brute_decompositions(
    counts: Counts,
    wilds: int,
    caps: Sequence[int] | None = None,
    decompose: Decomposer = plain_decompositions,
) -> set[tuple[Shape, tuple[int, ...]]]:
    """Every (groups, wild_as) over every replacement of the wild tiles."""
    return {
        (shape, combo)
        for combo, full in substitutions(counts, wilds, caps)
        for shape in decompose(full)
    }


def brute_waits(
    counts: Counts,
    wilds: int,
    held: Sequence[int],
    wild_kinds: frozenset[int],
    caps: Sequence[int] | None,
    check: Check,
) -> list[int]:
    """The spec's waits of a hand one tile short, straight from the definition.

    A natural kind t is a wait when the hand plus t wins; a wild kind when
    the hand plus one more wild tile wins; never a kind held four times.
    """
    out = []
    for t in range(N):
        if held[t] >= 4:
            continue
        if t in wild_kinds:
            ok = brute(counts, wilds + 1, caps, check)
        else:
            plus = list(counts)
            plus[t] += 1
            ok = brute(tuple(plus), wilds, caps, check)
        if ok:
            out.append(t)
    return out


def fast_brute_waits(
    counts: Counts,
    wilds: int,
    held: Sequence[int],
    wild_kinds: frozenset[int],
    caps: Sequence[int] | None,
    check: Check,
) -> list[int]:
    """brute_waits in one pass, for hands with more wild tiles.

    The hand plus natural t wins with w wild tiles exactly when some
    replacement of w + 1 wild tiles containing t wins (the drawn t is the
    extra slot; the caps bind the same totals).  So one pass over the
    replacements of w + 1 wild tiles finds every natural wait, and whether
    a wild draw wins at all.
    """
    hits: set[int] = set()
    any_win = False
    for combo, full in substitutions(counts, wilds + 1, caps):
        if check(full):
            any_win = True
            hits.update(combo)
    return [t for t in range(N) if held[t] < 4 and (any_win if t in wild_kinds else t in hits)]


def engine_shapes(decs: Sequence[shapes.Decomposition]) -> list[tuple[Shape, tuple[int, ...]]]:
    """The engine's decompositions as (sorted groups, wild_as), duplicates kept."""
    return [(tuple(sorted((g.kind, g.tile) for g in d.groups)), tuple(d.wild_as)) for d in decs]


# ---------------------------------------------------------------------------
# hands


@dataclass(frozen=True)
class Deal:
    """A hand: concealed tiles (physical, wild tiles included), melds and wild kinds."""

    concealed: tuple[int, ...]
    melds: tuple[tuple[str, tuple[int, ...]], ...] = ()
    wild_kinds: frozenset[int] = frozenset()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # how hypothesis prints it
        p.text(repr(self))

    def __repr__(self) -> str:
        melds = " ".join(f"{kind}:{tiles_str(tiles)}" for kind, tiles in self.melds)
        wild = ",".join(tile_str(t) for t in sorted(self.wild_kinds))
        return f"Deal({tiles_str(self.concealed)!r} melds=[{melds}] wild=[{wild}])"

    @property
    def counts(self) -> Counts:
        c = [0] * N
        for t in self.concealed:
            if t not in self.wild_kinds:
                c[t] += 1
        return tuple(c)

    @property
    def wilds(self) -> int:
        return sum(1 for t in self.concealed if t in self.wild_kinds)

    @property
    def meld_counts(self) -> Counts:
        c = [0] * N
        for _, tiles in self.melds:
            for t in tiles:
                c[t] += 1
        return tuple(c)

    @property
    def caps(self) -> Counts | None:
        """4 minus the copies in melds; None without melds."""
        if not self.melds:
            return None
        return tuple(4 - m for m in self.meld_counts)

    @property
    def held(self) -> Counts:
        c = list(self.meld_counts)
        for t in self.concealed:
            c[t] += 1
        return tuple(c)

    def situation(self, seven_pairs: bool, win_index: int | None) -> dict[str, Any]:
        """The spec's situation dict; the tile at win_index is the win tile (None: waits)."""
        concealed = list(self.concealed)
        sit: dict[str, Any] = {
            "ruleset": "generic",
            "params": {"seven_pairs": seven_pairs},
            "melds": [
                {
                    "type": kind,
                    "tiles": [tile_str(t) for t in tiles],
                    "exposed": not (kind == "kong" and tiles[0] % 2 == 0),
                }
                for kind, tiles in self.melds
            ],
            "wild": [tile_str(t) for t in sorted(self.wild_kinds)],
        }
        if win_index is not None:
            sit["win_tile"] = tile_str(concealed.pop(win_index % len(concealed)))
        sit["concealed"] = [tile_str(t) for t in concealed]
        return sit


def _set_options(left: list[int]) -> list[tuple[str, int]]:
    opts = [("pung", t) for t in range(N) if left[t] >= 3]
    opts += [("chow", t) for t in SUITED if chow_starts(t) and min(left[t : t + 3]) >= 1]
    return opts


def _take(left: list[int], tiles: Sequence[int], into: list[int]) -> None:
    for t in tiles:
        left[t] -= 1
        into.append(t)


def _set_tiles(kind: str, t: int) -> tuple[int, ...]:
    return {"pung": (t, t, t), "kong": (t, t, t, t), "chow": (t, t + 1, t + 2)}[kind]


def _draw_sets(draw: st.DrawFn, left: list[int], n_sets: int, into: list[int]) -> None:
    for _ in range(n_sets):
        kind, t = draw(st.sampled_from(_set_options(left)))
        _take(left, _set_tiles(kind, t), into)


def _draw_pair(draw: st.DrawFn, left: list[int], into: list[int]) -> None:
    t = draw(st.sampled_from([t for t in range(N) if left[t] >= 2]))
    _take(left, (t, t), into)


def _draw_base(draw: st.DrawFn, shape: str, left: list[int], size: int) -> list[int]:
    """A winning hand of `size` tiles (3n + 2) of the given shape, from the wall."""
    tiles: list[int] = []
    if shape == "standard":
        _draw_sets(draw, left, (size - 2) // 3, tiles)
        _draw_pair(draw, left, tiles)
    elif shape == "seven_pairs":
        for _ in range(7):
            _draw_pair(draw, left, tiles)
    elif shape == "orphans":
        _take(left, ORPHAN_KINDS, tiles)
        _take(left, (draw(st.sampled_from(ORPHAN_KINDS)),), tiles)
    elif shape == "knitted":
        pat = draw(st.sampled_from(KNITS))
        pool = sorted(set(pat) | set(HONOR_KINDS))
        dropped = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
        _take(left, [t for t in pool if t not in dropped], tiles)
    elif shape == "knitted_straight":
        pats = [p for p in KNITS if all(left[t] for t in p)]
        _take(left, draw(st.sampled_from(pats)), tiles)
        _draw_sets(draw, left, (size - 11) // 3, tiles)
        _draw_pair(draw, left, tiles)
    else:
        raise AssertionError(shape)
    return tiles


def _draw_melds(
    draw: st.DrawFn, left: list[int], n: int, prefer: Sequence[set[int]]
) -> list[tuple[str, tuple[int, ...]]]:
    """n melds from the wall.

    Melds often hold kinds of `prefer` (kinds the wild tiles were made from,
    kinds in the hand), so that the caps they leave bind what wild tiles
    may stand for.
    """
    melds: list[tuple[str, tuple[int, ...]]] = []
    for _ in range(n):
        opts = _set_options(left) + [("kong", t) for t in range(N) if left[t] == 4]
        choices = [st.sampled_from(opts)]
        for kinds in prefer:
            close = [(k, t) for k, t in opts if kinds.intersection(_set_tiles(k, t))]
            if close:
                choices.insert(0, st.sampled_from(close))
        kind, t = draw(st.one_of(choices))
        tiles = _set_tiles(kind, t)
        _take(left, tiles, [])
        melds.append(("chi" if kind == "chow" else kind, tiles))
    return melds


NO_MELD_SHAPES = ("seven_pairs", "orphans", "knitted")


@st.composite
def deals(
    draw: st.DrawFn,
    n_wild: int,
    shapes_: Sequence[str] = ("standard", "standard", "standard", "random"),
    max_melds: int = 0,
    short: bool = False,
    second_wild_kind: bool = False,
) -> Deal:
    """A hand with n_wild wild tiles, 14 - 3*melds tiles (13 - 3*melds if `short`).

    With `second_wild_kind` a second wild kind may be set, and when n_wild <= 2
    it may add one more wild tile.

    Shapes other than "random" start from a winning hand of that shape, turn
    some of its tiles into wild tiles, sometimes change one tile, and for
    `short` hands drop one natural tile.
    """
    shape = draw(st.sampled_from(shapes_))
    left = [4] * N
    n_melds = 0 if shape in NO_MELD_SHAPES else draw(st.integers(0, max_melds))
    if shape == "knitted_straight":
        n_melds = min(n_melds, 1)
    size = 14 - 3 * n_melds
    turned_from: list[int] = []  # kinds of the tiles turned into wild tiles

    if shape == "random":
        w = draw(st.sampled_from([t for t in range(N) if left[t] >= n_wild]))
        left[w] -= n_wild
        pool = [t for t in range(N) if t != w for _ in range(left[t])]
        n_nat = size - n_wild - (1 if short else 0)
        picks = draw(
            st.lists(st.integers(0, len(pool) - 1), min_size=n_nat, max_size=n_nat, unique=True)
        )
        hand = [w] * n_wild + [pool[i] for i in picks]
        for i in picks:
            left[pool[i]] -= 1
    else:
        hand = _draw_base(draw, shape, left, size)
        # the wild kind: its tiles already in the hand become wild tiles, and
        # other tiles are turned into it until there are n_wild of them
        kinds = [t for t in range(N) if hand.count(t) <= n_wild <= hand.count(t) + left[t]]
        w = draw(st.sampled_from(kinds))
        others = [i for i, t in enumerate(hand) if t != w]
        turned = n_wild - hand.count(w)
        for i in draw(
            st.lists(st.sampled_from(others), min_size=turned, max_size=turned, unique=True)
        ):
            turned_from.append(hand[i])
            left[hand[i]] += 1
            left[w] -= 1
            hand[i] = w
        if draw(st.integers(0, 3)) == 3:  # change one natural tile (shrinks to no change)
            i = draw(st.sampled_from([i for i, t in enumerate(hand) if t != w]))
            new = draw(st.sampled_from([t for t in range(N) if t != w and left[t] > 0]))
            left[hand[i]] += 1
            left[new] -= 1
            hand[i] = new
        if short:
            i = draw(st.sampled_from([i for i, t in enumerate(hand) if t != w]))
            left[hand[i]] += 1
            hand.pop(i)
    melds = _draw_melds(draw, left, n_melds, [set(hand), set(turned_from)])
    wild_kinds = {w}
    if second_wild_kind:
        # a second wild kind that the concealed tiles do not hold (melds may),
        # or with few wild tiles, of which they hold one: one more wild tile
        most = 1 if n_wild <= 2 else 0
        extra_kinds = [t for t in range(N) if t != w and hand.count(t) <= most]
        extra = draw(st.none() | st.sampled_from(extra_kinds))
        if extra is not None:
            wild_kinds.add(extra)
    return Deal(tuple(sorted(hand)), tuple(melds), frozenset(wild_kinds))


# ---------------------------------------------------------------------------
# settings: examples per property, scaled by the number of wild tiles

SCALE = float(os.environ.get("RULES_BRUTE_SCALE", "1"))
settings.register_profile(
    "rules-brute",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = settings.get_profile("rules-brute")
# share of a property's base example count by number of wild tiles
WILD_SHARE = {0: 1.0, 1: 1.0, 2: 0.6, 3: 0.12, 4: 0.025}


def examples(base: int, n_wild: int) -> settings:
    return settings(PROFILE, max_examples=max(2, round(base * WILD_SHARE[n_wild] * SCALE)))


WILD_COUNTS = [0, 1, 2, 3, 4]

# ---------------------------------------------------------------------------
# a/b/c/d: shape functions against the reference


@pytest.mark.parametrize("n_wild", WILD_COUNTS)
def test_standard_win(n_wild: int) -> None:
    @examples(250, n_wild)
    @given(deal=deals(n_wild, max_melds=2))
    def check(deal: Deal) -> None:
        expected = brute_win(deal.counts, deal.wilds, deal.caps)
        event(f"win={expected}")
        assert shapes.is_standard_win(bytes(deal.counts), deal.wilds, deal.caps) == expected

    check()


@st.composite
def capped(draw: st.DrawFn, n_wild: int) -> tuple[Deal, Counts]:
    """A hand without melds and per-kind caps, tight on kinds at and next to its tiles.

    Caps left by melds rarely bind (a meld must hold the kinds the wild tiles
    want), so the shape functions also get caps straight from here.
    """
    deal = draw(deals(n_wild))
    counts = deal.counts
    near = sorted({k for t in deal.concealed for k in (t - 1, t, t + 1) if 0 <= k < N})
    caps = list(FOUR)
    for t in draw(st.lists(st.sampled_from(near), max_size=10, unique=True)):
        caps[t] = counts[t] + draw(st.integers(0, min(1, 4 - counts[t])))
    return deal, tuple(caps)


@pytest.mark.parametrize("n_wild", [1, 2, 3])
def test_standard_win_and_decompositions_capped(n_wild: int) -> None:
    @examples(200, n_wild)
    @given(hand=capped(n_wild))
    def check(hand: tuple[Deal, Counts]) -> None:
        deal, caps = hand
        counts, wilds = deal.counts, deal.wilds
        expected = brute_decompositions(counts, wilds, caps)
        event(f"win={bool(expected)}")
        assert shapes.is_standard_win(bytes(counts), wilds, caps) == bool(expected)
        got = engine_shapes(shapes.standard_decompositions(bytes(counts), wilds, caps))
        assert len(set(got)) == len(got), "duplicate decompositions"
        assert set(got) == expected

    check()


@pytest.mark.parametrize("n_wild", WILD_COUNTS)
def test_seven_pairs(n_wild: int) -> None:
    @examples(150, n_wild)
    @given(deal=deals(n_wild, shapes_=("seven_pairs", "seven_pairs", "random")))
    def check(deal: Deal) -> None:
        counts, wilds = deal.counts, deal.wilds
        # one pass over the replacements serves quads on and off
        expected: dict[bool, set[tuple[Shape, tuple[int, ...]]]] = {True: set(), False: set()}
        for combo, full in substitutions(counts, wilds):
            for quads in (True, False):
                for shape in plain_seven_pairs_decompositions(full, quads):
                    expected[quads].add((shape, combo))
        for quads in (True, False):
            event(f"quads={quads} win={bool(expected[quads])}")
            assert shapes.is_seven_pairs(bytes(counts), wilds, quads) == bool(expected[quads])
            decs = shapes.seven_pairs_decompositions(bytes(counts), wilds, quads)
            assert all(d.form == "seven_pairs" for d in decs)
            got = engine_shapes(decs)
            assert len(set(got)) == len(got), "duplicate decompositions"
            assert set(got) == expected[quads]

    check()


@pytest.mark.parametrize("n_wild", WILD_COUNTS)
def test_standard_decompositions(n_wild: int) -> None:
    @examples(200, n_wild)
    @given(deal=deals(n_wild, max_melds=2))
    def check(deal: Deal) -> None:
        decs = shapes.standard_decompositions(bytes(deal.counts), deal.wilds, deal.caps)
        assert all(d.form == "standard" for d in decs)
        got = engine_shapes(decs)
        expected = brute_decompositions(deal.counts, deal.wilds, deal.caps)
        event(f"decompositions={min(len(expected), 10)}{'+' if len(expected) > 10 else ''}")
        assert len(set(got)) == len(got), "duplicate decompositions"
        assert set(got) == expected

    check()


@pytest.mark.parametrize("n_wild", [0, 1, 2, 3])
def test_standard_need(n_wild: int) -> None:
    """standard_need is the least number of wild tiles (up to 3 here) that completes the hand."""

    @examples(60, n_wild)
    @given(deal=deals(n_wild, max_melds=2))
    def check(deal: Deal) -> None:
        need = shapes.standard_need(bytes(deal.counts))
        least = next((k for k in range(4) if brute_win(deal.counts, k)), None)
        event(f"need={least}")
        if least is None:
            assert need > 3
        else:
            assert need == least

    check()


# ---------------------------------------------------------------------------
# e: the public API, ruleset "generic"


def _check_win(no_melds: bool, seven_pairs: bool) -> Check:
    """The generic ruleset's shapes: sets + pair, and seven pairs when on and without melds."""
    if seven_pairs and no_melds:
        return lambda f: plain_win(f) or plain_seven_pairs(f, True)
    return plain_win


API_SHAPES = ("standard", "standard", "seven_pairs", "random")


@pytest.mark.parametrize("n_wild", WILD_COUNTS)
def test_api_score(n_wild: int) -> None:
    @examples(200, n_wild)
    @given(
        deal=deals(n_wild, shapes_=API_SHAPES, max_melds=2, second_wild_kind=True),
        seven_pairs=st.booleans(),
        win_index=st.integers(0, 13),
    )
    def check(deal: Deal, seven_pairs: bool, win_index: int) -> None:
        r = score(deal.situation(seven_pairs, win_index))
        assert r["ok"], r
        caps = tuple(4 - m for m in deal.meld_counts)
        chk = _check_win(not deal.melds, seven_pairs)
        expected = brute(deal.counts, deal.wilds, caps, chk)
        event(f"win={expected}")
        assert r["win"] is expected

    check()


# Waits with w wild tiles cost 34 brute checks of w wild tiles each (or one
# pass over w + 1 wild tiles): four wild tiles are left to the win checks.
WAIT_SHARE = {0: 1.0, 1: 1.0, 2: 0.3, 3: 0.035}


@pytest.mark.parametrize("n_wild", [0, 1, 2, 3])
def test_api_waits(n_wild: int) -> None:
    n = max(2, round(150 * WAIT_SHARE[n_wild] * SCALE))

    @settings(PROFILE, max_examples=n)
    @given(
        deal=deals(n_wild, shapes_=API_SHAPES, max_melds=2, short=True, second_wild_kind=True),
        seven_pairs=st.booleans(),
    )
    def check(deal: Deal, seven_pairs: bool) -> None:
        r = waits(deal.situation(seven_pairs, None))
        assert r["ok"], r
        caps = tuple(4 - m for m in deal.meld_counts)
        chk = _check_win(not deal.melds, seven_pairs)
        ref = brute_waits if n_wild == 0 else fast_brute_waits
        expected = ref(deal.counts, deal.wilds, deal.held, deal.wild_kinds, caps, chk)
        event(f"waits={min(len(expected), 5)}{'+' if len(expected) > 5 else ''}")
        assert r["waits"] == [tile_str(t) for t in expected]

    check()


def test_fast_brute_waits_is_brute_waits() -> None:
    """The one-pass reference agrees with the definition (a check of the test itself)."""

    @settings(PROFILE, max_examples=max(2, round(40 * SCALE)))
    @given(deal=deals(1, shapes_=API_SHAPES, max_melds=2, short=True, second_wild_kind=True))
    def check(deal: Deal) -> None:
        caps = tuple(4 - m for m in deal.meld_counts)
        args = (deal.counts, deal.wilds, deal.held, deal.wild_kinds, caps, plain_win)
        assert fast_brute_waits(*args) == brute_waits(*args)

    check()


# ---------------------------------------------------------------------------
# f: seed 004 regressions (its greedy wildcard method missed these)

REGRESSIONS = ["1122345m111222z", "112224457m111z", "3345556666999s"]


@pytest.mark.parametrize("text", REGRESSIONS)
def test_seed_004_regressions(text: str) -> None:
    tiles = parse_tiles(text)
    n_wild = 14 - len(tiles)
    wild = parse_tiles("9p")[0]
    assert wild not in tiles
    counts = tuple(tiles.count(t) for t in range(N))
    assert brute_win(counts, n_wild)
    assert shapes.is_standard_win(bytes(counts), n_wild)
    assert shapes.standard_decompositions(bytes(counts), n_wild)
    hand = [tile_str(t) for t in tiles] + ["9p"] * n_wild
    sit = {"ruleset": "generic", "params": {"seven_pairs": False}, "wild": ["9p"]}
    r = score({**sit, "concealed": hand[1:], "win_tile": hand[0]})
    assert r["ok"] and r["win"] is True, r
    r = score({**sit, "concealed": hand[:-1], "win_tile": hand[-1]})
    assert r["ok"] and r["win"] is True, r


# ---------------------------------------------------------------------------
# g: special forms against their own brute force, 0-2 wild tiles

SPECIAL_WILDS = [0, 1, 2]


@pytest.mark.parametrize("n_wild", SPECIAL_WILDS)
def test_thirteen_orphans(n_wild: int) -> None:
    @examples(100, n_wild)
    @given(deal=deals(n_wild, shapes_=("orphans", "orphans", "random")))
    def check(deal: Deal) -> None:
        counts, wilds = deal.counts, deal.wilds
        expected = brute(counts, wilds, None, plain_thirteen_orphans)
        event(f"win={expected}")
        assert shapes.is_thirteen_orphans(bytes(counts), wilds) == expected
        got = engine_shapes(shapes.thirteen_orphans_decompositions(bytes(counts), wilds))
        assert len(set(got)) == len(got)
        assert set(got) == brute_decompositions(
            counts, wilds, None, plain_thirteen_orphans_decompositions
        )

    check()


@pytest.mark.parametrize("n_wild", SPECIAL_WILDS)
@pytest.mark.parametrize("seven_honors", [False, True])
def test_knitted(n_wild: int, seven_honors: bool) -> None:
    @examples(100, n_wild)
    @given(deal=deals(n_wild, shapes_=("knitted", "knitted", "random")))
    def check(deal: Deal) -> None:
        counts, wilds = deal.counts, deal.wilds

        def plain(f: Counts) -> bool:
            return plain_knitted(f, seven_honors)

        expected = brute(counts, wilds, None, plain)
        event(f"win={expected}")
        assert shapes.is_knitted(bytes(counts), wilds, seven_honors) == expected
        decs = shapes.knitted_decompositions(bytes(counts), wilds, seven_honors)
        form = "seven_honors_knitted" if seven_honors else "honors_knitted"
        assert all(d.form == form for d in decs)
        got = engine_shapes(decs)
        assert len(set(got)) == len(got)
        assert set(got) == brute_decompositions(
            counts, wilds, None, lambda f: plain_knitted_decompositions(f, seven_honors)
        )

    check()


@pytest.mark.parametrize("n_wild", SPECIAL_WILDS)
def test_knitted_straight(n_wild: int) -> None:
    @examples(150, n_wild)
    @given(deal=deals(n_wild, shapes_=("knitted_straight",) * 3 + ("random",), max_melds=1))
    def check(deal: Deal) -> None:
        counts, wilds, caps = deal.counts, deal.wilds, deal.caps
        expected = brute(counts, wilds, caps, plain_knitted_straight)
        event(f"win={expected}")
        assert shapes.is_knitted_straight(bytes(counts), wilds, caps) == expected
        decs = shapes.knitted_straight_decompositions(bytes(counts), wilds, caps)
        assert all(d.form == "knitted_straight" for d in decs)
        got = engine_shapes(decs)
        assert len(set(got)) == len(got)
        assert set(got) == brute_decompositions(
            counts, wilds, caps, plain_knitted_straight_decompositions
        )

    check()
