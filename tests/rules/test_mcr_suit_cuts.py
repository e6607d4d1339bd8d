"""The shipped suit cuts of MCR against the walk that defines them.

`rules/rulesets/mcr/data/mcr_suit_cuts.bin` (built by `python -m rules.rulesets.mcr.build_suit_cuts`)
holds the cuts of every suit pattern of at most four sets, without and with the
pair; `scoring.suit_cuts` stays the definition.  Checked here: the file is what
the script builds, every pattern reads back as the walk's cuts in the walk's
order (the order settles ties between equal cuts), the table holds every pattern
the walk can cut into at most four sets, and anything else is handed to the walk.
"""

from __future__ import annotations

import zlib
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.rulesets.mcr import build_suit_cuts
from rules.rulesets.mcr import scoring as mcr


def test_the_file_is_what_the_script_builds() -> None:
    assert zlib.decompress(build_suit_cuts.PATH.read_bytes()) == build_suit_cuts.build()


@pytest.mark.parametrize(("n", "pair"), build_suit_cuts.SECTIONS)
def test_every_pattern_reads_back_as_the_walk(n: int, pair: bool) -> None:
    keys = build_suit_cuts.patterns(n, pair)
    assert keys
    for key in keys:
        got = mcr.shipped_suit_cuts(key, pair)
        assert got == mcr.suit_cuts(key, pair), key
        assert got, key  # every pattern held can be cut


@pytest.mark.parametrize(("n", "pair"), [(7, False), (7, True)])
def test_the_table_holds_every_pattern_the_walk_can_cut(n: int, pair: bool) -> None:
    held = set(build_suit_cuts.patterns(n, pair))
    for counts in product(range(5), repeat=n):
        key = bytes(counts)
        if sum(counts) <= 12 + 2 * pair and mcr.suit_cuts(key, pair):
            assert key in held, key


def test_nine_kind_patterns_of_a_hand_are_held() -> None:
    # the 9-kind suit in full is 2 million patterns: those of 14 tiles or fewer
    # that the walk can cut, reached by sums of counts
    held = {p: set(build_suit_cuts.patterns(9, p)) for p in (False, True)}
    for counts in product(range(5), repeat=9):
        total = sum(counts)
        if total > 14 or total % 3 == 1:
            continue
        pair = total % 3 == 2
        key = bytes(counts)
        if mcr.suit_cuts(key, pair):
            assert key in held[pair], key


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=7, max_size=9), st.booleans())
def test_any_pattern_is_cut_as_the_walk_cuts_it(counts: list[int], pair: bool) -> None:
    if len(counts) == 8:
        counts = counts[:7]
    key = bytes(counts)
    assert mcr.shipped_suit_cuts(key, pair) == mcr.suit_cuts(key, pair)
