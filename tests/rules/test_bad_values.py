"""Look-alike values are refused with an error object, never scored or raised.

Each case is one the fuzzer found (tests/rules/test_fuzz_engine.py): 4.0 for 4
passed `players in (2, 3, 4)` and broke 四川's round, a list as a wind raised
TypeError, a fan count of Infinity raised OverflowError and 1.7 counted as 1.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules import score, settle, waits

SITUATION: dict[str, Any] = {
    "ruleset": "mcr",
    "concealed": "111m222m333m456p7z",
    "win_tile": "7z",
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}


def sichuan_round(**changes: Any) -> dict[str, Any]:
    rnd: dict[str, Any] = {
        "ruleset": "sichuan", "players": 4, "dealer": 0,
        "events": [{"type": "kong", "player": 1, "kong": "concealed"},
                   {"type": "win", "discarder": 2, "winners": [{"seat": 0, "fans": {"3": 1}}]}],
    }  # fmt: skip
    rnd.update(changes)
    return rnd


def mcr_quick(fans: Any, **winner: Any) -> dict[str, Any]:
    return {
        "ruleset": "mcr", "players": 4, "dealer": 0,
        "events": [{"type": "win", "discarder": 2,
                    "winners": [{"seat": 0, "fans": fans, **winner}]}],
    }  # fmt: skip


def refused(result: dict[str, Any], code: str) -> dict[str, Any]:
    assert result["ok"] is False, result
    error = result["error"]
    assert error["code"] == code, error
    assert error["message"] and error["message_zh"] and error["message"] != error["message_zh"]
    return error


def told(count: Any) -> dict[str, Any]:
    """四川's wall end with seat 0's ready hand told by its fans."""
    return {"ruleset": "sichuan", "players": 4, "events": [
        {"type": "wall_end", "hands": [{"seat": 0, "status": "ready", "fans": {"2": count}},
                                       {"seat": 1, "status": "pig"},
                                       {"seat": 2, "status": "not_ready"},
                                       {"seat": 3, "status": "pig"}]}]}  # fmt: skip


def test_the_valid_forms_still_pass() -> None:
    assert settle(told(1))["ok"] is True
    assert score(SITUATION)["ok"] is True
    assert settle(sichuan_round())["ok"] is True
    assert settle(mcr_quick({"48": 1, "70": 1, "62": 2}, flowers=1))["ok"] is True


# ---------------------------------------------------------------- players: 4.0


@pytest.mark.parametrize("players", [4.0, 3.0, True, "4", math.nan])
def test_a_sichuan_round_refuses_players_that_only_look_like_a_number(players: Any) -> None:
    refused(settle(sichuan_round(players=players)), "bad_table")


@pytest.mark.parametrize("players", [4.0, "4", [4]])
def test_an_mcr_round_refuses_players_4_0_instead_of_scoring_it(players: Any) -> None:
    rnd = {**mcr_quick({"48": 1, "70": 1, "62": 2}), "players": players}
    refused(settle(rnd), "bad_table")


def test_a_situation_refuses_players_4_0() -> None:
    sit = {**SITUATION, "table": {**SITUATION["table"], "players": 4.0}}
    refused(score(sit), "bad_table")


@pytest.mark.parametrize("dealer", [0.0, False, "0"])
def test_a_round_refuses_a_dealer_that_is_not_a_whole_number(dealer: Any) -> None:
    refused(settle(sichuan_round(dealer=dealer)), "bad_table")


def test_flowers_1_0_is_refused_not_counted() -> None:
    refused(score({**SITUATION, "flowers": 1.0}), "bad_input")
    refused(score({**SITUATION, "flowers": False}), "bad_input")
    refused(settle(mcr_quick({"48": 1, "70": 1, "62": 2}, flowers=1.0)), "bad_input")


# ---------------------------------------------------------------- winds


@pytest.mark.parametrize("key", ["seat_wind", "prevalent_wind"])
@pytest.mark.parametrize("value", [["E"], {"E": 1}, [], 0, 1.5, True])
def test_a_wind_that_is_not_a_string_is_an_error_not_a_typeerror(key: str, value: Any) -> None:
    error = refused(score({**SITUATION, key: value}), "bad_input")
    assert key in error["message"] and key in error["message_zh"]
    hand = {k: v for k, v in SITUATION.items() if k != "win_tile"}
    refused(waits({**hand, key: value}), "bad_input")


@pytest.mark.parametrize("value", [["E"], {"E": 1}, "东"])
def test_a_round_wind_is_one_of_the_four_letters(value: Any) -> None:
    refused(
        settle({**mcr_quick({"48": 1, "70": 1, "62": 2}), "prevalent_wind": value}), "bad_input"
    )


def test_wind_aliases_still_read() -> None:
    assert score({**SITUATION, "seat_wind": "南", "prevalent_wind": " w "})["ok"] is True
    assert score({**SITUATION, "seat_wind": None, "prevalent_wind": ""})["ok"] is True


# ---------------------------------------------------------------- fan counts


@pytest.mark.parametrize("count", [math.inf, -math.inf, math.nan, 1.7, 1.0, True, "1", None, [1]])
def test_a_quick_entry_count_is_a_whole_number_never_truncated(count: Any) -> None:
    error = refused(settle(mcr_quick({"48": count, "70": 1, "62": 2})), "bad_input")
    assert "fan counts" in error["message"]


@pytest.mark.parametrize("count", [math.inf, 1.7, True])
def test_sichuan_and_yunnan_quick_counts_too(count: Any) -> None:
    rnd = sichuan_round()
    rnd["events"][1]["winners"][0]["fans"] = {"3": count}
    refused(settle(rnd), "bad_input")
    refused(settle(told(count)), "bad_input")
    yunnan = {
        "ruleset": "yunnan",
        "players": 4,
        "events": [{"type": "win", "discarder": 3, "winners": [{"seat": 1, "fans": {"2": count}}]}],
    }
    refused(settle(yunnan), "bad_input")


@pytest.mark.parametrize("key", ["1.5", "-1", "inf", " 48", "٤٨", ""])
def test_a_fan_id_is_a_plain_whole_number(key: str) -> None:
    refused(settle(mcr_quick({key: 1, "70": 1, "62": 2})), "bad_input")


def test_a_huge_count_is_refused_before_any_ruleset_loops_on_it() -> None:
    refused(settle(mcr_quick({"48": 10**30})), "bad_input")
