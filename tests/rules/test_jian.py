"""吉安冲关 (jian): every legible cell of the seed's tables, through real hands.

The seed's numbers are in tests/fixtures/jian_tables.json, transcribed from
seed 000 (l.33–36, l.159–165, l.183–189) as docs/rules/jian.md reads them.
Each cell is reached by scoring a hand built for it, so the hand reading
(shape, 德国, 精调, 扛开) and the payment rule are both on trial.  The 精 are
8p (正精) and 9p (副精): the tile turned up was 7p.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import get_ruleset, score, settle, shapes, waits
from rules.table import next_kind
from rules.tiles import parse_tile, parse_tiles
from tests.support.cli import run

TABLES = json.loads((Path(__file__).parents[1] / "fixtures" / "jian_tables.json").read_text())
JIAN = get_ruleset("jian")
WILD = ["8p", "9p"]
KONG = [{"type": "kong", "tiles": "1111z", "exposed": False}]

# (concealed without the win tile, win tile, melds): one hand per table row and column.
# A 精 the hand needs as another tile is 8p; a 德国 hand has none, or holds it as itself.
HANDS: dict[tuple[str, str], tuple[str, str, list[dict[str, Any]]]] = {
    ("pinghu", "zimo"): ("123m456m789s12s11z", "8p", []),  # 8p as 3s
    ("deguo", "zimo"): ("123m456m789s123s1z", "1z", []),  # no 精 at all: 无精
    ("lan", "zimo"): ("147m147p36s12345z", "8p", []),  # 8p as 9s (7p-8p rules out 8p itself)
    ("deguo_lan", "zimo"): ("147m147p369s1234z", "5z", []),
    ("qixing", "zimo"): ("147m147p123456z1s", "8p", []),  # 8p as 中
    ("deguo_qixing", "zimo"): ("147m147p123456z1s", "7z", []),
    ("xiaoqi", "zimo"): ("1122m3344p5566s7z", "8p", []),  # 8p as 中
    ("deguo_xiaoqi", "zimo"): ("1122m3344p5566s7z", "7z", []),
    ("daqi", "zimo"): ("111m222p333s44s55z", "8p", []),  # 8p as 4s
    ("deguo_daqi", "zimo"): ("111m222p333s44s55z", "5z", []),
    # 精调: the hand without its 8p was whole, so any tile won; 德国 when it was 8p.
    ("pinghu", "jingdiao"): ("123m456m789s123s8p", "5z", []),
    ("deguo", "jingdiao"): ("123m456m789s123s8p", "8p", []),
    ("daqi", "jingdiao"): ("111m222p333s444s8p", "5z", []),
    ("deguo_daqi", "jingdiao"): ("111m222p333s444s8p", "8p", []),
    ("xiaoqi", "kaikai"): ("1122m3344p5566s8p", "7z", []),  # 小七's B cell = its 精调 (等于精调)
    ("deguo_xiaoqi", "kaikai"): ("1122m3344p5566s8p", "8p", []),
    # 扛开: a kong of 东, won on its replacement tile.
    ("pinghu", "kaikai"): ("123m456m78s22z", "8p", KONG),
    ("deguo", "kaikai"): ("123m456m789s2z", "2z", KONG),
    ("daqi", "kaikai"): ("222p333s44s55z", "8p", KONG),
    ("deguo_daqi", "kaikai"): ("222p333s444s5z", "5z", KONG),
    # 扛调: 精调 and 扛开 at once.
    ("pinghu", "gangdiao"): ("123m456m789s8p", "2z", KONG),
    ("deguo", "gangdiao"): ("123m456m789s8p", "8p", KONG),
    ("daqi", "gangdiao"): ("222p333s444s8p", "5z", KONG),
    ("deguo_daqi", "gangdiao"): ("222p333s444s8p", "8p", KONG),
}
# 扛开 cells that 精调 hands stand in for: 小七 cannot hold a kong (B = D by the seed).
AFTER_KONG = {"kaikai", "gangdiao"}


def jian(concealed: str, win: str, melds: list[dict[str, Any]] | None = None,
         **kw: Any) -> dict[str, Any]:  # fmt: skip
    r = score({"ruleset": "jian", "concealed": concealed, "win_tile": win, "wild": WILD,
               "melds": melds or [], **kw})  # fmt: skip
    assert r.get("ok", True), r
    return r


def table(winner: int, dealer: int, discarder: int | None = None) -> dict[str, Any]:
    return {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder}


SELF_DRAWN_CELLS = [
    (row, col, i, value)
    for row, cols in TABLES["self_drawn"].items()
    for col, pair in cols.items()
    for i, value in enumerate(pair)
]


@pytest.mark.parametrize(("row", "col", "i", "value"), SELF_DRAWN_CELLS)
def test_self_drawn_table_cell(row: str, col: str, i: int, value: int) -> None:
    """胡牌进子数: 庄家 (i = 0) or 闲家 (i = 1) wins self-drawn; the total he takes in."""
    key = (row, "jingdiao" if (row, col) not in HANDS and col == "kaikai" else col)
    concealed, win, melds = HANDS[key]
    kong = col in AFTER_KONG and bool(melds)
    r = jian(concealed, win, melds, self_drawn=True, after_kong=kong,
             table=table(winner=0 if i == 0 else 1, dealer=0))  # fmt: skip
    assert r["win"]
    assert sum(d for d in r["deltas"] if d > 0) == value, (r["fans"], r["notes"])
    assert sum(r["deltas"]) == 0


def test_every_legible_self_drawn_cell_is_reached_by_a_hand() -> None:
    """No cell of the table is left to the formula alone (扛开 for 小七 goes through 精调)."""
    for row, cols in TABLES["self_drawn"].items():
        for col in cols:
            assert (
                (row, col) in HANDS
                or (col == "kaikai" and (row, "jingdiao") in HANDS)
                or ((row, "kaikai") in HANDS)
            ), (row, col)


DISCARD_CASES = (  # (winner, dealer, discarder): 庄点闲, 闲点闲, 闲点庄
    (1, 0, 0),
    (1, 0, 2),
    (0, 0, 2),
)


@pytest.mark.parametrize(
    ("row", "case", "value"),
    [(row, c, v) for row, cells in TABLES["discard"].items() for c, v in enumerate(cells)],
)
def test_discard_table_cell(row: str, case: int, value: int) -> None:
    """点炮: all three pay; the discarder adds the 点炮 翻 and 德国's 5 子."""
    concealed, win, melds = HANDS[(row, "zimo")]
    winner, dealer, discarder = DISCARD_CASES[case]
    r = jian(concealed, win, melds, self_drawn=False,
             table=table(winner, dealer, discarder))  # fmt: skip
    assert r["deltas"][winner] == value, (r["fans"], r["notes"])
    assert sum(r["deltas"]) == 0


def test_pinghu_on_a_discard_is_derived_as_the_other_rows() -> None:
    """Not in the seed: 平胡 点炮 by the same rule, 6 / 5 / 8."""
    concealed, win, melds = HANDS[("pinghu", "zimo")]
    got = [
        jian(concealed, win, melds, table=table(w, d, x))["deltas"][w] for w, d, x in DISCARD_CASES
    ]
    assert got == [6, 5, 8]


@pytest.mark.parametrize(("row", "cell"), [(k, v) for k, v in TABLES["dealer_prose"].items()
                                           if not k.startswith("_")])  # fmt: skip
def test_dealer_prose_each_of_three_pays_the_same(row: str, cell: list[int]) -> None:
    """l.189 "庄家平胡自摸:12个,每人4个子" … every line: the total and each payer's share."""
    concealed, win, melds = HANDS[(row, "zimo")]
    r = jian(concealed, win, melds, self_drawn=True, table=table(0, 0))
    assert r["deltas"] == [cell[0], -cell[1], -cell[1], -cell[1]]


def test_the_discarder_alone_pays_the_deguo_five() -> None:
    concealed, win, melds = HANDS[("deguo", "zimo")]
    r = jian(concealed, win, melds, table=table(1, 0, 2))
    # 闲点闲, 德国 平胡: discarder 2^(1+1) + 5, the dealer 2^(1+1), the other 闲 2^1.
    assert r["deltas"] == [-4, 15, -9, -2]


# ------------------------------------------------------------------ hand reading


def test_a_jing_standing_for_another_tile_is_not_deguo() -> None:
    r = jian(*HANDS[("pinghu", "zimo")][:2], self_drawn=True)
    assert "德国" not in [f["name_zh"] for f in r["fans"]]
    assert any("jing stand for 3 Bamboo" in n for n in r["notes"])


def test_jing_as_itself_is_deguo_when_that_reading_pays_more() -> None:
    # 8p and 9p used as themselves in a chow 789p: 德国 平胡 beats them as anything else.
    r = jian("123m456m789s789p1z", "1z", [], self_drawn=True, table=table(0, 0))
    assert r["deltas"][0] == 39


def test_no_jing_at_all_is_deguo() -> None:
    r = jian("123m456m789s123s1z", "1z", [], self_drawn=True)
    assert [f["name_zh"] for f in r["fans"]][:1] == ["德国"]


def test_jingdiao_needs_the_jing_among_the_tiles_held_before() -> None:
    # The same 14 tiles, but 8p drawn last: the hand waited on 8p/3s only, no 精调.
    r = jian("123m456m789s12s11z", "8p", [], self_drawn=True)
    assert "精调" not in [f["name_zh"] for f in r["fans"]]
    r = jian("123m456m789s123s8p", "5z", [], self_drawn=True)
    assert "精调" in [f["name_zh"] for f in r["fans"]]


def test_jingdiao_on_a_discard_is_paid_as_a_discard() -> None:
    r = jian("123m456m789s123s8p", "5z", [], table=table(1, 0, 2))
    assert "精调" not in [f["name_zh"] for f in r["fans"]]
    assert r["deltas"] == [-2, 5, -2, -1]


def test_after_kong_without_a_kong_is_dropped_with_why() -> None:
    r = jian("123m456m789s12s11z", "8p", [], self_drawn=True, after_kong=True)
    assert r["flags_dropped"][0]["flag"] == "after_kong"
    assert "扛开" not in [f["name_zh"] for f in r["fans"]]


def test_not_a_win_says_why_in_both_languages() -> None:
    r = jian("123m456m789s12s13z", "5z", [], self_drawn=True)
    assert r["win"] is False and r["notes"] and r["notes_zh"]


@pytest.mark.parametrize(
    ("concealed", "win", "is_lan"),
    [
        ("147m258p369s1234z", "5z", True),
        ("148m258p369s1234z", "5z", True),  # 1-4-8: three apart or more
        ("146m258p369s1234z", "5z", False),  # 4-6 too close
        ("147m258p369s1234z", "1z", False),  # a pair
        ("14m25p369s123456z", "7z", True),  # two of a suit is enough; all seven honors
    ],
)
def test_thirteen_rotten(concealed: str, win: str, is_lan: bool) -> None:
    r = score({"ruleset": "jian", "concealed": concealed, "win_tile": win, "self_drawn": True})
    assert r["win"] is is_lan
    if is_lan:
        names = [f["name_zh"] for f in r["fans"]]
        honors = {t for t in parse_tiles(concealed + win) if t >= 27}
        assert ("七星十三烂" in names) == (len(honors) == 7)


def _counts(s: str) -> bytes:
    c = bytearray(34)
    for t in parse_tiles(s):
        c[t] += 1
    return bytes(c)


def _plain_lan(counts: list[int], seven: bool) -> bool:
    if sum(counts) != 14 or max(counts) > 1:
        return False
    for lo in (0, 9, 18):
        ranks = [r for r in range(9) if counts[lo + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:], strict=False)):
            return False
    return not seven or all(counts[t] for t in range(27, 34))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 33), min_size=10, max_size=14, unique=True),
    st.booleans(),
)
def test_lan_with_wilds_matches_substituting_every_wild(kinds: list[int], seven: bool) -> None:
    """is_lan with wild tiles = some substitution of them makes a plain 十三烂."""
    wilds = 14 - len(kinds)
    counts = [0] * 34
    for t in kinds:
        counts[t] += 1
    from itertools import combinations

    # A tile two ranks or less from one already held in its suit can be in no plain
    # 十三烂, so no substitution that adds it can make one: the oracle tries the others.
    free = [
        t
        for t in range(34)
        if not counts[t]
        and (t >= 27 or not any(counts[u] for u in range(t - 2, t + 3) if u // 9 == t // 9))
    ]
    brute = any(
        _plain_lan([c + (1 if t in extra else 0) for t, c in enumerate(counts)], seven)
        for extra in combinations(free, wilds)
    )
    assert shapes.is_lan(bytes(counts), wilds, seven) is brute


# ------------------------------------------------------------------ 精 and 冲关


def jing_round(zheng: list[int], fu: list[int], dealer: int = 0, draw: bool = False,
               **params: Any) -> dict[str, Any]:  # fmt: skip
    ev: dict[str, Any]
    if draw:
        ev = {"type": "draw"}
    else:
        ev = {
            "type": "win",
            "discarder": None,
            "winners": [{"seat": 3, "hand": {"concealed": "123m456m789s123s1z", "win_tile": "1z"}}],
        }
    ev["seat_inputs"] = {"zheng_jing": zheng, "fu_jing": fu}
    r = settle({"ruleset": "jian", "dealer": dealer, "turned": "7p", "params": params,
                "events": [ev]})  # fmt: skip
    assert r["ok"], r
    return r


def jing_transfers(r: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in r["transfers"] if t["reason"] != "win"]


def test_dealer_jing_example() -> None:
    """l.185 "庄家算精:一个正精2×3=6个子 … 一个副精1×3=3个子" (two holders: no 霸精)."""
    r = jing_round([1, 0, 0, 0], [0, 1, 0, 0], draw=True)
    got = {t["to"]: 0 for t in r["transfers"]}
    for t in jing_transfers(r):
        got[t["to"]] += t["amount"]
    assert got == {0: TABLES["dealer_jing"]["zheng"] + 0, 1: TABLES["dealer_jing"]["fu"]}


@pytest.mark.parametrize("n", range(5, 13))
def test_chongguan_table(n: int) -> None:
    """五精冲关 30 … 十二精冲关 324, held by the dealer beside someone's 副精 (no 霸精)."""
    zheng, fu = min(n // 2, 4), n - 2 * min(n // 2, 4)
    if n < 12:
        r = jing_round([zheng, 0, 0, 0], [fu, 0, 0, 1], draw=True)
    else:  # all eight 精 in one hand: nobody else can hold one, so 霸精 is switched off
        r = jing_round([zheng, 0, 0, 0], [fu, 0, 0, 0], draw=True, bajing=False)
    to_dealer = sum(t["amount"] for t in jing_transfers(r) if t["to"] == 0)
    assert to_dealer == TABLES["chongguan"][str(n)]
    assert {t["reason"] for t in jing_transfers(r) if t["to"] == 0} == {"chongguan"}


@pytest.mark.parametrize("n", [5, 6])
def test_bajing_chongguan_doubles(n: int) -> None:
    """l.187 "五精霸精冲关30×2=60个子,六精霸精冲关54×2=108个子"."""
    r = jing_round([2, 0, 0, 0], [n - 4, 0, 0, 0], draw=True)
    assert sum(t["amount"] for t in jing_transfers(r)) == TABLES["bajing_chongguan"][str(n)]
    assert {t["reason"] for t in jing_transfers(r)} == {"chongguan_ba"}
    assert "霸精" in r["events"][0]["round_end"]["notes_zh"][0]


def test_bajing_of_a_player_who_does_not_deal() -> None:
    r = jing_round([0, 1, 0, 0], [0, 0, 0, 0], draw=True)
    assert r["deltas"] == [-4, 12, -4, -4]  # 2 points, doubled, from each of three
    r = jing_round([0, 1, 0, 0], [0, 0, 0, 0], draw=True, bajing_dealer_only=True)
    assert r["deltas"] == [-2, 6, -2, -2]


def test_jing_are_paid_with_the_win_every_player_winner_or_not() -> None:
    r = jing_round([0, 1, 0, 0], [1, 0, 0, 0])
    win = [t for t in r["transfers"] if t["reason"] == "win"]
    assert sum(t["amount"] for t in win) == 31  # 闲家 德国 平胡 自摸
    jing = jing_transfers(r)
    assert sorted((t["to"], t["amount"]) for t in jing) == sorted([(1, 2)] * 3 + [(0, 1)] * 3)
    assert sum(r["deltas"]) == 0


def test_no_jing_on_a_draw_when_the_table_says_so() -> None:
    r = settle({"ruleset": "jian", "turned": "7p", "params": {"jing_on_draw": False},
                "events": [{"type": "draw"}]})  # fmt: skip
    assert r["ok"] and r["deltas"] == [0, 0, 0, 0]


def test_more_than_four_of_a_jing_is_refused() -> None:
    r = settle({"ruleset": "jian", "turned": "7p", "events": [
        {"type": "draw", "seat_inputs": {"zheng_jing": [2, 2, 1, 0], "fu_jing": [0] * 4}}]})  # fmt: skip
    assert not r["ok"] and "正精一共只有四张" in r["error"]["message_zh"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=4, max_size=4).filter(lambda v: sum(v) <= 4),
    st.lists(st.integers(0, 4), min_size=4, max_size=4).filter(lambda v: sum(v) <= 4),
    st.integers(0, 3),
)
def test_jing_money_sums_to_zero_and_grows_with_the_count(
    zheng: list[int], fu: list[int], dealer: int
) -> None:
    r = jing_round(zheng, fu, dealer=dealer, draw=True)
    assert sum(r["deltas"]) == 0
    points = [2 * z + f for z, f in zip(zheng, fu, strict=True)]
    holders = [s for s in range(4) if points[s]]
    for s in holders:
        got = sum(t["amount"] for t in r["transfers"] if t["to"] == s)
        n = points[s]
        each = (n - 3) * n if n >= 5 else n
        assert got == each * 3 * (2 if len(holders) == 1 else 1)


# ------------------------------------------------------------------ 精 from the turned tile


@pytest.mark.parametrize(
    ("turned", "rule", "jing"),
    [
        ("7p", "next", ["8p", "9p"]),
        ("8p", "next", ["9p", "1p"]),
        ("9m", "next", ["1m", "2m"]),
        ("3z", "next", ["4z", "1z"]),  # 西 → 北 → 东
        ("7z", "next", ["6z", "5z"]),  # 中 → 发 → 白
        ("5z", "next", ["7z", "6z"]),  # 白 → 中 → 发
        ("7p", "turned", ["7p", "8p"]),
        ("9s", "turned", ["9s", "1s"]),
    ],
)
def test_jing_follow_from_the_turned_tile(turned: str, rule: str, jing: list[str]) -> None:
    spec = JIAN.table(JIAN.resolve_params({"jing_rule": rule}))
    assert list(spec.wilds.kinds(turned)) == [parse_tile(t) for t in jing]


def test_next_kind_default_cycles_are_unchanged() -> None:
    assert next_kind(parse_tile("5z")) == parse_tile("6z")  # 白 → 发 elsewhere


def test_round_may_name_the_two_jing_instead_of_the_turned_tile() -> None:
    hand = {"concealed": "123m456m789s12s11z", "win_tile": "8p"}
    base = {"ruleset": "jian", "events": [{"type": "win", "discarder": None,
                                           "winners": [{"seat": 0, "hand": hand}]}]}  # fmt: skip
    by_turned = settle({**base, "turned": "7p"})
    by_kinds = settle({**base, "wild": ["8p", "9p"]})
    assert by_turned["ok"] and by_kinds["ok"]
    # The winner's 正精 (the 8p he won on) counts at the round's end although no
    # `zheng_jing` was given: the engine reads it from his hand.
    assert by_turned["deltas"] == by_kinds["deltas"] == [24, -8, -8, -8]
    bad = settle({**base, "wild": ["8p"]})
    assert not bad["ok"] and bad["error"]["code"] == "bad_input"


def test_waits_include_every_tile_for_a_jingdiao_hand() -> None:
    w = waits({"ruleset": "jian", "concealed": "123m456m789s123s8p", "wild": WILD})
    assert len(w["waits"]) == 34


def test_cli_scores_a_jian_line() -> None:
    line = json.dumps({"ruleset": "jian", "concealed": "123m456m789s123s1z", "win_tile": "1z",
                       "self_drawn": True, "table": table(0, 0)})  # fmt: skip
    out = run("score", stdin=line + "\n")
    res = json.loads(out.stdout.splitlines()[0])
    assert res["deltas"] == [39, -13, -13, -13]


DOC = Path(__file__).parents[2] / "docs" / "rules" / "jian.md"


def _doc_blocks() -> list[dict[str, Any]]:
    text = DOC.read_text()
    blocks = text.split("```json")[1:]
    return [json.loads(b.split("```")[0]) for b in blocks]


def test_doc_examples_are_current() -> None:
    """The hand and the round in docs/rules/jian.md score as the doc says."""
    hand_in, hand_out, round_in, round_out = _doc_blocks()
    got = score(hand_in)
    for key, value in hand_out.items():
        assert got[key] == value, key
    got = settle(round_in)
    assert got["deltas"] == round_out["deltas"]
    assert [{k: t[k] for k in ("from", "to", "amount", "reason")} for t in got["transfers"]] == (
        round_out["transfers"]
    )
    end = got["events"][0]["round_end"]
    want = round_out["events"][0]["round_end"]
    assert end["notes_zh"] == want["notes_zh"] and end["jing"] == want["jing"]
