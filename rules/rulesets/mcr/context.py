"""国标 MCR: the hand context that fan conditions read.

The tiles as the rulebook sees them (suits, ranks, winds, the reference
calculator's tile order), the relations between sets that the rulebook limits
with 套算一次 (account once) and 不得相同 (no repeats), and the frozen context of
one way of reading a hand: `Pack`, `Cut` (the sets of one cut, with their
relation tables `chow_fans` / `pung_fans`) and `Ctx` (what every fan condition
in `fans.py` is a pure function of).  Nothing here imports the fan table, so
`fans.py` can import this module and `scoring.py` can import both.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from rules.tiles import WIND_TILES

if TYPE_CHECKING:  # Ctx keeps the Reading it comes from; scoring.py builds both
    from rules.rulesets.mcr.scoring import Reading

# ---------------------------------------------------------------------------
# tiles as the rulebook sees them

DRAGONS = (31, 32, 33)
GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 23468s and 发
REVERSIBLE = frozenset(
    (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)
)  # 1234589p 245689s 白
ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *WIND_TILES, *DRAGONS))

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
    two = _two_chow
    three = _THREE_CHOW
    if n == 4:
        f4 = four_chow_fan(mids)
        if f4:
            return {f4: 1}
        for i, j, k, extra in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f3 = three[(mids[i], mids[j], mids[k])]
            if f3:
                out[f3] = 1
                # the fourth chow combines once with the three, best fan first
                found = {two(mids[x], mids[extra]) for x in (i, j, k)}
                for f in (PURE_DOUBLE, MIXED_DOUBLE, SHORT_STRAIGHT, TERMINAL_CHOWS):
                    if f in found:
                        out[f] = 1
                        break
                return out
        pairs = [two(mids[i], mids[j]) for i, j in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))]
        related = {0: (0, 1, 2), 1: (0, 3, 4), 2: (1, 3, 5), 3: (2, 4, 5)}
        max_cnt = 3 - sum(1 for idx in related.values() if not any(pairs[p] for p in idx))
        return _account_once(pairs, max_cnt) if max_cnt > 0 else {}
    if n == 3:
        f3 = three[(mids[0], mids[1], mids[2])]
        if f3:
            return {f3: 1}
        pairs = [
            two(mids[0], mids[1]),
            two(mids[0], mids[2]),
            two(mids[1], mids[2]),
        ]
        return _account_once(pairs, 2)
    if n == 2:
        f = two(mids[0], mids[1])
        return {f: 1} if f else {}
    return out


class _ThreeChow(dict[tuple[int, int, int], int]):
    """three_chow_fan by its three middles, each worked out once."""

    def __missing__(self, key: tuple[int, int, int]) -> int:
        f = self[key] = three_chow_fan(*key)
        return f


_THREE_CHOW = _ThreeChow()
_TWO_CHOW = tuple(tuple(two_chow_fan(a, b) for b in range(27)) for a in range(27))


def _two_chow(a: int, b: int) -> int:
    return _TWO_CHOW[a][b]


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
    two = _two_pung
    three = _THREE_PUNG
    if n == 4:
        if (
            _next(tiles[0], tiles[1], 1)
            and _next(tiles[1], tiles[2], 1)
            and _next(tiles[2], tiles[3], 1)
        ):
            return {15: 1}  # 一色四节高
        if tuple(tiles) == WIND_TILES:
            return {1: 1}  # 大四喜
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            f3 = three[(tiles[i], tiles[j], tiles[k])]
            if f3:
                out[f3] = 1
                for x in (0, 1, 2, 3):  # the fourth pung combines once
                    if x != free:
                        f2 = two(tiles[x], tiles[free])
                        if f2:
                            out[f2] = out.get(f2, 0) + 1
                            break
                return out
    elif n == 3:
        f3 = three[(tiles[0], tiles[1], tiles[2])]
        if f3:
            return {f3: 1}
    elif n != 2:
        return out
    for i in range(n):
        for j in range(i + 1, n):
            f2 = two(tiles[i], tiles[j])
            if f2:
                out[f2] = out.get(f2, 0) + 1
    return out


class _ThreePung(dict[tuple[int, int, int], int]):
    """three_pung_fan by its three tiles, each worked out once."""

    def __missing__(self, key: tuple[int, int, int]) -> int:
        f = self[key] = three_pung_fan(*key)
        return f


_THREE_PUNG = _ThreePung()  # at most 34 ** 3 entries
_TWO_PUNG = tuple(tuple(two_pung_fan(a, b) for b in range(34)) for a in range(34))


def _two_pung(a: int, b: int) -> int:
    return _TWO_PUNG[a][b]


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
        # One pass over the packs: the sets by kind, the kongs, where the win tile
        # sits (as _wait_position) and the trait every pack shares (as _pack_trait).
        self.packs = packs
        chows: list[int] = []
        pungs: list[Pack] = []
        pair = None
        mk = ck = 0
        trait = 7
        edge = closed = single = False
        wsuit = win // 9 if 0 <= win < 27 else -1
        for p in packs:
            k, t, melded, standing = p
            if k == "chow":
                chows.append(t)
                trait &= _CHOW_TRAIT[t]
                if standing and t // 9 == wsuit:
                    if t == win:
                        closed = True
                    elif t - win == 1 or win - t == 1:
                        edge = True
            elif k == "pair":
                pair = t
                trait &= _SET_TRAIT[t]
                if standing and t == win:
                    single = True
            else:
                pungs.append(p)
                trait &= _SET_TRAIT[t]
                if k == "kong":
                    if melded:
                        mk += 1
                    else:
                        ck += 1
        if len(chows) > 1:
            chows.sort(key=ORDER_KEY.__getitem__)
        self.chows = chows
        self.pungs = pungs
        self.pair = pair
        self.kongs = (mk, ck)
        self.position = 77 if edge else 78 if closed else 79 if single else 0
        self.read_as = None
        if regular:
            self._relations(trait)
            self._own(win)
        else:
            self.chow_fans = {}
            self.pung_fans = {}
            self.pack_trait = 0
            self.own_fans = ()
            self.hidden_pungs = (0, 0)

    def _relations(self, trait: int) -> None:
        """The set-relation tables, shared between cuts with the same sets (read only).

        Read from the shipped tables (`shipped_chow_fans`, `shipped_pung_fans`):
        about three new hands in ten meet a chow or pung set for the first time,
        which would otherwise work its fans out then."""
        mids = self.chows
        pair = self.pair
        assert pair is not None
        # from the shipped table (no chow set is worked out here); the pair tells
        # only with four chows and a pair of fives (三色双龙会 / 一色双龙会)
        if len(mids) < 2:
            cf = _NO_FANS  # (chow_relation_fans of fewer than two chows)
        elif len(mids) == 4 and pair < 27 and pair % 9 == 4:
            cf = _chow_fans(mids, pair)
        else:
            cf = shipped_chow_fans(mids)
        self.chow_fans = cf
        pungs = self.pungs
        pf = _NO_FANS  # (no pung, or one: pung_relation_fans has nothing)
        if len(pungs) > 1:
            pf = shipped_pung_fans(sorted([p.tile for p in pungs], key=ORDER_KEY.__getitem__))
            # 双箭刻 with the third dragon as the pair is 小三元; three winds + a wind
            # pair is 小四喜 (sets with pungs are never four chows)
            if 54 in pf and is_dragon(pair):
                pf = {f: n for f, n in pf.items() if f != 54}
                pf[10] = 1
            elif 38 in pf and is_wind(pair):
                pf = {f: n for f, n in pf.items() if f != 38}
                pf[9] = 1
        self.pung_fans = pf
        # 全带幺 / 全带五 / 全双刻: every set and the pair share the trait (5 packs)
        self.pack_trait = (
            0
            if len(self.packs) != 5
            else 55
            if trait & 1
            else 31
            if trait & 2
            else 21
            if trait & 4
            else 0
        )

    def _own(self, w: int) -> None:
        """What the sets alone decide: their CUT fans (as CUT_FANS reads them) and the
        concealed pungs (not kongs), self-drawn and on a discard, where a pung the
        discard completed counts as melded (unless the win tile can sit in a chow)."""
        own: list[tuple[int, int]] = []
        if self.pack_trait:
            own.append((self.pack_trait, 1))  # 21 / 31 / 55
        hidden = 0
        hidden_w = False
        dragons = 0
        for k, t, melded, _ in self.pungs:
            if t >= 31:
                dragons += 1
            if k == "pung" and not melded:
                hidden += 1
                if t == w:
                    hidden_w = True
        if dragons:
            dragons -= 2 * self.pung_fans.get(54, 0)
            if dragons > 0:
                own.append((59, dragons))
        if len(self.chows) == 4 and self.pair is not None and self.pair < 27:
            own.append((63, 1))
        self.own_fans = tuple(own)
        on_discard = hidden
        if hidden_w:
            wsuit = w // 9 if w < 27 else -1
            in_chow = any(
                p.standing and p.kind == "chow" and abs(p.tile - w) <= 1 and p.tile // 9 == wsuit
                for p in self.packs
            )
            if not in_chow:
                on_discard -= sum(
                    1 for p in self.pungs if p.tile == w and p.kind == "pung" and not p.melded
                )
        self.hidden_pungs = (hidden, on_discard)


_NO_FANS: dict[int, int] = {}


def _chow_fans(mids: Sequence[int], pair: int) -> dict[int, int]:
    if len(mids) == 4 and _three_suited_terminal_chows(mids, pair):
        return {29: 1}
    if len(mids) == 4 and _pure_terminal_chows(mids, pair):
        return {13: 1}
    return shipped_chow_fans(mids)


# ---------------------------------------------------------------------------
# the set relations shipped (rules/rulesets/mcr/data/mcr_relations.bin, built by
# `python -m rules.rulesets.mcr.build_relations` from the functions above, which
# stay the definition): a chow or pung set a process meets for the first time is
# a look-up, not a computation.  The answers are shared dicts: read, never change.


def _load_relations() -> tuple[tuple[dict[int, int], ...], bytes, bytes]:
    path = Path(__file__).resolve().parent / "data" / "mcr_relations.bin"
    raw = zlib.decompress(path.read_bytes())
    assert raw[:5] == b"MJRL1", "rules/rulesets/mcr/data/mcr_relations.bin: not a relations file"
    n = int.from_bytes(raw[5:9], "little")
    values = tuple({f: c for f, c in pairs} for pairs in json.loads(raw[9 : 9 + n]))
    cut = 9 + n + _CHOW_OFF[-1]
    return values, raw[9 + n : cut], raw[cut:]


# chow middle tile -> its place among the 21 chows in reference order (-1: no chow)
_CHOW_PLACE = tuple(
    ORDER_KEY[t] // 9 * 7 + t % 9 - 1 if t < 27 and 1 <= t % 9 <= 7 else -1 for t in range(34)
)
# where the keys of k sets start (k = 0..4), and the total at the end
_CHOW_OFF = tuple([sum(comb(20 + j, j) for j in range(k)) for k in range(6)])
_PUNG_OFF = tuple([sum(comb(34, j) for j in range(k)) for k in range(6)])
_COMB = tuple(tuple(comb(n, i) for n in range(40)) for i in range(6))  # _COMB[i][n] = C(n, i)
_RELATION_VALUES, _CHOW_CODES, _PUNG_CODES = _load_relations()


def shipped_chow_fans(mids: Sequence[int]) -> dict[int, int]:
    """chow_relation_fans(mids) (middles in reference order), from the shipped table."""
    if len(mids) > 4:  # not a chow set the table holds (never met)
        return chow_relation_fans(mids)
    r = _CHOW_OFF[len(mids)]
    prev = 0
    for i, t in enumerate(mids):
        a = _CHOW_PLACE[t]
        if a < prev:  # not a chow, or out of order: not a key of the table (never met)
            return chow_relation_fans(mids)
        prev = a
        r += _COMB[i + 1][a + i]
    return _RELATION_VALUES[_CHOW_CODES[r]]


def shipped_pung_fans(tiles: Sequence[int]) -> dict[int, int]:
    """pung_relation_fans(tiles) (tiles in reference order), from the shipped table."""
    if len(tiles) > 4:  # not a pung set the table holds (never met)
        return pung_relation_fans(tiles)
    r = _PUNG_OFF[len(tiles)]
    prev = -1
    for i, t in enumerate(tiles):
        a = ORDER_KEY[t]
        if a <= prev:  # a kind twice, or out of order: not a key of the table (never met)
            return pung_relation_fans(tiles)
        prev = a
        r += _COMB[i + 1][a]
    return _RELATION_VALUES[_PUNG_CODES[r]]


def _set_trait(t: int) -> int:
    """A pung, kong or pair of t: 1 terminal or honor, 2 five, 4 even."""
    if t >= 27:
        return 1
    rk = t % 9 + 1
    return (1 if rk in (1, 9) else 0) | (2 if rk == 5 else 0) | (4 if rk % 2 == 0 else 0)


def _chow_trait(t: int) -> int:
    """A chow by its middle tile: 1 it holds a terminal, 2 a five (never all even)."""
    if t >= 27:
        return 0
    rk = t % 9 + 1
    return (1 if rk in (2, 8) else 0) | (2 if rk in (4, 5, 6) else 0)


_SET_TRAIT = tuple(_set_trait(t) for t in range(34))
_CHOW_TRAIT = tuple(_chow_trait(t) for t in range(34))


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
