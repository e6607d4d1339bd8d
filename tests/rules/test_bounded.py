"""Any single request is answered in bounded time and memory, or refused clearly.

13 wild tiles of four kinds make four million decompositions (41 s and hundreds
of MB, counted one by one), and one such hand must not stay in the decomposition
cache.  Here the worst shapes (8-14 wild tiles of several kinds) go through score(),
waits() and settle() of every ruleset that takes wild tiles; each answer must
be a result or a `too_many_wilds` refusal in both languages, and memory stays
bounded.  How long they take is measured by `python -m benchmarks.newhands --only
worst` (figures in docs/performance.md), never here: a timed test fails on a
loaded machine rather than on slow code.

The counting and the partial listing that make this possible are checked
against the full build they replace.
"""

from __future__ import annotations

import random
import tracemalloc
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import decompose, score, settle, shapes, waits
from rules.decompose import Forms
from rules.errors import ERROR_CODES
from rules.hand import parse_situation
from rules.rulesets.jian import hands as jian_hands
from rules.tiles import tile_str

WILD_RULESETS = ("generic", "house", "jian", "wuhan", "beijing")
# Generous: the target is 20 MB on the development machine.
MAX_PEAK_BYTES = 60_000_000

KIND_SETS = (
    ("1z", "2z", "3z", "4z"),
    ("1m", "5p", "9s", "7z"),
    ("4m", "5m", "6m", "5p"),
)
NATURALS = ("", "5p", "1m2m3m", "5p6p", "1m9p", "3s4s5s6s", "2m3m4m5m6m7m")


def worst_hands() -> list[tuple[tuple[str, ...], list[str]]]:
    """14 tiles: 4-14 wild tiles of one to four kinds, the rest natural."""
    out = []
    filler = ("9m", "8p", "7s", "6z", "2s", "4p")
    for kinds, n, nat in product(KIND_SETS, range(4, 15), NATURALS):
        wild = [k for k in kinds for _ in range(4)][:n]
        nat_tiles = [nat[i : i + 2] for i in range(0, len(nat), 2)]
        tiles = wild + [t for t in nat_tiles if t not in kinds][: 14 - n]
        tiles += [filler[i % len(filler)] for i in range(14 - len(tiles))]
        out.append((kinds, tiles))
    return out


WORST = worst_hands()


def _answered(r: dict[str, Any]) -> None:
    if not r["ok"]:
        err = r["error"]
        assert err["code"] in ("too_many_wilds", "wrong_tile_count"), r
        assert err["message"] and err["message_zh"] and err["message"] != err["message_zh"]


@pytest.mark.parametrize("ruleset", WILD_RULESETS)
def test_worst_shapes_are_answered(ruleset: str) -> None:
    for kinds, tiles in WORST:
        sit = {"ruleset": ruleset, "wild": list(kinds), "concealed": "".join(tiles[:13])}
        _answered(score({**sit, "win_tile": tiles[13]}))
        _answered(waits(sit))


@pytest.mark.parametrize("ruleset", WILD_RULESETS)
def test_the_most_readings_four_wild_tiles_make(ruleset: str) -> None:
    """Four wild tiles with 5555666677s: 871 readings, the most a random search
    found; rulesets that score every reading (北京, 武汉) still answer."""
    sit = {"ruleset": ruleset, "wild": ["1z"], "self_drawn": True,
           "concealed": "5s5s5s5s6s6s6s6s7s7s1z1z1z", "win_tile": "1z"}  # fmt: skip
    decompose._DEC.clear()
    r = score(sit)
    assert r["ok"], r
    if ruleset == "generic":
        assert r["decomposition_count"] == 871


def test_worst_shapes_memory_is_bounded() -> None:
    """The worst hands (WORST), and the same through each wild ruleset."""
    decompose._DEC.clear()
    tracemalloc.start()
    try:
        for kinds, tiles in WORST[:: max(1, len(WORST) // 40)]:
            for ruleset in WILD_RULESETS:
                sit = {"ruleset": ruleset, "wild": list(kinds), "concealed": "".join(tiles[:13])}
                _answered(score({**sit, "win_tile": tiles[13]}))
                _answered(waits(sit))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MAX_PEAK_BYTES, f"peak {peak / 1e6:.1f} MB"
    # nothing big stays in the decomposition cache
    assert all(len(v) <= decompose.CACHE_MAX_DECOMPOSITIONS for v in decompose._DEC.values())


def test_thirteen_wild_tiles_are_counted_exactly() -> None:
    """13 wild tiles of four kinds (4.15 M decompositions, 41 s to list one by one):
    counted, the first 50 listed (never built whole: that would take 41 s)."""
    sit = {"ruleset": "generic", "wild": ["1z", "2z", "3z", "4z"],
           "concealed": "1z1z1z1z2z2z2z2z3z3z3z3z4z", "win_tile": "5p"}  # fmt: skip
    r = score(sit)
    assert r["ok"] and r["win"] is True
    assert len(r["decompositions"]) == 50
    h = parse_situation(sit)
    expected = shapes.standard_count(h.counts, h.wilds) + shapes.seven_pairs_count(
        h.counts, h.wilds
    )
    assert r["decomposition_count"] == expected > 4_000_000


def test_refusal_names_the_limit_in_both_languages() -> None:
    assert "too_many_wilds" in ERROR_CODES
    sit = {"ruleset": "wuhan", "wild": ["1z", "2z"],
           "concealed": "1z1z1z1z2z123m456p78s", "win_tile": "9s"}  # fmt: skip
    r = score(sit)
    assert not r["ok"] and r["error"]["code"] == "too_many_wilds"
    assert "5 wild tiles" in r["error"]["message"] and "4" in r["error"]["message"]
    assert "5 张癞子" in r["error"]["message_zh"]
    assert waits({**sit, "win_tile": None})["error"]["code"] == "too_many_wilds"
    # four are read as usual
    four = score({**sit, "concealed": "1z1z1z1z123m456p789s", "win_tile": "9s"})
    assert four["ok"], four


@pytest.mark.parametrize(
    ("ruleset", "turned", "concealed"),
    [
        ("jian", "5m", "5m5m5m5m6m6m6m6m4m4m7m1z1z"),  # eight 精 of two kinds
        ("jian", "5m", "5m5m5m5m6m6m6m6m1p2p3p1z1z"),
        ("house", "4m", "5m5m5m5m1p2p3p4p5p6p7p8p1z"),
    ],
)
def test_settle_with_the_most_wild_tiles_is_bounded(
    ruleset: str, turned: str, concealed: str
) -> None:
    """A round whose winning hand holds every wild tile its table has: settled
    (or refused clearly) within the bound."""
    rnd = {
        "ruleset": ruleset,
        "params": {"wild": "turned_next"} if ruleset == "house" else {},
        "players": 4,
        "dealer": 0,
        "turned": turned,
        "events": [
            {"type": "win", "discarder": 2,
             "winners": [{"seat": 1, "hand": {"concealed": concealed, "win_tile": "1z"}}]},
        ],
    }  # fmt: skip
    _answered_round(settle(rnd))


def _answered_round(r: dict[str, Any]) -> None:
    if not r["ok"]:
        assert r["error"]["code"] in ("too_many_wilds", "not_a_win"), r


# ---------------------------------------------------------------------------
# counting and partial listing against the full build


def _counts(tiles: list[int]) -> bytes:
    c = bytearray(34)
    for t in tiles:
        c[t] += 1
    return bytes(c)


@st.composite
def wild_hands(draw: st.DrawFn, most: int = 5) -> tuple[bytes, int, tuple[int, ...] | None]:
    wilds = draw(st.integers(0, most))
    n = 14 - wilds - 3 * draw(st.integers(0, 1))
    pool = [t for t in range(34) for _ in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    counts = _counts([pool[i] for i in idx])
    caps = None
    if draw(st.booleans()):
        caps_l = [4] * 34
        for t in draw(st.lists(st.integers(0, 33), max_size=6, unique=True)):
            caps_l[t] = max(counts[t], draw(st.integers(1, 4)))
        caps = tuple(caps_l)
    return counts, wilds, caps


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(hand=wild_hands(), limit=st.sampled_from([1, 3, 50]))
def test_counts_and_first_decompositions_match_the_full_build(
    hand: tuple[bytes, int, tuple[int, ...] | None], limit: int
) -> None:
    counts, wilds, caps = hand
    full = shapes.standard_decompositions(counts, wilds, caps)
    assert shapes.standard_count(counts, wilds, caps) == len(full)
    assert shapes.standard_decompositions_first(counts, wilds, caps, limit) == full[:limit]
    pungs = [d for d in full if all(g.kind != "chow" for g in d.groups)]
    assert shapes.standard_count(counts, wilds, caps, chows=False) == len(pungs)
    assert shapes.standard_decompositions_first(counts, wilds, caps, limit, False) == pungs[:limit]
    for quads in (True, False):
        sp = shapes.seven_pairs_decompositions(counts, wilds, quads)
        assert shapes.seven_pairs_count(counts, wilds, quads) == len(sp)
        assert shapes.seven_pairs_decompositions(counts, wilds, quads, limit=limit) == sp[:limit]
    n_melds = 0 if caps is None else 1
    for forms in (Forms(), Forms(seven_pairs=False), jian_hands.FORMS):
        every = decompose._build(counts, wilds, n_melds, forms, caps)
        assert decompose.count_decompositions(counts, wilds, n_melds, forms, caps) == len(every)
        decompose._DEC.clear()
        listed, count = decompose.listing(counts, wilds, n_melds, forms, caps, limit)
        assert listed == list(every[:limit]) and count == len(every)


def _winning_tiles(rng: random.Random) -> list[int]:
    """Four sets and a pair, or seven pairs, at most four of a kind."""
    while True:
        if rng.random() < 0.3:
            tiles = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
        else:
            tiles = []
            for _ in range(4):
                t = rng.randrange(34)
                if t < 27 and t % 9 < 7 and rng.random() < 0.6:
                    tiles += [t, t + 1, t + 2]
                else:
                    tiles += [t] * 3
            tiles += [rng.randrange(34)] * 2
        if max(tiles.count(t) for t in tiles) <= 4:
            return tiles


def test_jian_best_shape_from_the_first_of_each_shape() -> None:
    """Jian reads the best shape from a handful of decompositions when it has more
    than four 精: the same as from all of them, on winning hands with 0-6 精."""
    rng = random.Random(15)
    compared = 0
    while compared < 400:
        wilds = rng.randrange(7)
        base = _winning_tiles(rng)
        rng.shuffle(base)
        kinds = rng.sample([t for t in range(34) if t not in base], 2)
        phys = base[: 14 - wilds] + [kinds[i % 2] for i in range(wilds)]
        if max(phys.count(t) for t in phys) > 4:
            continue
        w = phys.pop(rng.randrange(14))
        sit = {"concealed": [tile_str(t) for t in phys], "win_tile": tile_str(w),
               "wild": [tile_str(t) for t in kinds]}  # fmt: skip
        h = parse_situation(sit)
        full = jian_hands._best_shape(decompose.decompositions(h, jian_hands.FORMS), h)
        assert full is not None
        assert jian_hands._best_shape(jian_hands._first_of_each_shape(h), h) == full, sit
        compared += 1
