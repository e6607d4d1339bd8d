"""四川麻将 (Sichuan mahjong, 血战到底 and 成都五元): hand scoring only.

108 tiles (万筒条, no honors, no flowers), no chi, 缺门 (a winning hand holds
at most two suits).  Two fan tables:

* ``xuezhan`` (seed 002, QQ 四川麻将): "只按最大番算", only the largest
  pattern counts; 根, 杠上花, 杠上炮, 抢杠 (and 海底捞 when on) add one 番
  each.  Money is base x 2^(番 - 1).
* ``chengdu`` (seed 000, 成麻五元算账一览表): the shape (平胡 0, 对子胡 1,
  暗七对 2, 龙七对 3, 将对 3, 金钩钓 2) plus 清一色 2 plus one 番 per 杠/根
  and per 杠上花/杠上炮/抢杠/海底捞.  Money is base x 2^番.

Whole rounds (刮风下雨, 一炮多响, 杠上炮, 查花猪, 查大叫, the 血战 order) are
settled event by event in rules/rulesets/sichuan/round.py; see docs/rules/sichuan.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

from rules import decompose
from rules.decompose import Forms
from rules.errors import RuleError
from rules.fans import FanDef, FanTable
from rules.hand import Hand, Table
from rules.params import Param, ParamValues
from rules.registry import Preset, Ruleset
from rules.results import CatalogFan, Fan, HandResult, Payment, Payments
from rules.shapes import Decomposition
from rules.tiles import group_en, tile_en, tile_zh
from rules.values import fan_counts
from rules.working import Term, item, term

FORMS = Forms(seven_pairs=True, seven_pairs_quads=True)
SUIT_ZH = ("万", "筒", "条")
SUIT_EN = ("characters", "dots", "bamboo")


def _fans_en(n: int) -> str:
    """ "1 fan", "4 fans": notes are read by players, not "fan(s)"."""
    return f"{n} fan" if n == 1 else f"{n} fans"


def _row(fid: int, zh: str, en: str, rule_zh: str, rule_en: str) -> FanDef:
    return FanDef(fid, zh, en, 0, rule_zh=rule_zh, rule_en=rule_en)


# The rows as the rulebook names them; each fan table below takes its points,
# names and exclusions from these.
FANS: dict[int, FanDef] = {
    f.id: f
    for f in (
        _row(1, "平胡", "Basic win", "四坎牌加一对将", "four sets and a pair"),
        _row(2, "对对胡", "All pungs", "除将外全是刻子（碰、杠）", "every set is a pung or kong"),
        _row(3, "清一色", "Full flush", "全部是一门花色", "all tiles of one suit"),
        _row(
            4,
            "带幺九",
            "Terminals in every set",
            "每副面子和将都带 1 或 9",
            "every set and the pair hold a 1 or a 9",
        ),
        _row(5, "七对", "Seven pairs", "七个对子，没有碰杠", "seven pairs, nothing melded"),
        _row(6, "清对", "Pure all pungs", "清一色的对对胡", "all pungs in one suit"),
        _row(
            7,
            "将对",
            "All 2-5-8 pungs",
            "全是二、五、八的对对胡",
            "all pungs and the pair of 2, 5 or 8",
        ),
        _row(
            8,
            "龙七对",
            "Dragon seven pairs",
            "七对中有四张相同的牌（计番时减 1 根）",
            "seven pairs with four of a kind (one root is used up)",
        ),
        _row(9, "清七对", "Pure seven pairs", "清一色的七对", "seven pairs in one suit"),
        _row(
            10,
            "清幺九",
            "Pure terminals",
            "清一色的带幺九",
            "terminals in every set, one suit",
        ),
        _row(11, "天胡", "Heavenly hand", "庄家起手就胡", "the dealer wins on his deal"),
        _row(
            12,
            "地胡",
            "Earthly hand",
            "闲家第一轮摸牌就胡",
            "a non-dealer wins on his first draw",
        ),
        _row(
            13,
            "清龙七对",
            "Pure dragon seven pairs",
            "清一色的龙七对（计番时减 1 根）",
            "dragon seven pairs in one suit (one root used up)",
        ),
        _row(
            14,
            "金钩钓",
            "Golden hook",
            "四副都已碰/杠，单吊一张将（大单吊）",
            "all four sets melded, waiting on the pair alone",
        ),
        _row(15, "根", "Root", "四张相同的牌", "four of a kind"),
        _row(16, "杠上花", "Win after a kong", "杠后补牌自摸", "self-drawn on a kong replacement"),
        _row(
            17,
            "杠上炮",
            "Win on a kong discard",
            "别人杠后打出的牌点炮",
            "won on the discard made right after a kong",
        ),
        _row(18, "抢杠", "Robbing the kong", "抢别人加杠的牌", "won on a tile added to a kong"),
        _row(19, "海底捞", "Last tile", "最后一张牌自摸", "self-drawn on the wall's last tile"),
    )
}

# Points of each pattern fan per table.  xuezhan: "只按最大番算" (seed 002).
XUEZHAN_POINTS = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 5, 11: 6, 12: 6, 13: 6}
# chengdu shape fans (one of them) + 清一色 2 on top (seed 000).
CHENGDU_SHAPE = {1: 0, 2: 1, 5: 2, 8: 3, 7: 3, 14: 2}
CHENGDU_NAMES = {2: ("对子胡", "All pungs"), 5: ("暗七对", "Seven pairs")}
CHENGDU_FLUSH = 2
XUEZHAN_PATTERNS = tuple(XUEZHAN_POINTS)
CHENGDU_SHAPES = tuple(CHENGDU_SHAPE)


def _table(
    points: dict[int, int], one_of: tuple[int, ...], names: dict[int, tuple[str, str]]
) -> FanTable:
    """A fan table: the `one_of` fans exclude each other (one pattern counts), the
    others (清一色 in 成都, 根, the flag fans) add to it.  On equal points the
    higher id stands ("只按最大番算"; 清对 and 将对 are both 4, 将对 stands)."""
    rows = []
    for fid, row in FANS.items():
        if fid not in points and fid < 15:
            continue
        zh, en = names.get(fid, (row.zh, row.en))
        group = (
            "pattern"
            if fid in one_of
            else ("extra" if fid == 15 else "flag" if fid > 15 else "flush")
        )
        excludes = tuple(x for x in one_of if x != fid) if fid in one_of else ()
        rows.append(row._replace(zh=zh, en=en, points=points.get(fid, 1), excludes=excludes,
                                 group=group))  # fmt: skip
    return FanTable(rows, higher_id_first=True)


# 血战到底: one pattern, the largest (seed 002 "只按最大番算"); 根 and the flags add.
# 成都五元: one shape, plus 清一色 2, plus 根 and the flags (seed 000).
TABLES: dict[str, FanTable] = {
    "xuezhan": _table(XUEZHAN_POINTS, XUEZHAN_PATTERNS, {}),
    "chengdu": _table({**CHENGDU_SHAPE, 3: CHENGDU_FLUSH}, CHENGDU_SHAPES, CHENGDU_NAMES),
}


def suit(t: int) -> int:
    return t // 9


def rank(t: int) -> int:
    return t % 9 + 1


def _fan(fid: int, points: int, count: int = 1, table: str = "xuezhan") -> Fan:
    f = TABLES[table].by_id.get(fid) or FANS[fid]
    return {"id": fid, "name_zh": f.zh, "name_en": f.en, "points": points, "count": count}


def _best(table: str, candidates: list[int]) -> int:
    """The one pattern that stands among the candidates: the table's exclusions decide."""
    fans, _ = TABLES[table].apply_exclusions(dict.fromkeys(candidates, 1))
    (best,) = fans
    return best


def _total(fans: list[Fan]) -> int:
    return sum(f["points"] * f["count"] for f in fans)


class Shape(NamedTuple):
    """What one decomposition is, independent of the fan table."""

    seven_pairs: bool
    quads_in_pairs: int  # four-of-a-kind used as two of the seven pairs
    all_pungs: bool
    all_258: bool
    terminals: bool  # every set and the pair hold a 1 or 9
    golden_hook: bool


def read_shape(hand: Hand, d: Decomposition) -> Shape:
    if d.form == "seven_pairs":
        pairs = [g.tile for g in d.groups]
        quads = sum(1 for t in set(pairs) if pairs.count(t) == 2)
        return Shape(True, quads, False, False, False, False)
    sets: list[tuple[str, int]] = [(g.kind, g.tile) for g in d.groups]
    sets += [("pung", m.tile) for m in hand.melds]
    all_pungs = all(k != "chow" for k, _ in sets)
    tiles_258 = all(rank(t) in (2, 5, 8) for k, t in sets) and all_pungs

    def has_19(kind: str, t: int) -> bool:
        if kind == "chow":
            return rank(t) in (1, 7)
        return rank(t) in (1, 9)

    terminals = all(has_19(k, t) for k, t in sets)
    golden = len(hand.melds) == 4
    return Shape(False, 0, all_pungs, tiles_258, terminals, golden)


class Sichuan(Ruleset):
    id = "sichuan"
    rating_family = "sichuan"  # the league rates its players apart from other rulesets'
    name_zh = "四川麻将"
    name_en = "Sichuan mahjong"
    table_play = True
    order = 20
    players = (4,)
    params = (
        Param(
            "fan_table",
            "choice",
            "xuezhan",
            "番表",
            "Fan table",
            "血战到底只按最大的番算；成都五元把牌型番、清一色和根加在一起",
            "Blood battle counts only the largest pattern; Chengdu adds the shape, the flush "
            "and the roots together",
            choices=("xuezhan", "chengdu"),
            choice_labels=(
                ("血战：只算最大牌型", "Blood battle: the largest pattern only"),
                ("成都：牌型 + 清一色 + 根", "Chengdu: shape + flush + roots"),
            ),
        ),
        Param(
            "kong_counts_as_gen",
            "bool",
            False,
            "杠算根",
            "A kong counts as a root",
            "开（亮）出的杠也算 1 根；关闭时只有不作杠的四张相同牌算根",
            "A declared kong is a root too; off: only four of a kind not declared as a kong",
        ),
        Param(
            "money",
            "choice",
            "pow_fan_minus_1",
            "倍数算法",
            "Multiplier",
            "倍数是 2 的（番数减 1）次方，平胡 1 番；或 2 的番数次方，平胡 0 番（成都）",
            "The multiplier is 2 to the power of (fans − 1), a basic win being 1 fan; or 2 to "
            "the power of the fans, a basic win being 0 fans (Chengdu)",
            choices=("pow_fan_minus_1", "pow_fan"),
            choice_labels=(
                ("2^(番−1)：平胡 1 番", "2^(fans − 1): a basic win is 1 fan"),
                ("2^番：平胡 0 番（成都）", "2^fans: a basic win is 0 fans (Chengdu)"),
            ),
        ),
        Param(
            "base",
            "int",
            6,
            "底分",
            "Base stake",
            "基本分，乘以倍数得到每家输赢",
            "Base points, times the multiplier is what one payer pays",
            min=0,
            max=100000,
        ),
        Param(
            "cap_fans",
            "int",
            0,
            "封顶番数",
            "Cap (fans)",
            "算钱时最多按多少番算；0 表示不封顶",
            "The most fans money is counted on; 0 means no cap",
            min=0,
            max=30,
        ),
        Param(
            "self_draw",
            "choice",
            "add_base",
            "自摸",
            "Self-drawn bonus",
            "自摸时每家多付一个底，或者多算一番，或者不加",
            "On a self-draw each payer adds one base, or the win counts one more fan, or "
            "nothing is added",
            choices=("add_base", "add_fan", "none"),
            choice_labels=(
                ("自摸加底：每家多付一个底", "Each payer adds one base"),
                ("自摸加一番", "One more fan"),
                ("不加", "Nothing extra"),
            ),
        ),
        Param(
            "last_tile_fan",
            "bool",
            False,
            "海底捞加番",
            "Last-tile fan",
            "最后一张牌自摸加 1 番（有些地区兴）",
            "A self-draw on the wall's last tile adds one fan (some places)",
        ),
        Param(
            "robbing_kong_fan",
            "bool",
            True,
            "抢杠加番",
            "Robbing-kong fan",
            "抢杠胡加 1 番",
            "Robbing a kong adds one fan",
        ),
        Param(
            "blood_battle",
            "bool",
            True,
            "血战到底",
            "Blood battle",
            "一家和牌后其余玩家继续打，直到三家和牌或流局；关闭时第一次和牌（可一炮多响）就结束",
            "After a win the others play on until three have won or the wall ends; "
            "off: the first win (one discard may have several winners) ends the round",
        ),
        Param(
            "kong_exposed",
            "int",
            1,
            "直杠倍数",
            "Exposed kong (× base)",
            "直杠：引杠者（打出第四张的人）付几倍底分；有的棋牌室是 2",
            "Exposed kong: the player who discarded the fourth tile pays this many bases",
            min=0,
            max=16,
        ),
        Param(
            "kong_added",
            "int",
            1,
            "面下杠倍数",
            "Added kong (× base)",
            "面下杠：其他未和牌的玩家每人付几倍底分",
            "Added kong: every other player still in pays this many bases",
            min=0,
            max=16,
        ),
        Param(
            "kong_concealed",
            "int",
            2,
            "暗杠倍数",
            "Concealed kong (× base)",
            "暗杠（下雨）：其他未和牌的玩家每人付几倍底分",
            "Concealed kong: every other player still in pays this many bases",
            min=0,
            max=16,
        ),
        Param(
            "kong_handover",
            "bool",
            True,
            "杠上炮转杠钱",
            "杠上炮 hands over the kong money",
            "杠上炮时，放炮者还要把刚才这个杠收的钱转给和牌者（一炮多响每家一份）",
            "On 杠上炮 the discarder also hands the winner what his kong just earned "
            "(each winner a share when several win)",
        ),
        Param(
            "pig_multiplier",
            "int",
            16,
            "花猪倍数",
            "Flower pig (× base)",
            "流局查花猪：手上还有三门牌的玩家赔给每个非花猪玩家几倍底分",
            "At the wall's end a player still holding three suits pays every other "
            "non-pig player this many bases",
            min=0,
            max=256,
        ),
        Param(
            "refund_kongs",
            "bool",
            True,
            "无叫退杠钱",
            "Not ready returns kong money",
            "流局时没听牌（含花猪）的玩家退回这一局刮风下雨所得",
            "At the wall's end a player who is not ready (a pig included) returns "
            "the kong money he collected this round",
        ),
    )
    presets = (
        Preset("xuezhan", "血战到底", "Blood battle", {}),
        Preset(
            "chengdu",
            "成都五元",
            "Chengdu five-yuan",
            {
                "fan_table": "chengdu",
                "kong_counts_as_gen": True,
                "money": "pow_fan",
                "base": 5,
                "self_draw": "add_base",
            },
        ),
    )

    # --- validation ---------------------------------------------------------------

    def check(self, hand: Hand, need_win: bool = True) -> None:
        honors = [t for t in range(27, 34) if hand.held[t]]
        if honors:
            raise RuleError(
                "bad_tile",
                f"Sichuan mahjong plays with 108 tiles (characters, dots, bamboo); "
                f"{tile_en(honors[0])} is not one of them",
                f"四川麻将只用万、筒、条 108 张牌，没有{tile_zh(honors[0])}这样的字牌",
            )
        if hand.flowers:
            raise RuleError(
                "bad_tile",
                "Sichuan mahjong has no flowers",
                "四川麻将没有花牌",
            )
        if hand.wild:
            raise RuleError(
                "bad_input", "Sichuan mahjong has no wild tiles", "四川麻将没有癞子（百搭）"
            )
        for i, m in enumerate(hand.melds):
            if m.type == "chi":
                raise RuleError(
                    "illegal_meld",
                    f"meld {i + 1}: Sichuan mahjong has no chi (chow claims)",
                    f"第 {i + 1} 副副露：四川麻将不可以吃",
                )

    def suits(self, hand: Hand) -> list[int]:
        return [s for s in range(3) if any(hand.held[9 * s : 9 * s + 9])]

    # --- scoring -------------------------------------------------------------------

    def pattern_fans(self, hand: Hand, shape: Shape, flush: bool, table: str) -> list[Fan]:
        """The pattern part: one fan in xuezhan, shape (+ 清一色) in chengdu."""
        if table == "xuezhan":
            cands: list[int] = [1]
            if shape.seven_pairs:
                if shape.quads_in_pairs:
                    cands.append(13 if flush else 8)
                else:
                    cands.append(9 if flush else 5)
            else:
                if shape.all_pungs:
                    cands.append(6 if flush else 2)
                    if shape.all_258:
                        cands.append(7)
                if shape.terminals:
                    cands.append(10 if flush else 4)
            if flush:
                cands.append(3)
            if hand.heavenly:
                cands.append(11)
            if hand.earthly:
                cands.append(12)
            best = _best("xuezhan", cands)
            return [_fan(best, TABLES["xuezhan"].points[best])]
        # chengdu
        shapes = [1]
        if shape.seven_pairs:
            shapes.append(8 if shape.quads_in_pairs else 5)
        elif shape.all_pungs:
            shapes.append(2)
            if shape.all_258:
                shapes.append(7)
            if shape.golden_hook:
                shapes.append(14)
        best = _best("chengdu", shapes)
        chengdu = TABLES["chengdu"]
        out = [_fan(best, chengdu.points[best], table="chengdu")]
        if flush:
            out.append(_fan(3, chengdu.points[3], table="chengdu"))
        return out

    def gen_count(self, hand: Hand, params: ParamValues) -> int:
        kongs = {m.tile for m in hand.melds if m.type == "kong"}
        n = 0
        for t in range(27):
            if hand.held[t] == 4 and (t not in kongs or params["kong_counts_as_gen"]):
                n += 1
        return n

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand)
        suits = self.suits(hand)
        if len(suits) == 3:
            raise RuleError(
                "not_a_win",
                "This hand holds all three suits: a winning hand must lack one suit; "
                "a player holding three suits is a flower pig and cannot win",
                "这手牌万、筒、条三门都有，不能胡：四川麻将必须缺一门才能胡，"
                "手上拿着三门牌的是花猪",
            )
        decs = decompose.decompositions(hand, FORMS)
        if not decs:
            raise RuleError(
                "not_a_win",
                "This hand is not a winning hand: it does not form four sets and a pair "
                "or seven pairs",
                "这手牌不能胡：组不成四副面子加一对将，也不是七对",
            )
        table = params.choice("fan_table")
        flush = len(suits) == 1
        gen = self.gen_count(hand, params)
        best: tuple[int, list[Fan], Decomposition] | None = None
        for d in decs:
            shape = read_shape(hand, d)
            fans = self.pattern_fans(hand, shape, flush, table)
            g = gen
            if any(f["id"] in (8, 13) for f in fans):
                g -= 1  # 龙七对 "减1根"
            if g > 0:
                fans.append(_fan(15, 1, g))
            fans += self.extra_fans(hand, params)
            tot = _total(fans)
            if best is None or tot > best[0]:
                best = (tot, fans, d)
        assert best is not None
        total, fans, dec = best
        eff, capped = self.effective(total, params)
        value = self.money(eff, params)
        notes, notes_zh = self.explain(hand, params, fans, dec, total, eff, capped, value)
        out: HandResult = {
            "win": True,
            "fans": fans,
            "total": total,
            "multiplier": self.multiplier(eff, params),
            "value": value,
            "notes": notes,
            "notes_zh": notes_zh,
        }
        if hand.table is not None:
            out.update(self.payments(hand, params, total, value))
        return out

    def extra_fans(self, hand: Hand, params: ParamValues) -> list[Fan]:
        return self._flag_fans(
            hand.self_drawn, hand.after_kong, hand.robbing_kong, hand.last_tile, params
        )

    @staticmethod
    def _flag_fans(
        self_drawn: bool,
        after_kong: bool,
        robbing_kong: bool,
        last_tile: bool,
        params: ParamValues,
    ) -> list[Fan]:
        out: list[Fan] = []
        if after_kong:
            out.append(_fan(16 if self_drawn else 17, 1))
        if robbing_kong and params["robbing_kong_fan"]:
            out.append(_fan(18, 1))
        if last_tile and self_drawn and params["last_tile_fan"]:
            out.append(_fan(19, 1))
        return out

    @staticmethod
    def effective(fans: int, params: ParamValues) -> tuple[int, bool]:
        cap = params.whole("cap_fans")
        if cap and fans > cap:
            return cap, True
        return fans, False

    @staticmethod
    def multiplier(fans: int, params: ParamValues) -> int:
        if params["money"] == "pow_fan":
            return 2**fans
        return 2 ** max(fans - 1, 0)

    def money(self, fans: int, params: ParamValues) -> int:
        return params.whole("base") * self.multiplier(fans, params)

    def self_drawn_amount(self, total: int, value: int, params: ParamValues) -> int:
        mode = params["self_draw"]
        if mode == "add_base":
            return value + params.whole("base")
        if mode == "add_fan":
            return self.money(self.effective(total + 1, params)[0], params)
        return value

    def payments(self, hand: Hand, params: ParamValues, total: int, value: int) -> Payments:
        t = hand.table
        assert t is not None
        if t.winner is None:
            raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
        return self.table_payments(t, hand.self_drawn, total, value, params)

    def table_payments(
        self, t: Table, self_drawn: bool, total: int, value: int, params: ParamValues
    ) -> Payments:
        """One win on its own: the discarder pays, or every other seat on a self-draw.

        (A whole 血战 round, where players who have won stop paying, is settled by
        rules/rulesets/sichuan/round.py instead.)"""
        deltas = [0] * t.players
        payments: list[Payment] = []
        if t.winner is None:
            return {"payments": payments, "deltas": deltas}
        if self_drawn:
            amount = self.self_drawn_amount(total, value, params)
            payers = [s for s in range(t.players) if s != t.winner]
        else:
            amount = value
            payers = [t.discarder] if t.discarder is not None else []
        for seat in payers:
            payments.append({"from": seat, "to": t.winner, "amount": amount})
            deltas[seat] -= amount
            deltas[t.winner] += amount
        terms = self.win_terms(payers, t.winner, self_drawn, total, params) if payers else []
        return {"payments": payments, "deltas": deltas, "terms": terms}

    def win_terms(
        self, payers: Sequence[int], winner: int, self_drawn: bool, total: int,
        params: ParamValues,
    ) -> list[Term]:  # fmt: skip
        """The working each payer pays: 底分 × 2^(番 − 1) (or 2^番), the fans capped,
        自摸 adding the base or a 番 as the table says: "底分 6 × 2² = 24"."""
        fans = total + 1 if self_drawn and params["self_draw"] == "add_fan" else total
        eff, capped = self.effective(fans, params)
        power = eff if params["money"] == "pow_fan" else max(eff - 1, 0)
        base = params.whole("base")
        amount = self.self_drawn_amount(total, base * 2**power, params) if self_drawn else (
            base * 2**power)  # fmt: skip
        note = (f"封顶 {eff} 番", f"capped at {eff} fans") if capped else ("", "")
        if self_drawn and params["self_draw"] == "add_fan":
            note = (f"自摸加一番{'，' if capped else ''}{note[0]}",
                    f"self-drawn adds a fan{', ' if capped else ''}{note[1]}")  # fmt: skip
        adds = [item(base, name=("自摸加底", "self-drawn +base"))] if self_drawn and params[
            "self_draw"] == "add_base" else []  # fmt: skip
        return [term(payers, winner, amount, base=item(base, name=("底分", "base")),
                     factors=[item(2, power)] if power else [], additions=adds, note=note)]  # fmt: skip

    def explain(
        self,
        hand: Hand,
        params: ParamValues,
        fans: list[Fan],
        dec: Decomposition,
        total: int,
        eff: int,
        capped: bool,
        value: int,
    ) -> tuple[list[str], list[str]]:
        en: list[str] = []
        zh: list[str] = []
        if dec.form == "seven_pairs":
            zh.append("按七对计番")
            en.append("scored as seven pairs")
        else:
            names_zh = {"chow": "顺", "pung": "刻", "pair": "将"}
            parts_zh = [tile_zh(g.tile) + names_zh[g.kind] for g in dec.groups]
            parts_en = [group_en(g.kind, g.tile) for g in dec.groups]
            for m in hand.melds:
                parts_zh.append(tile_zh(m.tile) + ("杠" if m.type == "kong" else "碰"))
                parts_en.append(group_en(m.type, m.tile))
            zh.append("按 " + "、".join(parts_zh) + " 计番")
            en.append("scored as " + ", ".join(parts_en))
        for f in fans:
            d = FANS[f["id"]]
            n = f["count"]
            times_zh = f" ×{n}" if n > 1 else ""
            times_en = f" x{n}" if n > 1 else ""
            zh.append(f"{f['name_zh']}{times_zh}：{f['points'] * n} 番，{d.rule_zh}")
            en.append(f"{f['name_en']}{times_en}: {_fans_en(f['points'] * n)}, {d.rule_en}")
        if any(f["id"] in (8, 13) for f in fans):
            zh.append("龙七对已用掉一个根（减 1 根）")
            en.append("dragon seven pairs uses up one root (one root less)")
        if params["fan_table"] == "xuezhan":
            zh.append("牌型番只按最大番算，不重复计算")
            en.append("only the largest pattern counts; patterns do not add up")
        if capped:
            zh.append(f"共 {total} 番，封顶按 {eff} 番算")
            en.append(f"{total} fans, capped at {eff}")
        mult = self.multiplier(eff, params)
        formula = "2^番" if params["money"] == "pow_fan" else "2^(番-1)"
        zh.append(f"倍数 {formula} = {mult}，底分 {params['base']}，每家 {value}")
        en.append(f"multiplier {mult}, base {params['base']}: {value} per payer")
        if hand.self_drawn:
            amount = self.self_drawn_amount(total, value, params)
            mode = params["self_draw"]
            if mode == "add_base":
                zh.append(f"自摸加底：每家付 {amount}")
                en.append(f"self-drawn, one more base: each other player pays {amount}")
            elif mode == "add_fan":
                zh.append(f"自摸加番：每家付 {amount}")
                en.append(f"self-drawn, one more fan: each other player pays {amount}")
            else:
                zh.append(f"自摸：每家付 {amount}")
                en.append(f"self-drawn: each other player pays {amount}")
        else:
            zh.append(f"点炮：放炮者付 {value}")
            en.append(f"won on a discard: the discarder pays {value}")
        return en, zh

    # --- whole rounds and quick entry ------------------------------------------------

    def fan_catalog(self, params: ParamValues | None = None) -> list[CatalogFan]:
        """Patterns and 根 a player can pick; 杠上花/炮, 抢杠, 海底捞 come from the flags."""
        table = (params or self.defaults).choice("fan_table")
        rows = TABLES[table]
        ids = [f.id for f in rows if f.group in ("pattern", "flush")]
        out: list[CatalogFan] = []
        for fid in sorted(ids) + [15]:
            f = rows.by_id.get(fid) or FANS[fid]
            out.append({"id": fid, "name_zh": f.zh, "name_en": f.en, "points": rows.points[fid],
                        "max": 4 if fid == 15 else 1,
                        "group": "extra" if fid == 15 else "pattern"})  # fmt: skip
        return out

    def quick_result(
        self,
        raw: Any,
        params: ParamValues,
        self_drawn: bool,
        after_kong: bool = False,
        robbing_kong: bool = False,
        last_tile: bool = False,
    ) -> HandResult:
        """A win from picked fans: one pattern (平胡 when none), 根 ×n, flags as for tiles."""
        table = params.choice("fan_table")
        catalog = {f["id"]: f for f in self.fan_catalog(params)}
        picked: dict[int, int] = {}
        for fid, n in fan_counts(raw).items():
            if fid not in catalog:
                raise RuleError(
                    "bad_input",
                    f"fan {fid} cannot be picked in this fan table",
                    f"这个番表里没有第 {fid} 号番",
                )
            if not 0 <= n <= catalog[fid]["max"]:
                raise RuleError(
                    "bad_input",
                    f"{catalog[fid]['name_en']} can be picked at most {catalog[fid]['max']} time(s)",
                    f"{catalog[fid]['name_zh']}最多选 {catalog[fid]['max']} 次",
                )
            if n:
                picked[fid] = n
        # One pattern; in chengdu 清一色 (3) adds to the shape instead of being one.
        shapes = [
            f for f in picked if catalog[f]["group"] == "pattern" and (table == "xuezhan" or f != 3)
        ]
        if len(shapes) > 1:
            names = "、".join(catalog[f]["name_zh"] for f in shapes)
            raise RuleError(
                "bad_input",
                "pick one pattern only: patterns do not add up",
                f"牌型只能选一个（{names} 不能同时算）",
            )
        if not shapes:
            picked[1] = 1
        fans = [_fan(fid, catalog[fid]["points"], n, table) for fid, n in sorted(picked.items())]
        fans += self._flag_fans(self_drawn, after_kong, robbing_kong, last_tile, params)
        total = _total(fans)
        eff, capped = self.effective(total, params)
        value = self.money(eff, params)
        zh = [f"{f['name_zh']}{' ×' + str(f['count']) if f['count'] > 1 else ''}："
              f"{f['points'] * f['count']} 番" for f in fans]  # fmt: skip
        en = [f"{f['name_en']}{' x' + str(f['count']) if f['count'] > 1 else ''}: "
              f"{_fans_en(f['points'] * f['count'])}" for f in fans]  # fmt: skip
        zh.append("直接选番")
        en.append("fans picked from the list")
        if capped:
            zh.append(f"共 {total} 番，封顶按 {eff} 番算")
            en.append(f"{total} fans, capped at {eff}")
        return {
            "win": True,
            "fans": fans,
            "total": total,
            "multiplier": self.multiplier(eff, params),
            "value": value,
            "notes": en,
            "notes_zh": zh,
        }

    def quick_score(
        self,
        fans: Mapping[int, int],
        flowers: int,
        table: Table,
        self_drawn: bool,
        params: ParamValues,
        flags: AbstractSet[str] = frozenset(),  # (its picked fans carry them)
    ) -> HandResult:
        res = self.quick_result(fans, params, self_drawn)
        return {**res, **self.table_payments(table, self_drawn, res["total"], res["value"], params)}

    def next_dealer(
        self,
        dealer: int,
        players: int,
        winners: Sequence[int],
        params: ParamValues,
        discarder: int | None = None,
    ) -> int:
        """血战: "每局投骰" (dice every round), so the proposal is simply the next seat.
        Otherwise "點炮者坐莊,流局則連莊" (seed 001/002): the player who dealt in deals;
        after a self-draw, which has no 点炮者, the winner deals."""
        if params["blood_battle"]:
            return (dealer + 1) % players
        if not winners:
            return dealer
        return discarder if discarder is not None else winners[0]

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand)
        if len(self.suits(hand)) == 3:
            return []
        return decompose.waits(hand, FORMS)


__all__ = ["FANS", "Sichuan"]
