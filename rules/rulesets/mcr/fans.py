"""国标麻将 (MCR, Chinese Official Mahjong) fan table, as data: each fan with its condition.

Ids 1..81 follow the 81-fan table of seed 002 (which is also the order of
PyMahjongGB / ChineseOfficialMahjongHelper's ``fan_t`` enum); id 82 is the
non-standard 明暗杠 that PyMahjongGB enables by default.

``zh`` / ``en`` / ``points`` are exactly what PyMahjongGB 1.4.0 prints (checked
by running it on a hand for every fan).  Note the three wait fans: PyMahjongGB
prints '独听・边张' / '独听・嵌张' / '独听・单钓' (the dot is U+30FB).

``excludes`` is the 不计 list the engine must apply.  It is the seed's 不计 text
plus what PyMahjongGB does (its explicit "不计" adjustments and the exclusions
that follow from how it counts sets); docs/rules/mcr.md lists every
difference with the seed and the reason.
How to apply it (this reproduces PyMahjongGB):
  * go through the candidate fans from the highest points down (ties by id);
    a fan that was already excluded by a counted fan does NOT apply its own
    ``excludes`` (e.g. 四暗刻 excludes 不求人, so 不求人 does not exclude 自摸 and
    自摸 still counts; 三杠 excludes 双暗杠, so 双暗杠 does not exclude 双暗刻);
  * ids in ``partial`` are only excluded for the tiles/sets that the excluding
    fan itself uses (and the counts it names); see the doc, "Partial and
    count-based exclusions".

``group`` says where the fan is decided and ``when`` is its condition, in the row:
  * "hand": read from the tiles, the melds and the flags alone, so one reading of
    the hand answers it for every cut;
  * "cut": read from the sets of one cut.  The fans the sets make together read the
    Ctx's set-relation tables (``TableFan``): the rulebook's 套算一次 (account once)
    and 不得相同 (no repeats) are a property of all the sets together, not of one
    fan, so they are worked out once in the context (context.py, ``Cut``);
  * "form": a special form's own fan (七对, 十三幺, 全不靠 ...), given by the form
    the hand is read as (scoring.py, ``Reading.special``); "fallback": 43 无番和,
    when nothing else counts; "flower": 81 花牌, counted apart.  No ``when``.
A ``when`` is a small pure function of the frozen ``Ctx`` returning how often the
fan applies (0: not at all).  Most read a light context instead, so that the
row is the one place the condition is written and every path evaluates it:
``TileFan`` (an expression over the ranks each suit holds, ``TileRanks``),
``WinFan`` (a function of the win's facts, ``WinFacts``), ``SetFan`` (an
expression over a cut's sets as they are) and ``TableFan``.  The expression
rows of a kind are compiled into one function (``tile_fans``, ``set_fans``;
``win_fans`` evaluates the WinFan rows once per mix of facts), which both
scoring paths call; called on a ``Ctx``, a row evaluates its own expression.
``HAND_FANS``, ``CUT_FANS`` and ``FAN_FUNCS`` are views of the rows by group;
tests/rules/test_mcr_fastpaths.py holds the compiled rows to the rows one by one
and to the tile sets of context.py.

``SEED_EXCLUDES`` keeps the seed's literal 不计 list (cleaned) for reference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.fans import FanDef, FanTable
from rules.rulesets.mcr.context import (
    GREEN,
    REVERSIBLE,
    Ctx,
    WinFacts,
    is_terminal,
    is_wind,
    masks_of,
    rank_mask,
)

# A fan's condition: how often the fan applies to one reading of the hand.
FanCondition = Callable[[Ctx], int]


class TableFan:
    """A condition read from one of the Ctx's set-relation tables (``chow_fans``,
    ``pung_fans``, ``kong_table``): the fan's count there.

    The row names the table; the fan id is the row's own, filled in by ``_F``
    (0, no fan, until then).
    """

    __slots__ = ("fid", "table")

    def __init__(self, table: str, fid: int = 0) -> None:
        self.table = table
        self.fid = fid

    def __call__(self, c: Ctx) -> int:
        n: int = getattr(c, self.table).get(self.fid, 0)
        return n


class _ExprFan:
    """A fan whose condition is an expression over a light context's fields
    (`ARGS`) and the names of `_NAMES`, whose value is how often it applies.

    An expression rather than a function so that the rows of one kind can be
    compiled into one function (`_compile`): both scoring paths evaluate the
    rows' own conditions, all of them in one call, with no copy anywhere else."""

    __slots__ = ("expr", "cond")
    ARGS = ""

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.cond: Callable[..., int | bool] = eval(  # (the row's own text)
            f"lambda {self.ARGS}: ({expr}) or 0", dict(_NAMES)
        )


class TileFan(_ExprFan):
    """A HAND fan read from the tiles alone: an expression over the ranks each suit
    holds (`TileRanks`: m, p, s, h, num, voided), compiled with the other
    TileFan rows into `tile_fans`."""

    __slots__ = ()
    ARGS = "m, p, s, h, num, voided"

    def __call__(self, c: Ctx) -> int:
        return int(self.cond(*c.r.ranks))


class SetFan(_ExprFan):
    """A CUT fan of the sets as they are, not of their relations: an expression
    over `chows` (how many), `pungs` (the pungs' and kongs' tiles), `pair` (its
    tile, -1 for none), `trait` (what every set and the pair share, 0 unless
    there are five: 1 a terminal or honor, 2 a five, 4 even), `pf` and `kt` (the
    cut's pung relations and kong fans), `prevalent` and `seat` (the winds'
    tiles), compiled with the other SetFan rows into `set_fans`."""

    __slots__ = ()
    ARGS = "chows, pungs, pair, trait, pf, kt, prevalent, seat"

    def __call__(self, c: Ctx) -> int:
        r = c.r
        return int(
            self.cond(
                len(c.chows),
                [p.tile for p in c.pungs],
                -1 if c.pair is None else c.pair,
                c.trait,
                c.pung_fans,
                c.kong_table,
                r.prevalent,
                r.seat,
            )
        )


class WinFan:
    """A HAND fan of the win's flags and the melds: its condition is a function
    of `WinFacts`, evaluated by both paths on the facts (`win_fans`)."""

    __slots__ = ("cond",)

    def __init__(self, cond: Callable[[WinFacts], int | bool]) -> None:
        self.cond = cond

    def __call__(self, c: Ctx) -> int:
        return int(self.cond(c.r.win_facts))


def _not_within(tiles: frozenset[int]) -> tuple[int, int, int, int]:
    """The ranks of each suit outside `tiles` (a hand holds only those tiles when
    it holds none of these)."""
    return tuple(~x for x in masks_of(tiles))  # type: ignore[return-value]


# The names a row's expression may use besides its context's fields.
_NOT_GREEN = _not_within(GREEN)
_NOT_REVERSIBLE = _not_within(REVERSIBLE)
_NAMES: dict[str, Any] = {
    "TERMINALS": rank_mask(1, 9),
    "LOWER": rank_mask(1, 2, 3),
    "LOWER_FOUR": rank_mask(1, 2, 3, 4),
    "MIDDLE": rank_mask(4, 5, 6),
    "UPPER": rank_mask(7, 8, 9),
    "UPPER_FOUR": rank_mask(6, 7, 8, 9),
    "R4": rank_mask(4),
    "R5": rank_mask(5),
    "R6": rank_mask(6),
    "R46": rank_mask(4, 6),
    "WIND_RANKS": 0b1111,  # 东南西北 among the honors
    "DRAGON_RANKS": 0b1110000,  # 白发中
    **{f"NOT_GREEN_{x}": v for x, v in zip("MPSH", _NOT_GREEN, strict=True)},
    **{f"NOT_REVERSIBLE_{x}": v for x, v in zip("MPSH", _NOT_REVERSIBLE, strict=True)},
    # a tile -> 1 when it is a dragon / a terminal or a wind (幺九刻 counts those
    # pungs: 三风刻 and 小四喜 take three, the prevalent and seat wind fans theirs)
    "IS_DRAGON": tuple(int(t >= 31) for t in range(34)).__getitem__,
    "IS_TERMINAL_OR_WIND": tuple(int(is_terminal(t) or is_wind(t)) for t in range(34)).__getitem__,
}


_CONDITIONED = ("hand", "cut")  # the groups whose rows carry their condition


def _F(
    fid: int,
    zh: str,
    en: str,
    points: int,
    excludes: tuple[int, ...],
    partial: tuple[int, ...],
    rule_zh: str,
    rule_en: str,
    *,
    group: str,
    when: FanCondition | None = None,
) -> FanDef:
    """One row, its condition typed against `Ctx` (a TableFan gets the row's id)."""
    need = group in _CONDITIONED
    if (when is not None) != need:
        raise ValueError(f"fan {fid}: a {group!r} row {'needs' if need else 'takes no'} condition")
    if isinstance(when, TableFan):
        when = TableFan(when.table, fid)
    return FanDef(fid, zh, en, points, excludes, partial, rule_zh, rule_en, group, when)


# One entry per line group, kept compact on purpose.
# fmt: off
_TABLE: tuple[FanDef, ...] = (
    # ------------------------------------------------------------- 88 番
    _F(1, "大四喜", "Big Four Winds", 88,
       (38, 48, 60, 61, 73), (),
       "由4副风刻(杠)组成的和牌。",
       "Pungs or kongs of all four winds.",
       group="cut", when=TableFan("pung_fans")),
    _F(2, "大三元", "Big Three Dragons", 88,
       (54, 59), (),
       "和牌中，有中发白3副刻子。",
       "Pungs or kongs of all three dragons.",
       group="cut", when=TableFan("pung_fans")),
    _F(3, "绿一色", "All Green", 88,
       (49, 75), (),
       "由23468条及发字中的任何牌组成的顺子、刻子、将的和牌。如无发字组成的和牌，可计清一色。",
       "Only green tiles: 2, 3, 4, 6, 8 of bamboo and the green dragon. Without a green dragon, Full Flush also counts.",
       group="hand", when=TileFan("not m and not p and not s & NOT_GREEN_S and not h & NOT_GREEN_H")),
    _F(4, "九莲宝灯", "Nine Gates", 88,
       (22, 56, 62, 73, 75, 76), (73,),
       "由一种花色序数牌按1112345678999组成的特定牌型，见同花色任何1张序数牌即成和牌。",
       "Concealed 1112345678999 of one suit waiting on any tile of that suit (one Pung of Terminals is not counted).",
       group="form"),
    _F(5, "四杠", "Four Kongs", 88,
       (17, 48, 53, 57, 67, 74, 79, 82), (),
       "4个杠。",
       "Four kongs (melded or concealed).",
       group="cut", when=TableFan("kong_table")),
    _F(6, "连七对", "Seven Shifted Pairs", 88,
       (19, 22, 56, 62, 75, 76, 79), (),
       "由一种花色序数牌组成序数相连的7个对子的和牌。",
       "Seven pairs of one suit with consecutive numbers, e.g. 22334455667788.",
       group="form"),
    _F(7, "十三幺", "Thirteen Orphans", 88,
       (18, 51, 56, 62, 79), (),
       "由3种序数牌的一、九牌，7种字牌及其中一对作将组成的和牌。",
       "One of each terminal (1 and 9 of each suit) and each honor, plus a pair of any of them.",
       group="form"),
    # ------------------------------------------------------------- 64 番
    _F(8, "清幺九", "All Terminals", 64,
       (18, 48, 55, 65, 73, 76), (),
       "由序数牌一、九刻子及将牌组成的和牌。",
       "Only ones and nines of the suits: four pungs and a pair of terminals.",
       group="hand", when=TileFan("not h and num > 0 and not num & ~TERMINALS")),
    _F(9, "小四喜", "Little Four Winds", 64,
       (38, 73), (73,),
       "和牌时有风牌的3副刻子及将牌。",
       "Pungs of three winds and a pair of the fourth wind.",
       group="cut", when=TableFan("pung_fans")),
    _F(10, "小三元", "Little Three Dragons", 64,
       (54, 59), (),
       "和牌时有箭牌的两副刻子及将牌。",
       "Pungs of two dragons and a pair of the third dragon.",
       group="cut", when=TableFan("pung_fans")),
    _F(11, "字一色", "All Honors", 64,
       (18, 48, 55, 73, 75), (),
       "由字牌的刻子(杠)、将组成的和牌。",
       "Only honor tiles (winds and dragons).",
       group="hand", when=TileFan("h > 0 and not num")),
    _F(12, "四暗刻", "Four Concealed Pungs", 64,
       (33, 48, 56, 62, 66), (),
       "4个暗刻(暗杠)。",
       "Four concealed pungs or concealed kongs (a self-drawn win still scores Self-Drawn).",
       group="cut", when=TableFan("kong_table")),
    _F(13, "一色双龙会", "Pure Terminal Chows", 64,
       (19, 22, 63, 69, 72, 75, 76), (),
       "一种花色的两个老少副，5为将牌。",
       "123, 123, 789, 789 of one suit with a pair of fives of the same suit.",
       group="cut", when=TableFan("chow_fans")),
    # ------------------------------------------------------------- 48 番
    _F(14, "一色四同顺", "Quadruple Chow", 48,
       (23, 24, 64, 69), (),
       "一种花色4副序数相同的顺子。",
       "Four identical chows of one suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(15, "一色四节高", "Four Pure Shifted Pungs", 48,
       (23, 24, 48), (),
       "一种花色4副依次递增一位数的刻子。",
       "Four pungs of one suit, each one higher than the last, e.g. 222 333 444 555.",
       group="cut", when=TableFan("pung_fans")),
    # ------------------------------------------------------------- 32 番
    _F(16, "一色四步高", "Four Pure Shifted Chows", 32,
       (30, 71, 72), (),
       "一种花色4副依次递增一位数或依次递增二位数的顺子。",
       "Four chows of one suit, each shifted up by one (or each by two), e.g. 123 234 345 456.",
       group="cut", when=TableFan("chow_fans")),
    _F(17, "三杠", "Three Kongs", 32,
       (53, 57, 67, 74, 82), (),
       "3个杠。",
       "Three kongs (melded or concealed).",
       group="cut", when=TableFan("kong_table")),
    _F(18, "混幺九", "All Terminals and Honors", 32,
       (48, 55, 73), (),
       "由字牌和序数牌一、九的刻子及将牌组成的和牌。",
       "Only terminals and honors (pungs and a pair, or seven pairs).",
       group="hand", when=TileFan("h > 0 and num > 0 and not num & ~TERMINALS")),
    # ------------------------------------------------------------- 24 番
    _F(19, "七对", "Seven Pairs", 24,
       (21, 56, 62, 79), (),
       "由7个对子组成和牌。",
       "Seven pairs (four of a kind counts as two pairs); a self-drawn win still scores Self-Drawn.",
       group="form"),
    _F(20, "七星不靠", "Greater Honors and Knitted Tiles", 24,
       (34, 51, 56, 62, 79), (),
       "必须有7个单张的东南西北中发白，加上3种花色，数位按147、258、369中的7张序数牌组成没有将牌的和牌。",
       "All seven honors singly, plus seven single suited tiles from a knitted 147/258/369 pattern, no pair.",
       group="form"),
    _F(21, "全双刻", "All Even Pungs", 24,
       (48, 68, 76), (),
       "由2、4、6、8序数牌的刻子、将牌组成的和牌。",
       "Four pungs and a pair, all of 2, 4, 6 or 8.",
       group="cut", when=SetFan("trait and trait & 7 == 4")),
    _F(22, "清一色", "Full Flush", 24,
       (75, 76), (),
       "由一种花色的序数牌组成和牌。",
       "All tiles of one suit, no honors.",
       group="hand", when=TileFan("voided == 2 and not h")),
    _F(23, "一色三同顺", "Pure Triple Chow", 24,
       (24, 69), (69,),
       "和牌时有一种花色3副序数相同的顺子。",
       "Three identical chows of one suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(24, "一色三节高", "Pure Shifted Pungs", 24,
       (23,), (),
       "和牌时有一种花色3副依次递增一位数字的刻子。",
       "Three pungs of one suit, each one higher than the last, e.g. 333 444 555.",
       group="cut", when=TableFan("pung_fans")),
    _F(25, "全大", "Upper Tiles", 24,
       (36, 76), (),
       "由序数牌789组成的顺子、刻子(杠)、将牌的和牌。",
       "Only suited 7, 8 and 9.",
       group="hand", when=TileFan("not h and not num & ~UPPER")),
    _F(26, "全中", "Middle Tiles", 24,
       (68, 76), (),
       "由序数牌456组成的顺子、刻子(杠)、将牌的和牌。",
       "Only suited 4, 5 and 6.",
       # (not the lower four, nor the upper four: a 5, or a 4 and a 6)
       group="hand", when=TileFan("not h and not num & ~MIDDLE and (num & R5 > 0 or num & R46 == R46)")),
    _F(27, "全小", "Lower Tiles", 24,
       (37, 76), (),
       "由序数牌123组成的顺子、刻子(杠)、将牌的和牌。",
       "Only suited 1, 2 and 3.",
       group="hand", when=TileFan("not h and not num & ~LOWER")),
    # ------------------------------------------------------------- 16 番
    _F(28, "清龙", "Pure Straight", 16,
       (71, 72), (71, 72),
       "和牌时，有一种花色1-9相连接的序数牌。",
       "Chows 123, 456 and 789 of one suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(29, "三色双龙会", "Three-Suited Terminal Chows", 16,
       (63, 70, 72, 76), (),
       "2种花色2个老少副、另一种花色5作将的和牌。",
       "123 and 789 in each of two suits, with a pair of fives of the third suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(30, "一色三步高", "Pure Shifted Chows", 16,
       (), (),
       "和牌时，有一种花色3副依次递增一位或依次递增二位数字的顺子。",
       "Three chows of one suit, each shifted up by one (or each by two), e.g. 123 234 345 or 123 345 567.",
       group="cut", when=TableFan("chow_fans")),
    _F(31, "全带五", "All Five", 16,
       (68, 76), (),
       "每副牌及将牌必须有5的序数牌。",
       "Every set and the pair contain a suited 5.",
       group="cut", when=SetFan("trait and trait & 3 == 2")),
    _F(32, "三同刻", "Triple Pung", 16,
       (65,), (65,),
       "3个序数相同的刻子(杠)。",
       "Pungs of the same number in all three suits.",
       group="cut", when=TableFan("pung_fans")),
    _F(33, "三暗刻", "Three Concealed Pungs", 16,
       (66,), (),
       "3个暗刻。",
       "Three concealed pungs (concealed kongs count).",
       group="cut", when=TableFan("kong_table")),
    # ------------------------------------------------------------- 12 番
    _F(34, "全不靠", "Lesser Honors and Knitted Tiles", 12,
       (51, 56, 62, 79), (),
       "由单张3种花色147、258、369不能错位的序数牌及东南西北中发白中的任何14张牌组成的和牌。",
       "14 single tiles: suited tiles from a knitted 147/258/369 pattern plus honors, no pair.",
       group="form"),
    _F(35, "组合龙", "Knitted Straight", 12,
       (), (),
       "3种花色的147、258、369不能错位的序数牌。",
       "147, 258 and 369, each in a different suit (used as three sets).",
       group="form"),
    _F(36, "大于五", "Upper Four", 12,
       (76,), (),
       "由序数牌6-9的顺子、刻子、将牌组成的和牌。",
       "Only suited 6, 7, 8 and 9.",
       group="hand", when=TileFan("not h and not num & ~UPPER_FOUR and num & R6 > 0")),
    _F(37, "小于五", "Lower Four", 12,
       (76,), (),
       "由序数牌1-4的顺子、刻子、将牌组成的和牌。",
       "Only suited 1, 2, 3 and 4.",
       group="hand", when=TileFan("not h and not num & ~LOWER_FOUR and num & R4 > 0")),
    _F(38, "三风刻", "Big Three Winds", 12,
       (73,), (73,),
       "3个风刻。",
       "Pungs of three winds.",
       group="cut", when=TableFan("pung_fans")),
    # ------------------------------------------------------------- 8 番
    _F(39, "花龙", "Mixed Straight", 8,
       (), (),
       "3种花色的3副顺子连接成1-9的序数牌。",
       "Chows 123, 456 and 789, each in a different suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(40, "推不倒", "Reversible Tiles", 8,
       (75,), (),
       "由牌面图形没有上下区别的牌组成的和牌，包括1234589饼、245689条、白板。",
       "Only tiles that look the same upside down: dots 1234589, bamboo 245689, white dragon.",
       group="hand", when=TileFan("not m and not p & NOT_REVERSIBLE_P and not s & NOT_REVERSIBLE_S and not h & NOT_REVERSIBLE_H")),
    _F(41, "三色三同顺", "Mixed Triple Chow", 8,
       (70,), (70,),
       "和牌时，有3种花色3副序数相同的顺子。",
       "The same chow in all three suits.",
       group="cut", when=TableFan("chow_fans")),
    _F(42, "三色三节高", "Mixed Shifted Pungs", 8,
       (), (),
       "和牌时，有3种花色3副依次递增一位数的刻子。",
       "Three pungs in three different suits, numbers shifted up by one, e.g. 3 Characters, 4 Dots, 5 Bamboo.",
       group="cut", when=TableFan("pung_fans")),
    _F(43, "无番和", "Chicken Hand", 8,
       (), (),
       "和牌后，数不出任何番种分(花牌不计算在内)。",
       "A winning hand with no other fan (flowers do not count as fans).",
       group="fallback"),
    _F(44, "妙手回春", "Last Tile Draw", 8,
       (80,), (),
       "自摸牌墙上最后一张牌和牌。",
       "Winning on a self-drawn last tile of the wall.",
       group="hand", when=WinFan(lambda f: f.self_drawn and f.last_tile)),
    _F(45, "海底捞月", "Last Tile Claim", 8,
       (), (),
       "和打出的最后一张牌。",
       "Winning on the last discard of the game.",
       group="hand", when=WinFan(lambda f: not f.self_drawn and f.last_tile)),
    _F(46, "杠上开花", "Out with Replacement Tile", 8,
       (80,), (),
       "开杠抓进的牌成和牌(不包括补花)。",
       "Winning on the replacement tile drawn after a kong (not after a flower).",
       group="hand", when=WinFan(lambda f: f.self_drawn and f.kong)),
    _F(47, "抢杠和", "Robbing The Kong", 8,
       (58,), (),
       "和别人自抓开明杠的牌。",
       "Winning on the tile another player adds to a melded pung to make a kong.",
       group="hand", when=WinFan(lambda f: not f.self_drawn and f.kong)),
    # ------------------------------------------------------------- 6 番
    _F(48, "碰碰和", "All Pungs", 6,
       (), (),
       "由4副刻子(或杠)、将牌组成的和牌。",
       "Four pungs or kongs and a pair.",
       group="cut", when=SetFan("pungs and len(pungs) == 4 and 5 not in kt and 12 not in kt")),
    _F(49, "混一色", "Half Flush", 6,
       (75,), (),
       "由一种花色序数牌及字牌组成的和牌。",
       "One suit plus honors.",
       group="hand", when=TileFan("voided == 2 and h > 0")),
    _F(50, "三色三步高", "Mixed Shifted Chows", 6,
       (), (),
       "3种花色3副依次递增一位序数的顺子。",
       "Three chows in three different suits, shifted up by one, e.g. 1-2-3 Characters, 2-3-4 Dots, 3-4-5 Bamboo.",
       group="cut", when=TableFan("chow_fans")),
    _F(51, "五门齐", "All Types", 6,
       (), (),
       "和牌时3种序数牌、风、箭牌齐全。",
       "The hand contains all three suits, a wind and a dragon.",
       group="hand", when=TileFan("voided == 0 and h & WIND_RANKS > 0 and h & DRAGON_RANKS > 0")),
    _F(52, "全求人", "Melded Hand", 6,
       (79,), (),
       "全靠吃牌、碰牌、单钓别人打出的牌和牌。",
       "Four melded (claimed) sets and winning on a discard to the single pair tile.",
       group="hand", when=WinFan(lambda f: f.n_melded == 4 and not f.self_drawn)),
    _F(53, "双暗杠", "Two Concealed Kongs", 6,
       (66, 67), (),
       "2个暗杠。",
       "Two concealed kongs.",
       group="cut", when=TableFan("kong_table")),
    _F(54, "双箭刻", "Two Dragons Pungs", 6,
       (59,), (59,),
       "2副箭刻(或杠)。",
       "Pungs or kongs of two dragons.",
       group="cut", when=TableFan("pung_fans")),
    # ------------------------------------------------------------- 4 番
    _F(55, "全带幺", "Outside Hand", 4,
       (), (),
       "和牌时，每副牌、将牌都有幺牌。",
       "Every set and the pair contain a terminal or an honor.",
       group="cut", when=SetFan("trait and trait & 1 == 1")),
    _F(56, "不求人", "Fully Concealed Hand", 4,
       (62, 80), (),
       "4副牌及将中没有吃牌、碰牌(包括明杠)，自摸和牌。",
       "No claimed sets (concealed kongs allowed) and the winning tile is self-drawn.",
       group="hand", when=WinFan(lambda f: f.n_melded == 0 and f.self_drawn)),
    _F(57, "双明杠", "Two Melded Kongs", 4,
       (74,), (),
       "2个明杠。",
       "Two melded kongs.",
       group="cut", when=TableFan("kong_table")),
    _F(58, "和绝张", "Last Tile", 4,
       (), (),
       "和牌池、桌面已亮明的3张牌所剩的第4张牌。",
       "Winning on the last copy of a tile when the other three are already visible (discarded or melded).",
       group="hand", when=WinFan(lambda f: f.fourth)),
    # ------------------------------------------------------------- 2 番
    _F(59, "箭刻", "Dragon Pung", 2,
       (73,), (73,),
       "由中、发、白3张相同的牌组成的刻子。",
       "A pung or kong of dragons.",
       # 双箭刻 takes its two dragon pungs (a third would be 大三元)
       group="cut", when=SetFan("pungs and sum(map(IS_DRAGON, pungs)) - 2 * pf.get(54, 0)")),
    _F(60, "圈风刻", "Prevalent Wind", 2,
       (73,), (73,),
       "与圈风相同的风刻。",
       "A pung or kong of the round (prevalent) wind.",
       group="cut", when=SetFan("pungs and prevalent in pungs")),
    _F(61, "门风刻", "Seat Wind", 2,
       (73,), (73,),
       "与本门风相同的风刻。",
       "A pung or kong of your seat wind.",
       group="cut", when=SetFan("pungs and seat in pungs")),
    _F(62, "门前清", "Concealed Hand", 2,
       (), (),
       "没有吃、碰、明杠，和别人打出的牌。",
       "No claimed sets (concealed kongs allowed) and winning on a discard.",
       group="hand", when=WinFan(lambda f: f.n_melded == 0 and not f.self_drawn)),
    _F(63, "平和", "All Chows", 2,
       (76,), (),
       "由4副顺子及序数牌作将组成的和牌，边、坎、钓不影响平和。",
       "Four chows and a suited pair; the kind of wait does not matter.",
       group="cut", when=SetFan("chows == 4 and 0 <= pair < 27")),
    _F(64, "四归一", "Tile Hog", 2,
       (), (),
       "和牌中，有4张相同的牌归于一家的顺、刻子、对、将牌中(不包括杠牌)。",
       "All four copies of a tile used in your sets and pair, but not as a kong.",
       group="hand", when=WinFan(lambda f: f.hogs)),
    _F(65, "双同刻", "Double Pung", 2,
       (), (),
       "2副序数相同的刻子。",
       "Two pungs of the same number in different suits.",
       group="cut", when=TableFan("pung_fans")),
    _F(66, "双暗刻", "Two Concealed Pungs", 2,
       (), (),
       "2个暗刻。",
       "Two concealed pungs (concealed kongs count).",
       group="cut", when=TableFan("kong_table")),
    _F(67, "暗杠", "Concealed Kong", 2,
       (), (),
       "自抓4张相同的牌开杠。",
       "A kong of four tiles you drew yourself.",
       group="cut", when=TableFan("kong_table")),
    _F(68, "断幺", "All Simples", 2,
       (76,), (),
       "和牌中没有一、九及字牌。",
       "No terminals (1, 9) and no honors.",
       group="hand", when=TileFan("not h and not num & TERMINALS")),
    # ------------------------------------------------------------- 1 番
    _F(69, "一般高", "Pure Double Chow", 1,
       (), (),
       "由一种花色2副相同的顺子组成的牌。",
       "Two identical chows of one suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(70, "喜相逢", "Mixed Double Chow", 1,
       (), (),
       "2种花色2副序数相同的顺子。",
       "The same chow in two different suits.",
       group="cut", when=TableFan("chow_fans")),
    _F(71, "连六", "Short Straight", 1,
       (), (),
       "一种花色6张相连接的序数牌。",
       "Two chows of one suit making six in a row, e.g. 123 456.",
       group="cut", when=TableFan("chow_fans")),
    _F(72, "老少副", "Two Terminal Chows", 1,
       (), (),
       "一种花色牌的123、789两副顺子。",
       "Chows 123 and 789 of one suit.",
       group="cut", when=TableFan("chow_fans")),
    _F(73, "幺九刻", "Pung of Terminals or Honors", 1,
       (), (),
       "3张相同的一、九序数牌及字牌组成的刻子(或杠)。",
       "A pung or kong of ones, nines or winds (dragon pungs score Dragon Pung instead).",
       group="cut", when=SetFan("pungs and sum(map(IS_TERMINAL_OR_WIND, pungs)) - (3 if 38 in pf or 9 in pf else (prevalent in pungs) + (seat in pungs and seat != prevalent))")),
    _F(74, "明杠", "Melded Kong", 1,
       (), (),
       "自己有暗刻，碰别人打出的一张相同的牌开杠；或自己抓进一张与碰的明刻相同的牌开杠。",
       "A kong made by claiming a discard onto a concealed pung, or by adding a drawn tile to a melded pung.",
       group="cut", when=TableFan("kong_table")),
    _F(75, "缺一门", "One Voided Suit", 1,
       (), (),
       "和牌中缺少一种花色序数牌。",
       "One of the three suits is missing.",
       group="hand", when=TileFan("voided if voided != 2 else 0")),
    _F(76, "无字", "No Honors", 1,
       (), (),
       "和牌中没有风、箭牌。",
       "No winds or dragons.",
       group="hand", when=TileFan("not h")),
    _F(77, "独听・边张", "Edge Wait", 1,
       (78, 79), (),
       "单和123的3及789的7，或1233和3、7789和7都为边张。手中有12345和3、56789和7不算边张。",
       "Your only winning tile is the 3 of 12 or the 7 of 89.",
       group="cut", when=lambda c: int(c.wait_position == 77)),
    _F(78, "独听・嵌张", "Closed Wait", 1,
       (79,), (),
       "和2张牌之间的牌。4556和5也为嵌张，手中有45567和6不算嵌张。",
       "Your only winning tile is the middle of a chow, e.g. 5 for 46.",
       group="cut", when=lambda c: int(c.wait_position == 78)),
    _F(79, "独听・单钓", "Single Wait", 1,
       (), (),
       "钓单张牌作将成和。",
       "Your only winning tile completes the pair.",
       group="cut", when=lambda c: int(c.wait_position == 79)),
    _F(80, "自摸", "Self-Drawn", 1,
       (), (),
       "自己抓进牌成和牌。",
       "Winning on a tile you drew yourself.",
       group="hand", when=WinFan(lambda f: f.self_drawn and not f.last_tile and not f.kong)),
    _F(81, "花牌", "Flower Tiles", 1,
       (), (),
       "即春夏秋冬，梅兰竹菊，每花计一分。不计在起和分内，和牌后才能计分。花牌补花成和计自摸分，不计杠上开花。",
       "One point per flower or season; flowers do not count toward the 8-point minimum.",
       group="flower"),
    # ------------------------------------------------ non-standard (PyMahjongGB)
    _F(82, "明暗杠", "Concealed Kong and Melded Kong", 5,
       (67, 74), (),
       "和牌中有1个暗杠和1个明杠（非标准番种；PyMahjongGB默认启用），计5番，不计暗杠、明杠。",
       "One concealed kong and one melded kong: 5 points instead of Concealed Kong + Melded Kong (not in the official table).",
       group="cut", when=TableFan("kong_table")),
)
# fmt: on

FANS: dict[int, FanDef] = {f.id: f for f in _TABLE}
# 43 无番和 stands when nothing else counts.
TABLE = FanTable(_TABLE, fallback=43)

# The fans of everyday play, listed first in quick entry (选番), most frequent
# first: the small fans nearly every hand has, then the usual patterns.
COMMON_FANS: tuple[int, ...] = (
    63,  # 平和
    68,  # 断幺
    62,  # 门前清
    80,  # 自摸
    56,  # 不求人
    48,  # 碰碰和
    49,  # 混一色
    22,  # 清一色
    69,  # 一般高
    70,  # 喜相逢
    71,  # 连六
    72,  # 老少副
    59,  # 箭刻
    75,  # 缺一门
    76,  # 无字
    77,  # 边张
    78,  # 嵌张
    79,  # 单钓将
    58,  # 和绝张
    61,  # 门风刻
    60,  # 圈风刻
    64,  # 四归一
    39,  # 花龙
    50,  # 三色三步高
    51,  # 五门齐
    52,  # 全求人
    66,  # 双暗刻
    65,  # 双同刻
    73,  # 幺九刻
    74,  # 明杠
    67,  # 暗杠
)

# The conditions by group, views of the rows: fan id -> how often it applies to a Ctx.
# HAND fans read only the tiles, the melds and the flags, so one reading of the
# hand answers them for every cut; CUT fans read the sets of one cut.  43 无番和
# (nothing else applies) and 81 花牌 (flowers) are decided after the others, the
# special forms' own fans by the form.
HAND_FANS: dict[int, FanCondition] = {f.id: f.when for f in _TABLE if f.group == "hand" and f.when}
CUT_FANS: dict[int, FanCondition] = {f.id: f.when for f in _TABLE if f.group == "cut" and f.when}
FAN_FUNCS: dict[int, FanCondition] = {f.id: f.when for f in _TABLE if f.when is not None}

# The fans evaluated on their light contexts, what both scoring paths take, so a
# fan's condition is its row's and nowhere else.
TILE_FANS: dict[int, TileFan] = {f.id: f.when for f in _TABLE if isinstance(f.when, TileFan)}
WIN_FANS: dict[int, Callable[[WinFacts], int | bool]] = {
    f.id: f.when.cond for f in _TABLE if isinstance(f.when, WinFan)
}
assert {*TILE_FANS, *WIN_FANS} == set(HAND_FANS)
_BY_FACTS: dict[tuple[bool, bool, bool, int, bool, int], dict[int, int]] = {}


def _compile(
    name: str,
    params: str,
    doc: str,
    prelude: tuple[str, ...],
    rows: Mapping[int, _ExprFan],
    guards: tuple[str, ...],
    tabulate: tuple[str, int] | None = None,
) -> Callable[..., dict[int, int]]:
    """The rows compiled into one function of their context's fields, returning a
    new dict fan id -> count: each row's expression in id order (the rows' text,
    nothing added; `+n` makes a bool a count).

    Rows that start with one of `guards` ("g and ...", or are "g") go under one
    test of the first such guard, so a hand pays only for the rows its guards
    leave open.  With `tabulate` (a field, its size), the rows of a block that
    read that field alone are evaluated for each of its values here, once, and
    the function looks their answer up."""
    blocks: dict[str, list[tuple[int, str]]] = {g: [] for g in ("", *guards)}
    for fid, row in rows.items():
        guard, expr = "", row.expr
        for g in guards:  # the first guard the row starts with
            if expr == g:
                guard, expr = g, "True"
                break
            if expr.startswith(g + " and "):
                guard, expr = g, expr[len(g) + 5 :]
                break
        blocks[guard].append((fid, expr))
    space: dict[str, Any] = dict(_NAMES)

    def block(i: int, found: list[tuple[int, str]], depth: int) -> list[str]:
        out: list[str] = []
        if tabulate is not None:
            field, size = tabulate
            alone = [
                (fid, e)
                for fid, e in found
                if set(compile(e, "<row>", "eval").co_names) - set(_NAMES) <= {field}
            ]
            if len(alone) > 1:
                codes = [compile(e, "<row>", "eval") for _, e in alone]
                table = []
                for v in range(size):
                    at = {**_NAMES, field: v}
                    table.append(
                        {
                            fid: +n
                            for (fid, _), c in zip(alone, codes, strict=True)
                            if (n := eval(c, at)) > 0
                        }
                    )
                space[f"_TABLE{i}"] = tuple(table)
                out.append(f"out.update(_TABLE{i}[{field}])")
                found = [r for r in found if r not in alone]
        for fid, e in found:
            out += [f"n = {e}", "if n > 0:", f"    out[{fid}] = +n"]
        return [" " * depth + x for x in out] or [" " * depth + "pass"]

    lines = [f"def {name}({params}):", f"    {doc!r}", *prelude, "    out = {}"]
    if blocks[""]:
        lines += block(0, blocks[""], 4)
    for i, g in enumerate(guards, 1):
        lines += [f"    if {g}:", *block(i, blocks[g], 8)]
    lines.append("    return out")
    source = "\n".join(lines)
    exec(compile(source, f"<fans.py: the {name} rows>", "exec"), space)
    fn: Callable[..., dict[int, int]] = space[name]
    fn.source = source  # type: ignore[attr-defined]
    return fn


# The HAND fans of the tiles alone of a hand holding these ranks (context.ranks_of).
tile_fans: Callable[[int, int, int, int], dict[int, int]] = _compile(
    "tile_fans",
    "m, p, s, h",
    "The TileFan rows on the ranks each suit holds: a new dict, fan id -> count.",
    ("    num = m | p | s", "    voided = (not m) + (not p) + (not s)"),
    TILE_FANS,
    ("not m", "voided == 2", "not h", "h > 0"),
    ("num", 512),
)
# The CUT fans of the sets as they are (SetFan rows), on SetFan's fields.
SET_FANS: dict[int, SetFan] = {f.id: f.when for f in _TABLE if isinstance(f.when, SetFan)}
set_fans: Callable[..., dict[int, int]] = _compile(
    "set_fans",
    SetFan.ARGS,
    "The SetFan rows on one cut's sets: a new dict, fan id -> count.",
    (),
    SET_FANS,
    ("trait", "pungs"),
)


def win_fans(
    self_drawn: bool, last_tile: bool, kong: bool, n_melded: int, fourth: bool, hogs: int
) -> dict[int, int]:
    """The HAND fans of the win's facts (`WIN_FANS`, on `WinFacts`): fan id -> count,
    in id order.  At most a few hundred mixes, each worked out once; shared."""
    key = (self_drawn, last_tile, kong, n_melded, fourth, hogs)
    r = _BY_FACTS.get(key)
    if r is None:
        f = WinFacts(*key)
        r = _BY_FACTS[key] = {fid: n for fid, cond in WIN_FANS.items() if (n := int(cond(f))) > 0}
    return r


# The seed's literal 不计 lists (seed 002, cleaned; see docs/rules/mcr.md, Sources).
SEED_EXCLUDES: dict[int, tuple[int, ...]] = {
    1: (60, 61, 38, 48),
    2: (59,),
    3: (49,),
    4: (22,),
    6: (22, 56, 79),
    7: (51, 56, 79),
    8: (48, 65, 76),  # "同刻": read as 双同刻 (PyMahjongGB still counts 三同刻)
    9: (38,),
    10: (59,),
    11: (48,),
    12: (62, 48),
    13: (63, 19, 22),
    14: (24, 69, 64),
    15: (23, 48),
    18: (48,),
    19: (56, 79),
    20: (51, 56, 79),
    21: (48, 68),
    22: (76,),
    23: (24,),
    24: (23,),
    25: (76,),
    26: (68,),
    27: (76,),
    29: (70, 72, 76, 63),
    31: (68,),
    34: (51, 56, 79),
    36: (76,),
    37: (76,),
    40: (75,),
    44: (80,),
    46: (80,),
    47: (58,),
    52: (79,),
}
