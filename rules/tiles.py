"""Tile kinds, the mpsz notation and Chinese names.

Tiles are small ints so that a hand is a list of 34 counts (plus flowers):
    0..8 = 1m..9m (万), 9..17 = 1p..9p (筒), 18..26 = 1s..9s (条),
    27..33 = 1z..7z (东南西北白发中), 34..41 = 1f..8f (春夏秋冬梅兰竹菊).
Ints keep the hot paths (per-suit table look-ups) free of string work; the
notation is only used at the edges (parsing input, printing output).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.errors import RuleError

N_KINDS = 34  # playing tile kinds; flowers are not part of a hand's shape
N_ALL = 42
SUITS = "mpsz"
FLOWER_BASE = 34

HONORS = range(27, 34)
# The four winds as a situation spells a seat or round wind, in the order of
# their tiles (1z..4z) and of the seats round the table from the dealer.
SEAT_WINDS = ("E", "S", "W", "N")
WIND_TILES = (27, 28, 29, 30)  # 东南西北
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

_NUM_ZH = "一二三四五六七八九"
_SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
_HONOR_ZH = "东南西北白发中"
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
_HONOR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_EN_ONE = {"m": "Character", "p": "Dot", "s": "Bamboo"}
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")


def tile_str(t: int) -> str:
    """The mpsz code of one tile, e.g. 0 -> '1m', 33 -> '7z', 34 -> '1f'."""
    if 0 <= t < 27:
        return f"{t % 9 + 1}{SUITS[t // 9]}"
    if 27 <= t < 34:
        return f"{t - 26}z"
    if 34 <= t < N_ALL:
        return f"{t - 33}f"
    raise ValueError(f"not a tile index: {t}")


def tile_zh(t: int) -> str:
    """Chinese name as players say it: 一万, 五筒, 九条, 东, 白, 春."""
    if 0 <= t < 27:
        return _NUM_ZH[t % 9] + _SUIT_ZH[SUITS[t // 9]]
    if 27 <= t < 34:
        return _HONOR_ZH[t - 27]
    if 34 <= t < N_ALL:
        return _FLOWER_ZH[t - 34]
    raise ValueError(f"not a tile index: {t}")


def tile_en(t: int) -> str:
    """English name as players say it: 1 Character, 5 Dots, 9 Bamboo, East, Red, Plum."""
    if 0 <= t < 27:
        rank = t % 9 + 1
        return f"{rank} {(_SUIT_EN_ONE if rank == 1 else _SUIT_EN)[SUITS[t // 9]]}"
    if 27 <= t < 34:
        return _HONOR_EN[t - 27]
    if 34 <= t < N_ALL:
        return _FLOWER_EN[t - 34]
    raise ValueError(f"not a tile index: {t}")


# Chinese aliases accepted on input: 万/萬, 筒/饼/餅, 条/條/索, 發, 红中 ...
_ZH_ALIASES: dict[str, int] = {}
for _i, _n in enumerate(_NUM_ZH):
    for _suit, _names in (("m", "万萬"), ("p", "筒饼餅"), ("s", "条條索")):
        for _ch in _names:
            _ZH_ALIASES[_n + _ch] = _i + 9 * SUITS.index(_suit)
for _i, _n in enumerate(_HONOR_ZH):
    _ZH_ALIASES[_n] = 27 + _i
    _ZH_ALIASES[_n + "风"] = 27 + _i
for _alias, _t in (
    ("東", 27),
    ("西", 29),
    ("發", 32),
    ("红中", 33),
    ("紅中", 33),
    ("白板", 31),
    ("发财", 32),
    ("發財", 32),
    ("東风", 27),
    ("東風", 27),
    ("南風", 28),
    ("西風", 29),
    ("北風", 30),
):
    _ZH_ALIASES[_alias] = _t
for _i, _n in enumerate(_FLOWER_ZH):
    _ZH_ALIASES[_n] = 34 + _i
for _k in [k for k in _ZH_ALIASES if k.endswith("风") and k[0] in "白发中"]:
    del _ZH_ALIASES[_k]

_CODE_RE = re.compile(r"^([1-9])([mpszf])$")
_COMPACT_RE = re.compile(r"([0-9]+)([mpszf])")


def _code_to_tile(digit: int, suit: str, raw: str) -> int:
    if suit in "mps":
        return 9 * "mps".index(suit) + digit - 1
    if suit == "z":
        if digit > 7:
            raise RuleError(
                "bad_tile",
                f"'{raw}' is not a tile: honors are 1z..7z",
                f"“{raw}”不是一张牌：字牌只有 1z..7z",
            )
        return 26 + digit
    if digit > 8:
        raise RuleError(
            "bad_tile",
            f"'{raw}' is not a tile: flowers are 1f..8f",
            f"“{raw}”不是一张牌：花牌只有 1f..8f",
        )
    return 33 + digit


_CODES: dict[str, int] = {}
for _t in range(N_ALL):
    _code = tile_str(_t)
    _CODES[_code] = _CODES[_code.upper()] = _t
# tile -> its mpsz code, for answers that list many tiles
TILE_STRS: tuple[str, ...] = tuple(tile_str(_t) for _t in range(N_ALL))


def parse_tile(raw: object) -> int:
    """One tile from '5m', '5M', '五万' or '中'; a RuleError('bad_tile') otherwise."""
    t = _CODES.get(raw) if isinstance(raw, str) else None
    if t is not None:
        return t
    if not isinstance(raw, str):
        raise RuleError(
            "bad_tile",
            f"a tile must be a string like '5m', not {raw!r}",
            f"牌要写成“5m”这样的字符串，而不是 {raw!r}",
        )
    s = raw.strip()
    m = _CODE_RE.match(s.lower())
    if m:
        return _code_to_tile(int(m.group(1)), m.group(2), s)
    if s in _ZH_ALIASES:
        return _ZH_ALIASES[s]
    raise RuleError(
        "bad_tile",
        f"'{raw}' is not a tile (use 1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f)",
        f"“{raw}”不是一张牌（可用 1m..9m、1p..9p、1s..9s、1z..7z、1f..8f）",
    )


def parse_tiles(raw: object) -> list[int]:
    """A list of tiles from a list of codes or a compact string such as '123m456p11z'.

    The compact form also takes Chinese names separated by spaces or commas
    ('一万 二万 三万'), since that is how players read a hand aloud.
    """
    if isinstance(raw, str):
        s = raw.replace(" ", "").replace(",", "").replace("，", "")
        if not s:
            return []
        if s[0].isdigit():
            fast = _parse_compact(s)
            if fast is not None:
                return fast
            pos = 0
            out: list[int] = []
            for m in _COMPACT_RE.finditer(s.lower()):
                if m.start() != pos:
                    break
                for d in m.group(1):
                    if d == "0":
                        raise RuleError(
                            "bad_tile",
                            f"'0{m.group(2)}' is not a tile (red fives are not used)",
                            f"“0{m.group(2)}”不是一张牌",
                        )
                    out.append(_code_to_tile(int(d), m.group(2), d + m.group(2)))
                pos = m.end()
            if pos == len(s):
                return out
            raise RuleError(
                "bad_tile",
                f"cannot read tiles '{raw}' (write them like '123m456p11z')",
                f"看不懂这串牌“{raw}”（请写成“123m456p11z”）",
            )
        parts = re.split(r"[\s,，、]+", raw.strip())
        return [parse_tile(p) for p in parts if p]
    if isinstance(raw, (list, tuple)):
        try:
            return [_CODES[x] for x in raw]
        except (KeyError, TypeError):
            return [parse_tile(x) for x in raw]
    raise RuleError(
        "bad_tile",
        f"tiles must be a list or a string like '123m', not {type(raw).__name__}",
        "牌必须是列表或“123m”这样的字符串",
    )


_SUIT_RANGE = {"m": (0, 9), "p": (9, 9), "s": (18, 9), "z": (27, 7), "f": (34, 8)}
_DIGIT = {str(i): i - 1 for i in range(1, 10)}


_SEGMENT_RE = re.compile(r"[1-9]+[mpszf]")
# "123m" -> its tiles: a hand's segments recur across hands, so each is read once.
_SEGMENTS: dict[str, list[int]] = {}


def _parse_compact(s: str) -> list[int] | None:
    """'123m45p' the quick way; None sends odd input to the careful path for its message.

    The segments are found by one regular expression; their lengths adding up
    to the whole string means nothing was skipped."""
    out: list[int] = []
    n = 0
    for seg in _SEGMENT_RE.findall(s):
        r = _SEGMENTS.get(seg)
        if r is None:
            base, lim = _SUIT_RANGE[seg[-1]]
            r = []
            for c in seg[:-1]:
                d = _DIGIT[c]
                if d >= lim:
                    return None
                r.append(base + d)
            if len(_SEGMENTS) >= 20_000:
                _SEGMENTS.clear()
            _SEGMENTS[seg] = r
        out += r
        n += len(seg)
    return out if n == len(s) else None


def tiles_str(tiles: Iterable[int]) -> str:
    """Compact mpsz form, grouped by suit in tile order: [0,1,2,27,27] -> '123m11z'."""
    out = []
    ts = sorted(tiles)
    for suit_i, suit in enumerate("mpszf"):
        digits = []
        for t in ts:
            if suit_i < 3 and t // 9 == suit_i and t < 27:
                digits.append(str(t % 9 + 1))
            elif suit == "z" and 27 <= t < 34:
                digits.append(str(t - 26))
            elif suit == "f" and t >= 34:
                digits.append(str(t - 33))
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


def tiles_en(tiles: Iterable[int]) -> str:
    """Tiles by their English names, for messages players read: "1 Character, 2 Characters".

    The engine's English messages about a hand name tiles this way, never by
    code ("12m"): the codes are the API's notation, not the players'.
    """
    return ", ".join(tile_en(t) for t in tiles)


def group_en(kind: str, low: int) -> str:
    """A set or pair as an English reader says it: "chow 1-2-3 Characters", "pung of Red".

    Notes that players read never show tile codes ("chow 1m").
    """
    if kind == "chow" and low < 27:
        r = low % 9 + 1
        return f"chow {r}-{r + 1}-{r + 2} {_SUIT_EN[SUITS[low // 9]]}"
    return f"{kind} of {tile_en(low)}"
