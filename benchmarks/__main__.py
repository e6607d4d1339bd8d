"""python -m benchmarks [--quick]: the engine's speed, side by side with peers in one process.

Figures are medians over repeated rounds of the same hands; each round's
figure is (round time / number of hands), which keeps the timer's own cost
out of sub-microsecond numbers.  Peers run on the same hands, interleaved
round by round, so a noisy shared machine slows both alike.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.hands import random_tiles, winning_tiles, with_wilds
from rules import shapes
from rules.decompose import Forms, is_win_counts, waits_counts

ROUNDS = 15


def per_item_us(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
    t0 = time.perf_counter_ns()
    for it in items:
        fn(it)
    return (time.perf_counter_ns() - t0) / len(items) / 1000


def race(
    entries: dict[str, tuple[Callable[[Any], object], Sequence[Any]]], rounds: int
) -> dict[str, float]:
    """Median per-item µs of each entry, the entries interleaved round by round."""
    samples: dict[str, list[float]] = {k: [] for k in entries}
    for fn, items in entries.values():  # warm the lazy per-suit tables once
        for it in items:
            fn(it)
    for _ in range(rounds):
        for name, (fn, items) in entries.items():
            samples[name].append(per_item_us(fn, items))
    return {k: statistics.median(v) for k, v in samples.items()}


def mahjong_peer() -> Any:
    try:
        from mahjong.agari import Agari
    except ImportError:
        return None
    return Agari()


def bench_win(rng: random.Random, n: int, rounds: int) -> None:
    print("\n## Win check, 14 tiles (half winning shapes, half random), µs per hand, median")
    agari = mahjong_peer()
    forms = Forms()
    for k in range(5):
        hands = []
        for i in range(n):
            tiles = winning_tiles(rng) if i % 2 == 0 else random_tiles(rng)
            hands.append(with_wilds(rng, tiles, k)[:2])
        entries: dict[str, tuple[Callable[[Any], object], Sequence[Any]]] = {
            "rules.is_standard_win": (lambda h: shapes.is_standard_win(h[0], h[1]), hands),
            "rules standard+7 pairs": (lambda h: is_win_counts(h[0], h[1], 0, forms), hands),
        }
        if k == 0 and agari is not None:
            lists = [list(h[0]) for h in hands]
            entries["mahjong Agari.is_agari"] = (agari.is_agari, lists)
        res = race(entries, rounds)
        wins = sum(shapes.is_standard_win(*h) for h in hands)
        line = ", ".join(f"{name} {us:.2f}" for name, us in res.items())
        ratio = ""
        if "mahjong Agari.is_agari" in res:
            ratio = f"  (mahjong / ours = {res['mahjong Agari.is_agari'] / res['rules standard+7 pairs']:.1f}x)"
        print(f"- {k} wild: {line}{ratio}   [{wins}/{len(hands)} win]")


def bench_waits(rng: random.Random, n: int, rounds: int) -> None:
    print("\n## Waits of a 13-tile hand (tenpai and random mixed), µs per hand, median")
    agari = mahjong_peer()
    forms = Forms()
    for k in range(5):
        items = []
        for i in range(n):
            tiles = winning_tiles(rng) if i % 2 == 0 else random_tiles(rng)
            del tiles[rng.randrange(14)]
            counts, w, wild_kind = with_wilds(rng, tiles, k)
            held = bytearray(counts)
            held[wild_kind] += w
            items.append((counts, w, bytes(held), frozenset([wild_kind]) if k else frozenset()))
        entries: dict[str, tuple[Callable[[Any], object], Sequence[Any]]] = {
            "rules waits (std + 7 pairs)": (
                lambda h: waits_counts(h[0], h[1], h[2], h[3], 0, forms),
                items,
            ),
        }
        if k == 0 and agari is not None:

            def peer(h: Any) -> list[int]:
                c = list(h[0])
                out = []
                for t in range(34):
                    if c[t] < 4:
                        c[t] += 1
                        if agari.is_agari(c):
                            out.append(t)
                        c[t] -= 1
                return out

            entries["mahjong 34 x is_agari"] = (peer, items)
        res = race(entries, rounds)
        tenpai = sum(bool(waits_counts(h[0], h[1], h[2], h[3], 0, forms)) for h in items)
        line = ", ".join(f"{name} {us:.2f}" for name, us in res.items())
        ratio = ""
        if "mahjong 34 x is_agari" in res:
            ratio = f"  (mahjong / ours = {res['mahjong 34 x is_agari'] / res['rules waits (std + 7 pairs)']:.1f}x)"
        print(f"- {k} wild: {line}{ratio}   [{tenpai}/{len(items)} tenpai]")


def per_hand_median_us(
    fn: Callable[[Any], object], items: Sequence[Any], repeats: int
) -> list[float]:
    """Each item's own median time over `repeats` calls, in µs (for calls well above 1 µs)."""
    out = []
    clock = time.perf_counter_ns
    for it in items:
        fn(it)  # warm
        runs = []
        for _ in range(repeats):
            t0 = clock()
            fn(it)
            runs.append(clock() - t0)
        out.append(statistics.median(runs) / 1000)
    return out


def bench_decompositions(rng: random.Random, n: int, rounds: int) -> None:
    print("\n## All standard decompositions of a winning hand, µs per hand")
    print(
        "(per-hand median over repeats, then the median and 90th percentile over hands; mean for scale)"
    )
    for k in range(5):
        hands = [with_wilds(rng, winning_tiles(rng), k)[:2] for _ in range(n)]
        times = sorted(
            per_hand_median_us(lambda h: shapes.standard_decompositions(h[0], h[1]), hands, rounds)
        )
        sizes = sorted(len(shapes.standard_decompositions(*h)) for h in hands)
        print(
            f"- {k} wild: median {statistics.median(times):.2f}, p90 {times[int(0.9 * len(times))]:.2f}, "
            f"mean {statistics.fmean(times):.2f}   "
            f"[decompositions per hand: median {statistics.median(sizes):g}, max {sizes[-1]}]"
        )


def bench_mcr(n: int, rounds: int) -> None:
    """国标 scoring, end to end through rules.score, beside PyMahjongGB (C++) on the same hands."""
    print("\n## MCR: score() vs PyMahjongGB on the same generated situations, µs per hand")
    try:
        from tests.rules import mcr_oracle as mo
    except ImportError as e:  # the oracle is a test-only dependency
        print(f"- skipped: {e}")
        return
    from rules import score

    sits = mo.generate_situations(n, 11)
    args = [mo.oracle_args(s) for s in sits]
    calc = mo.MahjongGB.MahjongFanCalculator

    def ours(s: dict[str, Any]) -> object:
        return score(s, "mcr")

    def oracle(a: tuple[Any, ...]) -> object:
        return calc(*a, verbose=True)

    # Per-hand medians over `rounds` calls each, the two interleaved hand by hand.
    mine: list[float] = []
    theirs: list[float] = []
    clock = time.perf_counter_ns
    for s, a in zip(sits, args, strict=True):
        ours(s)
        oracle(a)
        r1, r2 = [], []
        for _ in range(rounds):
            t0 = clock()
            ours(s)
            t1 = clock()
            oracle(a)
            t2 = clock()
            r1.append(t1 - t0)
            r2.append(t2 - t1)
        mine.append(statistics.median(r1) / 1000)
        theirs.append(statistics.median(r2) / 1000)
    m1, m2 = statistics.median(mine), statistics.median(theirs)
    p90 = sorted(mine)[int(0.9 * len(mine))]
    print(
        f"- rules.score(mcr): median {m1:.1f} (p90 {p90:.1f}); PyMahjongGB: median {m2:.1f}; ratio {m1 / m2:.1f}x"
    )
    print(
        "  (ours includes parsing the situation dict, notes in two languages and the result dict)"
    )


def bench_cold(rng: random.Random, n: int) -> None:
    print("\n## Per-suit tables: win checks with the look-up caches emptied")
    shapes._NEED.clear()
    shapes._ADD.clear()
    hands = [with_wilds(rng, random_tiles(rng), rng.randrange(5))[:2] for _ in range(n)]
    t0 = time.perf_counter()
    for h in hands:
        shapes.is_standard_win(*h)
    dt = time.perf_counter() - t0
    # Every pattern is read from the shipped file (rules/data), so "cold" costs a
    # look-up in it, not a solve (about 0.5 ms a pattern).
    print(
        f"- {n} random hands from cold: {dt * 1000:.1f} ms, {len(shapes._NEED)} suit patterns "
        f"read from the shipped tables ({dt / max(len(shapes._NEED), 1) * 1e6:.1f} µs per pattern)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks")
    ap.add_argument("--quick", action="store_true", help="fewer hands and rounds (a smoke run)")
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args(argv)
    n = 200 if args.quick else args.hands
    rounds = 3 if args.quick else ROUNDS
    print(
        f"# rules engine benchmarks ({n} hands per row, {rounds} rounds; Python {sys.version.split()[0]})"
    )
    bench_cold(random.Random(7), n)
    bench_win(random.Random(1), n, rounds)
    bench_waits(random.Random(2), n, rounds)
    bench_decompositions(random.Random(3), n, rounds)
    bench_mcr(n, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
