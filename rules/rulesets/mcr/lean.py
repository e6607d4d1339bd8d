"""国标 MCR, the lean path: a hand with one regular reading, scored in one pass.

Most hands a table scores have no special form and exactly one way to cut
their tiles into sets and a pair.  For them the careful path (scoring.py:
`Reading`, `regular_cuts` with a `Cut` per cut, a `Ctx`, `score_ctx`, a
`Scored`, `best_reading`, then the result) builds half a dozen objects and
repeats work between them (the packs read twice, the fans copied from dict
to dict), and a hand a process meets for the first time finds none of it
cached: that glue, not any one rule, is most of what a new hand costs there.

`score_regular` reads the same facts in the same order straight off the
Hand into the result: the flags as `Reading` reads them, the one cut's sets
as `Cut` reads them (the same shipped relation tables), the fans as
`score_ctx` adds them (the tiles' own as `tile_facts` reads them, from the
ranks each suit holds: `_tile_fans`), then the fan table's exclusions
(`TABLE.apply_exclusions`: the 不计 lists stay data), its points and the result
as `Mcr.score_hand` writes it.  Anything else -- wild tiles, a flag
the rules refuse, a hand a special form might take, no cut or more than one
-- returns None and the careful path answers, so every refusal and every
tie between readings is still decided there.

What a hand's parts share is kept per part, not per hand: each suit's needs,
its one cut and its ranks per suit pattern (`_SUITS`), what one more tile
makes of a suit pattern (`_PATTERN_WAITS`), a fan's entry and notes per count
(`_ITEMS`).  A new hand is mostly new as a whole, its suits mostly are not.

The two are held to the same answers by tests/rules/test_mcr_lean.py (also
`_tile_fans` against scoring.tile_facts) and by `python -m benchmarks.mcr_dump`
(39,060 situations, byte for byte, both orders).
"""

from __future__ import annotations

from typing import Any

from rules.hand import Hand
from rules.params import ParamValues
from rules.results import Fan, HandResult
from rules.rulesets.mcr.context import (
    _CHOW_TRAIT,
    _SET_TRAIT,
    ORDER_KEY,
    _chow_fans,
    _kong_table,
    shipped_chow_fans,
    shipped_pung_fans,
)
from rules.rulesets.mcr.fans import TABLE
from rules.rulesets.mcr.scoring import (
    _EXCLUDED_NOTES,
    _GREEN_H,
    _GREEN_S,
    _NONZERO,
    _PACK_NAMES,
    _RANK_FAN,
    _RANKS7,
    _RANKS9,
    _REV_H,
    _REV_P,
    _REV_S,
    _WIND_OF,
    _dropped_flags,
    _excluded_note,
    _fan_dict,
    _fan_note,
    _holds_knit,
    _payments,
    add_flag_fans,
    add_pung_fans,
    formal_unique_wait,
    shipped_suit_cuts,
)
from rules.shapes import _ADD, _NEED, _suit_add, suit_need

_ORDER_GET = ORDER_KEY.__getitem__
# A pack's name in the note naming the sets, by (kind, tile as the pack keeps it).
_PACK_ZH = {k: z for k, (z, _) in _PACK_NAMES.items()}
_PACK_EN = {k: e for k, (_, e) in _PACK_NAMES.items()}


# One suit's tiles as a hand's cut reads them, kept per suit and pattern (a
# pattern recurs across hands far more than a hand does): [its needs (n0, n1)
# as shapes.suit_need, then its one cut without the pair and with it, each read
# when first asked (None until then, _NOT_ONE when the pattern has no cut or
# more than one), then the ranks it holds as a bit mask (as tile_facts reads
# them)].  A cut is (chow middles, pung tiles, the pair or -1, the trait its
# packs share as Cut reads it, the packs' names in Chinese, in English), the
# packs in tile order as regular_cuts lists them.
_SuitCut = tuple[tuple[int, ...], tuple[int, ...], int, int, tuple[str, ...], tuple[str, ...]]
_NOT_ONE: _SuitCut = ((), (), -1, 0, (), ())
_SUITS: tuple[dict[bytes, list[Any]], ...] = ({}, {}, {}, {})
_S0, _S1, _S2, _S3 = _SUITS
SUITS_MAX = 50_000


def _suit(x: int, k: bytes) -> list[Any]:
    """A suit pattern's record, made when first met (its cuts are read when asked)."""
    d = _SUITS[x]
    if len(d) >= SUITS_MAX:
        d.clear()
    r = d[k] = [*(_NEED.get(k) or suit_need(k)), None, None, _RANKS[x][k.translate(_NONZERO)]]
    return r


def _suit_cut(rec: list[Any], k: bytes, x: int, pair: bool) -> _SuitCut:
    """The suit's one cut (with the pair or without), from the shipped suit cuts
    regular_cuts' packs come from; _NOT_ONE when there is none or more than one."""
    cuts = shipped_suit_cuts(k, pair)
    c = _NOT_ONE
    if len(cuts) == 1:
        chows = []
        pungs = []
        pair_tile = -1
        trait = 7
        names = []
        off = 9 * x
        for i, kind in cuts[0]:  # (first kind, 0 pung / 1 pair / 2 chow), in tile order
            t = off + i
            if kind == 2:
                t += 1  # a chow is named by its middle tile
                chows.append(t)
                trait &= _CHOW_TRAIT[t]
                names.append(("chow", t))
            elif kind == 1:
                pair_tile = t
                trait &= _SET_TRAIT[t]
                names.append(("pair", t))
            else:
                pungs.append(t)
                trait &= _SET_TRAIT[t]
                names.append(("pung", t))
        c = (
            tuple(chows),
            tuple(pungs),
            pair_tile,
            trait,
            tuple([_PACK_ZH[n] for n in names]),
            tuple([_PACK_EN[n] for n in names]),
        )
    rec[3 if pair else 2] = c
    return c


class _Items(dict[tuple[int, int], tuple[Fan, str, str, int]]):
    """(fan, count) -> its entry in the result (a template: copied), its notes and
    its points (the fan table's points times the count), each made once: at most
    82 x 9."""

    def __missing__(self, item: tuple[int, int]) -> tuple[Fan, str, str, int]:
        fid, n = item
        z, e = _fan_note(fid, n)
        r = self[item] = (_fan_dict(fid, n), z, e, TABLE.points[fid] * n)
        return r


_ITEMS = _Items()
# The notes of flowers (flowers, points a flower) and of a hand short of the
# minimum (fans, minimum), as scoring._explain words them, each worded once:
# at most 9 x 11 and 89 x 89.
_FLOWER_NOTES: dict[tuple[int, int], tuple[str, str]] = {}
_SHORT_NOTES: dict[tuple[int, int], tuple[str, str]] = {}


def _flower_notes(flowers: int, points: int) -> tuple[str, str]:
    r = _FLOWER_NOTES[flowers, points] = (
        f"花牌 {flowers} 张：另加 {flowers * points} 分，不计入起和番",
        f"{flowers} flower(s) add {flowers * points}, not counted toward the minimum",
    )
    return r


def _short_notes(fan_total: int, need: int) -> tuple[str, str]:
    r = _SHORT_NOTES[fan_total, need] = (
        f"共 {fan_total} 番，不足 {need} 番起和，还差 {need - fan_total} 番，不能和牌",
        f"{fan_total} fans: {need - fan_total} short of the {need}-fan minimum, so this is not a legal win",
    )
    return r


_NO_FANS: dict[int, int] = {}
_RANKS = (_RANKS9, _RANKS9, _RANKS9, _RANKS7)
# a pung's or kong's tile -> (its suit, its rank's bit in the suit's mask)
_SET_RANK = tuple((t // 9, 1 << t % 9) if t < 27 else (3, 1 << t - 27) for t in range(34))


def _tile_fans(m: int, p: int, s: int, h: int) -> dict[int, int]:
    """The HAND fans that read the tiles alone, but 四归一 (64), from the ranks each
    suit holds (bit masks): scoring.tile_facts' fans, the same tests, those the
    held honors rule out left unasked."""
    num = m | p | s
    voided = (not m) + (not p) + (not s)
    out: dict[int, int] = {}
    if h:
        if not num:
            out[11] = 1  # honors only
        elif not num & ~0x101:
            out[18] = 1  # terminals and honors
        if voided == 2:
            out[49] = 1
        elif voided == 0 and h & 0b1111 and h & 0b1110000:
            out[51] = 1
        if not m:
            if not p and not s & ~_GREEN_S and not h & ~_GREEN_H:
                out[3] = 1
            if not p & ~_REV_P and not s & ~_REV_S and not h & ~_REV_H:
                out[40] = 1
    else:
        if not num & 0x101:
            out[68] = 1  # all simples
        elif not num & ~0x101:
            out[8] = 1  # terminals only
        if voided == 2:
            out[22] = 1
        rank_fan = _RANK_FAN[num]
        if rank_fan:
            out[rank_fan] = 1
        out[76] = 1
        if not m:
            if not p and not s & ~_GREEN_S:
                out[3] = 1
            if not p & ~_REV_P and not s & ~_REV_S:
                out[40] = 1
    if voided and voided != 2:
        out[75] = voided
    return out


def score_regular(hand: Hand, params: ParamValues) -> HandResult | None:
    """`Mcr.score_hand(hand, params)` for a hand with one regular reading and no
    special form; None for any other hand (the careful path's)."""
    w = hand.win_tile
    sd = hand.self_drawn
    if hand.wild or w is None or (hand.robbing_kong and sd):
        return None  # Reading's refusals, said there
    standing = hand.counts
    melds = hand.melds
    n_fixed = len(melds)
    if n_fixed <= 1:
        # scoring._may_be_special, looser (13 kinds or more go to the careful path
        # whatever they are): every hand a special form takes is left there
        if standing[:27].count(0) <= 18 and _holds_knit(standing):
            return None  # 组合龙
        if (
            n_fixed == 0
            and (
                not standing.translate(_ODD).count(1)  # 七对 (14 tiles: parse_situation)
                or standing.count(0) <= 21  # 十三幺, 全不靠
                or (w < 27 and sum(standing[9 * (w // 9) : 9 * (w // 9) + 9]) == 14)  # 九莲宝灯
            )
        ):
            return None
    # the one cut: as regular_cuts, one suit that can hold the pair (read off the
    # suits' needs, as shapes.natural_pair_suits) and one cut of each suit
    k0 = standing[0:9]
    k1 = standing[9:18]
    k2 = standing[18:27]
    k3 = standing[27:34]
    r0 = _S0.get(k0) or _suit(0, k0)
    r1 = _S1.get(k1) or _suit(1, k1)
    r2 = _S2.get(k2) or _suit(2, k2)
    r3 = _S3.get(k3) or _suit(3, k3)
    s0 = r0[0] + r1[0] + r2[0] + r3[0]
    ps = -1
    if s0 + r0[1] <= 0:
        ps = 0
    if s0 + r1[1] <= 0:
        if ps >= 0:
            return None  # a second suit can hold the pair: more than one cut
        ps = 1
    if s0 + r2[1] <= 0:
        if ps >= 0:
            return None
        ps = 2
    if s0 + r3[1] <= 0:
        if ps >= 0:
            return None
        ps = 3
    if ps < 0:
        return None
    c0 = r0[3 if ps == 0 else 2] or _suit_cut(r0, k0, 0, ps == 0)
    c1 = r1[3 if ps == 1 else 2] or _suit_cut(r1, k1, 1, ps == 1)
    c2 = r2[3 if ps == 2 else 2] or _suit_cut(r2, k2, 2, ps == 2)
    c3 = r3[3 if ps == 3 else 2] or _suit_cut(r3, k3, 3, ps == 3)
    if c0 is _NOT_ONE or c1 is _NOT_ONE or c2 is _NOT_ONE or c3 is _NOT_ONE:
        return None

    # the flags, as Reading reads them
    fixed = hand.meld_counts
    fourth = hand.fourth_tile
    if standing[w] != 1:
        fourth = False
    if fixed[w] == 3:
        fourth = True
    kong = False
    if sd and hand.after_kong:
        kong = any(m.type == "kong" for m in melds)
    elif not sd and hand.robbing_kong:
        kong = fixed[w] == 0 and standing[w] == 1

    # the sets, as Cut reads them: the melds first, then the standing packs
    trait = c0[3] & c1[3] & c2[3] & c3[3]
    n_melded = mk = ck = n_meld_pungs = 0
    if melds:
        ranks = [r0[4], r1[4], r2[4], r3[4]]
        chows: list[int] = []
        pung_tiles: list[int] = []
        zh_names: list[str] = []
        en_names: list[str] = []
        for m in melds:
            exposed = m.exposed
            if exposed:
                n_melded += 1
            kind = m.type
            if kind == "chi":
                t = m.tiles[1]
                chows.append(t)
                trait &= _CHOW_TRAIT[t]
                kind = "chow"
                ranks[t // 9] |= 7 << t % 9 - 1
            else:
                t = m.tiles[0]
                x, bit = _SET_RANK[t]
                ranks[x] |= bit
                pung_tiles.append(t)
                n_meld_pungs += 1
                trait &= _SET_TRAIT[t]
                if kind == "kong":
                    if exposed:
                        mk += 1
                    else:
                        ck += 1
            zh_names.append(_PACK_ZH[kind, t])
            en_names.append(_PACK_EN[kind, t])
        chows += c0[0] + c1[0] + c2[0]
        pung_tiles += c0[1] + c1[1] + c2[1] + c3[1]
        zh_names += c0[4] + c1[4] + c2[4] + c3[4]
        en_names += c0[5] + c1[5] + c2[5] + c3[5]
        m_ranks, p_ranks, s_ranks, h_ranks = ranks
    else:
        m_ranks, p_ranks, s_ranks, h_ranks = r0[4], r1[4], r2[4], r3[4]
        chows = [*c0[0], *c1[0], *c2[0]]  # (honors make no chows)
        pung_tiles = [*c0[1], *c1[1], *c2[1], *c3[1]]
        zh_names = [*c0[4], *c1[4], *c2[4], *c3[4]]
        en_names = [*c0[5], *c1[5], *c2[5], *c3[5]]
    hidden = len(pung_tiles) - n_meld_pungs
    pair = (c0, c1, c2, c3)[ps][2]
    # where the win tile sits among the standing sets (Cut: edge, closed, single)
    cw = (c0, c1, c2, c3)[w // 9 if w < 27 else 3]
    edge = closed = False
    for t in cw[0]:
        if t == w:
            closed = True
        elif t - w == 1 or w - t == 1:
            edge = True
    hidden_w = w in cw[1]
    position = 77 if edge else 78 if closed else 79 if pair == w else 0

    # the relations between the sets (Cut._relations)
    n_chows = len(chows)
    if n_chows < 2:
        cf = _NO_FANS
    else:
        chows.sort(key=_ORDER_GET)
        if n_chows == 4 and pair < 27 and pair % 9 == 4:
            cf = _chow_fans(chows, pair)
        else:
            cf = shipped_chow_fans(chows)
    n_pungs = len(pung_tiles)
    pf = _NO_FANS
    if n_pungs > 1:
        pf = shipped_pung_fans(sorted(pung_tiles, key=_ORDER_GET))
        if 54 in pf and pair >= 31:
            pf = {f: n for f, n in pf.items() if f != 54}
            pf[10] = 1
        elif 38 in pf and 27 <= pair <= 30:
            pf = {f: n for f, n in pf.items() if f != 38}
            pf[9] = 1

    # the HAND fans (Reading.hand_raw): the tiles' own, then the flags'
    merged = hand.held
    raw = _tile_fans(m_ranks, p_ranks, s_ranks, h_ranks)
    hogs = merged.count(4) - mk - ck
    if hogs > 0:
        raw[64] = hogs
    add_flag_fans(raw, sd, hand.last_tile, kong, n_melded, fourth)

    # the CUT fans, as score_ctx adds them
    if cf:
        raw.update(cf)
    if pf:
        raw.update(pf)
    # concealed pungs on a discard: one the discard completed counts as melded,
    # unless the win tile can sit in a chow (Cut._own)
    hidden_here = hidden - 1 if hidden_w and not sd and not closed and not edge else hidden
    if mk or ck or hidden_here > 1:
        kt = _kong_table(hidden_here, mk, ck, bool(params["mixed_kong_fan"]))
        if kt:
            raw.update(kt)
    else:
        kt = _NO_FANS  # (kong_fans: no kong and at most one concealed pung)
    pack_trait = 55 if trait & 1 else 31 if trait & 2 else 21 if trait & 4 else 0
    if pack_trait:
        raw[pack_trait] = 1
    if n_chows == 4 and pair < 27:
        raw[63] = 1
    if n_pungs:
        dragons = 0
        for t in pung_tiles:
            if t >= 31:
                dragons += 1
        if dragons:
            dragons -= 2 * pf.get(54, 0)
            if dragons > 0:
                raw[59] = dragons
        add_pung_fans(
            raw, pung_tiles, pf, kt, _WIND_OF[hand.prevalent_wind], _WIND_OF[hand.seat_wind]
        )
    if position:
        formal = not params.get("wait_fans_real_waits", False)
        if _unique_wait(standing, merged, w, n_fixed, formal, (k0, k1, k2, k3), ps):
            raw[position] = 1
    fans, excluded = TABLE.apply_exclusions(raw)

    # the result, as Mcr.score_hand writes it
    flowers = hand.flowers
    flower_points = int(params["flower_points"])
    zh = [f"按 {'、'.join(zh_names)} 计番"]
    en = [f"scored as {', '.join(en_names)}"]
    out_fans = []
    fan_total = 0
    item_get = _ITEMS.get
    for item in sorted(fans.items()):
        fan, z, e, points = item_get(item) or _ITEMS[item]
        out_fans.append(fan.copy())
        zh.append(z)
        en.append(e)
        fan_total += points
    if excluded:
        for fid, by in sorted(excluded.items()):
            z, e = _EXCLUDED_NOTES.get((fid, by)) or _excluded_note(fid, by)
            zh.append(z)
            en.append(e)
    if flowers:
        out_fans.append({**_fan_dict(81, flowers), "points": flower_points})
    total = fan_total + flowers * flower_points
    need = int(params["min_fans"])
    win = fan_total >= need
    if flowers:
        z, e = _FLOWER_NOTES.get((flowers, flower_points)) or _flower_notes(flowers, flower_points)
        zh.append(z)
        en.append(e)
    if fan_total < need:
        z, e = _SHORT_NOTES.get((fan_total, need)) or _short_notes(fan_total, need)
        zh.append(z)
        en.append(e)
    out: HandResult = {
        "win": win,
        "fans": out_fans,
        "total": total,
        "notes": en,
        "notes_zh": zh,
    }
    if hand.fourth_tile or hand.after_kong or hand.robbing_kong:
        dropped = _dropped_flags(hand, fourth, kong)
        if dropped:
            out["flags_dropped"] = dropped
    if hand.table is not None:
        out.update(_payments(sd, hand.table, total if win else 0, int(params["base"]), win))
    return out


_ODD = bytes(i & 1 for i in range(256))
# A suit pattern -> (the kinds one more of which makes it whole sets, those that
# make it sets and a pair, whether it is sets and a pair already), per suit.
_PatternWaits = tuple[tuple[int, ...], tuple[int, ...], bool]
_PATTERN_WAITS: tuple[dict[bytes, _PatternWaits], ...] = ({}, {}, {}, {})
PATTERN_WAITS_MAX = 50_000


def _pattern_waits(x: int, k: bytes) -> _PatternWaits:
    d = _PATTERN_WAITS[x]
    if len(d) >= PATTERN_WAITS_MAX:
        d.clear()
    adds = _ADD.get((k, None)) or _suit_add(k, None)  # (needs after one more of each kind)
    off = 9 * x
    need = _NEED.get(k) or suit_need(k)
    r = d[k] = (
        tuple([off + j for j, (a0, _) in enumerate(adds) if a0 == 0]),
        tuple([off + j for j, (a0, a1) in enumerate(adds) if a0 + a1 == 0]),
        need[0] + need[1] == 0,
    )
    return r


def _unique_wait(
    standing: bytes,
    merged: bytes,
    w: int,
    n_fixed: int,
    formal: bool,
    ks: tuple[bytes, bytes, bytes, bytes],
    ps: int,
) -> bool:
    """scoring.unique_wait(standing, merged, w, n_fixed, formal) for a hand of one
    cut (`ks` its suits, `ps` the pair's suit), read off single suits.

    Before the win every suit but the pair's is whole sets (3n tiles) and the
    pair's is sets and the pair (3n + 2); the win tile's suit is one short.  One
    more tile completes the hand only in the win tile's suit or the pair's: in
    the win tile's suit, sets and the pair when the pair is there, else sets
    alone; in the pair's (another suit), sets alone, when the win tile's suit
    is then sets and the pair.  Each is a question about one suit pattern, read
    from shapes' one-more-tile table (`_suit_add`, which refuses a fifth copy)
    and kept per pattern (`_PATTERN_WAITS`).  Then scoring._waits' seven-pairs
    wait, the four-copies filter of melds and the formal ruling."""
    before = bytearray(standing)
    before[w] -= 1
    b = bytes(before)
    ws = w // 9 if w < 27 else 3
    wk = b[9 * ws : 9 * ws + 9] if ws < 3 else b[27:34]
    rw = _PATTERN_WAITS[ws].get(wk) or _pattern_waits(ws, wk)
    if ws == ps:
        waits = list(rw[1])
    else:
        waits = list(rw[0])
        if rw[2]:
            kp = ks[ps]
            waits += (_PATTERN_WAITS[ps].get(kp) or _pattern_waits(ps, kp))[0]
    if n_fixed == 0 and b.translate(_ODD).count(1) == 1:
        t = next(t for t in range(34) if b[t] & 1)
        if t not in waits:
            waits.append(t)
            waits.sort()
    if n_fixed:
        waits = [t for t in waits if merged[t] - (t == w) < 4]
    if len(waits) != 1 or not formal:
        return len(waits) == 1
    return formal_unique_wait(before, merged, w, n_fixed, waits)
