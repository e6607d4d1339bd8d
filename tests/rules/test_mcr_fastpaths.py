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

import pytest

from rules.hand import parse_situation
from rules.registry import get_ruleset
from rules.rulesets.mcr import context, fans
from rules.rulesets.mcr import scoring as mcr
from tests.rules import mcr_oracle as mo

SITUATIONS = mo.generate_situations(1500, 23)


@pytest.fixture(scope="module")
def params() -> dict:
    return dict(get_ruleset("mcr").defaults)


def test_hand_fans_match_the_fan_functions(params: dict) -> None:
    checked = 0
    for s in SITUATIONS:
        reading = mcr.Reading(parse_situation(s), params)
        for form, fids in mcr.FORM_HAND_FANS.items():
            c = mcr.Ctx(reading, form)
            by_definition = {fid: v for fid in fids if (v := fans.HAND_FANS[fid](c)) > 0}
            assert mcr.hand_fans(c) == by_definition, (s["id"], form)
            checked += 1
    assert checked >= len(SITUATIONS)


def test_cut_fans_match_the_fan_functions(params: dict) -> None:
    # a regular cut is scored with every fan that has a condition
    regular = {*mcr.FORM_HAND_FANS["regular"], *mcr.FORM_CUT_FANS["regular"]}
    assert regular == set(fans.FAN_FUNCS)
    checked = 0
    for i, s in enumerate(SITUATIONS):
        hand = parse_situation(s)
        p = params if i % 2 else {**params, "mixed_kong_fan": False}
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
