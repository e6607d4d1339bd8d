"""北京麻将: 混儿 (wild) from the turned tile, one 吃/碰, a flat value ×2 per item.

Any pair (乱将) with the 混儿 standing for any tile.  One 吃 or 碰 (one more per
kong), and after one only a self-draw wins; a player who has discarded a 混儿
may not win; three 混儿 win only by self-draw.  Four 混儿 are paid 40 by each
other player, a false win (炸胡) 10 to each: both outside the hand, at the
round's end.  The basic and new cards are presets; the money is the core's
`rules.doubling`.  docs/rules/beijing.md has every decision with its seed sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules import decompose, doubling
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues
from rules.registry import Preset, Ruleset
from rules.results import HandResult
from rules.round import RoundEnd
from rules.table import ALL_TILES, EventKind, Scoring, SeatInput, TableSpec, Wilds, WinFlag

# "turn up a tile after the deal; the next tile is the 混儿" (BJ-1): suits 9 → 1,
# winds 东 → 南 → 西 → 北 → 东, dragons 中 → 发 → 白 → 中 (ints 33, 32, 31).
WILDS = Wilds("turned", turned_rule="next", cycles=((27, 28, 29, 30), (33, 32, 31)))
FORMS = decompose.Forms(seven_pairs=True, seven_pairs_quads=True)
ITEMS = ("menqing", "wuhun", "dragon", "seven", "luxury", "gangci", "zhuowu", "zimo")
BASIC_ON = ("menqing", "wuhun", "dragon", "seven", "luxury", "gangci", "zhuowu")

SEAT_INPUTS = (
    *doubling.KONG_INPUTS,
    SeatInput("hun", "混儿", "Wild tiles held", 0, 4, 0, "手里的混儿张数（四张混帐外每人付）",
              "Wild tiles in the hand (four are paid by each other player)", on_draw=True,
              counts_wild=0, total_max=4),
    SeatInput("zhahu", "炸胡", "False win", 0, 1, 0, "诈胡（炸胡包庄：给每家付）",
              "Declared a win falsely (pays each other player)", on_draw=True),
)  # fmt: skip
REASONS = {**doubling.REASONS, "four_wilds": ("四张混", "Four wild tiles"),
           "false_win": ("炸胡包庄", "False win")}  # fmt: skip


def _bool(name: str, default: bool, zh: str, en: str, help_zh: str, help_en: str) -> Param:
    return Param(name, "bool", default, zh, en, help_zh, help_en)


class Beijing(Ruleset):
    id = "beijing"
    rating_family = "beijing"  # the league rates its players apart from other rulesets'
    name_zh = "北京麻将"
    name_en = "Beijing"
    table_play = True
    order = 55
    max_wilds = 4  # one 混儿 kind; every reading is scored
    players = (4,)
    _help = doubling.item_help(ITEMS)
    params = (
        *doubling.common_params(1, 2, 4, "independent"),
        *doubling.item_params(ITEMS, BASIC_ON),
        _bool("pure_extra", False, "无混儿再加番", "Pure straight / pairs extra ×2",
              "一条龙、七巧对没有混儿时再多翻一番（默认：只算无混儿那一番）",
              "A pure straight or seven pairs without a wild tile doubles once more "
              "(default: only the no-wild ×2)"),
        _bool("zhuowu_with_wild", False, "混儿捉五", "Closed five with a wild",
              "手里有混儿也算捉五魁", "A closed 5 characters counts with a wild tile in hand"),
        _bool("meld_limit", True, "只许吃碰一口", "One chi or pung",
              "只能吃、碰一口，开一个杠可以再吃碰一口", "One chi or pung; one more per kong"),
        _bool("open_hand_discard_win", False, "吃碰后可点炮胡", "Open hand wins on a discard",
              "默认吃碰后点炮不能胡，只能自摸", "By default after a chi or pung only a self-draw "
              "wins"),
        _bool("three_wilds_self_draw_only", True, "三张混儿只许自摸",
              "Three wilds: self-draw only", "手里有三张混儿只能自摸",
              "With three wild tiles only a self-draw wins"),
        Param("four_wilds_each", "int", 40, "四张混每人付", "Four wilds, each pays",
              "四张混帐外每人付（0：不算）", "Paid by each other player to a holder of four "
              "wild tiles, outside the hand (0: none)", min=0, max=100_000),
        Param("false_win_each", "int", 10, "炸胡每人", "False win, to each",
              "炸胡包庄：给每家付", "A false winner pays this to each other player",
              min=0, max=100_000),
    )  # fmt: skip
    presets = (
        Preset("basic", "基本打法", "Basic", {}),
        Preset("new", "新规打法", "New rules",
               {"pinghu": 5, "exposed_kong": 5, "concealed_kong": 10, "x_wuhun": False,
                "x_dragon": False, "x_luxury": False, "x_zhuowu": False, "x_zimo": True,
                "three_wilds_self_draw_only": False, "four_wilds_each": 0}),
    )  # fmt: skip
    table_spec = TableSpec(
        scoring=Scoring(unit="point", compose="double"),
        tiles=ALL_TILES,
        chi=True,
        prevalent_wind=True,
        wilds=WILDS,
        flags=(
            *doubling.FLAGS,
            WinFlag("discarded_wild", "打过混儿", "Discarded a wild tile"),
        ),  # fmt: skip
        events=(EventKind("win", "胡牌", "Win"), EventKind("draw", "荒庄", "Drawn hand")),
        seat_inputs=SEAT_INPUTS,
        reasons=REASONS,
        meld_labels={"wild": ("混儿", "Wild")},
    )
    _tables: dict[bool, TableSpec] = {}

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """The 混儿 count is asked only where four of them are paid."""
        four = (params or self.defaults).whole("four_wilds_each") > 0
        if four not in self._tables:
            spec = self.table_spec
            if not four:
                spec = replace(spec, seat_inputs=tuple(s for s in SEAT_INPUTS if s.id != "hun"))
            self._tables[four] = spec
        return self._tables[four]

    def seat_inputs_from_hand(self, hand: Hand, params: ParamValues) -> Mapping[str, int]:
        return doubling.hand_kongs(hand)

    def check(self, hand: Hand, params: ParamValues) -> None:
        self.check_wilds(hand)
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")
        claims = sum(1 for m in hand.melds if m.type in ("chi", "pung") or m.added)
        kongs = sum(1 for m in hand.melds if m.type == "kong")
        if params["meld_limit"] and claims > 1 + kongs:
            raise RuleError(
                "illegal_meld",
                f"{claims} chi/pung: one is allowed, one more per kong ({kongs})",
                f"吃碰了 {claims} 口：只许吃碰一口，开一个杠再多一口（现在 {kongs} 个杠）",
            )

    def fan_help(self) -> Mapping[int, FanHelp]:
        return self._help

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult:
        self.check(hand, params)
        if hand.discarded_wild:
            return doubling.no_win("a player who has discarded a wild tile may not win",
                                   "发混儿不许胡：打过混儿不能胡")  # fmt: skip
        opened = any(m.type in ("chi", "pung") or m.added for m in hand.melds)
        if opened and not hand.self_drawn and not params["open_hand_discard_win"]:
            return doubling.no_win("after a chi or pung only a self-draw wins",
                                   "吃碰后点炮不能胡，只能自摸胡")  # fmt: skip
        if hand.wilds >= 3 and not hand.self_drawn and params["three_wilds_self_draw_only"]:
            return doubling.no_win("with three wild tiles only a self-draw wins",
                                   "三张混儿只许自摸")  # fmt: skip
        ds = decompose.decompositions(hand, FORMS)
        if not ds:
            return doubling.no_win("the tiles do not form four sets and a pair, or seven pairs",
                                   "不成胡：要四副加一对将（乱将），或七巧对")  # fmt: skip
        wild = hand.wilds > 0
        only = doubling.only_wait(hand, FORMS) or (wild and params.flag("zhuowu_with_wild"))
        best: tuple[int, list[int], list[tuple[str, str]]] | None = None
        for d in ds:
            c = doubling.Context(hand, d, only, wild)
            fids = doubling.items(c, params)
            rows: list[tuple[str, str]] = []
            pure = not wild and params["pure_extra"]
            if pure and doubling.DRAGON in fids:
                rows.append(("一条龙无混儿加番", "Pure straight without wild ×2"))
            if pure and doubling.SEVEN in fids:
                rows.append(("七巧对无混儿加番", "Seven pairs without wild ×2"))
            k = len(fids) + len(rows)
            if best is None or k > best[0]:
                best = (k, fids, rows)
        assert best is not None
        return doubling.result(hand, best[1], params, len(best[2]), best[2])

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand, params)
        return decompose.waits(hand, FORMS)

    def round_end_payments(
        self, seat_inputs: Mapping[str, list[int]], players: int, dealer: int,
        params: ParamValues,
    ) -> RoundEnd | None:  # fmt: skip
        """四张混帐外每人付40 and 炸胡包庄每人10: outside the hand, win or draw."""
        out: list[tuple[int, int, int, str]] = []
        notes: list[str] = []
        notes_zh: list[str] = []
        four = params.whole("four_wilds_each")
        false = params.whole("false_win_each")
        hun = seat_inputs.get("hun") or [0] * players
        zha = seat_inputs.get("zhahu") or [0] * players
        for s in range(players):
            if four and hun[s] == 4:
                out += [(o, s, four, "four_wilds") for o in range(players) if o != s]
                notes_zh.append(f"{s} 号位四张混：每家付 {four}")
                notes.append(f"seat {s} holds four wild tiles: {four} from each")
            if false and zha[s]:
                out += [(s, o, false, "false_win") for o in range(players) if o != s]
                notes_zh.append(f"{s} 号位炸胡包庄：给每家 {false}")
                notes.append(f"seat {s} declared a false win: {false} to each")
        if not out:
            return None
        return RoundEnd(tuple(out), tuple(notes), tuple(notes_zh))


RULESET = Beijing()
