"""The public API and its error contract (spec: situation.md)."""

import json
from pathlib import Path
from typing import Any

import pytest

from rules import ERROR_CODES, REGISTRY, score, waits

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec"


def sit(concealed: Any, win_tile: str | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"ruleset": "generic", "concealed": concealed, **kw}
    if win_tile is not None:
        d["win_tile"] = win_tile
    return d


def _examples() -> list[dict[str, Any]]:
    with open(FIXTURES / "generic-wild.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e["id"])
def test_spec_examples_generic_wild(example: dict[str, Any]) -> None:
    r = score(example)
    assert r["ok"], r
    assert r["id"] == example["id"]
    assert r["win"] is example["expected"]["win"]
    w = waits(example)
    assert w["ok"] and w["waits"] == example["expected"]["waits"]


def test_score_shape() -> None:
    r = score(sit("123m456p789s1122z", "2z", id="a"))
    assert r == {
        **r,
        "id": "a",
        "ok": True,
        "ruleset": "generic",
        "win": True,
        "fans": [],
        "total": 0,
    }
    assert r["decomposition_count"] == 1
    assert r["decompositions"][0] == {
        "form": "standard",
        "groups": [["chow", "1m"], ["chow", "4p"], ["chow", "7s"], ["pair", "1z"], ["pung", "2z"]],
        "wild_as": [],
    }


def test_ruleset_argument_overrides_situation() -> None:
    s = sit("123m456p789s1122z", "2z", ruleset="nope")
    assert score(s)["error"]["code"] == "unknown_ruleset"
    assert score(s, "generic")["ok"]


def test_seven_pairs_parameter() -> None:
    s = sit("1133m5577p99s224z", "4z")
    assert score(s)["win"] is True
    assert score({**s, "params": {"seven_pairs": False}})["win"] is False
    quad = sit("1111m5577p99s224z", "4z")
    assert score(quad)["win"] is True  # four of a kind = two pairs
    assert score(quad)["decompositions"][0]["form"] == "seven_pairs"


def test_wild_reports_what_it_stands_for() -> None:
    r = score(sit("1122345m111222z", "5p", wild=["5p"]))
    assert r["win"]
    assert sorted(d["wild_as"][0] for d in r["decompositions"]) == ["1m", "2m"]


def test_melds_and_kongs() -> None:
    melds = [
        {"type": "kong", "tiles": "1111z", "exposed": False},
        {"type": "chi", "tiles": ["3m", "2m", "4m"], "exposed": True, "claimed_from": "left"},
    ]
    r = score(sit("5p678s999s", "5p", melds=melds))
    assert r["ok"] and r["win"]
    w = waits(sit("5p678s999s", melds=melds))
    assert w == {"id": None, "ok": True, "ruleset": "generic", "waits": ["5p"]}
    w = waits(sit("5p678s99s5z", melds=melds, wild=["5z"]))
    assert w["waits"] == ["3p", "4p", "5p", "6p", "7p", "9s", "5z"]


def test_meld_caps_bind_wild_tiles() -> None:
    """A wild tile cannot be a fifth copy of a kind whose pung is declared."""
    melds = [
        {"type": "pung", "tiles": "111z"},
        {"type": "pung", "tiles": "222z"},
        {"type": "pung", "tiles": "333z"},
        {"type": "pung", "tiles": "444z"},
    ]
    assert score(sit("7z", "7z", melds=melds))["win"] is True
    # 1z + wild would need a 4th... fine; a pair of 1z would need 5 copies: no.
    r = score(sit("1z", "5z", melds=melds[:3] + [{"type": "pung", "tiles": "777z"}], wild=["5z"]))
    assert r["ok"] and r["win"] is False
    r = score(sit("4z", "5z", melds=melds[:3] + [{"type": "pung", "tiles": "777z"}], wild=["5z"]))
    assert r["win"] is True


def test_wait_excludes_kind_held_four_times() -> None:
    # 1112m + 2m: waits are 2m (pair) and 3m, but all four 2m... here 2222m held
    w = waits(sit("2222m345p678s999s"))
    assert w["ok"], w
    assert "2m" not in w["waits"]


def test_every_ruleset_declares_params() -> None:
    for rs in REGISTRY.values():
        d = rs.describe()
        for p in d["params"]:
            assert p["label_zh"] and p["label_en"] and p["help_zh"] and p["help_en"]


# --- errors: every code, never an exception -------------------------------------------


@pytest.mark.parametrize(
    ("situation", "code"),
    [
        ("not a dict", "bad_input"),
        (sit("123m456p789s1122z", "2z", self_drawn="yes"), "bad_input"),
        (sit("123m456p789s1122z", "2z", seat_wind="X"), "bad_input"),
        (sit("123m456p789s1122z", "2z", flowers=9), "bad_input"),
        (sit("123m456p789s1122q", "2z"), "bad_tile"),
        (sit("123m456p789s1122z", "9z"), "bad_tile"),
        (sit("123m456p789s1122z1f", "2z"), "bad_tile"),
        (sit("11111m456p789s12z", "2z"), "too_many_copies"),
        (sit("123m456p789s2222z", "2z"), "too_many_copies"),
        (sit("123m456p789s112z", "2z"), "wrong_tile_count"),
        (sit("123m456p789s1122z"), "wrong_tile_count"),
        (sit("456p789s1122z", "2z", melds=[{"type": "chi", "tiles": "124m"}]), "illegal_meld"),
        (sit("456p789s1122z", "2z", melds=[{"type": "chi", "tiles": "123z"}]), "illegal_meld"),
        (sit("456p789s1122z", "2z", melds=[{"type": "pung", "tiles": "112m"}]), "illegal_meld"),
        (sit("456p789s1122z", "2z", melds=[{"type": "kong", "tiles": "111m"}]), "illegal_meld"),
        (sit("456p789s1122z", "2z", melds=[{"type": "gang", "tiles": "1111m"}]), "illegal_meld"),
        (
            sit("456p789s1122z", "2z", melds=[{"type": "pung", "tiles": "111m", "exposed": False}]),
            "illegal_meld",
        ),
        ({**sit("123m456p789s1122z", "2z"), "ruleset": "nope"}, "unknown_ruleset"),
        (sit("123m456p789s1122z", "2z", params={"nope": 1}), "bad_param"),
        (sit("123m456p789s1122z", "2z", params={"seven_pairs": "yes"}), "bad_param"),
        (sit("123m456p789s1122z", "2z", table={"players": 5}), "bad_table"),
        (sit("123m456p789s1122z", "2z", table={"winner": 0}), "bad_table"),
        (
            sit("123m456p789s1122z", "2z", self_drawn=True, table={"winner": 0, "discarder": 1}),
            "bad_table",
        ),
        (sit("123m456p789s1122z", "2z", table={"winner": 1, "discarder": 1}), "bad_table"),
    ],
)
def test_error_codes(situation: Any, code: str) -> None:
    r = score(situation)
    assert r["ok"] is False
    assert r["error"]["code"] == code
    assert r["error"]["message"] and r["error"]["message_zh"]


def test_not_a_win_code_is_declared() -> None:
    # generic reports win: false; the code is for rulesets that refuse a shape outright
    assert "not_a_win" in ERROR_CODES
    assert score(sit("123m456p789s1123z", "4z"))["win"] is False


def test_every_error_code_is_reachable_or_reserved() -> None:
    assert set(ERROR_CODES) >= {
        "bad_tile",
        "too_many_copies",
        "wrong_tile_count",
        "illegal_meld",
        "not_a_win",
    }


def test_waits_errors_too() -> None:
    assert waits("x")["error"]["code"] == "bad_input"
    assert waits(sit("123m"))["error"]["code"] == "wrong_tile_count"


def test_presets_are_valid_and_the_first_is_the_default() -> None:
    for rs in REGISTRY.values():
        for preset in rs.presets:
            rs.resolve_params(preset.params)  # raises on a bad preset
        if rs.presets:
            assert rs.preset("") == rs.presets[0]
            assert rs.preset("nope") is None
