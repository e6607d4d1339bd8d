"""The frozen hand model built from a situation dict, and its validation.

A Hand is built once per situation and never changes, so everything derived
from it (natural-tile counts, wild count, caps from declared melds) is
computed here once and every fan function of every ruleset reads the same
values.

The tile fields have two readers: `read_tiles_careful` runs every check in the
documented order, so the first problem is the one reported, and
`read_tiles_fast` reads well-formed tiles and gives up (None) at anything else.
The fast one stays because the careful one alone costs about 15 % of a new
hand's MCR score (`python -m benchmarks.mcr_ab --readers`);
tests/rules/test_parse_fast.py holds the two to the same Hand or the same
error on generated situations, good and broken.  (rules/plain_reader.py
reads plain situations for win and waits questions, for the same reason.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from operator import add, is_
from typing import Any, NamedTuple

from rules.errors import RuleError
from rules.tiles import (
    FLOWER_BASE,
    N_ALL,
    N_KINDS,
    TILE_OF_CODE,
    parse_tile,
    parse_tiles,
    tile_en,
    tile_str,
    tile_zh,
    tiles_en,
    tiles_str,
)
from rules.values import WIND_ALIASES, one_of, whole_in, wind

MELD_TYPES = ("chi", "pung", "kong")
FLAGS = (
    "self_drawn",
    "after_kong",
    "robbing_kong",
    "last_tile",
    "fourth_tile",
    "heavenly",
    "earthly",
    # The discarder was not ready (没听牌): 武汉's 承包 of a 全求人 turns on it.
    "discarder_not_ready",
    # The winner has discarded a wild tile this hand (北京's 发混儿不许胡).
    "discarded_wild",
)
_CLAIMED = ("left", "across", "right", None)


class Meld(NamedTuple):
    type: str  # chi / pung / kong
    tiles: tuple[int, ...]  # sorted
    exposed: bool = True
    claimed_from: str | None = None
    added: bool = False

    @property
    def tile(self) -> int:
        """The lowest tile: what identifies the set."""
        return self.tiles[0]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": self.type,
            "tiles": [tile_str(t) for t in self.tiles],
            "exposed": self.exposed,
            "claimed_from": self.claimed_from,
        }
        if self.added:
            d["added"] = True
        return d


class Table(NamedTuple):
    players: int
    dealer: int
    winner: int | None
    discarder: int | None


class Hand(NamedTuple):
    """One situation, validated.  `counts` and `wilds` are what shape checks read."""

    concealed: tuple[int, ...]  # sorted, without the win tile
    melds: tuple[Meld, ...]
    win_tile: int | None
    self_drawn: bool
    after_kong: bool
    robbing_kong: bool
    last_tile: bool
    fourth_tile: bool
    heavenly: bool
    earthly: bool
    discarder_not_ready: bool
    discarded_wild: bool
    seat_wind: str
    prevalent_wind: str
    flowers: int
    wild: frozenset[int]
    table: Table | None
    extra: Mapping[str, Any]
    # derived
    counts: bytes  # natural (non-wild) concealed tiles, win tile included, per kind
    wilds: int  # wild tiles among concealed + win tile
    held: bytes  # every physical tile of the hand per kind: concealed, win tile, melds
    meld_counts: bytes  # copies per kind inside declared melds

    @property
    def caps(self) -> tuple[int, ...] | None:
        """Per-kind limit for what wild tiles may stand for, or None when no meld binds it."""
        if not self.wilds or not self.melds:
            return None
        return tuple(4 - m for m in self.meld_counts)

    def describe(self) -> str:
        parts = [tiles_str(self.concealed)]
        for m in self.melds:
            parts.append(
                ("[" if m.exposed else "(") + tiles_str(m.tiles) + ("]" if m.exposed else ")")
            )
        if self.win_tile is not None:
            parts.append("+" + tile_str(self.win_tile))
        return " ".join(parts)


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = d.get(key, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise RuleError(
            "bad_input", f"'{key}' must be true or false, not {v!r}", f"“{key}”只能是 true 或 false"
        )
    return v


def _wind(d: Mapping[str, Any], key: str) -> str:
    v = d.get(key)
    if v is None or v == "":  # not given: East
        return "E"
    r = wind(v)
    if r is None:
        raise RuleError(
            "bad_input",
            f"'{key}' must be one of E, S, W, N, not {v!r}",
            f"“{key}”只能是 E、S、W、N（东南西北）之一",
        )
    return r


def _whole_number(v: Any, key: str, lo: int, hi: int) -> int:
    """`v` when it is a whole number from lo to hi, else the error naming `key`."""
    if not whole_in(v, lo, hi):
        raise RuleError(
            "bad_input",
            f"'{key}' must be a whole number from {lo} to {hi}, not {v!r}",
            f"“{key}”必须是 {lo} 到 {hi} 之间的整数",
        )
    return v


def _zh_list(tiles: tuple[int, ...]) -> str:
    return " ".join(tile_zh(t) for t in tiles)


def _parse_meld(raw: Any, index: int) -> Meld:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise RuleError(
            "illegal_meld",
            f"meld {index + 1} must be an object with 'type' and 'tiles'",
            f"第 {index + 1} 副副露必须包含 type 和 tiles",
        )
    get = raw.get
    mtype = get("type")
    if mtype not in MELD_TYPES:
        raise RuleError(
            "illegal_meld",
            f"meld {index + 1}: type must be chi, pung or kong, not {mtype!r}",
            f"第 {index + 1} 副副露：类型只能是吃(chi)、碰(pung)或杠(kong)",
        )
    tiles = tuple(sorted(parse_tiles(get("tiles", []))))
    if tiles and tiles[-1] >= FLOWER_BASE:
        raise RuleError(
            "illegal_meld",
            f"meld {index + 1}: flowers cannot be melded",
            f"第 {index + 1} 副副露：花牌不能组成副露",
        )
    exposed = get("exposed", True)
    if exposed is not True and exposed is not False:
        raise RuleError(
            "bad_input",
            f"meld {index + 1}: 'exposed' must be true or false",
            f"第 {index + 1} 副副露：exposed 只能是 true 或 false",
        )
    claimed = get("claimed_from")
    if claimed not in _CLAIMED:
        raise RuleError(
            "bad_input",
            f"meld {index + 1}: claimed_from must be left, across, right or null",
            f"第 {index + 1} 副副露：claimed_from 只能是 left、across、right 或 null",
        )
    added = get("added", False)
    if added is not True and added is not False:
        raise RuleError(
            "bad_input",
            f"meld {index + 1}: 'added' must be true or false",
            f"第 {index + 1} 副副露：added 只能是 true 或 false",
        )
    if mtype == "chi":
        ok = (
            len(tiles) == 3
            and tiles[0] < 27
            and tiles[0] // 9 == tiles[2] // 9
            and (tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2)
        )
        if not ok:
            raise RuleError(
                "illegal_meld",
                f"meld {index + 1}: a chi is three consecutive tiles of one suit, not {tiles_en(tiles)}",
                f"第 {index + 1} 副副露：吃必须是同一花色的三张顺子，而不是 {_zh_list(tiles)}",
            )
    else:
        size = 3 if mtype == "pung" else 4
        if len(tiles) != size or tiles[0] != tiles[-1]:  # sorted: all equal
            name_en, name_zh = ("pung", "碰") if size == 3 else ("kong", "杠")
            raise RuleError(
                "illegal_meld",
                f"meld {index + 1}: a {name_en} is {size} identical tiles, not {tiles_en(tiles)}",
                f"第 {index + 1} 副副露：{name_zh}必须是 {size} 张相同的牌，而不是 {_zh_list(tiles)}",
            )
    if not exposed and mtype != "kong":
        raise RuleError(
            "illegal_meld",
            f"meld {index + 1}: only a kong can be declared concealed; keep concealed sets among the concealed tiles",
            f"第 {index + 1} 副副露：只有暗杠可以不亮出；暗刻、暗顺请放在手牌里",
        )
    if added and mtype != "kong":
        raise RuleError(
            "illegal_meld",
            f"meld {index + 1}: only a kong can be an added kong",
            f"第 {index + 1} 副副露：只有杠才能是加杠",
        )
    return Meld(mtype, tiles, exposed if mtype == "kong" else True, claimed, added)


# A meld met before -> its Meld and its packed counts (_MELD_PACKED): a table's
# melds recur (a few dozen pungs and chows), and checking one costs about as
# much as the rest of a hand's tiles.  Keyed by every field _parse_meld reads,
# exposed and added only as real booleans (1 == True would otherwise find
# True's entry); only a meld that passed its checks is kept.
_MELDS: dict[tuple[Any, ...], tuple[Meld, int]] = {}
MELD_CACHE_MAX = 4096


def _meld(raw: Any, index: int) -> tuple[Meld, int]:
    """_parse_meld and the meld's packed counts, a meld seen before read from
    _MELDS (the fast path's)."""
    if raw.__class__ is not dict:
        return _packed_meld(raw, index)
    get = raw.get
    exposed = get("exposed", True)
    added = get("added", False)
    if exposed.__class__ is not bool or added.__class__ is not bool:
        return _packed_meld(raw, index)
    tiles = get("tiles", [])
    key = (
        get("type"),
        tuple(tiles) if tiles.__class__ is list else tiles,
        exposed,
        get("claimed_from"),
        added,
    )
    try:
        hit = _MELDS.get(key)
    except TypeError:  # something unhashable: the careful check says what
        return _packed_meld(raw, index)
    if hit is None:
        hit = _packed_meld(raw, index)
        if len(_MELDS) >= MELD_CACHE_MAX:
            _MELDS.clear()
        _MELDS[key] = hit
    return hit


def _packed_meld(raw: Any, index: int) -> tuple[Meld, int]:
    meld = _parse_meld(raw, index)
    return meld, _MELD_PACKED[meld.tiles]  # (its tiles passed _parse_meld's checks)


_NO_MELDS = bytes(N_KINDS)
_CODE_OF = TILE_OF_CODE.__getitem__
_NO_WILD: frozenset[int] = frozenset()
_KNOWN = frozenset(
    {"id", "ruleset", "params", "concealed", "melds", "win_tile", "seat_wind", "prevalent_wind",
     "flowers", "wild", "table", "expected", *FLAGS}
)  # fmt: skip


_Tiles = tuple[
    tuple[int, ...], tuple[Meld, ...], int | None, frozenset[int], bytes, int, bytes, bytes
]


def parse_situation(sit: Any, need_win_tile: bool = True) -> Hand:
    """Validate a situation dict and build its Hand; RuleError on any problem.

    need_win_tile=False is the waits form: the hand is one tile short and a
    win_tile, if present, is ignored.

    The checks run in a fixed order (the first problem is the one reported).
    Well-formed tiles take read_tiles_fast, which gives up (None) at the first
    thing it does not expect; read_tiles_careful then runs every check in order
    for the error message, so a refusal reads the same either way.
    """
    if type(sit) is dict:
        tiles = read_tiles_fast(sit, need_win_tile) or read_tiles_careful(sit, need_win_tile)
    elif isinstance(sit, Mapping):
        tiles = read_tiles_careful(sit, need_win_tile)
    else:
        raise RuleError(
            "bad_input", "a situation must be a JSON object", "局面必须是一个 JSON 对象"
        )
    get = sit.get
    flowers = get("flowers", 0)
    if flowers.__class__ is not int or not 0 <= flowers <= 8:
        flowers = 0 if flowers is None else _whole_number(flowers, "flowers", 0, 8)
    # The flags: true/false (or null/missing for false); anything else is
    # reported by _bool, flag by flag in FLAGS order.  A missing flag is read as
    # False straight away (get's default), so the usual dict, a few flags given
    # as booleans, passes on one look at the values' types.
    flags: list[Any] = list(map(get, FLAGS, _NO_FLAGS))
    if not _BOOL_ONLY.issuperset(map(type, flags)):
        if not _FLAG_TYPES.issuperset(map(type, flags)):
            flags = [_bool(sit, k) for k in FLAGS]
        else:  # a null among them: false
            flags = list(map(is_, flags, _ALL_TRUE))  # (v is True, flag by flag)
    self_drawn: bool = flags[0]
    raw_table = get("table")
    table = None if raw_table is None else _parse_table(raw_table, self_drawn)
    seat = get("seat_wind")
    seat = (
        "E"
        if seat is None
        else (seat.__class__ is str and WIND_ALIASES.get(seat)) or _wind(sit, "seat_wind")
    )
    prevalent = get("prevalent_wind")
    prevalent = (
        "E"
        if prevalent is None
        else (prevalent.__class__ is str and WIND_ALIASES.get(prevalent))
        or _wind(sit, "prevalent_wind")
    )
    concealed, melds, win_tile, wild, counts, wilds, held, meld_counts = tiles
    return _new_hand(
        Hand,
        (
            concealed,
            melds,
            win_tile,
            *flags,
            seat,
            prevalent,
            flowers,
            wild,
            table,
            {} if _KNOWN.issuperset(sit) else {k: v for k, v in sit.items() if k not in _KNOWN},
            counts,
            wilds,
            held,
            meld_counts,
        ),
    )


_FLAG_TYPES = frozenset({bool, type(None)})
_BOOL_ONLY = frozenset({bool})
_NO_FLAGS = (False,) * len(FLAGS)
_ALL_TRUE = (True,) * len(FLAGS)

# "123m" (one suit's digits) -> its tiles, sorted; a hand's segments recur
# across hands.  Only 1m..9m, 1p..9p, 1s..9s and 1z..7z: the rest is left to
# the careful path.
_SEG_FIND = re.compile(r"[1-9]+[mpsz]").findall
_SEG_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_SEG_TILES: dict[str, tuple[int, ...]] = {}
SEG_CACHE_MAX = 20_000


def _seg_tiles(seg: str) -> tuple[int, ...] | None:
    suit = seg[-1]
    digits = seg[:-1]
    if suit == "z" and max(digits) > "7":
        return None
    base = _SEG_BASE[suit] - 1
    r = tuple(sorted(base + int(c) for c in digits))
    if len(_SEG_TILES) >= SEG_CACHE_MAX:
        _SEG_TILES.clear()
    _SEG_TILES[seg] = r
    return r


# read_tiles_fast counts tiles packed in one int, a byte a kind (kind t at byte t,
# flowers above the playing kinds): the standing tiles summed in C, the melds'
# counts added as ints, the five-copies check two int operations.  No byte
# carries into the next: at most 15 standing tiles get there (14 concealed and
# the win tile) and four melds hold at most 16 of a kind, so a byte stays below
# 256 - 123.
_BYTE = tuple(1 << 8 * t for t in range(N_ALL))
_BYTE_OF = _BYTE.__getitem__
_FLOWER_FLOOR = _BYTE[FLOWER_BASE]  # a packed count this large holds a flower
_PLUS_123 = sum(123 * _BYTE[t] for t in range(N_KINDS))  # 5 + 123 sets a byte's top bit
_TOP_BITS = sum(128 * _BYTE[t] for t in range(N_KINDS))
# A meld's tiles -> its packed counts, for every chi, pung and kong.
_MELD_PACKED = {
    tiles: sum(_BYTE[t] for t in tiles)
    for tiles in (
        *((t, t + 1, t + 2) for t in range(27) if t % 9 < 7),
        *((t,) * 3 for t in range(N_KINDS)),
        *((t,) * 4 for t in range(N_KINDS)),
    )
}


def read_tiles_fast(sit: dict[str, Any], need_win_tile: bool) -> _Tiles | None:
    """The tile fields of a well-formed situation, or None for anything else.

    It reports nothing itself: every value it does not expect (a flower, a
    fifth copy, a wrong count, an odd spelling) sends the situation to
    read_tiles_careful, which finds the first problem in the documented order.
    A meld's own check is the careful one (_parse_meld), run at the same
    point of that order.  tests/rules/test_parse_fast.py holds the two paths
    to the same Hand or the same error."""
    get = sit.get
    raw = get("concealed")
    if raw.__class__ is str:
        tiles: list[int] = []
        n = 0
        seg_get = _SEG_TILES.get
        for seg in _SEG_FIND(raw):
            r = seg_get(seg) or _seg_tiles(seg)
            if r is None:
                return None
            tiles += r
            n += len(seg)
        if n != len(raw):
            return None
    elif raw.__class__ is list:
        try:
            tiles = list(map(_CODE_OF, raw))
        except (KeyError, TypeError):
            return None
    else:
        return None
    # More than 14 never makes a hand (and would carry from byte to byte below).
    if not 0 < len(tiles) <= 14:
        return None
    # The counts per kind packed in one int, a byte a kind (flowers above the
    # playing kinds): a sum in C rather than a Python loop over the tiles.
    packed = sum(map(_BYTE_OF, tiles))
    if packed >= _FLOWER_FLOOR:
        return None
    tiles.sort()
    conc = tuple(tiles)
    raw_melds = get("melds")
    melds: tuple[Meld, ...] = ()
    in_melds = 0  # the melds' counts, packed
    if raw_melds:
        if raw_melds.__class__ is not list:
            return None
        # (more than 4 is refused by read_tiles_careful, after every meld's own check)
        if len(raw_melds) > 4:
            return None
        found: list[Meld] = []
        for i, raw_meld in enumerate(raw_melds):
            meld, meld_packed = _meld(raw_meld, i)
            found.append(meld)
            in_melds += meld_packed
        melds = tuple(found)
    n_hand = len(conc)
    win_tile: int | None = None
    if need_win_tile:
        raw_win = get("win_tile")
        win_tile = TILE_OF_CODE.get(raw_win) if raw_win.__class__ is str else None
        if win_tile is None or win_tile >= FLOWER_BASE:
            return None
        n_hand += 1
        packed += _BYTE[win_tile]
    wild_raw = get("wild")
    wild = _NO_WILD
    if wild_raw:
        if wild_raw.__class__ is list:
            try:
                wild = frozenset([TILE_OF_CODE[x] for x in wild_raw])
            except (KeyError, TypeError):
                return None
        elif wild_raw.__class__ is str and wild_raw in TILE_OF_CODE:
            wild = frozenset((TILE_OF_CODE[wild_raw],))
        else:
            return None
        if max(wild) >= FLOWER_BASE:
            return None
    if n_hand != 14 - 3 * len(melds) - (0 if need_win_tile else 1):
        return None
    standing = packed.to_bytes(N_KINDS, "little")
    if melds:
        packed += in_melds
        held = packed.to_bytes(N_KINDS, "little")
        meld_counts = in_melds.to_bytes(N_KINDS, "little")
    else:
        held = standing
        meld_counts = _NO_MELDS
    if (packed + _PLUS_123) & _TOP_BITS:  # a byte above 4 (123 + 5 sets its top bit)
        return None
    wilds = 0
    if wild:
        counts = bytearray(standing)
        for w in wild:
            wilds += counts[w]
            counts[w] = 0
        standing = bytes(counts)
    return (conc, melds, win_tile, wild, standing, wilds, held, meld_counts)


def read_tiles_careful(sit: Mapping[str, Any], need_win_tile: bool) -> _Tiles:
    """The tile fields, every check in the documented order (the first problem is reported)."""
    get = sit.get
    concealed = parse_tiles(get("concealed", []))
    if concealed and max(concealed) >= FLOWER_BASE:
        raise RuleError(
            "bad_tile",
            "flowers are not part of the concealed hand: give their number in 'flowers'",
            "花牌不算手牌：请在 flowers 里填花的张数",
        )
    raw_melds = get("melds") or []
    if not isinstance(raw_melds, list):
        raise RuleError("illegal_meld", "'melds' must be a list", "melds 必须是列表")
    melds = tuple([_parse_meld(m, i) for i, m in enumerate(raw_melds)]) if raw_melds else ()
    n_melds = len(melds)
    if n_melds > 4:
        raise RuleError("wrong_tile_count", "a hand has at most 4 melds", "一手牌最多 4 副副露")
    win_tile: int | None = None
    if need_win_tile:
        raw_win = get("win_tile")
        if raw_win in (None, ""):
            raise RuleError(
                "wrong_tile_count", "the winning tile 'win_tile' is missing", "缺少和牌张 win_tile"
            )
        win_tile = parse_tile(raw_win)
        if win_tile >= FLOWER_BASE:
            raise RuleError("bad_tile", "a flower cannot be the winning tile", "花牌不能当和牌张")
    wild_raw = get("wild")
    wild = frozenset(parse_tiles(wild_raw)) if wild_raw else _NO_WILD
    if wild and max(wild) >= FLOWER_BASE:
        raise RuleError("bad_tile", "flowers cannot be wild tiles here", "花牌不能作癞子")

    # Tile count: 3 per meld (a kong's 4th tile is its replacement draw), and the
    # standing tiles, win tile included, make 3n + 2.
    n_hand = len(concealed) + (1 if win_tile is not None else 0)
    expected = 14 - 3 * n_melds - (0 if need_win_tile else 1)
    if n_hand != expected:
        what = "with the winning tile " if need_win_tile else ""
        raise RuleError(
            "wrong_tile_count",
            f"{n_melds} meld(s) need {expected} concealed tiles {what}but there are {n_hand}",
            f"{n_melds} 副副露时手牌{'（含和牌张）' if need_win_tile else ''}应为 {expected} 张，现在是 {n_hand} 张",
        )

    standing = [0] * N_KINDS
    for t in concealed:
        standing[t] += 1
    if win_tile is not None:
        standing[win_tile] += 1
    if melds:
        meld_counts = [0] * N_KINDS
        for m in melds:
            for t in m.tiles:
                meld_counts[t] += 1
        held = list(map(add, standing, meld_counts))
    else:
        meld_counts = held = standing
    if max(held) > 4:
        t = next(t for t in range(N_KINDS) if held[t] > 4)
        raise RuleError(
            "too_many_copies",
            f"there are {held[t]} copies of {tile_en(t)}; a set has only 4",
            f"{tile_zh(t)}出现了 {held[t]} 张，一副牌只有 4 张",
        )
    wilds = 0
    counts = standing
    if wild:
        counts = list(standing)
        for w in wild:
            wilds += counts[w]
            counts[w] = 0

    return (
        tuple(sorted(concealed)),
        melds,
        win_tile,
        wild,
        bytes(counts),
        wilds,
        bytes(held),
        bytes(meld_counts) if melds else _NO_MELDS,
    )


def _parse_table(raw: Any, self_drawn: bool) -> Table | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RuleError(
            "bad_table",
            "'table' must be an object with players, dealer, winner, discarder",
            "table 必须包含 players、dealer、winner、discarder",
        )
    players = raw.get("players", 4)
    if not one_of(players, (2, 3, 4)):
        raise RuleError(
            "bad_table", f"'players' must be 2, 3 or 4, not {players!r}", "人数只能是 2、3 或 4"
        )

    def seat(key: str, required: bool) -> int | None:
        v = raw.get(key)
        if v is None:
            if required:
                raise RuleError("bad_table", f"table: '{key}' is missing", f"table 缺少 {key}")
            return None
        if not whole_in(v, 0, players - 1):
            raise RuleError(
                "bad_table",
                f"table: '{key}' must be a seat from 0 to {players - 1}, not {v!r}",
                f"table：{key} 必须是 0 到 {players - 1} 的座位号",
            )
        return v

    dealer = seat("dealer", False) or 0
    winner = seat("winner", False)
    discarder = seat("discarder", False)
    if self_drawn and discarder is not None:
        raise RuleError("bad_table", "a self-drawn win has no discarder", "自摸没有放炮的人")
    if not self_drawn and winner is not None and discarder is None:
        raise RuleError(
            "bad_table",
            "a win on a discard needs the discarder's seat",
            "点炮和牌需要填放炮者的座位",
        )
    if winner is not None and discarder == winner:
        raise RuleError("bad_table", "the winner cannot be the discarder", "和牌者不能是放炮者")
    return Table(players=players, dealer=dealer, winner=winner, discarder=discarder)


# parse_situation unpacks the flags in FLAGS order.
assert Hand._fields[3 : 3 + len(FLAGS)] == FLAGS
# parse_situation builds a Hand from its 22 fields as Hand._make does, without
# _make's call and length check (tests/rules/test_parse_fast.py compares Hands).
_new_hand = tuple.__new__
