"""国标麻将 MCR, the ruleset: its parameters, presets and table, and `score_hand`,
which tries the lean path (lean.py) and falls back on the careful one (scoring.py).

Apart from scoring.py so that the two scoring paths do not import each other: the
lean path reads the careful path's tables and helpers, and this module reads both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from rules.decompose import Forms, waits_counts
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand, Table
from rules.params import Param, ParamValues, recipients_param
from rules.registry import Preset, Ruleset
from rules.results import CatalogFan, HandResult
from rules.round import Penalty
from rules.rulesets.mcr import lean
from rules.rulesets.mcr.fans import COMMON_FANS, FANS, TABLE
from rules.rulesets.mcr.help import HELP
from rules.rulesets.mcr.scoring import Reading, best_reading, explain, fan_entry, win_payments
from rules.table import Match, PenaltyKind, TableSpec, WinFlag

__all__ = ["Mcr"]


class Mcr(Ruleset):
    id = "mcr"
    rating_family = "mcr"  # the league rates its players apart from other rulesets'
    name_zh = "国标麻将"
    name_en = "Chinese Official (MCR)"
    params = (
        Param(
            "min_fans",
            "int",
            8,
            "起和番",
            "Minimum fans",
            "和牌最少需要的番数（花牌不算）",
            "Fans a hand needs to win, flowers not counted",
            min=0,
            max=88,
        ),
        Param(
            "mixed_kong_fan",
            "bool",
            True,
            "明暗杠",
            "Concealed + melded kong",
            "一暗杠加一明杠计“明暗杠”5番，而不是暗杠2番+明杠1番",
            "One concealed and one melded kong score Concealed Kong and Melded Kong (5) "
            "instead of Concealed Kong (2) + Melded Kong (1)",
        ),
        Param(
            "knitted_wait_fans",
            "bool",
            True,
            "组合龙计边嵌钓",
            "Waits inside a knitted straight",
            "和牌张也可算作组合龙龙身时，仍可计边张、嵌张、单钓将",
            "Edge, closed and single wait still count when the win tile could also be part of the knitted straight",
        ),
        Param(
            "wait_fans_real_waits",
            "bool",
            False,
            "边嵌钓只看能摸到的牌",
            "Wait fans: only drawable tiles widen the wait",
            "关：按国际麻将联盟《国标麻将规则释义》，形式上听两种以上的牌（四张都在手里的牌也算一种）"
            "不计边张、嵌张、单钓将。开：四张都在手里的牌摸不到，不算听这张",
            "Off: as the Mahjong International League rules, a hand that formally waits on more "
            "than one kind (one whose four copies are all in the hand counts) scores no edge, "
            "closed or single wait. On: a kind that cannot be drawn does not count as a wait",
        ),
        Param(
            "flower_points",
            "int",
            1,
            "每张花分",
            "Points per flower",
            "每张花牌计几分",
            "Points each flower adds to the total",
            min=0,
            max=10,
        ),
        Param(
            "dealer_repeat",
            "choice",
            "never",
            "连庄",
            "Dealer repeats",
            "比赛规则不连庄（每局换庄）；也可选庄家和牌或荒庄时连庄",
            "Competition rules pass the deal every hand; a room may let the dealer keep it "
            "when he wins, or when he wins or nobody does",
            choices=("never", "dealer_wins", "dealer_wins_or_draw"),
            choice_labels=(
                ("不连庄（每局换庄）", "Never: the deal always passes on"),
                ("庄家和牌连庄", "When the dealer wins"),
                ("庄家和牌或荒庄连庄", "When the dealer wins or nobody wins"),
            ),
        ),
        Param(
            "match",
            "bool",
            False,
            "比赛：16 盘",
            "Match of 16 hands",
            "四圈 16 盘打完本桌自动结束，圈与圈之间换位（竞赛规则），结果按名次给标准分 4、2、1、0",
            "Four rounds of 16 hands end the table by themselves, the players change seats "
            "between rounds (competition rules) and the ranks score 4, 2, 1, 0",
        ),
        Param(
            "base",
            "int",
            8,
            "底分",
            "Base",
            "比赛结算：每家先付的底分",
            "Competition settlement: what every loser pays first",
            min=0,
            max=1000,
        ),
        Param(
            "false_win_penalty",
            "int",
            10,
            "错和罚分",
            "False win penalty",
            "错和者付给其他每家这么多（竞赛规则：各 10 分，共 30 分）",
            "What a false win pays each other player (competition rules: 10 each, 30 in all)",
            min=1,
            max=1000,
        ),
        recipients_param("false_win_to", "错和", "False win"),
    )

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        # most hands: one regular reading, scored in one pass (lean.py); the rest here
        body = lean.score_regular(hand, params)
        if body is not None:
            return body
        return self.score_careful(hand, params)

    def score_careful(self, hand: Hand, params: ParamValues) -> HandResult:
        """score_hand by every reading's objects (Reading, Cut, Ctx, Scored): the
        definition the lean path is held to, and the answer for every other hand."""
        reading = Reading(hand, params)
        best = best_reading(reading)
        if best is None:
            raise RuleError(
                "not_a_win",
                "This hand is not a winning hand: it does not form four sets and a pair, "
                "seven pairs, thirteen orphans or a knitted hand",
                "这手牌不能和：组不成四副面子加一对将、七对、十三幺或全不靠类牌型",
            )
        items = sorted(best.fans.items())
        fans = [fan_entry(fid, n) for fid, n in items]
        fan_total = best.total
        flower_pts = hand.flowers * params.whole("flower_points")
        if hand.flowers:
            fans.append({**fan_entry(81, hand.flowers), "points": params.whole("flower_points")})
        total = fan_total + flower_pts
        need = params.whole("min_fans")
        win = fan_total >= need
        notes, notes_zh = explain(best, hand, params, fan_total, need, items)
        out: HandResult = {
            "win": win,
            "fans": fans,
            "total": total,
            "notes": notes,
            "notes_zh": notes_zh,
        }
        if reading.dropped_flags:
            out["flags_dropped"] = reading.dropped_flags
        if hand.table is not None:
            out.update(
                win_payments(
                    hand.self_drawn, hand.table, total if win else 0, params.whole("base"), win
                )
            )
        return out

    table_play = True
    order = 10
    table_spec = TableSpec(
        flowers=8,
        flags=(
            WinFlag("after_kong", "杠上开花", "Win after a kong", when="self_drawn"),
            WinFlag("robbing_kong", "抢杠和", "Robbing the kong", when="discard"),
            WinFlag("last_tile", "海底", "Last tile"),
            WinFlag("fourth_tile", "和绝张", "Last of its kind"),
        ),
        # 错和: the competition rules' penalty (docs/rules/mcr.md); the hand plays on.
        penalties=(
            PenaltyKind(
                "false_win",
                "错和",
                "False win",
                "错和者付给其他每家 10 分（共 30 分），这盘继续打",
                "A false win pays 10 to each other player (30 in all); the hand plays on",
                to_param="false_win_to",
                ends_round=False,
            ),
        ),
    )
    presets = (
        Preset("competition", "比赛规则", "Competition", {"match": True}),
        Preset(
            "room",
            "棋牌室（庄家和牌或荒庄连庄）",
            "Room game (the dealer keeps the deal on a win or a draw)",
            {"dealer_repeat": "dealer_wins_or_draw"},
        ),
        Preset(
            "standard81",
            "标准81番（不计明暗杠）",
            "The standard 81 fans (no Concealed Kong and Melded Kong)",
            {"mixed_kong_fan": False},
        ),
    )

    _match_spec: TableSpec | None = None

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """The competition's match (16 hands, seats changed between 圈, 标准分) where asked."""
        if not (params or self.defaults)["match"]:
            return self.table_spec
        if self._match_spec is None:
            self._match_spec = replace(self.table_spec, match=Match())
        return self._match_spec

    def penalty_amount(
        self,
        penalty: str,
        seat: int,
        seat_inputs: Mapping[str, list[int]],
        players: int,
        params: ParamValues,
    ) -> Penalty:
        """错和: `false_win_penalty` to each other player (paid to the room, the same sum)."""
        each = params.whole("false_win_penalty")
        amount = each * (players - 1)
        return Penalty(
            amount,
            (f"{each} × {players - 1} = {amount}",),
            (f"每家 {each} × {players - 1} = {amount}",),
        )

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def fan_catalog(self, params: ParamValues | None = None) -> list[CatalogFan]:
        """Every fan a player can pick, with the fans it excludes (不计) and, for the
        everyday ones, their place in the list of common fans (`common`)."""
        mixed_kong = (params or self.defaults).flag("mixed_kong_fan")
        out: list[CatalogFan] = []
        for f in sorted(FANS.values(), key=lambda f: f.id):
            # Flowers are counted apart; 明暗杠 exists only with `mixed_kong_fan`.
            if f.id == 81 or (f.id == 82 and not mixed_kong):
                continue
            row: CatalogFan = {"id": f.id, "name_zh": f.zh, "name_en": f.en, "points": f.points,
                               "excludes": sorted(TABLE.exclude_sets[f.id])}  # fmt: skip
            if f.id in COMMON_FANS:
                row["common"] = COMMON_FANS.index(f.id) + 1
            out.append(row)
        return out

    def quick_score(
        self,
        fans: Mapping[int, int],
        flowers: int,
        table: Table,
        self_drawn: bool,
        params: ParamValues,
        flags: AbstractSet[str] = frozenset(),  # (its picked fans carry them)
    ) -> HandResult:
        """Fans picked from the list, with the rulebook's exclusions (不计) applied.

        Picking 清一色 and 无字 counts 清一色 alone, as scoring the tiles would:
        an excluded fan is listed under `excluded` with the fan that excludes it
        and counts for nothing.  Exclusions that depend on the tiles (a fan that
        excludes another only for the sets it uses) cannot be judged from a
        list of names and are left to the player.
        """
        picked: dict[int, int] = {}
        for fid, n in fans.items():
            if fid not in FANS or fid == 81 or (fid == 82 and not params.flag("mixed_kong_fan")):
                raise RuleError(
                    "bad_input", f"no MCR fan with id {fid}", f"国标麻将没有编号为 {fid} 的番种"
                )
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 8:
                raise RuleError(
                    "bad_input",
                    f"fan {fid}: a count from 0 to 8",
                    f"番种 {fid} 的次数必须是 0 到 8",
                )
            if n:
                picked[fid] = n
        if not picked:
            raise RuleError("bad_input", "pick at least one fan", "请至少选一个番种")
        if not 0 <= flowers <= 8:
            raise RuleError("bad_input", "flowers: 0 to 8", "花牌张数必须是 0 到 8")
        counted, excluded = TABLE.apply_exclusions(picked)
        fan_total = TABLE.total(counted)
        flower_value = params.whole("flower_points")
        total = fan_total + flowers * flower_value
        need = params.whole("min_fans")
        win = fan_total >= need
        out_fans = [fan_entry(f, n) for f, n in sorted(counted.items())]
        if flowers:
            out_fans.append({**fan_entry(81, flowers), "points": flower_value})
        notes = [f"quick entry: {fan_total} fans picked by hand"]
        notes_zh = [f"直接选番：共 {fan_total} 番"]
        for f, by in sorted(excluded.items()):
            notes.append(f"{FANS[f].en} is not counted: implied by {FANS[by].en}")
            notes_zh.append(f"{FANS[f].zh} 不计：{FANS[by].zh} 已含")
        if not win:
            notes.append(
                f"{need - fan_total} short of the {need}-fan minimum, so this is not a legal win"
            )
            notes_zh.append(f"不足 {need} 番起和，还差 {need - fan_total} 番，不能和牌")
        out: HandResult = {
            "win": win,
            "fans": out_fans,
            "total": total,
            "notes": notes,
            "notes_zh": notes_zh,
        }
        if excluded:
            out["excluded"] = [
                {**fan_entry(f, picked[f]), "by": by, "by_zh": FANS[by].zh, "by_en": FANS[by].en}
                for f, by in sorted(excluded.items())
            ]
        out.update(win_payments(self_drawn, table, total if win else 0, params.whole("base"), win))
        return out

    def next_dealer(
        self,
        dealer: int,
        players: int,
        winners: Sequence[int],
        params: ParamValues,
        discarder: int | None = None,
    ) -> int:
        rule = params.choice("dealer_repeat")
        if rule == "dealer_wins_or_draw" and (not winners or dealer in winners):
            return dealer
        if rule == "dealer_wins" and dealer in winners:
            return dealer
        return (dealer + 1) % players

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        forms = Forms(
            seven_pairs=True,
            thirteen_orphans=True,
            honors_knitted=True,
            seven_honors_knitted=True,
            knitted_straight=True,
        )
        return waits_counts(
            hand.counts,
            0,
            hand.held,
            frozenset(),
            len(hand.melds),
            forms,
            tuple(4 - m for m in hand.meld_counts) if hand.melds else None,
        )
