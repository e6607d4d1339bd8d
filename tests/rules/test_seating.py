"""A round's `seating`: seat winds go round the players' places where they changed
(国标比赛's 换位); a seating that is not every seat once is refused."""

from __future__ import annotations

import pytest

from rules import api

HAND = {"concealed": "222z123m456m789m5p", "win_tile": "5p"}  # a pung of 南


def fans(seating: list[int] | None) -> set[str]:
    rnd = {"ruleset": "mcr", "dealer": 1, "prevalent_wind": "S",
           "events": [{"type": "win", "discarder": None, "winners": [{"seat": 0, "hand": HAND}]}]}  # fmt: skip
    if seating is not None:
        rnd["seating"] = seating
    out = api.settle(rnd)
    assert out["ok"], out
    return {f["name_zh"] for f in out["events"][0]["winners"][0]["fans"]}


def test_seat_winds_follow_the_seating() -> None:
    # Seats in their own order, dealer 1: seat 0 sits North; no 门风刻.
    assert "门风刻" not in fans(None) and "圈风刻" in fans(None)
    # The South round's places 1, 0, 3, 2: seat 0 sits right after the dealer, South.
    assert {"门风刻", "圈风刻"} <= fans([1, 0, 3, 2])


@pytest.mark.parametrize("bad", [[0, 1, 2], [0, 0, 1, 2], [0, 1, 2, 4], "0123", [True, 1, 2, 3]])
def test_a_bad_seating_is_refused(bad: object) -> None:
    out = api.settle({"ruleset": "mcr", "seating": bad, "events": [{"type": "draw"}]})
    assert out["ok"] is False and out["error"]["code"] == "bad_table"
