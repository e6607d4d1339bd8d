"""Per-seat inputs judged by one function whatever the verb: `score`, `is_win`, `waits`
and `settle` take and refuse exactly the same values, a count the hand shows is
derived or checked by the engine (北京's 混儿, 吉安's 精), and 武汉's openings are never
fewer than the 明杠 (a 明杠 is an opening)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import api
from rules.registry import REGISTRY
from tests.support.cli import run

# One winning round per ruleset that asks per-seat inputs: (params, turned,
# winner, discarder, the winner's hand).
CASES: dict[str, tuple[dict[str, Any], str | None, int, int | None, dict[str, Any]]] = {
    "wuhan": ({}, "5m", 1, 2, {
        "concealed": "345m567s8p", "win_tile": "8p",
        "melds": [{"type": "chi", "tiles": "234p", "claimed_from": "left"},
                  {"type": "kong", "tiles": "9999m", "added": True, "claimed_from": "right"}]}),
    "beijing": ({}, "9s", 1, 2, {"concealed": "123m456p789s23m5z1s", "win_tile": "4m"}),
    "shaanxi": ({}, None, 1, None, {"concealed": "123m456p789s234m5s", "win_tile": "5s"}),
    "hebei": ({"kong_settlement": "independent"}, None, 1, 2, {
        "concealed": "123m456p789s5s", "win_tile": "5s",
        "melds": [{"type": "kong", "tiles": "3333p", "exposed": False}]}),
    "shandong": ({"kong_settlement": "independent"}, None, 1, 2,
                 {"concealed": "123m456p789s234m5s", "win_tile": "5s"}),
    "jian": ({}, "7p", 1, 2, {"concealed": "111m222p333s44s55z", "win_tile": "5z"}),
}  # fmt: skip
# Where money moves at the round's end too (精分, 四张混), settle's deltas add it.
ROUND_END = {"beijing", "jian"}


def round_of(rid: str, seat_inputs: Any = None, **hand_extra: Any) -> dict[str, Any]:
    params, turned, winner, discarder, hand = CASES[rid]
    ev: dict[str, Any] = {"type": "win", "discarder": discarder,
                          "winners": [{"seat": winner, "hand": {**hand, **hand_extra}}]}  # fmt: skip
    if seat_inputs is not None:
        ev["seat_inputs"] = seat_inputs
    rnd: dict[str, Any] = {"ruleset": rid, "params": params, "dealer": 0, "events": [ev]}
    if turned is not None:
        rnd["turned"] = turned
    return rnd


def situation_of(rid: str, seat_inputs: Any = None, **hand_extra: Any) -> dict[str, Any]:
    """The same win as one situation for `score` (the round's wild kinds given outright)."""
    params, turned, winner, discarder, hand = CASES[rid]
    rs = REGISTRY[rid]
    sit: dict[str, Any] = {
        **hand, **hand_extra, "ruleset": rid, "params": params, "self_drawn": discarder is None,
        "seat_wind": "ESWN"[winner],
        "table": {"players": 4, "dealer": 0, "winner": winner, "discarder": discarder},
    }  # fmt: skip
    wild = rs.table(rs.resolve_params(params)).wilds.kinds(turned)
    if wild:
        from rules.tiles import tile_str

        sit["wild"] = [tile_str(t) for t in wild]
    if seat_inputs is not None:
        sit["seat_inputs"] = seat_inputs
    return sit


def test_every_ruleset_that_asks_per_seat_inputs_has_a_case() -> None:
    asking = set()
    for rid, rs in REGISTRY.items():
        tries = [rs.defaults, *(rs.resolve_params(p.params) for p in rs.presets)]
        tries.append(rs.resolve_params({"kong_settlement": "independent"})
                     if any(p.name == "kong_settlement" for p in rs.params) else rs.defaults)  # fmt: skip
        if any(rs.table(p).seat_inputs for p in tries):
            asking.add(rid)
    assert asking == set(CASES)


@pytest.mark.parametrize("rid", sorted(CASES))
def test_the_cases_win_both_ways(rid: str) -> None:
    s, r = api.score(situation_of(rid)), api.settle(round_of(rid))
    assert s["ok"] and s["win"], s
    assert r["ok"], r
    if rid not in ROUND_END:
        assert s["deltas"] == r["deltas"]


# -- values to refuse, each through score and settle -----------------------------

WUHAN_BAD = [
    {"an_gang": [-1, 0, 0, 0]},  # a factor of 0.25 before
    {"an_gang": [1.7, 0, 0, 0]},  # taken as 1 before
    {"an_gang": ["1", 0, 0, 0]},
    {"an_gang": [True, 0, 0, 0]},
    {"an_gang": [9, 0, 0, 0]},  # the doc says 0-4
    {"an_gang": [1, 0, 0]},  # one per seat
    {"opening": [0, 0, 1, 0]},  # misspelt: ignored before, and the money changed
    {"openings": [0, 0, 0, 0], "ming_gang": [0, 0, 0, 1]},  # a 明杠 is an opening
    [1, 0, 0, 0],
    "openings",
]


@pytest.mark.parametrize("bad", WUHAN_BAD, ids=json.dumps)
def test_wuhan_refuses_the_same_values_on_every_verb(bad: Any) -> None:
    for out in (api.score(situation_of("wuhan", bad)), api.is_win(situation_of("wuhan", bad)),
                api.settle(round_of("wuhan", bad))):  # fmt: skip
        assert out["ok"] is False, out
        assert out["error"]["code"] == "bad_input"
        assert out["error"]["message_zh"] != out["error"]["message"]
    short = situation_of("wuhan", bad)
    del short["win_tile"]
    assert api.waits(short)["error"]["code"] == "bad_input"


def test_a_misspelt_key_is_named() -> None:
    out = api.score(situation_of("wuhan", {"opening": [0, 0, 1, 0]}))
    assert "'opening'" in out["error"]["message"] and "openings" in out["error"]["message"]
    assert "“opening”" in out["error"]["message_zh"]


def test_a_draw_where_the_table_asks_nothing_refuses_anything_given() -> None:
    draw: dict[str, Any] = {"ruleset": "hebei", "events": [{"type": "draw"}]}
    assert api.settle(draw)["ok"]
    draw["events"][0]["seat_inputs"] = {}
    assert api.settle(draw)["ok"]
    draw["events"][0]["seat_inputs"] = {"nonsense": [1, 2, 3, 4]}
    out = api.settle(draw)
    assert out["ok"] is False and out["error"]["code"] == "bad_input"
    assert "nonsense" in out["error"]["message"]
    # 吉安 asks its 精 on a draw, and nothing else.
    jian = {"ruleset": "jian", "turned": "7p",
            "events": [{"type": "draw", "seat_inputs": {"zheng_jing": [1, 0, 0, 0]}}]}  # fmt: skip
    assert api.settle(jian)["ok"]
    jian["events"][0]["seat_inputs"] = {"zheng_jing": [1.5, 0, 0, 0]}  # type: ignore[index]
    assert api.settle(jian)["error"]["code"] == "bad_input"


def test_a_table_without_per_seat_inputs_refuses_them_on_every_verb() -> None:
    hand = {"concealed": "123m456m789m123p5p", "win_tile": "5p"}
    bad = {"paozi": [1, 0, 0, 0]}
    for rid in ("mcr", "sichuan", "generic"):
        assert api.score({**hand, "ruleset": rid, "seat_inputs": bad})["ok"] is False
        assert api.is_win({**hand, "ruleset": rid, "seat_inputs": bad})["ok"] is False
        assert api.score({**hand, "ruleset": rid, "seat_inputs": {}})["ok"] is True
        rnd = {"ruleset": rid, "events": [{"type": "win", "discarder": None, "seat_inputs": bad,
                                           "winners": [{"seat": 0, "hand": hand}]}]}  # fmt: skip
        assert api.settle(rnd)["error"]["code"] == "bad_input", rid


def test_inputs_in_a_winners_hand_are_refused_not_dropped() -> None:
    rnd = round_of("wuhan")
    rnd["events"][0]["winners"][0]["hand"]["seat_inputs"] = {"openings": [0, 0, 1, 0]}
    out = api.settle(rnd)
    assert out["ok"] is False and out["error"]["code"] == "bad_input"
    assert "win event" in out["error"]["message"]


BJ_FOUR = {"concealed": "1111s234m567p789p", "win_tile": "2z"}  # 1s is the 混儿 (turned 9s)


def test_beijing_four_hun_in_the_winners_hand_are_paid_without_being_entered() -> None:
    rnd = round_of("beijing")
    rnd["events"][0]["winners"][0]["hand"] = dict(BJ_FOUR)
    rnd["events"][0]["discarder"] = None  # three 混儿 and more win only by self-draw
    out = api.settle(rnd)
    assert out["ok"], out
    given = copy.deepcopy(rnd)
    given["events"][0]["seat_inputs"] = {"hun": [0, 4, 0, 0]}
    assert api.settle(given)["deltas"] == out["deltas"]
    four = [t for t in out["transfers"] if t["reason"] == "four_wilds"]
    assert [(t["from"], t["to"], t["amount"]) for t in four] == [(0, 1, 40), (2, 1, 40),
                                                                  (3, 1, 40)]  # fmt: skip
    # below the hand's count: refused, by settle and score alike
    for hun in ([0, 3, 0, 0], [0, 0, 0, 0]):
        given["events"][0]["seat_inputs"] = {"hun": hun}
        out = api.settle(given)
        assert out["ok"] is False and out["error"]["code"] == "bad_input"
        assert "4" in out["error"]["message_zh"] and "混儿" in out["error"]["message_zh"]
        sit = {**BJ_FOUR, "ruleset": "beijing", "wild": ["1s"], "self_drawn": True,
               "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": None},
               "seat_inputs": {"hun": hun}}  # fmt: skip
        assert api.score(sit)["error"]["code"] == "bad_input"


def test_the_issues_beijing_figures() -> None:
    """A round of 北京: four 混儿 held by the winner, no `hun` entered."""
    rnd: dict[str, Any] = {"ruleset": "beijing", "dealer": 0, "turned": "9s",
           "events": [{"type": "win", "discarder": None,
                       "winners": [{"seat": 1, "hand": dict(BJ_FOUR)}]}]}  # fmt: skip
    plain = api.settle(rnd)
    entered = copy.deepcopy(rnd)
    entered["events"][0]["seat_inputs"] = {"hun": [0, 4, 0, 0]}
    assert plain["ok"] and plain["deltas"] == api.settle(entered)["deltas"]
    # the same win where four 混儿 are not paid (四张混 0): 40 from each less
    unpaid = api.settle({**rnd, "params": {"four_wilds_each": 0}})
    assert [a - b for a, b in zip(plain["deltas"], unpaid["deltas"], strict=True)] == [
        -40, 120, -40, -40]  # fmt: skip


def test_jian_winners_jing_start_at_his_hand() -> None:
    hand = {"concealed": "123m456m789s12s11z", "win_tile": "8p"}  # 8p is the 正精
    base = round_of("jian")
    base["events"][0]["winners"][0]["hand"] = hand
    base["events"][0]["winners"][0]["seat"] = 0
    base["events"][0]["discarder"] = None
    derived = api.settle(base)
    base["events"][0]["seat_inputs"] = {"zheng_jing": [1, 0, 0, 0]}
    assert api.settle(base)["deltas"] == derived["deltas"]
    base["events"][0]["seat_inputs"] = {"zheng_jing": [0, 0, 0, 0]}
    assert api.settle(base)["error"]["code"] == "bad_input"


def test_wuhan_a_losers_ming_gang_makes_him_open() -> None:
    """丁 (seat 3) with a 明杠 and no openings entered: 1 × 8 × 8, not 1 × 8 × 4."""
    rnd = round_of("wuhan", {"an_gang": [1, 0, 0, 0], "hz_gang": [0, 0, 0, 1],
                             "ming_gang": [0, 0, 0, 1]})  # fmt: skip
    out = api.settle(rnd)
    assert out["ok"], out
    ding = out["events"][0]["winners"][0]["losers"][-1]
    assert ding["seat"] == 3 and ding["factor"] == 8 and "开口" in ding["why_zh"]
    # entered below the 明杠: refused, and the message says why
    rnd["events"][0]["seat_inputs"]["openings"] = [0, 0, 0, 0]
    err = api.settle(rnd)["error"]
    assert (
        err["code"] == "bad_input" and "明杠" in err["message_zh"] and "冲杠" in err["message_zh"]
    )
    # where a 冲杠 is no opening, the two are not tied
    rnd["params"] = {"chong_gang_is_opening": False}
    assert api.settle(rnd)["ok"]


def test_the_winners_counts_come_from_his_hand() -> None:
    """Whatever is typed for the winner's openings and kongs, his melds decide."""
    a = api.settle(round_of("wuhan", {"openings": [0, 0, 1, 0]}))
    b = api.settle(round_of("wuhan", {"openings": [0, 4, 1, 0], "ming_gang": [0, 0, 0, 0],
                                      "an_gang": [0, 3, 0, 0]}))  # fmt: skip
    assert a["ok"] and b["ok"] and a["deltas"] == b["deltas"]


def test_the_cli_refuses_them_too() -> None:
    lines = [json.dumps(situation_of("wuhan", {"an_gang": [1.7, 0, 0, 0]})),
             json.dumps(situation_of("wuhan"))]  # fmt: skip
    p = run("score", stdin="\n".join(lines) + "\n")
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert out[0]["error"]["code"] == "bad_input" and out[1]["ok"]
    p = run("settle", stdin=json.dumps(round_of("wuhan", {"opening": [0, 0, 1, 0]})) + "\n")
    assert json.loads(p.stdout)["error"]["code"] == "bad_input"


# -- the property: score and settle accept and refuse exactly the same values ----

_value = st.one_of(
    *([st.integers(0, 4)] * 6), st.integers(-3, 12), st.floats(-2, 6, allow_nan=False),
    st.booleans(), st.sampled_from(["1", "", None]),
)  # fmt: skip


@st.composite
def seat_inputs(draw: st.DrawFn, rid: str) -> Any:
    params = CASES[rid][0]
    rs = REGISTRY[rid]
    ids = [s.id for s in rs.table(rs.resolve_params(params)).seat_inputs]
    keys = st.sampled_from([*ids, *ids, "opening", "nonsense"])
    seats = st.one_of(*([st.lists(_value, min_size=4, max_size=4)] * 8),
                      st.lists(_value, max_size=6), st.just("1"))  # fmt: skip
    return draw(st.one_of(*([st.dictionaries(keys, seats, max_size=4)] * 8),
                          st.just([0, 0, 0, 0]), st.just(None)))  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
@pytest.mark.parametrize("rid", sorted(CASES))
def test_score_and_settle_take_and_refuse_the_same_values(rid: str, data: st.DataObject) -> None:
    si = data.draw(seat_inputs(rid))
    s = api.score(situation_of(rid, si))
    r = api.settle(round_of(rid, si))
    assert s["ok"] == r["ok"], (s, r)
    if not s["ok"]:
        assert s["error"]["code"] == r["error"]["code"]
        # the same words, settle's saying which event
        assert r["error"]["message"].endswith(s["error"]["message"])
        assert r["error"]["message_zh"].endswith(s["error"]["message_zh"])
    elif rid not in ROUND_END:
        assert s["deltas"] == r["deltas"]
