"""`settle` says who deals next: the ruleset's own rule, the one the web app follows
(GameSession.next_position), so a client of the API or the command line can carry a
table on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import api
from tests.support.cli import run

PLAIN = {"concealed": "123m456m789m123p5p", "win_tile": "5p"}


def settled(rid: str, events: list[Any], **rnd: Any) -> dict[str, Any]:
    out = api.settle({"ruleset": rid, "events": events, **rnd})
    assert out["ok"], out
    return out


def win(seat: int, discarder: int | None, hand: Any = PLAIN) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, "winners": [{"seat": seat, "hand": hand}]}


@pytest.mark.parametrize(
    ("rid", "dealer", "events", "expected"),
    [
        ("hebei", 1, [{"type": "draw"}], 1),  # 连庄 on a draw
        ("hebei", 1, [win(1, 2, {"concealed": "123m456p789s234m5s", "win_tile": "5s"})], 1),
        ("hebei", 1, [win(3, 2, {"concealed": "123m456p789s234m5s", "win_tile": "5s"})], 2),
        # 四川 without 血战: the player who dealt in deals ("點炮者坐莊")
        (
            "sichuan",
            0,
            [{"type": "win", "discarder": 2, "winners": [{"seat": 1, "fans": {}}]}],
            2,
        ),  # fmt: skip
    ],
)
def test_next_dealer_is_the_rulesets(rid: str, dealer: int, events: Any, expected: int) -> None:
    params = {"blood_battle": False} if rid == "sichuan" else {}
    out = settled(rid, events, dealer=dealer, params=params)
    assert out["next_dealer"] == expected
    assert out["next_prevalent_wind"] == "E"


def test_the_wind_moves_on_when_the_deal_comes_back_to_the_first_dealer() -> None:
    mcr = {"type": "win", "discarder": 1, "winners": [{"seat": 0, "fans": {"1": 1}}]}
    out = settled("mcr", [mcr], dealer=3, first_dealer=0)
    # MCR's default: the deal passes whoever wins (no 连庄); 3 → 0, the first dealer.
    assert (out["next_dealer"], out["next_prevalent_wind"]) == (0, "S")
    out = settled("mcr", [mcr], dealer=3, first_dealer=2)
    assert (out["next_dealer"], out["next_prevalent_wind"]) == (0, "E")


def test_an_unfinished_round_has_no_next_dealer() -> None:
    out = settled("sichuan", [win(1, 2, {"concealed": "1112345678999m", "win_tile": "9m"})])
    assert out["finished"] is False
    assert out["next_dealer"] is None and out["next_prevalent_wind"] is None


@pytest.mark.parametrize("bad", [4, -1, 1.0, True, "0"])
def test_a_bad_first_dealer_is_refused(bad: Any) -> None:
    out = api.settle({"ruleset": "hebei", "events": [{"type": "draw"}], "first_dealer": bad})
    assert out["ok"] is False and out["error"]["code"] == "bad_table"


def test_the_command_line_says_it_too() -> None:
    p = run("settle", stdin=json.dumps({"ruleset": "hebei", "dealer": 2,
                                        "events": [{"type": "draw"}]}) + "\n")  # fmt: skip
    assert json.loads(p.stdout)["next_dealer"] == 2
