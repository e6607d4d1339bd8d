"""芜湖麻将 (Wuhu): 八支 to win; 底番 + 支番 + 嘴子 + 杠 from each payer; 全交 for two 嘴.

万筒条 and the four winds, no dragons.  A win needs eight tiles of one suit.
Each payer pays 底番 (平胡 / 押档 / 自摸 / 自摸押档) + 支番 (支 and 押 times N,
rounded half up to tens) + 嘴子 (doubled on 自摸) + the winner's kongs; the
dealer pays or receives one 底番 more.  Two 嘴 (清一色 and 双八支 alone) make
全交, a flat price.  The 30 点, 50 点 一二三四, 2468 and 315 variants are presets
of the same parameters.  docs/rules/wuhu.md has every decision with the seed
sentence it rests on; `hands.py` reads 支, 押 and the 嘴子.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.hand import Hand
from rules.params import Param, ParamValues, int_param
from rules.registry import Preset, Ruleset
from rules.results import Fan, HandResult
from rules.rulesets.wuhu.hands import FORMS, MIN_ZHI, ZUI, contexts, suit_counts, ya, zhi_of, zui
from rules.rulesets.wuhu.help import HELP
from rules.table import SUITED_TILES, EventKind, TableSpec, WinFlag
from rules.tiles import tile_en, tile_zh
from rules.working import item, merged, term

TILES = (*SUITED_TILES, 27, 28, 29, 30)  # "筒、条、万的1至9,另任意四支风"
SUIT_ZH = ("万", "筒", "条")
SUIT_EN = ("Characters", "Dots", "Bamboo")
KINDS = ("pinghu", "yadang", "zimo", "zimo_yadang")
KIND_NAMES = {
    "pinghu": ("平胡", "Plain win"),
    "yadang": ("押档", "Single wait"),
    "zimo": ("自摸", "Self-drawn"),
    "zimo_yadang": ("自摸押档", "Self-drawn single wait"),
}


def rhu(x2: int) -> int:
    """Round half up to tens, in tens: "四舍五入到整十,结果是十的几倍则算为几点"
    (never Python's banker's round: 75 → 80 in the seed's own example)."""
    return (x2 + 5) // 10


class WuhuResult(HandResult, total=False):
    """A 芜湖 win adds its 支 (the longest suit's tiles), 押 (the wait's value, or
    None) and whether it is a 全交 (docs/rules/wuhu.md)."""

    zhi: int
    ya: int | None
    quanjiao: bool


class Wuhu(Ruleset):
    id = "wuhu"
    rating_family = "wuhu"  # the league rates its players apart from other rulesets'
    name_zh = "芜湖麻将"
    name_en = "Wuhu"
    table_play = True
    order = 30
    players = (4,)
    params = (
        int_param("base_pinghu", 1, "平胡底番", "Plain win base", "平胡的底番（胡牌点数）",
                  "The base of a plain win", hi=1000),
        int_param("base_yadang", 2, "押档底番", "Single-wait base", "押档（丫单）的底番",
                  "The base of a win on the only wait", hi=1000),
        int_param("base_zimo", 3, "自摸底番", "Self-drawn base", "自摸的底番",
                  "The base of a self-draw", hi=1000),
        int_param("base_zimo_yadang", 4, "自摸押档底番", "Self-drawn single-wait base",
                  "自摸押档的底番", "The base of a self-drawn win on the only wait", hi=1000),
        int_param("n_discard", 2, "平胡 N", "N (not self-drawn)",
                  "支番 = (支 + 押) × N 四舍五入到整十 ÷ 10；不是自摸时的 N",
                  "支番 = (tiles of the longest suit + the wait's number) × N, rounded half up to "
                  "tens, ÷ 10: N when not self-drawn", lo=1, hi=100),
        int_param("n_self", 4, "自摸 N", "N (self-drawn)", "自摸时的 N（支番翻倍）",
                  "N on a self-draw (the 支番 doubled)", lo=1, hi=100),
        int_param("zui", 2, "嘴子", "Per bonus (zui)", "每个嘴子的番（自摸翻倍）",
                  "What one 嘴子 adds (doubled on a self-draw)", hi=1000),
        int_param("kong_exposed", 1, "明杠", "Exposed kong", "和牌者每个明杠加的番",
                  "Added for each exposed kong of the winner", hi=1000),
        int_param("kong_concealed", 2, "暗杠", "Concealed kong", "和牌者每个暗杠加的番",
                  "Added for each concealed kong of the winner", hi=1000),
        int_param("quanjiao", 30, "全交", "All-in (two bonuses)",
                  "两个嘴子（或清一色、双八支）全交：每家付这么多",
                  "Two 嘴子 (or a full flush, or two suits of eight): each payer pays this",
                  hi=1000),
        int_param("quanjiao_self_drawn", 0, "全交自摸加", "All-in self-drawn extra",
                  "全交并且自摸时每家再加（315：5）", "Added by each payer when an all-in is self-drawn"
                  " (315: 5)", hi=1000),
        Param("discarder_pays_extra", "bool", False, "放炮跟头家走", "Discarder pays as dealer",
              "点炮时放炮的人也像庄家一样多付一份底番（默认一家点炮三家给，只有庄家多付）",
              "On a discard the discarder also pays one base more, as the dealer does "
              "(default: all three pay, only the dealer one base more)"),
        Param("quanjiao_house", "bool", False, "混一色自摸、杠开押档算全交",
              "Half flush self-drawn, kong win on a single wait are all-in",
              "有的场合混一色自摸、杠开丫档也算全交",
              "Some rooms count a self-drawn half flush, or a kong win on the only wait, "
              "as all-in"),
    )  # fmt: skip
    presets = (
        Preset("p30", "30 点", "30 points", {}),
        Preset("p50", "50 点（一二三四）", "50 points (1-2-3-4)",
               {"n_discard": 5, "n_self": 10, "zui": 5, "kong_exposed": 2, "kong_concealed": 4,
                "quanjiao": 50}),
        Preset("p2468", "2468", "2-4-6-8",
               {"base_pinghu": 2, "base_yadang": 4, "base_zimo": 6, "base_zimo_yadang": 8,
                "n_discard": 5, "n_self": 10, "zui": 5, "kong_exposed": 2, "kong_concealed": 4,
                "quanjiao": 50}),
        Preset("p315", "315", "315", {"quanjiao": 15, "quanjiao_self_drawn": 5}),
    )  # fmt: skip
    table_spec = TableSpec(
        tiles=TILES,
        chi=True,
        prevalent_wind=True,
        flags=(WinFlag("after_kong", "杠开", "Win after a kong", when="self_drawn"),),
        events=(EventKind("win", "和牌", "Win"), EventKind("draw", "荒庄", "Drawn game")),
        reasons={"win": ("和牌", "Win")},
    )

    # ------------------------------------------------------------------ hands

    def check(self, hand: Hand) -> None:
        bad = [t for t in range(34) if hand.held[t] and t not in TILES]
        if bad:
            raise RuleError(
                "bad_tile",
                f"芜湖 plays without dragons: {tile_en(bad[0])} is not in the set",
                f"芜湖麻将没有中发白：{tile_zh(bad[0])}不在牌里",
            )
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")
        if hand.wild:
            raise RuleError("bad_input", "芜湖 plays without wild tiles", "芜湖麻将没有癞子")

    def fan_help(self) -> Mapping[int, FanHelp]:
        return HELP

    def score_hand(self, hand: Hand, params: ParamValues) -> WuhuResult:
        self.check(hand)
        sc = suit_counts(hand.held)
        zhi = max(sc)
        suit = sc.index(zhi)
        if zhi < MIN_ZHI:
            return {
                "win": False, "fans": [], "total": 0,
                "notes": [f"a win needs eight tiles of one suit; the longest is {zhi} "
                          f"{SUIT_EN[suit]}"],
                "notes_zh": [f"成牌要同色八支：最多的{SUIT_ZH[suit]}只有 {zhi} 支"],
            }  # fmt: skip
        ctxs = contexts(hand)
        if not ctxs:
            return {
                "win": False, "fans": [], "total": 0,
                "notes": ["the tiles do not form four sets and a pair"],
                "notes_zh": ["这手牌组不成四副面子加一对将"],
            }  # fmt: skip
        best = max((zui(c) for c in ctxs), key=ZUI.total)
        return self._value(hand, params, zhi, suit, best)

    def _value(
        self, hand: Hand, params: ParamValues, zhi: int, suit: int, zuis: Mapping[int, int]
    ) -> WuhuResult:
        p = params
        y = ya(hand)
        kong_melds = [m for m in hand.melds if m.type == "kong"]
        # "杠后开花若是压档算自摸,不是压档不算自摸" (l.217).
        self_drawn = hand.self_drawn and not (hand.after_kong and kong_melds and y is None)
        kind = ("zimo" if self_drawn else "pinghu") if y is None else (
            "zimo_yadang" if self_drawn else "yadang")  # fmt: skip
        base = p.whole(f"base_{kind}")
        n = p.whole("n_self" if self_drawn else "n_discard")
        zhi_fan = rhu((zhi + (y or 0)) * n)
        n_zui = ZUI.total(zuis)
        zui_fan = n_zui * p.whole("zui") * (2 if self_drawn else 1)
        exposed = sum(1 for m in kong_melds if m.exposed)
        concealed = len(kong_melds) - exposed
        kong_fan = exposed * p.whole("kong_exposed") + concealed * p.whole("kong_concealed")
        house = p.flag("quanjiao_house") and (
            (5 in zuis and self_drawn) or (4 in zuis and y is not None)
        )
        quanjiao = n_zui >= 2 or house
        k_zh, k_en = KIND_NAMES[kind]
        rows: list[Fan] = []
        notes: list[str] = []
        notes_zh: list[str] = []
        ya_zh = f" + 押 {y}" if y else ""
        ya_en = f" + wait {y}" if y else ""
        if quanjiao:
            total = p.whole("quanjiao") + (p.whole("quanjiao_self_drawn") if self_drawn else 0)
            rows.append(self._row(20, "全交", "All-in", total))
            names_zh = "、".join(ZUI[f].zh for f in zuis) or "混一色自摸 / 杠开押档"
            names_en = ", ".join(ZUI[f].en for f in zuis) or "house all-in"
            notes_zh.append(f"全交（{names_zh}）：每家 {total}")
            notes.append(f"All-in ({names_en}): {total} from each payer")
        else:
            rows.append(self._row(10, k_zh, k_en, base))
            rows.append(self._row(11, "支番", "Suit tiles", zhi_fan))
            for f, count in zuis.items():
                rows.append({**self._row(f, ZUI[f].zh, ZUI[f].en, p.whole("zui") *
                                         (2 if self_drawn else 1)), "count": count})  # fmt: skip
            if exposed:
                rows.append({**self._row(12, "明杠", "Exposed kong", p.whole("kong_exposed")),
                             "count": exposed})  # fmt: skip
            if concealed:
                rows.append({**self._row(13, "暗杠", "Concealed kong",
                                         p.whole("kong_concealed")), "count": concealed})  # fmt: skip
            total = base + zhi_fan + zui_fan + kong_fan
            x = (zhi + (y or 0)) * n
            notes_zh.append(f"{k_zh}：底番 {base}")
            notes.append(f"{k_en}: base {base}")
            notes_zh.append(f"支番：({SUIT_ZH[suit]} {zhi} 支{ya_zh}) × {n} = {x} → "
                            f"{rhu(x) * 10} → {zhi_fan}")  # fmt: skip
            notes.append(f"suit tiles: ({zhi} {SUIT_EN[suit]}{ya_en}) × {n} = {x} → "
                         f"{rhu(x) * 10} → {zhi_fan}")  # fmt: skip
            if n_zui:
                notes_zh.append(f"嘴子 {n_zui} 个 × {p.whole('zui')}" +
                                ("，自摸翻倍" if self_drawn else "") + f" = {zui_fan}")  # fmt: skip
                notes.append(f"{n_zui} bonus (zui) × {p.whole('zui')}" +
                             (", doubled on a self-draw" if self_drawn else "") + f" = {zui_fan}")  # fmt: skip
            if kong_fan:
                notes_zh.append(f"杠：{kong_fan}")
                notes.append(f"kongs: {kong_fan}")
            notes_zh.append(f"每家 {total}")
            notes.append(f"{total} from each payer")
        if hand.self_drawn and not self_drawn:
            notes_zh.append("杠开不是押档：不算自摸")
            notes.append("a kong win not on the only wait is not scored as self-drawn")
        out: WuhuResult = {"win": True, "fans": rows, "total": total, "zhi": zhi,
                               "ya": y, "quanjiao": quanjiao,
                               "notes": notes, "notes_zh": notes_zh}  # fmt: skip
        if hand.after_kong and hand.self_drawn and not kong_melds:
            out["flags_dropped"] = [{"flag": "after_kong",
                                     "reason": "the hand shows no kong: not a win after a kong",
                                     "reason_zh": "手里没有杠：不算杠开"}]  # fmt: skip
        t = hand.table
        if t is not None:
            if t.winner is None:
                raise RuleError(
                    "bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner"
                )
            extra = 0 if quanjiao else base
            pays = self.win_payments(total, extra, t.players, t.dealer, t.winner, t.discarder,
                                     hand.self_drawn, params)  # fmt: skip
            deltas = [0] * t.players
            for payer, amount in pays:
                deltas[payer] -= amount
                deltas[t.winner] += amount
            out["payments"] = [{"from": s, "to": t.winner, "amount": a} for s, a in pays]
            out["deltas"] = deltas
            # Each payer's working: the hand's 番, one 底番 more where it is owed.
            out["terms"] = merged([term([s], t.winner, a, base=item(total, unit=("番", "fans")),
                                 additions=[item(a - total, name=("底番", "base"))]
                                 if a != total else [])
                            for s, a in pays])  # fmt: skip
            if extra:
                more = [s for s, a in pays if a > total]
                if more:
                    notes_zh.append("、".join(f"{s} 号位" for s in more) + f"多付底番 {extra}")
                    notes.append(", ".join(f"seat {s}" for s in more) + f" pay{'s' if len(more) == 1 else ''} one base more: {extra}")  # fmt: skip
        return out

    @staticmethod
    def _row(fid: int, zh: str, en: str, points: int) -> Fan:
        return {"id": fid, "name_zh": zh, "name_en": en, "points": points, "count": 1}

    @staticmethod
    def win_payments(
        total: int, extra: int, players: int, dealer: int, winner: int, discarder: int | None,
        self_drawn: bool, params: ParamValues,
    ) -> list[tuple[int, int]]:  # fmt: skip
        """Every other player pays ("一家点炮三家给", l.24); one 底番 more from the
        dealer, or from everyone when the dealer wins ("若是庄家和牌,则每人还得多赔一份
        底番给庄家", l.211); with 放炮跟头家走 the discarder pays it too."""
        if not self_drawn and discarder is None:
            raise RuleError(
                "bad_table", "a win on a discard needs the discarder", "点炮和牌需要放炮者"
            )
        out = []
        for s in range(players):
            if s == winner:
                continue
            more = dealer in (s, winner) or (params.flag("discarder_pays_extra") and s == discarder)
            out.append((s, total + (extra if more else 0)))
        return out

    def wait_tiles(self, hand: Hand, params: ParamValues) -> list[int]:
        self.check(hand)
        return [t for t in decompose.waits(hand, FORMS) if t in TILES]

    def hand_hint(
        self, concealed: Sequence[int], melds: Sequence[tuple[str, int]], win_tile: int | None,
        wild: Sequence[int], params: ParamValues,
    ) -> tuple[str, str] | None:  # fmt: skip
        """ "万 9 支" as the tiles are tapped, and the 押 once the winning tile fills the
        only wait: the two numbers the table counts on its fingers."""
        tiles = list(concealed) + ([win_tile] if win_tile is not None else [])
        for mtype, low in melds:
            if mtype == "chi":
                tiles += [low, low + 1, low + 2]
            else:
                tiles += [low] * (3 if mtype == "pung" else 4)
        if not tiles:
            return None
        zhi, suit = zhi_of(tiles)
        zh = f"{SUIT_ZH[suit]} {zhi} 支"
        en = f"{zhi} {SUIT_EN[suit]}"
        if zhi < MIN_ZHI:
            zh += f"（成牌要 {MIN_ZHI} 支）"
            en += f" (a win needs {MIN_ZHI})"
        if win_tile is not None and len(concealed) + 1 + 3 * len(melds) == 14:
            y = self._hint_ya(concealed, melds, win_tile)
            if y is not None:
                zh += f" · 押 {y}"
                en += f" · wait {y}"
        return zh, en

    @staticmethod
    def _hint_ya(
        concealed: Sequence[int], melds: Sequence[tuple[str, int]], win_tile: int
    ) -> int | None:
        from rules.hand import parse_situation
        from rules.tiles import tile_str, tiles_str

        kinds = {"chi": "chi", "pung": "pung", "kong": "kong", "concealed_kong": "kong",
                 "added_kong": "kong"}  # fmt: skip
        ms = []
        for mtype, low in melds:
            n = 3 if mtype in ("chi", "pung") else 4
            tiles = [low, low + 1, low + 2] if mtype == "chi" else [low] * n
            m: dict[str, Any] = {"type": kinds[mtype], "tiles": tiles_str(tiles)}
            if mtype == "concealed_kong":
                m["exposed"] = False
            ms.append(m)
        try:
            hand = parse_situation({"concealed": tiles_str(concealed), "melds": ms,
                                    "win_tile": tile_str(win_tile)})  # fmt: skip
        except RuleError:
            return None
        return ya(hand)


RULESET = Wuhu()
