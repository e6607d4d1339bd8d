"""武汉 红中癞子杠: which hands win, as 小胡 or as which 大胡, 硬 or 软.

The 癞子 comes from the decomposition layer like every wild tile (it never
stands for 红中); each reading of the tiles says its 大胡, whether it is a 小胡,
and whether it is 硬胡 (no 癞子 standing for another tile).  风一色 and 将一色
need no shape ("亂風亂將").  The payer side is in `payments.py`.
docs/rules/wuhan.md has each decision with the seed sentence it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import decompose
from rules.decompose import Forms
from rules.fans import FanDef, FanTable
from rules.hand import Hand, Meld

FORMS = Forms(seven_pairs=False)  # "武漢麻將沒有7對子和門前清"
RED = 33  # 红中
FENG_TILES = frozenset(range(27, 33))  # 風牌: 东南西北 and 白发 ("風牌包括發白")
JIANG = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))  # 2, 5, 8 of any suit

# The hand types: 小胡 base 1, each 大胡 base 10, added ("大胡可累計").
SMALL = 0
PENGPENG, QQR, QINGYISE, JIANGYISE, FENGYISE, HAIDI, GANGKAI, QIANGGANG = range(1, 9)
TYPES = FanTable(
    (
        FanDef(SMALL, "小胡", "Small win", 1, rule_zh="屁胡：2、5、8 作将", rule_en="a plain win "
               "with a 2, 5 or 8 pair", group="small"),
        FanDef(PENGPENG, "碰碰胡", "All pungs", 10, rule_zh="除将外都是刻子，任意将",
               rule_en="pungs and a pair, any pair", group="big"),
        FanDef(QQR, "全求人", "All melded", 10, rule_zh="吃碰明杠四次，手上留一张，点炮和",
               rule_en="four openings, one tile left, won on a discard", group="big"),
        FanDef(QINGYISE, "清一色", "Full flush", 10, rule_zh="全是一门花色，任意将",
               rule_en="one suit only, any pair", group="big"),
        FanDef(JIANGYISE, "将一色", "All 2-5-8", 10, rule_zh="全是 2、5、8（乱将，不要牌型）",
               rule_en="only 2, 5 and 8 tiles, no shape needed", group="big"),
        FanDef(FENGYISE, "风一色", "All winds", 10, rule_zh="全是风牌（东南西北发白，乱风）",
               rule_en="only winds and 发 白, no shape needed", group="big"),
        FanDef(HAIDI, "海底捞", "Last tiles", 10, rule_zh="摸最后四张时自摸",
               rule_en="self-drawn among the last four tiles", group="big"),
        FanDef(GANGKAI, "杠上花", "Win after a kong", 10,
               rule_zh="杠（含红中杠、癞子杠）后补牌自摸", rule_en="self-drawn on a replacement "
               "after any kong, 红中 and 癞子 kongs included", group="big"),
        FanDef(QIANGGANG, "抢杠", "Robbing a kong", 10, rule_zh="抢别人蓄杠的牌和",
               rule_en="won on the tile of another player's added kong", group="big"),
    )
)  # fmt: skip
EXEMPT_258 = frozenset({PENGPENG, QINGYISE, JIANGYISE, FENGYISE})


@dataclass(frozen=True)
class Reading:
    """One way the tiles win: the 大胡 (empty for a 小胡) and 硬胡 or not."""

    big: tuple[int, ...]
    hard: bool
    wild_as: tuple[int, ...] = ()

    @property
    def small(self) -> bool:
        return not self.big


def is_opening(m: Meld, chong_gang: bool = True) -> bool:
    """吃, 碰 and 冲杠 open a hand; a 蓄杠 was opened by its 碰; 暗杠 is no opening."""
    if m.type in ("chi", "pung"):
        return True
    return m.type == "kong" and m.exposed and (m.added or chong_gang)


def openings(hand: Hand, chong_gang: bool = True) -> list[Meld]:
    return [m for m in hand.melds if is_opening(m, chong_gang)]


def _tiles(hand: Hand) -> list[int]:
    """Every natural tile of the hand, melds counted as three (the 癞子 left out)."""
    out = [t for t in (*hand.concealed, hand.win_tile) if t is not None and t not in hand.wild]
    for m in hand.melds:
        out += list(m.tiles[:3])
    return out


def readings(hand: Hand, params: Any) -> tuple[list[Reading], str, str]:
    """Every winning reading, and (why not, 为什么不能和) when there is none."""
    naturals = _tiles(hand)
    wild = hand.wild
    n_wild = hand.wilds
    self_drawn = hand.self_drawn
    situational = []
    if self_drawn and hand.last_tile:
        situational.append(HAIDI)
    if self_drawn and hand.after_kong:
        situational.append(GANGKAI)
    if not self_drawn and hand.robbing_kong:
        situational.append(QIANGGANG)
    out: list[Reading] = []
    # 风一色 / 将一色: any tiles of the kind, no shape; the 癞子 may stand for one.
    for kind, group in ((FENGYISE, FENG_TILES), (JIANGYISE, JIANG)):
        if naturals and all(t in group for t in naturals):
            hard = not n_wild or all(w in group for w in wild)
            out.append(Reading(tuple(sorted({kind, *situational})), hard))
    n_open = len(openings(hand, params.flag("chong_gang_is_opening")))
    qqr = (
        n_open == 4 and len(hand.melds) == 4 and (not self_drawn or not params["qqr_discard_only"])
    )
    for d in decompose.decompositions(hand, FORMS):
        if RED in d.wild_as:
            continue  # a 癞子 never stands for 红中
        pair = next(g.tile for g in d.groups if g.kind == "pair")
        chows = any(g.kind == "chow" for g in d.groups) or any(m.type == "chi" for m in hand.melds)
        tiles = naturals + list(d.wild_as)
        big = set(situational)
        if not chows:
            big.add(PENGPENG)
        if tiles and all(t < 27 for t in tiles) and len({t // 9 for t in tiles}) == 1:
            big.add(QINGYISE)
        if all(t in FENG_TILES for t in tiles):
            big.add(FENGYISE)
        if all(t in JIANG for t in tiles):
            big.add(JIANGYISE)
        if qqr:
            big.add(QQR)
        pair_ok = pair in JIANG
        exempt = bool(big & EXEMPT_258)
        if QQR in big and not pair_ok and not exempt and params["qqr_needs_258"]:
            big.discard(QQR)
        hard = all(t in wild for t in d.wild_as)
        if big and (pair_ok or exempt):
            out.append(Reading(tuple(sorted(big)), hard, d.wild_as))
        elif not big and pair_ok:
            if n_wild >= 2 and params["two_laizi_bar_small"]:
                continue
            out.append(Reading((), hard, d.wild_as))
    if out:
        return out, "", ""
    if n_wild >= 2 and params["two_laizi_bar_small"]:
        return [], "with two 癞子 only a big win (大胡) wins", "有两个癞子不能胡小胡"
    return (
        [],
        "no winning shape: four sets and a 2, 5 or 8 pair, or a big win",
        ("不成胡：要四副面子加 2、5、8 的将，或者大胡"),
    )


__all__ = ["FORMS", "RED", "TYPES", "Reading", "is_opening", "openings", "readings"]
