"""四川麻将 (血战到底, 成都五元): hand fans in `scoring.py`, whole rounds in `round.py`.

The round settlement needs the hand scorer, and the ruleset needs both: the
class that joins them lives here, so neither module imports the other back.
docs/rules/sichuan.md has every decision with the seed text it rests on.
"""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.params import ParamValues
from rules.results import EventReport
from rules.round import RoundState
from rules.rulesets.sichuan import round as sichuan_round
from rules.rulesets.sichuan.help import HELP
from rules.rulesets.sichuan.round import REASONS, UNFINISHED
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

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """血战到底 goes on after a win; with it off the first win ends the round."""
        blood = (params or self.defaults).flag("blood_battle")
        if blood == self.table_spec.continues_after_win:
            return self.table_spec
        return replace(self.table_spec, continues_after_win=blood)

    # -- a round, settled by the core (rules/round.py) through these hooks -----------

    @property
    def round_players(self) -> tuple[int, ...]:
        """血战 is played three-handed and two-handed too; the dealer and the round's
        wind change nothing here but are checked like any round's."""
        return (2, 3, 4)

    unfinished_words: ClassVar[tuple[str, str]] = UNFINISHED

    def unknown_event(self, spec: TableSpec, etype: Any, i: int) -> RuleError:
        return sichuan_round.unknown_event(etype, i)

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """ "直杠,立刻收取引杠者1倍點數"; "面下杠,立刻收取其他未胡者1倍點數";
        "下雨立刻收取其他未胡者2倍點數" (seed 002): `base` × the kind's multiplier."""
        amount = params.whole("base") * params.whole(f"kong_{kind}")
        if kind == "exposed":
            assert discarder is not None
            return [(discarder, amount)]
        return [(s, amount) for s in in_play if s != player]

    def settle_kong(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        return sichuan_round.settle_kong(state, ev, i)

    def settle_win(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        return sichuan_round.settle_win(self, state, ev, i)

    def wall_end(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        return sichuan_round.wall_end(self, state, ev, i)

    def round_checked(self, state: RoundState) -> None:
        sichuan_round.round_checked(state)


RULESET = SichuanRuleset()
