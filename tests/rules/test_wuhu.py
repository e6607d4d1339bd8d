"""芜湖 (wuhu): every row of the seed's 2468 and 315 tables and every worked example.

The tables' numbers are in tests/fixtures/wuhu_tables.json (seed 000, rebuilt
as docs/rules/wuhu.md shows).  Each row is reached by a real hand: `build`
searches for a hand with exactly that 支, that 押 (or no 押档) and no 嘴子, and
the engine must score it to the row's 结果番数, the dealer paying its (+N) more.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import get_ruleset, score, settle
from rules.rulesets.wuhu import rhu
from rules.tiles import tiles_str
from tests.support.cli import run

TABLES = json.loads((Path(__file__).parents[1] / "fixtures" / "wuhu_tables.json").read_text())
WUHU = get_ruleset("wuhu")
KIND = {"平胡": (False, False), "押当": (False, True), "自摸": (True, False),
        "自摸押当": (True, True)}  # fmt: skip
P = {p.id: dict(p.params) for p in WUHU.presets}


def wuhu(concealed: str, win: str, melds: list[dict[str, Any]] | None = None,
         **kw: Any) -> dict[str, Any]:  # fmt: skip
    r = score({"ruleset": "wuhu", "concealed": concealed, "win_tile": win,
               "melds": melds or [], **kw})  # fmt: skip
    assert r.get("ok", True), r
    return r


# ------------------------------------------------------------------ building hands

M = 0  # 万 is the long suit; 筒 (9..17) fills the rest


def chow(low: int) -> list[int]:
    return [low, low + 1, low + 2]


@cache
def build(zhi: int, ya: int) -> tuple[str, str, tuple[tuple[str, bool], ...]]:
    """(concealed, win tile, kongs as (tiles, exposed)) of a hand with `zhi` 万,
    押 `ya` (0: a two-sided wait) and no 嘴子.  10 万 need a kong (four 万)."""
    if ya:
        unit, win = [ya - 2, ya], ya - 1  # 坎张: y-1 and y+1 wait on y
    else:
        unit, win = None, None
    m_sets = [chow(s) for s in range(7)] + [[t] * 3 for t in range(9)]
    p_sets = [chow(9 + s) for s in range(7)] + [[9 + t] * 3 for t in range(9)]
    pairs_m = [[t, t] for t in range(9)]
    pairs_p = [[9 + t] * 2 for t in range(9)] + [[27, 27]]
    kong = zhi == 10
    need_m = zhi - (4 if kong else 0) - 3  # besides the wait's chow
    two_sided = [([a, a + 1], w) for a in range(1, 6) for w in (a - 1, a + 2)]
    waits = [(unit, win)] if ya else two_sided
    for (u, w), k in product(waits, [[t] * 4 for t in range(9)] if kong else [None]):
        for n_m_sets in range(0, 4):
            m_pair = need_m - 3 * n_m_sets
            if m_pair not in (0, 2):
                continue
            n_p_sets = 3 - n_m_sets - (1 if kong else 0)
            if n_p_sets < 0:
                continue
            for ms in product(m_sets, repeat=n_m_sets):
                for ps in product(p_sets, repeat=n_p_sets):
                    for pair in pairs_m if m_pair else pairs_p:
                        tiles = [*u, *sum(ms, []), *sum(ps, []), *pair]
                        held = tiles + [w] + (k or [])
                        if any(held.count(t) > 4 for t in set(held)):
                            continue
                        if any(held.count(t) == 4 for t in set(held) if not k or t != k[0]):
                            continue  # 四活
                        melds = ((tiles_str(k), True),) if k else ()
                        r = wuhu(tiles_str(tiles), tiles_str([w]), _melds(melds))
                        if (r["win"] and r["zhi"] == zhi and (r["ya"] or 0) == ya
                                and not r["quanjiao"]
                                and {f["id"] for f in r["fans"]} <= {10, 11, 12, 13}):  # fmt: skip
                            return tiles_str(tiles), tiles_str([w]), melds
    raise AssertionError(f"no hand for {zhi} 支 押 {ya}")


def _melds(melds: tuple[tuple[str, bool], ...]) -> list[dict[str, Any]]:
    return [{"type": "kong", "tiles": t, "exposed": e} for t, e in melds]


def table(winner: int, dealer: int, discarder: int | None) -> dict[str, Any]:
    return {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder}


def rows(name: str) -> list[tuple[str, int, int, int, int]]:
    return [
        (r["kind"], z, y, r["result"], r["extra"])
        for r in TABLES[name]
        for z in r["zhi"]
        for y in r["ya"]
    ]


@pytest.mark.parametrize(("kind", "zhi", "ya", "result", "extra"), rows("t2468"))
def test_2468_table_row(kind: str, zhi: int, ya: int, result: int, extra: int) -> None:
    """2020年芜湖麻将2468计算表: 结果番数 from a 闲家, the dealer (+N) more."""
    self_drawn, yadang = KIND[kind]
    assert yadang == bool(ya)
    concealed, win, melds = build(zhi, ya)
    params = P["p2468"]
    kongs = sum(4 if not e else 2 for _, e in melds)  # the table leaves kongs out: 明 2, 暗 4
    r = wuhu(concealed, win, _melds(melds), self_drawn=self_drawn, params=params,
             table=table(1, 0, None if self_drawn else 2))  # fmt: skip
    assert r["total"] - kongs == result, r["notes"]
    # One 底番 more from the dealer: the (+N).
    assert -r["deltas"][0] - r["total"] == extra
    assert sum(r["deltas"]) == 0


@pytest.mark.parametrize(("kind", "zhi", "ya", "result", "extra"), rows("t315"))
def test_315_table_row(kind: str, zhi: int, ya: int, result: int, extra: int) -> None:
    """芜湖麻将支数计算表 (315 = 30 点): 结果番数 and the dealer's (+N)."""
    self_drawn, yadang = KIND[kind]
    concealed, win, melds = build(zhi, ya)
    kongs = sum(2 if not e else 1 for _, e in melds)
    r = wuhu(concealed, win, _melds(melds), self_drawn=self_drawn, params=P["p315"],
             table=table(1, 0, None if self_drawn else 2))  # fmt: skip
    assert r["total"] - kongs == result, r["notes"]
    assert -r["deltas"][0] - r["total"] == extra


def test_every_row_range_is_covered() -> None:
    """The 2468 table covers 支 8–12 × 押 2–8 for both 押档 kinds, and 8–12 otherwise."""
    got = {(k, z, y) for k, z, y, _, _ in rows("t2468")}
    for kind, (_, yadang) in KIND.items():
        for z in range(8, 13):
            for y in range(2, 9) if yadang else [0]:
                assert (kind, z, y) in got, (kind, z, y)


# ------------------------------------------------------------------ worked examples


@pytest.mark.parametrize(
    ("zhi", "ya", "n", "zhi_fan"),
    [
        (8, 6, 4, 6),  # 30 点 "自摸8支丫6 … (8+6)*4=56,四舍五入为60,即6点"
        (8, 6, 2, 3),  # 30 点 "平胡8支丫6 … (8+6)*2=28,四舍五入为30,即3点"
        (8, 7, 10, 15),  # 50 点 "自摸8支丫7 … (8+7)*10=150,即15点"
        (8, 7, 5, 8),  # 50 点 "平胡8支丫7 … (8+7)*5=75,四舍五入为80,即8点" (half up)
        (8, 0, 2, 2),  # "八支二个 … 8×2=16,四舍五入为二个"
        (12, 0, 2, 2),  # "12支(12×2=24)也是二个"
        (13, 0, 2, 3),  # "13支(13×2=36)就是三个了" (13×2 is 26: the seed's typo)
    ],
)
def test_zhi_fan_examples(zhi: int, ya: int, n: int, zhi_fan: int) -> None:
    assert rhu((zhi + ya) * n) == zhi_fan


@pytest.mark.parametrize(
    ("preset", "zhi", "ya", "self_drawn", "each", "dealer"),
    [
        # 30 点 / 315 prose (l.6, l.294–311): "三个的四个"; 八支押三 4~6; 自摸8支 6~9; 自摸八支押三 8~12.
        ("p30", 8, 0, False, 3, 4),
        ("p30", 8, 3, False, 4, 6),
        ("p30", 8, 0, True, 6, 9),
        ("p30", 8, 3, True, 8, 12),
        # 50 字码子 一二三四 (l.19): "八支平胡为五个六个、八支自摸为十一十四、八支丫八为十个十十
        # (= 十二)、自摸八支丫八为二十二十四".
        ("p50", 8, 0, False, 5, 6),
        ("p50", 8, 0, True, 11, 14),
        ("p50", 8, 8, False, 10, 12),
        ("p50", 8, 8, True, 20, 24),
    ],
)
def test_prose_examples(preset: str, zhi: int, ya: int, self_drawn: bool, each: int,
                        dealer: int) -> None:  # fmt: skip
    """Each pair is (a 闲家 pays, the dealer pays) when another player wins."""
    concealed, win, melds = build(zhi, ya)
    r = wuhu(concealed, win, _melds(melds), self_drawn=self_drawn, params=P[preset],
             table=table(1, 0, None if self_drawn else 2))  # fmt: skip
    assert (-r["deltas"][2 if self_drawn else 3], -r["deltas"][0]) == (each, dealer)


@pytest.mark.parametrize(
    ("row", "zhi"),
    [  # l.199–219: the 50 点 grid, (一般, 庄家) for 支 8..12
        ("pinghu", [5, 6, 6, 7, 6, 7, 7, 8, 7, 8]),
        ("ya8", [10, 12, 11, 13, 11, 13, 12, 14, 12, 14]),
        ("zimo_ya6", [18, 22, 19, 23, 20, 24, 21, 25, 22, 26]),
        ("zimo_ya7", [19, 23, 20, 24, 21, 25, 22, 26, 23, 27]),
        ("zimo_ya8", [20, 24, 21, 25, 22, 26, 23, 27, 24, 28]),
    ],
)
def test_50_point_grid(row: str, zhi: list[int]) -> None:
    self_drawn = row.startswith("zimo")
    ya = int(row[-1]) if "ya" in row else 0
    for i, z in enumerate(range(8, 13)):
        concealed, win, melds = build(z, ya)
        kongs = sum(4 if not e else 2 for _, e in melds)
        r = wuhu(concealed, win, _melds(melds), self_drawn=self_drawn, params=P["p50"],
                 table=table(1, 0, None if self_drawn else 2))  # fmt: skip
        assert (r["total"] - kongs, -r["deltas"][0] - kongs) == (zhi[2 * i], zhi[2 * i + 1]), z


# ------------------------------------------------------------------ 嘴子, 全交, kongs


def names(r: dict[str, Any]) -> list[str]:
    return [f["name_zh"] for f in r["fans"]]


def test_tongtian_is_a_zui_priced_and_doubled_on_self_draw() -> None:
    # 123 456 789m + 345p + 11z: 9 万, won on 3p of 45p (two-sided).
    r = wuhu("123456789m45p11z", "3p", params=P["p30"])
    assert "通天" in names(r)
    base = 1 + rhu(9 * 2) + 2
    assert r["total"] == base
    r = wuhu("123456789m45p11z", "3p", self_drawn=True, params=P["p30"])
    assert r["total"] == 3 + rhu(9 * 4) + 4


def test_four_alive_counts_a_tile_used_four_times_not_a_kong() -> None:
    r = wuhu("111123m456m78s99p", "9s")
    assert "四活" in names(r)
    r = wuhu("234m567m78s99p", "9s",
             [{"type": "kong", "tiles": "1111m", "exposed": True}])  # fmt: skip
    assert "四活" not in names(r)


def test_all_pungs_and_half_flush() -> None:
    r = wuhu("111m444m777m99m22z", "2z")
    assert r["quanjiao"] and r["notes_zh"][0].startswith("全交（对对胡、混一色）")
    assert names(r) == ["全交"] and r["total"] == 30


def test_full_flush_alone_is_all_in_and_315_adds_five_on_self_draw() -> None:
    """ "自摸清一色一家要给20" (l.292): 315 全交 15, +5 self-drawn, from each payer."""
    r = wuhu("1112345678999m", "5m", self_drawn=True, params=P["p315"], table=table(1, 0, None))
    assert r["quanjiao"] and r["deltas"] == [-20, 60, -20, -20]
    r = wuhu("1112345678999m", "5m", params=P["p315"], table=table(1, 0, 2))
    assert r["deltas"] == [-15, 45, -15, -15]


def test_double_eight_needs_two_kongs_and_is_all_in() -> None:
    melds = [{"type": "kong", "tiles": "1111m", "exposed": True},
             {"type": "kong", "tiles": "9999m", "exposed": False}]  # fmt: skip
    r = wuhu("123p456p7p", "7p", melds, params=P["p30"])
    assert r["quanjiao"] and "双八支" in r["notes_zh"][0] and r["total"] == 30


def test_kongs_add_to_the_winner_total() -> None:
    base = wuhu("123m456m78m345p99s", "9m")
    konged = wuhu("123m456m78m99s", "9m", [{"type": "kong", "tiles": "4444p", "exposed": False}])
    assert konged["total"] - base["total"] == 2  # 暗杠 2 in 30 点
    assert "暗杠" in names(konged)
    konged = wuhu("123m456m78m99s", "9m", [{"type": "kong", "tiles": "4444p"}], params=P["p50"])
    assert konged["total"] - wuhu("123m456m78m345p99s", "9m", params=P["p50"])["total"] == 2


def test_kong_win_not_on_a_single_wait_is_not_self_drawn() -> None:
    """ "杠后开花若是压档算自摸,不是压档不算自摸" (l.217)."""
    melds = [{"type": "kong", "tiles": "1111z", "exposed": False}]
    r = wuhu("234m567m78m99s", "9m", melds, self_drawn=True, after_kong=True)
    # 78m waits on 6m/9m: not 押档 → 平胡 底番 1, N 2; 杠开 嘴 2 (not doubled); 暗杠 2.
    assert names(r)[0] == "平胡" and "杠开" in names(r)
    assert r["total"] == 1 + rhu(9 * 2) + 2 + 2
    r = wuhu("234m567m79m99s", "8m", melds, self_drawn=True, after_kong=True)
    assert names(r)[0] == "自摸押档"


def test_too_few_of_one_suit_is_no_win() -> None:
    r = wuhu("123m456m789p123s1z", "1z")
    assert r["win"] is False and "八支" in r["notes_zh"][0]


def test_dragons_are_refused() -> None:
    r = score({"ruleset": "wuhu", "concealed": "123m456m789m12m55z", "win_tile": "3m"})
    assert not r["ok"] and r["error"]["code"] == "bad_tile"


def test_wild_tiles_are_refused() -> None:
    r = score({"ruleset": "wuhu", "concealed": "123m456m789m12m11z", "win_tile": "3m",
               "wild": ["5m"]})  # fmt: skip
    assert not r["ok"] and r["error"]["message_zh"] == "芜湖麻将没有癞子"


def test_discarder_pays_as_the_dealer_when_the_table_says_so() -> None:
    concealed, win, melds = build(8, 0)
    r = wuhu(concealed, win, table=table(1, 0, 2))
    assert r["deltas"] == [-4, 10, -3, -3]  # 一家点炮三家给: all three pay, the dealer 1 more
    r = wuhu(concealed, win, table=table(1, 0, 2), params={"discarder_pays_extra": True})
    assert r["deltas"] == [-4, 11, -4, -3]


def test_dealer_wins_every_payer_pays_one_base_more() -> None:
    concealed, win, _ = build(8, 3)
    r = wuhu(concealed, win, table=table(0, 0, 2))
    assert r["deltas"] == [18, -6, -6, -6]  # "庄家成的话,每个给6个"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted({(z, y) for _, z, y, _, _ in rows("t2468")})),
       st.integers(0, 3), st.integers(0, 3), st.booleans(), st.sampled_from(sorted(P)))  # fmt: skip
def test_payments_invariants(zy: tuple[int, int], winner: int, dealer: int, self_drawn: bool,
                             preset: str) -> None:  # fmt: skip
    concealed, win, melds = build(*zy)
    discarder = None if self_drawn else (winner + 1) % 4
    r = wuhu(concealed, win, _melds(melds), self_drawn=self_drawn, params=P[preset],
             table=table(winner, dealer, discarder))  # fmt: skip
    assert sum(r["deltas"]) == 0
    paid = {s: -d for s, d in enumerate(r["deltas"]) if s != winner}
    base = r["fans"][0]["points"]
    for s, a in paid.items():
        assert a == r["total"] + (base if dealer in (s, winner) else 0)
    if self_drawn:
        on_discard = wuhu(concealed, win, _melds(melds), params=P[preset],
                          table=table(winner, dealer, (winner + 1) % 4))  # fmt: skip
        assert r["deltas"][winner] >= on_discard["deltas"][winner]


# ------------------------------------------------------------------ hint, rounds, CLI


def test_hand_hint_shows_zhi_and_ya() -> None:
    assert WUHU.hand_hint([0, 1, 2], [], None, [], WUHU.defaults) == (
        "万 3 支（成牌要 8 支）", "3 Characters (a win needs 8)")  # fmt: skip
    concealed, win, _ = build(9, 5)
    from rules.tiles import parse_tile, parse_tiles

    hint = WUHU.hand_hint(parse_tiles(concealed), [], parse_tile(win), [], WUHU.defaults)
    assert hint == ("万 9 支 · 押 5", "9 Characters · wait 5")


def test_settle_a_round_and_the_cli() -> None:
    concealed, win, _ = build(8, 0)
    rnd = {"ruleset": "wuhu", "dealer": 0, "events": [
        {"type": "win", "discarder": 2,
         "winners": [{"seat": 1, "hand": {"concealed": concealed, "win_tile": win}}]}]}  # fmt: skip
    r = settle(rnd)
    assert r["ok"] and r["deltas"] == [-4, 10, -3, -3]
    out = run("settle", stdin=json.dumps(rnd) + "\n")
    assert json.loads(out.stdout.splitlines()[0])["deltas"] == [-4, 10, -3, -3]


DOC = Path(__file__).parents[2] / "docs" / "rules" / "wuhu.md"


def test_doc_examples_are_current() -> None:
    """The hand and the round in docs/rules/wuhu.md score as the doc says."""
    blocks = [json.loads(b.split("```")[0]) for b in DOC.read_text().split("```json")[1:]]
    hand_in, hand_out, round_in = blocks
    got = score(hand_in)
    for key, value in hand_out.items():
        assert got[key] == value, key
    assert settle(round_in)["deltas"] == [-6, -5, 16, -5]
    assert "deltas `[-6, -5, 16, -5]`" in DOC.read_text()


def test_doc_tables_are_the_fixture() -> None:
    """The clean tables the doc shows are the rows the tests play."""
    text = DOC.read_text()
    for name in ("t2468", "t315"):
        for r in TABLES[name]:
            z = str(r["zhi"][0]) if len(r["zhi"]) == 1 else f"{r['zhi'][0]}–{r['zhi'][-1]}"
            y = "–" if r["ya"] == [0] else (
                str(r["ya"][0]) if len(r["ya"]) == 1 else f"{r['ya'][0]}–{r['ya'][-1]}")  # fmt: skip
            row = (f"| {r['kind']} | {z} | {y} | {r['base']} | {r['result'] - r['base']} | "
                   f"{r['result']} | +{r['extra']} |")  # fmt: skip
            assert row in text, row
