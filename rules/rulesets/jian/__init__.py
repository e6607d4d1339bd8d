"""吉安冲关麻将 (Ji'an): 精 from a turned tile, 出子 = 2^翻, 精分 and 冲关 every round.

136 tiles.  After the deal a tile is turned up; two kinds follow from it, the
正精 (counts two) and the 副精 (counts one), and both are wild in hands.  A
win is worth 2^翻 子 from each payer (`hands.py` reads the 翻, `payments.py`
pays them); at the end of every round each player's 精 are paid by each other
player, 冲关 from five 精 points on, doubled for a sole holder (霸精).
docs/rules/jian.md has every decision with the seed sentence it rests on.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues
from rules.registry import Preset, Ruleset
from rules.results import DroppedFlag, Fan, HandResult
from rules.round import RoundEnd
from rules.rulesets.jian.hands import DEGUO, FANS, FORMS, Reading, readings
from rules.rulesets.jian.help import HELP
from rules.rulesets.jian.payments import round_end, win_payments, win_terms
from rules.table import ALL_TILES, EventKind, SeatInput, TableSpec, Wilds, WinFlag
from rules.tiles import tile_en, tile_zh
from rules.working import merged

# 东南西北 round; 中 → 发 → 白 → 中 (the order the dragons are named in here).
CYCLES = ((27, 28, 29, 30), (33, 32, 31))

REASONS = {
    "win": ("胡牌", "Win"),
    "jing": ("精", "Jing held"),
    "jing_ba": ("霸精", "Sole jing holder"),
    "chongguan": ("冲关", "Chong guan (5+ jing)"),
    "chongguan_ba": ("霸精冲关", "Chong guan, sole holder"),
}


@lru_cache(maxsize=8)
def _table(jing_rule: str, on_draw: bool) -> TableSpec:
    # The winner's count starts at the 精 his hand shows (scorer: the seat's floor);
    # the help says so, so that nobody adds them a second time.
    help_zh = "这一局结束时这位玩家牌面里的{}。和牌的人手牌里的已经自动算上了，不要再加"
    help_en = (
        "The {} tiles this player shows at the round's end. The winner's hand is "
        "counted already: do not add it again"
    )
    return TableSpec(
        tiles=ALL_TILES,
        chi=True,
        prevalent_wind=True,
        wilds=Wilds("turned", turned_rule="same" if jing_rule == "turned" else "next",
                    count=2, cycles=CYCLES),
        flags=(WinFlag("after_kong", "扛开", "Win after a kong", when="self_drawn"),),
        events=(EventKind("win", "胡牌", "Win"), EventKind("draw", "荒庄", "Drawn game")),
        seat_inputs=(
            SeatInput("zheng_jing", "正精", "Main jing", 0, 4, 0, help_zh.format("正精（算 2 个）"),
                      help_en.format("main jing (each counts two)"), on_draw=on_draw,
                      counts_wild=0, total_max=4, tiles_en="zheng jing tiles"),
            SeatInput("fu_jing", "副精", "Minor jing", 0, 4, 0, help_zh.format("副精"),
                      help_en.format("minor jing"), on_draw=on_draw, counts_wild=1,
                      total_max=4, tiles_en="fu jing tiles"),
        ),
        reasons=REASONS,
        meld_labels={"turned": ("翻精", "Turn up the jing tile"), "wild": ("精", "Jing")},
    )  # fmt: skip


class Jian(Ruleset):
    id = "jian"
    rating_family = "jian"  # the league rates its players apart from other rulesets'
    name_zh = "吉安冲关麻将"
    name_en = "Ji'an Chong Guan"
    table_play = True
    order = 40
    max_wilds = 8  # four 正精 and four 副精
    players = (4,)
    params = (
        Param("jing_rule", "choice", "next", "定精", "Which tiles are jing",
              "翻出一张牌后：它的下一张是正精、再下一张是副精；或翻出的这张就是正精、下一张是副精",
              "After a tile is turned up: the next kind is the main jing and the one after it "
              "the minor jing; or the turned kind itself is the main jing and the next the minor",
              choices=("next", "turned"),
              choice_labels=(("下一张是正精", "The next kind is the main jing"),
                             ("翻出的是正精", "The turned kind is the main jing"))),
        Param("zi", "int", 1, "每子分数", "Points per zi",
              "一个子记多少分（一元、两元、五元……）", "What one zi (the stake unit) is worth",
              min=1, max=1000),
        Param("deguo_bonus", "int", 5, "德国加子", "No-jing extra",
              "德国（无精）时每个付德国翻的人再加几个子", "Zi (stake units) each payer of the no-jing fan adds",
              min=0, max=100),
        Param("chongguan_from", "int", 5, "冲关精数", "Chong guan from",
              "精数（正精算 2）达到这么多就冲关：每家付 (n−3)×n",
              "From this many jing points (a main jing counts two) each other player pays "
              "(n − 3) × n", min=4, max=12),
        Param("bajing", "bool", True, "霸精翻倍", "Sole holder doubles",
              "只有一家有精（霸精）时，他收的精分乘以 2",
              "When only one player holds jing (ba jing) what he collects is doubled"),
        Param("bajing_dealer_only", "bool", False, "霸精只算庄家", "Ba jing: dealer only",
              "只在庄家一家有精时算霸精（种子原文只举了庄家的例子）",
              "The sole holder's double only when he is the dealer (the seed's only example)"),
        Param("jing_on_draw", "bool", True, "荒庄也算精", "Jing paid on a draw",
              "荒庄时也算精分、冲关", "Jing points and chong guan are paid on a drawn game too"),
    )  # fmt: skip
    presets = (
        Preset("jian", "吉安冲关", "Ji'an chong guan", {}),
        Preset("turned_main", "翻出的是正精", "Turned tile is the main jing",
               {"jing_rule": "turned"}),
    )  # fmt: skip

    def table(self, params: ParamValues | None = None) -> TableSpec:
        p = params or self.defaults
        return _table(p.choice("jing_rule"), p.flag("jing_on_draw"))

    # ------------------------------------------------------------------ hands

    def check(self, hand: Hand) -> None:
        self.check_wilds(hand)
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand)
        reads = readings(hand)
        if not reads:
            return {
                "win": False, "fans": [], "total": 0,
                "notes": ["the tiles form no winning hand (four sets and a pair, seven pairs "
                          "or thirteen rotten)"],
                "notes_zh": ["这手牌不成胡：不是四副面子加一对将，也不是七对、十三烂"],
            }  # fmt: skip
        dropped: list[DroppedFlag] = []
        kong = any(m.type == "kong" for m in hand.melds)
        after_kong = hand.self_drawn and hand.after_kong
        if after_kong and not kong:
            dropped.append({"flag": "after_kong",
                            "reason": "the hand shows no kong: not a win after a kong",
                            "reason_zh": "手里没有杠：不算扛开"})  # fmt: skip
            after_kong = False
        t = hand.table
        players, winner, dealer = (t.players, t.winner, t.dealer) if t else (4, 1, 0)
        discarder = t.discarder if t else (None if hand.self_drawn else 2)
        if t is not None and t.winner is None:
            raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
        assert winner is not None

        def value(r: Reading) -> tuple[int, int]:
            fans = r.hand_fans(hand.self_drawn, after_kong)
            pays = win_payments(fans, players, winner, dealer, discarder, params)
            return sum(a for _, _, a in pays), FANS.total(fans)

        best = max(reads, key=value)
        fans = best.hand_fans(hand.self_drawn, after_kong)
        pays = win_payments(fans, players, winner, dealer, discarder, params)
        total = FANS.total(fans)
        rows: list[Fan] = [
            {"id": f, "name_zh": FANS[f].zh, "name_en": FANS[f].en, "points": FANS[f].points,
             "count": 1}
            for f in sorted(fans, key=lambda f: (-FANS[f].points, f))
        ]  # fmt: skip
        notes, notes_zh = self._notes(best, hand, fans, total)
        out: HandResult = {"win": True, "fans": rows, "total": total,
                               "notes": notes, "notes_zh": notes_zh}  # fmt: skip
        if best.wild_as and not best.deguo:
            out["wild_as"] = [tile_en(x) for x in best.wild_as]
        if dropped:
            out["flags_dropped"] = dropped
        if t is not None:
            deltas = [0] * players
            for p, _, a in pays:
                deltas[p] -= a
                deltas[winner] += a
            out["payments"] = [{"from": p, "to": winner, "amount": a} for p, _, a in pays]
            out["deltas"] = deltas
            out["terms"] = merged(win_terms(fans, pays, winner, dealer, discarder, params))
            bonus = params.whole("deguo_bonus") if DEGUO in fans else 0
            for p, f, a in pays:
                extra = bonus if discarder is None or p == discarder else 0
                why_zh = "、".join(
                    w for w, on in (("庄家", dealer in (p, winner)), ("点炮", p == discarder)) if on
                )
                why_en = ", ".join(
                    w for w, on in (("dealer", dealer in (p, winner)), ("discarder", p == discarder))
                    if on
                )  # fmt: skip
                calc = f"2^{f}" + (f" + {extra}" if extra else "")
                unit = params.whole("zi")
                tail = f" × {unit}" if unit != 1 else ""
                notes_zh.append(
                    f"{p} 号位付 {calc}{tail} = {a}" + (f"（{why_zh}）" if why_zh else "")
                )
                notes.append(
                    f"seat {p} pays {calc}{tail} = {a}" + (f" ({why_en})" if why_en else "")
                )
        return out

    @staticmethod
    def _notes(
        r: Reading, hand: Hand, fans: Mapping[int, int], total: int
    ) -> tuple[list[str], list[str]]:
        names_zh = " + ".join(f"{FANS[f].zh} {FANS[f].points}" for f in fans if FANS[f].points)
        names_en = " + ".join(f"{FANS[f].en} {FANS[f].points}" for f in fans if FANS[f].points)
        notes_zh = [f"{names_zh or FANS[1].zh} = {total} 翻"]
        notes = [f"{names_en or FANS[1].en} = {total} fan" + ("" if total == 1 else "s")]
        if hand.wilds:
            if r.deguo:
                notes_zh.append("精都当本身用：德国")
                notes.append("every jing stands for itself: no jing used")
            elif r.wild_as:
                notes_zh.append("精当作 " + "、".join(tile_zh(x) for x in r.wild_as))
                notes.append("jing stand for " + ", ".join(tile_en(x) for x in r.wild_as))
        return notes, notes_zh

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand)
        return decompose.waits(hand, FORMS)

    # ------------------------------------------------------------------ rounds

    def round_end_payments(
        self, seat_inputs: Mapping[str, list[int]], players: int, dealer: int,
        params: ParamValues,
    ) -> RoundEnd | None:  # fmt: skip
        return round_end(seat_inputs, players, dealer, params)


RULESET = Jian()
