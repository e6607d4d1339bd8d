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
