"""国标麻将 MCR (Chinese Official Mahjong): the 81 fans, their exclusions and payments.

How a hand is scored (docs/rules/mcr.md has the rulebook text behind each step):

1. The win flags are read as the rulebook defines them (和绝张 only when the win
   tile was not already standing in the hand; 抢杠和 only for a tile the hand
   does not hold; 杠上开花 only with a kong).
2. Special forms of a concealed hand (七对, 连七对, 十三幺, 全不靠, 七星不靠,
   组合龙 + set + pair, 九莲宝灯) and every cut of the tiles into sets and a pair
   (the engine's exact decompositions) are each turned into a frozen `Ctx`.
3. Each fan is one small pure function of a `Ctx` returning how many times it
   applies, kept in the fan's row of `fans.py` (`when`; `FAN_FUNCS` is the view
   of the rows); the relations between sets that the rulebook limits with
   套算一次 (account once) and 不得相同 (no repeats) are worked out once in the
   context (`context.py`: `chow_fans`, `pung_fans`), because they are a property
   of all the sets together, not of one fan.
4. The 不计 table (`rules.rulesets.mcr.fans.FANS[*].excludes`) is applied as data, from
   the highest fan down: a fan that is itself excluded excludes nothing.
5. The cut that scores highest is kept (ties as the reference calculator breaks
   them, so results match PyMahjongGB hand for hand).

Flowers are added last and never count toward the 8-fan minimum.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import permutations, product
from pathlib import Path
from typing import NamedTuple

from rules import shapes
from rules.errors import RuleError
from rules.hand import Hand, Table
from rules.params import ParamValues
from rules.results import DroppedFlag, Fan, Payment, Payments
from rules.rulesets.mcr.context import (
    DRAGONS,
    GREEN,
    ORDER_KEY,
    REVERSIBLE,
    WIND_TILES,
    Ctx,
    Cut,
    Pack,
    is_dragon,
    is_num,
    is_terminal,
    is_wind,
    rank,
    suit,
)
from rules.rulesets.mcr.fans import (
    CUT_FANS,
    FAN_FUNCS,
    FANS,
    HAND_FANS,
    TABLE,
    TableFan,
)
from rules.tiles import group_en, tile_zh

_WIND_OF = {"E": 27, "S": 28, "W": 29, "N": 30}


# ---------------------------------------------------------------------------
# forms and fans: each fan's condition is its row in fans.py (HAND_FANS, CUT_FANS
# are views of the rows); here, which of them each form is scored with, and the
# fast paths that read them a whole table at a time

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
_TABLE_FANS = frozenset(f for f, fn in CUT_FANS.items() if isinstance(fn, TableFan))
_REGULAR_OWN_FANS = tuple(f for f in CUT_FANS if f not in _TABLE_FANS)
FORM_CUT_FANS: dict[str, tuple[int, ...]] = {
    "regular": tuple(CUT_FANS),
    "knitted_straight": (60, 61, 77, 78, 79),
}


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
        if c.chow_fans:
            raw.update(c.chow_fans)
        if c.pung_fans:
            raw.update(c.pung_fans)
        kt = c.kong_table
        if kt:
            raw.update(kt)
        # The rest of CUT_FANS (_REGULAR_OWN_FANS), the same tests: those of the sets
        # alone come worked out with the cut, the others read the flags and winds.
        if c.own_fans:
            raw.update(c.own_fans)
        pungs = c.pungs
        if pungs:
            r = c.r
            add_pung_fans(raw, [p.tile for p in pungs], c.pung_fans, kt, r.prevalent, r.seat)
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
    raw, excluded = TABLE.apply_exclusions(raw)
    return Scored(raw, excluded, TABLE.total(raw), c)


def add_pung_fans(
    raw: dict[int, int],
    tiles: Sequence[int],
    pf: Mapping[int, int],
    kt: Mapping[int, int],
    prevalent: int,
    seat: int,
) -> None:
    """碰碰和, 圈风刻 / 门风刻 and 幺九刻 (as fans.terminal_pungs counts it) of the
    pungs' `tiles`, added to `raw`; `pf` and `kt` are the cut's pung relations and kong
    fans, which decide what 幺九刻 leaves out.  One copy for `score_ctx` and the lean
    path; the fans' rows in fans.py are the definition, held to this by the tests."""
    if len(tiles) == 4 and 5 not in kt and 12 not in kt:
        raw[48] = 1
    n = 0
    prev_pung = seat_pung = False
    for t in tiles:
        if t >= 27:
            if t <= 30:
                n += 1
                if t == prevalent:
                    prev_pung = True
                if t == seat:
                    seat_pung = True
        elif t % 9 == 0 or t % 9 == 8:
            n += 1
    if prev_pung:
        raw[60] = 1
    if seat_pung:
        raw[61] = 1
    if n:
        if 38 in pf or 9 in pf:
            n -= 3
        else:
            n -= prev_pung + (seat_pung and seat != prevalent)
        if n > 0:
            raw[73] = n


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


def _knit_pattern_of(counts: bytes) -> tuple[int, ...] | None:
    for pat in shapes.KNIT_PATTERNS:
        if all(counts[t] for t in pat):
            return pat
    return None


def add_flag_fans(
    out: dict[int, int], sd: bool, last: bool, kong: bool, n_melded: int, fourth: bool
) -> None:
    """The HAND fans of the win's circumstances, added to `out`: the flags as read
    (海底, 杠上开花 / 抢杠和, 和绝张) and the melds' (不求人, 自摸, 全求人, 门前清).
    One copy for the careful path's `Reading.hand_raw` and the lean path."""
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
    if fourth:
        out[58] = 1


class Reading:
    """The facts of one hand that every way of reading it shares."""

    hand: Hand
    params: ParamValues
    mixed_kong_fan: bool
    win: int
    standing: bytes
    fixed: bytes
    merged: bytes
    fourth: bool
    kong: bool
    dropped_flags: list[DroppedFlag]
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

    def __init__(self, hand: Hand, params: ParamValues) -> None:
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
        self.merged = merged = hand.held  # standing and melds (MCR has no wild tiles)
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
        self.dropped_flags = (
            _dropped_flags(hand, fourth, kong)
            if hand.fourth_tile or hand.after_kong or hand.robbing_kong
            else []
        )
        self.wall_last = hand.last_tile
        self.seat = _WIND_OF[hand.seat_wind]
        self.prevalent = _WIND_OF[hand.prevalent_wind]
        melds = hand.melds
        self.n_fixed = len(melds)
        n_melded = kongs = 0
        packs = []
        for m in melds:
            if m.exposed:
                n_melded += 1
            if m.type == "chi":
                packs.append(Pack("chow", m.tiles[1], m.exposed, False))
            else:
                if m.type == "kong":
                    kongs += 1
                packs.append(Pack(m.type, m.tiles[0], m.exposed, False))
        self.n_melded = n_melded
        self.fixed_packs = tuple(packs)
        (
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

    @property
    def tiles(self) -> list[int]:
        """The kinds in the hand (melds included), in tile order."""
        return [t for t in range(34) if self.merged[t]]

    def hand_raw(self) -> dict[int, int]:
        """Every HAND fan (`HAND_FANS`) of this hand, worked out once: the tile facts'
        fans (cached with them) and those of the flags.  Shared: do not change it."""
        out = self._hand_raw
        if out is None:
            out = self._hand_raw = dict(self.tile_fans)
            add_flag_fans(
                out, self.hand.self_drawn, self.wall_last, self.kong, self.n_melded, self.fourth
            )
        return out

    def unique_wait(self) -> bool:
        formal = not self.params.get("wait_fans_real_waits", False)
        return unique_wait(self.standing, self.merged, self.win, self.n_fixed, formal)

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
        if nums == 7 and all(s[t] for t in (*WIND_TILES, *DRAGONS)):
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

    The cuts are those of the engine's `standard_decompositions` (the same order),
    put together from each suit's cuts as ready-made packs (`_suit_packs`), so a
    new hand shape builds no decomposition objects.  Cached per hand shape.
    """
    if sum(standing) % 3 != 2:
        return ()
    ks = (standing[0:9], standing[9:18], standing[18:27], standing[27:34])
    cuts: list[tuple[Pack, ...]] = []
    for ps in shapes.natural_pair_suits(ks):
        p0 = _suit_packs(ks[0], 0, ps == 0)
        p1 = _suit_packs(ks[1], 1, ps == 1)
        p2 = _suit_packs(ks[2], 2, ps == 2)
        p3 = _suit_packs(ks[3], 3, ps == 3)
        if len(p0) == len(p1) == len(p2) == len(p3) == 1:
            cuts.append(p0[0] + p1[0] + p2[0] + p3[0])
        else:
            cuts.extend(a + b + c + d for a, b, c, d in product(p0, p1, p2, p3))
    if len(cuts) > 1:
        cuts.sort(key=_division_order)
    return tuple(Cut(fixed_packs + packs, win, True) for packs in cuts)


# (suit pattern, suit, pair here) -> the suit's cuts as packs, each in tile order
_SUIT_PACKS: dict[tuple[bytes, int, bool], tuple[tuple[Pack, ...], ...]] = {}
SUIT_PACKS_MAX = 60_000


def _suit_packs(key: bytes, x: int, pair: bool) -> tuple[tuple[Pack, ...], ...]:
    ck = (key, x, pair)
    r = _SUIT_PACKS.get(ck)
    if r is None:
        if len(_SUIT_PACKS) >= SUIT_PACKS_MAX:
            _SUIT_PACKS.clear()
        cuts = shipped_suit_cuts(key, pair)
        # a pattern of one suited suit is the same in the other two: filled at once
        # (each kept from its own local, so a clear by another thread loses nothing)
        for y in (0, 1, 2) if x < 3 else (3,):
            off = 9 * y
            packs = tuple(tuple(_STANDING[kind][off + i] for i, kind in cut) for cut in cuts)
            _SUIT_PACKS[key, y, pair] = packs
            if y == x:
                r = packs
    assert r is not None
    return r


# The packs of the standing tiles, shared: by kind (0 pung, 1 pair, 2 chow), then by
# the first tile (a chow's Pack names its middle tile).
_STANDING = (
    tuple(Pack("pung", t, False, True) for t in range(34)),
    tuple(Pack("pair", t, False, True) for t in range(34)),
    tuple(Pack("chow", t + 1, False, True) for t in range(33)),
)


# The cuts of every suit pattern a hand can hold, shipped (rules/rulesets/mcr/data/mcr_suit_cuts.bin,
# built by `python -m rules.rulesets.mcr.build_suit_cuts` from _suit_cuts, which stays
# the definition): (kinds, pair) -> (pattern indexes ascending, offsets, entries).
_SuitCutTable = tuple[array, array, bytes]
_SUIT_CUT_TABLES: dict[tuple[int, bool], _SuitCutTable] = {}
_DIGIT = bytes(48 + b if b < 5 else 57 for b in range(256))  # a count -> its base-5 digit
_GROUP = tuple((g // 3, g % 3) for g in range(27))  # a group's byte -> (first kind, kind)


def _load_suit_cuts() -> None:
    path = Path(__file__).resolve().parent / "data" / "mcr_suit_cuts.bin"
    raw = zlib.decompress(path.read_bytes())
    assert raw[:5] == b"MJSC1", "rules/rulesets/mcr/data/mcr_suit_cuts.bin: not a suit cuts file"
    pos = 5
    for n, pair in ((9, False), (9, True), (7, False), (7, True)):
        count = int.from_bytes(raw[pos : pos + 4], "little")
        pos += 4
        idx = array("I", raw[pos : pos + 4 * count])
        pos += 4 * count
        offs = array("I", raw[pos : pos + 4 * (count + 1)])
        pos += 4 * (count + 1)
        if sys.byteorder == "big":  # the file is little-endian
            idx.byteswap()
            offs.byteswap()
        size = int.from_bytes(raw[pos : pos + 4], "little")
        pos += 4
        _SUIT_CUT_TABLES[n, pair] = (idx, offs, raw[pos : pos + size])
        pos += size


def shipped_suit_cuts(key: bytes, pair: bool) -> list[tuple[tuple[int, int], ...]]:
    """_suit_cuts(key, pair), read from the shipped table (worked out for a pattern
    the table does not hold: more than four sets, or a count above four)."""
    if not _SUIT_CUT_TABLES:
        _load_suit_cuts()
    table = _SUIT_CUT_TABLES.get((len(key), pair))
    if table is None:
        return _suit_cuts(key, pair)
    idx, offs, entries = table
    try:
        x = int(key.translate(_DIGIT)[::-1], 5)
    except ValueError:  # a count above four
        return _suit_cuts(key, pair)
    i = bisect_left(idx, x)
    if i == len(idx) or idx[i] != x:
        return _suit_cuts(key, pair)
    p = offs[i]
    end = offs[i + 1]
    group = _GROUP
    cuts = []
    while p < end:
        m = entries[p]
        cuts.append(tuple([group[g] for g in entries[p + 1 : p + 1 + m]]))
        p += 1 + m
    return cuts


def _suit_cuts(key: bytes, pair: bool) -> list[tuple[tuple[int, int], ...]]:
    """Every cut of one suit's tiles into sets (and the pair, if `pair`), each as
    (first kind, 0 pung / 1 pair / 2 chow) in that order, as the engine's
    decompositions list a suit's groups (shapes._natural_cuts; the cuts may come
    in another order: regular_cuts sorts them).

    The group holding the lowest tile left starts there, and the groups starting
    at one kind are taken pung, pair, chows in that order, so each cut is met once."""
    c = bytearray(key)
    n = len(c)
    honor = n == 7
    out: list[tuple[tuple[int, int], ...]] = []
    acc: list[tuple[int, int]] = []

    def go(i: int, need_pair: bool, stage: int) -> None:
        # stage: the groups already started at kind i (0 none, 1 its pung, 2 its pair or chow)
        if i < n and not c[i]:
            stage = 0
            i += 1
            while i < n and not c[i]:
                i += 1
        if i == n:
            if not need_pair:
                out.append(tuple(acc))
            return
        ci = c[i]
        if stage == 0 and ci >= 3:
            c[i] = ci - 3
            acc.append((i, 0))
            go(i, need_pair, 1)
            acc.pop()
            c[i] = ci
        if stage <= 1 and need_pair and ci >= 2:
            c[i] = ci - 2
            acc.append((i, 1))
            go(i, False, 2)
            acc.pop()
            c[i] = ci
        if not honor and i < n - 2 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append((i, 2))
            go(i, need_pair, 2)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    go(0, pair, 0)
    return out


@lru_cache(maxsize=8192)
def unique_wait(
    standing: bytes, merged: bytes, win: int, n_fixed: int, formal: bool = True
) -> bool:
    """The hand waited on exactly one kind (`merged`: the standing tiles and the melds').

    `formal` (the Mahjong International League's ruling, 《国标麻将规则释义》): a
    kind whose four copies are all in the hand still counts as a wait when a
    fifth copy would complete the shape, so such a hand waits on two kinds and
    scores no 边张 / 嵌张 / 单钓将.  Otherwise (`wait_fans_real_waits`) only the
    tiles that can still be drawn count.
    """
    before = bytearray(standing)
    before[win] -= 1
    b = bytes(before)
    waits = _waits(b, n_fixed == 0)
    # held before the win: merged less the win tile; a kind held four times is no
    # wait (without melds the tables already refuse a fifth copy)
    if n_fixed:
        waits = [t for t in waits if merged[t] - (t == win) < 4]
    if len(waits) != 1 or not formal:
        return len(waits) == 1
    return formal_unique_wait(before, merged, win, n_fixed, waits)


def formal_unique_wait(
    before: bytearray, merged: bytes, win: int, n_fixed: int, waits: list[int]
) -> bool:
    """The formal ruling's last word on a hand with one wait (`waits`, before the
    win: `before`): no kind held four times would complete it as a fifth copy."""
    t = merged.find(4)
    while t >= 0:
        if t != win and t not in waits:  # (the win tile is held three times before it)
            with_fifth = bytearray(before)
            with_fifth[t] += 1
            if with_fifth[t] <= 4:  # (the four are partly in melds) the tables know
                if shapes.is_standard_win(bytes(with_fifth)):
                    return False
            elif _sets_and_pair(bytes(with_fifth), 4 - n_fixed, True):
                return False
        t = merged.find(4, t + 1)
    return True


_ODD = bytes(i & 1 for i in range(256))


def _waits(before: bytes, seven_pairs: bool) -> list[int]:
    """waits_counts(before, 0, ..., Forms(seven_pairs)) for 13 natural tiles (3k + 1),
    before the four-copies filter of melds: each suit's completions read from the
    pattern's shipped one-more-tile row (shapes.suit_wait_tiles), or from the
    need tables when it has none, and the kind a seven-pairs hand waits on."""
    ks = (before[0:9], before[9:18], before[18:27], before[27:34])
    get = shapes._NEED.get
    needs = [get(k) or shapes.suit_need(k) for k in ks]
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    d0, d1, d2, d3 = needs[0][1], needs[1][1], needs[2][1], needs[3][1]
    others = (min(d1, d2, d3), min(d0, d2, d3), min(d0, d1, d3), min(d0, d1, d2))
    out: list[int] = []
    add_get = shapes._ADD.get
    for x in range(4):
        budget = needs[x][0] - s0
        other = others[x]
        # a kind of this suit needs at least min(0, other) (its table entries are >= 0
        # with the pair and without): most suits are passed over here
        if budget < (other if other < 0 else 0):
            continue
        k = ks[x]
        shipped = shapes.suit_wait_tiles(x, k, other, -s0)
        if shipped is not None:
            out += shipped
            continue
        j = 9 * x
        for a0, a1 in add_get((k, None)) or shapes._suit_add(k, None):
            if a0 + (a1 if a1 < other else other) <= budget:
                out.append(j)
            j += 1
    if seven_pairs and before.translate(_ODD).count(1) == 1:
        t = next(t for t in range(34) if before[t] & 1)
        if t not in out:
            out.append(t)
            out.sort()
    return out


def _sets_and_pair(counts: bytes, sets: int, pair: bool) -> bool:
    """Whether counts (a kind may hold five) are `sets` sets and, if `pair`, a pair.

    Only for the rare formal fifth copy above; the engine's tables stop at four.
    """
    t = next((i for i, c in enumerate(counts) if c), None)
    if t is None:
        return sets == 0 and not pair
    c = bytearray(counts)
    if pair and c[t] >= 2:
        c[t] -= 2
        if _sets_and_pair(bytes(c), sets, False):
            return True
        c[t] += 2
    if sets and c[t] >= 3:
        c[t] -= 3
        if _sets_and_pair(bytes(c), sets - 1, pair):
            return True
        c[t] += 3
    if sets and t < 27 and t % 9 <= 6 and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        return _sets_and_pair(bytes(c), sets - 1, pair)
    return False


@lru_cache(maxsize=8192)
def tile_facts(
    merged: bytes, kongs: int
) -> tuple[int, bool, int, bool, bool, bool, bool, int, int, int, tuple[tuple[int, int], ...]]:
    """What the tiles alone decide (suits, ranks, tile traits, 四归一), from the ranks
    each suit holds as bit masks, and the HAND fans that read only these facts, as
    (fan id, count) pairs."""
    nz = _NONZERO
    m = _RANKS9[merged[0:9].translate(nz)]
    p = _RANKS9[merged[9:18].translate(nz)]
    s = _RANKS9[merged[18:27].translate(nz)]
    h = _RANKS7[merged[27:34].translate(nz)]
    num = m | p | s
    voided = (not m) + (not p) + (not s)
    no_honors = not h
    all_simples = not h and not num & 0x101
    if all_simples:
        trait = 0
    elif not num:
        trait = 11  # honors only
    elif not num & ~0x101:
        trait = 8 if no_honors else 18  # terminals only / terminals and honors
    else:
        trait = 0
    flush = (22 if no_honors else 49) if voided == 2 else 0
    all_types = voided == 0 and bool(h & 0b1111) and bool(h & 0b1110000)
    green = not m and not p and not s & ~_GREEN_S and not h & ~_GREEN_H
    reversible = not m and not p & ~_REV_P and not s & ~_REV_S and not h & ~_REV_H
    rank_fan = 0 if h else _RANK_FAN[num]
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


def _rank_masks(n: int) -> dict[bytes, int]:
    """A suit's pattern with every held kind as 1 -> the bit mask of its ranks."""
    return {
        bytes(bits): sum(1 << i for i, b in enumerate(bits) if b)
        for bits in product((0, 1), repeat=n)
    }


_NONZERO = bytes([0] + [1] * 255)  # translate table: a count -> held or not
_RANKS9 = _rank_masks(9)
_RANKS7 = _rank_masks(7)


def _mask(ranks: Sequence[int]) -> int:
    return sum(1 << (r - 1) for r in ranks)


_GREEN_S = _mask((2, 3, 4, 6, 8))  # 23468s
_GREEN_H = 1 << (32 - 27)  # 发
_REV_P = _mask((1, 2, 3, 4, 5, 8, 9))  # 1234589p
_REV_S = _mask((2, 4, 5, 6, 8, 9))  # 245689s
_REV_H = 1 << (31 - 27)  # 白
# the masks hold the same tiles as context.GREEN / REVERSIBLE
assert frozenset((*(18 + r - 1 for r in (2, 3, 4, 6, 8)), 32)) == GREEN
assert (
    frozenset(
        (*(9 + r - 1 for r in (1, 2, 3, 4, 5, 8, 9)), *(18 + r - 1 for r in (2, 4, 5, 6, 8, 9)), 31)
    )
    == REVERSIBLE
)


def _rank_fan_of(num: int) -> int:
    """大于五 / 小于五 / 全大 / 全中 / 全小 (at most one) of the ranks held (no honors)."""
    if not num & ~_mask((1, 2, 3, 4)):
        return 37 if num & _mask((4,)) else 27
    if not num & ~_mask((6, 7, 8, 9)):
        return 36 if num & _mask((6,)) else 25
    if not num & ~_mask((4, 5, 6)):
        return 26
    return 0


_RANK_FAN = tuple(_rank_fan_of(x) for x in range(512))


@lru_cache(maxsize=8192)
def _may_be_special(s: bytes, n_fixed: int, w: int) -> bool:
    """False when no special form can fit these tiles (most hands): `special()` skips them.

    A loose test, cached per hand shape: every hand a special form takes passes it.
    """
    if n_fixed > 1:
        return False
    # 组合龙 (with one meld, the only form left): nine different suited kinds at least
    if s[:27].count(0) <= 18 and _holds_knit(s):
        return True
    if n_fixed:
        return False
    return (
        shapes.is_seven_pairs(s, 0, quads=True)
        # 全不靠 and 十三幺: thirteen or fourteen different kinds
        or (
            s.count(0) <= 21
            and (shapes.is_knitted(s, 0, False) or shapes.is_thirteen_orphans(s, 0))
        )
        or (w < 27 and sum(s[9 * suit(w) : 9 * suit(w) + 9]) == 14)  # 九莲宝灯: one suit
    )


def _holds_knit(s: bytes) -> bool:
    """`_knit_pattern_of(s) is not None`, read from the ranks each suit holds: a
    knitted straight gives each suit one of 147 / 258 / 369, a different one each."""
    nz = _NONZERO
    a = _KNIT_TRIPLES[_RANKS9[s[0:9].translate(nz)]]
    b = _KNIT_TRIPLES[_RANKS9[s[9:18].translate(nz)]]
    c = _KNIT_TRIPLES[_RANKS9[s[18:27].translate(nz)]]
    return _KNIT_OK[a | b << 3 | c << 6]


# a suit's ranks (bit mask) -> which of 147, 258, 369 it holds whole (bits 0, 1, 2)
_KNIT_TRIPLES = tuple(
    sum(1 << j for j in range(3) if ranks & (0b001001001 << j) == 0b001001001 << j)
    for ranks in range(512)
)
# the three suits' triples (3 bits each) -> whether they give each suit a different one
_KNIT_OK = tuple(
    any(
        x >> perm[0] & 1 and x >> 3 + perm[1] & 1 and x >> 6 + perm[2] & 1
        for perm in permutations(range(3))
    )
    for x in range(512)
)


def _residual_unique_wait(rest: bytes, w: int) -> bool:
    """The wait of the five tiles beside the knitted body (a set and the pair)."""
    if not rest[w]:
        return False
    before = bytearray(rest)
    before[w] -= 1
    return len(shapes.standard_waits(bytes(before), 0)) == 1


def _division_order(packs: tuple[Pack, ...]) -> tuple[tuple[int, int], ...]:
    """The order the reference calculator meets cuts in (ties keep the first)."""
    return tuple(
        sorted(
            (ORDER_KEY[p.tile - 1 if p.kind == "chow" else p.tile], 0 if p.kind == "pung" else 1)
            for p in packs
            if p.kind != "pair"
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


def _fan_dict(fid: int, n: int) -> Fan:
    """A fresh entry (callers may change it), copied from a prebuilt one with its count."""
    d = _FAN_DICTS_N.get((fid, n))
    if d is None:
        f = FANS[fid]
        d = _FAN_DICTS_N[fid, n] = {
            "id": fid, "name_zh": f.zh, "name_en": f.en, "points": f.points, "count": n,
        }  # fmt: skip
    return d.copy()


_FAN_DICTS_N: dict[tuple[int, int], Fan] = {}  # (fan, count): at most 82 x 9


_PACK_NAMES_ZH = {"chow": "顺", "pung": "刻", "kong": "杠", "pair": "将"}


# A pack's name in the notes, by (kind, tile as the pack keeps it): (Chinese, English).
_PACK_NAMES = {
    (kind, t): (
        tile_zh(t - 1 if kind == "chow" else t) + _PACK_NAMES_ZH[kind],
        group_en(kind, t - 1 if kind == "chow" else t),
    )
    for kind in _PACK_NAMES_ZH
    for t in range(34)
    if kind != "chow" or (t < 27 and 1 <= t % 9 <= 7)
}


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
    note = _EXCLUDED_NOTES.get((fid, by))
    if note is None:
        note = _EXCLUDED_NOTES[fid, by] = (
            f"不计{FANS[fid].zh}：已计{FANS[by].zh}",
            f"{FANS[fid].en} not counted: included in {FANS[by].en}",
        )
    return note


_EXCLUDED_NOTES: dict[tuple[int, int], tuple[str, str]] = {}  # at most 82 x 82


def _read_as(packs: tuple[Pack, ...]) -> tuple[str, str]:
    """The sets a regular reading is scored with: (Chinese, English)."""
    names = [_PACK_NAMES[p.kind, p.tile] for p in packs]
    return (
        "按 " + "、".join([z for z, _ in names]) + " 计番",
        "scored as " + ", ".join([e for _, e in names]),
    )


def _dropped_flags(hand: Hand, fourth: bool, kong: bool) -> list[DroppedFlag]:
    """The flags given that the tiles contradict, each with why (they count for nothing).

    The player sees the reason next to the flag instead of a fan silently missing.
    """
    out: list[DroppedFlag] = []
    if hand.fourth_tile and not fourth:
        out.append({"flag": "fourth_tile",
                    "reason": "the winning tile already stands in the hand: not the last of its kind",
                    "reason_zh": "手里已有这张牌：不是绝张"})  # fmt: skip
    if hand.self_drawn and hand.after_kong and not kong:
        out.append({"flag": "after_kong",
                    "reason": "the hand shows no kong: not a win after a kong",
                    "reason_zh": "手里没有杠：不算杠上开花"})  # fmt: skip
    if not hand.self_drawn and hand.robbing_kong and not kong:
        out.append({"flag": "robbing_kong",
                    "reason": "the hand holds this tile already: it cannot be robbed from a kong",
                    "reason_zh": "手里已有这张牌：不可能是抢杠"})  # fmt: skip
    return out


def _static_notes(
    read_as: tuple[str, str] | None,
    items: Sequence[tuple[int, int]],
    excluded: Sequence[tuple[int, int]],
) -> tuple[list[str], list[str]]:
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
        if n == 1:
            zh.append(_NOTE_ZH[fid])
            en.append(_NOTE_EN[fid])
        else:
            z, e = _fan_note(fid, n)
            zh.append(z)
            en.append(e)
    for fid, by in excluded:
        z, e = _excluded_note(fid, by)
        zh.append(z)
        en.append(e)
    return en, zh


def _explain(
    best: Scored,
    hand: Hand,
    params: ParamValues,
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
    en, zh = _static_notes(
        read_as,
        items if items is not None else sorted(best.fans.items()),
        sorted(best.excluded.items()) if best.excluded else (),
    )
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


def _payments(self_drawn: bool, t: Table, total: int, base: int, win: bool) -> Payments:
    if t.players != 4:
        raise RuleError("bad_table", "MCR is played by four players", "国标麻将是四人游戏")
    if t.winner is None:
        raise RuleError("bad_table", "table: 'winner' is missing", "table 缺少和牌者 winner")
    deltas = [0] * 4
    payments: list[Payment] = []
    if win:
        for seat in range(4):
            if seat == t.winner:
                continue
            amount = base + total if (self_drawn or seat == t.discarder) else base
            payments.append({"from": seat, "to": t.winner, "amount": amount})
            deltas[seat] -= amount
            deltas[t.winner] += amount
    return {"payments": payments, "deltas": deltas}


__all__ = ["FAN_FUNCS", "Ctx", "Reading", "best_reading", "score_ctx"]
