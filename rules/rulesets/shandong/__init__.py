"""山东麻将: a flat win value, ×2 per listed item, a 2/5/8 pair (坐将).

No wild tile; 吃 and 碰 allowed; 七巧对 wins without the 2/5/8 rule; 中发白 and
孔雀东南飞 may count as sets.  Variant (2) doubles a self-draw on an edge,
closed or single wait (边/砍/吊).  Kongs are paid by each other player.  The
money is the core's `rules.doubling`; docs/rules/shandong.md has every decision
with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules import decompose, doubling
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues
from rules.registry import Preset
from rules.results import HandResult
from rules.table import ALL_TILES, EventKind, Scoring, TableSpec

JIANG = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))  # "2、5、8坐將胡"
ITEMS = ("seven", "zimo", "biankandiao", "menqing", "dragon", "gangci")


def forms(params: ParamValues) -> decompose.Forms:
    return decompose.Forms(
        seven_pairs=True, extra_sets=doubling.SPECIAL_SETS[params.choice("special_sets")]
    )


class Shandong(doubling.Card):
    id = "shandong"
    rating_family = "shandong"  # the league rates its players apart from other rulesets'
    name_zh = "山东麻将"
    name_en = "Shandong"
    order = 65
    _help = doubling.item_help(ITEMS)
    params = (
        *doubling.common_params(5, 5, 10, "independent"),
        *doubling.item_params(ITEMS, ("seven", "zimo")),
        Param("seven_pairs_258", "bool", False, "七巧对也要258", "Seven pairs need 2-5-8",
              "七巧对没有将，默认不要求 2、5、8", "Seven pairs have no 将: no 2/5/8 rule by "
              "default"),
        doubling.special_param(),
    )  # fmt: skip
    presets = (
        Preset("basic1", "基本打法（1）", "Basic (1)", {}),
        Preset("basic2", "基本打法（2）", "Basic (2)",
               {"pinghu": 10, "exposed_kong": 10, "concealed_kong": 20,
                "x_biankandiao": True}),
    )  # fmt: skip
    table_spec = TableSpec(
        scoring=Scoring(unit="point", compose="double"),
        tiles=ALL_TILES,
        chi=True,  # "可以吃碰牌"
        prevalent_wind=True,
        flags=doubling.FLAGS,
        events=(EventKind("win", "胡牌", "Win"), EventKind("draw", "荒庄", "Drawn hand")),
        reasons=doubling.REASONS,
    )

    def _ok(self, c: doubling.Context, params: ParamValues) -> bool:
        if c.d.form == "seven_pairs" and not params["seven_pairs_258"]:
            return True
        pairs = [g.tile for g in c.d.groups if g.kind == "pair"]
        return all(p in JIANG for p in pairs)

    def fan_help(self) -> Mapping[int, FanHelp]:
        return self._help

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand)
        f = forms(params)
        ds = decompose.decompositions(hand, f)
        only = doubling.only_wait(hand, f)
        ctxs = [doubling.Context(hand, d, only, False) for d in ds]
        ok = [c for c in ctxs if self._ok(c, params)]
        if not ok:
            if ctxs:
                return doubling.no_win("the pair must be 2, 5 or 8 (坐将)",
                                       "将必须是 2、5、8（坐将）")  # fmt: skip
            return doubling.no_win("the tiles do not form four sets and a pair, or seven pairs",
                                   "不成胡：要四副加一对将，或七巧对")  # fmt: skip
        fids = max((doubling.items(c, params) for c in ok), key=len)
        return doubling.result(hand, fids, params)

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        """The shape's waits that leave a 2/5/8 pair (or seven pairs)."""
        self.check(hand)
        f = forms(params)
        out = []
        for t in decompose.waits(hand, f):
            counts = bytearray(hand.counts)
            counts[t] += 1
            caps = tuple(4 - m for m in hand.meld_counts) if hand.melds else None
            ds = decompose.decompositions_counts(bytes(counts), 0, len(hand.melds), f, caps)
            if any(self._ok(doubling.Context(hand, d, False, False), params) for d in ds):
                out.append(t)
        return out


RULESET = Shandong()
