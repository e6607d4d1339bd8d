"""Random situations as the engine's contract spells them, for the readers' fuzzing."""

from __future__ import annotations

import random
from typing import Any

from rules.tiles import tile_str

MELDS = [
    {"type": "pung", "tiles": "666z"},
    {"type": "chi", "tiles": ["3m", "2m", "4m"], "claimed_from": "left"},
    {"type": "kong", "tiles": "1111p", "exposed": False},
    {"type": "kong", "tiles": "9999s", "added": True, "claimed_from": "right"},
    {"type": "chi", "tiles": "124m"},
    {"type": "pung", "tiles": "666z", "exposed": "yes"},
    "not a meld",
]
SUITS = "mpsz"


def situation(rng: random.Random, need_win_tile: bool) -> dict[str, Any]:
    n_melds = rng.choice([0, 0, 0, 1, 2, 4])
    melds = [rng.choice(MELDS[:4] if rng.random() < 0.9 else MELDS) for _ in range(n_melds)]
    n = 14 - 3 * n_melds - (0 if need_win_tile else 1) + rng.choice([0, 0, 0, 0, 0, 0, -1, 1])
    tiles = hand_tiles(rng, max(n, 1))
    sit: dict[str, Any] = {"ruleset": "generic"}
    if need_win_tile or rng.random() < 0.2:
        win = tiles.pop()
        sit["win_tile"] = rng.choice(
            [tile_str(win)] * 8 + [tile_str(win).upper(), None, "", 5, "9z", "1f", "五万"]
        )
    sit["concealed"] = spell(tiles, rng) if tiles else rng.choice(["", []])
    if melds or rng.random() < 0.1:
        sit["melds"] = melds if rng.random() < 0.95 else {"type": "pung"}
    k = rng.random()
    if k < 0.5:
        kinds = rng.sample(range(34), rng.choice([1, 1, 2]))
        sit["wild"] = rng.choice(
            [[tile_str(t) for t in kinds], tile_str(kinds[0]), [tile_str(kinds[0]).upper()]]
        )
    elif k < 0.55:
        sit["wild"] = rng.choice([["1f"], [5], "q", "5z5z", [None], [["5z"]], 0, ""])
    for flag in ("self_drawn", "after_kong", "last_tile"):
        if rng.random() < 0.15:
            sit[flag] = rng.choice([True, False, None, 1, "yes"])
    if rng.random() < 0.2:
        sit["seat_wind"] = rng.choice(["S", "w", "南", "X", 3])
    if rng.random() < 0.1:
        sit["flowers"] = rng.choice([0, 3, 9, 1.0, None])
    if rng.random() < 0.1:
        sit["table"] = rng.choice(
            [{"players": 4, "dealer": 0, "winner": 0, "discarder": 2}, {"players": 5}]
        )
    if rng.random() < 0.05:
        sit["house_note"] = "extra"
    return sit


def spell(tiles: list[int], rng: random.Random) -> Any:
    """The tiles in one of the spellings the format takes (and some it refuses)."""
    codes = [tile_str(t) for t in tiles]
    way = rng.randrange(9)
    if way == 0:
        return codes
    if way == 1:
        return [c.upper() if rng.random() < 0.3 else c for c in codes]
    if way == 2:  # one tile at a time: "1m2m3m"
        return "".join(codes)
    if way == 3:  # grouped by suit, in tile order: "123m45p"
        out = []
        for s in SUITS + "f":
            ds = "".join(c[0] for c in sorted(codes) if c[1] == s)
            if ds:
                out.append(ds + s)
        return "".join(out)
    if way == 4:  # shuffled segments, a suit more than once
        rng.shuffle(codes)
        return "".join(codes)
    if way == 5:
        return " ".join(codes) if rng.random() < 0.5 else ",".join(codes)
    if way == 6:
        return "".join(codes).upper()
    if way == 7:  # a broken spelling
        s = "".join(codes)
        i = rng.randrange(len(s) + 1)
        return s[:i] + rng.choice(["0", "9z", "8z", "x", "5", " ", "一万", "?", "1f"]) + s[i:]
    return [*codes[:-1], rng.choice([5, None, "5q", "1f", ["5m"], "5M", "东"])]


def hand_tiles(rng: random.Random, n: int) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    tiles = rng.sample(wall, n)
    if n >= 6 and rng.random() < 0.1:
        tiles[:5] = [tiles[5]] * 5  # five copies
    if rng.random() < 0.05:
        tiles[0] = 34 + rng.randrange(8)  # a flower
    return tiles
