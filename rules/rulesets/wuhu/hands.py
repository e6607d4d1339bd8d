"""芜湖: what a winning hand shows — its 支, its 押 and its 嘴子 — read from the tiles.

支 is the number of tiles of the hand's longest suit, melds included (a kong is
four); a win needs eight ("成牌须同色八支牌以上(含八支)", seed 000 l.5).  押档:
the tile that won was the hand's only wait (the engine's waits decide); its 押
is that tile's number.  The 嘴子 are rows of a FanTable, each with its condition
over one frozen `Context`; 清一色 and 双八支 count as two.
docs/rules/wuhu.md has each decision with the seed sentence it rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules import decompose
from rules.decompose import Forms
from rules.fans import FanDef, FanTable
from rules.hand import Hand
from rules.tiles import WIND_TILES

# Four sets and a pair only: the seed names no seven pairs for 芜湖.
FORMS = Forms(seven_pairs=False)
MIN_ZHI = 8


@dataclass(frozen=True)
class Context:
    """One reading of a winning hand: what every 嘴子 condition looks at."""

    suit_counts: tuple[int, int, int]  # tiles of 万, 筒, 条 in the whole hand
    winds: int  # wind tiles in the hand
    chows: tuple[int, ...]  # lowest tiles of the chows (concealed and chi)
    pungs_only: bool  # no chow at all
    four_alive: int  # kinds held four times, not as a kong (四活)
    kong_win: bool  # self-drawn on a kong's replacement (杠开)

    @property
    def zhi(self) -> int:
        return max(self.suit_counts)

    @property
    def suits(self) -> int:
        return sum(1 for c in self.suit_counts if c)


def _tongtian(c: Context) -> int:
    """123 456 789 of one suit as chows: 通天 / 一条龙."""
    return int(any({s, s + 3, s + 6} <= set(c.chows) for s in (0, 9, 18)))


# 嘴子 (seed l.12 "所谓嘴子,有四活、通天、对对胡、杠开、混一色共五种"; 清一色 and 双八支
# "算两嘴", l.291).  Points are 嘴 counted: the table's 嘴 value prices them.
ZUI = FanTable(
    (
        FanDef(1, "四活", "Four alive", 1, group="zui",
               rule_zh="一种牌四张都用在面子里，不是杠（每种算一嘴）",
               rule_en="all four copies of a tile used in sets, not as a kong (one each)",
               when=lambda c: c.four_alive),
        FanDef(2, "通天", "Full straight", 1, group="zui", rule_zh="同一门 123、456、789",
               rule_en="123, 456 and 789 of one suit", when=_tongtian),
        FanDef(3, "对对胡", "All pungs", 1, group="zui", rule_zh="四副刻子（碰、杠）加一对",
               rule_en="four pungs or kongs and a pair", when=lambda c: int(c.pungs_only)),
        FanDef(4, "杠开", "Win after a kong", 1, group="zui", rule_zh="杠后补牌和牌",
               rule_en="self-drawn on a kong's replacement tile",
               when=lambda c: int(c.kong_win)),
        FanDef(5, "混一色", "Half flush", 1, group="zui", rule_zh="一门花色加风牌",
               rule_en="one suit and winds",
               when=lambda c: int(c.suits == 1 and c.winds > 0)),
        FanDef(6, "清一色", "Full flush", 2, excludes=(5,), group="zui",
               rule_zh="全是一门花色（算两嘴）", rule_en="all one suit (counts as two)",
               when=lambda c: int(c.suits == 1 and c.winds == 0)),
        FanDef(7, "双八支", "Double eight", 2, group="zui",
               rule_zh="两门花色都有八支以上（算两嘴）",
               rule_en="two suits of eight tiles or more (counts as two)",
               when=lambda c: int(sorted(c.suit_counts)[1] >= MIN_ZHI)),
    )
)  # fmt: skip


def zui(c: Context) -> dict[int, int]:
    """The 嘴子 of one reading, exclusions applied."""
    raw = {}
    for f in ZUI:
        assert f.when is not None
        n = f.when(c)
        if n:
            raw[f.id] = n
    fans, _ = ZUI.apply_exclusions(raw)
    return fans


def suit_counts(held: bytes) -> tuple[int, int, int]:
    return (sum(held[0:9]), sum(held[9:18]), sum(held[18:27]))


def contexts(hand: Hand) -> list[Context]:
    """One context per distinct reading of the winning tiles (empty: no win)."""
    decs = decompose.decompositions(hand, FORMS)
    if not decs:
        return []
    kong_kinds = {m.tile for m in hand.melds if m.type == "kong"}
    four = sum(1 for t in range(27) if hand.held[t] == 4 and t not in kong_kinds)
    four += sum(1 for t in WIND_TILES if hand.held[t] == 4 and t not in kong_kinds)
    sc = suit_counts(hand.held)
    winds = sum(hand.held[t] for t in WIND_TILES)
    kong_win = hand.self_drawn and hand.after_kong and bool(kong_kinds)
    chi = tuple(m.tile for m in hand.melds if m.type == "chi")
    seen = set()
    out = []
    for d in decs:
        chows = tuple(sorted((*chi, *(g.tile for g in d.groups if g.kind == "chow"))))
        c = Context(sc, winds, chows, not chows, four, kong_win)
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def ya(hand: Hand) -> int | None:
    """押: the number of the tile that won when it was the hand's only wait, 0 for
    a wind; None when the hand waited on more than one kind (not 押档)."""
    t = hand.win_tile
    if t is None:
        return None
    before = bytearray(34)
    for x in hand.concealed:
        before[x] += 1
    held = bytearray(hand.held)
    held[t] -= 1
    caps = tuple(4 - m for m in hand.meld_counts) if hand.melds else None
    w = decompose.waits_counts(
        bytes(before), 0, bytes(held), frozenset(), len(hand.melds), FORMS, caps
    )
    if w != [t]:
        return None
    return t % 9 + 1 if t < 27 else 0


def zhi_of(tiles: Sequence[int]) -> tuple[int, int]:
    """(支, the suit index) of loose tiles: the longest suit so far."""
    sc = [0, 0, 0]
    for t in tiles:
        if t < 27:
            sc[t // 9] += 1
    best = max(range(3), key=lambda i: sc[i])
    return sc[best], best


__all__ = ["FORMS", "MIN_ZHI", "ZUI", "Context", "contexts", "suit_counts", "ya", "zhi_of", "zui"]
