"""The fast paths of MCR scoring agree with the fan functions that define the fans.

`hand_fans` reads the HAND fans from cached tile facts, and `score_ctx` works out
the fans of the sets alone once per cut and takes the set-relation tables whole;
the small pure functions in the fan table's rows (`when`, read through the views
`HAND_FANS`, `CUT_FANS`, `FAN_FUNCS` of fans.py) stay the definition.  Checked on
every form and every cut of generated situations that reach all 81 fans, with
both values of `mixed_kong_fan`, so a fan changed in one place and not the other
fails here.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.hands import winning_tiles
from rules import shapes
from rules.decompose import Forms, decompositions_counts, waits_counts
from rules.hand import parse_situation
from rules.params import ParamValues
from rules.registry import get_ruleset
from rules.rulesets.mcr import context, fans
from rules.rulesets.mcr import scoring as mcr
from rules.shapes import Decomposition
from rules.tiles import tile_str
from tests.rules import mcr_oracle as mo
from tests.support.mcr_facts import facts_by_definition, fans_of_facts, rows_on

SITUATIONS = mo.generate_situations(1500, 23)


@pytest.fixture(scope="module")
def params() -> ParamValues:
    return get_ruleset("mcr").defaults


def test_hand_fans_match_the_fan_functions(params: ParamValues) -> None:
    checked = 0
    for s in SITUATIONS:
        reading = mcr.Reading(parse_situation(s), params)
        for form, fids in mcr.FORM_HAND_FANS.items():
            c = mcr.Ctx(reading, form)
            by_definition = {fid: v for fid in fids if (v := fans.HAND_FANS[fid](c)) > 0}
            assert mcr.hand_fans(c) == by_definition, (s["id"], form)
            checked += 1
    assert checked >= len(SITUATIONS)


def test_cut_fans_match_the_fan_functions(params: ParamValues) -> None:
    # a regular cut is scored with every fan that has a condition
    regular = {*mcr.FORM_HAND_FANS["regular"], *mcr.FORM_CUT_FANS["regular"]}
    assert regular == set(fans.FAN_FUNCS)
    checked = 0
    for i, s in enumerate(SITUATIONS):
        hand = parse_situation(s)
        p = params if i % 2 else get_ruleset("mcr").resolve_params({"mixed_kong_fan": False})
        reading = mcr.Reading(hand, p)
        for cut in mcr.regular_cuts(reading.standing, reading.fixed_packs, reading.win):
            c = mcr.Ctx(reading, "regular", cut, None)
            hidden = cut.hidden_pungs[0 if hand.self_drawn else 1]
            assert c.kong_table == context.kong_fans(hidden, *cut.kongs, reading.mixed_kong_fan)
            # every fan of a regular cut, one row's condition at a time
            by_definition = {fid: v for fid, fn in fans.FAN_FUNCS.items() if (v := fn(c)) > 0}
            scored = mcr.score_ctx(c)
            assert mcr.apply_exclusions(by_definition) == (scored.fans, scored.excluded), s["id"]
            checked += 1
    assert checked > 0


# ---------------------------------------------------------------------------
# The new-hand paths against the engine's complete ones: a suit's cuts, every cut of
# a hand, the wait check and the tile facts, each beside the general code it replaces
# (the decomposition layer, its waits, the tile sets of context.py).


def _engine_cuts(standing: bytes, fixed_packs: tuple, win: int) -> list[tuple]:
    """The cuts as the decomposition layer reads them: decompositions_counts, then sorted."""
    decs = decompositions_counts(standing, 0, len(fixed_packs), Forms(seven_pairs=False))

    def order(d: Decomposition) -> tuple:
        return tuple(
            sorted(
                (context.ORDER_KEY[g.tile], 0 if g.kind == "pung" else 1)
                for g in d.groups
                if g.kind != "pair"
            )
        )

    return [
        fixed_packs
        + tuple(
            context.Pack("chow", g.tile + 1, False, True)
            if g.kind == "chow"
            else context.Pack(g.kind, g.tile, False, True)
            for g in d.groups
        )
        for d in sorted(decs, key=order)
    ]


def _engine_unique_wait(
    standing: bytes, merged: bytes, win: int, n_fixed: int, formal: bool
) -> bool:
    """The wait check through the decomposition layer's waits (the complete path)."""
    before = bytearray(standing)
    before[win] -= 1
    fixed = bytes(m - s for m, s in zip(merged, standing, strict=True))
    held = bytes(b + f for b, f in zip(before, fixed, strict=True))
    forms = Forms(seven_pairs=n_fixed == 0)
    waits = waits_counts(bytes(before), 0, held, frozenset(), n_fixed, forms)
    if len(waits) != 1 or not formal:
        return len(waits) == 1
    for t in range(34):
        if held[t] >= 4 and t not in waits:
            with_fifth = bytearray(before)
            with_fifth[t] += 1
            if mcr._sets_and_pair(bytes(with_fifth), 4 - n_fixed, True):
                return False
    return True


def _situations_and_uniform_hands() -> list[dict]:
    """The generated situations and, for shapes they rarely reach, uniform winning hands."""
    rng = random.Random(15)
    out = list(SITUATIONS)
    for i in range(1500):
        tiles = winning_tiles(rng)
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        out.append(
            {
                "id": f"uniform-{i}",
                "concealed": [tile_str(t) for t in sorted(tiles[:-1])],
                "win_tile": tile_str(tiles[-1]),
            }
        )
    return out


def test_cuts_and_waits_match_the_engine(params: ParamValues) -> None:
    cuts_checked = waits_checked = 0
    for s in _situations_and_uniform_hands():
        r = mcr.Reading(parse_situation(s), params)
        mcr.regular_cuts.cache_clear()
        got = [c.packs for c in mcr.regular_cuts(r.standing, r.fixed_packs, r.win)]
        assert got == _engine_cuts(r.standing, r.fixed_packs, r.win), s["id"]
        cuts_checked += len(got)
        for formal in (True, False):
            mcr.unique_wait.cache_clear()
            fast = mcr.unique_wait(r.standing, r.merged, r.win, r.n_fixed, formal)
            assert fast == _engine_unique_wait(r.standing, r.merged, r.win, r.n_fixed, formal), (
                s["id"],
                formal,
            )
            waits_checked += 1
    assert cuts_checked > 2500
    assert waits_checked > 5000


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.integers(0, 3),
    st.booleans(),
)
def test_a_suits_cuts_match_the_engine(counts: list[int], x: int, pair: bool) -> None:
    key = bytes(counts[:7] if x == 3 else counts)
    mcr._SUIT_PACKS.clear()  # the miss path, which fills the three suits at once
    for y in (0, 1, 2) if x < 3 else (3,):
        want = tuple(
            tuple(
                context.Pack("chow", g.tile + 1, False, True)
                if g.kind == "chow"
                else context.Pack(g.kind, g.tile, False, True)
                for g in groups
            )
            for groups in shapes._natural_cuts(key, 9 * y, pair)
        )
        # the same cuts, each once (their order is settled when a hand's cuts are sorted)
        assert sorted(mcr._suit_packs(key, y, pair)) == sorted(want)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=18), st.integers(0, 4))
def test_tile_facts_match_the_tile_sets(tiles: list[int], kongs: int) -> None:
    counts = bytearray(34)
    for t in tiles:
        counts[t] = min(4, counts[t] + 1)
    merged = bytes(counts)
    assert rows_on(merged, merged.count(4) - kongs) == fans_of_facts(
        facts_by_definition(merged, kongs)
    )


def test_tile_facts_of_the_generated_hands(params: ParamValues) -> None:
    for s in SITUATIONS:
        r = mcr.Reading(parse_situation(s), params)
        kongs = sum(1 for m in r.hand.melds if m.type == "kong")
        facts = facts_by_definition(r.merged, kongs)
        assert r.win_facts.hogs == facts[9]
        assert rows_on(r.merged, r.win_facts.hogs) == fans_of_facts(facts)
        # each TileFan row on the Ctx (its lambda) says what the compiled rows say
        c = mcr.Ctx(r, "regular")
        by_row = {fid: n for fid in fans.TILE_FANS if (n := fans.HAND_FANS[fid](c)) > 0}
        assert by_row == fans.tile_fans(*context.ranks_of(r.merged))
