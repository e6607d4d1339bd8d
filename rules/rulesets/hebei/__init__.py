"""河北麻将: a flat win value, ×2 per listed item, 杠随胡.

No wild tile, any pair (乱将), 碰 but no 吃; 七巧对 wins; 中发白 and 孔雀东南飞
(1条 + 东 + 南) may count as sets.  Only the winner's kongs are paid, by whoever
pays the win.  The card's two variants are presets; the money is the core's
`rules.doubling`.  docs/rules/hebei.md has every decision with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules import decompose, doubling
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import ParamValues
from rules.registry import Preset
from rules.results import HandResult
from rules.table import ALL_TILES, EventKind, Scoring, TableSpec

ITEMS = ("seven", "gangci", "zimo", "menqing", "dragon", "luxury", "zhuowu")


def forms(params: ParamValues) -> decompose.Forms:
    return decompose.Forms(
        seven_pairs=True, extra_sets=doubling.SPECIAL_SETS[params.choice("special_sets")]
    )


def readings(hand: Hand, params: ParamValues, f: decompose.Forms) -> list[doubling.Context]:
    only = doubling.only_wait(hand, f)
    return [doubling.Context(hand, d, only, False) for d in decompose.decompositions(hand, f)]


def best(params: ParamValues, ctxs: list[doubling.Context]) -> list[int]:
    """The reading with the most ×2 items the card counts."""
    return max((doubling.items(c, params) for c in ctxs), key=len)


class Hebei(doubling.Card):
    id = "hebei"
    rating_family = "hebei"  # the league rates its players apart from other rulesets'
    name_zh = "河北麻将"
    name_en = "Hebei"
    order = 60
    _help = doubling.item_help(ITEMS)
    params = (
        *doubling.common_params(5, 5, 10, "with_win"),
        *doubling.item_params(ITEMS, ("seven", "gangci", "zimo")),
        doubling.special_param(),
    )
    presets = (
        Preset("basic1", "基本打法（1）", "Basic (1)", {}),
        Preset("basic2", "基本打法（2）", "Basic (2)",
               {"pinghu": 10, "exposed_kong": 10, "concealed_kong": 20, "x_gangci": False,
                "x_zimo": False}),
    )  # fmt: skip
    table_spec = TableSpec(
        scoring=Scoring(unit="point", compose="double"),
        tiles=ALL_TILES,
        chi=False,  # "許碰不許吃牌"
        prevalent_wind=True,
        flags=doubling.FLAGS,
        events=(EventKind("win", "胡牌", "Win"), EventKind("draw", "荒庄", "Drawn hand")),
        reasons=doubling.REASONS,
    )

    def fan_help(self) -> Mapping[int, FanHelp]:
        return self._help

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand)
        ctxs = readings(hand, params, forms(params))
        if not ctxs:
            return doubling.no_win("the tiles do not form four sets and a pair, or seven pairs",
                                   "不成胡：要四副加一对将，或七巧对")  # fmt: skip
        return doubling.result(hand, best(params, ctxs), params)

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand)
        return decompose.waits(hand, forms(params))


RULESET = Hebei()
