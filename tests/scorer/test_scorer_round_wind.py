"""The round's wind reaches the engine: a pung of the round wind scores 圈风刻.

Before this was fixed every entry was settled as an East round, so a South-round
hand lost its 圈风刻 (2 points) and the table was paid too little."""

from __future__ import annotations

import pytest

from tests.factories import SHORT_NAMES, by_tiles, make_table, record

pytestmark = pytest.mark.django_db

HAND = {"concealed": "222z123m456m789m5p", "win_tile": "5p"}  # a pung of 南


@pytest.mark.parametrize(("wind", "round_wind_fan"), [("S", True), ("E", False), ("W", False)])
def test_the_round_wind_is_scored(wind: str, round_wind_fan: bool) -> None:
    s = make_table("mcr", SHORT_NAMES)
    s.params = dict(s.rules.params)
    s.save()
    # Seat 1 with dealer 0 sits South: 门风刻 always; 圈风刻 in the South round only.
    rnd = record(s, by_tiles(1, None, HAND, dealer=0, prevalent_wind=wind))
    assert rnd.current is not None and rnd.current.prevalent_wind == wind
    names = {f["name_zh"] for f in rnd.current.result["fans"]}
    assert "门风刻" in names
    assert ("圈风刻" in names) is round_wind_fan
