"""The lean path of MCR scoring (lean.py) answers as the careful path does.

`lean.score_regular` scores a hand with one regular reading in one pass; the
careful path (`Mcr.score_careful`: Reading, Cut, Ctx, Scored) stays the
definition.  Held to the same result, dict for dict, on generated situations
reaching every fan, under every parameter that changes a fan, a note or a
payment, with tables and flags the tiles contradict; and the lean path must
take most of them (or it would save nothing) and refuse what it cannot read.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.hand import parse_situation
from rules.registry import get_ruleset
from rules.rulesets.mcr import lean
from tests.rules import mcr_oracle as mo

RS = get_ruleset("mcr")
PARAMS = (
    {},
    {"mixed_kong_fan": False},
    {"wait_fans_real_waits": True},
    {"min_fans": 20, "flower_points": 3},
    {"min_fans": 0, "base": 5},
)


def _variants(sit: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The situation, and with a table, contradicted flags, winds and flowers."""
    out = [sit]
    v = dict(sit)
    v["fourth_tile"] = True
    v["after_kong"] = True
    v["robbing_kong"] = not v.get("self_drawn")
    v["seat_wind"] = rng.choice("ESWN")
    v["prevalent_wind"] = rng.choice("ESWN")
    v["flowers"] = rng.randrange(9)
    v["table"] = (
        {"players": 4, "winner": 1}
        if v.get("self_drawn")
        else {"players": 4, "winner": 1, "discarder": 2}
    )
    out.append(v)
    return out


@pytest.mark.parametrize("overrides", PARAMS)
def test_lean_answers_as_the_careful_path(overrides: dict[str, Any]) -> None:
    params = RS.resolve_params(overrides)
    rng = random.Random(5)
    taken = total = 0
    for s in mo.generate_situations(1200, 41):
        for v in _variants(s, rng):
            hand = parse_situation(v)
            got = lean.score_regular(hand, params)
            total += 1
            if got is None:
                continue
            taken += 1
            assert got == RS.score_careful(hand, params), v  # type: ignore[attr-defined]
    assert taken > total // 2


def test_lean_leaves_the_rest_to_the_careful_path() -> None:
    params = RS.defaults
    special = {"concealed": "19m19p19s1234567z", "win_tile": "1m"}
    two_cuts = {"concealed": "111222333m456p7z", "win_tile": "7z"}
    not_a_win = {"concealed": "135m2468p13579s1z", "win_tile": "1z"}
    for sit in (special, two_cuts, not_a_win):
        assert lean.score_regular(parse_situation(sit), params) is None, sit
    plain = {"concealed": "123m456p789s1122z", "win_tile": "1z"}
    assert lean.score_regular(parse_situation(plain), params) is not None


def test_knit_precheck_matches_the_patterns() -> None:
    """scoring.holds_knit (the special forms' pre-check, by ranks per suit) says
    what _knit_pattern_of (pattern by pattern) says, on every pattern, each less
    one tile, and random hands."""
    from rules import shapes
    from rules.rulesets.mcr import scoring

    rng = random.Random(3)
    hands = [bytes(rng.choice((0, 0, 1, 1, 2)) for _ in range(34)) for _ in range(20_000)]
    for pat in shapes.KNIT_PATTERNS:
        full = bytearray(34)
        for t in pat:
            full[t] = 1
        hands.append(bytes(full))
        for t in pat:
            less = bytearray(full)
            less[t] = 0
            hands.append(bytes(less))
    for s in hands:
        assert scoring.holds_knit(s) == (scoring._knit_pattern_of(s) is not None), s


def test_tile_fans_match_tile_facts() -> None:
    """The TileFan rows compiled on the ranks each suit holds (fans.tile_fans, what
    the lean path and the careful one both read) give the fans the tile sets of
    context.py define, on random tiles of every mix of suits and honors."""
    from tests.support.mcr_facts import facts_by_definition, fans_of_facts, rows_on

    rng = random.Random(9)
    for i in range(30_000):
        kinds = rng.sample(range(34), rng.randrange(1, 12))
        if i % 3 == 0:  # one suit, or one suit and honors, or honors alone
            x = rng.randrange(4)
            kinds = [t for t in kinds if t // 9 == x or (x < 3 and t >= 27 and i % 2)] or [27]
        merged = bytearray(34)
        for t in kinds:
            merged[t] = rng.randrange(1, 4)
        m = bytes(merged)
        assert rows_on(m, 0) == fans_of_facts(facts_by_definition(m, 0)), m


def test_unique_wait_from_single_suits_matches_the_tables() -> None:
    """lean._unique_wait (one suit pattern at a time) says what scoring.unique_wait
    (every kind through the hand's tables) says, formal ruling or not, on every
    generated hand with one suit that can hold the pair, and on random hands."""
    from benchmarks.hands import winning_tiles
    from rules import shapes
    from rules.rulesets.mcr import scoring

    def hands() -> list[Any]:
        out = []
        for seed in (1, 2, 3):
            for sit in mo.generate_situations(3000, seed):
                out.append(parse_situation(sit))
        rng = random.Random(3)
        for _ in range(20_000):
            tiles = winning_tiles(rng)
            w = rng.choice(tiles)
            rest = list(tiles)
            rest.remove(w)
            code = "{}{}".format
            out.append(
                parse_situation(
                    {
                        "concealed": [code(t % 9 + 1, "mpsz"[t // 9]) for t in rest],
                        "win_tile": code(w % 9 + 1, "mpsz"[w // 9]),
                    }
                )
            )
        return out

    checked = 0
    for h in hands():
        s = h.counts
        ks = (s[0:9], s[9:18], s[18:27], s[27:34])
        needs = [shapes.SUIT_NEEDS.get(k) or shapes.suit_need(k) for k in ks]
        s0 = sum(n[0] for n in needs)
        pair_suits = [x for x in range(4) if s0 + needs[x][1] <= 0]
        if len(pair_suits) != 1:
            continue
        for formal in (True, False):
            got = lean._unique_wait(s, h.held, h.win_tile, len(h.melds), formal, ks, pair_suits[0])
            want = scoring.unique_wait.__wrapped__(s, h.held, h.win_tile, len(h.melds), formal)
            assert got == want, (h.describe(), formal)
        checked += 1
    assert checked > 20_000
