"""四川麻将 round settlement: `settle()` replays a whole round given as ordered events.

Amounts are worked out by hand (base 6 in the xuezhan preset, 5 in chengdu) or,
for a hand given as tiles, from the engine's single-hand `score()` and
`waits()`; never from settle's own output.  The seed sentences each test rests
on are quoted beside it (seed 002 "四川麻將規則說明", seed 001 "川麻规则",
seed 000 "成麻五元算账一览表"); the tests never read the seeds themselves.

The property tests at the end generate legal random rounds and check them
against a small model of the rules written here, independently of the engine.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import REGISTRY, score, settle, waits
from tests.rules.sichuan_hands import (
    compact,
    kong_meld,
    loose_hand,
    pung_meld,
    tile,
    win_hand,
)
from tests.support.cli import run as run_rules_cli

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests" / "fixtures" / "spec" / "sichuan-rounds.jsonl"
CHENGDU = dict(REGISTRY["sichuan"].preset("chengdu").params)  # type: ignore[union-attr]
HAN = re.compile(r"[\u4e00-\u9fff]")


# --- building rounds --------------------------------------------------------------------


def rnd(events: list[dict[str, Any]], players: int = 4, **params: Any) -> dict[str, Any]:
    r: dict[str, Any] = {"ruleset": "sichuan", "players": players, "events": events}
    if params:
        r["params"] = params
    return r


def ok(events: list[dict[str, Any]], players: int = 4, **params: Any) -> dict[str, Any]:
    r = settle(rnd(events, players, **params))
    assert r["ok"], r
    return r


def bad(
    events: list[dict[str, Any]], code: str = "bad_event", players: int = 4, **params: Any
) -> dict[str, Any]:
    r = settle(rnd(events, players, **params))
    assert r["ok"] is False, r
    e = r["error"]
    assert e["code"] == code, e
    assert e["message"] and e["message_zh"], e
    assert HAN.search(e["message_zh"]), e  # the Chinese message is Chinese
    return e


def K(player: int, kind: str, discarder: int | None = None, **kw: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind, **kw}
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


def W(discarder: int | None, *winners: dict[str, Any], **flags: Any) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, "winners": list(winners), **flags}


def T(seat: int, concealed: str, win: str, *melds: dict[str, Any]) -> dict[str, Any]:
    """A winner given as tiles."""
    return {"seat": seat, "hand": {"concealed": concealed, "win_tile": win, "melds": list(melds)}}


def Q(seat: int, fans: dict[str, int] | None = None) -> dict[str, Any]:
    """A winner given as picked fans (quick entry); no fans is 平胡."""
    return {"seat": seat, "fans": fans or {}}


def END(*hands: dict[str, Any]) -> dict[str, Any]:
    return {"type": "wall_end", "hands": list(hands)}


def H(seat: int, concealed: str, *melds: dict[str, Any]) -> dict[str, Any]:
    return {"seat": seat, "concealed": concealed, "melds": list(melds)}


def flows(r: dict[str, Any], reason: str | None = None) -> list[tuple[int, int, int]]:
    return [
        (t["from"], t["to"], t["amount"])
        for t in r["transfers"]
        if reason is None or t["reason"] == reason
    ]


def hand_score(concealed: str, win: str, params: dict[str, Any] | None = None, **kw: Any) -> Any:
    sit: dict[str, Any] = {"ruleset": "sichuan", "concealed": concealed, "win_tile": win, **kw}
    if params:
        sit["params"] = params
    r = score(sit)
    assert r["ok"] and r["win"], r
    return r


def best_claim(concealed: str, params: dict[str, Any] | None = None) -> int:
    """The largest discard-win value over the waits, from waits() and score()."""
    sit: dict[str, Any] = {"ruleset": "sichuan", "concealed": concealed}
    if params:
        sit["params"] = params
    ws = waits(sit)
    assert ws["ok"] and ws["waits"], ws
    return max(score({**sit, "win_tile": w})["value"] for w in ws["waits"])


# Tile hands used below (xuezhan, base 6).  Values are from score() in the tests.
A_ON_5P = ("123456789m1235p", "5p")  # 平胡, single wait on 5p
B_ON_5P = ("222444666888s5p", "5p")  # 对对胡, single wait on 5p
C_ON_5P = ("111999m777999p5p", "5p")  # 对对胡, single wait on 5p
DUIDUI = ("111222444m3339p", "9p")  # 对对胡 2 番 (seed 002's base-6 example hand)


# --- 刮风下雨: kongs ---------------------------------------------------------------------


@pytest.mark.parametrize(("mult", "amount"), [(None, 6), (2, 12), (0, 0)])
def test_exposed_kong_discarder_pays(mult: int | None, amount: int) -> None:
    # seed 002: "直杠,立刻收取引杠者1倍點數(在游戲中為基本分)"; some rooms charge 2.
    params = {} if mult is None else {"kong_exposed": mult}
    r = ok([K(1, "exposed", 2)], **params)
    assert flows(r) == ([(2, 1, amount)] if amount else [])
    assert r["deltas"] == [0, amount, -amount, 0]
    assert r["events"][0]["deltas"] == r["deltas"]
    assert r["events"][0]["discarder"] == 2
    assert r["finished"] is False and r["out"] == []
    assert r["notes"] and HAN.search(r["notes_zh"][0])  # "the round is not over yet"


@pytest.mark.parametrize(
    ("kind", "params", "each", "reason"),
    [
        ("added", {}, 6, "kong_added"),  # "面下杠,立刻收取其他未胡者1倍點數"
        ("concealed", {}, 12, "kong_concealed"),  # "下雨立刻收取其他未胡者2倍點數"
        ("added", {"kong_added": 2}, 12, "kong_added"),
        ("concealed", {"kong_concealed": 3}, 18, "kong_concealed"),
    ],
)
def test_added_and_concealed_kongs_paid_by_every_player_still_in(
    kind: str, params: dict[str, Any], each: int, reason: str
) -> None:
    r = ok([K(2, kind)], **params)
    assert sorted(flows(r, reason)) == [(0, 2, each), (1, 2, each), (3, 2, each)]
    assert r["deltas"] == [-each, -each, 3 * each, -each]
    # Seat 0 has won: "其他未胡者" leaves him out.
    r = ok([W(1, Q(0)), K(2, kind)], **params)
    assert sorted(flows(r, reason)) == [(1, 2, each), (3, 2, each)]
    assert r["events"][1]["deltas"] == [0, -each, 2 * each, -each]


def test_kong_reason_texts_in_both_languages() -> None:
    r = ok([K(0, "exposed", 1), K(1, "added"), K(2, "concealed")])
    reasons = {t["reason"]: (t["reason_zh"], t["reason_en"]) for t in r["transfers"]}
    assert set(reasons) == {"kong_exposed", "kong_added", "kong_concealed"}
    assert "刮风" in reasons["kong_exposed"][0] and "下雨" in reasons["kong_concealed"][0]
    assert all(en and HAN.search(zh) for zh, en in reasons.values())
    # seat 0: +6 - 6 - 12; seat 1: -6 + 18 - 12; seat 2: -6 + 36; seat 3: -6 - 12
    assert r["deltas"] == [-12, 0, 30, -18]


def test_kong_tile_is_echoed_and_checked() -> None:
    r = ok([K(1, "concealed", tile="5s")])
    assert r["events"][0]["tile"] == "5s"
    bad([K(1, "concealed", tile="5z")], "bad_tile")
    bad([K(1, "concealed", tile="xx")], "bad_tile")


def test_a_round_refuses_what_the_table_does_not_take() -> None:
    """Read by the core round like every table's: 四川 turns no wild tile, and a
    seating must list each seat once (both refused, nothing settled)."""
    base = rnd([K(1, "concealed")])
    assert settle(base)["ok"]
    for extra, code in (({"wild": ["5m"]}, "bad_input"), ({"seating": "x"}, "bad_table"),
                        ({"seating": [0, 1, 1, 3]}, "bad_table")):  # fmt: skip
        r: Any = settle({**base, **extra})
        assert r["ok"] is False and r["error"]["code"] == code, (extra, r)
        assert HAN.search(r["error"]["message_zh"]), r


# --- 抢杠 -------------------------------------------------------------------------------


def test_robbing_the_kong_voids_the_added_kong() -> None:
    # seed 002: "玩家面下杠時,他家可以搶杠而胡,刮風下雨無效"
    r = ok([K(1, "added"), W(1, Q(2), robbing_kong=True)])
    assert r["events"][0]["void"] is True and r["events"][0]["deltas"] == [0, 0, 0, 0]
    assert HAN.search(r["events"][0]["note_zh"])
    # 平胡 1 + 抢杠 1 = 2 番 = 6 x 2, paid by the robbed player alone.
    assert flows(r) == [(1, 2, 12)]
    assert r["deltas"] == [0, -12, 12, 0]
    assert r["events"][1]["robbing_kong"] is True


def test_robbing_kong_fan_parameter() -> None:
    r = ok([K(1, "added"), W(1, Q(2), robbing_kong=True)], robbing_kong_fan=False)
    assert flows(r) == [(1, 2, 6)]


def test_robbing_with_several_winners_each_paid_one_to_one() -> None:
    r = ok([K(1, "added"), W(1, Q(2), Q(3, {"3": 1}), robbing_kong=True)])
    # 平胡 + 抢杠 = 2 番 → 12; 清一色 3 + 抢杠 1 = 4 番 → 48.
    assert sorted(flows(r)) == [(1, 2, 12), (1, 3, 48)]
    assert r["events"][0]["void"] is True


def test_robbed_flag_on_the_kong_event() -> None:
    r = ok([K(1, "added", robbed=True)])
    assert r["transfers"] == [] and r["events"][0]["void"] is True
    bad([K(1, "concealed", robbed=True)])
    bad([K(1, "exposed", 2, robbed=True)])
    bad([K(1, "added", robbed="yes")])


def test_robbing_voids_only_the_robbed_players_kong_just_before() -> None:
    # The added kong before the win is seat 0's, the robbed player is seat 1: it stands.
    r = ok([K(0, "added"), W(1, Q(2), robbing_kong=True)])
    assert "void" not in r["events"][0]
    assert sorted(flows(r, "kong_added")) == [(1, 0, 6), (2, 0, 6), (3, 0, 6)]
    # An added kong followed by another event first is not robbed either.
    r = ok([K(1, "added"), K(3, "exposed", 0), W(1, Q(2), robbing_kong=True)])
    assert "void" not in r["events"][0] and len(flows(r, "kong_added")) == 3


def test_robbing_kong_needs_the_robbed_player() -> None:
    bad([K(1, "added"), W(None, Q(2), robbing_kong=True)])


# --- wins --------------------------------------------------------------------------------


def test_discard_win_only_the_discarder_pays() -> None:
    # seed 002: "點胡,點炮者輸分"
    r = ok([W(3, T(1, *DUIDUI))])
    value = hand_score(*DUIDUI)["value"]
    assert value == 12  # 对对胡 2 番: 6 x 2
    assert flows(r) == [(3, 1, value)]
    assert r["deltas"] == [0, value, 0, -value]
    w = r["events"][0]["winners"][0]
    assert w["mode"] == "tiles" and w["amount"] == value and w["payers"] == [3]
    assert w["total"] == 2 and {f["name_zh"] for f in w["fans"]} == {"对对胡"}
    assert w["notes"] and HAN.search(w["notes_zh"][0])
    assert r["out"] == [1] and r["finished"] is False


@pytest.mark.parametrize(
    ("mode", "each"),
    [("add_base", 12 + 6), ("add_fan", 24), ("none", 12)],
)
def test_self_drawn_paid_by_every_player_still_in(mode: str, each: int) -> None:
    # seed 002: "自摸,杠上花(實為自摸一種),未胡者輸分"; 对对胡 2 番 = 12;
    # 自摸加底 +6, 自摸加番 3 番 = 24 (seed 000 "自摸有「加底」和「加番」兩種算法").
    r = ok([W(None, T(0, *DUIDUI))], self_draw=mode)
    assert sorted(flows(r)) == [(1, 0, each), (2, 0, each), (3, 0, each)]
    assert r["events"][0]["self_drawn"] is True
    # Seat 2 is out already: he pays nothing.
    r = ok([W(1, Q(2)), W(None, T(0, *DUIDUI))], self_draw=mode)
    assert sorted(flows(r, "win_self_drawn")) == [(1, 0, each), (3, 0, each)]
    assert r["deltas"] == [2 * each, -6 - each, 6, -each]


def test_after_kong_self_drawn_is_kong_flower() -> None:
    # 杠上花: +1 番, paid by everyone still in, no hand-over.
    r = ok([K(0, "concealed"), W(None, Q(0), after_kong=True)])
    # 平胡 + 杠上花 = 2 番 = 12, 自摸加底 18.
    assert sorted(flows(r, "win_self_drawn")) == [(1, 0, 18), (2, 0, 18), (3, 0, 18)]
    assert flows(r, "kong_handover") == []
    fans = r["events"][1]["winners"][0]["fans"]
    assert {f["name_zh"] for f in fans} == {"平胡", "杠上花"}


def test_last_tile_fan() -> None:
    r = ok([W(None, Q(1), last_tile=True)], last_tile_fan=True)
    assert flows(r)[0][2] == 12 + 6  # 平胡 + 海底捞 = 2 番
    r = ok([W(None, Q(1), last_tile=True)])
    assert flows(r)[0][2] == 6 + 6  # off by default


def test_tiles_winner_fans_match_single_hand_score() -> None:
    params = {"cap_fans": 3}
    r = ok([K(2, "exposed", 0), W(2, T(1, "1112345678999s", "5s"), after_kong=True)], **params)
    single = hand_score("1112345678999s", "5s", params, after_kong=True)
    w = r["events"][1]["winners"][0]
    assert (w["total"], w["value"], w["fans"]) == (single["total"], single["value"], single["fans"])
    assert w["total"] > 3 and w["value"] == 6 * 4  # capped at 3 番


# --- 一炮多响 ------------------------------------------------------------------------------


def test_one_discard_several_winners_each_one_to_one() -> None:
    # seed 002: "一炮多響,均各自1對1計分"; seed 001: "某个玩家打出一张牌,有不止一个的玩家要之成胡,则均可胡牌"
    r = ok([W(3, T(0, *A_ON_5P), T(1, *B_ON_5P), T(2, *C_ON_5P))])
    values = [hand_score(*h)["value"] for h in (A_ON_5P, B_ON_5P, C_ON_5P)]
    assert values == [6, 12, 12]
    assert flows(r) == [(3, 0, 6), (3, 1, 12), (3, 2, 12)]
    assert r["deltas"] == [6, 12, 12, -30]
    # Three winners: the blood battle is over.
    assert r["out"] == [0, 1, 2] and r["finished"] is True


def test_one_discard_win_tile_counted_once_across_hands() -> None:
    # Each winner's hand holds one 5p plus the discarded 5p: 3 + 1 = 4 physical copies.
    events = [W(3, T(0, *A_ON_5P), T(1, *B_ON_5P), T(2, *C_ON_5P))]
    ok(events)
    # A fifth 5p anywhere else in the round is one too many.
    events = [
        W(3, T(0, *A_ON_5P), T(1, *B_ON_5P)),
        END(H(2, "557799p113355s7s"), H(3, "44668p1379s4567m")),
    ]
    e = bad(events, "too_many_copies")
    assert "5 Dots" in e["message"] and "五筒" in e["message_zh"]


def test_one_discard_same_win_tile_required() -> None:
    e = bad([W(3, T(0, *A_ON_5P), T(1, "123456789s1123p", "4p"))])
    assert "same tile" in e["message"]


def test_one_discard_tiles_and_quick_mixed() -> None:
    r = ok([W(3, T(0, *A_ON_5P), Q(1, {"3": 1}))])
    assert flows(r) == [(3, 0, 6), (3, 1, 24)]


# --- 杠上炮 hand-over ----------------------------------------------------------------------


def test_kong_discard_hands_the_kong_money_to_each_winner() -> None:
    # seed 002: "如果為杠上炮,還要將剛才所杠牌所得,轉給胡牌家(如果1炮多響則胡家給多份)"
    r = ok([K(2, "concealed"), W(2, Q(0), Q(1, {"2": 1}), after_kong=True)])
    # The kong earned 3 x 12 = 36; each winner gets all 36.
    # 平胡 + 杠上炮 = 2 番 = 12; 对对胡 + 杠上炮 = 3 番 = 24.
    assert sorted(flows(r, "win_discard")) == [(2, 0, 12), (2, 1, 24)]
    assert sorted(flows(r, "kong_handover")) == [(2, 0, 36), (2, 1, 36)]
    assert r["events"][1]["handover"] == {"kong_event": 0, "amount": 36}
    assert r["deltas"] == [-12 + 48, -12 + 60, 36 - 108, -12]
    assert all(t.get("kong_event") == 0 for t in r["transfers"] if t["reason"] == "kong_handover")


def test_kong_discard_exposed_kong_hands_over_what_it_earned() -> None:
    r = ok([K(2, "exposed", 3), W(2, Q(0), after_kong=True)])
    assert sorted(flows(r)) == [(2, 0, 6), (2, 0, 12), (3, 2, 6)]
    assert r["deltas"] == [18, 0, -12, -6]


def test_kong_discard_without_a_kong_just_before_is_an_error() -> None:
    e = bad([W(2, Q(0), after_kong=True)])
    assert "杠上炮" in e["message_zh"]
    bad([K(1, "concealed"), W(2, Q(0), after_kong=True)])  # the kong is someone else's
    # An older kong of the discarder is not "剛才所杠": no hand-over twice.
    bad([K(2, "concealed"), W(2, Q(0), after_kong=True), W(2, Q(1), after_kong=True)])
    bad([K(2, "concealed"), W(3, Q(1)), W(2, Q(0), after_kong=True)])


def test_kong_handover_parameter_off() -> None:
    r = ok([K(2, "concealed"), W(2, Q(0), after_kong=True)], kong_handover=False)
    assert flows(r, "kong_handover") == [] and "handover" not in r["events"][1]
    assert flows(r, "win_discard") == [(2, 0, 12)]  # the 杠上炮 番 still counts
    # Without the hand-over there is nothing to check the kong against.
    ok([W(2, Q(0), after_kong=True)], kong_handover=False)


# --- 血战到底 and the end of a round -------------------------------------------------------


def test_blood_battle_ends_after_three_winners() -> None:
    # seed 002: "1家胡了並不結束該局,而是未胡的玩家繼續打,直到有3家都胡或者余下的玩家家流局"
    events = [W(1, Q(0)), W(None, Q(3)), W(1, Q(2))]
    r = ok(events)
    assert r["out"] == [0, 3, 2] and r["finished"] is True and r["notes"] == []
    # 6 from 1; self-drawn 12 from each of 1 and 2; 6 from 1.
    assert r["deltas"] == [6, -6 - 12 - 6, -12 + 6, 24]
    e = bad([*events, K(1, "concealed")])
    assert "over" in e["message"]
    bad([*events, END(H(1, "123456789m1234p"))])


def test_not_blood_battle_ends_at_the_first_win() -> None:
    # seed 002: "普通場中,流局指沒人胡牌": one win (possibly on several hands) ends it.
    r = ok([W(3, Q(0), Q(1, {"3": 1}))], blood_battle=False)
    assert r["finished"] is True and r["deltas"] == [6, 24, 0, -30]
    bad([W(3, Q(0)), W(2, Q(1))], blood_battle=False)
    bad([W(None, Q(0)), K(1, "concealed")], blood_battle=False)


def test_players_out_neither_pay_nor_receive_later() -> None:
    r = ok(
        [
            W(2, Q(0)),
            K(1, "concealed"),
            K(3, "added"),
            W(None, Q(1)),
            K(2, "exposed", 3),
        ]
    )
    later = [t for t in r["transfers"] if t["event"] > 0]
    assert all(0 not in (t["from"], t["to"]) for t in later)
    assert all(1 not in (t["from"], t["to"]) for t in later if t["event"] > 3)
    assert r["deltas"][0] == 6


@pytest.mark.parametrize(
    ("events", "fragment"),
    [
        ([W(2, Q(0)), K(0, "concealed")], "already won"),
        ([W(2, Q(0)), K(1, "exposed", 0)], "already won"),
        ([W(2, Q(0)), W(0, Q(1))], "already won"),
        ([W(2, Q(0)), W(3, Q(0))], "already won"),
        ([W(2, Q(0)), W(None, Q(0))], "already won"),
        ([W(2, Q(0)), END(H(0, "123456789m1234p"), H(1, "123456789m5678p"))], "already won"),
    ],
)
def test_player_already_out(events: list[dict[str, Any]], fragment: str) -> None:
    e = bad(events)
    assert fragment in e["message"] and "出局" in e["message_zh"]


# --- the wall's end: 查花猪, 查大叫, refunds ---------------------------------------------------

# Seat 0 and 1 hold three suits (花猪), seat 2 is ready (waits 4p 7p), seat 3 is not.
PIG0 = "1379m1379p13579s"
PIG1 = "2468m2468p2468s5s"
READY2 = "112233m4455667p"
UNREADY3 = "1579m123456789s"


def test_wall_end_pigs_and_big_call() -> None:
    # seed 002: "花豬賠給非花豬玩家16倍點數"; "沒聽牌的玩家(花豬不用)賠給聽牌的玩家最大的可能番(大叫)"
    claim = best_claim(READY2)
    assert claim == 24  # 七对 on 7p (3 番) beats 平胡 on 4p
    r = ok([END(H(0, PIG0), H(1, PIG1), H(2, READY2), H(3, UNREADY3))])
    assert sorted(flows(r, "pig")) == [(0, 2, 96), (0, 3, 96), (1, 2, 96), (1, 3, 96)]
    assert flows(r, "not_ready") == [(3, 2, claim)]
    assert r["deltas"] == [-192, -192, 192 + claim, 192 - claim]
    checks = {c["seat"]: c for c in r["events"][0]["checks"]}
    assert [checks[s]["status"] for s in range(4)] == ["pig", "pig", "ready", "not_ready"]
    assert checks[2]["waits"] == ["4p", "7p"] and checks[2]["claim"] == claim
    assert checks[2]["claim_tile"] == "7p" and checks[2]["claim_fans"] == 3
    assert r["finished"] is True and r["out"] == []


def test_pig_multiplier_parameter() -> None:
    r = ok([END(H(0, PIG0), H(1, READY2), H(2, UNREADY3))], players=3, pig_multiplier=8, base=2)
    assert sorted(flows(r, "pig")) == [(0, 1, 16), (0, 2, 16)]


@pytest.mark.parametrize(
    ("hand", "unready", "params"),
    [
        ("1112345678999s", "12345678m13579p", {}),  # many waits, 根 on some
        ("1112345678999s", "12345678m13579p", CHENGDU),
        ("11223344556m77p", "123456789s1357p", {}),  # 七对 or 平胡 depending on the wait
        ("111222333444m5p", "123456789s1357p", {}),
        ("111222333444m5p", "123456789s1357p", {"cap_fans": 2}),
    ],
)
def test_big_call_claim_is_the_best_discard_win_over_the_waits(
    hand: str, unready: str, params: dict[str, Any]
) -> None:
    claim = best_claim(hand, params)
    r = ok([END(H(0, hand), H(1, unready))], players=2, **params)
    assert flows(r, "not_ready") == [(1, 0, claim)]
    check = r["events"][0]["checks"][0]
    assert check["claim"] == claim and check["status"] == "ready"
    assert check["waits"] == waits({"ruleset": "sichuan", "concealed": hand})["waits"]


def test_big_call_has_no_situational_fans() -> None:
    # The claim is a plain discard win: no 自摸, no 杠上炮 even right after a kong.
    r = ok([K(0, "concealed"), END(H(0, READY2), H(1, UNREADY3))], players=2)
    assert flows(r, "not_ready") == [(1, 0, 24)]


def test_kong_money_refunded_by_unready_and_pigs() -> None:
    # seed 002: "如果流局的時候玩家還沒有叫牌,則必須退回全部刮風下雨所得";
    # "沒聽牌的玩家 … 並退回所有刮風下雨所得".  A 花猪 has no 叫 either.
    events = [
        K(3, "concealed"),  # 0, 1, 2 pay 12 each
        K(0, "exposed", 2),  # 2 pays 6
        K(2, "added"),  # 0, 1, 3 pay 6 each
        END(H(0, PIG0), H(1, PIG1), H(2, READY2), H(3, UNREADY3)),
    ]
    r = ok(events)
    refunds = sorted(flows(r, "kong_refund"))
    assert refunds == [(0, 2, 6), (3, 0, 12), (3, 1, 12), (3, 2, 12)]
    assert {t["kong_event"] for t in r["transfers"] if t["reason"] == "kong_refund"} == {0, 1}
    # Seat 2 is ready and keeps his kong money.
    assert all(t["from"] != 2 for t in r["transfers"] if t["reason"] == "kong_refund")
    kong_deltas = [-12 + 6 - 6, -12 - 6, -12 - 6 + 18, 36 - 6]
    refund_deltas = [12 - 6, 12, 12 + 6, -36]
    check = [-192, -192, 192 + 24, 192 - 24]
    assert r["deltas"] == [
        a + b + c for a, b, c in zip(kong_deltas, refund_deltas, check, strict=True)
    ]


def test_refund_parameter_off() -> None:
    r = ok(
        [K(3, "concealed"), END(H(2, READY2), H(3, UNREADY3), H(0, PIG0), H(1, PIG1))],
        refund_kongs=False,
    )
    assert flows(r, "kong_refund") == []


def test_refund_reaches_players_who_have_won() -> None:
    # seed 002: "刮風下雨的人若最后退稅,則不再退給已經逃跑的胡家": a winner who did not
    # leave the table gets his kong money back like anyone else.
    r = ok([K(3, "concealed"), W(1, Q(0)), W(2, Q(1)), END(H(2, READY2), H(3, UNREADY3))])
    assert sorted(flows(r, "kong_refund")) == [(3, 0, 12), (3, 1, 12), (3, 2, 12)]
    assert flows(r, "not_ready") == [(3, 2, 24)]


def test_kong_handed_over_is_not_refunded() -> None:
    # The money of a kong handed over by 杠上炮 is gone: nothing to return.
    r = ok(
        [
            K(3, "concealed"),
            W(3, Q(0), after_kong=True),
            K(3, "exposed", 1),
            END(H(1, READY2), H(2, PIG1), H(3, UNREADY3)),
        ]
    )
    assert flows(r, "kong_refund") == [(3, 1, 6)]
    assert flows(r, "kong_handover") == [(3, 0, 36)]


def test_dead_wait_counts_as_ready() -> None:
    # seed 001: "死叫算叫,算杠收入": seat 1 waits on 9p alone and the other three 9p are
    # in seat 0's winning hand; he is still ready, is paid as such and keeps his kong money.
    events = [
        K(1, "concealed", tile="3p"),
        W(2, T(0, "1999p123456789s", "1p")),
        END(
            H(1, "123456789m9p", kong_meld("3p", exposed=False)),
            H(2, "2468m2468p2468s3s"),  # 花猪
            H(3, "13579m12567p789s"),  # 花猪
        ),
    ]
    r = ok(events)
    checks = {c["seat"]: c for c in r["events"][2]["checks"]}
    assert checks[1]["status"] == "ready" and checks[1]["waits"] == ["9p"]
    assert checks[1]["claim"] == 6  # 平胡 on 9p
    assert flows(r, "kong_refund") == []
    assert sorted(flows(r, "pig")) == [(2, 1, 96), (3, 1, 96)]


def test_wait_on_own_four_copies_is_not_ready() -> None:
    # A wait whose four copies are all in the hand itself cannot come: not ready.
    assert waits({"ruleset": "sichuan", "concealed": "1111m234p567p789p"})["waits"] == []
    r = ok([END(H(0, "1111m234p567p789p"), H(1, "234567888s5599m"))], players=2)
    assert flows(r, "not_ready") == [(0, 1, 6)]  # seat 1 waits 5m / 9m, 平胡 either way


def test_wall_end_with_melds_in_hands() -> None:
    # Seat 0 shows his kong of 9s: ready on 3s or 6s (9s is no wait, all four are his).
    r = ok(
        [
            K(0, "exposed", 1, tile="9s"),
            END(
                H(0, "123456s78s11m", kong_meld("9s")),
                H(1, "13579m2468p2468p"),
                H(2, "1357m1357p1357s5s"),
                H(3, "2468m13579p2468s"),
            ),
        ]
    )
    checks = {c["seat"]: c for c in r["events"][1]["checks"]}
    assert {s: c["status"] for s, c in checks.items()} == {
        0: "ready",
        1: "not_ready",
        2: "pig",
        3: "pig",
    }
    assert checks[0]["waits"] == ["3s", "6s"]
    assert checks[0]["claim"] == 6  # 平胡 on either, and a declared kong is no 根
    assert flows(r, "not_ready") == [(1, 0, 6)]
    assert flows(r, "kong_refund") == []  # seat 0 is ready and keeps his 6


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "code", "players"),
    [
        ([], "bad_event", 4),
        ([{"type": "deal"}], "bad_event", 4),
        (["kong"], "bad_event", 4),
        ([K(1, "big")], "bad_event", 4),
        ([K(1, "exposed")], "bad_event", 4),  # no discarder
        ([K(1, "exposed", 1)], "bad_event", 4),  # own discard
        ([K(4, "concealed")], "bad_event", 4),
        ([K(3, "concealed")], "bad_event", 3),
        ([K(True, "concealed")], "bad_event", 4),
        ([W(1, Q(0), Q(0))], "bad_event", 4),  # duplicated winner
        ([W(None, Q(0), Q(1))], "bad_event", 4),  # two self-drawn winners
        ([W(0, Q(0))], "bad_event", 4),  # wins on his own discard
        ([W(1)], "bad_event", 4),  # no winners
        ([W(1, {"seat": 0})], "bad_event", 4),  # neither hand nor fans
        ([W(1, {"seat": 0, "hand": "123m"})], "bad_event", 4),
        ([W(1, Q(0), after_kong="yes")], "bad_event", 4),
        ([END(H(0, READY2), H(1, UNREADY3), H(2, PIG0))], "bad_event", 4),  # missing seat 3
        ([END(H(0, READY2), H(0, READY2), H(1, UNREADY3), H(2, PIG0))], "bad_event", 3),
        ([{"type": "wall_end"}], "bad_event", 4),
        ([{"type": "wall_end", "hands": ["x"]}], "bad_event", 2),
        ([W(1, Q(0, {"3": 1, "2": 1}))], "bad_input", 4),  # one pattern only (xuezhan)
        ([W(1, Q(0, {"99": 1}))], "bad_input", 4),
        ([W(1, Q(0, {"15": 5}))], "bad_input", 4),
        ([W(1, {"seat": 0, "fans": {"15": "x"}})], "bad_input", 4),
        ([W(1, {"seat": 0, "fans": [3]})], "bad_input", 4),
        ([W(1, T(0, "123456789m1235p", "5z"))], "bad_tile", 4),  # honors
        (
            [W(1, T(0, "123456789m1235p", "5p", {"type": "chi", "tiles": "234s"}))],
            "wrong_tile_count",
            4,
        ),
        ([W(1, T(0, "123456m1235p", "5p", {"type": "chi", "tiles": "234s"}))], "illegal_meld", 4),
        ([W(1, T(0, "123456789m1234p", "9s"))], "not_a_win", 4),
        ([W(1, T(0, "123m456p789s1235p", "5p"))], "not_a_win", 4),  # three suits: 花猪
        ([W(1, T(0, "123456789m123p", "5p"))], "wrong_tile_count", 4),
        ([W(1, T(0, "123456789m1235p", None))], "wrong_tile_count", 4),  # type: ignore[arg-type]
        ([END(H(0, "123456789m123p"), H(1, READY2))], "wrong_tile_count", 2),
        ([END(H(0, "123456789m1234z"), H(1, READY2))], "bad_tile", 2),
        (
            [END(H(0, "123456m1234p", {"type": "chi", "tiles": "789m"}), H(1, READY2))],
            "illegal_meld",
            2,
        ),
        ([END(H(0, "11111m23456789p"), H(1, READY2))], "too_many_copies", 2),
        ([W(1, T(0, "111222333m5p", "5p", kong_meld("1m")))], "too_many_copies", 4),
        ([W(3, T(0, *DUIDUI)), W(2, T(1, *DUIDUI))], "too_many_copies", 4),
    ],
)
def test_error_paths(events: list[Any], code: str, players: int) -> None:
    bad(events, code, players)


def test_error_messages_name_the_event_and_seat() -> None:
    e = bad([K(1, "exposed", 2), W(1, T(3, "123456789m1234p", "9s"))], "not_a_win")
    assert e["message"].startswith("event 2 (seat 3)")
    assert e["message_zh"].startswith("第 2 个事件（3 号位）")
    e = bad([K(1, "exposed", 2), W(1, Q(3, {"2": 1, "3": 1}))], "bad_input")
    assert e["message"].startswith("event 2 (seat 3)")


@pytest.mark.parametrize(
    ("round_", "code"),
    [
        ({"ruleset": "sichuan", "events": "x"}, "bad_event"),
        ({"ruleset": "sichuan"}, "bad_event"),
        ({"ruleset": "sichuan", "players": 5, "events": [K(1, "concealed")]}, "bad_table"),
        ({"ruleset": "sichuan", "players": True, "events": [K(1, "concealed")]}, "bad_table"),
        (
            {"ruleset": "sichuan", "params": {"kong_exposed": 99}, "events": [K(1, "concealed")]},
            "bad_param",
        ),
        ({"ruleset": "sichuan", "params": {"nope": 1}, "events": [K(1, "concealed")]}, "bad_param"),
        # 国标 settles rounds too, but its table has no kong events.
        ({"ruleset": "mcr", "events": [K(1, "concealed")]}, "bad_event"),
        ({"ruleset": "nope", "events": [K(1, "concealed")]}, "unknown_ruleset"),
        ([K(1, "concealed")], "bad_input"),
    ],
)
def test_round_level_errors(round_: Any, code: str) -> None:
    r = settle(round_)
    assert r["ok"] is False and r["error"]["code"] == code, r
    assert r["error"]["message"] and HAN.search(r["error"]["message_zh"])


def test_nothing_half_settled_and_input_untouched() -> None:
    events = [K(1, "concealed"), W(2, Q(0)), K(0, "concealed")]
    before = copy.deepcopy(events)
    r = settle(rnd(events))
    assert r["ok"] is False and "transfers" not in r
    assert events == before


def test_id_echoed_and_ruleset_argument() -> None:
    r = settle({"id": "r1", "events": [K(1, "concealed")]}, "sichuan")
    assert r["ok"] and r["id"] == "r1" and r["ruleset"] == "sichuan"
    assert settle({"id": "r2", "ruleset": "sichuan", "events": []})["id"] == "r2"


# --- quick entry ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fans", "params", "value"),
    [
        ({}, {}, 6),  # 平胡 1 番
        ({"3": 1, "15": 2}, {}, 6 * 16),  # 清一色 3 + 根 2 = 5 番
        ({"8": 1, "15": 1}, {}, 6 * 32),  # 龙七对 5 + 根 1 = 6 番
        ({"13": 1}, {"cap_fans": 4}, 6 * 8),  # 清龙七对 6 番, capped at 4
        ({}, CHENGDU, 5),  # 平胡 0 番: 点炮 5 分
        ({"2": 1, "3": 1}, CHENGDU, 40),  # 清一色 2 + 对子胡 1 = 3 番
        ({"14": 1, "15": 2}, CHENGDU, 80),  # 金钩钓 2 + 2 根 = 4 番
    ],
)
def test_quick_entry_values(fans: dict[str, int], params: dict[str, Any], value: int) -> None:
    r = ok([W(1, Q(0, fans))], **params)
    assert flows(r) == [(1, 0, value)]
    w = r["events"][0]["winners"][0]
    assert w["mode"] == "quick" and w["value"] == value


@pytest.mark.parametrize(
    ("fans", "params"),
    [
        ({"3": 1, "2": 1}, {}),  # xuezhan: "只按最大番算", 清一色 is a pattern too
        ({"5": 1, "9": 1}, {}),
        ({"2": 1, "5": 1}, CHENGDU),  # chengdu: one shape, 清一色 adds on top
        ({"3": 2}, {}),
    ],
)
def test_quick_entry_one_pattern_rule(fans: dict[str, int], params: dict[str, Any]) -> None:
    bad([W(1, Q(0, fans))], "bad_input", **params)


def test_quick_entry_has_no_copy_check() -> None:
    # Picked fans carry no tiles: nothing to count across hands.
    r = ok([W(3, Q(0, {"3": 1})), W(2, Q(1, {"3": 1})), W(3, Q(2, {"3": 1}))])
    assert r["finished"] is True


# --- seed examples at the round level ---------------------------------------------------


def test_seed002_base_6_example_as_a_round() -> None:
    # "勝利玩家A的X為54,無杠牌無花豬無大叫,則失敗玩家每人的X為18": a self-drawn
    # 2-番 hand with 自摸加底 (6 x 2 + 6) paid by three players, nothing else moving.
    r = ok([W(None, T(0, *DUIDUI))], blood_battle=False)
    assert r["deltas"] == [54, -18, -18, -18] and r["finished"] is True


def test_seed002_kong_amounts() -> None:
    # "直杠,立刻收取引杠者1倍點數" / "面下杠,立刻收取其他未胡者1倍點數" / "下雨立刻收取其他未胡者2倍點數"
    r = ok([K(0, "exposed", 3), K(1, "added"), K(2, "concealed")])
    assert [e["deltas"] for e in r["events"]] == [
        [6, 0, 0, -6],
        [-6, 18, -6, -6],
        [-12, -12, 36, -12],
    ]


def test_seed002_pig_pays_16_times_to_every_non_pig() -> None:
    # "花豬賠給非花豬玩家16倍點數"
    r = ok([END(H(0, PIG0), H(1, READY2), H(2, UNREADY3), H(3, "24568m23456789p"))])
    assert sorted(flows(r, "pig")) == [(0, 1, 96), (0, 2, 96), (0, 3, 96)]


def test_seed002_kong_discard_several_winners_several_shares() -> None:
    # "如果1炮多響則胡家給多份": two winners, two full shares of the kong money.
    r = ok([K(3, "added"), W(3, Q(0), Q(1), after_kong=True)])
    assert sorted(flows(r, "kong_handover")) == [(3, 0, 18), (3, 1, 18)]
    assert r["deltas"] == [-6 + 12 + 18, -6 + 12 + 18, -6, 18 - 60]


def test_seed002_wall_end_steps_order() -> None:
    # "第一步:查衛生(花豬) … 第二步:查大叫": the transfers come in that order.
    r = ok([K(3, "concealed"), END(H(0, PIG0), H(1, PIG1), H(2, READY2), H(3, UNREADY3))])
    reasons = [t["reason"] for t in r["transfers"] if t["event"] == 1]
    assert reasons == sorted(reasons, key=["pig", "not_ready", "kong_refund"].index)


@pytest.mark.parametrize(
    ("concealed", "tile", "discard", "each_self"),
    [
        # seed 000 "成麻五元算账一览表", base 5, money 2^番, 自摸加底 (+5 per payer):
        ("2344567p345789s", "7p", 5, 10),  # "平胡 … 點炮5分,自摸為每家10分"
        ("111222444m3339p", "9p", 10, 15),  # "對子胡 … 為1番,即兩倍,點炮10分"
        ("1122334455m779p", "9p", 20, 25),  # "暗七對,2番,即四倍,點炮20分"
        ("1111223355m779p", "9p", 40, 45),  # "帶杠的為龍七對,3番,點炮40分"
        ("1234567891239m", "9m", 20, 25),  # "清一色,不帶杠的叫「素清」,2番,點炮20分"
        ("1112345678999m", "1m", 40, 45),  # "帶杠的清一色 … 3番 … 點炮40分" (four 1m: 根)
    ],
)
def test_seed000_chengdu_table_as_rounds(
    concealed: str, tile: str, discard: int, each_self: int
) -> None:
    r = ok([W(1, T(0, concealed, tile))], blood_battle=False, **CHENGDU)
    assert r["deltas"] == [discard, -discard, 0, 0]
    r = ok([W(None, T(0, concealed, tile))], blood_battle=False, **CHENGDU)
    assert r["deltas"] == [3 * each_self, -each_self, -each_self, -each_self]


def test_seed000_chengdu_golden_hook_and_add_fan() -> None:
    # "大單吊 … 為2番,點炮20分"; "加番則要多一倍,譬如20分的牌,自摸就是40分".
    melds = [pung_meld("2m"), pung_meld("4m"), pung_meld("6p"), pung_meld("8p")]
    r = ok([W(1, T(0, "9p", "9p", *melds))], blood_battle=False, **CHENGDU)
    assert r["deltas"] == [20, -20, 0, 0]
    params = {**CHENGDU, "self_draw": "add_fan"}
    r = ok([W(None, T(0, "9p", "9p", *melds))], blood_battle=False, **params)
    assert r["deltas"] == [120, -40, -40, -40]


def test_seed000_chengdu_round_with_kongs() -> None:
    # Chengdu kongs keep the seed-002 amounts in bases: 5 for 直杠, 10 per player for 暗杠.
    r = ok([K(0, "exposed", 1), K(2, "concealed"), W(3, Q(0, {"15": 1}))], **CHENGDU)
    # 平胡 0 + 根 1 = 1 番 → 10 from seat 3.
    assert r["deltas"] == [5 - 10 + 10, -5 - 10, 30, -10 - 10]


# --- the command line ---------------------------------------------------------------------


def test_cli_settle_lines_in_order() -> None:
    good = {"id": "a", "events": [K(1, "exposed", 2), W(2, Q(0))]}
    wrong = {"id": "b", "events": [W(2, Q(0)), K(0, "concealed")]}
    stdin = "\n".join([json.dumps(good), "{oops", json.dumps(wrong), "", json.dumps(good)]) + "\n"
    p = run_rules_cli("settle", "--ruleset", "sichuan", stdin=stdin)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [r["id"] for r in out] == ["a", None, "b", "a"]
    assert out[0] == settle(good, "sichuan") == out[3]
    assert out[0]["deltas"] == [6, 6, -12, 0]
    assert out[1]["error"]["code"] == "bad_input"
    assert out[2]["error"]["code"] == "bad_event"


def test_cli_settle_ruleset_from_each_line() -> None:
    p = run_rules_cli(
        "settle", stdin=json.dumps(rnd([K(0, "concealed")]), ensure_ascii=False) + "\n"
    )
    assert json.loads(p.stdout)["deltas"] == [36, -12, -12, -12]


# --- spec examples (tests/fixtures/spec/sichuan-rounds.jsonl) --------------------------------


def spec_rounds() -> list[dict[str, Any]]:
    return [json.loads(x) for x in SPEC.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize("example", spec_rounds(), ids=lambda e: e["id"])
def test_spec_rounds(example: dict[str, Any]) -> None:
    assert example["why"]
    r = settle(example)
    assert r["ok"], r
    assert r["id"] == example["id"]
    assert r["deltas"] == example["expect"]["deltas"]
    assert r["finished"] is example["expect"]["finished"]
    assert sum(r["deltas"]) == 0


def test_spec_rounds_through_the_cli() -> None:
    examples = spec_rounds()
    assert len(examples) >= 8
    p = run_rules_cli("settle", stdin=SPEC.read_text(encoding="utf-8"))
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [(r["id"], r["deltas"]) for r in out] == [
        (e["id"], e["expect"]["deltas"]) for e in examples
    ]


def doc_example(heading: str) -> dict[str, Any]:
    """The round under `heading` in docs/rules/sichuan.md (its first JSON block), settled;
    the result must be the one shown there (its second block)."""
    doc = (ROOT / "docs" / "rules" / "sichuan.md").read_text(encoding="utf-8")
    part = doc[doc.index(heading) :]
    blocks = re.findall(r"```json\n(.*?)```", part, flags=re.S)
    round_, shown = json.loads(blocks[0]), json.loads(blocks[1])
    r: dict[str, Any] = settle(round_)
    assert r == shown
    return r


def test_doc_example_is_current() -> None:
    # docs/rules/sichuan.md, "A full example": the round and the result shown there.
    r = doc_example("### A full example")
    # The deltas worked out by hand in the text below the example.
    assert r["deltas"] == [12, -192, 108, 72]


def test_doc_told_example_is_current() -> None:
    # docs/rules/sichuan.md, "A wall's end told, not shown": the round and its result.
    r = doc_example("### A wall's end told, not shown")
    # By hand: the pig pays 16 × 6 to each other; 对对胡 2 + 根 1 = 3 番 is 6 × 2^2.
    pig, claim = 16 * 6, 6 * 2**2
    assert r["deltas"] == [pig + claim, pig - claim, -2 * pig]


# --- property tests -----------------------------------------------------------------------

XZ_QUICK = [({}, 1), ({"2": 1}, 2), ({"3": 1}, 3), ({"4": 1}, 3), ({"8": 1}, 5), ({"13": 1}, 6)]
CD_QUICK = [
    ({}, 0),
    ({"2": 1}, 1),
    ({"3": 1}, 2),
    ({"2": 1, "3": 1}, 3),
    ({"5": 1}, 2),
    ({"14": 1}, 2),
]


class Model:
    """The rules of a round written out plainly, to check settle() against."""

    def __init__(self, players: int, params: dict[str, Any]) -> None:
        self.n = players
        self.p = params
        self.base = params["base"]
        self.deltas = [0] * players
        self.out: list[int] = []
        self.kongs: list[dict[str, Any]] = []
        self.finished = False

    def pay(self, a: int, b: int, amount: int) -> None:
        self.deltas[a] -= amount
        self.deltas[b] += amount

    def in_play(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.out]

    def money(self, fans: int) -> int:
        cap = self.p["cap_fans"]
        f = min(fans, cap) if cap else fans
        if self.p["money"] == "pow_fan":
            return self.base * 2**f
        return self.base * 2 ** max(f - 1, 0)

    def self_amount(self, total: int) -> int:
        mode = self.p["self_draw"]
        if mode == "add_base":
            return self.money(total) + self.base
        if mode == "add_fan":
            return self.money(total + 1)
        return self.money(total)


def picked_fans(won: dict[str, Any], params: dict[str, Any]) -> dict[str, int]:
    """The fans a player picks from the catalog for a win score() has counted:
    every fan it lists but 平胡 (what quick entry assumes when no pattern is picked)."""
    catalog = {
        f["id"] for f in REGISTRY["sichuan"].fan_catalog(REGISTRY["sichuan"].resolve_params(params))
    }
    fans = {str(f["id"]): f["count"] for f in won["fans"] if f["id"] != 1}
    assert {int(f) for f in fans} <= catalog, (won["fans"], catalog)
    return fans


@st.composite
def rounds(draw: st.DrawFn) -> tuple[dict[str, Any], Model, list[dict[str, Any]]]:
    """A legal random round, the model's settlement of it, and per-event facts."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    players = draw(st.sampled_from([4, 4, 4, 3, 2]))
    preset = draw(st.sampled_from(["xuezhan", "chengdu"]))
    params: dict[str, Any] = dict(REGISTRY["sichuan"].defaults)
    if preset == "chengdu":
        params.update(CHENGDU)
    params.update(
        blood_battle=draw(st.booleans()) or draw(st.booleans()),
        base=draw(st.integers(1, 10)),
        self_draw=draw(st.sampled_from(["add_base", "add_fan", "none"])),
        cap_fans=draw(st.sampled_from([0, 0, 3, 5])),
        kong_exposed=draw(st.integers(0, 2)),
        kong_added=draw(st.integers(0, 2)),
        kong_concealed=draw(st.integers(1, 3)),
        kong_handover=draw(st.booleans()) or draw(st.booleans()),
        pig_multiplier=draw(st.sampled_from([16, 8])),
        refund_kongs=draw(st.booleans()) or draw(st.booleans()),
        robbing_kong_fan=draw(st.booleans()),
        last_tile_fan=draw(st.booleans()),
    )
    model = Model(players, params)
    pool = [4] * 27
    events: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []  # per event: who was out before it, statuses at the end

    def winner(seat: int, flags: dict[str, bool], tiles_ok: bool) -> tuple[dict[str, Any], int]:
        """A winner entry and its fan total (the model's or score()'s)."""
        if tiles_ok and draw(st.booleans()):
            got = win_hand(rng, pool)
            if got is not None:
                concealed, melds = got
                win = rng.choice(concealed)
                concealed.remove(win)
                entry = T(seat, compact(concealed), tile(win), *melds)
                r = score({"ruleset": "sichuan", "params": params, **entry["hand"], **flags})
                assert r["ok"] and r["win"], (entry, r)
                return entry, r["total"]
        table = XZ_QUICK if params["fan_table"] == "xuezhan" else CD_QUICK
        fans, pts = draw(st.sampled_from(table))
        roots = draw(st.integers(0, 2))
        fans = {**fans, "15": roots} if roots else dict(fans)
        total = pts + roots
        total += 1 if flags.get("after_kong") else 0
        total += 1 if flags.get("robbing_kong") and params["robbing_kong_fan"] else 0
        last = flags.get("last_tile") and flags.get("self_drawn") and params["last_tile_fan"]
        total += 1 if last else 0
        return Q(seat, fans), total

    def add_win(discarder: int | None, after_kong: bool = False, robbing: bool = False) -> None:
        live = model.in_play()
        flags = {"self_drawn": discarder is None, "after_kong": after_kong, "robbing_kong": robbing}
        if discarder is None:
            seats = [draw(st.sampled_from(live))]
            flags["last_tile"] = draw(st.booleans())
        else:
            cands = [s for s in live if s != discarder]
            perm = draw(st.permutations(cands))
            seats = list(perm[: draw(st.integers(1, len(cands)))])
        entries = []
        for k, s in enumerate(seats):
            entry, total = winner(s, flags, tiles_ok=(k == 0))  # one tiles hand per discard
            entries.append(entry)
            if discarder is None:
                for p in live:
                    if p != s:
                        model.pay(p, s, model.self_amount(total))
            else:
                model.pay(discarder, s, model.money(total))
        ev = W(discarder, *entries, **{k: v for k, v in flags.items() if v and k != "self_drawn"})
        if after_kong and discarder is not None and params["kong_handover"]:
            kong = model.kongs[-1]
            got = sum(a for _, a in kong["received"])
            for s in seats:
                model.pay(discarder, s, got)
            kong["handed_over"] = True
        facts.append({"out_before": list(model.out)})
        events.append(ev)
        model.out += seats
        if not params["blood_battle"] or len(model.out) >= players - 1:
            model.finished = True

    def add_wall_end() -> None:
        live = model.in_play()
        hands, status, claim = [], {}, {}
        for s in live:
            kind = draw(st.sampled_from(["pig", "ready", "ready", "loose"]))
            tiles = None
            melds: list[dict[str, Any]] = []
            if kind == "ready":
                got = win_hand(rng, pool)
                if got is not None:
                    tiles, melds = got
                    drop = rng.choice(tiles)
                    tiles.remove(drop)
                    pool[drop] += 1
                else:
                    kind = "loose"  # the pool is too thin for a winning shape
            if tiles is None:
                tiles = loose_hand(rng, pool, 13, three_suits=kind == "pig")
                assert tiles is not None
            hand = H(s, compact(tiles), *melds)
            hands.append(hand)
            sit = {
                "ruleset": "sichuan",
                "params": params,
                "concealed": hand["concealed"],
                "melds": melds,
            }
            held_suits = {t // 9 for t in tiles} | {"mps".index(m["tiles"][1]) for m in melds}
            # Told instead of shown, now and then: the same standing, and
            # for a ready hand the fans of its best wait as score() counts them.
            tell = draw(st.integers(0, 2)) == 0
            if len(held_suits) == 3:
                status[s] = "pig"
                if tell:
                    hands[-1] = {"seat": s, "status": "pig"}
                continue
            ws = waits(sit)
            assert ws["ok"], ws
            if kind == "ready":
                assert ws["waits"], hand
            status[s] = "ready" if ws["waits"] else "not_ready"
            if ws["waits"]:
                best = max(
                    (score({**sit, "win_tile": w}) for w in ws["waits"]), key=lambda r: r["value"]
                )
                claim[s] = best["value"]
                if tell:
                    hands[-1] = {"seat": s, "status": "ready", "fans": picked_fans(best, params)}
            elif tell:
                hands[-1] = {"seat": s, "status": "not_ready"}
        pigs = [s for s in live if status[s] == "pig"]
        for p in pigs:
            for s in live:
                if status[s] != "pig":
                    model.pay(p, s, model.base * params["pig_multiplier"])
        for p in live:
            if status[p] == "not_ready":
                for s in claim:
                    model.pay(p, s, claim[s])
        if params["refund_kongs"]:
            for k in model.kongs:
                if status.get(k["player"]) in ("pig", "not_ready") and not k["handed_over"]:
                    for payer, amount in k["received"]:
                        model.pay(k["player"], payer, amount)
        facts.append({"out_before": list(model.out), "status": status, "claim": claim})
        events.append(END(*hands))
        model.finished = True

    for _ in range(draw(st.integers(1, 9))):
        if model.finished:
            break
        live = model.in_play()
        what = draw(st.sampled_from(["kong", "kong", "win", "win", "wall_end"]))
        if what == "kong":
            p = draw(st.sampled_from(live))
            kind = draw(st.sampled_from(["exposed", "added", "concealed"]))
            others = [s for s in live if s != p]
            follow = draw(
                st.sampled_from(["", "", "pao", "flower"] + (["rob"] if kind == "added" else []))
            )
            if kind == "exposed":
                d = draw(st.sampled_from(others))
                ev, payers, amount = K(p, kind, d), [d], model.base * params["kong_exposed"]
            else:
                ev, payers = K(p, kind), others
                amount = model.base * params["kong_added" if kind == "added" else "kong_concealed"]
            facts.append({"out_before": list(model.out)})
            events.append(ev)
            if follow == "rob":
                if draw(st.booleans()):
                    ev["robbed"] = True
                add_win(p, robbing=True)
                continue
            received = [(s, amount) for s in payers if amount]
            for s, a in received:
                model.pay(s, p, a)
            model.kongs.append({"player": p, "received": received, "handed_over": False})
            if follow == "pao":
                add_win(p, after_kong=True)
            elif follow == "flower":
                live_now = model.in_play()
                flags = {"self_drawn": True, "after_kong": True}
                entry, total = winner(p, flags, tiles_ok=True)
                for s in live_now:
                    if s != p:
                        model.pay(s, p, model.self_amount(total))
                facts.append({"out_before": list(model.out)})
                events.append(W(None, entry, after_kong=True))
                model.out.append(p)
                if not params["blood_battle"] or len(model.out) >= players - 1:
                    model.finished = True
        elif what == "win":
            add_win(None if draw(st.booleans()) else draw(st.sampled_from(live)))
        else:
            add_wall_end()
    return rnd(events, players, **params), model, facts


PROPERTY = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@PROPERTY
@given(rounds())
def test_property_random_rounds(case: tuple[dict[str, Any], Model, list[dict[str, Any]]]) -> None:
    round_, model, facts = case
    before = copy.deepcopy(round_)
    r = settle(round_)
    assert r["ok"], (r, round_)
    assert round_ == before  # the input is not changed
    # The model's money, winners and end.
    assert r["deltas"] == model.deltas, (round_, r["transfers"])
    assert r["out"] == model.out and r["finished"] is model.finished
    # Zero sum; deltas are the transfers added up, and the events' deltas too.
    assert sum(r["deltas"]) == 0
    total = [0] * model.n
    for t in r["transfers"]:
        assert t["amount"] > 0 and t["from"] != t["to"]
        total[t["from"]] -= t["amount"]
        total[t["to"]] += t["amount"]
    assert total == r["deltas"]
    per_event = [sum(e["deltas"][s] for e in r["events"]) for s in range(model.n)]
    assert per_event == r["deltas"]
    assert len(r["events"]) == len(facts)
    for t in r["transfers"]:
        fact = facts[t["event"]]
        # A player who has won never pays later; he receives only kong refunds.
        assert t["from"] not in fact["out_before"], t
        if t["to"] in fact["out_before"]:
            assert t["reason"] == "kong_refund", t
        status = fact.get("status")
        if t["reason"] == "not_ready":
            assert status[t["from"]] == "not_ready" and status[t["to"]] == "ready"
        if t["reason"] in ("pig", "not_ready"):
            assert status[t["to"]] != "pig"  # a pig never receives from the checks
        if t["reason"] == "pig":
            assert status[t["from"]] == "pig"
    # At the wall's end every standing and 查大叫 claim is the shown hand's, told or not.
    for report, fact in zip(r["events"], facts, strict=True):
        if report["type"] == "wall_end":
            assert {c["seat"]: c["status"] for c in report["checks"]} == fact["status"]
            claims = {c["seat"]: c["claim"] for c in report["checks"] if c["status"] == "ready"}
            assert claims == fact["claim"]
    # Deterministic.
    assert settle(copy.deepcopy(round_)) == r


# --- 流局 told by status: 花猪 / 没听牌 / 听牌 with the best wait's fans


def S(seat: int, status: str, fans: dict[str, int] | None = None) -> dict[str, Any]:
    h: dict[str, Any] = {"seat": seat, "status": status}
    if fans is not None:
        h["fans"] = fans
    return h


def best_wait_fans(concealed: str, params: dict[str, Any] | None = None) -> dict[str, int]:
    """The fans a player would pick for the best wait, read from score() of that win."""
    sit: dict[str, Any] = {"ruleset": "sichuan", "concealed": concealed, "params": params or {}}
    ws = waits(sit)["waits"]
    best = max((score({**sit, "win_tile": w}) for w in ws), key=lambda r: (r["value"], r["total"]))
    catalog = {
        f["id"] for f in REGISTRY["sichuan"].fan_catalog(REGISTRY["sichuan"].resolve_params(params))
    }
    return {str(f["id"]): f["count"] for f in best["fans"] if f["id"] in catalog and f["id"] != 1}


@pytest.mark.parametrize(
    "params", [{}, CHENGDU, {"cap_fans": 2}], ids=["xuezhan", "chengdu", "cap2"]
)
@pytest.mark.parametrize(
    "ready",
    ["1112345678999s", "11223344556m77p", "111222333444m5p", READY2],
)
def test_wall_end_told_by_status_pays_as_the_hands_shown(
    ready: str, params: dict[str, Any]
) -> None:
    pig, unready = "99m24688p13579s4s", "1357m2468m13579p"
    shown = ok([K(1, "concealed"), END(H(0, pig), H(1, unready), H(2, ready))], 3, **params)
    statuses = [c["status"] for c in shown["events"][1]["checks"]]
    assert statuses == ["pig", "not_ready", "ready"]
    fans = best_wait_fans(ready, params)
    told = ok([K(1, "concealed"), END(S(0, "pig"), S(1, "not_ready"), S(2, "ready", fans))], 3,
              **params)  # fmt: skip
    assert told["transfers"] == shown["transfers"] and told["deltas"] == shown["deltas"]
    claims = [(c["seat"], c["status"], c["claim"]) for c in told["events"][1]["checks"]]
    assert claims == [(c["seat"], c["status"], c["claim"]) for c in shown["events"][1]["checks"]]
    # Mixed: one hand shown, the others told.
    mixed = ok([K(1, "concealed"), END(S(0, "pig"), H(1, unready), S(2, "ready", fans))], 3,
               **params)  # fmt: skip
    assert mixed["deltas"] == shown["deltas"]


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        (S(0, "maybe"), "bad_event"),
        (S(0, "ready"), "bad_event"),  # a ready hand needs its fans
        ({"seat": 0, "status": "pig", "concealed": PIG0}, "bad_event"),  # tiles or status
        (S(0, "ready", {"999": 1}), "bad_input"),  # no such fan
        ({"seat": 0, "status": "ready", "fans": 3}, "bad_event"),  # a count is no fan list
        ({"seat": 0, "status": None}, "bad_event"),
        (S(0, "ready", {"15": 5}), "bad_input"),  # 根 at most 4 times
        (S(0, "ready", {"2": 1, "5": 1}), "bad_input"),  # two patterns do not add up
    ],
)
def test_wall_end_status_is_checked(hand: dict[str, Any], code: str) -> None:
    # A kong paid before the wall's end: a refused wall end leaves no transfer at all.
    r = settle(rnd([K(1, "concealed"), END(hand, S(1, "not_ready"))], players=2))
    assert not r["ok"] and r["error"]["code"] == code, r
    assert "transfers" not in r
    # Both languages, each naming the event and the seat.
    assert r["error"]["message"].startswith("event 2 (seat 0): "), r
    assert r["error"]["message_zh"].startswith("第 2 个事件（0 号位）："), r
    assert HAN.search(r["error"]["message_zh"][len("第 2 个事件（0 号位）：") :])
