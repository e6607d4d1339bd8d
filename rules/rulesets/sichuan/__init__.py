"""四川麻将 (血战到底, 成都五元): hand fans in `scoring.py`, whole rounds in `round.py`.

The round settlement needs the hand scorer, and the ruleset needs both: the
class that joins them lives here, so neither module imports the other back.
docs/rules/sichuan.md has every decision with the seed text it rests on.
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.params import ParamValues
from rules.results import RoundBody
from rules.rulesets.sichuan.round import REASONS, settle_round
from rules.rulesets.sichuan.scoring import Sichuan
from rules.table import SUITED_TILES, EventKind, TableSpec, WinFlag


class SichuanRuleset(Sichuan):
    table_spec = TableSpec(
        tiles=SUITED_TILES,
        chi=False,
        prevalent_wind=False,  # no wind tiles, no 圈风: rounds are said by number and dealer
        flags=(
            WinFlag(
                "after_kong", "杠上花/炮", "After a kong",
                self_drawn=("杠上花", "Win after a kong"), discard=("杠上炮", "Win on a kong discard"),
            ),
            WinFlag("robbing_kong", "抢杠", "Robbing the kong", when="discard"),
            WinFlag("last_tile", "海底捞", "Last tile", when="self_drawn"),
        ),
        events=(
            EventKind("win", "和牌", "Win"),
            EventKind("kong", "杠", "Kong"),
            EventKind("wall_end", "流局", "Wall end"),
        ),
        multi_win=True,
        meld_labels={"kong": ("直杠", "Exposed kong"), "added_kong": ("面下杠", "Added kong")},
        reasons=REASONS,
    )  # fmt: skip

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """血战到底 goes on after a win; with it off the first win ends the round."""
        blood = (params or self.defaults).flag("blood_battle")
        if blood == self.table_spec.continues_after_win:
            return self.table_spec
        return replace(self.table_spec, continues_after_win=blood)

    def settle_round(self, rnd: Mapping[str, Any], params: ParamValues) -> RoundBody:
        return settle_round(self, rnd, params)


RULESET = SichuanRuleset()
