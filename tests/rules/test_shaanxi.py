"""陕西: 底分 3, 放胡/自摸 A, the dealer's double on the hand part, 炮子 from every
loser (sx-d01/02/03 and the two formulas' balance), kongs at once, the special
shapes, 抢杠 as a 放胡, the discarder_pays preset, and the invariants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import api

PLAIN = ("123m456p789s234m5s", "5s")


def score(hand: tuple[str, str] = PLAIN, *, winner: int = 1, dealer: int = 0,
          discarder: int | None = 2, paozi: list[int] | None = None,
          params: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:  # fmt: skip
    out = api.score({
        "ruleset": "shaanxi", "concealed": hand[0], "win_tile": hand[1],
        "self_drawn": discarder is None, "params": params or {},
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
        "seat_inputs": {"paozi": paozi or [0, 0, 0, 0]}, **extra,
    })  # fmt: skip
    assert out.get("ok", True), out
    return out


def test_sx_d01_discard_win_no_stakes_dealer_loses() -> None:
    assert score()["deltas"] == [-6, 12, -3, -3]


def test_sx_d02_self_draw_with_stakes_and_the_winner_line() -> None:
    p = [1, 2, 0, 4]
    out = score(discarder=None, paozi=p)
    # hand 2·3·D: 12, 6, 6; stakes (1+2)·6, (0+2)·6, (4+2)·6: 18, 12, 36
    assert out["deltas"] == [-30, 90, -18, -42]
    a, b, w = 2, 3, 1
    stakes = (3 * p[w] + sum(p) - p[w]) * a * b
    assert stakes == 66 and out["deltas"][w] == stakes + a * b * (2 + 1 + 1)


def test_sx_d03_dealer_discard_win_with_stakes() -> None:
    out = score(winner=0, discarder=2, paozi=[3, 0, 1, 2])
    assert [-out["deltas"][s] for s in (1, 2, 3)] == [15, 18, 21] and out["deltas"][0] == 54


def test_the_two_formulas_balance_when_all_three_pay() -> None:
    for p in ([0, 0, 0, 0], [4, 3, 2, 1], [0, 4, 0, 4]):
        for a_self in (True, False):
            out = score(discarder=None if a_self else 3, paozi=p, dealer=2)
            a, b, w = (2 if a_self else 1), 3, 1
            hand_part = a * b * (1 + 2 + 1)  # the dealer (seat 2) pays double
            assert out["deltas"][w] == (3 * p[w] + sum(p) - p[w]) * a * b + hand_part


def test_discarder_pays_preset() -> None:
    out = score(paozi=[1, 2, 3, 0], params={"discard_payers": "discarder"})
    assert out["deltas"] == [0, 3 * (1 + 3 + 2), -3 * (1 + 3 + 2), 0]
    assert score(discarder=None, params={"discard_payers": "discarder"})["deltas"] == [
        -12, 24, -6, -6]  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "name"),
    [(("1133m5577p99s114z", "4z"), "七对"), (("19m19p19s1234567z", "1m"), "十三幺"),
     (("147m258p369s1234z", "5z"), "全不靠"), (("147m258p369s11z23s", "4s"), "组合龙")],
)  # fmt: skip
def test_special_shapes_win_and_score_as_any_win(hand: tuple[str, str], name: str) -> None:
    out = score(hand)
    assert out["fans"][0]["name_zh"] == name and out["deltas"] == [-6, 12, -3, -3]
    off = api.score({"ruleset": "shaanxi", "concealed": hand[0], "win_tile": hand[1],
                     "params": {"special_shapes": False}})  # fmt: skip
    assert off["win"] is False


def test_robbing_a_kong_is_a_discard_win() -> None:
    out = score(discarder=3, robbing_kong=True)
    assert out["deltas"] == [-6, 12, -3, -3] and "抢杠" in out["notes_zh"][0]


def test_no_chi_by_default() -> None:
    chi = [{"type": "chi", "tiles": "123m"}]
    out = api.score({"ruleset": "shaanxi", "concealed": "456p789s234m5s", "win_tile": "5s",
                     "melds": chi})  # fmt: skip
    assert out["ok"] is False and out["error"]["code"] == "illegal_meld"
    assert api.score({"ruleset": "shaanxi", "concealed": "456p789s234m5s", "win_tile": "5s",
                      "melds": chi, "params": {"chi": True}})["win"] is True  # fmt: skip


def _round(events: list[dict[str, Any]]) -> dict[str, Any]:
    r = api.settle({"ruleset": "shaanxi", "players": 4, "dealer": 0, "events": events})
    assert r["ok"], r
    return r


def test_kongs_are_paid_at_once_and_never_doubled() -> None:
    r = _round([
        {"type": "kong", "player": 0, "kong": "concealed"},
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 3},
        {"type": "kong", "player": 2, "kong": "added"},
        {"type": "draw"},
    ])  # fmt: skip
    # dealer's 暗杠 6 from each (not doubled); 放杠 6 from seat 3; 明杠 3 from each
    assert r["events"][0]["deltas"] == [18, -6, -6, -6]
    assert r["events"][1]["deltas"] == [0, 6, 0, -6]
    assert r["events"][2]["deltas"] == [-3, -3, 9, -3]
    assert r["deltas"] == [15, -3, 3, -15]  # the kong money stands on 荒庄


def test_a_round_with_stakes_and_a_kong() -> None:
    r = _round([
        {"type": "kong", "player": 1, "kong": "concealed"},
        {"type": "win", "discarder": None, "seat_inputs": {"paozi": [1, 2, 0, 4]},
         "winners": [{"seat": 1, "hand": {"concealed": PLAIN[0], "win_tile": PLAIN[1]}}]},
    ])  # fmt: skip
    assert r["deltas"] == [-6 - 30, 18 + 90, -6 - 18, -6 - 42]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.sampled_from([None, 0, 1, 2, 3]),
       st.lists(st.integers(0, 4), min_size=4, max_size=4),
       st.sampled_from(["all", "discarder"]))  # fmt: skip
def test_invariants(winner: int, dealer: int, discarder: int | None, p: list[int],
                    payers: str) -> None:  # fmt: skip
    if discarder == winner:
        discarder = None
    prm = {"discard_payers": payers}
    out = score(winner=winner, dealer=dealer, discarder=discarder, paozi=p, params=prm)
    assert sum(out["deltas"]) == 0
    assert all(x["from"] != winner for x in out["payments"]) and out["deltas"][winner] > 0
    more = [x + (1 if i == winner and x < 4 else 0) for i, x in enumerate(p)]
    assert score(winner=winner, dealer=dealer, discarder=discarder, paozi=more,
                 params=prm)["deltas"][winner] >= out["deltas"][winner]  # fmt: skip
    if discarder is not None and payers == "all":
        drawn = score(winner=winner, dealer=dealer, discarder=None, paozi=p, params=prm)
        assert drawn["deltas"][winner] >= out["deltas"][winner]
