"""武汉麻将 红中癞子杠 (开口翻 / 口口翻): the multiplicative ruleset.

136 tiles; the kind after the turned tile is the 癞子 (红中 skipped).  A win
needs an opening and no 红中 in hand; 小胡 (a 2/5/8 pair) is worth 1, each 大胡
10.  Each loser pays base × the winner's factor × his own factor (his openings
and kongs count against him), capped at 300, all three the 金顶 when every one
is over; 承包 makes one player pay the three.  `hands.py` reads the tiles,
`payments.py` pays; docs/rules/wuhan.md has every decision with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues, recipients_param
from rules.registry import Preset, Ruleset
from rules.results import Fan, HandResult, Loser
from rules.round import Penalty
from rules.rulesets.wuhan.hands import (
    FENG_TILES,
    FORMS,
    JIANG,
    QIANGGANG,
    QINGYISE,
    QQR,
    RED,
    SMALL,
    TYPES,
    Reading,
    openings,
    readings,
)  # fmt: skip
from rules.rulesets.wuhan.help import HELP
from rules.rulesets.wuhan.payments import COUNTS, Factor, own_factor, settle
from rules.table import (
    ALL_TILES,
    EventKind,
    PenaltyKind,
    Scoring,
    SeatInput,
    TableSpec,
    Wilds,
    WinFlag,
)
from rules.tiles import tile_en, tile_zh
from rules.working import Term, evaluate, item, term

# 东 → 南 → 西 → 北 → 发 → 白 → 东; 中 is skipped and a turned 中 gives 发:
# "如果翻出"北",跳過"紅中","發財"是"癩子",翻出"白板","東"是"癩子"", "摸到"北"和"中"都是"發"作癩子".
WILDS = Wilds("turned", turned_rule="next", cycles=((27, 28, 29, 30, 32, 31),),
              outside=((RED, 32),))  # fmt: skip
CLAIMED = {"left": -1, "across": 2, "right": 1}  # 上家, 对家, 下家 in play order

REASONS = {
    "win": ("胡牌", "Win"),
    "win_contract": ("承包", "Pays for all (承包)"),
}


def _count(sid: str, zh: str, en: str, help_zh: str, help_en: str, hand: bool) -> SeatInput:
    return SeatInput(sid, zh, en, 0, 4, 0, help_zh, help_en, winner_from_hand=hand)


# A 明杠 is a 冲杠 (an opening itself) or a 蓄杠 (its 碰 was one): a player with a
# 明杠 has opened, so his openings are never fewer than his 明杠.  Not
# where a 冲杠 is no opening (`chong_gang_is_opening` off): a 冲杠 alone opens nothing.
MING_OPENS = ("有明杠就开过口：冲杠本身是开口，蓄杠的碰也是",
              "an exposed kong means an opening: a direct kong is one, an added kong's "
              "pung was one")  # fmt: skip
SEAT_INPUTS = (
    SeatInput("openings", "开口", "Openings", 0, 4, 0,
              "这一局吃、碰、冲杠的次数（蓄杠算它的碰）；有明杠就开过口，开口不少于明杠",
              "Chi, pung and direct kongs this hand (an added kong counts as its pung); "
              "an exposed kong means an opening, so never fewer than the exposed kongs",
              winner_from_hand=True, at_least="ming_gang", why_zh=MING_OPENS[0],
              why_en=MING_OPENS[1]),
    _count("ming_gang", "明杠", "Exposed kongs", "冲杠和蓄杠", "Direct and added kongs", True),
    _count("an_gang", "暗杠", "Concealed kongs", "暗杠（×4）", "Concealed kongs (×4)", True),
    replace(_count("hz_gang", "红中杠", "Red dragon kongs", "拿出或打出的红中张数",
                   "Red dragons laid out or discarded", False), total_max=4, tiles_zh="红中",
            tiles_en="red dragons"),
    replace(_count("lz_gang", "癞子杠", "Wild kongs", "打出的癞子张数", "Wild tiles discarded",
                   False), total_max=4, tiles_zh="癞子", tiles_en="wild tiles"),
)  # fmt: skip


class WuhanResult(HandResult, total=False):
    """A 武汉 win adds whether it is 硬胡 (no wild tile used) and the winner's
    factor (docs/rules/wuhan.md)."""

    hard: bool
    winner_factor: int | float


class Wuhan(Ruleset):
    id = "wuhan"
    rating_family = "wuhan"  # the league rates its players apart from other rulesets'
    name_zh = "武汉麻将（红中癞子杠）"
    name_en = "Wuhan (red dragon, wild kong)"
    table_play = True
    order = 35
    max_wilds = 4  # one 癞子 kind; every reading is scored
    players = (4,)
    params = (
        Param("variant", "choice", "kaikoufan", "翻法", "Variant",
              "开口翻：开过口 ×2 一次；口口翻：每开一次口 ×2",
              "开口翻: having opened ×2 once; 口口翻: ×2 per opening",
              choices=("kaikoufan", "koukoufan"),
              choice_labels=(("开口翻", "Open once (开口翻)"), ("口口翻", "Each opening (口口翻)"))),
        Param("cap", "int", 300, "封顶", "Cap", "每个输家最多付这么多",
              "The most one loser pays", min=1, max=100_000),
        Param("golden", "int", 400, "金顶", "Golden cap",
              "三家都超过封顶时每家付这么多（口口翻 500）",
              "What each loser pays when all three are over the cap (口口翻: 500)",
              min=1, max=100_000),
        Param("golden_threshold", "choice", "gt", "金顶条件", "Golden cap when",
              "三家都“超过”封顶：大于，或大于等于", "All three over the cap: above it, or at least it",
              choices=("gt", "ge"), choice_labels=(("大于封顶", "Above the cap"),
                                                    ("大于等于封顶", "At least the cap"))),
        Param("small_base", "int", 1, "小胡基础分", "Small win base", "小胡（屁胡）的基础分",
              "The base of a small win", min=1, max=1000),
        Param("big_base", "int", 10, "大胡基础分", "Big win base", "每个大胡的基础分（可累计）",
              "The base of each big win (they add up)", min=1, max=1000),
        Param("self_draw_small", "int", 2, "小胡自摸", "Small win self-drawn",
              "小胡自摸时赢家 ×", "Winner's factor on a self-drawn small win", min=1, max=10),
        Param("self_draw_big", "float", 1.5, "大胡自摸", "Big win self-drawn",
              "大胡自摸时赢家 ×", "Winner's factor on a self-drawn big win", min=1, max=10),
        Param("discarder_small", "int", 2, "小胡放冲", "Small win discarder",
              "小胡时放冲者 ×", "The discarder's factor in a small win", min=1, max=10),
        Param("discarder_big", "float", 1.5, "大胡放冲", "Big win discarder",
              "大胡时放冲者 ×", "The discarder's factor in a big win", min=1, max=10),
        Param("exposed_kong", "int", 2, "明杠", "Exposed kong", "每个明杠 ×", "× per exposed kong",
              min=1, max=10),
        Param("concealed_kong", "int", 4, "暗杠", "Concealed kong", "每个暗杠 ×",
              "× per concealed kong", min=1, max=10),
        Param("hongzhong_kong", "int", 2, "红中杠", "Red dragon kong", "每个红中杠 ×",
              "× per red dragon laid out", min=1, max=10),
        Param("laizi_kong", "int", 2, "癞子杠", "Wild kong", "每个癞子杠 ×（有的桌 ×4）",
              "× per wild tile discarded (some tables ×4)", min=1, max=10),
        Param("chong_gang_is_opening", "bool", True, "冲杠算开口", "Direct kong opens",
              "冲杠既算开口又算明杠", "A direct kong counts as an opening and as an exposed kong"),
        Param("qqr_discard_only", "bool", True, "全求人要点炮", "All melded only on a discard",
              "全求人必须是别人放冲", "全求人 must be won on a discard"),
        Param("qqr_needs_258", "bool", True, "全求人要258将", "All melded needs 2-5-8",
              "全求人的将也要是 2、5、8", "全求人's pair must be 2, 5 or 8"),
        Param("two_laizi_bar_small", "bool", True, "两个癞子不能胡小胡", "Two wilds bar a small win",
              "手里有两个癞子时只能胡大胡", "With two wild tiles only a big win wins"),
        Param("escape_penalty", "int", 400, "逃跑扣分", "Escape penalty",
              "逃跑者扣这么多（口口翻 500）", "What the player who leaves loses (口口翻: 500)",
              min=1, max=100_000),
        recipients_param("escape_to", "逃跑", "Escape"),
    )  # fmt: skip
    presets = (
        Preset("kaikoufan", "开口翻", "Open once", {}),
        Preset("koukoufan", "口口翻", "Each opening",
               {"variant": "koukoufan", "golden": 500, "escape_penalty": 500}),
    )  # fmt: skip
    table_spec = TableSpec(
        scoring=Scoring(unit="point", compose="factors"),
        tiles=ALL_TILES,
        chi=True,
        prevalent_wind=True,
        wilds=WILDS,
        flags=(
            WinFlag("after_kong", "杠上花", "Win after a kong", when="self_drawn"),
            WinFlag("last_tile", "海底捞", "Last tiles", when="self_drawn"),
            WinFlag("robbing_kong", "抢杠", "Robbing a kong", when="discard"),
            WinFlag("discarder_not_ready", "放冲者没听牌", "Discarder not ready", when="discard"),
        ),
        events=(EventKind("win", "胡牌", "Win"), EventKind("draw", "荒庄", "Drawn game")),
        seat_inputs=SEAT_INPUTS,
        # "逃跑:游戲結束,逃跑者扣400分(口口翻扣500分)" (WH-24).
        penalties=(
            PenaltyKind(
                "escape",
                "逃跑",
                "Escape",
                "逃跑者扣 400 分（口口翻 500）",
                "The player who leaves loses 400 (口口翻: 500)",
                to_param="escape_to",
            ),
        ),
        meld_sources=True,
        reasons=REASONS,
        meld_labels={"wild": ("癞子", "Wild")},
    )
    # Without `chong_gang_is_opening` a 冲杠 opens nothing: openings are not tied to 明杠.
    _loose_spec = replace(
        table_spec,
        seat_inputs=(replace(SEAT_INPUTS[0], at_least=None, why_zh="", why_en="",
                             help_zh="这一局吃、碰的次数（蓄杠算它的碰；冲杠不算开口）",
                             help_en="Chi and pung this hand (an added kong counts as its "
                             "pung; a direct kong is no opening)"),
                     *SEAT_INPUTS[1:]),
    )  # fmt: skip

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """Openings tied to 明杠 only where a 冲杠 is an opening (the default)."""
        if (params or self.defaults)["chong_gang_is_opening"]:
            return self.table_spec
        return self._loose_spec

    def seat_inputs_from_hand(self, hand: Hand, params: ParamValues) -> Mapping[str, int]:
        return hand_counts(hand, params)

    def penalty_amount(
        self, penalty: str, seat: int, seat_inputs: Mapping[str, list[int]], players: int,
        params: ParamValues,
    ) -> Penalty:  # fmt: skip
        """逃跑: a fixed deduction, 400 (口口翻 500), whatever the hand."""
        return Penalty(params.whole("escape_penalty"))

    # ------------------------------------------------------------------ hands

    def check(self, hand: Hand) -> None:
        self.check_wilds(hand)
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")
        for i, m in enumerate(hand.melds):
            bad = [t for t in m.tiles if t == RED or t in hand.wild]
            if bad:
                raise RuleError(
                    "illegal_meld",
                    f"meld {i + 1}: no chi, pung or kong of {tile_en(bad[0])} (红中 and the wild "
                    "tile are never claimed)",
                    f"第 {i + 1} 副副露：不能吃碰杠{tile_zh(bad[0])}（红中、癞子都不能吃碰杠）",
                )

    def score_hand(self, hand: Hand, params: ParamValues) -> WuhanResult:
        self.check(hand)
        if RED in {*hand.concealed, hand.win_tile}:
            return self._no("a hand holding the red dragon cannot win", "手上有红中不能胡牌")
        if not openings(hand, params.flag("chong_gang_is_opening")):
            return self._no("the winner must have opened (chi, pung or an exposed kong)",
                            "必须开口（吃、碰、明杠）才能胡牌")  # fmt: skip
        reads, why_en, why_zh = readings(hand, params)
        if not reads:
            return self._no(why_en, why_zh)
        t = hand.table
        if t is not None and t.winner is None:
            raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
        players, winner, dealer = (t.players, t.winner, t.dealer) if t else (4, 1, 0)
        discarder = t.discarder if t else (None if hand.self_drawn else 2)
        assert winner is not None
        counts = self._counts(hand, params, players, winner)
        factors = [own_factor(c, params) for c in counts]

        def value(r: Reading) -> tuple[int, int]:
            losers = self._losers(r, hand, params, winner, dealer, discarder, factors)[3]
            return sum(lo.paid for lo in losers), int(r.hard)

        best = max(reads, key=value)
        base, big, contractor, losers, w, wz, we = self._losers(
            best, hand, params, winner, dealer, discarder, factors
        )
        kinds = best.big or (SMALL,)
        rows: list[Fan] = [{"id": k, "name_zh": TYPES[k].zh, "name_en": TYPES[k].en,
                 "points": params.whole("big_base" if big else "small_base"), "count": 1}
                for k in kinds]  # fmt: skip
        notes_zh = [
            "、".join(TYPES[k].zh for k in kinds) + f"：基础分 {base}，"
            + ("硬胡" if best.hard else "软胡（癞子当作 " + "、".join(tile_zh(x) for x in best.wild_as) + "）"),
            f"赢家番数 {_n(w)}" + (f"（{'、'.join(wz)}）" if wz else ""),
        ]  # fmt: skip
        notes = [
            ", ".join(TYPES[k].en for k in kinds) + f": base {base}, "
            + ("hard (no wild used)" if best.hard else "soft (wild as " + ", ".join(tile_en(x) for x in best.wild_as) + ")"),
            f"winner's factor {_n(w)}" + (f" ({', '.join(we)})" if we else ""),
        ]  # fmt: skip
        detail: list[Loser] = []
        working: list[str] = []
        working_zh: list[str] = []
        for lo in losers:
            f_zh = f"（{'、'.join(lo.words_zh)}）" if lo.words_zh else ""
            f_en = f" ({', '.join(lo.words_en)})" if lo.words_en else ""
            line_zh = f"{lo.seat} 号位：{base} × {_n(w)} × {_n(lo.factor)}{f_zh} = {_n(lo.raw)}"
            line_en = f"seat {lo.seat}: {base} × {_n(w)} × {_n(lo.factor)}{f_en} = {_n(lo.raw)}"
            if lo.why_zh:
                line_zh += f"，{lo.why_zh}"
                line_en += f", {lo.why_en}"
            notes_zh.append(line_zh)
            notes.append(line_en)
            working_zh.append(line_zh)
            working.append(line_en)
            detail.append({"seat": lo.seat, "factor": _j(lo.factor), "raw": _j(lo.raw),
                           "capped": lo.paid if contractor is None else None,
                           "pays": lo.paid, "why_zh": "、".join(lo.words_zh) + (
                               f"；{lo.why_zh}" if lo.why_zh else ""),
                           "why_en": ", ".join(lo.words_en) + (
                               f"; {lo.why_en}" if lo.why_en else "")})  # fmt: skip
        if contractor is not None:
            total = sum(lo.paid for lo in losers)
            notes_zh.append(f"承包：{contractor} 号位一家付三家的 {total}")
            notes.append(f"承包: seat {contractor} pays all three's {total}")
        out: WuhanResult = {
            "win": True, "fans": rows, "total": base, "hard": best.hard,
            "winner_factor": _j(w), "losers": detail, "contractor": contractor,
            "notes": notes, "notes_zh": notes_zh, "working": working, "working_zh": working_zh,
        }  # fmt: skip
        if t is not None:
            out["terms"] = loser_terms(base, w, losers, winner, contractor, params)
            pays = [(lo.seat, lo.paid) for lo in losers if lo.paid]
            deltas = [0] * players
            for s, a in pays:
                deltas[s] -= a
                deltas[winner] += a
            out["payments"] = [{"from": s, "to": winner, "amount": a} for s, a in pays]
            out["deltas"] = deltas
        return out

    @staticmethod
    def _no(en: str, zh: str) -> WuhanResult:
        return {"win": False, "fans": [], "total": 0, "notes": [en], "notes_zh": [zh]}

    @staticmethod
    def _counts(hand: Hand, params: ParamValues, players: int, winner: int) -> list[dict[str, int]]:
        """Each player's openings and kongs: the winner's from his hand's melds (and his
        红中杠 / 癞子杠 as entered), the others' as entered."""
        raw = hand.extra.get("seat_inputs") or {}
        counts = [{k: int((raw.get(k) or [0] * players)[s]) for k in COUNTS}
                  for s in range(players)]  # fmt: skip
        counts[winner].update(hand_counts(hand, params))
        red = sum(c["hz_gang"] for c in counts)
        if red > 4:
            raise RuleError("bad_input", f"there are four red dragons, not {red}",
                            f"红中一共只有四张，这里填了 {red} 张")  # fmt: skip
        lz = sum(c["lz_gang"] for c in counts) + hand.wilds
        if lz > 4:
            raise RuleError("bad_input", f"there are four wild tiles, not {lz}",
                            f"癞子一共只有四张，这里有 {lz} 张")  # fmt: skip
        return counts

    def _losers(
        self, r: Reading, hand: Hand, params: ParamValues, winner: int, dealer: int,
        discarder: int | None, factors: Sequence[Factor],
    ) -> tuple[int, bool, int | None, list[Any], Fraction, list[str], list[str]]:  # fmt: skip
        big = bool(r.big)
        base = len(r.big) * params.whole("big_base") if big else params.whole("small_base")
        contractor = self._contractor(r, hand, winner, discarder)
        w, wz, we, losers = settle(base, big, winner, dealer, discarder, hand.self_drawn, r.hard,
                                   factors, contractor, params)  # fmt: skip
        return base, big, contractor, losers, w, wz, we

    @staticmethod
    def _contractor(r: Reading, hand: Hand, winner: int, discarder: int | None) -> int | None:
        """承包: ① the not-ready discarder of a 全求人, ③ the robbed player; else ② the
        player whose discard was the 清一色 winner's third opening (ambiguity WH-26)."""
        if discarder is not None and QQR in r.big and hand.discarder_not_ready:
            return discarder
        if discarder is not None and QIANGGANG in r.big:
            return discarder
        if QINGYISE in r.big:
            opened = openings(hand)
            if len(opened) >= 3 and opened[2].claimed_from in CLAIMED:
                return (winner + CLAIMED[opened[2].claimed_from]) % 4
        return None

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        """The shape's waits, and for a hand all winds or all 2/5/8 any tile of the
        kind ("在聽牌時,任意風或將都能當炮使用")."""
        self.check(hand)
        out = set(decompose.waits(hand, FORMS))
        naturals = [t for t in hand.concealed if t not in hand.wild]
        naturals += [t for m in hand.melds for t in m.tiles]
        for group in (FENG_TILES, JIANG):
            if naturals and all(t in group for t in naturals):
                out |= {t for t in group if hand.held[t] < 4}
        return sorted(t for t in out if t != RED)


def hand_counts(hand: Hand, params: ParamValues) -> dict[str, int]:
    """The winner's openings and kongs: his hand's melds."""
    kongs = [m for m in hand.melds if m.type == "kong"]
    return {
        "openings": len(openings(hand, params.flag("chong_gang_is_opening"))),
        "ming_gang": sum(1 for m in kongs if m.exposed),
        "an_gang": sum(1 for m in kongs if not m.exposed),
    }


def loser_terms(
    base: int, w: Fraction, losers: Sequence[Any], winner: int, contractor: int | None,
    params: ParamValues,
) -> list[Term]:  # fmt: skip
    """Each loser's working: base × the winner's factor × his own ("1 × 8 × 8 = 64"),
    capped (封顶) or the 金顶 for all three (payments.settle's rule); in 承包 the one
    player pays the three capped amounts."""
    cap, golden = params.whole("cap"), params.whole("golden")
    strict = params["golden_threshold"] == "gt"
    all_over = all(lo.raw > cap if strict else lo.raw >= cap for lo in losers)
    out: list[Term] = []
    for lo in losers:
        t = term(
            # His factor says what made it: "8（暗杠 ×4、庄闲 ×2）", as the table counts.
            [lo.seat], winner, 0, base=item(base),
            factors=[item(w), item(lo.factor, name=("、".join(lo.words_zh), ", ".join(lo.words_en)))],
            cap=None if all_over else item(cap, name=("封顶", "cap")),
            instead=item(golden, name=("金顶", "golden cap")) if all_over else None,
        )  # fmt: skip
        t["amount"] = evaluate(t)
        out.append(t)
    if contractor is None:
        return out
    each = [(t["payers"][0], t["amount"]) for t in out]
    return [term([contractor], winner, sum(a for _, a in each),
                 additions=[item(a, name=(f"{s} 号位", f"seat {s}")) for s, a in each],
                 note=("承包：一家付三家", "pays for all three (承包)"))]  # fmt: skip


def _n(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _j(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


RULESET = Wuhan()
