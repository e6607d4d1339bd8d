"""国标麻将 MCR (Chinese Official Mahjong): the 81 fans, their exclusions and payments.

How a hand is scored (docs/rules/mcr.md has the rulebook text behind each step):

1. The win flags are read as the rulebook defines them (和绝张 only when the win
   tile was not already standing in the hand; 抢杠和 only for a tile the hand
   does not hold; 杠上开花 only with a kong).
2. Special forms of a concealed hand (七对, 连七对, 十三幺, 全不靠, 七星不靠,
   组合龙 + set + pair, 九莲宝灯) and every cut of the tiles into sets and a pair
   (the engine's exact decompositions) are each turned into a frozen `Ctx`.
3. Each fan's condition is its row in `fans.py` (`when`), evaluated on the
   reading: the HAND fans once per hand (`fans.tile_fans`, `fans.win_fans`),
   the CUT fans per cut (`fans.set_fans` and the cut's tables); the relations
   between sets that the rulebook limits with 套算一次 (account once) and
   不得相同 (no repeats) are worked out once in the context (`context.py`:
   `chow_relations`, `pung_relations`), because they are a property of all the
   sets together, not of one fan.
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
    HELD_TABLE,
    ORDER_KEY,
    RANKS9,
    Ctx,
    Cut,
    Pack,
    TileRanks,
    WinFacts,
    is_dragon,
    is_num,
    is_terminal,
    is_wind,
    rank,
    ranks_of,
    read_flags,
    suit,
    tile_ranks,
)
from rules.rulesets.mcr.fans import (
    CUT_FANS,
    FAN_FUNCS,
    FANS,
    HAND_FANS,
    SET_FANS,
    TABLE,
    TableFan,
    set_fans,
    tile_fans,
    win_fans,
)
from rules.tiles import WIND_TILES, group_en, tile_zh
from rules.working import Term, item, term

WIND_TILE = {"E": 27, "S": 28, "W": 29, "N": 30}


# ---------------------------------------------------------------------------
# forms and fans: each fan's condition is its row in fans.py (HAND_FANS, CUT_FANS
# are views of the rows); here, which of them each form is scored with

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
# A regular cut is scored with every CUT fan: the set-relation tables taken whole
# (the TableFan rows read them entry by entry), the SetFan rows compiled
# (fans.set_fans) and the wait fans, which read where the win tile sits.
_TABLE_FANS = frozenset(f for f, fn in CUT_FANS.items() if isinstance(fn, TableFan))
assert set(CUT_FANS) == _TABLE_FANS | set(SET_FANS) | {77, 78, 79}
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
        # The rest of CUT_FANS: the SetFan rows, compiled (fans.set_fans); the
        # wait fans read where the win tile sits.
        r = c.r
        raw.update(
            set_fans(
                len(c.chows),
                c.cut.pung_tiles,
                -1 if c.pair is None else c.pair,
                c.trait,
                c.pung_fans,
                kt,
                r.prevalent,
                r.seat,
            )
        )
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
    seat: int
    prevalent: int
    n_fixed: int
    fixed_packs: tuple[Pack, ...]
    ranks: TileRanks  # what the HAND fans of the tiles alone read (fans.TileFan)
    win_facts: WinFacts  # what the other HAND fans read (fans.WinFan)

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
        self.mixed_kong_fan = params.flag("mixed_kong_fan")
        self.win = hand.win_tile
        self.standing = hand.counts  # concealed + win tile
        self.fixed = hand.meld_counts
        self.merged = merged = hand.held  # standing and melds (MCR has no wild tiles)
        # Flags as the rulebook defines them (docs/rules/mcr.md, "Flags").
        fourth, kong = read_flags(hand)
        self.fourth = fourth
        self.kong = kong
        self.dropped_flags = (
            dropped_flags(hand, fourth, kong)
            if hand.fourth_tile or hand.after_kong or hand.robbing_kong
            else []
        )
        self.seat = WIND_TILE[hand.seat_wind]
        self.prevalent = WIND_TILE[hand.prevalent_wind]
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
        self.fixed_packs = tuple(packs)
        self.ranks = tile_ranks(*ranks_of(merged))
        self.win_facts = WinFacts(
            hand.self_drawn, hand.last_tile, kong, n_melded, fourth, merged.count(4) - kongs
        )
        self._hand_raw: dict[int, int] | None = None

    @property
    def tiles(self) -> list[int]:
        """The kinds in the hand (melds included), in tile order."""
        return [t for t in range(34) if self.merged[t]]

    def hand_raw(self) -> dict[int, int]:
        """Every HAND fan (`HAND_FANS`) of this hand, worked out once: the rows
        evaluated on the ranks and on the win's facts.  Shared: do not change it."""
        out = self._hand_raw
        if out is None:
            t = self.ranks
            out = self._hand_raw = tile_fans(t.m, t.p, t.s, t.h)
            out.update(win_fans(*self.win_facts))
        return out

    def unique_wait(self) -> bool:
        formal = not self.params.flag("wait_fans_real_waits")
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
        if self.params.flag("knitted_wait_fans") or not in_body:
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
# built by `python -m rules.rulesets.mcr.build_suit_cuts` from suit_cuts, which stays
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
    """suit_cuts(key, pair), read from the shipped table (worked out for a pattern
    the table does not hold: more than four sets, or a count above four)."""
    if not _SUIT_CUT_TABLES:
        _load_suit_cuts()
    table = _SUIT_CUT_TABLES.get((len(key), pair))
    if table is None:
        return suit_cuts(key, pair)
    idx, offs, entries = table
    try:
        x = int(key.translate(_DIGIT)[::-1], 5)
    except ValueError:  # a count above four
        return suit_cuts(key, pair)
    i = bisect_left(idx, x)
    if i == len(idx) or idx[i] != x:
        return suit_cuts(key, pair)
    p = offs[i]
    end = offs[i + 1]
    group = _GROUP
    cuts = []
    while p < end:
        m = entries[p]
        cuts.append(tuple([group[g] for g in entries[p + 1 : p + 1 + m]]))
        p += 1 + m
    return cuts


def suit_cuts(key: bytes, pair: bool) -> list[tuple[tuple[int, int], ...]]:
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
    get = shapes.SUIT_NEEDS.get
    needs = [get(k) or shapes.suit_need(k) for k in ks]
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    d0, d1, d2, d3 = needs[0][1], needs[1][1], needs[2][1], needs[3][1]
    others = (min(d1, d2, d3), min(d0, d2, d3), min(d0, d1, d3), min(d0, d1, d2))
    out: list[int] = []
    add_get = shapes.SUIT_ADDS.get
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
        for a0, a1 in add_get((k, None)) or shapes.suit_adds(k, None):
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
def _may_be_special(s: bytes, n_fixed: int, w: int) -> bool:
    """False when no special form can fit these tiles (most hands): `special()` skips them.

    A loose test, cached per hand shape: every hand a special form takes passes it.
    """
    if n_fixed > 1:
        return False
    # 组合龙 (with one meld, the only form left): nine different suited kinds at least
    if s[:27].count(0) <= 18 and holds_knit(s):
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


def holds_knit(s: bytes) -> bool:
    """`_knit_pattern_of(s) is not None`, read from the ranks each suit holds: a
    knitted straight gives each suit one of 147 / 258 / 369, a different one each."""
    nz = HELD_TABLE
    a = _KNIT_TRIPLES[RANKS9[s[0:9].translate(nz)]]
    b = _KNIT_TRIPLES[RANKS9[s[9:18].translate(nz)]]
    c = _KNIT_TRIPLES[RANKS9[s[18:27].translate(nz)]]
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


def fan_entry(fid: int, n: int) -> Fan:
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
PACK_NAMES = {
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


def fan_note(fid: int, n: int) -> tuple[str, str]:
    """The note of a fan counted n times: (Chinese, English)."""
    if n == 1:
        return _NOTE_ZH[fid], _NOTE_EN[fid]
    f = FANS[fid]
    return (
        f"{f.zh} ×{n}：{f.points * n} 番，{f.rule_zh}",
        f"{f.en} ×{n}: {f.points * n}, {f.rule_en}",
    )


def excluded_note(fid: int, by: int) -> tuple[str, str]:
    """Why a fan is not counted: (Chinese, English)."""
    note = EXCLUDED_NOTES.get((fid, by))
    if note is None:
        note = EXCLUDED_NOTES[fid, by] = (
            f"不计{FANS[fid].zh}：已计{FANS[by].zh}",
            f"{FANS[fid].en} not counted: included in {FANS[by].en}",
        )
    return note


EXCLUDED_NOTES: dict[tuple[int, int], tuple[str, str]] = {}  # at most 82 x 82


def _read_as(packs: tuple[Pack, ...]) -> tuple[str, str]:
    """The sets a regular reading is scored with: (Chinese, English)."""
    names = [PACK_NAMES[p.kind, p.tile] for p in packs]
    return (
        "按 " + "、".join([z for z, _ in names]) + " 计番",
        "scored as " + ", ".join([e for _, e in names]),
    )


def dropped_flags(hand: Hand, fourth: bool, kong: bool) -> list[DroppedFlag]:
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
            z, e = fan_note(fid, n)
            zh.append(z)
            en.append(e)
    for fid, by in excluded:
        z, e = excluded_note(fid, by)
        zh.append(z)
        en.append(e)
    return en, zh


def explain(
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
        points = params.whole("flower_points")
        z, e = FLOWER_NOTES.get((hand.flowers, points)) or flower_notes(hand.flowers, points)
        zh.append(z)
        en.append(e)
    if fan_total < need:
        z, e = SHORT_NOTES.get((fan_total, need)) or short_notes(fan_total, need)
        zh.append(z)
        en.append(e)
    return en, zh


# The notes of flowers (flowers, points a flower) and of a hand short of the
# minimum (fans, minimum), each worded once: at most 9 x 11 and 89 x 89.
FLOWER_NOTES: dict[tuple[int, int], tuple[str, str]] = {}
SHORT_NOTES: dict[tuple[int, int], tuple[str, str]] = {}


def flower_notes(flowers: int, points: int) -> tuple[str, str]:
    """The note of the flowers: (Chinese, English)."""
    r = FLOWER_NOTES[flowers, points] = (
        f"花牌 {flowers} 张：另加 {flowers * points} 分，不计入起和番",
        f"{flowers} flower(s) add {flowers * points}, not counted toward the minimum",
    )
    return r


def short_notes(fan_total: int, need: int) -> tuple[str, str]:
    """The note of a hand short of the minimum: (Chinese, English)."""
    r = SHORT_NOTES[fan_total, need] = (
        f"共 {fan_total} 番，不足 {need} 番起和，还差 {need - fan_total} 番，不能和牌",
        f"{fan_total} fans: {need - fan_total} short of the {need}-fan minimum, so this is not a legal win",
    )
    return r


def win_payments(self_drawn: bool, t: Table, total: int, base: int, win: bool) -> Payments:
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
    return {"payments": payments, "deltas": deltas, "terms": win_terms(self_drawn, t, total, base)
            if win else []}  # fmt: skip


BASE_WORDS = ("底分", "base")
FAN_UNIT = ("番", "fans")


def win_terms(self_drawn: bool, t: Table, total: int, base: int) -> list[Term]:
    """The working per payer: "44 番 + 底分 8 = 52" from the discarder (from each
    on a self-draw), "底分 8" from each of the others."""
    assert t.winner is not None
    others = [s for s in range(4) if s != t.winner]
    with_fans = others if self_drawn else [s for s in others if s == t.discarder]
    rest = [s for s in others if s not in with_fans]
    out = [term(with_fans, t.winner, base + total, base=item(total, unit=FAN_UNIT),
                additions=[item(base, name=BASE_WORDS)])]  # fmt: skip
    if rest:
        out.append(term(rest, t.winner, base, additions=[item(base, name=BASE_WORDS)]))
    return out


__all__ = ["FAN_FUNCS", "Ctx", "Reading", "best_reading", "score_ctx"]
