"""国标麻将 MCR (Chinese Official Mahjong): the 81 fans, their exclusions and payments.

How a hand is scored (docs/rules/mcr.md has the rulebook text behind each step):

1. The win flags are read as the rulebook defines them (和绝张 only when the win
   tile was not already standing in the hand; 抢杠和 only for a tile the hand
   does not hold; 杠上开花 only with a kong).
2. Special forms of a concealed hand (七对, 连七对, 十三幺, 全不靠, 七星不靠,
   组合龙 + set + pair, 九莲宝灯) and every cut of the tiles into sets and a pair
   (the engine's exact decompositions) are each turned into a frozen `Ctx`.
3. Each fan is one small pure function of a `Ctx` returning how many times it
   applies (`FAN_FUNCS`); the relations between sets that the rulebook limits
   with 套算一次 (account once) and 不得相同 (no repeats) are worked out once in
   the context (`chow_fans`, `pung_fans`), because they are a property of all
   the sets together, not of one fan.
4. The 不计 table (`rules.rulesets.mcr.fans.FANS[*].excludes`) is applied as data, from
   the highest fan down: a fan that is itself excluded excludes nothing.
5. The cut that scores highest is kept (ties as the reference calculator breaks
   them, so results match PyMahjongGB hand for hand).

Flowers are added last and never count toward the 8-fan minimum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from operator import add
from typing import Any, NamedTuple

from rules import shapes
from rules.decompose import Forms, decompositions_counts, waits_counts
from rules.errors import RuleError
from rules.hand import Hand, Table
from rules.registry import Param, Preset, Ruleset
from rules.rulesets.mcr.fans import FANS, TABLE
from rules.table import TableSpec, WinFlag
from rules.tiles import tile_str, tile_zh

# ---------------------------------------------------------------------------
# tiles as the rulebook sees them

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
_WIND_OF = {"E": 27, "S": 28, "W": 29, "N": 30}
GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 23468s and 发
REVERSIBLE = frozenset(
    (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)
)  # 1234589p 245689s 白
ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *WINDS, *DRAGONS))

# The reference calculator orders tiles 万 条 饼, then 东南西北 中发白; ties between
# equally scoring cuts and the order in which set relations are tried follow that
# order, so it is kept here as a sort key.
_ORDER = list(range(9)) + list(range(18, 27)) + list(range(9, 18)) + [27, 28, 29, 30, 33, 32, 31]
ORDER_KEY = {t: i for i, t in enumerate(_ORDER)}


def suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def rank(t: int) -> int:
    """1..9 for suited tiles, 0 for honors."""
    return t % 9 + 1 if t < 27 else 0


def is_num(t: int) -> bool:
    return t < 27


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return t >= 31


def _next(a: int, b: int, step: int) -> bool:
    """b is a's rank + step in the same suit."""
    return a < 27 and b < 27 and suit(a) == suit(b) and rank(b) - rank(a) == step


# ---------------------------------------------------------------------------
# relations between sets: 套算一次 and the reference calculator's order

PURE_DOUBLE, MIXED_DOUBLE, SHORT_STRAIGHT, TERMINAL_CHOWS = 69, 70, 71, 72


def two_chow_fan(a: int, b: int) -> int:
    """Fan two chows (by middle tile) make together, or 0."""
    if suit(a) != suit(b):
        return MIXED_DOUBLE if rank(a) == rank(b) else 0
    if abs(rank(a) - rank(b)) == 3:
        return SHORT_STRAIGHT
    if {rank(a), rank(b)} == {2, 8}:
        return TERMINAL_CHOWS
    return PURE_DOUBLE if a == b else 0


def _three_suits(a: int, b: int, c: int) -> str | None:
    """For sets in three different suits: 'shifted' (ranks n, n+1, n+2), 'same' or ''."""
    if len({suit(a), suit(b), suit(c)}) != 3:
        return None
    rs = sorted((rank(a), rank(b), rank(c)))
    if rs[0] + 1 == rs[1] and rs[1] + 1 == rs[2]:
        return "shifted"
    if rs[0] == rs[2]:
        return "same"
    return "straight" if rs == [2, 5, 8] else ""


def three_chow_fan(a: int, b: int, c: int) -> int:
    ra, rb, rc = rank(a), rank(b), rank(c)
    mixed = _three_suits(a, b, c)
    if mixed is not None:
        # 三色三步高 / 三色三同顺 / 花龙
        return {"shifted": 50, "same": 41, "straight": 39}.get(mixed, 0)
    if not suit(a) == suit(b) == suit(c):
        return 0
    if rb - ra == 3 and rc - rb == 3:
        return 28  # 清龙
    if rb - ra == rc - rb and rb - ra in (1, 2):
        return 30  # 一色三步高
    if a == b == c:
        return 23  # 一色三同顺
    return 0


def four_chow_fan(m: Sequence[int]) -> int:
    if not suit(m[0]) == suit(m[1]) == suit(m[2]) == suit(m[3]):
        return 0
    d = (m[1] - m[0], m[2] - m[1], m[3] - m[2])
    if d in ((1, 1, 1), (2, 2, 2)):
        return 16  # 一色四步高
    if d == (0, 0, 0):
        return 14  # 一色四同顺
    return 0


def _account_once(pair_fans: Sequence[int], max_cnt: int) -> dict[int, int]:
    """套算一次: keep at most max_cnt of the two-chow fans, dropping repeats first.

    Surplus goes from the most repeated fan down to one of each, then to none,
    starting with 老少副, then 连六, 喜相逢, 一般高 (the reference order).
    """
    table = [0, 0, 0, 0]
    cnt = 0
    for f in pair_fans:
        if f:
            table[f - PURE_DOUBLE] += 1
            cnt += 1
    limit = 1
    while cnt > max_cnt and limit >= 0:
        for idx in (3, 2, 1, 0):
            while table[idx] > limit and cnt > max_cnt:
                table[idx] -= 1
                cnt -= 1
            if cnt <= max_cnt:
                break
        limit -= 1
    return {PURE_DOUBLE + i: n for i, n in enumerate(table) if n}


def chow_relation_fans(mids: Sequence[int]) -> dict[int, int]:
    """All fans that the chows make among themselves (mids in reference order)."""
    n = len(mids)
    out: dict[int, int] = {}
    if n == 4:
        f4 = four_chow_fan(mids)
        if f4:
            return {f4: 1}
        for i, j, k, extra in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f3 = three_chow_fan(mids[i], mids[j], mids[k])
            if f3:
                out[f3] = 1
                # the fourth chow combines once with the three, best fan first
                found = {two_chow_fan(mids[x], mids[extra]) for x in (i, j, k)}
                for f in (PURE_DOUBLE, MIXED_DOUBLE, SHORT_STRAIGHT, TERMINAL_CHOWS):
                    if f in found:
                        out[f] = 1
                        break
                return out
        pairs = [
            two_chow_fan(mids[i], mids[j])
            for i, j in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
        ]
        related = {0: (0, 1, 2), 1: (0, 3, 4), 2: (1, 3, 5), 3: (2, 4, 5)}
        max_cnt = 3 - sum(1 for idx in related.values() if not any(pairs[p] for p in idx))
        return _account_once(pairs, max_cnt) if max_cnt > 0 else {}
    if n == 3:
        f3 = three_chow_fan(*mids)
        if f3:
            return {f3: 1}
        pairs = [
            two_chow_fan(mids[0], mids[1]),
            two_chow_fan(mids[0], mids[2]),
            two_chow_fan(mids[1], mids[2]),
        ]
        return _account_once(pairs, 2)
    if n == 2:
        f = two_chow_fan(mids[0], mids[1])
        return {f: 1} if f else {}
    return out


def two_pung_fan(a: int, b: int) -> int:
    if is_num(a) and is_num(b):
        return 65 if rank(a) == rank(b) else 0  # 双同刻
    return 54 if is_dragon(a) and is_dragon(b) else 0  # 双箭刻


def three_pung_fan(a: int, b: int, c: int) -> int:
    ts = (a, b, c)
    if all(is_num(t) for t in ts):
        mixed = _three_suits(a, b, c)
        if mixed is not None:
            return {"shifted": 42, "same": 32}.get(mixed, 0)  # 三色三节高 / 三同刻
        return 24 if _next(a, b, 1) and _next(b, c, 1) else 0  # 一色三节高
    if all(is_wind(t) for t in ts) and len(set(ts)) == 3:
        return 38  # 三风刻
    if set(ts) == set(DRAGONS):
        return 2  # 大三元
    return 0


def pung_relation_fans(tiles: Sequence[int]) -> dict[int, int]:
    """Fans the pungs make among themselves (tiles in reference order)."""
    out: dict[int, int] = {}
    n = len(tiles)
    if n == 4:
        if (
            _next(tiles[0], tiles[1], 1)
            and _next(tiles[1], tiles[2], 1)
            and _next(tiles[2], tiles[3], 1)
        ):
            return {15: 1}  # 一色四节高
        if tuple(tiles) == WINDS:
            return {1: 1}  # 大四喜
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f3 = three_pung_fan(tiles[i], tiles[j], tiles[k])
            if f3:
                out[f3] = 1
                for x in (0, 1, 2, 3):  # the fourth pung combines once
                    if x != free:
                        f2 = two_pung_fan(tiles[x], tiles[free])
                        if f2:
                            out[f2] = out.get(f2, 0) + 1
                            break
                return out
    elif n == 3:
        f3 = three_pung_fan(*tiles)
        if f3:
            return {f3: 1}
    elif n != 2:
        return out
    for i in range(n):
        for j in range(i + 1, n):
            f2 = two_pung_fan(tiles[i], tiles[j])
            if f2:
                out[f2] = out.get(f2, 0) + 1
    return out


def kong_fans(
    concealed_pungs: int, melded_kongs: int, concealed_kongs: int, mixed_fan: bool
) -> dict[int, int]:
    """Kongs and concealed pungs (a concealed kong is also a concealed pung).

    `mixed_fan`: one concealed + one melded kong is 明暗杠 (id 82) rather than
    暗杠 + 明杠.
    """
    kongs = melded_kongs + concealed_kongs
    hidden = concealed_pungs + concealed_kongs  # concealed pungs, kongs included
    out: dict[int, int] = {}
    if kongs == 4:
        out[5] = 1
    elif kongs == 3:
        out[17] = 1
    elif kongs == 2:
        if concealed_kongs == 2:
            out[53] = 1
        elif concealed_kongs == 1:
            if mixed_fan:
                out[82] = 1
            else:
                out[67] = out[74] = 1
        else:
            out[57] = 1
    elif kongs == 1:
        out[74 if melded_kongs else 67] = 1
    # 双暗杠 already says "two concealed": it takes the place of 双暗刻 for those two.
    if kongs == 2 and concealed_kongs == 2:
        hidden_fan = {3: 33, 4: 12}.get(hidden)
    else:
        hidden_fan = {2: 66, 3: 33, 4: 12}.get(hidden)
    if hidden_fan:
        out[hidden_fan] = 1
    return out


# ---------------------------------------------------------------------------
# the hand context: everything fan functions read, computed once


class Pack(NamedTuple):
    kind: str  # chow / pung / kong / pair
    tile: int  # chow: its middle tile; otherwise the tile
    melded: bool  # exposed (claimed) set; a concealed kong is not melded
    standing: bool  # from the concealed tiles (not a declared meld)


class Cut:
    """The sets of one cut of the tiles and what they make among themselves.

    It depends on the tiles alone, so it is worked out once per hand shape and
    kept (with the decomposition it comes from): re-scoring the same tiles with
    other flags, as the table's preview does after every tap, reuses it.
    """

    __slots__ = (
        "packs",
        "chows",
        "pungs",
        "pair",
        "chow_fans",
        "pung_fans",
        "pack_trait",
        "position",
        "kongs",
        "own_fans",
        "hidden_pungs",
        "read_as",
    )
    packs: tuple[Pack, ...]
    chows: list[int]
    pungs: list[Pack]
    pair: int | None
    chow_fans: dict[int, int]
    pung_fans: dict[int, int]
    pack_trait: int
    position: int  # where the win tile sits: 77 edge, 78 closed, 79 single, 0
    kongs: tuple[int, int]  # melded, concealed
    # regular cuts only: the CUT fans that read the sets alone (21, 31, 55, 59, 63) as
    # (fan id, count) pairs, and the concealed pungs self-drawn / on a discard
    own_fans: tuple[tuple[int, int], ...]
    hidden_pungs: tuple[int, int]
    read_as: tuple[str, str] | None  # the note naming the sets (_read_as), once asked for

    def __init__(self, packs: tuple[Pack, ...], win: int, regular: bool) -> None:
        self.packs = packs
        chows: list[int] = []
        pungs: list[Pack] = []
        pair = None
        mk = ck = 0
        for p in packs:
            k = p.kind
            if k == "chow":
                chows.append(p.tile)
            elif k == "pair":
                pair = p.tile
            else:
                pungs.append(p)
                if k == "kong":
                    if p.melded:
                        mk += 1
                    else:
                        ck += 1
        if len(chows) > 1:
            chows.sort(key=ORDER_KEY.__getitem__)
        self.chows = chows
        self.pungs = pungs
        self.pair = pair
        self.kongs = (mk, ck)
        self.position = _wait_position(packs, win)
        self.chow_fans = {}
        self.pung_fans = {}
        self.pack_trait = 0
        self.own_fans = ()
        self.hidden_pungs = (0, 0)
        self.read_as = None
        if regular:
            self._relations()
            self._own(win)

    def _relations(self) -> None:
        mids = self.chows
        pair = self.pair
        assert pair is not None
        if len(mids) == 4 and _three_suited_terminal_chows(mids, pair):
            self.chow_fans = {29: 1}
        elif len(mids) == 4 and _pure_terminal_chows(mids, pair):
            self.chow_fans = {13: 1}
        else:
            self.chow_fans = chow_relation_fans(mids)
        fans = pung_relation_fans(sorted((p.tile for p in self.pungs), key=ORDER_KEY.__getitem__))
        # 双箭刻 with the third dragon as the pair is 小三元; three winds + a wind pair is 小四喜
        if len(mids) != 4:
            if fans.get(54) and is_dragon(pair):
                del fans[54]
                fans[10] = 1
            elif fans.get(38) and is_wind(pair):
                del fans[38]
                fans[9] = 1
        self.pung_fans = fans
        self.pack_trait = _pack_trait(self.packs)

    def _own(self, w: int) -> None:
        """What the sets alone decide: their CUT fans (as CUT_FANS reads them) and the
        concealed pungs (not kongs), self-drawn and on a discard, where a pung the
        discard completed counts as melded (unless the win tile can sit in a chow)."""
        own: list[tuple[int, int]] = []
        if self.pack_trait:
            own.append((self.pack_trait, 1))  # 21 / 31 / 55
        dragons = sum(1 for p in self.pungs if p.tile >= 31) - 2 * self.pung_fans.get(54, 0)
        if dragons > 0:
            own.append((59, dragons))
        if len(self.chows) == 4 and self.pair is not None and self.pair < 27:
            own.append((63, 1))
        self.own_fans = tuple(own)
        hidden = sum(1 for p in self.pungs if p.kind == "pung" and not p.melded)
        on_discard = hidden
        in_chow = any(
            p.standing and p.kind == "chow" and abs(p.tile - w) <= 1 and suit(p.tile) == suit(w)
            for p in self.packs
        )
        if not in_chow:
            on_discard -= sum(
                1 for p in self.pungs if p.tile == w and p.kind == "pung" and not p.melded
            )
        self.hidden_pungs = (hidden, on_discard)


class Ctx:
    """One way of reading the hand; fan functions are pure functions of it.

    Built once per reading and never changed.  Facts of the tiles and flags
    (suits, ranks, 四归一 ...) come from the shared `Reading`; facts of the
    sets (chows, pungs, their relations) from the `Cut`, worked out once,
    because the rulebook's 套算一次 is a property of all the sets together.
    """

    __slots__ = (
        "r", "form", "packs", "unique_wait", "extra", "chows", "pungs", "pair",
        "kong_table", "chow_fans", "pung_fans", "pack_trait", "wait_position", "own_fans",
        "cut",
    )  # fmt: skip
    r: Reading
    form: str
    packs: tuple[Pack, ...]
    unique_wait: bool
    extra: Mapping[int, int]
    chows: list[int]
    pungs: list[Pack]
    pair: int | None
    kong_table: dict[int, int]
    chow_fans: dict[int, int]
    pung_fans: dict[int, int]
    pack_trait: int
    wait_position: int
    own_fans: tuple[tuple[int, int], ...]
    cut: Cut

    def __init__(
        self,
        r: Reading,
        form: str,
        cut: Cut | None = None,
        unique_wait: bool | None = False,
        extra: Mapping[int, int] | None = None,
    ) -> None:
        if cut is None:
            cut = _NO_CUT
        self.r = r
        self.form = form
        self.packs = cut.packs
        self.extra = extra or {}
        self.chows = cut.chows
        self.pungs = cut.pungs
        self.pair = cut.pair
        self.chow_fans = cut.chow_fans
        self.pung_fans = cut.pung_fans
        self.pack_trait = cut.pack_trait
        # unique_wait None: ask the reading, and only when the win tile sits where a
        # wait fan could come from (most hands never pay for the waits).
        pos = cut.position if unique_wait is not False else 0
        if pos and unique_wait is None:
            unique_wait = r.unique_wait()
        self.unique_wait = bool(unique_wait)
        self.wait_position = pos if unique_wait else 0
        self.own_fans = cut.own_fans
        self.cut = cut
        if form == "regular":
            mk, ck = cut.kongs
            hidden = cut.hidden_pungs[0 if r.hand.self_drawn else 1]
            self.kong_table = _kong_table(hidden, mk, ck, r.mixed_kong_fan)
        else:
            self.kong_table = {}


_kong_table = lru_cache(maxsize=256)(kong_fans)  # shared tables: read, never changed


def _pack_trait(packs: Sequence[Pack]) -> int:
    """全带幺 / 全带五 / 全双刻: every set and the pair share a trait."""
    term = honor = five = even = 0
    for p in packs:
        if p.tile >= 27:
            honor += 1
            continue
        rk = p.tile % 9 + 1
        if p.kind == "chow":
            term += rk in (2, 8)
            five += rk in (4, 5, 6)
        else:
            term += rk in (1, 9)
            five += rk == 5
            even += rk in (2, 4, 6, 8)
    if term + honor == 5:
        return 55
    if five == 5:
        return 31
    if even == 5:
        return 21
    return 0


def _wait_position(packs: Sequence[Pack], w: int) -> int:
    """Edge 77, closed 78 or single 79 by where the win tile sits (one only)."""
    edge = closed = single = False
    for p in packs:
        if not p.standing:
            continue
        if p.kind == "chow" and suit(p.tile) == suit(w):
            if p.tile == w:
                closed = True
            elif abs(p.tile - w) == 1:
                edge = True
        elif p.kind == "pair" and p.tile == w:
            single = True
    return 77 if edge else 78 if closed else 79 if single else 0


_NO_CUT = Cut((), -1, False)


def _pure_terminal_chows(mids: Sequence[int], pair: int) -> bool:
    if rank(pair) != 5 or any(suit(m) != suit(pair) for m in mids):
        return False
    return sorted(rank(m) for m in mids) == [2, 2, 8, 8]


def _three_suited_terminal_chows(mids: Sequence[int], pair: int) -> bool:
    if rank(pair) != 5 or any(suit(m) == suit(pair) or rank(m) not in (2, 8) for m in mids):
        return False
    others = {0, 1, 2} - {suit(pair)}
    return {(suit(m), rank(m)) for m in mids} == {(s, r) for s in others for r in (2, 8)}


# ---------------------------------------------------------------------------
# the fan functions: id -> how often the fan applies to one Ctx
#
# HAND fans read only the tiles, the melds and the flags, so one reading of the
# hand answers them for every cut; CUT fans read the sets of one cut.

Fan = Callable[[Ctx], int]


def _pung_fan_count(c: Ctx) -> int:
    """幺九刻: pungs of terminals or winds, less those a wind fan already counts."""
    n = sum(1 for p in c.pungs if is_terminal(p.tile) or is_wind(p.tile))
    pf = c.pung_fans
    if 38 in pf or 9 in pf:
        return n - 3  # 三风刻 / 小四喜 take their three wind pungs
    r = c.r
    winds = {p.tile for p in c.pungs if is_wind(p.tile)}
    if r.prevalent in winds:
        n -= 1
    if r.seat in winds and r.seat != r.prevalent:
        n -= 1
    return n


HAND_FANS: dict[int, Fan] = {
    3: lambda c: int(c.r.green),
    8: lambda c: int(c.r.tile_trait == 8),
    11: lambda c: int(c.r.tile_trait == 11),
    18: lambda c: int(c.r.tile_trait == 18),
    22: lambda c: int(c.r.flush == 22),
    25: lambda c: int(c.r.rank_fan == 25),
    26: lambda c: int(c.r.rank_fan == 26),
    27: lambda c: int(c.r.rank_fan == 27),
    36: lambda c: int(c.r.rank_fan == 36),
    37: lambda c: int(c.r.rank_fan == 37),
    40: lambda c: int(c.r.reversible),
    44: lambda c: int(c.r.hand.self_drawn and c.r.wall_last),
    45: lambda c: int(not c.r.hand.self_drawn and c.r.wall_last),
    46: lambda c: int(c.r.hand.self_drawn and c.r.kong),
    47: lambda c: int(not c.r.hand.self_drawn and c.r.kong),
    49: lambda c: int(c.r.flush == 49),
    51: lambda c: int(c.r.all_types),
    52: lambda c: int(c.r.n_melded == 4 and not c.r.hand.self_drawn),
    56: lambda c: int(c.r.n_melded == 0 and c.r.hand.self_drawn),
    58: lambda c: int(c.r.fourth),
    62: lambda c: int(c.r.n_melded == 0 and not c.r.hand.self_drawn),
    64: lambda c: c.r.hogs,
    68: lambda c: int(c.r.all_simples),
    75: lambda c: c.r.voided if c.r.voided != 2 else 0,
    76: lambda c: int(c.r.no_honors),
    80: lambda c: int(c.r.hand.self_drawn and not c.r.wall_last and not c.r.kong),
}


def _table_fan(table: str, fid: int) -> Fan:
    """A fan read from one of the set-relation tables of the Ctx."""

    def fan(c: Ctx) -> int:
        n: int = getattr(c, table).get(fid, 0)
        return n

    fan.table = table  # type: ignore[attr-defined]
    return fan


CUT_FANS: dict[int, Fan] = {
    **{
        f: _table_fan("chow_fans", f)
        for f in (13, 14, 16, 23, 28, 29, 30, 39, 41, 50, 69, 70, 71, 72)
    },
    **{f: _table_fan("pung_fans", f) for f in (1, 2, 9, 10, 15, 24, 32, 38, 42, 54, 65)},
    **{f: _table_fan("kong_table", f) for f in (5, 12, 17, 33, 53, 57, 66, 67, 74, 82)},
    21: lambda c: int(c.pack_trait == 21),
    31: lambda c: int(c.pack_trait == 31),
    55: lambda c: int(c.pack_trait == 55),
    48: lambda c: int(len(c.pungs) == 4 and 5 not in c.kong_table and 12 not in c.kong_table),
    # 双箭刻 takes its two dragon pungs (a third would be 大三元)
    59: lambda c: sum(1 for p in c.pungs if p.tile >= 31) - 2 * c.pung_fans.get(54, 0),
    60: lambda c: int(any(p.tile == c.r.prevalent for p in c.pungs)),
    61: lambda c: int(any(p.tile == c.r.seat for p in c.pungs)),
    63: lambda c: int(len(c.chows) == 4 and c.pair is not None and c.pair < 27),
    73: _pung_fan_count,
    77: lambda c: int(c.wait_position == 77),
    78: lambda c: int(c.wait_position == 78),
    79: lambda c: int(c.wait_position == 79),
}
FAN_FUNCS: dict[int, Fan] = {**HAND_FANS, **CUT_FANS}
# 43 无番和 (nothing else applies) and 81 花牌 (flowers) are decided after the others.

_FLAGS = (44, 45, 46, 47, 58, 80)
# Which fans each form is scored with (the rulebook's special forms exclude the
# rest by construction; docs/rules/mcr.md, "Special forms").
# Some are listed only so that the notes can say why they do not count: the
# form's own 不计 list removes them (七对 removes 门前清, 九莲宝灯 清一色 ...).
_CONCEALED = (56, 62)
FORM_HAND_FANS: dict[str, tuple[int, ...]] = {
    "regular": tuple(HAND_FANS),
    "seven_pairs": (
        3,
        8,
        11,
        18,
        22,
        25,
        26,
        27,
        36,
        37,
        40,
        49,
        51,
        64,
        68,
        75,
        76,
        *_CONCEALED,
        *_FLAGS,
    ),
    "seven_shifted_pairs": (68, 22, 76, *_CONCEALED, *_FLAGS),
    "thirteen_orphans": (18, 51, *_CONCEALED, *_FLAGS),
    "honors_knitted": (51, *_CONCEALED, *_FLAGS),
    "knitted_straight": _FLAGS,
    "nine_gates": (22, 76, *_CONCEALED, *_FLAGS),
}
_TABLE_FANS = frozenset(f for f, fn in CUT_FANS.items() if getattr(fn, "table", None))
_REGULAR_OWN_FANS = tuple(f for f in CUT_FANS if f not in _TABLE_FANS)
FORM_CUT_FANS: dict[str, tuple[int, ...]] = {
    "regular": tuple(CUT_FANS),
    "knitted_straight": (60, 61, 77, 78, 79),
}

_POINTS = TABLE.points


class Scored(NamedTuple):
    fans: dict[int, int]
    excluded: dict[int, int]  # fan id -> the fan that excluded it
    total: int
    ctx: Ctx


def apply_exclusions(raw: Mapping[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """The rulebook's 不计 lists, as data (rules.fans.FanTable.apply_exclusions)."""
    return TABLE.apply_exclusions(raw)


def score_ctx(c: Ctx, hand_raw: Mapping[int, int] | None = None) -> Scored:
    """Score one reading; `hand_raw` is the HAND fans, when already known for this form."""
    if hand_raw is None:
        hand_raw = hand_fans(c)
    raw = dict(hand_raw)
    if c.form == "regular":
        # The set-relation fans are the entries of the Ctx's tables (see CUT_FANS,
        # which reads them one by one); taking the tables whole is the same, faster.
        raw.update(c.chow_fans)
        raw.update(c.pung_fans)
        kt = c.kong_table
        raw.update(kt)
        # The rest of CUT_FANS (_REGULAR_OWN_FANS), the same tests: those of the sets
        # alone come worked out with the cut, the others read the flags and winds.
        raw.update(c.own_fans)
        pungs = c.pungs
        if pungs:
            if len(pungs) == 4 and 5 not in kt and 12 not in kt:
                raw[48] = 1
            r = c.r
            prevalent = r.prevalent
            seat = r.seat
            for p in pungs:
                if p.tile == prevalent:
                    raw[60] = 1
                if p.tile == seat:
                    raw[61] = 1
            n = _pung_fan_count(c)
            if n > 0:
                raw[73] = n
        if c.wait_position:
            raw[c.wait_position] = 1  # 77 / 78 / 79
    else:
        for fid in FORM_CUT_FANS.get(c.form, ()):
            n = CUT_FANS[fid](c)
            if n > 0:
                raw[fid] = n
    for fid, n in c.extra.items():
        if n > 0:
            raw[fid] = raw.get(fid, 0) + n
    fans, excluded = apply_exclusions(raw)
    total = 0
    for f, n in fans.items():
        total += _POINTS[f] * n
    return Scored(fans, excluded, total, c)


def hand_fans(c: Ctx) -> dict[int, int]:
    """The HAND fans of the Ctx's form: the reading's, kept to those the form is scored with."""
    every = c.r.hand_raw()
    if c.form == "regular":
        return dict(every)
    keep = _FORM_HAND_SETS[c.form]
    return {fid: n for fid, n in every.items() if fid in keep}


_FORM_HAND_SETS = {form: frozenset(fids) for form, fids in FORM_HAND_FANS.items()}
assert _FORM_HAND_SETS["regular"] == frozenset(HAND_FANS)


# ---------------------------------------------------------------------------
# one hand: the facts every reading shares, and its readings


_REGULAR_FORMS = Forms(seven_pairs=False)
_WAIT_FORMS = Forms(seven_pairs=True)


def _knit_pattern_of(counts: bytes) -> tuple[int, ...] | None:
    for pat in shapes.KNIT_PATTERNS:
        if all(counts[t] for t in pat):
            return pat
    return None


_M, _P, _S, _HONOR, _WIND, _DRAGON, _ORPHAN, _TERMINAL, _GREEN, _REVERSIBLE = (
    1 << i for i in range(10)
)
_ALL_BITS = (1 << 10) - 1
_BITS = [
    (1 << suit(t) if t < 27 else _HONOR)
    | (_WIND if is_wind(t) else 0)
    | (_DRAGON if is_dragon(t) else 0)
    | (_ORPHAN if t in ORPHANS else 0)
    | (_TERMINAL if is_terminal(t) else 0)
    | (_GREEN if t in GREEN else 0)
    | (_REVERSIBLE if t in REVERSIBLE else 0)
    for t in range(34)
]


class Reading:
    """The facts of one hand that every way of reading it shares."""

    hand: Hand
    params: Mapping[str, Any]
    mixed_kong_fan: bool
    win: int
    standing: bytes
    fixed: bytes
    merged: bytes
    tiles: list[int]
    fourth: bool
    kong: bool
    wall_last: bool
    seat: int
    prevalent: int
    n_fixed: int
    n_melded: int
    fixed_packs: tuple[Pack, ...]
    voided: int
    no_honors: bool
    flush: int
    all_types: bool
    all_simples: bool
    green: bool
    reversible: bool
    tile_trait: int
    rank_fan: int
    hogs: int
    tile_fans: tuple[tuple[int, int], ...]

    def __init__(self, hand: Hand, params: Mapping[str, Any]) -> None:
        if hand.wild:
            raise RuleError(
                "bad_input",
                "MCR has no wild tiles: leave 'wild' empty",
                "国标麻将没有癞子（百搭）：请不要填 wild",
            )
        if hand.robbing_kong and hand.self_drawn:
            raise RuleError(
                "bad_input",
                "robbing a kong is a win on another player's tile, so it cannot be self-drawn",
                "抢杠和是和别人加杠的牌，不能同时是自摸",
            )
        assert hand.win_tile is not None
        self.hand = hand
        self.params = params
        self.mixed_kong_fan = bool(params["mixed_kong_fan"])
        w = self.win = hand.win_tile
        self.standing = hand.counts  # concealed + win tile
        self.fixed = hand.meld_counts
        self.merged = merged = (
            bytes(map(add, self.standing, self.fixed)) if hand.melds else self.standing
        )
        # Flags as the rulebook defines them (docs/rules/mcr.md, "Flags").
        fourth = hand.fourth_tile
        if self.standing[w] != 1:
            fourth = False  # the win tile was already standing in the hand: not the last one out
        if self.fixed[w] == 3:
            fourth = True  # three copies shown in our own pung: the win tile is the last
        kong = False
        if hand.self_drawn and hand.after_kong:
            kong = any(m.type == "kong" for m in hand.melds)
        elif not hand.self_drawn and hand.robbing_kong:
            kong = self.fixed[w] == 0 and self.standing[w] == 1
        self.fourth = fourth
        self.kong = kong
        self.wall_last = hand.last_tile
        self.seat = _WIND_OF[hand.seat_wind]
        self.prevalent = _WIND_OF[hand.prevalent_wind]
        self.n_fixed = len(hand.melds)
        self.n_melded = sum(1 for m in hand.melds if m.exposed)
        self.fixed_packs = tuple(
            Pack(
                "chow" if m.type == "chi" else m.type,
                m.tiles[1] if m.type == "chi" else m.tiles[0],
                m.exposed,
                False,
            )
            for m in hand.melds
        )
        kongs = sum(1 for m in hand.melds if m.type == "kong")
        (
            self.tiles,
            self.voided,
            self.no_honors,
            self.flush,
            self.all_types,
            self.all_simples,
            self.green,
            self.reversible,
            self.tile_trait,
            self.rank_fan,
            self.hogs,
            self.tile_fans,
        ) = tile_facts(merged, kongs)
        self._hand_raw: dict[int, int] | None = None

    def hand_raw(self) -> dict[int, int]:
        """Every HAND fan (`HAND_FANS`) of this hand, worked out once: the tile facts'
        fans (cached with them) and those of the flags.  Shared: do not change it."""
        out = self._hand_raw
        if out is None:
            out = self._hand_raw = dict(self.tile_fans)
            sd = self.hand.self_drawn
            last = self.wall_last
            kong = self.kong
            n_melded = self.n_melded
            if last:
                out[44 if sd else 45] = 1
            if kong:
                out[46 if sd else 47] = 1
            if sd:
                if n_melded == 0:
                    out[56] = 1
                if not last and not kong:
                    out[80] = 1
            else:
                if n_melded == 4:
                    out[52] = 1
                if n_melded == 0:
                    out[62] = 1
            if self.fourth:
                out[58] = 1
        return out

    def unique_wait(self) -> bool:
        return unique_wait(self.standing, self.fixed, self.win, self.n_fixed)
        before = bytearray(self.standing)
        before[self.win] -= 1
        held = bytes(map(add, before, self.fixed))
        forms = _WAIT_FORMS if self.n_fixed == 0 else _REGULAR_FORMS
        self._unique = (
            len(waits_counts(bytes(before), 0, held, frozenset(), self.n_fixed, forms)) == 1
        )
        return self._unique

    # -- special forms ----------------------------------------------------

    def special(self) -> Scored | None:
        s = self.standing
        if not _may_be_special(s, self.n_fixed, self.win):
            return None
        if self.n_fixed == 0:
            if shapes.is_seven_pairs(s, 0, quads=True):
                if _seven_shifted(s, suit(self.win)):
                    return score_ctx(Ctx(self, "seven_shifted_pairs", extra={6: 1}))
                return score_ctx(Ctx(self, "seven_pairs", extra={19: 1}))
            knit = self._honors_knitted()
            if knit is not None:
                return knit
            if shapes.is_thirteen_orphans(s, 0):
                return score_ctx(Ctx(self, "thirteen_orphans", extra={7: 1}))
        if self.n_fixed <= 1:
            ks = self._knitted_straight()
            if ks is not None:
                return ks
        if self.n_fixed == 0:
            return self._nine_gates()
        return None

    def _honors_knitted(self) -> Scored | None:
        s = self.standing
        if max(s) > 1 or not shapes.is_knitted(s, 0, False):
            return None
        nums = sum(1 for t in range(27) if s[t])
        if nums == 7 and all(s[t] for t in (*WINDS, *DRAGONS)):
            extra = {20: 1}
        else:
            extra = {34: 1}
            if nums == 9:
                extra[35] = 1
        return score_ctx(Ctx(self, "honors_knitted", extra=extra))

    def _knitted_straight(self) -> Scored | None:
        s = self.standing
        pat = _knit_pattern_of(s)
        if pat is None or max(s) < 2:
            return None
        rest = bytearray(s)
        for t in pat:
            rest[t] -= 1
        decs = shapes.standard_decompositions(bytes(rest), 0)
        if len(decs) != 1:
            return None
        groups = decs[0].groups
        pair = next(g.tile for g in groups if g.kind == "pair")
        if self.n_fixed == 1:
            fourth = self.fixed_packs[0]
        else:
            g = next(g for g in groups if g.kind != "pair")
            fourth = Pack(g.kind, g.tile + 1 if g.kind == "chow" else g.tile, False, True)
        packs = (fourth, Pack("pair", pair, False, True))
        extra: dict[int, int] = {35: 1}
        t = fourth.tile
        if fourth.kind == "chow":
            if is_num(pair):
                extra[63] = 1
            if self.merged[pair] == 4:
                extra[64] = 1
        elif not is_num(t):
            if is_wind(t):
                extra[73] = (
                    1 - (t == self.prevalent) - (t == self.seat and self.seat != self.prevalent)
                )
                if is_dragon(pair):
                    extra[51] = 1
            else:
                extra[59] = 1
                if is_wind(pair):
                    extra[51] = 1
        else:
            if is_terminal(t):
                extra[73] = 1
            if is_num(pair):
                extra[76] = 1
            if fourth.kind != "kong" and self.merged[t] == 4:
                extra[64] = 1
        if fourth.kind == "kong":
            extra[74 if fourth.melded else 67] = 1
        if not fourth.melded:  # the hand is concealed (a concealed kong keeps it so)
            extra[56 if self.hand.self_drawn else 62] = 1
        # waits: judged on the set and the pair beside the knitted body
        w = self.win
        in_body = w in pat
        unique = False
        if self.params["knitted_wait_fans"] or not in_body:
            if self.n_fixed == 0:
                unique = _residual_unique_wait(bytes(rest), w)
            elif not in_body or s[w] == 3:
                extra[79] = 1
        return score_ctx(
            Ctx(
                self,
                "knitted_straight",
                Cut(packs, w, False),
                unique,
                {k: v for k, v in extra.items() if v},
            )
        )

    def _nine_gates(self) -> Scored | None:
        s = self.standing
        w = self.win
        if w >= 27:
            return None
        base = 9 * suit(w)
        need = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        rk = rank(w)
        need[rk - 1] += 1
        if list(s[base : base + 9]) != need or sum(s) != 14:
            return None
        if rk in (1, 9):
            extra = {28: 1, 64: 1}
        elif rk in (2, 8):
            extra = {66: 1, 71: 1, 73: 1}
        elif rk == 5:
            extra = {66: 1, 73: 1}
        else:
            extra = {71: 1}
        return score_ctx(Ctx(self, "nine_gates", extra={4: 1, **extra}))

    # -- regular cuts -----------------------------------------------------

    def regular(self) -> list[Scored]:
        out = []
        hand_raw: dict[int, int] | None = None
        for cut in regular_cuts(self.standing, self.fixed_packs, self.win):
            c = Ctx(self, "regular", cut, None)
            if hand_raw is None:
                hand_raw = self.hand_raw()  # score_ctx copies it
            out.append(score_ctx(c, hand_raw))
        return out


@lru_cache(maxsize=8192)
def regular_cuts(standing: bytes, fixed_packs: tuple[Pack, ...], win: int) -> tuple[Cut, ...]:
    """Every sets-and-pair cut of the hand, in the order ties are settled, with its set facts.

    Cached per hand shape (the decomposition cache, one level up).
    """
    decs = decompositions_counts(standing, 0, len(fixed_packs), _REGULAR_FORMS)
    if len(decs) > 1:
        decs = tuple(sorted(decs, key=_division_order))
    return tuple(
        Cut(
            fixed_packs
            + tuple(
                Pack("chow", g.tile + 1, False, True)
                if g.kind == "chow"
                else Pack(g.kind, g.tile, False, True)
                for g in d.groups
            ),
            win,
            True,
        )
        for d in decs
    )


@lru_cache(maxsize=8192)
def unique_wait(standing: bytes, fixed: bytes, win: int, n_fixed: int) -> bool:
    """The hand waited on exactly one kind (a fifth copy is no wait)."""
    before = bytearray(standing)
    before[win] -= 1
    held = bytes(map(add, before, fixed))
    forms = _WAIT_FORMS if n_fixed == 0 else _REGULAR_FORMS
    return len(waits_counts(bytes(before), 0, held, frozenset(), n_fixed, forms)) == 1


@lru_cache(maxsize=8192)
def tile_facts(
    merged: bytes, kongs: int
) -> tuple[
    list[int], int, bool, int, bool, bool, bool, bool, int, int, int, tuple[tuple[int, int], ...]
]:
    """What the tiles alone decide (suits, ranks, tile traits, 四归一), from per-tile bit masks,
    and the HAND fans that read only these facts, as (fan id, count) pairs."""
    tiles = [t for t in range(34) if merged[t]]
    every = _ALL_BITS
    some = 0
    for t in tiles:
        bits = _BITS[t]
        every &= bits
        some |= bits
    voided = 3 - bool(some & _M) - bool(some & _P) - bool(some & _S)
    no_honors = not some & _HONOR
    all_simples = not some & _ORPHAN
    if all_simples:
        trait = 0
    elif every & _HONOR:
        trait = 11
    elif every & _TERMINAL:
        trait = 8
    elif every & _ORPHAN:
        trait = 18
    else:
        trait = 0
    flush = (22 if no_honors else 49) if voided == 2 else 0
    all_types = voided == 0 and bool(some & _WIND) and bool(some & _DRAGON)
    green = bool(every & _GREEN)
    reversible = bool(every & _REVERSIBLE)
    rank_fan = _rank_fan(tiles)
    hogs = merged.count(4) - kongs
    # the fans of HAND_FANS that read these facts alone (the same tests, id by id)
    fans: list[tuple[int, int]] = []
    if green:
        fans.append((3, 1))
    if trait:
        fans.append((trait, 1))  # 8 / 11 / 18
    if flush:
        fans.append((flush, 1))  # 22 / 49
    if rank_fan:
        fans.append((rank_fan, 1))  # 25 / 26 / 27 / 36 / 37
    if reversible:
        fans.append((40, 1))
    if all_types:
        fans.append((51, 1))
    if hogs > 0:
        fans.append((64, hogs))
    if all_simples:
        fans.append((68, 1))
    if voided != 2 and voided > 0:
        fans.append((75, voided))
    if no_honors:
        fans.append((76, 1))
    return (
        tiles,
        voided,
        no_honors,
        flush,
        all_types,
        all_simples,
        green,
        reversible,
        trait,
        rank_fan,
        hogs,
        tuple(fans),
    )


@lru_cache(maxsize=8192)
def _may_be_special(s: bytes, n_fixed: int, w: int) -> bool:
    """False when no special form can fit these tiles (most hands): `special()` skips them.

    A loose test, cached per hand shape: every hand a special form takes passes it.
    """
    if n_fixed > 1:
        return False
    if _knit_pattern_of(s) is not None:  # 组合龙 (with one meld, the only form left)
        return True
    if n_fixed:
        return False
    return (
        shapes.is_seven_pairs(s, 0, quads=True)
        or shapes.is_knitted(s, 0, False)
        or shapes.is_thirteen_orphans(s, 0)
        or (w < 27 and sum(s[9 * suit(w) : 9 * suit(w) + 9]) == 14)  # 九莲宝灯: one suit
    )


def _rank_fan(tiles: Sequence[int]) -> int:
    """大于五 / 小于五 / 全大 / 全中 / 全小 (at most one)."""
    if tiles[-1] >= 27:
        return 0
    ranks = {t % 9 + 1 for t in tiles}
    if ranks <= {1, 2, 3, 4}:
        return 37 if 4 in ranks else 27
    if ranks <= {6, 7, 8, 9}:
        return 36 if 6 in ranks else 25
    if ranks <= {4, 5, 6}:
        return 26
    return 0


def _residual_unique_wait(rest: bytes, w: int) -> bool:
    """The wait of the five tiles beside the knitted body (a set and the pair)."""
    if not rest[w]:
        return False
    before = bytearray(rest)
    before[w] -= 1
    return len(shapes.standard_waits(bytes(before), 0)) == 1


def _division_order(d: shapes.Decomposition) -> tuple[tuple[int, int], ...]:
    """The order the reference calculator meets cuts in (ties keep the first)."""
    return tuple(
        sorted(
            (ORDER_KEY[g.tile], 0 if g.kind == "pung" else 1) for g in d.groups if g.kind != "pair"
        )
    )


def _seven_shifted(s: bytes, st: int) -> bool:
    if st > 2:
        return False
    body = [s[9 * st + i] for i in range(9)]
    return any(body[i : i + 7] == [2] * 7 for i in range(3))


def best_reading(reading: Reading) -> Scored | None:
    """The highest-scoring way to read the hand, ties broken as the reference does."""
    best = reading.special()
    if best is None or best.ctx.form == "seven_pairs":
        seven = best is not None
        for sc in reading.regular():
            if (
                best is None
                or sc.total > best.total
                or sc.total == best.total
                and (sc.fans.get(23) or seven or sc.fans.get(32))
            ):
                best = sc
    return best


# ---------------------------------------------------------------------------
# the ruleset


class Mcr(Ruleset):
    id = "mcr"
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
            "One concealed and one melded kong score 明暗杠 (5) instead of 暗杠 (2) + 明杠 (1)",
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
    )

    def score_hand(self, hand: Hand, params: Mapping[str, Any]) -> dict[str, Any]:
        reading = Reading(hand, params)
        best = best_reading(reading)
        if best is None:
            raise RuleError(
                "not_a_win",
                f"{hand.describe()} is not a winning hand: it does not form four sets and a pair, "
                "seven pairs, thirteen orphans or a knitted hand",
                "这手牌不能和：组不成四副面子加一对将、七对、十三幺或全不靠类牌型",
            )
        items = sorted(best.fans.items())
        fans = [_fan_dict(fid, n) for fid, n in items]
        fan_total = best.total
        flower_pts = hand.flowers * int(params["flower_points"])
        if hand.flowers:
            fans.append({**_fan_dict(81, hand.flowers), "points": int(params["flower_points"])})
        total = fan_total + flower_pts
        need = int(params["min_fans"])
        win = fan_total >= need
        notes, notes_zh = _explain(best, hand, params, fan_total, need, items)
        out: dict[str, Any] = {
            "win": win,
            "fans": fans,
            "total": total,
            "notes": notes,
            "notes_zh": notes_zh,
        }
        if hand.table is not None:
            out.update(
                _payments(
                    hand.self_drawn, hand.table, total if win else 0, int(params["base"]), win
                )
            )
        return out

    table_play = True
    table_spec = TableSpec(
        flowers=8,
        flags=(
            WinFlag("after_kong", "杠上开花", "Win after a kong", when="self_drawn"),
            WinFlag("robbing_kong", "抢杠和", "Robbing the kong", when="discard"),
            WinFlag("last_tile", "海底", "Last tile"),
            WinFlag("fourth_tile", "和绝张", "Last of its kind"),
        ),
    )
    presets = (
        Preset("competition", "比赛规则", "Competition", {}),
        Preset(
            "room",
            "棋牌室（庄家和牌或荒庄连庄）",
            "Room game (the dealer keeps the deal on a win or a draw)",
            {"dealer_repeat": "dealer_wins_or_draw"},
        ),
        Preset(
            "standard81",
            "标准81番（不计明暗杠）",
            "The standard 81 fans (no 明暗杠)",
            {"mixed_kong_fan": False},
        ),
    )

    def fan_catalog(self, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [
            {"id": f.id, "name_zh": f.zh, "name_en": f.en, "points": f.points}
            for f in sorted(FANS.values(), key=lambda f: f.id)
            if f.id != 81  # flowers are counted apart
        ]

    def quick_score(
        self,
        fans: Mapping[int, int],
        flowers: int,
        table: Table,
        self_drawn: bool,
        params: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Fans picked from the list; exclusions are the player's to respect, the sum is ours."""
        picked: dict[int, int] = {}
        for fid, n in fans.items():
            if fid not in FANS or fid == 81:
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
        fan_total = sum(FANS[f].points * n for f, n in picked.items())
        flower_value = int(params["flower_points"])
        total = fan_total + flowers * flower_value
        need = int(params["min_fans"])
        win = fan_total >= need
        out_fans = [_fan_dict(f, n) for f, n in sorted(picked.items())]
        if flowers:
            out_fans.append({**_fan_dict(81, flowers), "points": flower_value})
        notes = [f"quick entry: {fan_total} fans picked by hand"]
        notes_zh = [f"直接选番：共 {fan_total} 番"]
        if not win:
            notes.append(
                f"{need - fan_total} short of the {need}-fan minimum, so this is not a legal win"
            )
            notes_zh.append(f"不足 {need} 番起和，还差 {need - fan_total} 番，不能和牌")
        out: dict[str, Any] = {
            "win": win,
            "fans": out_fans,
            "total": total,
            "notes": notes,
            "notes_zh": notes_zh,
        }
        out.update(_payments(self_drawn, table, total if win else 0, int(params["base"]), win))
        return out

    def next_dealer(
        self,
        dealer: int,
        players: int,
        winners: Sequence[int],
        params: Mapping[str, Any],
        discarder: int | None = None,
    ) -> int:
        rule = params["dealer_repeat"]
        if rule == "dealer_wins_or_draw" and (not winners or dealer in winners):
            return dealer
        if rule == "dealer_wins" and dealer in winners:
            return dealer
        return (dealer + 1) % players

    def wait_tiles(self, hand: Hand, params: Mapping[str, Any]) -> list[int]:
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


# A fan's entry in a result, prebuilt without its count.
_FAN_DICTS = {
    fid: {"id": fid, "name_zh": f.zh, "name_en": f.en, "points": f.points}
    for fid, f in FANS.items()
}


def _fan_dict(fid: int, n: int) -> dict[str, Any]:
    return {**_FAN_DICTS[fid], "count": n}


_PACK_NAMES_ZH = {"chow": "顺", "pung": "刻", "kong": "杠", "pair": "将"}


@lru_cache(maxsize=1024)
def _pack_zh(p: Pack) -> str:
    return tile_zh(p.tile - 1 if p.kind == "chow" else p.tile) + _PACK_NAMES_ZH[p.kind]


@lru_cache(maxsize=1024)
def _pack_en(p: Pack) -> str:
    return f"{p.kind} {tile_str(p.tile - 1 if p.kind == 'chow' else p.tile)}"


_NOTE_ZH = {f.id: f"{f.zh}：{f.points} 番，{f.rule_zh}" for f in FANS.values()}
_NOTE_EN = {f.id: f"{f.en}: {f.points}, {f.rule_en}" for f in FANS.values()}


def _fan_note(fid: int, n: int) -> tuple[str, str]:
    """The note of a fan counted n times: (Chinese, English)."""
    if n == 1:
        return _NOTE_ZH[fid], _NOTE_EN[fid]
    f = FANS[fid]
    return (
        f"{f.zh} ×{n}：{f.points * n} 番，{f.rule_zh}",
        f"{f.en} ×{n}: {f.points * n}, {f.rule_en}",
    )


def _excluded_note(fid: int, by: int) -> tuple[str, str]:
    """Why a fan is not counted: (Chinese, English)."""
    return (
        f"不计{FANS[fid].zh}：已计{FANS[by].zh}",
        f"{FANS[fid].en} not counted: included in {FANS[by].en}",
    )


def _read_as(packs: tuple[Pack, ...]) -> tuple[str, str]:
    """The sets a regular reading is scored with: (Chinese, English)."""
    return (
        "按 " + "、".join(_pack_zh(p) for p in packs) + " 计番",
        "read as " + ", ".join(_pack_en(p) for p in packs),
    )


@lru_cache(maxsize=8192)
def _static_notes(
    read_as: tuple[str, str] | None,
    items: tuple[tuple[int, int], ...],
    excluded: tuple[tuple[int, int], ...],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The notes that depend on the reading alone: its sets (`_read_as`, None for a
    special form), its fans (id, count) and the fans it does not count (id, by):
    (English, Chinese)."""
    en: list[str] = []
    zh: list[str] = []
    if read_as is not None:
        z, e = read_as
        zh.append(z)
        en.append(e)
    for fid, n in items:
        z, e = _fan_note(fid, n)
        zh.append(z)
        en.append(e)
    for fid, by in excluded:
        z, e = _excluded_note(fid, by)
        zh.append(z)
        en.append(e)
    return tuple(en), tuple(zh)


def _explain(
    best: Scored,
    hand: Hand,
    params: Mapping[str, Any],
    fan_total: int,
    need: int,
    items: Sequence[tuple[int, int]] | None = None,
) -> tuple[list[str], list[str]]:
    """The notes, English and Chinese; `items` is sorted(best.fans.items()) when known."""
    c = best.ctx
    read_as = None
    if c.form == "regular":
        cut = c.cut
        read_as = cut.read_as
        if read_as is None:
            read_as = cut.read_as = _read_as(cut.packs)
    en_notes, zh_notes = _static_notes(
        read_as,
        tuple(items if items is not None else sorted(best.fans.items())),
        tuple(sorted(best.excluded.items())) if best.excluded else (),
    )
    en = list(en_notes)
    zh = list(zh_notes)
    if hand.flowers:
        zh.append(
            f"花牌 {hand.flowers} 张：另加 {hand.flowers * int(params['flower_points'])} 分，不计入起和番"
        )
        en.append(
            f"{hand.flowers} flower(s) add {hand.flowers * int(params['flower_points'])}, not counted toward the minimum"
        )
    if fan_total < need:
        zh.append(f"共 {fan_total} 番，不足 {need} 番起和，还差 {need - fan_total} 番，不能和牌")
        en.append(
            f"{fan_total} fans: {need - fan_total} short of the {need}-fan minimum, so this is not a legal win"
        )
    return en, zh


def _payments(self_drawn: bool, t: Table, total: int, base: int, win: bool) -> dict[str, Any]:
    if t.players != 4:
        raise RuleError("bad_table", "MCR is played by four players", "国标麻将是四人游戏")
    if t.winner is None:
        raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
    deltas = [0] * 4
    payments = []
    if win:
        for seat in range(4):
            if seat == t.winner:
                continue
            amount = base + total if (self_drawn or seat == t.discarder) else base
            payments.append({"from": seat, "to": t.winner, "amount": amount})
            deltas[seat] -= amount
            deltas[t.winner] += amount
    return {"payments": payments, "deltas": deltas}


__all__ = ["FAN_FUNCS", "Ctx", "Mcr", "Reading", "best_reading", "score_ctx"]
