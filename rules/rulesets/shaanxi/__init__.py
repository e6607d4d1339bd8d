"""陕西麻将: no hand patterns; 底分, 放胡/自摸, the dealer's double and 炮子.

Every winning shape (平胡, 七对, 十三幺, 全不靠, 组合龙) is worth the same.  Each
loser pays A × 底分 × (D + own 炮子 + winner's 炮子), A = 1 on a discard
(抢杠 too) and 2 on a self-draw, D = 2 between the dealer and another, else 1:
the seed's winner line (3·p_w + Σ p_j) · A · 底分 is the sum of the three loser
lines, so all three pay (docs/rules/shaanxi.md shows the algebra).  Kongs are
paid at once as events of the round and are never multiplied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues, int_param, recipients_param
from rules.registry import Preset, Ruleset
from rules.results import HandResult, Loser
from rules.round import Penalty
from rules.table import (
    ALL_TILES,
    EventKind,
    PenaltyKind,
    Scoring,
    SeatInput,
    TableSpec,
    WinFlag,
)
from rules.working import Term, item, merged, term

FORMS = decompose.Forms(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=True,
                        honors_knitted=True, knitted_straight=True)  # fmt: skip
PLAIN_FORMS = decompose.Forms(seven_pairs=False)
SHAPES = {
    "standard": ("平胡", "Plain win"),
    "seven_pairs": ("七对", "Seven pairs"),
    "thirteen_orphans": ("十三幺", "Thirteen orphans"),
    "honors_knitted": ("全不靠", "Knitted and honors"),
    "knitted_straight": ("组合龙", "Knitted straight"),
}
# The one row a win shows (id 0) names its shape; every shape is worth the same
# (rules/fan_help.py).
HELP = {
    0: FanHelp(
        "123m456p789s234s5m +5m", {},
        "胡牌的牌型：四副加一对将，或七对、十三幺、全不靠、组合龙；牌型不另加分，"
        "钱由 A × 底分 和各家的炮子算出",
        "the winning shape: four sets and a pair, or seven pairs, thirteen orphans, "
        "knitted and honors, knitted straight; no shape adds anything, the amounts come "
        "from A × base and each player's stakes",
        ("平胡", "屁胡", "七对", "qdd", "十三幺", "十三么", "13幺"),
    )
}  # fmt: skip
PAOZI = SeatInput("paozi", "炮子", "Stakes (paozi)", 0, 4, 0,
                  "庄家出牌前下的炮子（0–4）", "Stakes posted before the dealer's first "
                  "discard (0–4)")  # fmt: skip
REASONS = {
    "win": ("胡牌", "Win"),
    "kong_concealed": ("暗杠", "Concealed kong"),
    "kong_exposed": ("放杠", "Kong on a discard"),
    "kong_added": ("明杠", "Kong on a pung"),
}


class Shaanxi(Ruleset):
    id = "shaanxi"
    rating_family = "shaanxi"  # the league rates its players apart from other rulesets'
    name_zh = "陕西麻将"
    name_en = "Shaanxi"
    table_play = True
    order = 50
    players = (4,)
    params = (
        int_param("base", 3, "底分", "Base", "固定的底分", "The fixed base"),
        int_param("discard_factor", 1, "放胡系数 A", "Discard win A", "放胡（和抢杠）A = 1",
                  "A on a discard win (and robbing a kong)"),
        int_param("self_draw_factor", 2, "自摸系数 A", "Self-draw A", "自摸 A = 2", "A on a self-draw"),
        int_param("dealer_factor", 2, "庄家翻倍", "Dealer ×", "庄家的胡牌分数 ×（只对胡牌分数）",
                  "The dealer's hand score × (the hand score only)"),
        Param("discard_payers", "choice", "all", "放胡谁给", "Who pays a discard win",
              "赢家收取其他玩家（三家都给），或只有放胡的人给", "All three pay (the seed), or "
              "only the discarder", choices=("all", "discarder"),
              choice_labels=(("三家都给", "All three"), ("放胡的一家给", "The discarder alone"))),
        int_param("concealed_kong", 2, "暗杠（倍底分）", "Concealed kong (× base)",
                  "暗杠：其他每家付几倍底分", "Concealed kong: × base from each other player"),
        int_param("exposed_kong", 2, "放杠（倍底分）", "Kong on a discard (× base)",
                  "放杠：引杠的人付几倍底分", "Kong on a discard: × base from the discarder"),
        int_param("added_kong", 1, "明杠（倍底分）", "Kong on a pung (× base)",
                  "明杠（碰后摸到）：其他每家付几倍底分", "Kong on one's pung: × base from each other"),
        Param("special_shapes", "bool", True, "十三幺、七对、全不靠、组合龙", "Special shapes",
              "这些牌型也可以胡（分数和平胡一样）", "These shapes win too (worth a plain win)"),
        Param("chi", "bool", False, "可以吃", "Chi allowed", "规则只说碰杠：默认不能吃",
              "The rules describe only pung and kong: no chi by default"),
        recipients_param("escape_to", "逃跑", "Escape"),
    )  # fmt: skip
    presets = (
        Preset("standard", "陕西（三家都给）", "Shaanxi (all three pay)", {}),
        Preset("discarder_pays", "放胡一家给", "The discarder pays",
               {"discard_payers": "discarder"}),
    )  # fmt: skip
    table_spec = TableSpec(
        scoring=Scoring(unit="point", compose="flat"),
        tiles=ALL_TILES,
        chi=False,
        prevalent_wind=True,
        flags=(WinFlag("robbing_kong", "抢杠", "Robbing a kong", when="discard"),),
        events=(
            EventKind("win", "胡牌", "Win"),
            EventKind("kong", "杠", "Kong"),
            EventKind("draw", "荒庄", "Drawn hand"),
        ),  # fmt: skip
        seat_inputs=(PAOZI,),
        # "逃跑扣分:算該玩家輸,扣分=底分*(8 + 自己的炮子數*3 + 其余玩家炮子數和)" (SX-9).
        penalties=(
            PenaltyKind(
                "escape",
                "逃跑",
                "Escape",
                "逃跑者扣 底分 ×（8 + 自己的炮子 × 3 + 其余玩家炮子和）",
                "The player who leaves loses base × (8 + own stakes × 3 + the others' stakes)",
                to_param="escape_to",
                inputs=("paozi",),
            ),
        ),
        reasons=REASONS,
        meld_labels={
            "kong": ("放杠", "Kong on a discard"),
            "added_kong": ("明杠", "Kong on a pung"),
            "concealed_kong": ("暗杠", "Concealed kong"),
        },  # fmt: skip
    )
    _chi_table = replace(table_spec, chi=True)

    def table(self, params: ParamValues | None = None) -> TableSpec:
        return self._chi_table if (params or self.defaults)["chi"] else self.table_spec

    def check(self, hand: Hand, params: ParamValues) -> None:
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")
        if hand.wild:
            raise RuleError("bad_input", "陕西 plays without wild tiles", "陕西麻将没有癞子")
        if not params["chi"] and any(m.type == "chi" for m in hand.melds):
            raise RuleError("illegal_meld", "no chi at this table", "这桌不能吃")

    def forms(self, params: ParamValues) -> decompose.Forms:
        return FORMS if params["special_shapes"] else PLAIN_FORMS

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand, params)
        ds = decompose.decompositions(hand, self.forms(params))
        if not ds:
            return {"win": False, "fans": [], "total": 0,
                    "notes": ["no winning shape (4 sets and a pair, 七对, 十三幺, 全不靠, 组合龙)"],
                    "notes_zh": ["不成胡：要四副加一对将，或七对、十三幺、全不靠、组合龙"]}  # fmt: skip
        zh, en = SHAPES.get(ds[0].form, SHAPES["standard"])
        b = params.whole("base")
        a = params.whole("self_draw_factor" if hand.self_drawn else "discard_factor")
        how_zh, how_en = ("自摸", "self-drawn") if hand.self_drawn else (
            ("抢杠（算放胡）", "robbing a kong (a discard win)") if hand.robbing_kong
            else ("放胡", "on a discard"))  # fmt: skip
        out: HandResult = {
            "win": True,
            "fans": [{"id": 0, "name_zh": zh, "name_en": en, "points": a * b, "count": 1}],
            "total": a * b,
            # Every shape is worth the same: A × 底分, then each loser's 炮子 make his amount.
            "notes_zh": [f"{how_zh} A {a} × 底分 {b} = {a * b}（{zh}不另加分）"],
            "notes": [f"{how_en}: A {a} × base {b} = {a * b} ({en} adds nothing)"],
            "working_zh": [f"{how_zh} A {a} × 底分 {b} = {a * b}（{zh}不另加分）"],
            "working": [f"{how_en}: A {a} × base {b} = {a * b} ({en} adds nothing)"],
        }
        t = hand.table
        if t is None:
            return out
        if t.winner is None:
            raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
        if not hand.self_drawn and t.discarder is None:
            raise RuleError("bad_table", "a win on a discard needs the discarder", "放胡需要放胡者")
        w, n = t.winner, t.players
        raw = (hand.extra.get("seat_inputs") or {}).get("paozi") or [0] * n
        p = [int(x) for x in raw]
        payers = [s for s in range(n) if s != w]
        if not hand.self_drawn and params["discard_payers"] == "discarder":
            payers = [t.discarder]  # type: ignore[list-item]
        losers: list[Loser] = []
        terms: list[Term] = []
        deltas = [0] * n
        for s in payers:
            d = params.whole("dealer_factor") if t.dealer in (s, w) else 1
            amount = a * b * (d + p[s] + p[w])
            deltas[s] -= amount
            deltas[w] += amount
            losers.append({"seat": s, "pays": amount, "dealer": d, "paozi": p[s]})
            terms.append(term([s], w, amount, base=item(d, name=("庄", "dealer")),
                              additions=[item(p[s], name=("炮子", "stakes")),
                                         item(p[w], name=("赢家炮子", "winner's stakes"))],
                              per=[item(a, name=(f"{how_zh[:2]} A", "A")), item(b, name=("底分", "base"))]))  # fmt: skip
            line_zh = f"{s} 号位：{a} × {b} × (庄 {d} + 炮子 {p[s]} + 赢家炮子 {p[w]}) = {amount}"
            line_en = (f"seat {s}: {a} × {b} × (dealer {d} + stakes {p[s]} + winner's "
                       f"stakes {p[w]}) = {amount}")  # fmt: skip
            out["notes_zh"].append(line_zh)
            out["notes"].append(line_en)
            out["working_zh"].append(line_zh)
            out["working"].append(line_en)
        out["losers"] = losers
        out["terms"] = merged(terms)
        out["payments"] = [{"from": lo["seat"], "to": w, "amount": lo["pays"]} for lo in losers]
        out["deltas"] = deltas
        return out

    def penalty_amount(
        self, penalty: str, seat: int, seat_inputs: Mapping[str, list[int]], players: int,
        params: ParamValues,
    ) -> Penalty:  # fmt: skip
        """逃跑: 底分 × (8 + own 炮子 × 3 + the others' 炮子), seed 002."""
        p = [int(x) for x in seat_inputs.get("paozi") or [0] * players]
        b, own = params.whole("base"), p[seat]
        rest = sum(p) - own
        amount = b * (8 + own * 3 + rest)
        return Penalty(
            amount,
            (f"{b} × (8 + {own} × 3 + {rest}) = {amount}",),
            (f"底分 {b} ×（8 + 自己炮子 {own} × 3 + 其余炮子 {rest}）= {amount}",),
        )

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand, params)
        return decompose.waits(hand, self.forms(params))

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """暗杠 2 × 底分 from each other player, 放杠 2 × 底分 from the discarder, 明杠
        1 × 底分 from each: at once, never doubled ("莊家翻倍只針對胡牌分數")."""
        b = params.whole("base")
        if kind == "exposed":
            assert discarder is not None
            return [(discarder, params.whole("exposed_kong") * b)]
        each = params.whole("concealed_kong" if kind == "concealed" else "added_kong") * b
        return [(s, each) for s in in_play if s != player]


RULESET = Shaanxi()
