"""云南麻将 (玉溪打法): patterns that double one another, 3 a player on a self-draw, 4 from
the discarder; kongs paid at once; 一炮多响; 流局 查大叫 with the kong money voided.

No 吃, no wild tile, no 缺门.  A plain hand (平胡) may only be self-drawn (1 from
each).  Each pattern is 1 番 (龙七对 2); F 番 in all pay 3 × 2^(F−1) from each on a
self-draw and 4 × 2^(F−1) from the discarder (the seed's 8, 16 and 32), or, under
`discard_rule` plus_one, the self-draw value + 1 (its "6+1=7").  十老头 (ten honor
discards in a row, none claimed) wins without a shape: 3 from each, entered by
picking it.  docs/rules/yunnan.md has every decision with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.fans import FanDef, FanTable
from rules.hand import FLAGS, Hand, Table, parse_situation
from rules.params import Param, ParamValues, int_param
from rules.registry import Preset, Ruleset
from rules.results import CatalogFan, EventReport, Fan, HandResult, Payment, Standing
from rules.round import RoundState
from rules.shapes import Decomposition
from rules.table import ALL_TILES, EventKind, TableSpec, WinFlag
from rules.tiles import tile_str
from rules.values import fan_counts
from rules.wall import round_standings
from rules.working import Item, Term, item, merged, term

FORMS = decompose.Forms(seven_pairs=True, seven_pairs_quads=True)


@dataclass(frozen=True)
class Context:
    """One reading of a winning hand, as the patterns see it."""

    hand: Hand
    d: Decomposition
    dragon_any_quad: bool  # 龙七对: any four alike (else only the winning tile's fourth)
    honors_flush: bool  # 字 counts as a 色: an all-honor hand is 清一色


def _pungs_only(c: Context) -> bool:
    return c.d.form == "standard" and not any(g.kind == "chow" for g in c.d.groups)


def _flush(c: Context) -> bool:
    kinds = {t // 9 for t, n in enumerate(c.hand.held) if n}
    return len(kinds) == 1 and (c.honors_flush or 3 not in kinds)


def _quad_pairs(c: Context) -> bool:
    if c.d.form != "seven_pairs":
        return False
    tiles = [g.tile for g in c.d.groups]
    quads = {t for t in tiles if tiles.count(t) > 1}
    return bool(quads) and (c.dragon_any_quad or c.hand.win_tile in quads)


PENGPENG, FLUSH, SEVEN, DRAGON7, TEN_HONORS, KONG_BLOOM, KONG_DISCARD, ROB = range(1, 9)
FANS = FanTable(
    (
        FanDef(PENGPENG, "碰碰胡", "All pungs", 1, group="pattern",
               rule_zh="四副刻子（或杠）加一对将", rule_en="four pungs or kongs and a pair",
               when=lambda c: int(_pungs_only(c))),
        FanDef(FLUSH, "清一色", "Full flush", 1, group="pattern",
               rule_zh="全是一种花色（字也算一色）", rule_en="one suit only (honors count as one)",
               when=lambda c: int(_flush(c))),
        FanDef(SEVEN, "小七对", "Seven pairs", 1, group="pattern",
               rule_zh="七个对子，没碰过没杠过", rule_en="seven pairs, nothing claimed",
               when=lambda c: int(c.d.form == "seven_pairs")),
        FanDef(DRAGON7, "龙七对", "Dragon seven pairs", 2, excludes=(SEVEN,), group="pattern",
               rule_zh="七对里有四张一样的（不再算小七对）",
               rule_en="seven pairs with four alike (not also seven pairs)",
               when=lambda c: int(_quad_pairs(c))),
        FanDef(TEN_HONORS, "十老头", "Ten honors", 1, group="flag",
               rule_zh="连续打出十张字牌，没被碰杠：不看牌型，每家付 3",
               rule_en="ten honor discards in a row, none claimed: no shape, 3 from each"),
        FanDef(KONG_BLOOM, "杠上花", "Win after a kong", 1, group="flag",
               rule_zh="杠后补牌自摸", rule_en="self-drawn on a kong's replacement tile",
               when=lambda c: int(c.hand.self_drawn and c.hand.after_kong)),
        FanDef(KONG_DISCARD, "杠上炮", "Win on a kong discard", 1, group="flag",
               rule_zh="和别人杠后打出的牌", rule_en="won on the tile discarded right after a kong",
               when=lambda c: int(not c.hand.self_drawn and c.hand.after_kong)),
        FanDef(ROB, "抢杠胡", "Robbing the kong", 1, group="flag",
               rule_zh="和别人转弯杠的那张牌（算他点炮）",
               rule_en="won on the tile of another's added kong (he counts as the discarder)",
               when=lambda c: int(c.hand.robbing_kong)),
    )
)  # fmt: skip
PATTERNS = (PENGPENG, FLUSH, SEVEN, DRAGON7)
SITUATIONAL = (KONG_BLOOM, KONG_DISCARD, ROB)
PICKABLE = (*PATTERNS, TEN_HONORS)

# What each fan means (its row's rule text), an example hand and the names players
# use; 十老头 is no hand at all (ten honor discards in a row): picked, never read
# from tiles, so its example is the fan picked (`picked`).
_PUNGS = "111m222p333s555z9s +9s"
HELP: dict[int, FanHelp] = {
    f.id: FanHelp(example, situation, f.rule_zh, f.rule_en, aliases, picked=f.id == TEN_HONORS)
    for f, (example, situation, aliases) in (
        (FANS[PENGPENG], (_PUNGS, {}, ("对对胡", "碰碰和", "大对子"))),
        (FANS[FLUSH], ("123m456m789m234m5m +5m", {}, ("清一门", "full flush"))),
        (FANS[SEVEN], ("1133m5577p2288s1z +1z", {}, ("七对", "七对子", "暗七对", "qdd"))),
        (FANS[DRAGON7], ("111m33m5577p2288s +1m", {}, ("龙七对子", "豪华七对"))),
        (FANS[TEN_HONORS], (_PUNGS, {"self_drawn": True}, ("十风", "打十张字"))),
        (FANS[KONG_BLOOM], ("123p456p789s5s [2222m] +5s", {"self_drawn": True, "after_kong": True},
                            ("杠开", "杠上开花"))),
        (FANS[KONG_DISCARD], (_PUNGS, {"after_kong": True}, ("杠炮",))),
        (FANS[ROB], (_PUNGS, {"robbing_kong": True}, ("抢杠", "抢杠和"))),
    )
}  # fmt: skip

REASONS = {
    "win": ("胡牌", "Win"),
    "ten_honors": ("十老头", "Ten honors"),
    "kong_exposed": ("明杠", "Exposed kong"),
    "kong_added": ("转弯杠", "Added kong"),
    "kong_concealed": ("暗杠", "Concealed kong"),
    "kong_void": ("流局杠钱不算", "Kong money void (wall ran out)"),
    "kong_handover": ("杠上炮转杠钱", "Kong money handed over (杠上炮)"),
    "cha_da_jiao": ("查大叫", "Not ready pays the ready"),
}


def _err(en: str, zh: str) -> RuleError:
    return RuleError("bad_input", en, zh)


class Yunnan(Ruleset):
    id = "yunnan"
    rating_family = "yunnan"  # the league rates its players apart from other rulesets'
    name_zh = "云南麻将（玉溪）"
    name_en = "Yunnan (Yuxi)"
    table_play = True
    order = 45
    players = (4,)
    params = (
        Param("discard_rule", "choice", "four_base", "点炮怎么翻", "Discard value",
              "点炮：4 × 2^(番−1)（8、16、32），或自摸的分 + 1（7、13、25）",
              "On a discard: 4 × 2^(F−1) (8, 16, 32), or the self-draw value + 1 (7, 13, 25)",
              choices=("four_base", "plus_one"),
              choice_labels=(("4 起翻倍", "4 doubled"), ("自摸分 + 1", "Self-draw + 1"))),
        int_param("self_draw_base", 3, "自摸（每家）", "Self-draw (each)", "1 番自摸每家付的分",
                  "What each pays for a 1-fan self-draw"),
        int_param("discard_base", 4, "点炮", "Discard", "1 番点炮，点炮的人付的分",
                  "What the discarder pays for a 1-fan win"),
        int_param("pinghu_self_draw", 1, "平胡自摸（每家）", "Plain self-draw (each)",
                  "平胡只能自摸，每家付的分", "A plain hand wins only self-drawn: each pays this"),
        int_param("exposed_kong", 2, "明杠", "Exposed kong", "明杠：打出那张牌的人付",
                  "Exposed kong: the discarder pays"),
        int_param("concealed_kong_each", 2, "暗杠（每家）", "Concealed kong (each)",
                  "暗杠：其他每家付（规则没写，按常见）", "Concealed kong: each other player pays "
                  "(the seed gives no price; the common one)"),
        int_param("added_kong_each", 1, "转弯杠（每家）", "Added kong (each)",
                  "转弯杠（碰后摸到第四张）：其他每家付", "Kong added to one's pung: each other pays"),
        Param("dragon_pairs", "choice", "any_quad", "龙七对", "Dragon seven pairs",
              "七对里有四张一样的就算，或只在和的那张凑成四张时算",
              "Any four alike in the seven pairs, or only when the winning tile is the fourth",
              choices=("any_quad", "win_on_quad"),
              choice_labels=(("有四张一样就算", "Any four alike"),
                             ("和的那张凑成四张", "The winning tile makes four"))),
        int_param("ten_honors_each", 3, "十老头（每家）", "Ten honors (each)",
                  "十老头：其他每家付", "Ten honors: each other player pays"),
        Param("draw_voids_kongs", "bool", True, "流局杠钱不算", "Wall end voids kongs",
              "流局时这一局的杠钱退回", "At the wall's end this hand's kong money is returned"),
        Param("cha_da_jiao", "choice", "self_draw_value", "查大叫", "Not-ready check",
              "没听牌的赔听牌的：按他最大那一叫的自摸分，点炮分，或固定分",
              "Each player not ready pays each ready one: the self-draw value of his best wait, "
              "its discard value, or a fixed amount",
              choices=("self_draw_value", "discard_value", "fixed"),
              choice_labels=(("自摸分", "Self-draw value"), ("点炮分", "Discard value"),
                             ("固定分", "Fixed amount"))),
        int_param("cha_da_jiao_fixed", 3, "查大叫固定分", "Not-ready fixed amount",
                  "查大叫按固定分时每人赔的分", "What each not-ready player pays under a fixed check"),
        Param("honors_count_as_flush", "bool", True, "字一色算清一色", "Honors are a flush",
              "字也算一色：全是字牌算清一色", "Honors count as a suit: an all-honor hand is a flush"),
        Param("plain_shape_on_kong_discard", "bool", True, "平胡可抢杠、杠上炮",
              "Plain hand may rob a kong", "平胡靠抢杠胡或杠上炮有 1 番，可以点炮胡",
              "A plain hand has 1 fan from 抢杠 or 杠上炮, so it may win on that discard"),
        int_param("dealer_factor", 1, "庄家翻倍", "Dealer ×", "庄家赢或输的胡牌分 ×（规则没写：1）",
                  "× on a win paid between the dealer and another (the seed has none: 1)"),
        Param("kong_handover", "bool", False, "杠上炮转杠钱", "杠上炮 hands over the kong",
              "杠上炮时，放炮的人把刚收的杠钱转给和牌的人",
              "On 杠上炮 the discarder hands the kong's money to the winner"),
    )  # fmt: skip
    presets = (
        Preset("yuxi", "玉溪（点炮 4 起翻倍）", "Yuxi (discard 4, doubled)", {}),
        Preset("plus_one", "点炮＝自摸分 + 1", "Discard = self-draw + 1",
               {"discard_rule": "plus_one"}),
    )  # fmt: skip
    table_spec = TableSpec(
        tiles=ALL_TILES,
        chi=False,  # "不能吃牌,只能碰和杠"
        prevalent_wind=False,  # no wind pattern: rounds go by dealer only
        flags=(
            WinFlag("after_kong", "杠上花/炮", "After a kong",
                    self_drawn=("杠上花", "Win after a kong"),
                    discard=("杠上炮", "Win on a kong discard")),
            WinFlag("robbing_kong", "抢杠", "Robbing the kong", when="discard"),
        ),
        events=(
            EventKind("win", "胡牌", "Win"),
            EventKind("kong", "杠", "Kong"),
            EventKind("wall_end", "流局", "Wall end"),
        ),
        multi_win=True,  # "一炮多響"
        wall_statuses=("not_ready", "ready"),  # no 缺门 here: no 花猪
        meld_labels={"kong": ("明杠", "Exposed kong"), "added_kong": ("转弯杠", "Added kong"),
                     "concealed_kong": ("暗杠", "Concealed kong")},
        reasons=REASONS,
    )  # fmt: skip

    # -- one hand ---------------------------------------------------------------------

    def check(self, hand: Hand) -> None:
        if hand.flowers:
            raise _err("Yunnan plays without flowers", "云南麻将没有花牌")
        if hand.wild:
            raise _err("Yunnan plays without wild tiles", "云南麻将没有癞子")
        if any(m.type == "chi" for m in hand.melds):
            raise RuleError("illegal_meld", "no chi in Yunnan", "云南麻将不能吃")

    def readings(self, hand: Hand, params: ParamValues) -> list[Context]:
        any_quad = params["dragon_pairs"] == "any_quad"
        flush = params.flag("honors_count_as_flush")
        return [Context(hand, d, any_quad, flush) for d in decompose.decompositions(hand, FORMS)]

    def fans_of(self, c: Context, situational: bool = True) -> dict[int, int]:
        """The patterns (and, `situational`, 杠上花/杠上炮/抢杠) of one reading, 不计 applied."""
        ids = PATTERNS + SITUATIONAL if situational else PATTERNS
        raw = {f: 1 for f in ids if (FANS[f].when or (lambda _: 0))(c)}
        return FANS.apply_exclusions(raw)[0]

    def best(self, hand: Hand, params: ParamValues, situational: bool = True
             ) -> dict[int, int] | None:  # fmt: skip
        """The reading worth most 番 (None: not a winning shape)."""
        ctxs = self.readings(hand, params)
        if not ctxs:
            return None
        return max((self.fans_of(c, situational) for c in ctxs), key=FANS.total)

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand)
        fans = self.best(hand, params)
        if fans is None:
            return _no_win(
                "no winning shape (four sets and a pair, or seven pairs)",
                "不成胡：要四副加一对将，或七对",
            )
        patterns = sum(FANS.points[f] for f in fans if f in PATTERNS)
        # 平胡 on a discard: only where 抢杠 / 杠上炮 gives it its 番 (YN-8).
        if not (hand.self_drawn or patterns or fans and params["plain_shape_on_kong_discard"]):
            return _no_win("a plain hand (平胡) wins only self-drawn", "平胡必须自摸，不能点炮胡")
        return self.result(fans, hand.self_drawn, hand.table, params)

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand)
        return decompose.waits(hand, FORMS)

    # -- money ------------------------------------------------------------------------

    @staticmethod
    def value(f: int, self_drawn: bool, params: ParamValues) -> int:
        """What one payer pays for F 番: "自摸為每家 3 分,點炮胡為 3+1=4 分",
        "疊加一個大牌型則乘以一個2"."""
        if f == 0:
            return params.whole("pinghu_self_draw")
        sd = params.whole("self_draw_base") * 2 ** (f - 1)
        if self_drawn:
            return sd
        if params["discard_rule"] == "plus_one":
            return sd + params.whole("discard_base") - params.whole("self_draw_base")
        return params.whole("discard_base") * 2 ** (f - 1)

    @staticmethod
    def value_term(
        s: int, w: int, amount: int, f: int, ten: bool, self_drawn: bool, params: ParamValues,
        dealer: list[Item],
    ) -> Term:  # fmt: skip
        """One payer's working, as `value` counts: 平胡's own value; 十老头 each; else
        the self-draw base × 2^(番 − 1), on a discard plus one or the discard base's."""
        if ten:
            return term([s], w, amount, base=item(params.whole("ten_honors_each"),
                                                  name=("十老头", "ten honors")), factors=dealer)  # fmt: skip
        if f == 0:
            return term([s], w, amount, base=item(params.whole("pinghu_self_draw"),
                                                  name=("平胡", "plain hand")), factors=dealer)  # fmt: skip
        ups = [item(2, f - 1)] if f > 1 else []
        sd, db = params.whole("self_draw_base"), params.whole("discard_base")
        if self_drawn or params["discard_rule"] == "plus_one":
            adds = [] if self_drawn or db == sd else [item(db - sd, name=("点炮", "discard"))]
            if adds and dealer:  # (sd × 2^(f-1) + more) × dealer
                return term([s], w, amount, factors=[item(sd, name=("自摸", "self-drawn")), *ups],
                            additions=adds, per=dealer)  # fmt: skip
            return term([s], w, amount, base=item(sd, name=("自摸", "self-drawn")),
                        factors=[*ups, *dealer], additions=adds)  # fmt: skip
        return term(
            [s], w, amount, base=item(db, name=("点炮", "discard")), factors=[*ups, *dealer]
        )

    def result(
        self, fans: Mapping[int, int], self_drawn: bool, table: Table | None,
        params: ParamValues,
    ) -> HandResult:  # fmt: skip
        rows: list[Fan] = [
            {"id": f, "name_zh": FANS[f].zh, "name_en": FANS[f].en, "points": FANS.points[f],
             "count": 1} for f in sorted(fans)
        ]  # fmt: skip
        total = FANS.total(fans)
        ten = TEN_HONORS in fans
        value = params.whole("ten_honors_each") if ten else self.value(total, self_drawn, params)
        how_zh, how_en = _how(total, ten, self_drawn, params)
        names_zh = "、".join(str(r["name_zh"]) for r in rows) or "平胡"
        names_en = ", ".join(str(r["name_en"]) for r in rows) or "plain hand"
        out: HandResult = {
            "win": True, "fans": rows, "total": total, "value": value,
            "notes_zh": [f"{names_zh}（{total} 番）", f"{how_zh} {value}"],
            "notes": [f"{names_en} ({total} fan)", f"{how_en} {value}"],
        }  # fmt: skip
        if table is None:
            return out
        if table.winner is None:
            raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
        w, n = table.winner, table.players
        if self_drawn:
            payers = [s for s in range(n) if s != w]
        elif table.discarder is None:
            raise RuleError("bad_table", "a win on a discard needs the discarder", "点炮需要放炮者")
        else:
            payers = [table.discarder]
        deltas = [0] * n
        payments: list[Payment] = []
        factor = params.whole("dealer_factor")
        out["terms"] = []
        for s in payers:
            amount = value * (factor if table.dealer in (s, w) else 1)
            deltas[s] -= amount
            deltas[w] += amount
            payments.append({"from": s, "to": w, "amount": amount,
                             "reason": "ten_honors" if ten else "win"})  # fmt: skip
            out["terms"].append(self.value_term(s, w, amount, total, ten, self_drawn, params, (
                [item(factor, name=("庄家", "dealer"))] if amount != value else [])))  # fmt: skip
            if amount != value:
                out["notes_zh"].append(f"{s} 号位：庄家 ×{factor}，{amount}")
                out["notes"].append(f"seat {s}: dealer ×{factor}, {amount}")
        out["payments"] = payments
        out["deltas"] = deltas
        out["terms"] = merged(out["terms"])
        return out

    # -- quick entry: the fans picked, 十老头 among them -----------------------------------

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def fan_catalog(self, params: ParamValues | None = None) -> list[CatalogFan]:
        """The patterns and 十老头; 杠上花/杠上炮/抢杠 come from the win's flags."""
        return [{"id": f.id, "name_zh": f.zh, "name_en": f.en, "points": f.points, "max": 1,
                 "group": f.group} for f in FANS if f.id in PICKABLE]  # fmt: skip

    def picked(self, raw: Mapping[Any, Any]) -> dict[int, int]:
        fans: dict[int, int] = {}
        for fid, v in fan_counts(raw).items():
            if fid not in PICKABLE:
                raise _err(f"fan {fid} is not picked in Yunnan (杠上花, 杠上炮 and 抢杠 are "
                           "the win's flags)", f"云南麻将不能选第 {fid} 号番（杠上花、杠上炮、"
                           "抢杠是和牌的标记）")  # fmt: skip
            if v not in (0, 1):
                raise _err(f"{FANS[fid].en} counts once", f"{FANS[fid].zh}只能算一次")
            if v:
                fans[fid] = 1
        return fans

    def quick_score(
        self, fans: Mapping[int, int], flowers: int, table: Table, self_drawn: bool,
        params: ParamValues, flags: AbstractSet[str] = frozenset(),
    ) -> HandResult:  # fmt: skip
        picked = self.picked(fans)
        if "after_kong" in flags:
            picked[KONG_BLOOM if self_drawn else KONG_DISCARD] = 1
        if "robbing_kong" in flags:
            picked[ROB] = 1
        if flowers:
            raise _err("Yunnan plays without flowers", "云南麻将没有花牌")
        if TEN_HONORS in picked:
            if len(picked) > 1:  # (with a flag too: 十老头 is not won on a kong)
                raise _err("ten honors is a win of its own: pick nothing else",
                           "十老头不看牌型，不能和别的番一起算")  # fmt: skip
            if not self_drawn:
                raise _err("ten honors is paid by each other player, not by a discarder",
                           "十老头是其他每家付，不选放炮的人")  # fmt: skip
        if SEVEN in picked and DRAGON7 in picked:
            raise _err("dragon seven pairs already is the seven pairs: pick one",
                       "龙七对已经包括小七对，只选一个")  # fmt: skip
        if PENGPENG in picked and (SEVEN in picked or DRAGON7 in picked):
            raise _err("all pungs and seven pairs cannot be one hand",
                       "碰碰胡和七对不能同时有")  # fmt: skip
        if KONG_BLOOM in picked and not self_drawn:
            raise _err("win after a kong (杠上花) is self-drawn", "杠上花是自摸，不选放炮的人")
        for f in (KONG_DISCARD, ROB):
            if f in picked and self_drawn:
                raise _err(f"{FANS[f].en} is a win on another's tile: pick the discarder",
                           f"{FANS[f].zh}要选放炮的人")  # fmt: skip
        if KONG_DISCARD in picked and ROB in picked:
            raise _err("杠上炮 and 抢杠 cannot both be", "杠上炮和抢杠胡不能同时有")
        if (
            not self_drawn
            and not any(f in picked for f in PATTERNS)
            and (not picked or not params["plain_shape_on_kong_discard"])
        ):
            raise RuleError("not_a_win", "a plain hand (平胡) wins only self-drawn",
                            "平胡必须自摸，不能点炮胡")  # fmt: skip
        out = self.result(picked, self_drawn, table, params)
        out["notes"].append("fans picked from the list")
        out["notes_zh"].append("直接选番")
        return out

    # -- a round: kongs at once, 杠上炮, 流局 查大叫 ----------------------------------------

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """明杠 2 from the discarder ("打出一張牌的閑家給玩家2分"); 暗杠 and 转弯杠 from
        each other player (unpriced in the seed: YN-2).  Paid when made, never doubled."""
        if kind == "exposed":
            assert discarder is not None
            return [(discarder, params.whole("exposed_kong"))]
        each = params.whole("concealed_kong_each" if kind == "concealed" else "added_kong_each")
        return [(s, each) for s in in_play if s != player]

    def kong_handover(self, params: ParamValues) -> bool:
        return params.flag("kong_handover")

    def claim(self, f: int, params: ParamValues) -> int:
        """What a not-ready player pays a ready one whose best wait is worth F 番."""
        rule = params["cha_da_jiao"]
        if rule == "fixed":
            return params.whole("cha_da_jiao_fixed")
        if rule == "discard_value" and f > 0:
            return self.value(f, False, params)
        return self.value(f, True, params)

    def wall_end(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
        """「流局查大叫,杠錢不算」: the hand's kong money goes back (YN-4), then every
        player not ready pays every ready one the value of the ready one's best
        wait, self-drawn, without 杠上花 and the like (YN-5)."""
        params = state.params

        def shown(hand: Hand, sit: Mapping[str, Any]) -> Standing:
            self.check(hand)
            best: tuple[int, int] | None = None  # (番, tile)
            waits = decompose.waits(hand, FORMS)
            for t in waits:
                flags = dict.fromkeys(FLAGS, False)
                won = parse_situation({**sit, **flags, "win_tile": tile_str(t),
                                       "self_drawn": True}, need_win_tile=True)  # fmt: skip
                fans = self.best(won, params, situational=False)
                f = FANS.total(fans) if fans is not None else -1
                if best is None or f > best[0]:
                    best = (f, t)
            if best is None:
                return {"status": "not_ready", "waits": [], "claim": 0}
            return {"status": "ready", "waits": [tile_str(t) for t in waits],
                    "claim": self.claim(best[0], params), "claim_fans": best[0],
                    "claim_tile": tile_str(best[1])}  # fmt: skip

        def told(h: Mapping[str, Any]) -> Standing:
            if h["status"] == "not_ready":
                return {"status": "not_ready", "waits": [], "claim": 0}
            raw = h.get("fans") or {}
            if not isinstance(raw, Mapping):
                raise _err("fans must be an object", "番种格式不对")
            fans = self.picked(raw)
            if any(f not in PATTERNS for f in fans):
                raise _err("a ready hand claims its patterns only (no 杠上花, 抢杠, 十老头)",
                           "查大叫只算牌型，不算杠上花、抢杠、十老头")  # fmt: skip
            if (
                SEVEN in fans
                and DRAGON7 in fans
                or PENGPENG in fans
                and (SEVEN in fans or DRAGON7 in fans)
            ):
                raise _err("those patterns cannot be one hand", "这些牌型不能同时有")
            f = FANS.total(fans)
            return {"status": "ready", "waits": [], "claim": self.claim(f, params),
                    "claim_fans": f, "fans": [{"id": x, "name_zh": FANS[x].zh,
                                               "name_en": FANS[x].en} for x in sorted(fans)]}  # fmt: skip

        checks = round_standings(state, ev, i, shown, told)
        notes: list[str] = []
        notes_zh: list[str] = []
        if params["draw_voids_kongs"]:
            for t in [t for t in state.ledger.transfers if t["reason"].startswith("kong_")]:
                to = t["to"]
                assert to is not None  # a kong is paid to the player who made it
                state.ledger.pay(to, t["from"], t["amount"], "kong_void", i)
            notes.append("kong money of this hand returned (杠钱不算)")
            notes_zh.append("流局杠钱不算：这一局的杠钱退回")
        ready = [s for s, c in checks.items() if c["status"] == "ready"]
        for p, c in checks.items():
            if c["status"] == "not_ready":
                for s in ready:
                    state.ledger.pay(p, s, checks[s]["claim"], "cha_da_jiao", i)
        return {"type": "wall_end", "index": i, "checks": [checks[s] for s in sorted(checks)],
                "notes": notes, "notes_zh": notes_zh}  # fmt: skip

    def next_dealer(
        self, dealer: int, players: int, winners: Sequence[int], params: ParamValues,
        discarder: int | None = None,
    ) -> int:  # fmt: skip
        """ "以后每盤首先胡牌的人為下一盤的莊家"; on 一炮多响 "點炮者下方第一家";
        after a 流局 the dealer stays (YN-17)."""
        if not winners:
            return dealer
        if len(winners) > 1 and discarder is not None:
            return (discarder + 1) % players
        return winners[0]


def _how(total: int, ten: bool, self_drawn: bool, params: ParamValues) -> tuple[str, str]:
    """How the amount is worked, in words (zh, en), up to its "="."""
    doubled = " × 2" * max(total - 1, 0) + " ="
    sd, db = params.whole("self_draw_base"), params.whole("discard_base")
    if ten:
        return "十老头：其他每家付", "ten honors: each other player pays"
    if total == 0:
        return "平胡自摸：每家付", "plain hand, self-drawn: each pays"
    if self_drawn:
        return (
            f"{total} 番自摸：每家付 {sd}{doubled}",
            f"{total} fan self-drawn: each pays {sd}{doubled}",
        )
    if params["discard_rule"] == "plus_one" and total > 1:
        return (
            f"{total} 番点炮：自摸分 {sd}{doubled[:-2]} + {db - sd} =",
            f"{total} fan on a discard: the self-draw value {sd}{doubled[:-2]} + {db - sd} =",
        )
    return (
        f"{total} 番点炮：放炮的人付 {db}{doubled}",
        f"{total} fan on a discard: the discarder pays {db}{doubled}",
    )


def _no_win(en: str, zh: str) -> HandResult:
    return {"win": False, "fans": [], "total": 0, "notes": [en], "notes_zh": [zh]}


RULESET = Yunnan()
