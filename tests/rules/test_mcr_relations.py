"""The shipped set-relation tables of MCR against the functions that define them.

`rules/rulesets/mcr/data/mcr_relations.bin` (built by `python -m rules.rulesets.mcr.build_relations`)
holds the fans every chow multiset and every pung set make among themselves;
`chow_relation_fans` and `pung_relation_fans` in context.py stay the definition.
Checked here: the file is what the script builds, every entry read back through
the look-ups is the function's answer (the same fans, counts and order), the
look-ups hand anything that is not a key of the table to the function, and the
cuts of generated hands carry the relations the definition gives.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from rules.hand import parse_situation
from rules.registry import get_ruleset
from rules.rulesets.mcr import build_relations, context
from rules.rulesets.mcr import scoring as mcr
from tests.rules import mcr_oracle as mo


def test_the_file_is_what_the_script_builds() -> None:
    assert zlib.decompress(build_relations.PATH.read_bytes()) == build_relations.build()


@pytest.mark.parametrize(
    ("members", "keys", "want", "got", "count"),
    [
        (
            build_relations.chow_middles,
            build_relations.chow_keys,
            context.chow_relation_fans,
            context.shipped_chow_fans,
            12_650,
        ),
        (
            build_relations.pung_tiles,
            build_relations.pung_keys,
            context.pung_relation_fans,
            context.shipped_pung_fans,
            52_956,
        ),
    ],
    ids=["chow", "pung"],
)
def test_every_set_reads_back_as_the_function(
    members: Callable[[], Any],
    keys: Callable[[], Iterable[Any]],
    want: Callable[[list[Any]], Any],
    got: Callable[[list[Any]], Any],
    count: int,
) -> None:
    """Every set of chows (of pungs) reads back from the shipped file as the function
    gives it, and there are as many sets as the file's keys."""
    table = members()
    n = 0
    for key in keys():
        sets = [table[a] for a in key]
        assert list(got(sets).items()) == list(want(sets).items()), sets
        n += 1
    assert n == count


@pytest.mark.parametrize(
    "chows",
    [
        [1, 1, 1, 1, 1],  # five chows: more than a hand holds
        [10, 1],  # out of the reference order (饼 before 万)
        [0, 1],  # 1m is no chow's middle
        [27],
    ],
)
def test_a_chow_set_the_table_does_not_hold_is_worked_out(chows: list[int]) -> None:
    assert context.shipped_chow_fans(chows) == context.chow_relation_fans(chows)


@pytest.mark.parametrize(
    "pungs",
    [[27, 27], [28, 27], [0, 1, 2, 3, 4], [31, 31, 32]],
)
def test_a_pung_set_the_table_does_not_hold_is_worked_out(pungs: list[int]) -> None:
    assert context.shipped_pung_fans(pungs) == context.pung_relation_fans(pungs)


def _relations_by_definition(cut: context.Cut) -> tuple[dict[int, int], dict[int, int]]:
    """chow_fans and pung_fans of a regular cut as the functions define them."""
    mids = cut.chows
    pair = cut.pair
    assert pair is not None
    cf = (
        context.chow_fans_with_pair(mids, pair)
        if len(mids) == 4
        else context.chow_relation_fans(mids)
    )
    tiles = sorted((p.tile for p in cut.pungs), key=context.ORDER_KEY.__getitem__)
    pf = dict(context.pung_relation_fans(tiles))
    if 54 in pf and context.is_dragon(pair):
        del pf[54]
        pf[10] = 1
    elif 38 in pf and context.is_wind(pair):
        del pf[38]
        pf[9] = 1
    return dict(cf), pf


def test_the_cuts_carry_the_relations_of_the_definition() -> None:
    params = get_ruleset("mcr").defaults
    checked = 0
    for s in mo.generate_situations(3000, 31):
        r = mcr.Reading(parse_situation(s), params)
        for cut in mcr.regular_cuts(r.standing, r.fixed_packs, r.win):
            assert (cut.chow_fans, cut.pung_fans) == _relations_by_definition(cut), s["id"]
            checked += 1
    assert checked > 2500
