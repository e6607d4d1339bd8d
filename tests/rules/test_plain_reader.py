"""The plain reader (rules/plain_reader.py) against the careful path: the same answer, the same error.

`rules.is_win` and `rules.waits` answer a plain situation at a ruleset with
plain quick forms from packed per-suit counts, without a Hand.  Here every
answer is compared with the one the same call gives with the plain reader
switched off (every situation then takes parse_situation and the ruleset's
own is_win / wait_tiles), on thousands of generated situations: plain ones in
every spelling the reader takes, and the broken and unusual ones of
test_parse_fast, which it must hand over untouched.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import REGISTRY, is_win, plain_reader, waits
from rules.tiles import tile_str, tiles_str
from tests.support.situations import situation

SPELLINGS = ("grouped", "one_by_one", "list", "upper_list")


def spelt(tiles: list[int], how: str) -> Any:
    if how == "grouped":
        return tiles_str(tiles)
    codes = [tile_str(t) for t in tiles]
    if how == "one_by_one":
        return "".join(codes)
    if how == "list":
        return codes
    return [c.upper() for c in codes]


def plain(rng: random.Random, need_win_tile: bool) -> dict[str, Any]:
    """A plain situation: a winning shape one tile short, or random tiles; 0-4
    wild tiles of one or two kinds, sometimes a fifth copy or a tile too many."""
    from benchmarks.hands import winning_tiles

    tiles = winning_tiles(rng) if rng.random() < 0.6 else rng.sample(range(136), 14)
    tiles = [t % 34 for t in tiles]
    rng.shuffle(tiles)
    sit: dict[str, Any] = {"ruleset": "generic"}
    k = rng.choice([0, 0, 1, 2, 3, 4])
    if k:
        kinds = rng.sample(range(34), rng.choice([1, 1, 2]))
        tiles[:k] = [rng.choice(kinds) for _ in range(k)]
        sit["wild"] = [tile_str(t) for t in kinds]
    if rng.random() < 0.03:
        tiles[1:6] = [tiles[0]] * 5  # five copies: refused
    if rng.random() < 0.03:
        tiles.append(tiles[0])  # a tile too many
    win = tiles.pop()
    if need_win_tile or rng.random() < 0.2:
        sit["win_tile"] = tile_str(win)
    elif not need_win_tile and rng.random() < 0.5:
        tiles = tiles[:-1] + [win]
    sit["concealed"] = spelt(tiles if need_win_tile else tiles[:13], rng.choice(SPELLINGS))
    if rng.random() < 0.2:
        sit["params"] = {"seven_pairs": rng.random() < 0.5}
    if rng.random() < 0.1:
        sit["id"] = rng.randrange(100)
    return sit


@pytest.fixture
def careful(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Calls with the plain reader switched off."""

    def run(fn: Any, sit: Any) -> Any:
        with monkeypatch.context() as m:
            m.setattr(plain_reader, "read", lambda *a: None)
            return fn(sit)

    return run


@pytest.mark.parametrize("fn", [is_win, waits], ids=["is_win", "waits"])
def test_plain_answers_are_the_careful_ones(fn: Any, careful: Any) -> None:
    need_win_tile = fn is is_win
    rng = random.Random(1515 + need_win_tile)
    taken = 0
    wins = 0
    for i in range(6000):
        sit = plain(rng, need_win_tile) if i % 3 else situation(rng, need_win_tile)
        got = fn(sit)
        assert got == careful(fn, sit), sit
        if isinstance(sit, dict) and plain_reader.read(sit, need_win_tile) is not None:
            taken += 1
            wins += bool(got.get("win") or got.get("waits"))
    # most plain situations are read quickly, and among them wins and losses both
    assert taken > 3000
    assert 500 < wins < taken - 500


@settings(max_examples=400, derandomize=True)
@given(
    tiles=st.lists(st.integers(0, 33), min_size=13, max_size=13),
    wild=st.lists(st.integers(0, 33), max_size=2),
    seven_pairs=st.booleans(),
    how=st.sampled_from(SPELLINGS),
)
def test_waits_of_any_thirteen_tiles(
    tiles: list[int], wild: list[int], seven_pairs: bool, how: str
) -> None:
    """Any 13 tiles (fifth copies too), any wild kinds: the plain reader's waits are the careful ones."""
    sit = {
        "ruleset": "generic",
        "concealed": spelt(sorted(tiles), how),
        "wild": [tile_str(t) for t in wild],
        "params": {"seven_pairs": seven_pairs},
    }
    got = waits(sit)
    read = plain_reader.read
    try:
        plain_reader.read = lambda *a: None  # type: ignore[assignment]
        assert got == waits(sit)
    finally:
        plain_reader.read = read


def test_rulesets_with_plain_reader_forms_give_plain_forms() -> None:
    """A ruleset's quick forms are plain ones, under its defaults and every preset."""
    offered = 0
    for rs in REGISTRY.values():
        for params in [rs.defaults, *(rs.resolve_params(p.params) for p in rs.presets)]:
            forms = rs.plain_reader_forms(params)
            if forms is not None:
                offered += 1
                assert plain_reader.plain_forms(forms), rs.id
    assert offered  # generic at least


def test_plain_reader_reads_the_hand() -> None:
    """The packed counts themselves: 5 bits a kind, win tile in, wild kinds out."""
    sit = {"ruleset": "generic", "concealed": "1112345678999m1p", "win_tile": "5p"}
    assert plain_reader.read(sit, True) is None  # 14 concealed + a win tile: the careful path's
    assert plain_reader.read({**sit, "seat_wind": "E"}, True) is None  # not plain
    sit = {"ruleset": "generic", "concealed": "111234567899m", "win_tile": "9m", "wild": ["1m"]}
    p = plain_reader.read({**sit, "concealed": sit["concealed"] + "5p"}, True)
    assert p is not None
    ks, _, wilds, held = p
    assert (wilds, held) == (3, {0: 3})
    assert ks[0] == sum(1 << 5 * r for r in range(1, 8)) + (3 << 5 * 8)
    assert ks[1] == 1 << 5 * 4 and ks[2] == ks[3] == 0
