"""自定义规则 (house): shapes as generic, wild tiles, every payment worked by hand.

Amounts are worked out here from the rules in docs/rules/house.md (points per
win; the discarder pays them, or each other player points × the multiplier on
a self-draw; the dealer bonus on every payment the dealer makes or receives;
kongs paid at once), never read back from a run.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import get_ruleset, score, settle, waits
from rules.table import next_kind
from rules.tiles import parse_tile, tile_str
from tests.support.cli import run

HOUSE = get_ruleset("house")
# 123m 456p 789p 234s + 7s7s: four sets and a pair, no honors.
PLAIN = {"concealed": "123m456p789p234s7s", "win_tile": "7s"}


def win(seat: int, discarder: int | None, hand: dict[str, Any], **flags: Any) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, **flags,
            "winners": [{"seat": seat, "hand": hand}]}  # fmt: skip


def kong(player: int, kind: str, discarder: int | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind}
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


def rnd(
    *events: dict[str, Any], dealer: int = 0, players: int = 4, **params: Any
) -> dict[str, Any]:
    r = settle({"ruleset": "house", "params": params, "players": players, "dealer": dealer,
                "events": list(events)})  # fmt: skip
    assert r["ok"], r
    return r


# ------------------------------------------------------------------ payments


def test_discard_win_the_discarder_pays_the_points() -> None:
    r = rnd(win(1, 2, PLAIN), points=3)
    assert r["deltas"] == [0, 3, -3, 0] and r["finished"]


def test_self_draw_every_other_player_pays_points_times_the_multiplier() -> None:
    r = rnd(win(1, None, PLAIN), points=3, self_draw_multiplier=2)
    assert r["deltas"] == [-6, 18, -6, -6]


def test_dealer_bonus_on_what_the_dealer_receives() -> None:
    # The dealer (seat 0) self-draws: each of three pays 1 × 2 + 5.
    r = rnd(win(0, None, PLAIN), dealer=0, dealer_bonus=5)
    assert r["deltas"] == [21, -7, -7, -7]


def test_dealer_bonus_on_what_the_dealer_pays() -> None:
    # Seat 1 self-draws: the dealer (seat 2) pays 2 + 5, the others 2.
    r = rnd(win(1, None, PLAIN), dealer=2, dealer_bonus=5)
    assert r["deltas"] == [-2, 11, -7, -2]
    # Seat 1 wins on the dealer's discard: 1 + 5.
    r = rnd(win(1, 2, PLAIN), dealer=2, dealer_bonus=5)
    assert r["deltas"] == [0, 6, -6, 0]
    # Neither the winner nor the discarder deals: no bonus.
    r = rnd(win(1, 3, PLAIN), dealer=0, dealer_bonus=5)
    assert r["deltas"] == [0, 1, 0, -1]


@pytest.mark.parametrize(
    ("event", "deltas"),
    [
        (kong(0, "exposed", 3), [4, 0, 0, -4]),  # kong_exposed 4 from the discarder
        (kong(0, "added"), [3, -1, -1, -1]),  # kong_added 1 from each other player
        (kong(0, "concealed"), [6, -2, -2, -2]),  # kong_concealed 2 from each other player
    ],
)
def test_kongs_are_paid_at_once(event: dict[str, Any], deltas: list[int]) -> None:
    r = rnd(event, kong_exposed=4)
    assert r["deltas"] == deltas and not r["finished"]
    assert r["transfers"][0]["reason"] == f"kong_{event['kong']}"


def test_a_kong_then_a_win_in_one_round() -> None:
    r = rnd(kong(2, "concealed"), win(1, 2, PLAIN), points=10)
    # 暗杠: 2 from each of 0, 1, 3 to seat 2; then seat 2 pays 10 for the discard.
    assert r["deltas"] == [-2, 10 - 2, 6 - 10, -2]
    assert [e["deltas"] for e in r["events"]] == [[-2, -2, 6, -2], [0, 10, -10, 0]]
    assert r["finished"] and r["out"] == [1]


def test_a_drawn_game_pays_nothing_and_ends_the_round() -> None:
    r = rnd(kong(3, "added"), {"type": "draw"})
    assert r["deltas"] == [-1, -1, -1, 3] and r["finished"]


def test_nothing_after_the_round_is_over() -> None:
    r = settle({"ruleset": "house", "events": [win(1, 2, PLAIN), kong(0, "concealed")]})
    assert not r["ok"] and r["error"]["code"] == "bad_event"
    assert r["error"]["message"] and r["error"]["message_zh"]


# ------------------------------------------------------------------ wild tiles


def test_red_dragons_are_wild_in_that_preset() -> None:
    # 123m 456p 789p 234s + 7s and a 红中 standing for the second 7s.
    hand = {"concealed": "123m456p789p234s7s", "win_tile": "7z"}
    r = rnd(win(1, 2, hand), wild="red_dragon")
    assert r["deltas"] == [0, 1, -1, 0]
    # Without the wild the same tiles do not win: a 400 for the round, not a payment.
    plain = settle({"ruleset": "house", "events": [win(1, 2, hand)]})
    assert not plain["ok"] and plain["error"]["code"] == "not_a_win"


@pytest.mark.parametrize(
    ("turned", "wild"),
    [("4m", "5m"), ("9m", "1m"), ("9s", "1s"), ("4z", "1z"), ("7z", "5z"), ("2z", "3z")],
)
def test_the_turned_tile_makes_the_next_kind_wild(turned: str, wild: str) -> None:
    assert tile_str(next_kind(parse_tile(turned))) == wild
    hand = {"concealed": "123m456p789p234s7s", "win_tile": wild}
    if wild == "1m":  # the hand holds a natural 1m: the wild one is the fourth tile kind
        hand = {"concealed": "123m456p789p234s7s", "win_tile": "1m"}
    r = settle({"ruleset": "house", "params": {"wild": "turned_next"}, "turned": turned,
                "events": [win(1, None, hand)]})  # fmt: skip
    assert r["ok"], r
    assert r["deltas"] == [-2, 6, -2, -2]


def test_turned_same_makes_the_turned_kind_wild() -> None:
    hand = {"concealed": "123m456p789p234s7s", "win_tile": "4m"}
    r = settle({"ruleset": "house", "params": {"wild": "turned_same"}, "turned": "4m",
                "events": [win(1, 2, hand)]})  # fmt: skip
    assert r["ok"] and r["deltas"] == [0, 1, -1, 0]


def test_a_round_with_turned_wild_tiles_needs_the_turned_tile() -> None:
    r = settle(
        {"ruleset": "house", "params": {"wild": "turned_next"}, "events": [win(1, 2, PLAIN)]}
    )
    assert not r["ok"] and r["error"]["code"] == "bad_input" and "翻" in r["error"]["message_zh"]


def test_waits_count_the_wild_tiles() -> None:
    # Four sets and a wild 5m: any tile pairs with the wild one, so every kind is a wait.
    w = waits({"ruleset": "house", "concealed": "123m456p789p234s5m", "wild": ["5m"]})
    assert w["ok"] and {"7s", "1z", "9m"} <= set(w["waits"])
    # Without the wild the 5m waits only on itself (the pair).
    w = waits({"ruleset": "house", "concealed": "123m456p789p234s5m"})
    assert w["ok"] and w["waits"] == ["5m"]


# ------------------------------------------------------------------ shapes and the table


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
        lambda ts: all(ts.count(t) <= 4 for t in ts)
    ),
    st.booleans(),
)
def test_house_wins_exactly_when_generic_does(tiles: list[int], seven: bool) -> None:
    concealed = "".join(tile_str(t) for t in sorted(tiles[:-1]))
    sit = {"concealed": concealed, "win_tile": tile_str(tiles[-1]),
           "params": {"seven_pairs": seven}}  # fmt: skip
    g = score({**sit, "ruleset": "generic"})
    h = score({**sit, "ruleset": "house"})
    assert g["ok"] and h["ok"]
    assert h["win"] is g["win"]
    assert h["decomposition_count"] == g["decomposition_count"]
    assert h["total"] == (1 if h["win"] else 0)


def test_the_table_follows_the_parameters() -> None:
    t = HOUSE.table(HOUSE.resolve_params({"honors": False, "chi": False, "wild": "red_dragon"}))
    assert t.tiles == tuple(range(27)) and not t.chi and not t.prevalent_wind
    assert t.wilds.mode == "none"  # no 红中 without the honors
    assert t.event_ids == ("win", "kong", "draw") and t.stepwise
    t = HOUSE.table(HOUSE.resolve_params({"wild": "turned_next"}))
    assert t.wilds.mode == "turned" and t.melds[0] == "chi"


def test_honors_and_chi_are_refused_when_the_table_has_none() -> None:
    r = score({"ruleset": "house", "params": {"honors": False},
               "concealed": "123m456p789p234s1z", "win_tile": "1z"})  # fmt: skip
    assert not r["ok"] and r["error"]["code"] == "bad_tile" and r["error"]["message_zh"]
    r = score({"ruleset": "house", "params": {"chi": False}, "concealed": "456p789p234s7s",
               "win_tile": "7s", "melds": [{"type": "chi", "tiles": "123m"}]})  # fmt: skip
    assert not r["ok"] and r["error"]["code"] == "illegal_meld"


@pytest.mark.parametrize(
    "params", [{"points": -1}, {"self_draw_multiplier": 0}, {"wild": "jokers"}, {"nope": 1}]
)
def test_bad_parameters_are_refused(params: dict[str, Any]) -> None:
    r = settle({"ruleset": "house", "params": params, "events": [win(1, 2, PLAIN)]})
    assert not r["ok"] and r["error"]["code"] == "bad_param" and r["error"]["message_zh"]


@pytest.mark.parametrize(
    ("repeats", "winners", "expected"),
    [(True, [0], 0), (True, [], 0), (True, [2], 1), (False, [0], 1), (False, [], 1)],
)
def test_next_dealer(repeats: bool, winners: list[int], expected: int) -> None:
    params = HOUSE.resolve_params({"dealer_repeats": repeats})
    assert HOUSE.next_dealer(0, 4, winners, params) == expected


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from(["exposed", "added", "concealed"]),
                  st.integers(0, 3)),
        max_size=4,
    ),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(0, 3)),
    st.integers(0, 3),
    st.integers(0, 20),
)  # fmt: skip
def test_every_round_sums_to_zero(
    kongs: list[tuple[int, str, int]], winner: int, discarder: int | None, dealer: int, bonus: int
) -> None:
    events = [kong(p, k, d if d != p else (p + 1) % 4) if k == "exposed" else kong(p, k)
              for p, k, d in kongs]  # fmt: skip
    if discarder == winner:
        discarder = None
    events.append(win(winner, discarder, PLAIN))
    r = rnd(*events, dealer=dealer, dealer_bonus=bonus)
    assert sum(r["deltas"]) == 0
    assert sum(sum(e["deltas"]) for e in r["events"]) == 0
    assert r["deltas"][winner] >= -sum(4 for _ in kongs) * 2  # a winner pays only kongs


# ------------------------------------------------------------------ the doc's worked example


DOC_ROUND = {
    "id": "doc",
    "ruleset": "house",
    "params": {"wild": "turned_next", "points": 2},
    "players": 4,
    "dealer": 0,
    "turned": "4m",
    "events": [
        {"type": "kong", "player": 3, "kong": "concealed", "tile": "9p"},
        {"type": "win", "discarder": None,
         "winners": [{"seat": 1, "hand": {"concealed": "123m456p789s234s7s", "win_tile": "5m"}}]},
    ],
}  # fmt: skip


def test_the_docs_worked_example() -> None:
    r = settle(DOC_ROUND)
    assert r["ok"], r
    # 暗杠 by seat 3: 2 from each other player; then seat 1 self-draws with the wild
    # 5m (the kind after the turned 4m) standing for 7s: 2 × 2 = 4 from each other player.
    assert [e["deltas"] for e in r["events"]] == [[-2, -2, -2, 6], [-4, 12, -4, -4]]
    assert r["deltas"] == [-6, 10, -6, 2]
    assert r["finished"] and r["out"] == [1]


def test_the_cli_settles_the_docs_example() -> None:
    p = run("settle", stdin=json.dumps(DOC_ROUND, ensure_ascii=False) + "\n")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["id"] == "doc" and out["deltas"] == [-6, 10, -6, 2]
