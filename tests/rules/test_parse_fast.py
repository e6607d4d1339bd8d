"""The quick ways against the complete ones: the same answer or the same error.

`parse_situation` reads a plain dict's tiles by `read_tiles_fast`, which gives up on
anything unusual; a Mapping that is not a dict always takes `read_tiles_careful`,
every check in order.  `rules.is_win` answers `generic` from the table look-ups
alone; `score()` counts and lists the decompositions.  Each pair is compared
here on thousands of generated situations, well-formed and broken.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from rules import get_ruleset, is_win, score, waits
from rules.errors import RuleError
from rules.hand import Hand, parse_situation, read_tiles_careful, read_tiles_fast
from rules.tiles import tile_str
from tests.support.situations import situation


def answer(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except RuleError as e:
        return ("error", e.code, e.message, e.message_zh)


@pytest.mark.parametrize("need_win_tile", [True, False])
def test_fast_parse_is_the_careful_parse(need_win_tile: bool) -> None:
    rng = random.Random(1500 + need_win_tile)
    fast_taken = 0
    for _ in range(4000):
        sit = situation(rng, need_win_tile)
        quick = answer(parse_situation, sit, need_win_tile)
        careful = answer(parse_situation, MappingProxyType(sit), need_win_tile)
        assert quick == careful, sit
        if isinstance(quick, Hand):
            assert quick.counts == bytes(
                sum(1 for t in (*quick.concealed, quick.win_tile) if t == k and k not in quick.wild)
                for k in range(34)
            )
        tiles = answer(read_tiles_fast, sit, need_win_tile)
        if tiles is not None:
            fast_taken += 1
            assert tiles == answer(read_tiles_careful, sit, need_win_tile), sit
    # a fair share of the generated hands are well-formed and spelt as the fast
    # path reads them (the rest is broken or spelt otherwise on purpose)
    assert fast_taken > 500


def hands(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Winning shapes and random tiles, 0-4 wild tiles, some melds."""
    from benchmarks.hands import winning_tiles

    out: list[dict[str, Any]] = []
    while len(out) < n:
        tiles = winning_tiles(rng) if rng.random() < 0.5 else rng.sample(range(136), 14)
        tiles = [t % 34 if t >= 34 else t for t in tiles]
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        rng.shuffle(tiles)
        sit: dict[str, Any] = {"ruleset": "generic"}
        k = rng.randrange(5)
        if k:
            kind = rng.choice([t for t in range(34) if t not in tiles])
            tiles[:k] = [kind] * k
            sit["wild"] = [tile_str(kind)]
        sit["win_tile"] = tile_str(tiles.pop())
        sit["concealed"] = "".join(tile_str(t) for t in tiles)
        if rng.random() < 0.2:
            sit["params"] = {"seven_pairs": False}
        out.append(sit)
    return out


def test_is_win_is_scores_win_for_generic() -> None:
    rng = random.Random(15)
    wins = 0
    for sit in hands(rng, 1500):
        full: Mapping[str, Any] = score(sit)
        quick = is_win(sit)
        assert quick == {"id": None, "ok": True, "ruleset": "generic", "win": full["win"]}, sit
        wins += full["win"]
    assert 500 < wins < 1250
    # melds, and the caps they put on wild tiles (test_api's cases)
    melds = [{"type": "pung", "tiles": t} for t in ("111z", "222z", "333z", "777z")]
    for conc, win, wild in (("1z", "5z", ["5z"]), ("4z", "5z", ["5z"]), ("7s", "7s", [])):
        sit = {"ruleset": "generic", "concealed": conc, "win_tile": win, "melds": melds}
        sit["wild"] = wild
        got: Mapping[str, Any] = is_win(sit)
        scored: Mapping[str, Any] = score(sit)
        assert got["win"] == scored["win"]


SITUATIONS = [
    {"ruleset": "mcr", "concealed": "123m456m789m123p5p", "win_tile": "5p", "self_drawn": True},
    {"ruleset": "mcr", "concealed": "123m456m789m123p5p", "win_tile": "6p"},
    {"ruleset": "mcr", "concealed": "123m456p789s1234z", "win_tile": "5z"},
    {"ruleset": "sichuan", "concealed": "1112345678999m", "win_tile": "5m"},
    {"ruleset": "sichuan", "concealed": "1112345678999m", "win_tile": "5p"},
    {"ruleset": "house", "concealed": "123m456p789s1122z", "win_tile": "2z", "wild": ["5m"]},
    {"ruleset": "generic", "concealed": "123m456p789s1122z", "win_tile": "2z", "seat_wind": 3},
    {"ruleset": "nope", "concealed": "123m456p789s1122z", "win_tile": "2z"},
    {"ruleset": "mcr", "concealed": "123m456p789s1122z"},
    "not a situation",
]


@pytest.mark.parametrize("sit", SITUATIONS)
def test_is_win_answers_as_score_does(sit: Any) -> None:
    """Every ruleset: the `win` of score(), `not_a_win` read as no win, the same errors."""
    full = score(sit)
    quick = is_win(sit)
    if full["ok"]:
        assert quick == {"id": None, "ok": True, "ruleset": full["ruleset"], "win": full["win"]}
    elif full["error"]["code"] == "not_a_win":
        assert quick["ok"] and quick["win"] is False
    else:
        assert quick == full


def test_waits_unchanged_by_the_quick_parse() -> None:
    """waits() against the waits of the same situation read the careful way."""
    rs = get_ruleset("generic")
    rng = random.Random(16)
    for _ in range(1500):
        sit = situation(rng, False)
        try:
            hand = parse_situation(MappingProxyType(sit), need_win_tile=False)
        except RuleError as e:
            expected: Mapping[str, Any] = e.to_dict(None)
        else:
            kinds = rs.wait_tiles(hand, rs.resolve_params(None))
            expected = {"id": None, "ok": True, "ruleset": "generic",
                        "waits": [tile_str(t) for t in kinds]}  # fmt: skip
        assert waits(sit) == expected, sit


def test_melds_seen_before_are_checked_as_new_ones() -> None:
    """A meld read once is kept (rules/hand.py _MELDS); look-alikes of it are
    still judged by the careful check: 1 for true, 0 for false, a tuple or a
    string for the tiles, an unhashable field."""
    base = {"type": "kong", "tiles": ["5p"] * 4, "exposed": False, "claimed_from": None}
    variants = [
        base,
        {**base, "exposed": 0},
        {**base, "exposed": 1},
        {**base, "added": 1},
        {**base, "added": True},
        {**base, "tiles": ("5p",) * 4},
        {**base, "tiles": "5555p"},
        {**base, "claimed_from": ["left"]},
        {**base, "claimed_from": "left"},
        {**base, "type": ["kong"]},
        {**base, "tiles": [["5p"]] * 4},
        {**base, "type": "pung"},
    ]
    for meld in variants * 2:  # the second time round, every valid one is kept
        sit: dict[str, Any] = {
            "ruleset": "generic",
            "concealed": "123m456p789s1z",
            "win_tile": "1z",
        }
        sit["melds"] = [meld]
        assert answer(parse_situation, sit, True) == answer(
            parse_situation, MappingProxyType(sit), True
        ), meld
