"""国标 MCR: rulebook cases, parameters, payments and the exclusion table as data.

The hand-for-hand comparison with PyMahjongGB is test_mcr_oracle.py; this file
pins what the rulebook and the seeds say, with full expected results.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import score
from rules.rulesets.mcr.fans import FANS, SEED_EXCLUDES, TABLE, TableFan
from rules.rulesets.mcr.scoring import CUT_FANS, FAN_FUNCS, HAND_FANS

try:
    from tests.rules import mcr_oracle as mo
except ImportError:  # pytest started without the project root on sys.path
    import mcr_oracle as mo  # type: ignore[no-redef,import-not-found]


def mcr(
    concealed: str, win: str, melds: list[dict[str, Any]] | None = None, **kw: Any
) -> dict[str, Any]:
    return {"ruleset": "mcr", "concealed": concealed, "win_tile": win, "melds": melds or [], **kw}


def fans(result: dict[str, Any]) -> dict[str, int]:
    assert result["ok"], result
    return {f["name_zh"]: f["count"] for f in result["fans"]}


def kong(tiles: str, exposed: bool = True) -> dict[str, Any]:
    return {
        "type": "kong",
        "tiles": tiles,
        "exposed": exposed,
        "claimed_from": "left" if exposed else None,
    }


def pung(tiles: str) -> dict[str, Any]:
    return {"type": "pung", "tiles": tiles, "exposed": True, "claimed_from": "across"}


def chi(tiles: str) -> dict[str, Any]:
    return {"type": "chi", "tiles": tiles, "exposed": True, "claimed_from": "left"}


def agrees_with_oracle(sit: dict[str, Any]) -> None:
    d = mo.compare(sit, score(sit))
    assert d is None, d.describe()


# --- seed 003's two worked cases ---------------------------------------------------------


def test_seed003_case1_big_four_winds_full_result() -> None:
    """Seed 003 test1: four wind kongs (西 北 melded, 东 南 concealed), self-drawn, 2 flowers.

    The seed's program lists 大四喜 字一色 双明杠 自摸 花牌 = 159; its input has no
    legal pair (Jiang 30 would be a fifth 南), so the pair here is 中, the only kind
    that keeps its 字一色.  Its program also misses 四杠 and the 双暗刻 of the two
    concealed kongs, and 四杠 supersedes 双明杠.
    """
    sit = mcr("7z", "7z", [kong("1111z", False), kong("2222z", False), kong("3333z"), kong("4444z")],
              self_drawn=True, flowers=2, seat_wind="E", prevalent_wind="E")  # fmt: skip
    r = score(sit)
    assert fans(r) == {"大四喜": 1, "四杠": 1, "字一色": 1, "双暗刻": 1, "自摸": 1, "花牌": 2}
    assert r["total"] == 88 + 88 + 64 + 2 + 1 + 2 and r["win"]
    agrees_with_oracle(sit)


def test_seed003_case2_three_concealed_pungs_full_result() -> None:
    """Seed 003 test2: 11p pair, 111s melded, 222m 333p 222s concealed, won on a discard.

    The seed lists only 全小 + 三暗刻 = 40 (its program is incomplete).  With the
    win on the pair tile (the reading that keeps three concealed pungs), the full
    result adds 三色三节高 (1s 2m 3p), 碰碰和, 双同刻 (2m 2s) and 幺九刻 (1s).  No
    单钓将: 1p 333p also waits on 2p (123p + 33p).
    """
    sit = mcr("1p222m333p222s", "1p", [pung("111s")])
    r = score(sit)
    assert fans(r) == {
        "全小": 1,
        "三暗刻": 1,
        "三色三节高": 1,
        "碰碰和": 1,
        "双同刻": 1,
        "幺九刻": 1,
    }
    assert r["total"] == 24 + 16 + 8 + 6 + 2 + 1 == 57
    agrees_with_oracle(sit)


# --- the rulebook's decisions ---------------------------------------------------------


def test_not_a_win_is_an_error() -> None:
    r = score(mcr("123m456p789s1123z", "4z"))
    assert r["ok"] is False and r["error"]["code"] == "not_a_win"


def test_below_minimum_lists_fans_and_says_how_many_are_missing() -> None:
    sit = mcr("234m456p678s5p", "5p", [chi("234p")], flowers=3)
    r = score(sit)
    assert r["ok"] and r["win"] is False
    got = fans(r)
    assert sum(FANS[f["id"]].points * f["count"] for f in r["fans"] if f["id"] != 81) < 8
    assert got["花牌"] == 3
    assert any("还差" in n for n in r["notes_zh"]) and any("short of" in n for n in r["notes"])
    assert score({**sit, "params": {"min_fans": 0}})["win"] is True


def test_phantom_wait_widens_the_wait_by_default() -> None:
    """A 'wait' on a fifth copy widens the wait (the MIL ruling); a parameter keeps the
    earlier reading, where it cannot be drawn and so is no wait.

    8999m + 777p wins on 8m; 7m would complete 789m + 99m, though the hand holds all
    four 7m.  By default (as PyMahjongGB) that is two formal waits: no 单钓将; with
    `wait_fans_real_waits` only 8m can be drawn: 单钓将 (docs/rules/mcr.md, "Waits").
    """
    sit = mcr("8999m777p", "8m", [pung("777s"), kong("7777m", False)], last_tile=True)
    assert "独听・单钓" not in fans(score(sit))
    assert mo.phantom_wait(sit)
    assert ("独听・单钓", 1, 1) not in mo.oracle_fans(sit)
    real = fans(score({**sit, "params": {"wait_fans_real_waits": True}}))
    assert real["独听・单钓"] == 1


def test_the_leagues_example_of_a_formal_double_wait() -> None:
    """1234444678m456p self-drawn on 1m waits formally on 1m and 4m (four 4m
    in the hand): 不求人 4 + 四归一 2 + 缺一门 1 + 无字 1 = 8, no 单钓将."""
    sit = mcr("1234444678m456p", "1m", self_drawn=True)
    got = fans(score(sit))
    assert got == {"不求人": 1, "四归一": 1, "缺一门": 1, "无字": 1}
    assert score(sit)["total"] == 4 + 2 + 1 + 1
    real = fans(score({**sit, "params": {"wait_fans_real_waits": True}}))
    assert real == {**got, "独听・单钓": 1}


def test_mixed_kong_parameter() -> None:
    sit = mcr("56m999s11z", "4m", [kong("6666s", False), kong("7777m")])
    assert fans(score(sit))["明暗杠"] == 1
    split = fans(score({**sit, "params": {"mixed_kong_fan": False}}))
    assert "明暗杠" not in split and split["暗杠"] == 1 and split["明杠"] == 1


def test_knitted_wait_parameter() -> None:
    # 147m258p369s knitted body + 123s? no: body + 456m chow + 99s pair, won on 9s (single)
    sit = mcr("147m258p369s456m9s", "9s")
    on = fans(score(sit))
    off = fans(score({**sit, "params": {"knitted_wait_fans": False}}))
    assert on["组合龙"] == 1 and off["组合龙"] == 1
    assert on.get("独听・单钓") == 1
    assert "独听・单钓" not in off  # 9s is also part of the knitted body
    agrees_with_oracle(sit)


def test_flower_points_parameter() -> None:
    sit = mcr("123m456p789s1122z", "2z", flowers=2, seat_wind="S")
    r1, r2 = score(sit), score({**sit, "params": {"flower_points": 3}})
    assert r2["total"] - r1["total"] == 4


@pytest.mark.parametrize(("self_drawn", "discarder"), [(False, 2), (True, None)])
def test_competition_payments(self_drawn: bool, discarder: int | None) -> None:
    sit = mcr("123m456p789s1122z", "2z", self_drawn=self_drawn, flowers=1, seat_wind="S",
              table={"players": 4, "dealer": 0, "winner": 1, "discarder": discarder})  # fmt: skip
    r = score(sit)
    total = r["total"]
    assert r["win"]
    expected = [0, 0, 0, 0]
    for seat in (0, 2, 3):
        pay = 8 + total if self_drawn or seat == discarder else 8
        expected[seat] -= pay
        expected[1] += pay
    assert r["deltas"] == expected and sum(r["deltas"]) == 0
    assert {p["from"] for p in r["payments"]} == {0, 2, 3}
    r10 = score({**sit, "params": {"base": 10}})
    assert r10["deltas"][1] - r["deltas"][1] == 6


def test_no_payment_below_minimum() -> None:
    sit = mcr("234m456p678s5p", "5p", [chi("234p")], table={"winner": 0, "discarder": 1})
    r = score(sit)
    assert r["win"] is False and r["payments"] == [] and r["deltas"] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("sit", "code"),
    [
        (mcr("123m456p789s1122z", "2z", wild=["5z"]), "bad_input"),
        (mcr("123m456p789s1122z", "2z", self_drawn=True, robbing_kong=True), "bad_input"),
        (
            mcr("123m456p789s1122z", "2z", table={"players": 3, "winner": 0, "discarder": 1}),
            "bad_table",
        ),
        (mcr("123m456p789s1122z", "2z", table={"players": 4}), "bad_table"),
        (mcr("123m456p789s1122z", "2z", params={"min_fans": -1}), "bad_param"),
    ],
)
def test_errors(sit: dict[str, Any], code: str) -> None:
    r = score(sit)
    assert r["ok"] is False and r["error"]["code"] == code


def test_notes_explain_fans_and_exclusions_in_both_languages() -> None:
    r = score(mcr("1112345678999m", "5m"))  # 九莲宝灯
    assert fans(r)["九莲宝灯"] == 1
    assert any(n.startswith("九莲宝灯") for n in r["notes_zh"])
    assert any(n.startswith("Nine Gates") for n in r["notes"])
    assert any(n.startswith("不计清一色") for n in r["notes_zh"])
    agrees_with_oracle(mcr("1112345678999m", "5m"))


# --- the exclusion table as data ------------------------------------------------------


def test_every_fan_has_a_function_or_is_decided_by_form() -> None:
    by_form = {4, 6, 7, 19, 20, 34, 35, 43, 81}  # special forms, 无番和, 花牌
    assert set(FAN_FUNCS) | by_form == set(range(1, 83))


def test_every_row_carries_its_condition_or_names_who_decides_it() -> None:
    """A fan's condition sits in its row (`when`), or the row's group says who decides
    it; the fan functions scoring reads are exactly the rows' conditions."""
    decided_elsewhere = {
        "form": {4, 6, 7, 19, 20, 34, 35},  # the special forms' own fans
        "fallback": {43},  # 无番和
        "flower": {81},  # 花牌
    }
    elsewhere = set().union(*decided_elsewhere.values())
    assert set(FANS) == set(range(1, 83))
    for f in FANS.values():
        if f.id in elsewhere:
            assert f.when is None and f.id in decided_elsewhere[f.group], f.zh
        else:
            assert callable(f.when) and f.group in ("hand", "cut"), f.zh
        if isinstance(f.when, TableFan):  # reads its own id from a set-relation table
            assert f.when.fid == f.id, f.zh
            assert f.when.table in ("chow_fans", "pung_fans", "kong_table"), f.zh
    with_condition = {f.id: f.when for f in FANS.values() if f.when is not None}
    assert with_condition == FAN_FUNCS
    assert set(FAN_FUNCS) == set(range(1, 83)) - elsewhere
    assert {f.id: f.when for f in FANS.values() if f.group == "hand"} == HAND_FANS
    assert {f.id: f.when for f in FANS.values() if f.group == "cut"} == CUT_FANS
    assert {**HAND_FANS, **CUT_FANS} == FAN_FUNCS


def test_exclusions_cover_the_rulebook_bu_ji_notes() -> None:
    """Every 不计 of seed 002 is in the data; the data's extras are documented in mcr.md."""
    for fid, seed in SEED_EXCLUDES.items():
        assert set(seed) <= set(FANS[fid].excludes), (fid, FANS[fid].zh)


def test_exclusions_are_consistent() -> None:
    for f in FANS.values():
        assert f.id not in f.excludes
        assert set(f.partial) <= set(f.excludes)
        for x in f.excludes:
            # a fan only excludes fans worth less or equal (the rulebook's direction)
            assert FANS[x].points <= f.points or x in f.partial, (f.zh, FANS[x].zh)


@pytest.mark.parametrize(
    ("situation", "dropped"),
    [
        ({"concealed": "111222333m456p7z", "win_tile": "7z", "self_drawn": True,
          "after_kong": True}, ["after_kong"]),
        ({"concealed": "222333m456p7z", "win_tile": "7z", "self_drawn": True,
          "after_kong": True, "melds": [{"type": "kong", "tiles": "1111m", "exposed": False}]}, []),
        ({"concealed": "111222333m456p7z", "win_tile": "7z", "robbing_kong": True},
         ["robbing_kong"]),
        ({"concealed": "111222333m45p7z7z", "win_tile": "6p", "robbing_kong": True}, []),
        ({"concealed": "111222333m456p7z", "win_tile": "7z", "fourth_tile": True},
         ["fourth_tile"]),
    ],
)  # fmt: skip
def test_flags_the_tiles_contradict_are_reported(situation: dict, dropped: list[str]) -> None:
    """A flag that cannot apply is named with why, never silently dropped."""
    r = score({"ruleset": "mcr", **situation})
    assert r["ok"], r
    assert [d["flag"] for d in r.get("flags_dropped", [])] == dropped
    for d in r.get("flags_dropped", []):
        assert d["reason"] and d["reason_zh"]


def _quick(fans: dict[int, int], self_drawn: bool = False) -> dict[str, Any]:
    from rules.hand import Table
    from rules.registry import get_ruleset

    rs = get_ruleset("mcr")
    table = Table(players=4, dealer=0, winner=1, discarder=None if self_drawn else 2)
    return rs.quick_score(fans, 0, table, self_drawn, rs.resolve_params({}))


EXCLUSION_PAIRS = [
    (a, x) for a in sorted(TABLE.by_id) if a != 81 for x in sorted(TABLE.exclude_sets[a]) if x != 81
]


@pytest.mark.parametrize(("fan", "excluded"), EXCLUSION_PAIRS)
def test_quick_entry_applies_every_exclusion_of_the_fan_table(fan: int, excluded: int) -> None:
    """Picking a fan and one it excludes (不计) counts the first only."""
    r = _quick({fan: 1, excluded: 1})
    if fan in TABLE.exclude_sets[excluded]:
        # Two fans that exclude each other (一色三同顺 / 一色三节高): the bigger one
        # counts, the lower number on a tie, as the table orders them.
        fan, excluded = sorted((fan, excluded), key=lambda f: (-FANS[f].points, f))
    assert r["total"] == FANS[fan].points
    assert [f["id"] for f in r["fans"]] == [fan]
    assert [(e["id"], e["by"]) for e in r["excluded"]] == [(excluded, fan)]


def test_quick_entry_all_pungs_full_flush_is_30_not_32() -> None:
    """碰碰和 + 清一色 + 缺一门 + 无字: 清一色 already says no other suit and no honours."""
    r = _quick({48: 1, 22: 1, 75: 1, 76: 1})
    assert r["total"] == FANS[48].points + FANS[22].points == 30
    assert {e["id"] for e in r["excluded"]} == {75, 76}
    # base 8: the discarder pays 8 + 30, the other two 8 each.
    assert sorted((p["from"], p["amount"]) for p in r["payments"]) == [(0, 8), (2, 38), (3, 8)]
    assert r["deltas"] == [-8, 54, -38, -8]


def test_an_excluded_fan_excludes_nothing_in_quick_entry() -> None:
    """四暗刻 excludes 不求人, so 不求人 does not exclude 自摸: 64 + 1."""
    r = _quick({12: 1, 56: 1, 80: 1}, self_drawn=True)
    assert r["total"] == FANS[12].points + FANS[80].points
    assert [(e["id"], e["by"]) for e in r["excluded"]] == [(56, 12)]


def test_quick_entry_below_the_minimum_after_exclusions() -> None:
    """平和 + 无字: 平和 excludes 无字 — 2 fans, under 8: no win, nothing paid."""
    r = _quick({63: 1, 76: 1})
    assert r["total"] == 2 and r["win"] is False and r["deltas"] == [0, 0, 0, 0]


def test_the_quick_catalog_follows_the_parameters() -> None:
    """明暗杠 (82) is offered, and accepted, only while `mixed_kong_fan` is on."""
    from rules.registry import get_ruleset

    rs = get_ruleset("mcr")
    standard = rs.resolve_params({"mixed_kong_fan": False})
    assert 82 not in {f["id"] for f in rs.fan_catalog(standard)}
    assert 82 in {f["id"] for f in rs.fan_catalog(None)}
    cat = {f["id"]: f for f in rs.fan_catalog(None)}
    for fid, f in cat.items():
        row = FANS[fid]
        assert f["excludes"] == sorted(set(row.excludes) - set(row.partial)), fid
    from rules.hand import Table

    with pytest.raises(Exception, match="82"):
        rs.quick_score({82: 1, 48: 1}, 0, Table(players=4, dealer=0, winner=1, discarder=2),
                       False, standard)  # fmt: skip
