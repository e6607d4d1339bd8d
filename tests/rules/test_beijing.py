"""北京: the basic and new cards (bj-d02/03/06/12 and every value and item),
混儿 from the turned tile, the meld limit and the discard ban, 三混/四混, 炸胡."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import api
from rules.registry import get_ruleset

RS = get_ruleset("beijing")
NEW = dict(RS.preset("new").params)  # type: ignore[union-attr]


def score(concealed: str, win: str, *, new: bool = False, winner: int = 1, dealer: int = 0,
          discarder: int | None = 2, melds: list[Any] | None = None,
          params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:  # fmt: skip
    sit: dict[str, Any] = {
        "ruleset": "beijing", "concealed": concealed, "win_tile": win, "melds": melds or [],
        "self_drawn": discarder is None, "params": {**(NEW if new else {}), **(params or {})},
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
        **extra,
    }  # fmt: skip
    out = api.score(sit)
    assert out.get("ok", True), out
    return out


def names(out: dict[str, Any]) -> list[str]:
    return sorted(f["name_zh"] for f in out["fans"])


def test_bj_d02_concealed_no_wild_on_a_discard() -> None:
    out = score("123m456p789s23m55z", "4m")
    assert names(out) == ["无混儿", "门前清"] and out["deltas"] == [0, 4, -4, 0]


def test_bj_d03_dealer_self_draws_seven_pairs() -> None:
    out = score("1133m5577p99s114z", "4z", winner=0, discarder=None)
    assert names(out) == ["七巧对", "无混儿", "门前清"]
    assert out["deltas"] == [48, -16, -16, -16]


def test_bj_d06_zhuo_wu_kui_on_the_dealers_discard() -> None:
    out = score("46m456p789s234s55z", "5m", discarder=0)
    assert names(out) == ["捉五魁", "无混儿", "门前清"]
    assert out["deltas"] == [-16, 16, 0, 0]


def test_zhuo_wu_kui_needs_the_only_wait() -> None:
    # 3m 4m 6m ... : 5m closes 456m but 2m/… also wait? 4566m waits 5m and 6m
    out = score("4566m456p789s234s", "5m")
    assert "捉五魁" not in names(out)


def test_bj_d12_new_concealed_self_draw() -> None:
    out = score("123m456p789s23m55z", "4m", new=True, discarder=None)
    assert names(out) == ["明自摸", "门前清"]
    assert out["deltas"] == [-40, 80, -20, -20]


def test_the_laizi_comes_from_the_turned_tile() -> None:
    spec = RS.table()
    assert spec.wilds.mode == "turned" and spec.wilds.turned_rule == "next"
    # 中 → 发 → 白 → 中 and 北 → 东
    r = api.settle({"ruleset": "beijing", "players": 4, "dealer": 0, "turned": "7z",
                    "events": [{"type": "win", "discarder": None, "winners": [{"seat": 1, "hand": {
                        "concealed": "123m456p789s23m66z", "win_tile": "4m"}}]}]})  # fmt: skip
    assert r["ok"], r
    win = r["events"][0]["winners"][0]
    assert "无混儿" not in [f["name_zh"] for f in win["fans"]]


def test_a_wild_tile_stands_in_and_costs_wuhun() -> None:
    plain = score("123m456p789s23m55z", "4m", discarder=None)
    wild = score("123m456p789s23m5z4p", "4m", discarder=None, wild=["4p"])
    assert wild["win"] and "无混儿" in names(plain) and "无混儿" not in names(wild)
    assert wild["total"] * 2 == plain["total"]


def test_luxury_seven_pairs_with_four_alike() -> None:
    out = score("1111m5577p99s114z", "4z", discarder=None)
    assert names(out) == ["七巧对", "无混儿", "豪华", "门前清"]
    assert score("1111m5577p99s114z", "4z", new=True, discarder=None)["total"] == 5 * 8


def test_pure_straight_and_pure_extra() -> None:
    hand, win = "123456789m123p5s", "5s"
    out = score(hand, win)
    assert names(out) == ["一条龙", "无混儿", "门前清"] and out["total"] == 8
    extra = score(hand, win, params={"pure_extra": True})
    assert extra["total"] == 16 and "一条龙无混儿加番" in names(extra)
    assert "一条龙" not in names(score(hand, win, new=True))


def test_one_chi_or_pung_one_more_per_kong() -> None:
    two = [{"type": "pung", "tiles": "111z"}, {"type": "chi", "tiles": "123m"}]
    out = api.score({"ruleset": "beijing", "concealed": "456p789s5s", "win_tile": "5s",
                     "self_drawn": True, "melds": two})  # fmt: skip
    assert out["ok"] is False and out["error"]["code"] == "illegal_meld"
    with_kong = [*two, {"type": "kong", "tiles": "9999p", "exposed": False}]
    assert api.score({"ruleset": "beijing", "concealed": "456p5s", "win_tile": "5s",
                      "self_drawn": True, "melds": with_kong})["win"] is True  # fmt: skip


def test_after_a_chi_or_pung_only_a_self_draw_wins() -> None:
    pung = [{"type": "pung", "tiles": "111z"}]
    assert score("123m456p789s5s", "5s", melds=pung)["win"] is False
    assert score("123m456p789s5s", "5s", melds=pung, discarder=None)["win"] is True
    exposed_kong = [{"type": "kong", "tiles": "1111z"}]
    out = score("123m456p789s5s", "5s", melds=exposed_kong)
    assert out["win"] is True and "门前清" not in names(out)
    assert score("123m456p789s5s", "5s", melds=pung,
                 params={"open_hand_discard_win": True})["win"] is True  # fmt: skip


def test_three_wilds_only_self_drawn() -> None:
    hand = "123m456p789s1m444z"  # 4z wild when 3z is turned … given directly here
    assert score(hand, "1m", wild=["4z"])["win"] is False
    assert score(hand, "1m", wild=["4z"], discarder=None)["win"] is True
    assert score(hand, "1m", wild=["4z"], new=True)["win"] is True


def test_a_player_who_discarded_a_wild_tile_may_not_win() -> None:
    out = score("123m456p789s23m55z", "4m", discarded_wild=True)
    assert out["win"] is False and "混儿" in out["notes_zh"][0]


def _round(events: list[dict[str, Any]], params: dict[str, Any] | None = None) -> dict[str, Any]:
    r = api.settle({"ruleset": "beijing", "players": 4, "dealer": 0, "turned": "9s",
                    "params": params or {}, "events": events})  # fmt: skip
    assert r["ok"], r
    return r


def test_four_wilds_paid_by_each_outside_the_hand() -> None:
    r = _round([{"type": "draw", "seat_inputs": {"hun": [0, 0, 4, 0]}}])
    assert r["deltas"] == [-40, -40, 120, -40]
    # the new card does not pay four wild tiles, and its table does not ask them
    refused = api.settle(
        {
            "ruleset": "beijing",
            "players": 4,
            "dealer": 0,
            "turned": "9s",
            "params": NEW,
            "events": [{"type": "draw", "seat_inputs": {"hun": [0, 0, 4, 0]}}],
        }
    )
    assert refused["ok"] is False and refused["error"]["code"] == "bad_input"


def test_false_win_pays_ten_to_each() -> None:
    r = _round([{"type": "draw", "seat_inputs": {"zhahu": [0, 1, 0, 0]}}])
    assert r["deltas"] == [10, -30, 10, 10]


def test_kongs_paid_by_each_other_player_and_not_on_a_draw() -> None:
    r = _round([{"type": "win", "discarder": 2, "seat_inputs": {"an_gang": [1, 0, 0, 0]},
                 "winners": [{"seat": 1, "hand": {"concealed": "123m456p789s23m55z",
                                                  "win_tile": "4m"}}]}])  # fmt: skip
    # win 4 from seat 2; seat 0's concealed kong 4 from each
    assert r["deltas"] == [12, 0, -8, -4]
    assert _round([{"type": "draw", "seat_inputs": {}}])["deltas"] == [0] * 4


HANDS = [("123m456p789s23m55z", "4m"), ("1133m5577p99s114z", "4z"), ("46m456p789s234s55z", "5m"),
         ("123456789m123p5s", "5s")]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(HANDS), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from([None, 0, 1, 2, 3]), st.booleans(),
       st.sampled_from(["discarder", "discarder_all", "all"]))  # fmt: skip
def test_invariants(h: tuple[str, str], winner: int, dealer: int, discarder: int | None,
                    new: bool, payer: str) -> None:  # fmt: skip
    if discarder == winner:
        discarder = None
    p = {"discard_payer": payer}
    out = score(*h, new=new, winner=winner, dealer=dealer, discarder=discarder, params=p)
    assert out["win"] and sum(out["deltas"]) == 0
    assert all(x["from"] != winner for x in out["payments"])
    more = score(*h, new=new, winner=winner, dealer=dealer, discarder=discarder,
                 params={**p, "x_zimo": True, "x_menqing": True})  # fmt: skip
    assert more["deltas"][winner] >= out["deltas"][winner]


@pytest.mark.parametrize("preset", ["basic", "new"])
def test_presets_resolve(preset: str) -> None:
    p = RS.preset(preset)
    assert p is not None and RS.resolve_params(dict(p.params))
