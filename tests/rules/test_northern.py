"""河北 and 山东: the cards' values, doublings and every worked case of the readings
(hb-d02/04/05/07, sd-d01/02/06/07/12), 杠随胡 against independent kongs, the special
sets, the 2/5/8 pair, 边/砍/吊, who pays a discard, and the invariants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import api, doubling
from rules.registry import get_ruleset

PRESETS = {
    ("hebei", "basic1"): {},
    ("hebei", "basic2"): dict(get_ruleset("hebei").preset("basic2").params),  # type: ignore[union-attr]
    ("shandong", "basic1"): {},
    ("shandong", "basic2"): dict(get_ruleset("shandong").preset("basic2").params),  # type: ignore[union-attr]
}


def score(rs: str, concealed: str, win: str, *, preset: str = "basic1", winner: int = 1,
          dealer: int = 0, discarder: int | None = 2, melds: list[Any] | None = None,
          params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:  # fmt: skip
    sit: dict[str, Any] = {
        "ruleset": rs, "concealed": concealed, "win_tile": win, "melds": melds or [],
        "self_drawn": discarder is None,
        "params": {**PRESETS[(rs, preset)], **(params or {})},
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
        **extra,
    }  # fmt: skip
    out = api.score(sit)
    assert out.get("ok", True), out
    return out


PLAIN = "123m456p789s234m5s"  # a plain hand waiting on 5s (pair 55s)
ADDED_KONG = {"type": "kong", "tiles": "3333p", "added": True}


def test_hb_d02_self_drawn_plain_win() -> None:
    out = score("hebei", PLAIN, "5s", discarder=None)
    assert [f["name_zh"] for f in out["fans"]] == ["明自摸"]
    assert out["deltas"] == [-20, 40, -10, -10]


def test_hb_d04_gangci_after_own_added_kong() -> None:
    out = score("hebei", "123m456p789s5s", "5s", discarder=None, melds=[ADDED_KONG],
                after_kong=True)  # fmt: skip
    assert sorted(f["name_zh"] for f in out["fans"]) == ["明自摸", "杠呲"]
    assert out["deltas"] == [-45, 95, -25, -25]


def test_hb_d05_winners_concealed_kong_on_a_discard() -> None:
    kong = {"type": "kong", "tiles": "3333p", "exposed": False}
    out = score("hebei", "123m456p789s5s", "5s", discarder=2, melds=[kong])
    assert out["deltas"] == [0, 15, -15, 0]


def test_hb_d07_basic2_self_draw_has_no_zimo_double() -> None:
    out = score("hebei", PLAIN, "5s", discarder=None, preset="basic2")
    assert out["fans"] == []
    assert out["deltas"] == [-20, 40, -10, -10]


def test_hebei_loser_kongs_pay_nothing_under_gang_sui_hu() -> None:
    out = score("hebei", PLAIN, "5s")
    assert out["deltas"] == [0, 5, -5, 0]
    # 杠随胡 asks no loser's kongs: given, they are refused (as settle refuses them),
    # never silently dropped.
    sit = {"ruleset": "hebei", "concealed": PLAIN, "win_tile": "5s",
           "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
           "seat_inputs": {"ming_gang": [1, 0, 1, 0]}}  # fmt: skip
    out = api.score(sit)
    assert out["ok"] is False and out["error"]["code"] == "bad_input"
    assert "ming_gang" in out["error"]["message"]


def test_hebei_independent_kongs_parameter() -> None:
    out = score("hebei", PLAIN, "5s", params={"kong_settlement": "independent"},
                seat_inputs={"ming_gang": [1, 0, 0, 0], "an_gang": [0, 0, 0, 1]})  # fmt: skip
    # win 5 from seat 2; seat 0's exposed kong 5 from each; seat 3's concealed 10 from each
    assert out["deltas"] == [15 - 10, 5 - 5 - 10, -5 - 5 - 10, -5 + 30]


def test_hebei_refuses_chi() -> None:
    out = api.score({"ruleset": "hebei", "concealed": "456p789s234m5s", "win_tile": "5s",
                     "melds": [{"type": "chi", "tiles": "123m"}]})  # fmt: skip
    assert out["ok"] is False and out["error"]["code"] == "illegal_meld"
    assert "吃" in out["error"]["message_zh"]


def test_seven_pairs_doubles() -> None:
    out = score("hebei", "1133m5577p99s114z", "4z")
    assert [f["name_zh"] for f in out["fans"]] == ["七巧对"]
    assert out["deltas"] == [0, 10, -10, 0]


@pytest.mark.parametrize("rs", ["hebei", "shandong"])
def test_special_sets_are_off_by_default_and_concealed_only(rs: str) -> None:
    hand, win = "567z123m456p789p5s", "5s"  # 白发中 as a set, 55s pair
    assert api.score({"ruleset": rs, "concealed": hand, "win_tile": win})["win"] is False
    on = score(rs, hand, win, params={"special_sets": "zfb"})
    assert on["win"] is True and on["total"] == 5
    peacock = score(rs, "1s12z123m456p789p5s", "5s", params={"special_sets": "peacock"})
    assert peacock["win"] is True
    assert api.score({"ruleset": rs, "concealed": "1s12z123m456p789p5s", "win_tile": "5s",
                      "params": {"special_sets": "zfb"}})["win"] is False  # fmt: skip


def test_special_sets_play_no_part_in_seven_pairs() -> None:
    # 七巧对 is pairs only; 白发中 is no pair: not a win, with or without the sets
    out = api.score({"ruleset": "hebei", "concealed": "567z1133m5577p99s", "win_tile": "5z",
                     "params": {"special_sets": "both"}})  # fmt: skip
    assert out["win"] is False


def test_special_sets_waits() -> None:
    w = api.waits({"ruleset": "hebei", "concealed": "56z123m456p789p55s",
                   "params": {"special_sets": "zfb"}})  # fmt: skip
    assert "7z" in w["waits"]


# --------------------------------------------------------------------- 山东


def test_sd_d01_plain_258_pair_on_a_discard() -> None:
    out = score("shandong", "123m456p789s234m5s", "5s")
    assert out["deltas"] == [0, 5, -5, 0]


def test_sd_d02_pair_of_3_is_not_a_win() -> None:
    out = api.score({"ruleset": "shandong", "concealed": "123m456p789s234s3m", "win_tile": "3m"})
    assert out["win"] is False and "2、5、8" in out["notes_zh"][0]


def test_shandong_seven_pairs_need_no_258() -> None:
    assert score("shandong", "1133m5577p99s114z", "4z")["win"] is True
    strict = api.score({"ruleset": "shandong", "concealed": "1133m5577p99s114z", "win_tile": "4z",
                        "params": {"seven_pairs_258": True}})  # fmt: skip
    assert strict["win"] is False


def test_sd_d06_edge_self_drawn() -> None:
    out = score("shandong", "12m456p789s234s55m", "3m", preset="basic2", discarder=None)
    assert sorted(f["name_zh"] for f in out["fans"]) == ["明自摸", "边砍吊自摸"]
    assert out["deltas"] == [-80, 160, -40, -40]


def test_sd_d07_dealer_closed_self_drawn() -> None:
    out = score("shandong", "46p123m789s234s55m", "5p", preset="basic2", discarder=None,
                winner=0)  # fmt: skip
    assert out["deltas"] == [240, -80, -80, -80]


def test_sd_d12_two_sided_self_draw() -> None:
    out = score("shandong", "23m456p789s234s55m", "4m", preset="basic2", discarder=None)
    assert [f["name_zh"] for f in out["fans"]] == ["明自摸"]
    assert out["deltas"] == [-40, 80, -20, -20]


def test_single_wait_on_the_pair_self_drawn() -> None:
    out = score("shandong", "123m456p789s234s5m", "5m", preset="basic2", discarder=None)
    assert "边砍吊自摸" in [f["name_zh"] for f in out["fans"]]


def test_bian_kan_diao_only_self_drawn_and_not_basic1() -> None:
    assert score("shandong", "12m456p789s234s55m", "3m", preset="basic2")["total"] == 10
    assert score("shandong", "12m456p789s234s55m", "3m", discarder=None)["total"] == 10


def test_shandong_kongs_are_paid_by_each_other_player() -> None:
    out = score("shandong", PLAIN, "5s", seat_inputs={"an_gang": [0, 0, 0, 1]})
    assert out["deltas"] == [-10, 5 - 10, -5 - 10, 30]


@pytest.mark.parametrize(
    ("rule", "deltas"),
    [("discarder", [0, 5, -5, 0]), ("discarder_all", [0, 20, -20, 0]),
     ("all", [-10, 20, -5, -5])],
)  # fmt: skip
def test_who_pays_a_discard_win(rule: str, deltas: list[int]) -> None:
    assert score("shandong", PLAIN, "5s", params={"discard_payer": rule})["deltas"] == deltas


def test_a_dealer_discarder_pays_double() -> None:
    assert score("shandong", PLAIN, "5s", discarder=0)["deltas"] == [-10, 10, 0, 0]


HANDS = [
    ("123m456p789s234m5s", "5s", []),
    ("1133m5577p99s114z", "4z", []),
    ("12m456p789s234s55m", "3m", []),
    ("123m456p789s5s", "5s", [ADDED_KONG]),
    ("123m456p789s5s", "5s", [{"type": "kong", "tiles": "3333p", "exposed": False}]),
]


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)), st.sampled_from(HANDS), st.integers(0, 3),
    st.integers(0, 3), st.sampled_from([None, 0, 1, 2, 3]),
    st.sampled_from(doubling.PAYERS), st.sampled_from(doubling.KONG_RULES),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
)  # fmt: skip
def test_invariants(key: tuple[str, str], h: Any, winner: int, dealer: int,
                    discarder: int | None, payer: str, kongs: str, ming: list[int]) -> None:  # fmt: skip
    rs, preset = key
    if discarder == winner:
        discarder = None
    params = {"discard_payer": payer, "kong_settlement": kongs}
    # The others' kongs are asked (and taken) only where each is paid.
    inputs = {"seat_inputs": {"ming_gang": ming}} if kongs == "independent" else {}
    out = score(rs, h[0], h[1], preset=preset, winner=winner, dealer=dealer,
                discarder=discarder, melds=h[2], params=params, **inputs)  # fmt: skip
    if not out["win"]:
        return
    assert sum(out["deltas"]) == 0
    # the winner never pays for his own win (he may pay another's kong), and the
    # win brings him at least one share
    wins = [p for p in out["payments"] if p["reason"] == "win"]
    assert all(p["from"] != winner and p["to"] == winner for p in wins)
    assert sum(p["amount"] for p in wins) >= out["total"]
    # one more ×2 never pays less: the same hand with the dealer double off pays no more
    off = score(rs, h[0], h[1], preset=preset, winner=winner, dealer=dealer,
                discarder=discarder, melds=h[2], params={**params, "dealer_double": False},
                **inputs)  # fmt: skip
    assert off["deltas"][winner] <= out["deltas"][winner]


@given(st.integers(1, 50))
def test_a_higher_doubling_never_pays_less(p: int) -> None:
    a = score("shandong", PLAIN, "5s", params={"pinghu": p})
    b = score("shandong", "12m456p789s234s55m", "3m", params={"pinghu": p, "x_biankandiao": True,
              "x_menqing": True}, discarder=None)  # fmt: skip
    assert b["total"] == 8 * a["total"] and b["deltas"][1] >= a["deltas"][1]
