"""What a fan means (rules/fan_help.py): every fan of every ruleset that has help,
scored from its example hand, is there.

One `score()` per fan (the engine is fast), with the example's situation (自摸, 海底,
杠上开花, the winds, flowers) and parameters (成都's 金钩钓); a fan no hand makes
(云南's 十老头, ten honor discards in a row) is picked instead, as the table does.
Every fan a picker lists (`fan_catalog`, every preset) has its help.
"""

from __future__ import annotations

import pytest

from rules import REGISTRY, score
from rules.fan_help import example_situation, parse_example
from rules.hand import Table

HELPED = [(rs.id, fid) for rs in REGISTRY.values() for fid in sorted(rs.fan_help())]


@pytest.mark.parametrize(("rs_id", "fid"), HELPED)
def test_each_example_hand_scores_its_fan(rs_id: str, fid: int) -> None:
    rs = REGISTRY[rs_id]
    help = rs.fan_help()[fid]
    assert help.meaning_zh and help.meaning_en, "a fan says what it means"
    if help.picked:
        # No hand makes it: picked by hand, it counts.
        params = rs.resolve_params(dict(help.params))
        self_drawn = help.situation.get("self_drawn", False)
        table = Table(4, 0, 1, None if self_drawn else 2)
        r = rs.quick_score({fid: 1}, 0, table, self_drawn, params)
    else:
        r = score(example_situation(rs_id, help))
        assert r["ok"], (help.example, r)
    if help.folded:  # named in the notes of the row it is folded into
        assert r["win"] and help.folded in "".join(r["notes_zh"]), (help.example, r["notes_zh"])
        return
    assert fid in [f["id"] for f in r["fans"]], (help.example, dict(help.situation), r["fans"])


@pytest.mark.parametrize("rs_id", sorted(rs.id for rs in REGISTRY.values() if rs.table_play))
def test_every_fan_a_picker_lists_has_its_help(rs_id: str) -> None:
    rs = REGISTRY[rs_id]
    for preset in rs.presets or [None]:
        params = rs.resolve_params(dict(preset.params) if preset else {})
        missing = [f["id"] for f in rs.fan_catalog(params) if f["id"] not in rs.fan_help()]
        assert not missing, (rs_id, preset and preset.id, missing)


def test_the_example_string() -> None:
    got = parse_example("34p55z [123m] [678s] [888m] {1111p} +2p")
    assert got == {
        "concealed": "3p4p5z5z",
        "melds": [
            {"type": "chi", "tiles": "1m2m3m"},
            {"type": "chi", "tiles": "6s7s8s"},
            {"type": "pung", "tiles": "8m8m8m"},
            {"type": "kong", "tiles": "1p1p1p1p", "exposed": False},
        ],
        "win_tile": "2p",
    }
    with pytest.raises(ValueError):
        parse_example("123m456m789m123p55p")  # no winning tile


def _every_fan() -> dict[str, set[int]]:
    """Every fan a ruleset's results can list, by its own tables (the payer rows of 吉安,
    点炮 and 庄家, are what a payer adds, not a hand's; 芜湖's rows beside its 嘴子 are
    the prices: 底番, 支番, 杠, 全交)."""
    from rules.doubling import NAMES
    from rules.rulesets.beijing import ITEMS as BEIJING
    from rules.rulesets.hebei import ITEMS as HEBEI
    from rules.rulesets.jian.hands import FANS as JIAN
    from rules.rulesets.mcr.fans import TABLE as MCR
    from rules.rulesets.shandong import ITEMS as SHANDONG
    from rules.rulesets.sichuan.scoring import FANS as SICHUAN
    from rules.rulesets.wuhan.hands import TYPES as WUHAN
    from rules.rulesets.wuhu.hands import ZUI as WUHU
    from rules.rulesets.yunnan import FANS as YUNNAN

    by = {v: k for k, v in NAMES.items()}
    return {
        "mcr": {f.id for f in MCR}, "sichuan": set(SICHUAN), "yunnan": {f.id for f in YUNNAN},
        "wuhan": {f.id for f in WUHAN}, "jian": {f.id for f in JIAN} - {11, 12},
        "wuhu": {f.id for f in WUHU}, "house": {1}, "shaanxi": {0},
        "beijing": {by[n] for n in BEIJING}, "hebei": {by[n] for n in HEBEI},
        "shandong": {by[n] for n in SHANDONG},
    }  # fmt: skip


def test_every_fan_of_every_table_ruleset_has_its_help() -> None:
    every = _every_fan()
    assert set(every) == {rs.id for rs in REGISTRY.values() if rs.table_play}
    for rs_id, fans in every.items():
        assert set(REGISTRY[rs_id].fan_help()) == fans, rs_id


def test_players_abbreviations_are_aliases_of_every_ruleset_that_has_the_fan() -> None:
    """What players type at the table: "qdd" for 七对 and "13幺" / "十三么" for 十三幺,
    in each ruleset whose fan help has a seven-pairs or thirteen-orphans entry."""
    seven = thirteen = 0
    for rs_id, rs in REGISTRY.items():
        for fid, h in rs.fan_help().items():
            if {"七对", "七对子"} & set(h.aliases):
                assert "qdd" in h.aliases, (rs_id, fid, h.aliases)
                seven += 1
            if "十三幺" in h.aliases or "国士无双" in h.aliases:
                assert {"13幺", "十三么"} <= set(h.aliases), (rs_id, fid, h.aliases)
                thirteen += 1
    assert seven >= 7 and thirteen >= 2, (seven, thirteen)
