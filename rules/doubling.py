"""The "flat value × 2 per item" card of many house rules (翻番).

A win is worth a flat value P; each ×2 item the hand has doubles it, and a
payment between the dealer and another player doubles once more
("是莊者翻番").  Who pays a discard win, and how kongs are paid, differ from
room to room, so both are parameters.  The items are one `FanTable` of small
pure functions of one frozen context; a ruleset offers those its card lists
(a bool parameter `x_<name>` each) and reads the hand into a `Context`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules import decompose
from rules.errors import RuleError
from rules.fan_help import FanHelp
from rules.fans import FanDef, FanTable
from rules.hand import Hand
from rules.params import Param, ParamValues
from rules.registry import Ruleset
from rules.results import Fan, HandResult
from rules.shapes import Decomposition
from rules.table import SeatInput, TableSpec, WinFlag
from rules.working import Term, item, merged, term


@dataclass(frozen=True)
class Context:
    """One reading of a winning hand, as the ×2 items see it."""

    hand: Hand
    d: Decomposition
    only_wait: bool  # the winning tile was the hand's only wait (natural tiles)
    uses_wild: bool  # a wild tile is among the winner's tiles


def _closed(c: Context) -> bool:
    return not any(m.exposed for m in c.hand.melds)


def _chows(c: Context) -> list[int]:
    out = [g.tile for g in c.d.groups if g.kind == "chow"]
    return out + [m.tiles[0] for m in c.hand.melds if m.type == "chi"]


def _dragon(c: Context) -> bool:
    lows = set(_chows(c))
    return any({s, s + 3, s + 6} <= lows for s in (0, 9, 18))


def _seven(c: Context) -> bool:
    return c.d.form == "seven_pairs"


def _luxury(c: Context) -> bool:
    tiles = [g.tile for g in c.d.groups]
    return _seven(c) and len(set(tiles)) < len(tiles)


def _wait_role(c: Context) -> str | None:
    """How the winning tile completes this reading: edge, closed, pair, or None."""
    w = c.hand.win_tile
    if w is None or c.d.form != "standard":
        return None
    for g in c.d.groups:
        if g.kind == "pair" and g.tile == w:
            return "pair"
    for s in (g.tile for g in c.d.groups if g.kind == "chow"):
        if s + 1 == w:
            return "closed"
        if (s == w and s % 9 == 6) or (s + 2 == w and s % 9 == 0):
            return "edge"
    return None


FIVE_MAN = 4
MENQING, WUHUN, DRAGON, SEVEN, LUXURY, GANGCI, ZHUOWU, ZIMO, BIANKANDIAO = range(1, 10)
ITEMS = FanTable(
    (
        FanDef(MENQING, "门前清", "Concealed hand", 1, rule_zh="没有吃、碰、明杠（暗杠可以）",
               rule_en="no chi, pung or exposed kong (concealed kongs allowed)",
               when=lambda c: int(_closed(c))),
        FanDef(WUHUN, "无混儿", "No wild tile", 1, rule_zh="胡牌时手里没有混儿",
               rule_en="no wild tile among the winner's tiles",
               when=lambda c: int(not c.uses_wild)),
        FanDef(DRAGON, "一条龙", "Pure straight", 1, rule_zh="同一门 123、456、789",
               rule_en="123, 456 and 789 of one suit", when=lambda c: int(_dragon(c))),
        FanDef(SEVEN, "七巧对", "Seven pairs", 1, rule_zh="七个对子，门前清",
               rule_en="seven pairs, concealed", when=lambda c: int(_seven(c))),
        FanDef(LUXURY, "豪华", "Luxury seven pairs", 1, rule_zh="七巧对里有四张一样的",
               rule_en="seven pairs with four alike", when=lambda c: int(_luxury(c))),
        FanDef(GANGCI, "杠呲", "Win after a kong", 1, rule_zh="杠后补牌自摸（杠上开花）",
               rule_en="self-drawn on a kong's replacement tile",
               when=lambda c: int(c.hand.self_drawn and c.hand.after_kong)),
        FanDef(ZHUOWU, "捉五魁", "Closed five of characters", 1,
               rule_zh="只听夹张五万（四万、六万中间）", rule_en="won on 5 characters, the only "
               "wait, between 4 and 6", when=lambda c: int(
                   c.hand.win_tile == FIVE_MAN and _wait_role(c) == "closed"
                   and c.only_wait)),
        FanDef(ZIMO, "明自摸", "Self-drawn", 1, rule_zh="自摸胡牌", rule_en="a self-drawn win",
               when=lambda c: int(c.hand.self_drawn)),
        FanDef(BIANKANDIAO, "边砍吊自摸", "Edge, closed or single wait, self-drawn", 1,
               rule_zh="只听一张（边张、坎张、单钓将）并且自摸",
               rule_en="the only wait was an edge, closed or pair wait, and self-drawn",
               when=lambda c: int(c.hand.self_drawn and c.only_wait
                                  and _wait_role(c) is not None)),
    )
)  # fmt: skip
# Each ×2 item explained (rules/fan_help.py): an example hand the card counts it on
# (the item switched on, `x_<name>`), and the names players use.
_PLAIN = "123m456p789s234s5m +5m"
_EXAMPLES: dict[int, tuple[str, dict[str, object], tuple[str, ...]]] = {
    MENQING: (_PLAIN, {}, ("门清", "门前清")),
    WUHUN: (_PLAIN, {}, ("素胡", "没混")),
    DRAGON: ("123m456m789m234p5s +5s", {}, ("清龙", "龙")),
    SEVEN: ("1133m5577p2288s1z +1z", {}, ("七对", "七小对", "七对子", "qdd")),
    LUXURY: ("1111m3355p7799s2p +2p", {}, ("豪华七对", "龙七对")),
    GANGCI: ("234m567m678p5s [9999s] +5s", {"self_drawn": True, "after_kong": True},
             ("杠上开花", "杠开", "杠上花")),
    ZHUOWU: ("46m123p456p789s55s +5m", {}, ("捉五", "夹五万")),
    ZIMO: (_PLAIN, {"self_drawn": True}, ("自摸", "self drawn")),
    BIANKANDIAO: ("12m456p789s234s55m +3m", {"self_drawn": True}, ("边张自摸", "卡张自摸", "单钓自摸")),
}  # fmt: skip
NAMES = {
    MENQING: "menqing", WUHUN: "wuhun", DRAGON: "dragon", SEVEN: "seven", LUXURY: "luxury",
    GANGCI: "gangci", ZHUOWU: "zhuowu", ZIMO: "zimo", BIANKANDIAO: "biankandiao",
}  # fmt: skip


def item_help(names: Sequence[str]) -> dict[int, FanHelp]:
    """The help of the items a card lists (by their names), each example with its
    item switched on."""
    by = {v: k for k, v in NAMES.items()}
    out = {}
    for n in names:
        fid = by[n]
        example, situation, aliases = _EXAMPLES[fid]
        out[fid] = FanHelp(example, situation, ITEMS[fid].rule_zh, ITEMS[fid].rule_en, aliases,
                           {f"x_{n}": True})  # fmt: skip
    return out


def item_params(names: Sequence[str], on: Sequence[str]) -> tuple[Param, ...]:
    """One bool parameter per item the card may list; `on` are those its default lists."""
    by = {v: k for k, v in NAMES.items()}
    return tuple(
        Param(f"x_{n}", "bool", n in on, f"{ITEMS[by[n]].zh}翻番", f"{ITEMS[by[n]].en} ×2",
              ITEMS[by[n]].rule_zh, ITEMS[by[n]].rule_en)
        for n in names
    )  # fmt: skip


def items(c: Context, params: ParamValues) -> list[int]:
    """The ×2 items of this reading that the table's card counts."""
    out = []
    for fid, name in NAMES.items():
        if params.get(f"x_{name}") and (ITEMS[fid].when or (lambda _: 0))(c):
            out.append(fid)
    return out


def only_wait(hand: Hand, forms: decompose.Forms) -> bool:
    """Whether the hand without its winning tile waited on that one kind alone."""
    w = hand.win_tile
    if w is None:
        return False
    counts = bytearray(hand.counts)
    if counts[w]:
        counts[w] -= 1
        wilds = hand.wilds
    else:
        wilds = hand.wilds - 1
    held = bytearray(hand.held)
    held[w] -= 1
    caps = tuple(4 - m for m in hand.meld_counts) if hand.melds else None
    waits = decompose.waits_counts(
        bytes(counts), wilds, bytes(held), frozenset(), len(hand.melds), forms, caps
    )
    return waits == [w]


PAYERS = ("discarder", "discarder_all", "all")
PAYER_LABELS = (
    ("点炮的一家给一份", "The discarder pays one share"),
    ("点炮的包三家", "The discarder pays for all three"),
    ("三家都给", "All three pay"),
)
KONG_RULES = ("independent", "with_win")
KONG_LABELS = (
    ("各杠各收：每家给杠的人", "Each kong paid by each other player"),
    ("杠随胡：只算胡牌人的杠，由给胡钱的人付", "Only the winner's kongs, paid by the win's payers"),
)


def common_params(p: int, exposed: int, concealed: int, kongs: str) -> tuple[Param, ...]:
    return (
        Param("pinghu", "int", p, "平胡", "Plain win", "平胡的分（每个翻番 ×2）",
              "What a plain win is worth (each ×2 item doubles it)", min=1, max=100_000),
        Param("exposed_kong", "int", exposed, "明杠", "Exposed kong", "每个明杠的分",
              "What an exposed kong is worth", min=0, max=100_000),
        Param("concealed_kong", "int", concealed, "暗杠", "Concealed kong", "每个暗杠的分",
              "What a concealed kong is worth", min=0, max=100_000),
        Param("dealer_double", "bool", True, "是庄者翻番", "Dealer ×2",
              "庄家赢或输的那一份 ×2", "A payment between the dealer and another player ×2"),
        Param("discard_payer", "choice", "discarder", "点炮谁给", "Who pays a discard win",
              "谁点炮谁给钱，或点炮包三家，或三家都给", "The discarder alone, the discarder "
              "for all three, or all three", choices=PAYERS, choice_labels=PAYER_LABELS),
        Param("kong_settlement", "choice", kongs, "杠钱", "Kong money",
              "杠怎么算钱（荒庄不算杠）", "How kongs are paid (nothing on a drawn hand)",
              choices=KONG_RULES, choice_labels=KONG_LABELS),
    )  # fmt: skip


def kong_table(spec: TableSpec, params: ParamValues, cache: dict[str, TableSpec]) -> TableSpec:
    """The table with every player's kongs asked where each is paid (`independent`),
    and not under 杠随胡 (`with_win`: only the winner's count, read from his hand)."""
    rule = params.choice("kong_settlement")
    if rule not in cache:
        inputs = KONG_INPUTS if rule == "independent" else ()
        cache[rule] = replace(spec, seat_inputs=inputs)
    return cache[rule]


class Card(Ruleset):
    """A table that plays the ×2 card without wild tiles (河北, 山东): kongs asked by
    `kong_table`, no flowers, no wild tile, 吃 only where the table allows it."""

    table_play = True
    players = (4,)
    _tables: ClassVar[dict[str, TableSpec]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._tables = {}

    def table(self, params: ParamValues | None = None) -> TableSpec:
        """Kongs of the others are asked only where they are paid (not under 杠随胡)."""
        return kong_table(self.table_spec, params or self.defaults, self._tables)

    def seat_inputs_from_hand(self, hand: Hand, params: ParamValues) -> Mapping[str, int]:
        return hand_kongs(hand)

    def check(self, hand: Hand) -> None:
        if hand.flowers:
            raise RuleError("bad_input", "this table plays without flowers", "这桌不打花牌")
        if hand.wild:
            raise RuleError("bad_input", f"{self.name_en} plays without wild tiles",
                            f"{self.name_zh}不挂混儿")  # fmt: skip
        if not self.table_spec.chi and any(m.type == "chi" for m in hand.melds):
            raise RuleError("illegal_meld", "no chi at this table (pung only)",
                            "这桌许碰不许吃")  # fmt: skip


KONG_INPUTS = (
    SeatInput("ming_gang", "明杠", "Exposed kongs", 0, 4, 0, "这一局的明杠", "Exposed kongs "
              "this hand", winner_from_hand=True),
    SeatInput("an_gang", "暗杠", "Concealed kongs", 0, 4, 0, "这一局的暗杠", "Concealed kongs "
              "this hand", winner_from_hand=True),
)  # fmt: skip


ZFB = (31, 32, 33)  # 白发中, one of each
PEACOCK = (18, 27, 28)  # 孔雀 (1条) + 东 + 南: "孔雀東南飛"
SPECIAL_SETS = {"none": (), "zfb": (ZFB,), "peacock": (PEACOCK,), "both": (ZFB, PEACOCK)}
SPECIAL_LABELS = (("不带", "None"), ("中发白", "中发白"), ("孔雀东南飞", "1条 + 东 + 南"),
                  ("都带", "Both"))  # fmt: skip
FLAGS = (WinFlag("after_kong", "杠呲", "Win after a kong", when="self_drawn"),)
REASONS = {"win": ("胡牌", "Win"), "kong": ("杠", "Kong")}


def special_param(default: str = "none") -> Param:
    return Param("special_sets", "choice", default, "一趟副", "Special sets",
                 "中发白（各一张）、孔雀东南飞（一条、东、南）可以当一副，只能在手里",
                 "中发白 (one of each) and 1条 + 东 + 南 may count as a set, concealed only",
                 choices=tuple(SPECIAL_SETS), choice_labels=SPECIAL_LABELS)  # fmt: skip


@dataclass(frozen=True)
class Settled:
    payments: list[tuple[int, int, int, str]]  # (from, to, amount, reason)
    notes: list[str]
    notes_zh: list[str]
    share: int  # P × 2^k, before the dealer's ×2
    working: list[str]  # how the win's amounts came where they differ from the share
    working_zh: list[str]
    terms: list[Term]  # the same, as numbers per payer (rules/working.py)


def settle(hand: Hand, fids: Sequence[int], params: ParamValues, extra: int = 0) -> Settled:
    """The money of one win: P × 2^k (+ `extra` doublings) per payer, ×2 between
    the dealer and another, kongs by the table's rule.  Ledgers sum to zero."""
    t = hand.table
    if t is None or t.winner is None:
        raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
    winner, dealer, players = t.winner, t.dealer, t.players
    if not hand.self_drawn and t.discarder is None:
        raise RuleError("bad_table", "a win on a discard needs the discarder", "点炮和牌需要放炮者")
    share = params.whole("pinghu") * 2 ** (len(fids) + extra)
    dd = params.flag("dealer_double")
    others = [s for s in range(players) if s != winner]

    def amount(s: int) -> int:
        return share * (2 if dd and dealer in (s, winner) else 1)

    rule = params["discard_payer"]
    pays: list[tuple[int, int, int, str]] = []
    notes: list[str] = []
    notes_zh: list[str] = []
    if hand.self_drawn or rule == "all":
        for s in others:
            pays.append((s, winner, amount(s), "win"))
        payers = others
    elif rule == "discarder_all":
        assert t.discarder is not None
        pays.append((t.discarder, winner, sum(amount(s) for s in others), "win"))
        payers = [t.discarder] * len(others)
    else:
        assert t.discarder is not None
        pays.append((t.discarder, winner, amount(t.discarder), "win"))
        payers = [t.discarder]
    working: list[str] = []
    working_zh: list[str] = []
    if rule == "discarder_all" and not hand.self_drawn:
        parts = [f"{share} × 2" if amount(s) != share else f"{share}" for s in others]
        working_zh.append(f"{t.discarder} 号位包三家：{' + '.join(parts)} = {pays[0][2]}")
        working.append(f"seat {t.discarder} pays for all three: {' + '.join(parts)} = {pays[0][2]}")
    for s, _, a, _ in pays:
        if a != share and dd and not (rule == "discarder_all" and not hand.self_drawn):
            working_zh.append(f"{s} 号位：{share} × 2（庄家翻番）= {a}")
            working.append(f"seat {s}: {share} × 2 (dealer) = {a}")
    notes_zh[:0] = working_zh
    notes[:0] = working
    k = len(fids) + extra
    terms = _win_terms(
        pays,
        share,
        k,
        params,
        {s: amount(s) for s in others},
        rule == "discarder_all" and not hand.self_drawn,
    )
    kongs = _kong_counts(hand, players, winner)
    xv, cv = params.whole("exposed_kong"), params.whole("concealed_kong")
    if params["kong_settlement"] == "with_win":
        value = kongs[winner][0] * xv + kongs[winner][1] * cv
        if value:
            for s in payers:
                pays.append((s, winner, value, "kong"))
            # (payers repeats the discarder who pays for all three: one term each time)
            terms += [_kong_term([s], winner, kongs[winner], xv, cv) for s in payers]
            notes_zh.append(f"杠随胡：每个给钱的人再付杠钱 {value}")
            notes.append(f"kongs follow the win: each payer adds {value}")
    else:
        for owner in range(players):
            value = kongs[owner][0] * xv + kongs[owner][1] * cv
            if value:
                for s in range(players):
                    if s != owner:
                        pays.append((s, owner, value, "kong"))
                terms.append(_kong_term([s for s in range(players) if s != owner], owner,
                                        kongs[owner], xv, cv))  # fmt: skip
                notes_zh.append(f"{owner} 号位的杠：每家付 {value}")
                notes.append(f"seat {owner}'s kongs: {value} from each")
    return Settled([p for p in pays if p[2]], notes, notes_zh, share, working, working_zh, terms)


def _win_terms(
    pays: Sequence[tuple[int, int, int, str]], share: int, k: int, params: ParamValues,
    each: Mapping[int, int], for_all: bool,
) -> list[Term]:  # fmt: skip
    """The win's working per payer: 平胡 P × 2^k, × 2 between the dealer and another;
    a discarder who pays for all three (`for_all`) adds the three's amounts (`each`)."""
    if for_all:
        frm, to, a, _ = pays[0]
        return [term([frm], to, a, additions=[item(v, name=(f"{s} 号位", f"seat {s}"))
                                              for s, v in each.items()],
                     note=("包三家", "pays for all three"))]  # fmt: skip
    flat = item(params.whole("pinghu"), name=("平胡", "plain win"))
    ups = [item(2)] * k  # ×2 per item, as the card counts
    dealer = item(2, name=("庄家", "dealer"))
    return [term([frm], to, a, base=flat, factors=[*ups, dealer] if a != share else ups)
            for frm, to, a, _ in pays]  # fmt: skip


def _kong_term(payers: list[int], owner: int, counts: tuple[int, int], xv: int, cv: int) -> Term:
    """A kong's money as each payer pays it: 明杠 n × value + 暗杠 n × value."""
    ming, an = counts
    adds = [item(xv * ming, name=("明杠", "exposed kongs")) if ming else None,
            item(cv * an, name=("暗杠", "concealed kongs")) if an else None]  # fmt: skip
    return term(payers, owner, xv * ming + cv * an, additions=[a for a in adds if a], reason="kong")


def _kong_counts(hand: Hand, players: int, winner: int) -> list[tuple[int, int]]:
    raw = hand.extra.get("seat_inputs") or {}
    ming = raw.get("ming_gang") or [0] * players
    an = raw.get("an_gang") or [0] * players
    out = [(int(ming[s]), int(an[s])) for s in range(players)]
    mine = hand_kongs(hand)
    out[winner] = (mine["ming_gang"], mine["an_gang"])
    if sum(a + b for a, b in out) > 4 * 4:
        raise RuleError("bad_input", "more kongs than the tiles allow", "杠的数目超过了牌数")
    return out


def hand_kongs(hand: Hand) -> dict[str, int]:
    """The winner's exposed and concealed kongs, as KONG_INPUTS name them: his melds."""
    kongs = [m for m in hand.melds if m.type == "kong"]
    return {"ming_gang": sum(1 for m in kongs if m.exposed),
            "an_gang": sum(1 for m in kongs if not m.exposed)}  # fmt: skip


def result(
    hand: Hand, fids: Sequence[int], params: ParamValues, extra: int = 0,
    extra_rows: Sequence[tuple[str, str]] = (),
) -> HandResult:  # fmt: skip
    """The contract's result of a win: the ×2 items as fans, the share, and with a
    table the payments and deltas."""
    rows: list[Fan] = [
        {"id": f, "name_zh": ITEMS[f].zh, "name_en": ITEMS[f].en, "points": 2, "count": 1}
        for f in fids
    ]
    for i, (zh, en) in enumerate(extra_rows):
        rows.append({"id": 100 + i, "name_zh": zh, "name_en": en, "points": 2, "count": 1})
    k = len(fids) + extra
    share = params.whole("pinghu") * 2**k
    words_zh = "".join(" × 2" for _ in range(k))
    out: HandResult = {
        "win": True, "fans": rows, "total": share, "doublings": k,
        # The working as the card counts it: the flat value, ×2 per item.
        "working_zh": [f"平胡 {params['pinghu']}{words_zh}" + (f" = {share}" if k else "")],
        "working": [f"plain win {params['pinghu']}{words_zh}" + (f" = {share}" if k else "")],
        "notes_zh": [f"平胡 {params['pinghu']}{words_zh} = {share}"
                     + (f"（{'、'.join(r['name_zh'] for r in rows)}）" if rows else "")],
        "notes": [f"plain win {params['pinghu']}{words_zh} = {share}"
                  + (f" ({', '.join(r['name_en'] for r in rows)})" if rows else "")],
    }  # fmt: skip
    if hand.table is not None:
        s = settle(hand, fids, params, extra)
        deltas = [0] * hand.table.players
        for frm, to, a, _ in s.payments:
            deltas[frm] -= a
            deltas[to] += a
        out["payments"] = [{"from": f, "to": t, "amount": a, "reason": r}
                           for f, t, a, r in s.payments]  # fmt: skip
        out["deltas"] = deltas
        out["notes"] += s.notes
        out["notes_zh"] += s.notes_zh
        out["working"] += s.working
        out["working_zh"] += s.working_zh
        out["terms"] = merged(s.terms)
    return out


def no_win(en: str, zh: str) -> HandResult:
    return {"win": False, "fans": [], "total": 0, "notes": [en], "notes_zh": [zh]}
