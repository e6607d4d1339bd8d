"""Differential testing of the MCR (国标) ruleset against the oracle PyMahjongGB.

Three parts, shared by tests/rules/test_mcr_oracle.py and benchmarks/mcr_diff.py:

* the converter: a situation (docs/situation.md) -> the arguments of
  ``MahjongGB.MahjongFanCalculator``, and the oracle's answer as
  (name_zh, points, count) triples (``oracle_fans``);
* the generator: reproducible LEGAL situations (``generate_situations(n, seed)``)
  built from templates, one or more per fan, so that every one of the 81 fans
  occurs (uniform random hands almost never reach the big ones);
* the comparison of one result of ``rules.score(sit, "mcr")`` with the oracle
  (``compare``), and a timer for the oracle (``oracle_median_us``).

How the situation maps to the oracle
------------------------------------
Tiles: 1m-9m -> W1-W9, 1p-9p -> B1-B9, 1s-9s -> T1-T9, 1z-4z -> F1-F4,
5z (白) -> J3, 6z (发) -> J2, 7z (中) -> J1.  ``hand`` is the concealed tiles
without the win tile.  Melds -> ``pack``: chi -> ("CHI", middle tile, 1)
(which tile of the chow was claimed is not part of a situation and does not
change the oracle's fans; offer 0 would make it a *concealed* chow, giving
门前清); pung -> ("PENG", tile, 1/2/3 for left/across/right, 1 when
claimed_from is null); exposed kong -> ("GANG", tile, 1/2/3), concealed kong
-> ("GANG", tile, 0).  ``added`` (加杠) has no oracle counterpart.

Flags: isSelfDrawn = self_drawn; is4thTile = fourth_tile; isWallLast =
last_tile (妙手回春 when self-drawn, 海底捞月 on a discard); isAboutKong =
after_kong when self-drawn (杠上开花) or robbing_kong on a discard (抢杠和).
after_kong on a discard (杠上炮) has no MCR fan and is NOT passed (the oracle
would read it as 抢杠和).  Winds E/S/W/N -> 0..3; flowers -> flowerCount.

Oracle behaviour the generator respects (probed on PyMahjongGB 1.4.0):

* It scores what it is given: no 8-fan minimum, no check that the flags fit
  the tiles.  It raises TypeError("ERROR_NOT_WIN") for a non-winning shape.
* 和绝张 is silently dropped when the concealed tiles (without the win tile)
  hold a copy of the win tile; copies in the player's own melds count as
  visible and do not stop it.  The generator sets fourth_tile only when the
  concealed tiles hold no copy of the win tile.
* 抢杠和 is silently dropped likewise when the concealed tiles hold a copy.
  The robbed player's pung holds three copies, so the generator sets
  robbing_kong only when the hand (concealed and melds) holds no other copy.
  With 抢杠和 the oracle never gives 和绝张 (抢杠和不计和绝张), whatever
  fourth_tile says; the generator sets fourth_tile with robbing_kong at random.
* 杠上开花 is silently dropped when the hand has no kong meld; the generator
  sets after_kong with self_drawn only when the hand has a kong.  With a kong,
  杠上开花 and 妙手回春 are both scored when last_tile is set too.
* 抢杠和 together with last_tile gives both 抢杠和 and 海底捞月 (the robbed
  tile is not a discard, so this is nonsense); the generator never combines
  robbing_kong with last_tile.
* One concealed kong plus one melded kong scores the non-standard fan
  明暗杠 (5) instead of 暗杠 (2) + 明杠 (1).  ``oracle_fans(sit, split_mixed_kongs=True)``
  (or SPLIT_MIXED_KONGS = True here) turns it into 暗杠 + 明杠 for comparison.
* after_kong on a discard (杠上炮) is generated now and then (no fan expected).
* The three waits are named 独听・边张 / 独听・嵌张 / 独听・单钓 (ids 77-79),
  as in tests/fixtures/spec/mcr.jsonl.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import MahjongGB  # type: ignore[import-not-found]

# ---------------------------------------------------------------------------
# the 81 fans: (id, name_zh as the oracle and the fixtures spell it, name_en, points)

FANS: tuple[tuple[int, str, str, int], ...] = (
    (1, "大四喜", "Big Four Winds", 88),
    (2, "大三元", "Big Three Dragons", 88),
    (3, "绿一色", "All Green", 88),
    (4, "九莲宝灯", "Nine Gates", 88),
    (5, "四杠", "Four Kongs", 88),
    (6, "连七对", "Seven Shifted Pairs", 88),
    (7, "十三幺", "Thirteen Orphans", 88),
    (8, "清幺九", "All Terminals", 64),
    (9, "小四喜", "Little Four Winds", 64),
    (10, "小三元", "Little Three Dragons", 64),
    (11, "字一色", "All Honors", 64),
    (12, "四暗刻", "Four Concealed Pungs", 64),
    (13, "一色双龙会", "Pure Terminal Chows", 64),
    (14, "一色四同顺", "Quadruple Chow", 48),
    (15, "一色四节高", "Four Pure Shifted Pungs", 48),
    (16, "一色四步高", "Four Pure Shifted Chows", 32),
    (17, "三杠", "Three Kongs", 32),
    (18, "混幺九", "All Terminals and Honors", 32),
    (19, "七对", "Seven Pairs", 24),
    (20, "七星不靠", "Greater Honors and Knitted Tiles", 24),
    (21, "全双刻", "All Even Pungs", 24),
    (22, "清一色", "Full Flush", 24),
    (23, "一色三同顺", "Pure Triple Chow", 24),
    (24, "一色三节高", "Pure Shifted Pungs", 24),
    (25, "全大", "Upper Tiles", 24),
    (26, "全中", "Middle Tiles", 24),
    (27, "全小", "Lower Tiles", 24),
    (28, "清龙", "Pure Straight", 16),
    (29, "三色双龙会", "Three-Suited Terminal Chows", 16),
    (30, "一色三步高", "Pure Shifted Chows", 16),
    (31, "全带五", "All Five", 16),
    (32, "三同刻", "Triple Pung", 16),
    (33, "三暗刻", "Three Concealed Pungs", 16),
    (34, "全不靠", "Lesser Honors and Knitted Tiles", 12),
    (35, "组合龙", "Knitted Straight", 12),
    (36, "大于五", "Upper Four", 12),
    (37, "小于五", "Lower Four", 12),
    (38, "三风刻", "Big Three Winds", 12),
    (39, "花龙", "Mixed Straight", 8),
    (40, "推不倒", "Reversible Tiles", 8),
    (41, "三色三同顺", "Mixed Triple Chow", 8),
    (42, "三色三节高", "Mixed Shifted Pungs", 8),
    (43, "无番和", "Chicken Hand", 8),
    (44, "妙手回春", "Last Tile Draw", 8),
    (45, "海底捞月", "Last Tile Claim", 8),
    (46, "杠上开花", "Out with Replacement Tile", 8),
    (47, "抢杠和", "Robbing The Kong", 8),
    (48, "碰碰和", "All Pungs", 6),
    (49, "混一色", "Half Flush", 6),
    (50, "三色三步高", "Mixed Shifted Chows", 6),
    (51, "五门齐", "All Types", 6),
    (52, "全求人", "Melded Hand", 6),
    (53, "双暗杠", "Two Concealed Kongs", 6),
    (54, "双箭刻", "Two Dragons Pungs", 6),
    (55, "全带幺", "Outside Hand", 4),
    (56, "不求人", "Fully Concealed Hand", 4),
    (57, "双明杠", "Two Melded Kongs", 4),
    (58, "和绝张", "Last Tile", 4),
    (59, "箭刻", "Dragon Pung", 2),
    (60, "圈风刻", "Prevalent Wind", 2),
    (61, "门风刻", "Seat Wind", 2),
    (62, "门前清", "Concealed Hand", 2),
    (63, "平和", "All Chows", 2),
    (64, "四归一", "Tile Hog", 2),
    (65, "双同刻", "Double Pung", 2),
    (66, "双暗刻", "Two Concealed Pungs", 2),
    (67, "暗杠", "Concealed Kong", 2),
    (68, "断幺", "All Simples", 2),
    (69, "一般高", "Pure Double Chow", 1),
    (70, "喜相逢", "Mixed Double Chow", 1),
    (71, "连六", "Short Straight", 1),
    (72, "老少副", "Two Terminal Chows", 1),
    (73, "幺九刻", "Pung of Terminals or Honors", 1),
    (74, "明杠", "Melded Kong", 1),
    (75, "缺一门", "One Voided Suit", 1),
    (76, "无字", "No Honors", 1),
    (77, "独听・边张", "Edge Wait", 1),
    (78, "独听・嵌张", "Closed Wait", 1),
    (79, "独听・单钓", "Single Wait", 1),
    (80, "自摸", "Self-Drawn", 1),
    (81, "花牌", "Flower Tiles", 1),
)
# Fans the oracle knows beyond the standard 81 (the situation spec numbers
# non-standard fans from 82 on; which number is the ruleset's choice).
ORACLE_EXTRA_FANS: dict[str, tuple[str, int]] = {"明暗杠": ("Concealed Kong and Melded Kong", 5)}

FAN_ID: dict[str, int] = {name: fid for fid, name, _, _ in FANS}
FAN_BY_ID: dict[int, tuple[str, str, int]] = {fid: (zh, en, p) for fid, zh, en, p in FANS}
FLOWER_FAN = "花牌"

Fan = tuple[str, int, int]  # (name_zh, points, count)

# ---------------------------------------------------------------------------
# tiles: ints 0..33 as in rules.tiles (0..8 m, 9..17 p, 18..26 s, 27..33 1z..7z)

_SUIT_LETTERS = "mpsz"
_ORACLE_SUIT = "WBT"
_ORACLE_HONOR = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # 1z..7z: 东南西北 白发中
_WINDS = "ESWN"
_OFFER = {"left": 1, "across": 2, "right": 3, None: 1}
_TILE_RE = re.compile(r"([0-9]+)([mpsz])")


def tile_str(t: int) -> str:
    return f"{t % 9 + 1}{_SUIT_LETTERS[t // 9]}"


def parse_tiles(raw: Any) -> list[int]:
    """'123m' / ['1m', '2m'] -> ints; strict (an unknown tile raises ValueError)."""
    text = raw if isinstance(raw, str) else "".join(raw)
    text = text.replace(" ", "")
    out: list[int] = []
    pos = 0
    for m in _TILE_RE.finditer(text):
        if m.start() != pos:
            raise ValueError(f"bad tiles {raw!r}")
        pos = m.end()
        suit = _SUIT_LETTERS.index(m.group(2))
        for d in m.group(1):
            n = int(d)
            if not 1 <= n <= (7 if suit == 3 else 9):
                raise ValueError(f"bad tile {d}{m.group(2)} in {raw!r}")
            out.append(suit * 9 + n - 1)
    if pos != len(text):
        raise ValueError(f"bad tiles {raw!r}")
    return out


def oracle_tile(t: int) -> str:
    if t >= 27:
        return _ORACLE_HONOR[t - 27]
    return f"{_ORACLE_SUIT[t // 9]}{t % 9 + 1}"


# ---------------------------------------------------------------------------
# the converter and the oracle


def oracle_args(sit: dict[str, Any]) -> tuple[Any, ...]:
    """The positional arguments of MahjongGB.MahjongFanCalculator for a situation."""
    pack: list[tuple[str, str, int]] = []
    for m in sit.get("melds") or []:
        tiles = sorted(parse_tiles(m["tiles"]))
        if m["type"] == "chi":
            pack.append(("CHI", oracle_tile(tiles[1]), 1))
        elif m["type"] == "pung":
            pack.append(("PENG", oracle_tile(tiles[0]), _OFFER[m.get("claimed_from")]))
        elif m["type"] == "kong":
            offer = _OFFER[m.get("claimed_from")] if m.get("exposed", True) else 0
            pack.append(("GANG", oracle_tile(tiles[0]), offer))
        else:
            raise ValueError(f"unknown meld type {m['type']!r}")
    hand = tuple(oracle_tile(t) for t in parse_tiles(sit.get("concealed", [])))
    (win,) = parse_tiles(sit["win_tile"])
    self_drawn = bool(sit.get("self_drawn"))
    about_kong = bool(sit.get("after_kong")) if self_drawn else bool(sit.get("robbing_kong"))
    return (
        tuple(pack),
        hand,
        oracle_tile(win),
        int(sit.get("flowers") or 0),
        self_drawn,
        bool(sit.get("fourth_tile")),
        about_kong,
        bool(sit.get("last_tile")),
        _WINDS.index(sit.get("seat_wind") or "E"),
        _WINDS.index(sit.get("prevalent_wind") or "E"),
    )


def oracle_raw(sit: dict[str, Any]) -> tuple[tuple[int, int, str, str], ...]:
    """The oracle's own answer: (points, count, name_zh, name_en) per fan.

    Raises TypeError (e.g. 'ERROR_NOT_WIN') for a hand that is not a winning shape.
    """
    result: tuple[tuple[int, int, str, str], ...] = MahjongGB.MahjongFanCalculator(
        *oracle_args(sit), verbose=True
    )
    return result


def _fan_order(f: Fan) -> tuple[int, str, int, int]:
    return (FAN_ID.get(f[0], 999), f[0], f[1], f[2])


# The oracle's 明暗杠 (one concealed and one melded kong, 5) is not among the
# standard 81; True compares against 暗杠 (2) + 明杠 (1) in its place.
SPLIT_MIXED_KONGS = False


def oracle_fans(sit: dict[str, Any], split_mixed_kongs: bool | None = None) -> list[Fan]:
    """(name_zh, points, count) of every fan the oracle gives, in fan-number order."""
    fans = [(zh, p, c) for p, c, zh, _ in oracle_raw(sit)]
    split = SPLIT_MIXED_KONGS if split_mixed_kongs is None else split_mixed_kongs
    if split and any(zh == "明暗杠" for zh, _, _ in fans):
        fans = [f for f in fans if f[0] != "明暗杠"] + [("暗杠", 2, 1), ("明杠", 1, 1)]
    return sorted(fans, key=_fan_order)


def fans_total(fans: Iterable[Fan]) -> int:
    return sum(p * c for _, p, c in fans)


def flower_points(fans: Iterable[Fan]) -> int:
    return sum(p * c for zh, p, c in fans if zh == FLOWER_FAN)


def oracle_median_us(sits: Sequence[dict[str, Any]], rounds: int = 5) -> float:
    """Median over `rounds` of the oracle's mean µs per hand (conversion excluded)."""
    calc = MahjongGB.MahjongFanCalculator
    args = [oracle_args(s) for s in sits]
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for a in args:
            calc(*a, verbose=True)
        samples.append((time.perf_counter_ns() - t0) / len(args) / 1000)
    return statistics.median(samples)


# ---------------------------------------------------------------------------
# legality of a situation (the generator's contract)


def legality_problems(sit: dict[str, Any]) -> list[str]:
    """Why `sit` is not a legal, consistent winning situation; [] when it is.

    Shape: four sets and a pair or seven pairs by our `generic` ruleset; 十三幺,
    全不靠/七星不靠 and 组合龙 by rules.shapes.  Flags as the module doc says.
    """
    from rules import score, shapes

    problems: list[str] = []
    melds = sit.get("melds") or []
    concealed = parse_tiles(sit.get("concealed", []))
    (win,) = parse_tiles(sit["win_tile"])
    if len(concealed) + 1 != 14 - 3 * len(melds):
        problems.append(f"{len(concealed)} concealed tiles with {len(melds)} melds")
    held = Counter(concealed)
    held[win] += 1
    has_kong = False
    for m in melds:
        held.update(parse_tiles(m["tiles"]))
        has_kong = has_kong or m["type"] == "kong"
    over = [tile_str(t) for t, c in held.items() if c > 4]
    if over:
        problems.append(f"more than 4 copies of {over}")
    generic: Mapping[str, Any] = score({**sit, "ruleset": "generic"}, "generic")
    if not generic.get("ok"):
        problems.append(f"generic ruleset refuses it: {generic.get('error')}")
    elif not generic["win"]:
        counts = [0] * 34
        for t in concealed:
            counts[t] += 1
        counts[win] += 1
        special = (not melds and shapes.is_thirteen_orphans(counts)) or (
            not melds and shapes.is_knitted(counts)
        )
        if len(melds) <= 1 and shapes.is_knitted_straight(bytes(counts)):
            special = True
        if not special:
            problems.append("not a winning shape")
    self_drawn = bool(sit.get("self_drawn"))
    win_in_concealed = concealed.count(win)
    if sit.get("robbing_kong"):
        if self_drawn:
            problems.append("robbing_kong with self_drawn")
        if held[win] != 1:
            problems.append("robbing_kong but the hand holds another copy of the win tile")
        if sit.get("last_tile"):
            problems.append("robbing_kong with last_tile")
    if sit.get("after_kong") and self_drawn and not has_kong:
        problems.append("after_kong (杠上开花) without a kong")
    if sit.get("fourth_tile") and win_in_concealed:
        problems.append("fourth_tile but the concealed tiles hold a copy of the win tile")
    if sit.get("after_kong") and sit.get("robbing_kong"):
        problems.append("after_kong with robbing_kong")
    return problems


# ---------------------------------------------------------------------------
# the generator

Set = tuple[str, int]  # ("chow", lowest tile) or ("pung", tile)
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (31, 32, 33)
HONOR_TILES = WIND_TILES + DRAGON_TILES
TERMINAL_TILES = (0, 8, 9, 17, 18, 26)
ORPHAN_TILES = TERMINAL_TILES + HONOR_TILES
GREEN_TILES = (19, 20, 21, 23, 25, 32)  # 2 3 4 6 8 s, 6z 发
REVERSIBLE_TILES = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)  # 1234589p 245689s 5z
REVERSIBLE_CHOWS = (9, 10, 11, 21)  # 123p 234p 345p 456s


def _t(suit: int, num: int) -> int:
    return suit * 9 + num - 1


def _set_tiles(s: Set) -> list[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


@dataclass
class _Plan:
    """A standard hand before melding: four sets, the pair and how to meld them.

    melds: how many sets are declared (None: random).  kongs: how many pungs must
    become kongs (declared).  kong_mode: 'any', 'concealed' (melds are concealed
    kongs only), 'exposed' (no concealed kong) or 'none' (declared pungs stay
    pungs).  self_drawn: forced value or None.
    """

    sets: list[Set]
    pair: int
    melds: int | None = None
    kongs: int = 0
    kong_mode: str = "any"
    self_drawn: bool | None = None


class _R:
    """Small random helpers over one random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def suit(self) -> int:
        return self.rng.randrange(3)

    def suits3(self) -> list[int]:
        s = [0, 1, 2]
        self.rng.shuffle(s)
        return s

    def chow(self, suit: int | None = None, lo: int = 1, hi: int = 7) -> Set:
        s = self.suit() if suit is None else suit
        return ("chow", _t(s, self.rng.randint(lo, hi)))

    def pung(self, pool: Sequence[int] = range(34)) -> Set:
        return ("pung", self.rng.choice(list(pool)))

    def any_set(self, pool: Sequence[int] | None = None, chow_p: float = 0.55) -> Set:
        """A random set; with `pool`, only sets all of whose tiles are in it."""
        if pool is None:
            return self.chow() if self.rng.random() < chow_p else self.pung()
        allowed = set(pool)
        chows = [t for t in allowed if t < 27 and t % 9 <= 6 and {t + 1, t + 2} <= allowed]
        if chows and self.rng.random() < chow_p:
            return ("chow", self.rng.choice(sorted(chows)))
        return self.pung(sorted(allowed))

    def tile(self, pool: Sequence[int] = range(34)) -> int:
        return self.rng.choice(list(pool))

    def fill(self, sets: list[Set], pool: Sequence[int] | None = None) -> list[Set]:
        while len(sets) < 4:
            sets.append(self.any_set(pool))
        return sets


def _range_pool(lo: int, hi: int) -> list[int]:
    return [_t(s, n) for s in range(3) for n in range(lo, hi + 1)]


def _suit_pool(suit: int) -> list[int]:
    return [_t(suit, n) for n in range(1, 10)]


def _tpl_random(r: _R) -> _Plan:
    return _Plan(r.fill([]), r.tile())


def _tpl_all_pungs(r: _R) -> _Plan:
    return _Plan([r.pung() for _ in range(4)], r.tile())


def _tpl_all_chows(r: _R) -> _Plan:
    return _Plan([r.chow() for _ in range(4)], r.tile(range(27)))


def _tpl_full_flush(r: _R) -> _Plan:
    pool = _suit_pool(r.suit())
    return _Plan(r.fill([], pool), r.tile(pool))


def _tpl_half_flush(r: _R) -> _Plan:
    pool = _suit_pool(r.suit()) + list(HONOR_TILES)
    return _Plan(r.fill([], pool), r.tile(pool))


def _tpl_all_honors(r: _R) -> _Plan:
    kinds = r.rng.sample(HONOR_TILES, 5)
    return _Plan([("pung", t) for t in kinds[:4]], kinds[4])


def _tpl_all_terminals(r: _R) -> _Plan:
    kinds = r.rng.sample(TERMINAL_TILES, 5)
    return _Plan([("pung", t) for t in kinds[:4]], kinds[4])


def _tpl_terminals_honors(r: _R) -> _Plan:
    kinds = r.rng.sample(ORPHAN_TILES, 5)
    return _Plan([("pung", t) for t in kinds[:4]], kinds[4])


def _tpl_outside(r: _R) -> _Plan:
    sets: list[Set] = []
    for _ in range(4):
        x = r.rng.random()
        if x < 0.5:
            sets.append(("chow", _t(r.suit(), r.rng.choice((1, 7)))))
        else:
            sets.append(r.pung(ORPHAN_TILES))
    return _Plan(sets, r.tile(ORPHAN_TILES))


def _tpl_all_fives(r: _R) -> _Plan:
    fives = [_t(s, 5) for s in range(3)]
    sets: list[Set] = [
        r.chow(lo=3, hi=5) if r.rng.random() < 0.7 else r.pung(fives) for _ in range(4)
    ]
    return _Plan(sets, r.tile(fives))


def _tpl_even_pungs(r: _R) -> _Plan:
    pool = [_t(s, n) for s in range(3) for n in (2, 4, 6, 8)]
    return _Plan([r.pung(pool) for _ in range(4)], r.tile(pool))


def _tpl_green(r: _R) -> _Plan:
    pool = list(GREEN_TILES) if r.rng.random() < 0.7 else list(GREEN_TILES[:5])
    return _Plan(r.fill([], pool), r.tile(pool))


def _tpl_reversible(r: _R) -> _Plan:
    sets: list[Set] = []
    for _ in range(4):
        if r.rng.random() < 0.5:
            sets.append(("chow", r.rng.choice(REVERSIBLE_CHOWS)))
        else:
            sets.append(r.pung(REVERSIBLE_TILES))
    return _Plan(sets, r.tile(REVERSIBLE_TILES))


def _tpl_range(lo: int, hi: int) -> Callable[[_R], _Plan]:
    """全大 7-9, 全中 4-6, 全小 1-3, 大于五 6-9, 小于五 1-4."""

    def tpl(r: _R) -> _Plan:
        pool = _range_pool(lo, hi)
        return _Plan(r.fill([], pool), r.tile(pool))

    return tpl


def _tpl_big_four_winds(r: _R) -> _Plan:
    return _Plan([("pung", t) for t in WIND_TILES], r.tile())


def _tpl_little_four_winds(r: _R) -> _Plan:
    winds = list(WIND_TILES)
    r.rng.shuffle(winds)
    return _Plan([("pung", t) for t in winds[:3]] + [r.any_set()], winds[3])


def _tpl_three_winds(r: _R) -> _Plan:
    winds = r.rng.sample(WIND_TILES, 3)
    return _Plan(r.fill([("pung", t) for t in winds]), r.tile())


def _tpl_big_three_dragons(r: _R) -> _Plan:
    return _Plan([("pung", t) for t in DRAGON_TILES] + [r.any_set()], r.tile())


def _tpl_little_three_dragons(r: _R) -> _Plan:
    d = list(DRAGON_TILES)
    r.rng.shuffle(d)
    return _Plan(r.fill([("pung", d[0]), ("pung", d[1])]), d[2])


def _tpl_two_dragons(r: _R) -> _Plan:
    d = r.rng.sample(DRAGON_TILES, 2)
    return _Plan(r.fill([("pung", t) for t in d]), r.tile())


def _tpl_honor_pungs(r: _R) -> _Plan:
    """One or two honor pungs (箭刻, 圈风刻, 门风刻, 幺九刻) among random sets."""
    sets = [r.pung(HONOR_TILES) for _ in range(r.rng.randint(1, 2))]
    return _Plan(r.fill(sets), r.tile())


def _tpl_quadruple_chow(r: _R) -> _Plan:
    c = r.chow()
    return _Plan([c, c, c, c], r.tile())


def _tpl_pure_triple_chow(r: _R) -> _Plan:
    c = r.chow()
    return _Plan(r.fill([c, c, c]), r.tile())


def _tpl_shifted_pungs(n_sets: int) -> Callable[[_R], _Plan]:
    def tpl(r: _R) -> _Plan:
        s = r.suit()
        start = r.rng.randint(1, 10 - n_sets)
        return _Plan(r.fill([("pung", _t(s, start + i)) for i in range(n_sets)]), r.tile())

    return tpl


def _tpl_shifted_chows(n_sets: int) -> Callable[[_R], _Plan]:
    def tpl(r: _R) -> _Plan:
        s = r.suit()
        step = 1 if n_sets == 4 and r.rng.random() < 0.5 else r.rng.choice((1, 2))
        start = r.rng.randint(1, 7 - step * (n_sets - 1))
        return _Plan(r.fill([("chow", _t(s, start + step * i)) for i in range(n_sets)]), r.tile())

    return tpl


def _tpl_pure_straight(r: _R) -> _Plan:
    s = r.suit()
    return _Plan(r.fill([("chow", _t(s, n)) for n in (1, 4, 7)]), r.tile())


def _tpl_mixed_straight(r: _R) -> _Plan:
    su = r.suits3()
    return _Plan(r.fill([("chow", _t(su[i], 1 + 3 * i)) for i in range(3)]), r.tile())


def _tpl_mixed_triple_chow(r: _R) -> _Plan:
    n = r.rng.randint(1, 7)
    return _Plan(r.fill([("chow", _t(s, n)) for s in range(3)]), r.tile())


def _tpl_mixed_shifted_pungs(r: _R) -> _Plan:
    su, n = r.suits3(), r.rng.randint(1, 7)
    return _Plan(r.fill([("pung", _t(su[i], n + i)) for i in range(3)]), r.tile())


def _tpl_mixed_shifted_chows(r: _R) -> _Plan:
    su, n = r.suits3(), r.rng.randint(1, 5)
    return _Plan(r.fill([("chow", _t(su[i], n + i)) for i in range(3)]), r.tile())


def _tpl_pure_terminal_chows(r: _R) -> _Plan:
    s = r.suit()
    lo, hi = ("chow", _t(s, 1)), ("chow", _t(s, 7))
    return _Plan([lo, lo, hi, hi], _t(s, 5))


def _tpl_three_suited_terminal_chows(r: _R) -> _Plan:
    a, b, c = r.suits3()
    sets: list[Set] = [("chow", _t(a, 1)), ("chow", _t(a, 7)), ("chow", _t(b, 1))]
    sets.append(("chow", _t(b, 7)))
    return _Plan(sets, _t(c, 5))


def _tpl_triple_pung(r: _R) -> _Plan:
    n = r.rng.randint(1, 9)
    return _Plan(r.fill([("pung", _t(s, n)) for s in range(3)]), r.tile())


def _tpl_double_pung(r: _R) -> _Plan:
    n, su = r.rng.randint(1, 9), r.suits3()
    return _Plan(r.fill([("pung", _t(su[0], n)), ("pung", _t(su[1], n))]), r.tile())


def _tpl_two_terminal_chows(r: _R) -> _Plan:
    s = r.suit()
    return _Plan(r.fill([("chow", _t(s, 1)), ("chow", _t(s, 7))]), r.tile())


def _tpl_short_straight(r: _R) -> _Plan:
    s, n = r.suit(), r.rng.randint(1, 4)
    return _Plan(r.fill([("chow", _t(s, n)), ("chow", _t(s, n + 3))]), r.tile())


def _tpl_mixed_double_chow(r: _R) -> _Plan:
    su, n = r.suits3(), r.rng.randint(1, 7)
    return _Plan(r.fill([("chow", _t(su[0], n)), ("chow", _t(su[1], n))]), r.tile())


def _tpl_pure_double_chow(r: _R) -> _Plan:
    c = r.chow()
    return _Plan(r.fill([c, c]), r.tile())


def _tpl_tile_hog(r: _R) -> _Plan:
    """四归一: a pung and a chow (or the pair and two chows) sharing one kind."""
    c = r.chow()
    t = c[1] + r.rng.randrange(3)
    if r.rng.random() < 0.6:
        return _Plan(r.fill([("pung", t), c]), r.tile(), kong_mode="none")
    return _Plan(r.fill([c, ("chow", c[1])]), t)


def _tpl_all_types(r: _R) -> _Plan:
    sets: list[Set] = [r.any_set(_suit_pool(s)) for s in range(3)]
    wind, dragon = r.tile(WIND_TILES), r.tile(DRAGON_TILES)
    if r.rng.random() < 0.5:
        return _Plan([*sets, ("pung", wind)], dragon)
    return _Plan([*sets, ("pung", dragon)], wind)


def _tpl_kongs(r: _R) -> _Plan:
    n = r.rng.choice((2, 2, 3, 3, 4))
    sets: list[Set] = [r.pung() for _ in range(n)]
    return _Plan(r.fill(sets), r.tile(), kongs=n)


def _tpl_concealed_pungs(r: _R) -> _Plan:
    """三暗刻 / 四暗刻 / 双暗刻: pungs kept concealed (or concealed kongs)."""
    n = r.rng.choice((3, 4, 4))
    sets: list[Set] = [r.pung() for _ in range(n)]
    return _Plan(r.fill(sets), r.tile(), melds=r.rng.choice((0, 0, 0, 1, 2)), kong_mode="concealed")


def _tpl_melded_hand(r: _R) -> _Plan:
    """全求人: four exposed sets, won on a discard (the pair is a single wait)."""
    return _Plan(r.fill([]), r.tile(), melds=4, kong_mode="exposed", self_drawn=False)


def _tpl_chicken(r: _R) -> _Plan:
    """Few fans (无番和): simples in all three suits, an honor pair, declared sets."""
    sets: list[Set] = []
    for s in r.suits3() + [r.suit()]:
        if r.rng.random() < 0.7:
            sets.append(("chow", _t(s, r.rng.randint(2, 6))))
        else:
            sets.append(("pung", _t(s, r.rng.randint(2, 8))))
    return _Plan(
        sets,
        r.tile(HONOR_TILES),
        melds=r.rng.choice((1, 2, 3)),
        kong_mode="none",
        self_drawn=False,
    )


_STANDARD_TEMPLATES: dict[str, tuple[float, Callable[[_R], _Plan]]] = {
    "random": (30.0, _tpl_random),
    "all_pungs": (3.0, _tpl_all_pungs),
    "all_chows": (3.0, _tpl_all_chows),
    "full_flush": (3.0, _tpl_full_flush),
    "half_flush": (3.0, _tpl_half_flush),
    "all_honors": (1.5, _tpl_all_honors),
    "all_terminals": (1.5, _tpl_all_terminals),
    "terminals_honors": (1.5, _tpl_terminals_honors),
    "outside": (2.0, _tpl_outside),
    "all_fives": (1.5, _tpl_all_fives),
    "even_pungs": (1.5, _tpl_even_pungs),
    "green": (1.5, _tpl_green),
    "reversible": (1.5, _tpl_reversible),
    "upper_tiles": (1.5, _tpl_range(7, 9)),
    "middle_tiles": (1.5, _tpl_range(4, 6)),
    "lower_tiles": (1.5, _tpl_range(1, 3)),
    "upper_four": (1.5, _tpl_range(6, 9)),
    "lower_four": (1.5, _tpl_range(1, 4)),
    "big_four_winds": (1.0, _tpl_big_four_winds),
    "little_four_winds": (1.0, _tpl_little_four_winds),
    "three_winds": (1.5, _tpl_three_winds),
    "big_three_dragons": (1.0, _tpl_big_three_dragons),
    "little_three_dragons": (1.0, _tpl_little_three_dragons),
    "two_dragons": (1.5, _tpl_two_dragons),
    "honor_pungs": (3.0, _tpl_honor_pungs),
    "quadruple_chow": (1.0, _tpl_quadruple_chow),
    "pure_triple_chow": (1.5, _tpl_pure_triple_chow),
    "four_shifted_pungs": (1.0, _tpl_shifted_pungs(4)),
    "three_shifted_pungs": (1.5, _tpl_shifted_pungs(3)),
    "four_shifted_chows": (1.0, _tpl_shifted_chows(4)),
    "three_shifted_chows": (1.5, _tpl_shifted_chows(3)),
    "pure_straight": (1.5, _tpl_pure_straight),
    "mixed_straight": (1.5, _tpl_mixed_straight),
    "mixed_triple_chow": (1.5, _tpl_mixed_triple_chow),
    "mixed_shifted_pungs": (1.5, _tpl_mixed_shifted_pungs),
    "mixed_shifted_chows": (1.5, _tpl_mixed_shifted_chows),
    "pure_terminal_chows": (1.0, _tpl_pure_terminal_chows),
    "three_suited_terminal_chows": (1.0, _tpl_three_suited_terminal_chows),
    "triple_pung": (1.5, _tpl_triple_pung),
    "double_pung": (1.5, _tpl_double_pung),
    "two_terminal_chows": (1.5, _tpl_two_terminal_chows),
    "short_straight": (1.5, _tpl_short_straight),
    "mixed_double_chow": (1.5, _tpl_mixed_double_chow),
    "pure_double_chow": (1.5, _tpl_pure_double_chow),
    "tile_hog": (1.5, _tpl_tile_hog),
    "all_types": (1.5, _tpl_all_types),
    "kongs": (3.0, _tpl_kongs),
    "concealed_pungs": (2.5, _tpl_concealed_pungs),
    "melded_hand": (1.5, _tpl_melded_hand),
    "chicken": (4.0, _tpl_chicken),
}

_MELD_COUNT_WEIGHTS = (35, 22, 20, 13, 10)  # 0..4 declared sets
_CLAIM_FROM = ("left", "across", "right")


def _meld_dict(kind: str, t: int, rng: random.Random) -> dict[str, Any]:
    """kind: chi / pung / kong_exposed / kong_concealed."""
    if kind == "chi":
        tiles = [tile_str(x) for x in (t, t + 1, t + 2)]
        return {"type": "chi", "tiles": tiles, "exposed": True, "claimed_from": "left"}
    if kind == "pung":
        frm = rng.choice(_CLAIM_FROM)
        return {"type": "pung", "tiles": [tile_str(t)] * 3, "exposed": True, "claimed_from": frm}
    if kind == "kong_concealed":
        return {"type": "kong", "tiles": [tile_str(t)] * 4, "exposed": False, "claimed_from": None}
    frm = rng.choice(_CLAIM_FROM)
    d: dict[str, Any] = {"type": "kong", "tiles": [tile_str(t)] * 4, "exposed": True}
    d["claimed_from"] = frm
    if rng.random() < 0.3:
        d["added"] = True
    return d


def _kong_kind(mode: str, forced: bool, rng: random.Random) -> str:
    """What a declared pung becomes under `mode`; `forced`: it must be a kong."""
    if mode == "concealed":
        return "kong_concealed"
    if mode == "none":
        return "pung"
    if mode == "exposed":
        return "kong_exposed" if forced or rng.random() < 0.25 else "pung"
    if forced:
        return rng.choice(("kong_exposed", "kong_concealed"))
    x = rng.random()
    return "pung" if x < 0.65 else "kong_exposed" if x < 0.82 else "kong_concealed"


@dataclass
class _Built:
    """A hand before the win tile is picked: declared melds and the standing tiles
    (win tile included); `win`: the win tile if the template fixes it."""

    melds: list[dict[str, Any]]
    standing: list[int]
    self_drawn: bool | None = None
    win: int | None = None


def _standard(r: _R, plan: _Plan) -> _Built | None:
    """Meld the plan: (melds, standing tiles incl. the win tile, forced self_drawn) or None."""
    rng = r.rng
    sets = list(plan.sets)
    rng.shuffle(sets)
    pungs = [i for i, s in enumerate(sets) if s[0] == "pung"]
    kong_idx = set(rng.sample(pungs, min(plan.kongs, len(pungs))))
    candidates = pungs if plan.kong_mode == "concealed" else list(range(4))
    m = plan.melds
    if m is None:
        m = rng.choices(range(5), weights=_MELD_COUNT_WEIGHTS)[0]
    rest = [i for i in candidates if i not in kong_idx]
    rng.shuffle(rest)
    melded = kong_idx | set(rest[: max(0, m - len(kong_idx))])
    melds: list[dict[str, Any]] = []
    standing: list[int] = [plan.pair, plan.pair]
    counts = Counter(standing)
    for i, (kind, t) in enumerate(sets):
        tiles = _set_tiles((kind, t))
        if i not in melded:
            standing += tiles
            counts.update(tiles)
            continue
        if kind == "chow":
            melds.append(_meld_dict("chi", t, rng))
            counts.update(tiles)
            continue
        mk = _kong_kind(plan.kong_mode, i in kong_idx, rng)
        melds.append(_meld_dict(mk, t, rng))
        counts[t] += 4 if mk.startswith("kong") else 3
    if max(counts.values()) > 4:
        return None
    rng.shuffle(melds)
    return _Built(melds, standing, plan.self_drawn)


def _closed(tiles: list[int]) -> _Built | None:
    if max(Counter(tiles).values()) > 4:
        return None
    return _Built([], tiles)


def _seven_pairs(r: _R) -> _Built | None:
    rng = r.rng
    x = rng.random()
    if x < 0.2:  # 连七对
        s, n = r.suit(), rng.randint(1, 3)
        kinds = [_t(s, n + i) for i in range(7)]
    elif x < 0.35:
        kinds = rng.sample(_suit_pool(r.suit()), 7)
    elif x < 0.5:
        kinds = rng.sample(_suit_pool(r.suit()) + list(HONOR_TILES), 7)
    elif x < 0.6:
        kinds = rng.sample(ORPHAN_TILES, 7)
    else:
        kinds = rng.sample(range(34), 7)
    if rng.random() < 0.15:  # four of a kind as two pairs
        kinds[6] = kinds[0]
    return _closed([t for k in kinds for t in (k, k)])


def _thirteen_orphans(r: _R) -> _Built | None:
    return _closed([*ORPHAN_TILES, r.tile(ORPHAN_TILES)])


def _knit_pattern(r: _R) -> list[int]:
    su = r.suits3()
    return [_t(su[k], 1 + k + 3 * j) for k in range(3) for j in range(3)]


def _knitted(r: _R) -> _Built | None:
    """全不靠 (and 七星不靠 when both left-out tiles are suited): 14 of the 16 tiles."""
    pool = _knit_pattern(r) + list(HONOR_TILES)
    return _closed(r.rng.sample(pool, 14))


def _seven_honors(r: _R) -> _Built | None:
    return _closed(list(HONOR_TILES) + r.rng.sample(_knit_pattern(r), 7))


def _knitted_straight(r: _R) -> _Built | None:
    """组合龙 + one set + the pair; the set is declared half of the time."""
    rng = r.rng
    tiles = _knit_pattern(r)
    s = r.any_set()
    pair = r.tile()
    melds: list[dict[str, Any]] = []
    counts = Counter([*tiles, pair, pair])
    if rng.random() < 0.5:
        kind = "chi" if s[0] == "chow" else _kong_kind("any", False, rng)
        melds.append(_meld_dict(kind, s[1], rng))
        counts.update([s[1]] * 4 if kind.startswith("kong") else _set_tiles(s))
        standing = [*tiles, pair, pair]
    else:
        counts.update(_set_tiles(s))
        standing = [*tiles, pair, pair, *_set_tiles(s)]
    if max(counts.values()) > 4:
        return None
    return _Built(melds, standing)


def _nine_gates(r: _R) -> _Built | None:
    s = r.suit()
    base = [_t(s, n) for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    win = _t(s, r.rng.randint(1, 9))
    # mostly won on the ninth tile (九莲宝灯); else any tile of the same 14 wins
    return _Built([], [*base, win], win=win if r.rng.random() < 0.7 else None)


_Builder = Callable[[_R], "_Built | None"]


def _std_builder(tpl: Callable[[_R], _Plan]) -> _Builder:
    return lambda r: _standard(r, tpl(r))


TEMPLATES: dict[str, tuple[float, _Builder]] = {
    **{name: (w, _std_builder(tpl)) for name, (w, tpl) in _STANDARD_TEMPLATES.items()},
    "seven_pairs": (5.0, _seven_pairs),
    "thirteen_orphans": (1.0, _thirteen_orphans),
    "knitted": (1.5, _knitted),
    "seven_honors_knitted": (1.0, _seven_honors),
    "knitted_straight": (2.5, _knitted_straight),
    "nine_gates": (1.2, _nine_gates),
}
_NAMES = list(TEMPLATES)
_WEIGHTS = [TEMPLATES[n][0] for n in _NAMES]
_FLOWER_WEIGHTS = (50, 10, 10, 8, 7, 5, 4, 3, 3)  # 0..8 flowers
# Share of discard wins (not robbing a kong) flagged after_kong, i.e. 杠上炮: the
# spec's meaning of after_kong without self_drawn; MCR has no fan for it.
AFTER_KONG_ON_DISCARD_P = 0.03


def _flags(
    rng: random.Random,
    melds: list[dict[str, Any]],
    concealed: list[int],
    win: int,
    forced_self_drawn: bool | None,
) -> dict[str, Any]:
    """Consistent flags for a hand (see the module doc for the constraints)."""
    in_concealed = concealed.count(win)
    in_melds = sum(parse_tiles(m["tiles"]).count(win) for m in melds)
    has_kong = any(m["type"] == "kong" for m in melds)
    self_drawn = rng.random() < 0.45 if forced_self_drawn is None else forced_self_drawn
    after_kong = robbing = False
    if self_drawn:
        after_kong = has_kong and rng.random() < 0.35
    elif in_concealed + in_melds == 0 and rng.random() < 0.25:
        robbing = True
    elif rng.random() < AFTER_KONG_ON_DISCARD_P:
        after_kong = True  # 杠上炮: won on the discard after the discarder's kong; no MCR fan
    last_tile = not robbing and rng.random() < 0.1
    fourth = in_concealed == 0 and rng.random() < (0.5 if robbing else 0.2)
    return {
        "self_drawn": self_drawn,
        "after_kong": after_kong,
        "robbing_kong": robbing,
        "last_tile": last_tile,
        "fourth_tile": fourth,
        "seat_wind": rng.choice(_WINDS),
        "prevalent_wind": rng.choice(_WINDS),
        "flowers": rng.choices(range(9), weights=_FLOWER_WEIGHTS)[0],
    }


def generate_situation(rng: random.Random, template: str | None = None) -> dict[str, Any]:
    """One legal MCR situation (ruleset 'mcr'); `template` picks a template by name."""
    r = _R(rng)
    name = template or rng.choices(_NAMES, weights=_WEIGHTS)[0]
    build = TEMPLATES[name][1]
    for _ in range(1000):
        built = build(r)
        if built is not None:
            break
    else:  # pragma: no cover - every template succeeds far more often than that
        raise RuntimeError(f"template {name} keeps breaking the four-copies rule")
    melds, standing = built.melds, built.standing
    win_i = rng.randrange(len(standing)) if built.win is None else standing.index(built.win)
    win = standing[win_i]
    concealed = sorted(standing[:win_i] + standing[win_i + 1 :])
    sit: dict[str, Any] = {
        "id": name,
        "ruleset": "mcr",
        "concealed": [tile_str(t) for t in concealed],
        "melds": melds,
        "win_tile": tile_str(win),
    }
    sit.update(_flags(rng, melds, concealed, win, built.self_drawn))
    return sit


def generate_situations(n: int, seed: int) -> list[dict[str, Any]]:
    """`n` legal situations from random.Random(seed); ids 'gen-<seed>-<i>-<template>'."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        sit = generate_situation(rng)
        sit["id"] = f"gen-{seed}-{i:06d}-{sit['id']}"
        out.append(sit)
    return out


# ---------------------------------------------------------------------------
# comparing our result with the oracle


def compact(sit: dict[str, Any]) -> str:
    """A situation as one short JSON line: default-valued fields left out, tiles as '123m'."""

    def tiles(raw: Any) -> str:
        ts = sorted(parse_tiles(raw))
        out, i = "", 0
        while i < len(ts):
            suit = ts[i] // 9
            j = i
            while j < len(ts) and ts[j] // 9 == suit:
                j += 1
            out += "".join(str(t % 9 + 1) for t in ts[i:j]) + _SUIT_LETTERS[suit]
            i = j
        return out

    d: dict[str, Any] = {"id": sit.get("id"), "concealed": tiles(sit.get("concealed", []))}
    if sit.get("melds"):
        d["melds"] = [
            {k: (tiles(v) if k == "tiles" else v) for k, v in m.items()} for m in sit["melds"]
        ]
    d["win_tile"] = sit.get("win_tile")
    for k in ("self_drawn", "after_kong", "robbing_kong", "last_tile", "fourth_tile"):
        if sit.get(k):
            d[k] = True
    d["seat_wind"] = sit.get("seat_wind", "E")
    d["prevalent_wind"] = sit.get("prevalent_wind", "E")
    if sit.get("flowers"):
        d["flowers"] = sit["flowers"]
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def fans_str(fans: Iterable[Fan]) -> str:
    return " ".join(f"{zh}{p}" + (f"×{c}" if c != 1 else "") for zh, p, c in fans) or "(none)"


@dataclass
class Disagreement:
    sit: dict[str, Any]
    ours: list[Fan] | None  # None when our engine refused the hand
    oracle: list[Fan]
    problems: list[str]
    keys: list[str]  # what differs, for grouping: '+fan' ours only, '-fan' oracle only, ...

    def describe(self) -> str:
        ours = "ERROR" if self.ours is None else fans_str(self.ours)
        return (
            f"{compact(self.sit)}\n"
            f"    ours:   {ours}\n"
            f"    oracle: {fans_str(self.oracle)}\n"
            f"    " + "; ".join(self.problems)
        )


def our_fans(result: Mapping[str, Any]) -> list[Fan]:
    return sorted(
        ((f["name_zh"], f["points"], f["count"]) for f in result.get("fans", [])), key=_fan_order
    )


def compare(
    sit: dict[str, Any],
    result: Mapping[str, Any],
    oracle: list[Fan] | None = None,
    extra_ids: dict[int, str] | None = None,
) -> Disagreement | None:
    """Our `rules.score(sit, 'mcr')` result against the oracle; None when they agree.

    Checks: ok; the multiset of (name_zh, points, count); every id matches its
    name (standard numbers 1-81; other fans need an id >= 82 used for one name
    only, tracked in `extra_ids` across calls); total = sum(points * count)
    with flowers; win = (total without flowers >= 8).
    """
    if oracle is None:
        oracle = oracle_fans(sit)
    if not result.get("ok"):
        err = result.get("error", {})
        refused = f"ours refused it: {err.get('code')}: {err.get('message')}"
        return Disagreement(sit, None, oracle, [refused], ["error"])
    ours = our_fans(result)
    problems: list[str] = []
    keys: list[str] = []
    if ours != oracle:
        mine, theirs = Counter(ours), Counter(oracle)
        only_ours, only_oracle = mine - theirs, theirs - mine
        names_ours = {zh for zh, _, _ in only_ours}
        names_oracle = {zh for zh, _, _ in only_oracle}
        for zh in sorted(names_ours | names_oracle, key=lambda z: FAN_ID.get(z, 999)):
            if zh in names_ours and zh in names_oracle:
                keys.append(f"~{zh}")
            elif zh in names_ours:
                keys.append(f"+{zh}")
            else:
                keys.append(f"-{zh}")
        problems.append(
            f"fans differ: ours only {fans_str(sorted(only_ours.elements(), key=_fan_order))}; "
            f"oracle only {fans_str(sorted(only_oracle.elements(), key=_fan_order))}"
        )
    for f in result.get("fans", []):
        fid, zh = f.get("id"), f.get("name_zh")
        if zh in FAN_ID:
            if fid != FAN_ID[zh]:
                problems.append(f"id {fid!r} for {zh} (standard number {FAN_ID[zh]})")
                keys.append("id")
        elif not isinstance(fid, int) or fid < 82:
            problems.append(f"non-standard fan {zh} has id {fid!r} (want >= 82)")
            keys.append("id")
        elif extra_ids is not None and extra_ids.setdefault(fid, zh) != zh:
            problems.append(f"id {fid} names both {extra_ids[fid]} and {zh}")
            keys.append("id")
    total = fans_total(oracle)
    if result.get("total") != total:
        problems.append(f"total {result.get('total')!r}, oracle {total}")
        keys.append("total")
    want_win = total - flower_points(oracle) >= 8
    if result.get("win") is not want_win:
        problems.append(f"win {result.get('win')!r}, oracle total without flowers {total}")
        keys.append("win")
    if not problems:
        return None
    return Disagreement(sit, ours, oracle, problems, keys)


def summarize(disagreements: Sequence[Disagreement], n: int, show: int = 20) -> str:
    """A readable report: counts by fan, then the first `show` cases."""
    by_key: Counter[str] = Counter()
    for d in disagreements:
        by_key.update(set(d.keys))
    lines = [f"{len(disagreements)} of {n} situations disagree with PyMahjongGB."]
    lines.append("By fan (+ ours only, - oracle only, ~ both with other points/count):")
    for key, c in by_key.most_common():
        lines.append(f"  {key}: {c}")
    lines.append(f"First {min(show, len(disagreements))}:")
    for d in disagreements[:show]:
        lines.append("  " + d.describe())
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Where the oracle contradicts the rulebook (docs/rules/mcr.md, "Waits")

WAIT_FANS = ("独听・边张", "独听・嵌张", "独听・单钓")


def _sets_and_pair(c: list[int], pair: bool = True) -> bool:
    """Plain check that also takes a fifth copy (what the oracle does)."""
    i = next((j for j, n in enumerate(c) if n), None)
    if i is None:
        return not pair
    if pair and c[i] >= 2:
        c[i] -= 2
        ok = _sets_and_pair(c, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_and_pair(c, pair)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 < 7 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _sets_and_pair(c, pair)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        return ok
    return False


def phantom_wait(sit: dict[str, Any]) -> bool:
    """The hand 'waits' on a kind whose four copies it already holds.

    The rulebook judges 边张/嵌张/单钓将 from the hand's real waits: a fifth copy
    cannot be drawn, so it does not widen the wait.  PyMahjongGB counts it and
    then gives no wait fan.  True when that is the only reason the two differ.
    """
    from rules.hand import parse_situation

    hand = parse_situation(sit)
    assert hand.win_tile is not None
    before = list(hand.counts)
    before[hand.win_tile] -= 1
    raw = set()
    for t in range(34):
        c = list(before)
        c[t] += 1
        seven = not hand.melds and all(n % 2 == 0 for n in c)
        if seven or _sets_and_pair(c):
            raw.add(t)
    held = [before[t] + hand.meld_counts[t] for t in range(34)]
    real = {t for t in raw if held[t] < 4}
    return len(raw) > 1 and len(real) == 1


def documented_divergence(d: Disagreement) -> bool:
    """Ours differs from the oracle by exactly one wait fan, for the phantom-wait reason."""
    if d.ours is None:
        return False
    mine, theirs = Counter(d.ours), Counter(d.oracle)
    only_ours, only_oracle = mine - theirs, theirs - mine
    if only_oracle or sum(only_ours.values()) != 1:
        return False
    ((zh, _pts, _cnt),) = only_ours
    return zh in WAIT_FANS and phantom_wait(d.sit)
