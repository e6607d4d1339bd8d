"""自定义规则 (house rules): a scorer for rooms whose rules are not listed.

A win is worth a fixed number of points: the discarder pays them, or every
other player pays them times a multiplier on a self-draw; the dealer pays or
receives a bonus on top; kongs are paid the moment they are made.  Which hands
win is the `generic` shapes (four sets and a pair, seven pairs as a parameter)
with the table's wild tiles: none, 红中, or the kind after (or of) a tile turned
up at the start of each round.  docs/rules/house.md has every decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from rules import decompose
from rules.decompose import Forms
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.fans import FanDef, FanTable
from rules.hand import Hand
from rules.params import Param, ParamValues, int_param
from rules.registry import Preset, Ruleset
from rules.results import HandResult
from rules.rulesets.generic import decomposition_dict, listed_and_count
from rules.table import ALL_TILES, SUITED_TILES, EventKind, TableSpec, Wilds
from rules.tiles import tile_en, tile_zh, tiles_en
from rules.working import Term, item, merged, term

RED_DRAGON = 33  # 7z 红中

# One row: the win itself.  Its points are the table's `points` parameter, so the
# row's own are 1 (one unit) and the result says the points the table plays for.
FANS = FanTable(
    (
        FanDef(1, "和牌", "Win", 1, rule_zh="组成和牌的牌型", rule_en="a winning shape",
               group="win"),
    )
)  # fmt: skip
# The one fan explained: any winning shape (rules/fan_help.py).
HELP = {1: FanHelp("123m456p789s234s5m +5m", {}, FANS[1].rule_zh, FANS[1].rule_en,
                   ("胡牌", "屁胡", "平胡"))}  # fmt: skip

WILD_MODES = ("none", "red_dragon", "turned_next", "turned_same")


@lru_cache(maxsize=64)
def _table(honors: bool, chi: bool, wild: str) -> TableSpec:
    """The table for one combination of the parameters that shape it (asked on every tap)."""
    if wild == "red_dragon" and honors:
        wilds = Wilds("fixed", tiles=(RED_DRAGON,))
    elif wild in ("turned_next", "turned_same"):
        wilds = Wilds("turned", turned_rule="next" if wild == "turned_next" else "same")
    else:
        wilds = Wilds()  # none; 红中癞子 without honors has no 红中 to be wild
    return TableSpec(
        tiles=ALL_TILES if honors else SUITED_TILES,
        chi=chi,
        prevalent_wind=honors,
        wilds=wilds,
        events=(
            EventKind("win", "和牌", "Win"),
            EventKind("kong", "杠", "Kong"),
            EventKind("draw", "荒庄", "Drawn game"),
        ),
        reasons={
            "win": ("和牌", "Win"),
            "kong_exposed": ("明杠", "Exposed kong"),
            "kong_added": ("加杠", "Added kong"),
            "kong_concealed": ("暗杠", "Concealed kong"),
        },
    )


class House(Ruleset):
    id = "house"
    rating_family = "house"  # the league rates its players apart from other rulesets'
    name_zh = "自定义规则"
    name_en = "House rules"
    table_play = True
    order = 90  # for the rooms whose rules are not listed above it
    players = (2, 3, 4)
    params = (
        int_param("points", 1, "每和点数", "Points per win",
                  "点炮时放炮者付这么多；自摸时每家付这么多乘以自摸倍数",
                  "The discarder pays this much; on a self-draw every other player pays it "
                  "times the self-draw multiplier", hi=10_000),
        int_param("self_draw_multiplier", 2, "自摸倍数", "Self-draw multiplier",
                  "自摸时其他每家付 点数 × 这个倍数", "On a self-draw every other player pays "
                  "points × this", lo=1, hi=10),
        int_param("dealer_bonus", 0, "庄家加分", "Dealer bonus",
                  "庄家和牌时每个付钱的人多付这么多；庄家付钱时也多付这么多",
                  "Added to every win payment the dealer makes or receives", hi=10_000),
        int_param("kong_exposed", 1, "明杠", "Exposed kong",
                  "明杠（杠别人打出的牌）：放杠的人付这么多",
                  "An exposed kong on a discard: the discarder pays this much", hi=10_000),
        int_param("kong_added", 1, "加杠", "Added kong",
                  "加杠（碰后摸到第四张）：其他每家付这么多",
                  "A kong added to a pung: every other player pays this much", hi=10_000),
        int_param("kong_concealed", 2, "暗杠", "Concealed kong",
                  "暗杠：其他每家付这么多", "A concealed kong: every other player pays this much", hi=10_000),
        Param("seven_pairs", "bool", True, "七对", "Seven pairs",
              "七个对子也算和牌（四张相同算两对）",
              "Seven pairs win too (four of a kind counts as two pairs)"),
        Param("honors", "bool", True, "字牌", "Honor tiles",
              "打字牌（东南西北中发白）；关闭时只用万、筒、条 108 张，也没有圈风",
              "Play with the winds and dragons; off: the 108 suited tiles only, and no "
              "round wind"),
        Param("chi", "bool", True, "可以吃", "Chi allowed",
              "可以吃上家打出的牌", "A player may chi the discard of the player before"),
        Param("wild", "choice", "none", "癞子", "Wild tiles",
              "没有癞子；红中是癞子；每局开始翻一张牌，它的下一张是癞子；或翻出的那种牌是癞子",
              "No wild tiles; the red dragons are wild; a tile is turned up at the start of "
              "each round and the next kind is wild; or the turned kind itself is wild",
              choices=WILD_MODES,
              choice_labels=(
                  ("无癞子", "No wild tiles"),
                  ("红中癞子", "Red dragons are wild"),
                  ("翻牌定癞子（下一张）", "Turned tile: the next kind is wild"),
                  ("翻出的牌是癞子", "Turned tile: that kind is wild"),
              )),
        Param("dealer_repeats", "bool", True, "连庄", "Dealer repeats",
              "庄家和牌或荒庄时连庄；关闭时每局换下一家坐庄",
              "The dealer deals again after winning or a drawn game; off: the deal passes on"),
    )  # fmt: skip
    presets = (
        Preset("simple", "简单计分", "Simple scoring", {}),
        Preset("red_dragon", "红中癞子", "Red dragons wild", {"wild": "red_dragon", "points": 2}),
        Preset("turned", "翻牌定癞子", "Turned tile decides the wild", {"wild": "turned_next"}),
    )

    def table(self, params: ParamValues | None = None) -> TableSpec:
        p = params or self.defaults
        return _table(p.flag("honors"), p.flag("chi"), p.choice("wild"))

    @staticmethod
    def forms(params: ParamValues) -> Forms:
        return Forms(seven_pairs=params.flag("seven_pairs"))

    def check(self, hand: Hand, params: ParamValues) -> None:
        """Tiles and melds the table does not play with are refused, not scored."""
        if not params["honors"]:
            honors = [t for t in range(27, 34) if hand.held[t]]
            if honors:
                raise RuleError(
                    "bad_tile",
                    f"this table plays without honor tiles; {tile_en(honors[0])} is one",
                    f"这桌不打字牌，{tile_zh(honors[0])}不能用",
                )
        if not params["chi"]:
            for i, m in enumerate(hand.melds):
                if m.type == "chi":
                    raise RuleError(
                        "illegal_meld",
                        f"meld {i + 1}: this table plays without chi",
                        f"第 {i + 1} 副副露：这桌不可以吃",
                    )

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand, params)
        decs, count = listed_and_count(hand, self.forms(params))
        points = params.whole("points")
        listed = [decomposition_dict(d) for d in decs]
        if not count:
            sp = params["seven_pairs"]
            return {
                "win": False,
                "fans": [],
                "total": 0,
                "decompositions": [],
                "decomposition_count": 0,
                "notes": ["the tiles do not form four sets and a pair" + (" or seven pairs" if sp else "")],
                "notes_zh": ["这手牌组不成四副面子加一对将" + ("，也不是七对" if sp else "")],
            }  # fmt: skip
        row = FANS[1]
        # Standard readings come first, so the first says whether there is any.
        seven = decs[0].form == "seven_pairs"
        shape_zh, shape_en = (
            ("七对", "seven pairs") if seven else ("四副面子加一对将", "four sets and a pair")
        )
        notes_zh = [f"{row.zh}（{shape_zh}）：{points} 点"]
        notes = [f"{row.en} ({shape_en}): {points} point" + ("" if points == 1 else "s")]
        wild_as = sorted({t for d in decs[:1] for t in d.wild_as})
        if hand.wilds and wild_as:
            notes_zh.append("癞子当作 " + "、".join(tile_zh(t) for t in wild_as))
            notes.append("wild tiles stand for " + tiles_en(wild_as))
        out: HandResult = {
            "win": True,
            "fans": [{"id": 1, "name_zh": row.zh, "name_en": row.en, "points": points,
                      "count": 1}],
            "total": points,
            "decompositions": listed,
            "decomposition_count": count,
            "notes": notes,
            "notes_zh": notes_zh,
        }  # fmt: skip
        t = hand.table
        if t is not None:
            if t.winner is None:
                raise RuleError(
                    "bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner"
                )
            pays = self.win_payments(
                hand.self_drawn, t.players, t.dealer, t.winner, t.discarder, params
            )
            deltas = [0] * t.players
            for payer, amount in pays:
                deltas[payer] -= amount
                deltas[t.winner] += amount
            out["payments"] = [{"from": s, "to": t.winner, "amount": a} for s, a in pays]
            out["deltas"] = deltas
            out["terms"] = merged(self.win_terms(pays, hand.self_drawn, t.dealer, t.winner, params))
            each = "、".join(f"{s}号位 {a}" for s, a in pays)
            notes_zh.append(("自摸，" if hand.self_drawn else "点炮，") + f"付：{each}")
            notes.append(("self-drawn, " if hand.self_drawn else "on a discard, ")
                         + "pays: " + ", ".join(f"seat {s} {a}" for s, a in pays))  # fmt: skip
        return out

    @staticmethod
    def win_payments(
        self_drawn: bool, players: int, dealer: int, winner: int, discarder: int | None,
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """(payer, amount) of one win: the discarder pays the points, or every other
        player the points × the multiplier; a payment the dealer makes or receives
        carries the dealer bonus."""
        points = params.whole("points")
        bonus = params.whole("dealer_bonus")
        if self_drawn:
            base = points * params.whole("self_draw_multiplier")
            payers = [s for s in range(players) if s != winner]
        else:
            if discarder is None:
                raise RuleError(
                    "bad_table", "a win on a discard needs the discarder", "点炮和牌需要放炮者"
                )
            base, payers = points, [discarder]
        return [(s, base + (bonus if dealer in (s, winner) else 0)) for s in payers]

    @staticmethod
    def win_terms(
        pays: list[tuple[int, int]], self_drawn: bool, dealer: int, winner: int,
        params: ParamValues,
    ) -> list[Term]:  # fmt: skip
        """Each payment's working: the points (× the self-draw multiplier), + the
        dealer bonus where the dealer pays or wins."""
        mult = params.whole("self_draw_multiplier")
        bonus = params.whole("dealer_bonus")
        out = []
        for s, a in pays:
            factors = [item(mult, name=("自摸", "self-drawn"))] if self_drawn and mult != 1 else []
            adds = [item(bonus, name=("庄家", "dealer"))] if bonus and dealer in (s, winner) else []
            out.append(term([s], winner, a, base=item(params.whole("points")), factors=factors,
                            additions=adds))  # fmt: skip
        return out

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        if kind == "exposed":
            assert discarder is not None
            return [(discarder, params.whole("kong_exposed"))]
        amount = params.whole("kong_added" if kind == "added" else "kong_concealed")
        return [(s, amount) for s in in_play if s != player]

    def next_dealer(
        self, dealer: int, players: int, winners: Sequence[int], params: ParamValues,
        discarder: int | None = None,
    ) -> int:  # fmt: skip
        if params["dealer_repeats"] and (not winners or dealer in winners):
            return dealer
        return (dealer + 1) % players

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand, params)
        return [
            t for t in decompose.waits(hand, self.forms(params)) if t in self.table(params).tiles
        ]
