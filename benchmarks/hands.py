"""Reproducible hand generators shared by the benchmarks."""

from __future__ import annotations

import random

SETS = [("pung", t) for t in range(34)] + [("chow", s * 9 + i) for s in range(3) for i in range(7)]


def winning_tiles(rng: random.Random, n_sets: int = 4) -> list[int]:
    """A random standard winning hand (sets + pair), at most 4 of a kind."""
    while True:
        counts = [0] * 34
        tiles: list[int] = []
        ok = True
        for _ in range(n_sets):
            kind, t = rng.choice(SETS)
            part = [t] * 3 if kind == "pung" else [t, t + 1, t + 2]
            for x in part:
                counts[x] += 1
            tiles += part
        p = rng.randrange(34)
        counts[p] += 2
        tiles += [p, p]
        ok = max(counts) <= 4
        if ok:
            return tiles


def random_tiles(rng: random.Random, n: int = 14) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    return rng.sample(wall, n)


def with_wilds(rng: random.Random, tiles: list[int], k: int) -> tuple[bytes, int, int]:
    """Turn k of the tiles into wild tiles of a kind the hand lacks.

    Returns (natural counts, wild count, wild kind).
    """
    absent = [t for t in range(34) if t not in tiles]
    wild_kind = rng.choice(absent)
    idx = set(rng.sample(range(len(tiles)), k))
    counts = [0] * 34
    for i, t in enumerate(tiles):
        if i not in idx:
            counts[t] += 1
    return bytes(counts), k, wild_kind
