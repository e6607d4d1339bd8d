"""四川麻将 (ruleset `sichuan`): hand scoring, presets xuezhan and chengdu.

The worked examples are copied from the seeds (seed 002 "四川麻將規則的番種"
and its scoring example with base 6; seed 000 "成麻五元算账一览表"); the tests
never read the seeds themselves.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import REGISTRY, score, waits

CHENGDU = dict(REGISTRY["sichuan"].preset("chengdu").params)  # type: ignore[union-attr]


def sc(concealed: str, win: str, params: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    sit: dict[str, Any] = {"ruleset": "sichuan", "concealed": concealed, "win_tile": win}
    if params:
        sit["params"] = params
    sit.update(kw)
    return score(sit)


def cd(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    return sc(concealed, win, CHENGDU, **kw)


def kong(t: str, exposed: bool = True) -> dict[str, Any]:
    return {"type": "kong", "tiles": t * 4, "exposed": exposed}


def pung(t: str) -> dict[str, Any]:
    return {"type": "pung", "tiles": t * 3}


def ids(r: dict[str, Any]) -> dict[str, int]:
    assert r["ok"], r
    return {f["name_zh"]: f["count"] for f in r["fans"]}


# --- presets and registration ----------------------------------------------------------


def test_registered_with_presets() -> None:
    rs = REGISTRY["sichuan"]
    assert [p.id for p in rs.presets] == ["xuezhan", "chengdu"]
    assert rs.preset("") is not None and rs.preset("").id == "xuezhan"  # type: ignore[union-attr]
    assert rs.table_play is True  # rounds are played as events (rules/rulesets/sichuan/round.py)
    assert rs.table().tiles == tuple(range(27)) and rs.table().chi is False
    assert rs.table().stepwise and not rs.table().prevalent_wind


# --- seed 002: the fan examples -----------------------------------------------------------


def test_seed002_pinghu() -> None:
    # "平胡(基本胡),一番,四坎牌加一對將。如23445677筒345789條"
    r = sc("2344567p345789s", "7p")
    assert ids(r) == {"平胡": 1} and r["total"] == 1 and r["value"] == 6


def test_seed002_duidui() -> None:
    # "對對胡 ... 如111222444萬33399筒"
    r = sc("111222444m3339p", "9p")
    assert ids(r) == {"对对胡": 1} and r["total"] == 2 and r["value"] == 12


def test_seed002_daiyaojiu_picks_best_reading() -> None:
    # "帶幺九 ... 如111222333萬78999筒": read as 123m x3, not as pungs (对对胡 2)
    r = sc("111222333m7899p", "9p")
    assert ids(r) == {"带幺九": 1} and r["total"] == 3


def test_seed002_qidui_example_has_four_2m() -> None:
    # "七對 ... 如2244552299萬1199筒" holds four 2m, so it is really 龙七对 (5, 减1根)
    r = sc("2244552299m119p", "9p")
    assert ids(r) == {"龙七对": 1} and r["total"] == 5
    r = sc("2244556699m119p", "9p")  # a plain seven pairs
    assert ids(r) == {"七对": 1} and r["total"] == 3


def test_seed002_qingdui_example_is_pure_seven_pairs() -> None:
    # "清對 ... 如99887755221166筒": seven pairs of one suit, 清七对 5
    r = sc("9988775522116p", "6p")
    assert ids(r) == {"清七对": 1} and r["total"] == 5
    r = sc("1112223339997p", "7p")  # a real 清对
    assert ids(r) == {"清对": 1} and r["total"] == 4


def test_seed002_jiangdui() -> None:
    # "將對 ... 如222555888條88855萬"
    r = sc("222555888s8885m", "5m")
    assert ids(r) == {"将对": 1} and r["total"] == 4


def test_seed002_long_qidui_minus_one_gen() -> None:
    # "龍七對 ... 不再計七對,同時減1根。如11222244筒557799萬"
    r = sc("11222244p55779m", "9m")
    assert ids(r) == {"龙七对": 1} and r["total"] == 5
    # two quads: one is used up, the other is a 根
    r = sc("11112222p55779m", "9m")
    assert ids(r) == {"龙七对": 1, "根": 1} and r["total"] == 6


def test_seed002_pure_flush_variants() -> None:
    assert ids(sc("1234567892345m", "5m")) == {"清一色": 1}
    assert sc("1234567892345m", "5m")["total"] == 3
    r = sc("1122446688995s", "5s")
    assert ids(r) == {"清七对": 1} and r["total"] == 5
    r = sc("1112223337899s", "9s")  # 123s x3, 789s, 99s -> 清幺九
    assert ids(r) == {"清幺九": 1} and r["total"] == 5
    r = sc("1122224466889m", "9m")  # 清龙七对 6, 减1根
    assert ids(r) == {"清龙七对": 1} and r["total"] == 6


def test_seed002_heavenly_earthly_only_largest() -> None:
    r = sc("1112223339997p", "7p", self_drawn=True, heavenly=True)
    assert ids(r) == {"天胡": 1} and r["total"] == 6
    r = sc("2344567p345789s", "7p", self_drawn=True, earthly=True)
    assert ids(r) == {"地胡": 1} and r["total"] == 6


def test_seed002_added_fans() -> None:
    r = sc("2344567p345789s", "7p", self_drawn=True, after_kong=True)
    assert ids(r) == {"平胡": 1, "杠上花": 1} and r["total"] == 2
    r = sc("2344567p345789s", "7p", after_kong=True)
    assert ids(r) == {"平胡": 1, "杠上炮": 1} and r["total"] == 2
    r = sc("2344567p345789s", "7p", robbing_kong=True)
    assert ids(r) == {"平胡": 1, "抢杠": 1} and r["total"] == 2
    r = sc("2344567p345789s", "7p", {"robbing_kong_fan": False}, robbing_kong=True)
    assert r["total"] == 1
    r = sc("2344567p345789s", "7p", self_drawn=True, last_tile=True)
    assert r["total"] == 1  # 海底捞 off by default
    r = sc("2344567p345789s", "7p", {"last_tile_fan": True}, self_drawn=True, last_tile=True)
    assert ids(r) == {"平胡": 1, "海底捞": 1}


def test_seed002_gen_and_the_kong_parameter() -> None:
    # "根,1番,四張同樣的牌不作杠算1根"
    r = sc("11112m567789p55p", "3m")  # four 1m, not a kong
    assert ids(r) == {"平胡": 1, "根": 1} and r["total"] == 2
    melds = [kong("5m")]
    r = sc("123456789p1p", "1p", melds=melds)
    assert ids(r) == {"平胡": 1} and r["total"] == 1
    r = sc("123456789p1p", "1p", {"kong_counts_as_gen": True}, melds=melds)
    assert ids(r) == {"平胡": 1, "根": 1} and r["total"] == 2
    # a pung and the fourth copy in the hand is a 根 either way
    r = sc("567m234p567p8p", "8p", melds=[pung("5m")])
    assert ids(r)["根"] == 1


def test_seed002_money_table() -> None:
    # "1番對應1倍、2番對應2倍、3番對應4倍、4番對應8倍、5番對應16倍、六番對應32倍", 基本分 6
    for concealed, win, fans in [
        ("2344567p345789s", "7p", 1),
        ("111222444m3339p", "9p", 2),
        ("111222333m7899p", "9p", 3),
        ("222555888s8885m", "5m", 4),
        ("11222244p55779m", "9m", 5),
        ("1122224466889m", "9m", 6),
    ]:
        r = sc(concealed, win)
        assert r["total"] == fans
        assert r["multiplier"] == 2 ** (fans - 1)
        assert r["value"] == 6 * 2 ** (fans - 1)


def test_seed002_scoring_example_base_6() -> None:
    # "勝利玩家A的X為54 ... 失敗玩家每人的X為18": a self-drawn 2-番 hand,
    # 6 x 2 + 6 (自摸加底) = 18 from each of three players.
    table = {"players": 4, "dealer": 0, "winner": 0}
    r = sc("111222444m3339p", "9p", self_drawn=True, table=table)
    assert r["value"] == 12
    assert r["deltas"] == [54, -18, -18, -18]
    assert [p["amount"] for p in r["payments"]] == [18, 18, 18]


# --- seed 000: 成麻五元算账一览表 -------------------------------------------------------


def test_chengdu_pinghu() -> None:
    # "平胡 ... 點炮5分,自摸為每家10分"
    r = cd("2344567p345789s", "7p", table={"winner": 0, "discarder": 1})
    assert r["total"] == 0 and r["value"] == 5 and r["deltas"] == [5, -5, 0, 0]
    r = cd("2344567p345789s", "7p", self_drawn=True, table={"winner": 0})
    assert r["deltas"] == [30, -10, -10, -10]


def test_chengdu_duizi() -> None:
    # "對子胡 ... 為1番,即兩倍,點炮10分。帶杠加番。"
    r = cd("111222444m3339p", "9p")
    assert ids(r) == {"对子胡": 1} and r["value"] == 10
    r = cd("111222m3339p", "9p", melds=[kong("4m")])
    assert ids(r) == {"对子胡": 1, "根": 1} and r["total"] == 2 and r["value"] == 20


def test_chengdu_seven_pairs() -> None:
    # "暗七對,2番,即四倍,點炮20分。帶杠的為龍七對,3番,點炮40分。"
    r = cd("2244556699m119p", "9p")
    assert ids(r) == {"暗七对": 1} and r["value"] == 20
    r = cd("11222244p55779m", "9m")
    assert ids(r) == {"龙七对": 1} and r["total"] == 3 and r["value"] == 40


def test_chengdu_flush() -> None:
    # "清一色,不帶杠的叫素清,2番,點炮20分。帶杠的清一色,或清一色對子胡(清對),3番,
    #  點炮40分。帶兩杠的清一色,或清一色對子胡帶杠,4番,點炮80分。"
    assert cd("1234567892345m", "5m")["value"] == 20
    r = cd("1234562345m", "5m", melds=[kong("9m")])
    assert r["total"] == 3 and r["value"] == 40
    r = cd("1112223339997p", "7p")
    assert r["total"] == 3 and r["value"] == 40
    r = cd("2345567m", "5m", melds=[kong("9m"), kong("1m")])  # 清一色 with two kongs
    assert r["total"] == 4 and r["value"] == 80
    r = cd("1112223335p", "5p", melds=[kong("9p")])  # 清对带杠
    assert r["total"] == 4 and r["value"] == 80


def test_chengdu_jiangdui() -> None:
    # "將對 ... 為3番。帶杠為4番。"
    r = cd("222555888s8885m", "5m")
    assert ids(r) == {"将对": 1} and r["total"] == 3
    r = cd("222555s8885m", "5m", melds=[kong("8s")])
    assert r["total"] == 4


def test_chengdu_golden_hook() -> None:
    # "大單吊 ... 為2番,點炮20分,帶一杠為極品,帶兩杠為精品 ... 帶四杠 ... 十八學士"
    ms = [pung("1m"), pung("3m"), pung("5p"), pung("7p")]
    r = cd("9p", "9p", melds=ms)
    assert ids(r) == {"金钩钓": 1} and r["value"] == 20
    r = cd("9p", "9p", melds=[kong("1m"), *ms[1:]])
    assert r["total"] == 3
    r = cd("9p", "9p", melds=[kong("1m"), kong("3m"), *ms[2:]])
    assert r["total"] == 4
    r = cd("9p", "9p", melds=[kong("1m"), kong("3m"), kong("5p"), kong("7p")])
    assert r["total"] == 6


def test_chengdu_eighteen_scholars_pure_after_kong_is_9_fans() -> None:
    # "清一色十八學士杠上花,共有9番,即512倍"
    ms = [kong("1m"), kong("2m"), kong("3m"), kong("4m", exposed=False)]
    r = cd("5m", "5m", melds=ms, self_drawn=True, after_kong=True)
    assert r["total"] == 9 and r["multiplier"] == 512 and r["value"] == 5 * 512


def test_chengdu_self_draw_add_base_or_add_fan() -> None:
    # "如果打5分麻將,自摸加底只加5分錢,加番則要多一倍,譬如20分的牌,自摸就是40分"
    t = {"winner": 2}
    r = cd("2244556699m119p", "9p", self_drawn=True, table=t)
    assert r["value"] == 20 and r["payments"][0]["amount"] == 25
    p = {**CHENGDU, "self_draw": "add_fan"}
    r = sc("2244556699m119p", "9p", p, self_drawn=True, table=t)
    assert r["value"] == 20 and r["payments"][0]["amount"] == 40
    assert r["deltas"] == [-40, -40, 120, -40]
    p = {**CHENGDU, "self_draw": "none"}
    r = sc("2244556699m119p", "9p", p, self_drawn=True, table=t)
    assert r["payments"][0]["amount"] == 20


def test_chengdu_robbing_kong_and_kong_discard() -> None:
    # "杠上炮、杠上花、搶杠都要加一番"
    assert cd("2344567p345789s", "7p", robbing_kong=True)["total"] == 1
    assert cd("2344567p345789s", "7p", after_kong=True)["total"] == 1
    assert cd("2344567p345789s", "7p", self_drawn=True, after_kong=True)["total"] == 1


# --- refusals ------------------------------------------------------------------------------


def test_three_suits_is_a_flower_pig() -> None:
    r = sc("123m456p789s1115m", "5m")
    assert r["ok"] is False and r["error"]["code"] == "not_a_win"
    assert "花猪" in r["error"]["message_zh"] and "flower pig" in r["error"]["message"]
    # the third suit in a meld counts too
    r = sc("123m456m78m55m", "9m", melds=[pung("1s")])
    assert r["ok"] and r["win"]  # m + s only: fine


def test_three_suits_with_melds_refused() -> None:
    r = sc("123m456m5m", "5m", melds=[pung("1s"), pung("2p")])
    assert r["ok"] is False and r["error"]["code"] == "not_a_win"
    assert "三门" in r["error"]["message_zh"]


def test_no_chi() -> None:
    r = sc("123m456m789m5m", "5m", melds=[{"type": "chi", "tiles": "234p"}])
    assert r["ok"] is False and r["error"]["code"] == "illegal_meld"
    assert "吃" in r["error"]["message_zh"] and "chi" in r["error"]["message"]


def test_honors_and_flowers_refused() -> None:
    r = sc("123m456m789m5m111z", "5m")
    assert r["ok"] is False and r["error"]["code"] == "bad_tile"
    assert "108" in r["error"]["message"] and "108" in r["error"]["message_zh"]
    r = sc("123m456m789m1m", "1m", melds=[pung("5z")])
    assert r["error"]["code"] == "bad_tile"
    r = sc("2344567p345789s", "7p", flowers=1)
    assert r["error"]["code"] == "bad_tile" and "花" in r["error"]["message_zh"]
    r = sc("2344567p345789s", "7p", wild=["1m"])
    assert r["error"]["code"] == "bad_input"


def test_not_a_shape() -> None:
    r = sc("1357m2468p1357m9m", "9p")
    assert r["ok"] is False and r["error"]["code"] == "not_a_win"


# --- cap, numbering, payments ------------------------------------------------------------------


def test_cap_in_fans() -> None:
    r = sc("11112222p55779m", "9m", {"cap_fans": 5})
    assert r["total"] == 6 and r["multiplier"] == 16 and r["value"] == 96
    assert any("封顶" in n for n in r["notes_zh"])
    r = sc(
        "11112222p55779m",
        "9m",
        {"cap_fans": 5, "self_draw": "add_fan"},
        self_drawn=True,
        table={"winner": 0},
    )
    assert r["payments"][0]["amount"] == 96  # the extra fan is capped too


def test_money_numbering_parameter() -> None:
    r = sc("111222444m3339p", "9p", {"money": "pow_fan"})
    assert r["multiplier"] == 4 and r["value"] == 24
    r = sc("2344567p345789s", "7p", {"fan_table": "chengdu", "money": "pow_fan_minus_1"})
    assert r["total"] == 0 and r["multiplier"] == 1
    r = sc("2344567p345789s", "7p", {"base": 10})
    assert r["value"] == 10


def test_discard_win_only_discarder_pays() -> None:
    r = sc("111222444m3339p", "9p", table={"winner": 1, "discarder": 3})
    assert r["payments"] == [{"from": 3, "to": 1, "amount": 12}]
    assert r["deltas"] == [0, 12, 0, -12]


def test_missing_winner_is_bad_table() -> None:
    r = sc("111222444m3339p", "9p", table={"players": 4})
    assert r["error"]["code"] == "bad_table"


def test_notes_in_both_languages() -> None:
    r = sc("11222244p55779m", "9m")
    assert len(r["notes"]) == len(r["notes_zh"])
    assert any("减 1 根" in n for n in r["notes_zh"])
    assert any("最大番" in n for n in r["notes_zh"])


def test_waits() -> None:
    w = waits({"ruleset": "sichuan", "concealed": "2344567p345789s"})
    assert w["ok"] and w["waits"] == ["1p", "4p", "7p"]
    w = waits({"ruleset": "sichuan", "concealed": "123m456p789s1112m"})
    assert w["ok"] and w["waits"] == []
    w = waits({"ruleset": "sichuan", "concealed": "123m456p789m1112z"})
    assert w["ok"] is False and w["error"]["code"] == "bad_tile"


HANDS = [
    ("2344567p345789s", "7p", []),
    ("111222444m3339p", "9p", []),
    ("11112222p55779m", "9m", []),
    ("9p", "9p", [pung("1m"), pung("3m"), pung("5p"), pung("7p")]),
    ("123456789p1p", "1p", [kong("5m")]),
]


@settings(max_examples=200, deadline=None)
@given(
    hand=st.sampled_from(HANDS),
    players=st.sampled_from([2, 3, 4]),
    data=st.data(),
    self_drawn=st.booleans(),
    preset=st.sampled_from(["xuezhan", "chengdu"]),
    mode=st.sampled_from(["add_base", "add_fan", "none"]),
    cap=st.integers(0, 8),
    base=st.integers(0, 50),
)
def test_payments_sum_to_zero(
    hand: tuple[str, str, list[dict[str, Any]]],
    players: int,
    data: st.DataObject,
    self_drawn: bool,
    preset: str,
    mode: str,
    cap: int,
    base: int,
) -> None:
    winner = data.draw(st.integers(0, players - 1))
    table: dict[str, Any] = {"players": players, "winner": winner}
    if not self_drawn:
        table["discarder"] = data.draw(st.sampled_from([s for s in range(players) if s != winner]))
    params = dict(REGISTRY["sichuan"].preset(preset).params)  # type: ignore[union-attr]
    params.update({"self_draw": mode, "cap_fans": cap, "base": base})
    r = sc(hand[0], hand[1], params, melds=hand[2], self_drawn=self_drawn, table=table)
    assert r["ok"], r
    assert sum(r["deltas"]) == 0
    assert len(r["deltas"]) == players
    assert r["deltas"][winner] == sum(p["amount"] for p in r["payments"])
    assert all(p["amount"] >= r["value"] for p in r["payments"])


# --- who deals next ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("blood", "winners", "discarder", "expected"),
    [
        (True, [2], 1, 1),  # 血战: "每局投骰" — the proposal is just the next seat
        (True, [], None, 1),
        (False, [2], 3, 3),  # "點炮者坐莊": the player who dealt in deals
        (False, [2, 3], 1, 1),  # 一炮多响: still the one who dealt in
        (False, [2], None, 2),  # self-drawn: no 点炮者, the winner deals
        (False, [], None, 0),  # "流局則連莊"
    ],
)
def test_next_dealer(blood: bool, winners: list[int], discarder: int | None, expected: int) -> None:
    rs = REGISTRY["sichuan"]
    params = rs.resolve_params({"blood_battle": blood})
    assert rs.next_dealer(0, 4, winners, params, discarder=discarder) == expected


def test_fan_tables_hold_the_seed_rules_as_data() -> None:
    """血战 "只按最大番算": every pattern excludes every other, so one stands;
    成都: one shape, 清一色 adds to it; 根 and the flag fans are never excluded."""
    from rules.rulesets.sichuan.scoring import TABLES

    xuezhan, chengdu = TABLES["xuezhan"], TABLES["chengdu"]
    patterns = [f.id for f in xuezhan if f.group == "pattern"]
    assert patterns == list(range(1, 14))
    for a in patterns:
        for b in patterns:
            if a != b:
                assert b in xuezhan[a].excludes, (a, b)
    shapes = [f.id for f in chengdu if f.group == "pattern"]
    assert sorted(shapes) == [1, 2, 5, 7, 8, 14]
    for table in (xuezhan, chengdu):
        for f in table:
            assert 15 not in f.excludes and not {16, 17, 18, 19} & set(f.excludes)
    assert all(3 not in chengdu[s].excludes for s in shapes)  # 清一色 adds in 成都
    # The highest stands; on equal points the higher id (将对 over 清对 in 血战).
    assert xuezhan.apply_exclusions({6: 1, 7: 1, 2: 1, 3: 1})[0] == {7: 1}
    assert chengdu.apply_exclusions({1: 1, 2: 1, 7: 1, 3: 1})[0] == {7: 1, 3: 1}
    # 成都 names its own rows.
    assert (chengdu[2].zh, chengdu[5].zh) == ("对子胡", "暗七对")
