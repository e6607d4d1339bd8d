"""云南 (玉溪): every figure of seed 002's 云南 section through a real hand — 1 番 3/4,
清一色+碰碰胡 8/6, +杠上花 12, +杠上炮 16, the ×2 ladder to 24/32, 龙七对's "6+1=7" as
`plus_one` — 平胡 only self-drawn, no 吃, kongs at once (a robbed one pays nothing),
一炮多响, 十老头, 流局 查大叫 with the kong money voided, the next dealer, and the
invariants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import api
from rules.registry import get_ruleset

YN = get_ruleset("yunnan")

PLAIN = ("123m456m789m34p55s", "5p")
PUNGS_FLUSH = ("111222333m4445m", "5m")  # 清一色 + 碰碰胡 (2 番)
PUNGS = ("111m222p333s444z5m", "5m")  # 碰碰胡 only
FLUSH = ("123456789m1234m", "4m")  # 清一色 only: 123 456 789 123 44 (m)
SEVEN = ("1133557799m224p", "4p")  # 小七对
DRAGON_FLUSH = ("1111223344556m", "6m")  # 清一色 + 龙七对 (3 番)
HONORS_SEVEN = ("1122334455667z", "7z")  # all honors: 清一色 (字) + 小七对


def score(hand: tuple[str, str], *, winner: int = 1, dealer: int = 0,
          discarder: int | None = 2, params: dict[str, Any] | None = None,
          **extra: Any) -> dict[str, Any]:  # fmt: skip
    out = api.score({
        "ruleset": "yunnan", "concealed": hand[0], "win_tile": hand[1],
        "self_drawn": discarder is None, "params": params or {},
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
        **extra,
    })  # fmt: skip
    assert out.get("ok", True), out
    return out


def settle(events: list[dict[str, Any]], params: dict[str, Any] | None = None,
           dealer: int = 0) -> dict[str, Any]:  # fmt: skip
    return api.settle(
        {"ruleset": "yunnan", "players": 4, "dealer": dealer, "params": params or {},
         "events": events}
    )  # fmt: skip


def fan_names(out: dict[str, Any]) -> set[str]:
    return {f["name_zh"] for f in out["fans"]}


# -- the seed's figures ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "names"),
    [(PUNGS, {"碰碰胡"}), (FLUSH, {"清一色"}), (SEVEN, {"小七对"})],
)
def test_one_fan_patterns_pay_3_each_self_drawn_and_4_on_a_discard(
    hand: tuple[str, str], names: set[str]
) -> None:
    """「碰碰胡 1番(自摸3分;點炮3+1=4分)」, the same for 清一色 and 小七对."""
    d = score(hand)
    assert fan_names(d) == names and d["total"] == 1
    assert d["deltas"] == [0, 4, -4, 0]
    s = score(hand, discarder=None)
    assert s["deltas"] == [-3, 9, -3, -3]


def test_flush_and_pungs_8_on_a_discard_6_each_self_drawn() -> None:
    """「清一色+碰碰胡點炮=4*2=8分,自摸=3*2=6分」"""
    assert fan_names(score(PUNGS_FLUSH)) == {"清一色", "碰碰胡"}
    assert score(PUNGS_FLUSH)["deltas"] == [0, 8, -8, 0]
    assert score(PUNGS_FLUSH, discarder=None)["deltas"] == [-6, 18, -6, -6]


def test_flush_pungs_and_win_after_a_kong_12_each() -> None:
    """「清一色+碰碰胡+杠上花自摸=每家3*2*2=12分」"""
    out = score(PUNGS_FLUSH, discarder=None, after_kong=True)
    assert fan_names(out) == {"清一色", "碰碰胡", "杠上花"} and out["total"] == 3
    assert out["deltas"] == [-12, 36, -12, -12]


def test_flush_pungs_and_win_on_a_kong_discard_16() -> None:
    """「清一色+碰碰胡+杠上炮=4*2*2=16分」"""
    out = score(PUNGS_FLUSH, after_kong=True)
    assert fan_names(out) == {"清一色", "碰碰胡", "杠上炮"}
    assert out["deltas"] == [0, 16, -16, 0]


def test_the_doubling_goes_on_24_each_and_32() -> None:
    """「以此推算:自摸=3*2*2*2~~~ 點炮=4*2*2*2*~~~」: 清一色 + 龙七对 + 杠上炮 is 4 番."""
    out = score(DRAGON_FLUSH, after_kong=True)
    assert fan_names(out) == {"清一色", "龙七对", "杠上炮"} and out["total"] == 4
    assert out["deltas"] == [0, 32, -32, 0]
    # 4 番 self-drawn needs 杠上花 with a 龙七对, which is concealed: 3 番 at most by
    # tiles, so the ladder's 24 is checked through the formula and quick entry.
    assert YN.value(4, True, YN.defaults) == 24


def test_dragon_seven_pairs_is_two_fan_and_replaces_seven_pairs() -> None:
    """「龍七對; 2 番(自摸<6分,點炮6+1=7分)」: 6 each self-drawn; the discard is 8 under
    the worked figures (four_base) and 7 under plus_one."""
    hand = ("1122334455p777s", "7s")
    d = score(hand)
    assert fan_names(d) == {"龙七对"} and d["total"] == 2
    assert d["deltas"] == [0, 8, -8, 0]
    assert score(hand, discarder=None)["deltas"] == [-6, 18, -6, -6]
    assert score(hand, params={"discard_rule": "plus_one"})["deltas"] == [0, 7, -7, 0]


@pytest.mark.parametrize(
    ("f", "self_drawn", "four_base", "plus_one"),
    [(0, True, 1, 1), (1, True, 3, 3), (1, False, 4, 4), (2, True, 6, 6), (2, False, 8, 7),
     (3, True, 12, 12), (3, False, 16, 13), (4, True, 24, 24), (4, False, 32, 25)],
)  # fmt: skip
def test_the_reading_s_value_table(f: int, self_drawn: bool, four_base: int, plus_one: int) -> None:
    """docs/rules/yunnan.md's table: both readings of YN-1, agreeing at 1 番."""
    assert YN.value(f, self_drawn, YN.defaults) == four_base
    assert YN.value(f, self_drawn, YN.resolve_params({"discard_rule": "plus_one"})) == plus_one


@pytest.mark.parametrize(
    ("hand", "discarder", "deltas"),
    [(PUNGS_FLUSH, 2, [0, 13, -13, 0]), (DRAGON_FLUSH, 2, [0, 13, -13, 0])],
)
def test_plus_one_through_real_hands(
    hand: tuple[str, str], discarder: int, deltas: list[int]
) -> None:
    """plus_one: 2 番 → 7; 3 番 (清一色+碰碰胡+杠上炮, 清一色+龙七对) → 12 + 1 = 13."""
    extra = {"after_kong": True} if hand == PUNGS_FLUSH else {}
    out = score(hand, discarder=discarder, params={"discard_rule": "plus_one"}, **extra)
    assert out["deltas"] == deltas


# -- when a hand may win --------------------------------------------------------------


def test_plain_hand_only_self_drawn_one_from_each() -> None:
    """「平胡必須自摸」「所胡牌的分數為每家1分」"""
    assert score(PLAIN, discarder=None)["deltas"] == [-1, 3, -1, -1]
    out = api.score({"ruleset": "yunnan", "concealed": PLAIN[0], "win_tile": PLAIN[1]})
    assert out["win"] is False and "平胡必须自摸" in out["notes_zh"][0]


def test_plain_shape_may_rob_a_kong_or_win_on_a_kong_discard() -> None:
    """YN-8: 抢杠胡 and 杠上炮 give 1 番 (4), so a plain shape may take them."""
    assert score(PLAIN, robbing_kong=True)["deltas"] == [0, 4, -4, 0]
    assert score(PLAIN, after_kong=True)["deltas"] == [0, 4, -4, 0]
    off = api.score({"ruleset": "yunnan", "concealed": PLAIN[0], "win_tile": PLAIN[1],
                     "robbing_kong": True,
                     "params": {"plain_shape_on_kong_discard": False}})  # fmt: skip
    assert off["win"] is False


def test_win_after_a_kong_alone_3_each() -> None:
    """「杠上花:1番(3分)」: a plain shape drawn on a kong's replacement."""
    out = score(PLAIN, discarder=None, after_kong=True)
    assert fan_names(out) == {"杠上花"} and out["deltas"] == [-3, 9, -3, -3]


def test_honors_are_a_flush() -> None:
    """「共計四色萬、條、筒、字」: an all-honor hand is 清一色 (YN-9), unless switched off."""
    assert fan_names(score(HONORS_SEVEN)) == {"清一色", "小七对"}
    assert score(HONORS_SEVEN)["deltas"] == [0, 8, -8, 0]
    off = score(HONORS_SEVEN, params={"honors_count_as_flush": False})
    assert fan_names(off) == {"小七对"}


def test_dragon_only_when_the_winning_tile_makes_four_under_win_on_quad() -> None:
    """YN-6 (b): "單獨吊三張牌一樣的": the fourth must be the winning tile."""
    held_quad = ("1111m33557799p2s", "2s")  # four 1m held, won on 2s
    assert fan_names(score(held_quad)) == {"龙七对"}
    assert fan_names(score(held_quad, params={"dragon_pairs": "win_on_quad"})) == {"小七对"}
    on_quad = ("111m3355779922p", "1m")
    assert fan_names(score(on_quad, params={"dragon_pairs": "win_on_quad"})) == {"龙七对"}


def test_seven_pairs_are_concealed_and_no_chi() -> None:
    out = api.score({"ruleset": "yunnan", "concealed": "1133557799m", "win_tile": "4p",
                     "melds": [{"type": "pung", "tiles": "444p"}], "self_drawn": True})  # fmt: skip
    assert out["win"] is False
    chi = api.score({"ruleset": "yunnan", "concealed": "456m789m34p55s", "win_tile": "5p",
                     "melds": [{"type": "chi", "tiles": "123m"}], "self_drawn": True})  # fmt: skip
    assert chi["ok"] is False and chi["error"]["code"] == "illegal_meld"


def test_no_wild_no_flowers() -> None:
    out = api.score({"ruleset": "yunnan", "concealed": PLAIN[0], "win_tile": PLAIN[1],
                     "self_drawn": True, "wild": ["5z"]})  # fmt: skip
    assert out["ok"] is False and "癞子" in out["error"]["message_zh"]


def test_waits_of_a_standing_hand() -> None:
    out = api.waits({"ruleset": "yunnan", "concealed": "1122334455667z"})
    assert out["waits"] == ["7z"]


# -- a round: kongs, 一炮多响, 十老头, 流局 ------------------------------------------------


def test_kongs_are_paid_at_once() -> None:
    """明杠 2 from the discarder (「打出一張牌的閑家給玩家2分」); 暗杠 2, 转弯杠 1 from each (YN-2)."""
    out = settle([
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 3},
        {"type": "kong", "player": 2, "kong": "concealed"},
        {"type": "kong", "player": 0, "kong": "added"},
        {"type": "win", "winners": [{"seat": 1, "hand": {"concealed": PLAIN[0],
                                                         "win_tile": PLAIN[1]}}]},
    ])  # fmt: skip
    assert [e["deltas"] for e in out["events"][:3]] == [
        [0, 2, 0, -2], [-2, -2, 6, -2], [3, -1, -1, -1]]  # fmt: skip
    assert out["events"][3]["deltas"] == [-1, 3, -1, -1]
    assert out["deltas"] == [0, 2, 4, -6]


def test_a_robbed_added_kong_pays_nothing() -> None:
    """A 转弯杠 robbed (抢杠) was never made; the konger pays the win as the discarder."""
    out = settle([
        {"type": "kong", "player": 2, "kong": "added", "tile": "5p"},
        {"type": "win", "discarder": 2, "robbing_kong": True,
         "winners": [{"seat": 1, "hand": {"concealed": PLAIN[0], "win_tile": PLAIN[1]}}]},
    ])  # fmt: skip
    assert out["events"][0]["void"] is True and out["events"][0]["deltas"] == [0, 0, 0, 0]
    assert out["deltas"] == [0, 4, -4, 0]


def test_one_discard_several_winners_each_paid_by_the_discarder() -> None:
    """一炮多响 (YN-12): each winner is paid his own value; the seat after the discarder deals."""
    out = settle([{"type": "win", "discarder": 0, "winners": [
        {"seat": 1, "hand": {"concealed": "1122334455p777s", "win_tile": "7s"}},
        {"seat": 3, "fans": {"1": 1}},
    ]}])  # fmt: skip
    assert out["deltas"] == [-12, 8, 0, 4]
    assert YN.next_dealer(2, 4, [1, 3], YN.defaults, discarder=0) == 1


def test_next_dealer() -> None:
    """「以后每盤首先胡牌的人為下一盤的莊家」; after a 流局 the dealer stays (YN-17)."""
    assert YN.next_dealer(0, 4, [2], YN.defaults, discarder=1) == 2
    assert YN.next_dealer(0, 4, [3], YN.defaults) == 3
    assert YN.next_dealer(1, 4, [], YN.defaults) == 1


def test_ten_honors_3_from_each_and_alone() -> None:
    """「十老頭/十風:1番(3分)」: each other pays 3 (YN-7); no shape, no other fan."""
    out = settle([{"type": "win", "winners": [{"seat": 2, "fans": {"5": 1}}]}])
    assert out["deltas"] == [-3, -3, 9, -3]
    assert out["transfers"][0]["reason_zh"] == "十老头"
    bad = settle([{"type": "win", "winners": [{"seat": 2, "fans": {"5": 1, "2": 1}}]}])
    assert bad["ok"] is False
    on_discard = settle(
        [{"type": "win", "discarder": 0, "winners": [{"seat": 2, "fans": {"5": 1}}]}]
    )
    assert on_discard["ok"] is False


def test_quick_entry_takes_the_win_s_flags() -> None:
    """杠上炮 set on the event counts for a winner entered by his fans."""
    out = settle([
        {"type": "kong", "player": 0, "kong": "concealed"},
        {"type": "win", "discarder": 0, "after_kong": True, "winners": [{"seat": 3, "fans": {}}]},
    ])  # fmt: skip
    assert out["events"][1]["deltas"] == [-4, 0, 0, 4]
    plain = settle([{"type": "win", "discarder": 0, "winners": [{"seat": 3, "fans": {}}]}])
    assert plain["ok"] is False and plain["error"]["code"] == "not_a_win"


def test_kong_handover_is_a_parameter() -> None:
    """YN-3: by default the kong money stays with the konger on 杠上炮; `kong_handover` passes it on."""
    events = [
        {"type": "kong", "player": 0, "kong": "concealed"},
        {"type": "win", "discarder": 0, "after_kong": True,
         "winners": [{"seat": 3, "hand": {"concealed": PLAIN[0], "win_tile": PLAIN[1]}}]},
    ]  # fmt: skip
    assert settle(events)["deltas"] == [2, -2, -2, 2]
    assert settle(events, {"kong_handover": True})["deltas"] == [-4, -2, -2, 8]
    late = [events[0], {"type": "kong", "player": 1, "kong": "concealed"}, events[1]]
    assert settle(late, {"kong_handover": True})["ok"] is False


WALL_HANDS = [
    {"seat": 0, "concealed": "1112345678999m"},  # ready: best 清一色, 1 番 → 3
    {"seat": 1, "concealed": "123m456p789s1357z"},  # not ready
    {"seat": 2, "concealed": "1122334455667z"},  # ready: 清一色 (字) + 小七对 → 6
    {"seat": 3, "status": "not_ready"},
]


def test_wall_end_checks_the_not_ready_and_voids_the_kongs() -> None:
    """「流局查大叫,杠錢不算」: kong money returned (YN-4); each not ready pays each
    ready the self-draw value of his best wait (YN-5)."""
    out = settle([
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
        {"type": "kong", "player": 3, "kong": "concealed"},
        {"type": "wall_end", "hands": WALL_HANDS},
    ])  # fmt: skip
    checks = {c["seat"]: c for c in out["events"][2]["checks"]}
    assert [checks[s]["status"] for s in range(4)] == ["ready", "not_ready", "ready", "not_ready"]
    assert checks[0]["claim"] == 3 and checks[2]["claim"] == 6
    assert checks[2]["claim_tile"] == "7z" and checks[2]["claim_fans"] == 2
    # Kongs voided: only the check moves money in all.
    assert out["deltas"] == [6, -9, 12, -9]
    kept = settle([
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
        {"type": "wall_end", "hands": WALL_HANDS},
    ], {"draw_voids_kongs": False})  # fmt: skip
    assert kept["deltas"] == [6, -7, 10, -9]
    assert YN.next_dealer(3, 4, [], YN.defaults) == 3


def test_wall_end_check_amount_is_a_parameter() -> None:
    hands = [WALL_HANDS[0], WALL_HANDS[1], {"seat": 2, "status": "ready", "fans": {"1": 1}},
             {"seat": 3, "status": "ready"}]  # fmt: skip
    assert settle([{"type": "wall_end", "hands": hands}])["deltas"] == [3, -7, 3, 1]
    disc = settle([{"type": "wall_end", "hands": hands}], {"cha_da_jiao": "discard_value"})
    assert disc["deltas"] == [4, -9, 4, 1]
    fixed = settle([{"type": "wall_end", "hands": hands}], {"cha_da_jiao": "fixed"})
    assert fixed["deltas"] == [3, -9, 3, 3]


def test_wall_end_refuses_a_flower_pig_and_situational_fans() -> None:
    pig = settle([{"type": "wall_end", "hands": [
        {"seat": s, "status": "pig" if s == 0 else "not_ready"} for s in range(4)]}])  # fmt: skip
    assert pig["ok"] is False and "没听牌" in pig["error"]["message_zh"]
    kong = settle([{"type": "wall_end", "hands": [
        {"seat": s, "status": "ready", "fans": {"6": 1}} if s == 0
        else {"seat": s, "status": "not_ready"} for s in range(4)]}])  # fmt: skip
    assert kong["ok"] is False
    missing = settle([{"type": "wall_end", "hands": WALL_HANDS[:3]}])
    assert missing["ok"] is False and "3 号位" in missing["error"]["message_zh"]


def test_presets() -> None:
    assert [p.id for p in YN.presets] == ["yuxi", "plus_one"]
    assert YN.resolve_params(YN.preset("plus_one").params)["discard_rule"] == "plus_one"  # type: ignore[union-attr]


# -- invariants -------------------------------------------------------------------------

HANDS = [PLAIN, PUNGS_FLUSH, PUNGS, FLUSH, SEVEN, DRAGON_FLUSH, HONORS_SEVEN]


@given(st.sampled_from(HANDS), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from([None, 0, 1, 2, 3]), st.booleans(), st.booleans(),
       st.sampled_from(["four_base", "plus_one"]), st.integers(1, 3))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_invariants(hand: tuple[str, str], winner: int, dealer: int, discarder: int | None,
                    after_kong: bool, robbing: bool, rule: str, dealer_factor: int) -> None:  # fmt: skip
    """Zero-sum; a discard costs the discarder at least what one payer gives on a
    self-draw and never more than the three together; each 番 more doubles the self-draw."""
    if discarder == winner or (robbing and (discarder is None or after_kong)):
        return
    params = {"discard_rule": rule, "dealer_factor": dealer_factor}
    out = api.score({
        "ruleset": "yunnan", "concealed": hand[0], "win_tile": hand[1],
        "self_drawn": discarder is None, "after_kong": after_kong, "robbing_kong": robbing,
        "params": params,
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
    })  # fmt: skip
    assert out["ok"], out
    if not out["win"]:
        assert discarder is not None and out["total"] == 0
        return
    assert sum(out["deltas"]) == 0
    assert out["deltas"][winner] > 0  # the winner never pays for his own win
    f = out["total"]
    p = YN.resolve_params(params)
    sd, dv = YN.value(f, True, p), YN.value(f, False, p)
    if f:
        assert sd == 3 * 2 ** (f - 1) and sd <= dv <= 3 * sd
    if discarder is None:
        assert sorted(-x for x in out["deltas"] if x < 0) == sorted(
            sd * (dealer_factor if dealer in (s, winner) else 1) for s in range(4) if s != winner
        )
    else:
        assert out["deltas"][discarder] == -dv * (dealer_factor if dealer in (discarder, winner)
                                                   else 1)  # fmt: skip


@given(st.lists(st.sampled_from(["exposed", "added", "concealed"]), max_size=4),
       st.lists(st.integers(0, 3), min_size=4, max_size=4), st.booleans())  # fmt: skip
@settings(max_examples=100, deadline=None)
def test_rounds_sum_to_zero_and_a_wall_end_voids_every_kong(
    kinds: list[str], players: list[int], void: bool
) -> None:
    events: list[dict[str, Any]] = []
    for kind, p in zip(kinds, players, strict=False):
        ev: dict[str, Any] = {"type": "kong", "player": p, "kong": kind}
        if kind == "exposed":
            ev["discarder"] = (p + 1) % 4
        events.append(ev)
    events.append({"type": "wall_end", "hands": [{"seat": s, "status": "not_ready"}
                                                  for s in range(4)]})  # fmt: skip
    out = settle(events, {"draw_voids_kongs": void})
    assert out["ok"], out
    assert sum(out["deltas"]) == 0
    kong_money = [sum(e["deltas"][s] for e in out["events"][:-1]) for s in range(4)]
    assert out["deltas"] == ([0, 0, 0, 0] if void else kong_money)


@given(st.integers(0, 6), st.booleans(), st.sampled_from(["four_base", "plus_one"]),
       st.integers(1, 10), st.integers(1, 10))  # fmt: skip
def test_a_higher_doubling_never_pays_less(
    f: int, self_drawn: bool, rule: str, sd_base: int, extra: int
) -> None:
    """One 番 more never pays less, whatever the bases (a discard never below a self-draw share)."""
    p = YN.resolve_params({"discard_rule": rule, "self_draw_base": sd_base,
                           "discard_base": sd_base + extra})  # fmt: skip
    if f == 0 and not self_drawn:
        return  # 平胡 is never won on a discard
    assert YN.value(f + 1, self_drawn, p) >= YN.value(f, self_drawn, p)
    if f:
        assert YN.value(f, False, p) >= YN.value(f, True, p)
