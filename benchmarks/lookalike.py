"""python -m benchmarks.lookalike: what the look-alike check (scorer/clean/lookalike.py) costs
a start or a rename, as a room's registry grows.

Player.looking_like reads the room's names and compares skeletons; the skeletons of
names already seen are cached (8,192), so a room's check costs one skeleton per name
the first time after a restart ("cold") and a cache hit after ("warm").  Measured on
made-up names (two Chinese characters and a digit, "Bob"-like Latin ones) for rooms of
100, 1,000 and 5,000 names, beside the text cleaner on the same new name in the same
process.  Also the first load of the confusables file.  Medians; prints, never asserts.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")

from scorer.clean import lookalike, text  # noqa: E402  (the settings first: the cleaner's words)

ROUNDS = 9


def _names(rng: random.Random, n: int) -> list[str]:
    cjk = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    latin = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        if i % 3:
            out.append("".join(rng.choice(cjk) for _ in range(2)) + str(i % 10))
        else:
            out.append(rng.choice(latin).upper() + "".join(rng.choice(latin) for _ in range(4)))
    return out


def _check(name: str, room: list[str]) -> bool:
    """Player.looking_like's loop, without the database."""
    return any(lookalike.looks_like(name, known) for known in room)


def _ms(fn: Callable[..., object], *args: object) -> float:
    t0 = time.perf_counter_ns()
    fn(*args)
    return (time.perf_counter_ns() - t0) / 1e6


def main() -> None:
    t0 = time.perf_counter_ns()
    lookalike.prototypes()
    print(f"confusables file loaded: {(time.perf_counter_ns() - t0) / 1e6:.1f} ms (once)")
    rng = random.Random(7)
    print("\nnames | cold check ms | warm check ms | clean_text ms (same name)")
    for n in (100, 1000, 5000):
        room = _names(rng, n)
        cold, warm, clean = [], [], []
        for _ in range(ROUNDS):
            lookalike.skeleton.cache_clear()
            new = "新" + str(rng.randrange(10**6))
            cold.append(_ms(_check, new, room))
            warm.append(_ms(_check, new + "x", room))
            clean.append(_ms(text.clean_text, text.PLAYER_NAME, new))
        print(
            f"{n:5} | {statistics.median(cold):13.2f} | {statistics.median(warm):13.2f}"
            f" | {statistics.median(clean):.4f}"
        )


if __name__ == "__main__":
    main()
