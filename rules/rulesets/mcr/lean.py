"""国标 MCR, the lean path: a hand with one regular reading, scored in one pass.

Most hands a table scores have no special form and exactly one way to cut
their tiles into sets and a pair.  For them the careful path (scoring.py:
`Reading`, `regular_cuts` with a `Cut` per cut, a `Ctx`, `score_ctx`, a
`Scored`, `best_reading`, then the result) builds half a dozen objects and
repeats work between them, and a hand a process meets for the first time
finds none of it cached.

`score_regular` reads the same facts straight off the Hand into the result,
through the functions the careful path calls: the flags (context.read_flags),
the one cut's sets (from the shipped suit cuts, as `Cut` reads them), their
relations (context.chow_relations / pung_relations), where the win tile sits
(context.win_position), the fans -- every condition is its row's in fans.py,
compiled: fans.tile_fans, win_fans and set_fans, plus the relation and kong
tables taken whole as score_ctx takes them -- then the fan table's exclusions,
its points and the notes and payments scoring.py words.  Anything else --
wild tiles, a flag the rules refuse, a hand a special form might take, no cut
or more than one -- returns None and the careful path answers, so every
refusal and every tie between readings is still decided there.

Two readings of its own stay, because the careful ones cost more than 10 % of
a new hand's MCR time (`python -m benchmarks.mcr_ab` beside the previous
commit): `_unique_wait`, the wait check one suit pattern at a time (the
careful `scoring.unique_wait` reads every kind through the hand's tables:
+18 % on a new parsed hand, +10 % through the API), held to it by
tests/rules/test_mcr_lean.py::test_unique_wait_from_single_suits_matches_the_tables;
and the one cut read per suit (`_suit`, `_suit_cut`, the pair's suit from the
suits' needs) instead of `regular_cuts`' every cut, held to it by
test_lean_answers_as_the_careful_path and test_lean_leaves_the_rest_to_the_careful_path.
The special-form pre-check is looser than scoring._may_be_special on purpose:
what it lets through goes to the careful path.

What a hand's parts share is kept per part, not per hand: each suit's needs,
its one cut and its ranks per suit pattern (`_SUITS`), what one more tile
makes of a suit pattern (`_PATTERN_WAITS`), a fan's entry and notes per count
(`_ITEMS`).  A new hand is mostly new as a whole, its suits mostly are not.

The two paths are held to the same answers by tests/rules/test_mcr_lean.py and
by `python -m benchmarks.mcr_dump` (39,060 situations, byte for byte, both orders).
"""

from __future__ import annotations

from typing import Any

from rules.hand import Hand
from rules.params import ParamValues
from rules.results import Fan, HandResult
from rules.rulesets.mcr.context import (
    CHOW_TRAIT,
    HELD_TABLE,
    ORDER_KEY,
    RANKS7,
    RANKS9,
    SET_TRAIT,
    cached_kong_fans,
    chow_relations,
    hidden_on_discard,
    pung_relations,
    read_flags,
    win_position,
)
from rules.rulesets.mcr.fans import TABLE, set_fans, tile_fans, win_fans
from rules.rulesets.mcr.scoring import (
    EXCLUDED_NOTES,
    FLOWER_NOTES,
    PACK_NAMES,
    SHORT_NOTES,
    WIND_TILE,
    dropped_flags,
    excluded_note,
    fan_entry,
    fan_note,
    flower_notes,
    formal_unique_wait,
    holds_knit,
    shipped_suit_cuts,
    short_notes,
    win_payments,
)
from rules.shapes import SUIT_ADDS, SUIT_NEEDS, suit_adds, suit_need

_ORDER_GET = ORDER_KEY.__getitem__
# A pack's name in the note naming the sets, by (kind, tile as the pack keeps it).
_PACK_ZH = {k: z for k, (z, _) in PACK_NAMES.items()}
_PACK_EN = {k: e for k, (_, e) in PACK_NAMES.items()}


# One suit's tiles as a hand's cut reads them, kept per suit and pattern (a
# pattern recurs across hands far more than a hand does): [its needs (n0, n1)
# as shapes.suit_need, then its one cut without the pair and with it, each read
# when first asked (None until then, _NOT_ONE when the pattern has no cut or
# more than one), then the ranks it holds as a bit mask (as context.ranks_of
# reads them)].  A cut is (chow middles, pung tiles, the pair or -1, the trait its
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
    r = d[k] = [
        *(SUIT_NEEDS.get(k) or suit_need(k)),
        None,
        None,
        _RANKS[x][k.translate(HELD_TABLE)],
    ]
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
                trait &= CHOW_TRAIT[t]
                names.append(("chow", t))
            elif kind == 1:
                pair_tile = t
                trait &= SET_TRAIT[t]
                names.append(("pair", t))
            else:
                pungs.append(t)
                trait &= SET_TRAIT[t]
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
        z, e = fan_note(fid, n)
        r = self[item] = (fan_entry(fid, n), z, e, TABLE.points[fid] * n)
        return r


_ITEMS = _Items()
_NO_FANS: dict[int, int] = {}
_RANKS = (RANKS9, RANKS9, RANKS9, RANKS7)
# a pung's or kong's tile -> (its suit, its rank's bit in the suit's mask)
_SET_RANK = tuple((t // 9, 1 << t % 9) if t < 27 else (3, 1 << t - 27) for t in range(34))


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
        if standing[:27].count(0) <= 18 and holds_knit(standing):
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
    fourth, kong = read_flags(hand)

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
                trait &= CHOW_TRAIT[t]
                kind = "chow"
                ranks[t // 9] |= 7 << t % 9 - 1
            else:
                t = m.tiles[0]
                x, bit = _SET_RANK[t]
                ranks[x] |= bit
                pung_tiles.append(t)
                n_meld_pungs += 1
                trait &= SET_TRAIT[t]
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
    # where the win tile sits among the standing sets, as Cut reads it
    cw = (c0, c1, c2, c3)[w // 9 if w < 27 else 3]
    position = win_position(w, cw[0], pair)

    # the relations between the sets, as Cut reads them
    if len(chows) > 1:
        chows.sort(key=_ORDER_GET)
    cf = chow_relations(chows, pair) if len(chows) > 1 else _NO_FANS
    pf = (
        pung_relations(sorted(pung_tiles, key=_ORDER_GET), pair)
        if len(pung_tiles) > 1
        else _NO_FANS
    )

    # the HAND fans (Reading.hand_raw): the TileFan rows, then the WinFan rows
    merged = hand.held
    raw = tile_fans(m_ranks, p_ranks, s_ranks, h_ranks)
    raw.update(win_fans(sd, hand.last_tile, kong, n_melded, fourth, merged.count(4) - mk - ck))

    # the CUT fans, as score_ctx adds them: the relation tables whole, the SetFan rows
    if cf:
        raw.update(cf)
    if pf:
        raw.update(pf)
    if not sd and w in cw[1]:
        hidden = hidden_on_discard(hidden, True, position)
    if mk or ck or hidden > 1:
        kt = cached_kong_fans(hidden, mk, ck, params.flag("mixed_kong_fan"))
        if kt:
            raw.update(kt)
    else:
        kt = _NO_FANS  # (kong_fans: no kong and at most one concealed pung)
    raw.update(
        set_fans(
            len(chows),
            pung_tiles,
            pair,
            trait,
            pf,
            kt,
            WIND_TILE[hand.prevalent_wind],
            WIND_TILE[hand.seat_wind],
        )
    )
    if position:
        formal = not params.flag("wait_fans_real_waits")
        if _unique_wait(standing, merged, w, n_fixed, formal, (k0, k1, k2, k3), ps):
            raw[position] = 1
    fans, excluded = TABLE.apply_exclusions(raw)

    # the result, as Mcr.score_hand writes it
    flowers = hand.flowers
    flower_points = params.whole("flower_points")
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
            z, e = EXCLUDED_NOTES.get((fid, by)) or excluded_note(fid, by)
            zh.append(z)
            en.append(e)
    if flowers:
        out_fans.append({**fan_entry(81, flowers), "points": flower_points})
    total = fan_total + flowers * flower_points
    need = params.whole("min_fans")
    win = fan_total >= need
    if flowers:
        z, e = FLOWER_NOTES.get((flowers, flower_points)) or flower_notes(flowers, flower_points)
        zh.append(z)
        en.append(e)
    if fan_total < need:
        z, e = SHORT_NOTES.get((fan_total, need)) or short_notes(fan_total, need)
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
        dropped = dropped_flags(hand, fourth, kong)
        if dropped:
            out["flags_dropped"] = dropped
    if hand.table is not None:
        out.update(win_payments(sd, hand.table, total if win else 0, params.whole("base"), win))
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
    adds = SUIT_ADDS.get((k, None)) or suit_adds(k, None)  # (needs after one more of each kind)
    off = 9 * x
    need = SUIT_NEEDS.get(k) or suit_need(k)
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
    from shapes' one-more-tile table (`suit_adds`, which refuses a fifth copy)
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
