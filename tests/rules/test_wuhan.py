"""武汉 红中癞子杠 (wuhan): every rule of the seed's section, amounts worked by hand.

Each loser pays base × the winner's factor × his own factor (docs/rules/wuhan.md):
开口 ×2 (口口翻: per opening), 暗杠 ×4, 明杠 / 红中杠 / 癞子杠 ×2 each; the winner's
自摸 (×2 小胡, ×1.5 大胡) and 硬胡 ×2; the discarder's 放冲 (×2, ×1.5); 庄闲 ×2 in a
小胡.  Capped at 300, 金顶 400 (口口翻 500) when all three are over; 承包.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import get_ruleset, score, settle, waits
from rules.rulesets.wuhan.payments import Factor
from rules.rulesets.wuhan.payments import settle as pay
from rules.tiles import parse_tile, parse_tiles, tile_str
from rules.working import by_payment
from tests.support.cli import run

WUHAN = get_ruleset("wuhan")
P = {p.id: WUHAN.resolve_params(p.params) for p in WUHAN.presets}
WILD = ["6m"]  # turned 5m


def pung(t: str, frm: str = "across") -> dict[str, Any]:
    """A pung of the tile written first in `t` ("11p", "9s" …), claimed from `frm`."""
    code = tile_str(parse_tiles(t)[0])
    return {"type": "pung", "tiles": code[0] * 3 + code[1], "claimed_from": frm}


def chi(t: str) -> dict[str, Any]:
    return {"type": "chi", "tiles": t, "claimed_from": "left"}


def wuhan(concealed: str, win: str, melds: list[dict[str, Any]], winner: int = 1,
          dealer: int = 0, discarder: int | None = 2, inputs: dict[str, list[int]] | None = None,
          preset: str = "kaikoufan", **kw: Any) -> dict[str, Any]:  # fmt: skip
    sit: dict[str, Any] = {
        "ruleset": "wuhan", "params": P[preset], "concealed": concealed, "win_tile": win,
        "melds": melds, "wild": WILD, "self_drawn": discarder is None,
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
        **kw,
    }  # fmt: skip
    if inputs:
        sit["seat_inputs"] = inputs
    r = score(sit)
    assert r.get("ok", True), r
    return r


# ------------------------------------------------------------------ the 癞子


@pytest.mark.parametrize(
    ("turned", "laizi"),
    [
        ("5m", "6m"),  # "翻出五萬,六萬就是"癩子""
        ("9m", "1m"),  # "翻出九萬,一萬就是"癩子""
        ("4z", "6z"),  # "如果翻出"北",跳過"紅中","發財"是"癩子""
        ("5z", "1z"),  # "翻出"白板","東"是"癩子""
        ("7z", "6z"),  # "摸到"北"和"中"都是"發"作癩子"
        ("6z", "5z"),  # 发 → 白
        ("3s", "4s"),
    ],
)
def test_the_laizi_is_the_kind_after_the_turned_tile(turned: str, laizi: str) -> None:
    assert WUHAN.table(P["kaikoufan"]).wilds.kinds(turned) == (parse_tile(laizi),)


# ------------------------------------------------------------------ the worked example

D03 = {"concealed": "345m567s8p", "win_tile": "8p",
       "melds": [chi("234p"), {"type": "kong", "tiles": "9999m", "exposed": True, "added": True,
                               "claimed_from": "right"}]}  # fmt: skip
D03_INPUTS = {"openings": [0, 0, 1, 0], "an_gang": [1, 0, 0, 0], "hz_gang": [0, 0, 0, 1]}


def test_three_losers_three_amounts_wh_d03() -> None:
    """Seat 1 (闲) 小胡 硬胡 on seat 2's 8p; W = 开口 2 × 明杠 2 × 硬胡 2 = 8.
    Seat 2: 开口 2 × 放冲 2 → 32; seat 0 (dealer): 暗杠 4 × 庄闲 2 → 64; seat 3: 红中杠 2 → 16."""
    rnd = {"ruleset": "wuhan", "dealer": 0, "turned": "5m", "events": [
        {"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": D03}],
         "seat_inputs": D03_INPUTS}]}  # fmt: skip
    r = settle(rnd)
    assert r["ok"] and r["deltas"] == [-64, 112, -32, -16]
    won = r["events"][0]["winners"][0]
    assert [(lo["seat"], lo["factor"], lo["raw"], lo["pays"]) for lo in won["losers"]] == [
        (0, 8, 64, 64), (2, 4, 32, 32), (3, 2, 16, 16)]  # fmt: skip
    assert "暗杠 ×4、庄闲 ×2" in won["losers"][0]["why_zh"]
    assert "dealer ×2" in won["losers"][0]["why_en"]


def test_the_same_hand_soft_halves_every_amount() -> None:
    # The 8p pair's second tile is the 癞子 6m standing for 8p: 软胡.
    r = wuhan("345m567s8p", "6m", D03["melds"], inputs=D03_INPUTS)
    assert r["hard"] is False and r["deltas"] == [-32, 56, -16, -8]


def test_a_dealer_winner_doubles_every_loser_in_a_small_win() -> None:
    r = wuhan(D03["concealed"], D03["win_tile"], D03["melds"], winner=1, dealer=1,
              inputs=D03_INPUTS)  # fmt: skip
    # 庄闲 ×2 for all three: seat 0 暗杠 4 × 2, seat 2 开口 2 × 放冲 2 × 2, seat 3 红中杠 2 × 2.
    assert r["deltas"] == [-64, 64 + 64 + 32, -64, -32]


# ------------------------------------------------------------------ what wins


def test_a_hand_holding_the_red_dragon_cannot_win() -> None:
    r = wuhan("345m567s7z", "7z", D03["melds"])
    assert r["win"] is False and "红中" in r["notes_zh"][0]


def test_the_winner_must_have_opened() -> None:
    r = wuhan("234m345m567s8p", "8p", [{"type": "kong", "tiles": "9999m", "exposed": False}])
    assert r["win"] is False and "开口" in r["notes_zh"][0]


def test_a_small_win_needs_a_2_5_8_pair() -> None:
    r = wuhan("345m567s9p", "9p", D03["melds"])
    assert r["win"] is False


def test_all_pungs_wins_with_any_pair() -> None:
    r = wuhan("333m777s9p", "9p", [pung("11p"), pung("44s")])
    assert r["win"] and [f["name_zh"] for f in r["fans"]] == ["碰碰胡"]


def test_no_seven_pairs() -> None:
    r = score({"ruleset": "wuhan", "concealed": "1122m3344p5577s2z", "win_tile": "2z"})
    assert r["win"] is False


def test_two_laizi_bar_a_small_win_but_not_a_big_one() -> None:
    # 6m 6m (two 癞子) as 8p 8p pair of a plain hand: no 小胡.
    r = wuhan("345m567s6m", "6m", D03["melds"])
    assert r["win"] is False and "两个癞子" in r["notes_zh"][0]
    # The same two 癞子 in an all-pungs hand: a 大胡 wins.
    r = wuhan("333m777s6m", "6m", [pung("11p"), pung("44s")])
    assert r["win"] and "碰碰胡" in [f["name_zh"] for f in r["fans"]]


def test_a_laizi_used_as_itself_is_hard() -> None:
    # 456m with the 6m as itself: 硬胡 (×2), though 6m could stand for anything.
    r = wuhan("345m456m55s78p", "9p", [pung("11s")])
    assert r["hard"] is True


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "big"),
    [
        ("1234z", "2z", [pung("55z"), pung("66z"), pung("33z")], "风一色"),  # no shape at all
        ("258m258p8s", "8s", [pung("22s"), pung("55s")], "将一色"),  # no shape either
    ],
)
def test_all_winds_and_all_258_need_no_shape(concealed: str, win: str,
                                             melds: list[dict[str, Any]], big: str) -> None:  # fmt: skip
    r = wuhan(concealed, win, melds)
    assert r["win"] and big in [f["name_zh"] for f in r["fans"]]


def test_claiming_the_red_dragon_or_the_laizi_is_illegal() -> None:
    for bad in (pung("77z"), pung("66m")):
        r = score({"ruleset": "wuhan", "concealed": "345m567s234p8p", "win_tile": "8p",
                   "melds": [bad], "wild": WILD})  # fmt: skip
        assert not r["ok"] and r["error"]["code"] == "illegal_meld"


# ------------------------------------------------------------------ big wins and 承包

QQR_MELDS = [chi("123p"), pung("77s"), pung("99s", "right"), chi("345s")]


def test_all_melded_on_a_discard_is_a_big_win() -> None:
    """全求人: 10; W = 开口 2 × 硬胡 2 = 4; discarder × 1.5 (no 庄闲 in a 大胡)."""
    r = wuhan("5m", "5m", QQR_MELDS)
    assert [f["name_zh"] for f in r["fans"]] == ["全求人"]
    assert r["deltas"] == [-40, 140, -60, -40]


def test_contract_1_an_unready_discarder_pays_for_all() -> None:
    r = wuhan("5m", "5m", QQR_MELDS, discarder_not_ready=True)
    assert r["contractor"] == 2 and r["deltas"] == [0, 140, -140, 0]


def test_contract_2_the_third_opening_of_a_full_flush() -> None:
    # Openings in order: chi 123s (上家 = seat 0), pung 555s (下家 = seat 2), pung 777s
    # (对家 = seat 3): seat 3 pays for all, though seat 0 discarded.
    melds = [chi("123s"), pung("55s", "right"), pung("77s", "across")]
    r = wuhan("234s9s", "9s", melds, discarder=0)
    assert "清一色" in [f["name_zh"] for f in r["fans"]]
    # 清一色 10 × W (开口 2 × 硬胡 2) = 40 each, the discarder × 1.5 = 60: seat 3 pays 140.
    assert r["contractor"] == 3 and r["deltas"] == [0, 140, 0, -140]


def test_contract_3_the_robbed_player_pays_for_all() -> None:
    r = wuhan("234m567m88s45p", "3p", [pung("99s")], robbing_kong=True)
    assert "抢杠" in [f["name_zh"] for f in r["fans"]]
    assert r["contractor"] == 2 and r["deltas"] == [0, 140, -140, 0]


def test_big_wins_add_up() -> None:
    # 清一色 + 碰碰胡 = 20, self-drawn ×1.5, 开口 ×2, 硬胡 ×2 → 120 from each.
    r = wuhan("222s888s9s", "9s", [pung("11s"), pung("55s")], discarder=None)
    assert sorted(f["name_zh"] for f in r["fans"]) == ["清一色", "碰碰胡"]
    assert r["deltas"] == [-120, 360, -120, -120]


# ------------------------------------------------------------------ cap and 金顶


def _losers(raws: list[int], preset: str) -> list[int]:
    factors = [Factor(raws[0]), Factor(1), Factor(raws[1]), Factor(raws[2])]
    _, _, _, losers = pay(1, True, 1, -1, None, False, False, factors, None, P[preset])
    assert [int(lo.raw) for lo in losers] == raws
    return [lo.paid for lo in losers]


@pytest.mark.parametrize(
    ("preset", "raws", "paid"),
    [
        ("kaikoufan", [480, 240, 960], [300, 240, 300]),  # wh-d07
        ("kaikoufan", [480, 480, 960], [400, 400, 400]),  # wh-d08: all over 300 → 金顶
        ("koukoufan", [960, 960, 3840], [500, 500, 500]),  # wh-d09
        ("koukoufan", [256, 256, 512], [256, 256, 300]),  # wh-d25
        ("kaikoufan", [300, 480, 960], [300, 300, 300]),  # a raw of exactly 300 is not "超過"
    ],
)
def test_cap_and_golden(preset: str, raws: list[int], paid: list[int]) -> None:
    assert _losers(raws, preset) == paid


def test_golden_through_a_real_hand() -> None:
    # 清一色 碰碰胡 (20) self-drawn: W = 1.5 × 开口 2 × 暗杠 4 × 硬胡 2 = 24 → 480 each.
    melds = [pung("11s"), {"type": "kong", "tiles": "5555s", "exposed": False}]
    r = wuhan("222s888s9s", "9s", melds, discarder=None)
    assert r["deltas"] == [-400, 1200, -400, -400]
    r = wuhan("222s888s9s", "9s", melds, discarder=None, preset="koukoufan")
    assert r["deltas"] == [-500, 1500, -500, -500]


# ------------------------------------------------------------------ properties

HANDS = [
    (D03["concealed"], D03["win_tile"], D03["melds"]),
    ("5m", "5m", QQR_MELDS),
    ("222s888s9s", "9s", [pung("11s"), pung("55s")]),
    ("234m567m88s45p", "3p", [pung("99s")]),
]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(range(len(HANDS))), st.integers(0, 3), st.integers(0, 3),
    st.sampled_from([None, 0, 2, 3]), st.sampled_from(sorted(P)),
    st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=5, max_size=5),
    st.booleans(),
)  # fmt: skip
def test_payments_invariants(i: int, dealer: int, _: int, discarder: int | None, preset: str,
                             counts: list[list[int]], not_ready: bool) -> None:  # fmt: skip
    concealed, win, melds = HANDS[i]
    if discarder == 1:
        return
    inputs = dict(zip(("openings", "ming_gang", "an_gang", "hz_gang", "lz_gang"), counts,
                      strict=True))  # fmt: skip
    r = score({"ruleset": "wuhan", "params": P[preset], "concealed": concealed,
               "win_tile": win, "melds": melds, "wild": WILD, "self_drawn": discarder is None,
               "discarder_not_ready": not_ready and discarder is not None,
               "seat_inputs": inputs,
               "table": {"players": 4, "dealer": dealer, "winner": 1,
                         "discarder": discarder}})  # fmt: skip
    if not r["ok"]:  # more 癞子 kongs than the four tiles: refused, nothing scored
        assert r["error"]["code"] == "bad_input"
        return
    if not r["win"]:
        return
    # The winner receives exactly what the losers pay.
    assert sum(r["deltas"]) == 0 and r["deltas"][1] == sum(lo["pays"] for lo in r["losers"])
    # The working's terms (caps, 金顶, 承包 alike) make each payment (rules/working.py).
    paid = {(p["from"], p["to"]): p["amount"] for p in r["payments"]}
    assert by_payment(r["terms"]) == paid
    params = P[preset]
    if r["contractor"] is None:
        paid = [lo["pays"] for lo in r["losers"]]
        golden = all(p == params["golden"] for p in paid)
        # Nobody pays over the cap but at the 金顶, where all three pay it.
        assert golden or all(p <= params["cap"] for p in paid)
        assert all(p <= max(params["cap"], params["golden"]) for p in paid)
    else:
        assert sorted(d for d in r["deltas"] if d < 0) == [r["deltas"][r["contractor"]]]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(range(len(HANDS))), st.integers(0, 3), st.sampled_from([None, 0, 2, 3]))
def test_a_hard_win_never_pays_less_than_the_same_hand_soft(i: int, dealer: int,
                                                            discarder: int | None) -> None:  # fmt: skip
    concealed, win, melds = HANDS[i]
    hard = wuhan(concealed, win, melds, dealer=dealer, discarder=discarder)
    # The same hand with its winning tile replaced by the 癞子 standing for it.
    soft = wuhan(concealed, "6m", melds, dealer=dealer, discarder=discarder)
    if hard["win"] and soft["win"] and not soft["hard"]:
        assert hard["deltas"][1] >= soft["deltas"][1]


# ------------------------------------------------------------------ inputs, waits, CLI


def test_more_red_dragon_kongs_than_tiles_are_refused() -> None:
    r = score({"ruleset": "wuhan", **D03, "wild": WILD, "seat_inputs": {"hz_gang": [2, 0, 2, 1]},
               "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2}})  # fmt: skip
    assert not r["ok"] and "红中一共只有四张" in r["error"]["message_zh"]


def test_all_winds_waits_on_any_wind() -> None:
    w = waits({"ruleset": "wuhan", "concealed": "1234z", "wild": WILD,
               "melds": [pung("55z"), pung("66z"), pung("33z")]})  # fmt: skip
    # Any wind but 西 (all four held) and never 红中.
    assert set(w["waits"]) == {"1z", "2z", "4z", "5z", "6z"}


def test_cli_settles_the_worked_example() -> None:
    rnd = {"ruleset": "wuhan", "dealer": 0, "turned": "5m", "events": [
        {"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": D03}],
         "seat_inputs": D03_INPUTS}]}  # fmt: skip
    out = run("settle", stdin=json.dumps(rnd) + "\n")
    assert json.loads(out.stdout.splitlines()[0])["deltas"] == [-64, 112, -32, -16]


def test_doc_example_is_current() -> None:
    """The round and its report in docs/rules/wuhan.md are what the engine says."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "rules" / "wuhan.md").read_text()
    # (the first two blocks; the penalty section below has its own, tests/rules/test_card_docs.py)
    rnd, out = [json.loads(b.split("```")[0]) for b in text.split("```json")[1:3]]
    got = settle(rnd)
    assert got["deltas"] == out["deltas"]
    won = got["events"][0]["winners"][0]
    assert won["losers"] == out["losers"] and won["contractor"] == out["contractor"]


def test_situation_doc_example_settles() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "situation.md").read_text()
    block = text[text.index('{"ruleset": "wuhan"') :]
    rnd = json.loads(block[: block.index("```")])
    assert settle(rnd)["deltas"] == [-64, 112, -32, -16]
