"""python -m benchmarks.newhands [--quick]: the first sight of a hand against the repeated one.

A tile tap on the picker is a hand the process has never seen, so the figures
that matter are those of new hands; the engine's caches make a repeated hand
cheaper, and `python -m benchmarks` times mostly that.  Here every row is
timed both ways, through the public API (`rules.score` / `rules.waits`: the
situation dict in, the result dict out) and internally (counts in), beside a
peer on the same hands in the same process:

* new: each hand's first call, timed on its own, interleaved hand by hand with
  the peer; the median over hands (p90 where it tells something);
* repeated: the same hands again, each the median of 5 calls.

Before the new hands the process serves 2,000 other random hands (win checks
and waits, internally and through the API), as a worker that has run for a
while would; `--fresh` reports the
first hands of a brand-new process separately, beside a warm one's.

Peers: the `mahjong` package (`Agari.is_agari`, no wild tiles) for the win
check and the waits (34 checks), PyMahjongGB (C++) for MCR.  Decompositions
have no peer; their row gives the worst hands too (time and tracemalloc peak).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from benchmarks.hands import random_tiles, winning_tiles
from rules import is_win, score, waits
from rules.decompose import Forms, decompositions_counts, is_win_counts, waits_counts
from rules.tiles import tile_str

clock = time.perf_counter_ns
FORMS = Forms()


def agari() -> Any:
    from mahjong.agari import Agari

    return Agari()


class Item:
    """One hand: the situation for the API, the counts for the internal call."""

    def __init__(self, tiles: list[int], wild_kind: int, n_wild: int, win: bool) -> None:
        phys = list(tiles)
        # n_wild of the tiles become the wild kind (absent from the hand otherwise)
        for i in range(n_wild):
            phys[i] = wild_kind
        self.key = (tuple(sorted(phys)), wild_kind if n_wild else -1)
        counts = bytearray(34)
        for t in phys:
            if not (n_wild and t == wild_kind):
                counts[t] += 1
        self.counts = bytes(counts)
        self.wilds = n_wild
        held = bytearray(counts)
        held[wild_kind] += n_wild
        self.held = bytes(held)
        self.wild_kinds = frozenset([wild_kind]) if n_wild else frozenset()
        strs = [tile_str(t) for t in phys]
        sit: dict[str, Any] = {
            "ruleset": "generic",
            "wild": [tile_str(wild_kind)] if n_wild else [],
        }
        if win:
            sit["win_tile"] = strs[-1]
            strs = strs[:-1]
        sit["concealed"] = "".join(sorted(strs, key=lambda s: (s[-1], s[0])))
        self.sit = sit


def make_items(rng: random.Random, n: int, k: int, size: int, seen: set[Any]) -> list[Item]:
    """n distinct hands (never built before in this process) with k wild tiles."""
    out: list[Item] = []
    while len(out) < n:
        tiles = winning_tiles(rng) if len(out) % 2 == 0 else random_tiles(rng)
        if size == 13:
            del tiles[rng.randrange(14)]
        rng.shuffle(tiles)
        wild_kind = rng.choice([t for t in range(34) if t not in tiles])
        it = Item(tiles, wild_kind, k, size == 14)
        if it.key in seen:
            continue
        seen.add(it.key)
        out.append(it)
    return out


BLOCK = 200  # hands a row times back to back before the next row takes its turn


def first_and_repeat(
    fns: dict[str, Callable[[Any], object]],
    items: Sequence[Any],
    pick: dict[str, Callable[[Any], Any]],
    own: Mapping[str, Sequence[Any]] | None = None,
    fresh: Mapping[str, Sequence[Any]] | None = None,
) -> dict[str, tuple[list[float], list[float], list[float]]]:
    """Per entry: the first call of each hand (µs), the median of 5 repeated
    calls, and (with `fresh`) the first call of other new hands back to back.

    Entries are interleaved hand by hand.  An entry listed in `own` runs on hands
    of its own (as many), so that one entry's first call does not warm the
    caches another's reads; a stateless peer shares the first entry's hands.

    Interleaved hand by hand, each first call follows the other rows' work, so
    it also pays for the processor's caches that work emptied (the code, the
    tables): a request amid other requests.  `fresh` gives each entry further
    hands never seen, timed in blocks of BLOCK back to back (the rows taking
    turns block by block, so that a load on the machine falls on all alike):
    still each hand's first sight by the engine, with its code warm, as in a
    run of taps on one table.
    """
    own = own or {}
    first: dict[str, list[float]] = {k: [] for k in fns}
    again: dict[str, list[float]] = {k: [] for k in fns}
    b2b: dict[str, list[float]] = {k: [] for k in fns}
    if fresh:
        size = min(len(v) for v in fresh.values())
        for start in range(0, size, BLOCK):
            for name, fn in fns.items():
                for it in fresh[name][start : start + BLOCK]:
                    arg = pick[name](it)
                    t0 = clock()
                    fn(arg)
                    b2b[name].append((clock() - t0) / 1000)
    for i, it in enumerate(items):
        for name, fn in fns.items():
            arg = pick[name](own[name][i] if name in own else it)
            t0 = clock()
            fn(arg)
            first[name].append((clock() - t0) / 1000)
    for i, it in enumerate(items):
        for name, fn in fns.items():
            arg = pick[name](own[name][i] if name in own else it)
            runs = []
            for _ in range(5):
                t0 = clock()
                fn(arg)
                runs.append(clock() - t0)
            again[name].append(statistics.median(runs) / 1000)
    return {k: (first[k], again[k], b2b[k]) for k in fns}


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * len(xs))]


def warm_up(rng: random.Random, seen: set[Any]) -> None:
    """2,000 other hands served, internally and through the API (as a worker's
    requests would have filled the parsing caches too)."""
    for k in range(5):
        for it in make_items(rng, 200, k, 14, seen):
            is_win_counts(it.counts, it.wilds, 0, FORMS)
            score(it.sit)
        for it in make_items(rng, 200, k, 13, seen):
            waits_counts(it.counts, it.wilds, it.held, it.wild_kinds, 0, FORMS)
            waits(it.sit)


def report(
    title: str, res: dict[str, tuple[list[float], list[float], list[float]]], peer: str | None
) -> None:
    print(f"- {title}")
    for name, (new, rep, b2b) in res.items():
        ratio = ""
        if peer and name != peer and peer in res:
            ratio = f"; ratio to {peer}: new {med(new) / med(res[peer][0]):.1f}x, repeated {med(rep) / med(res[peer][1]):.1f}x"
            if b2b and res[peer][2]:
                ratio += f", new back to back {med(b2b) / med(res[peer][2]):.1f}x"
        back = f"new back to back {med(b2b):.2f} (p90 {p90(b2b):.1f}), " if b2b else ""
        print(
            f"    {name}: {back}new interleaved {med(new):.2f} (p90 {p90(new):.1f}), "
            f"repeated {med(rep):.2f}{ratio}"
        )


def bench_win(rng: random.Random, n: int, seen: set[Any]) -> None:
    print("\n## Win check, 14 tiles (half winning shapes, half random), µs per hand, median")
    ag = agari()
    for k in range(5):
        items = make_items(rng, n, k, 14, seen)
        fns: dict[str, Callable[[Any], object]] = {
            "API score(generic)": score,
            "API is_win(generic)": is_win,
            "internal is_win_counts": lambda h: is_win_counts(h[0], h[1], 0, FORMS),
        }
        pick: dict[str, Callable[[Any], Any]] = {
            "API score(generic)": lambda it: it.sit,
            "API is_win(generic)": lambda it: it.sit,
            "internal is_win_counts": lambda it: (it.counts, it.wilds),
        }
        if k == 0:
            fns["mahjong is_agari"] = ag.is_agari
            pick["mahjong is_agari"] = lambda it: list(it.counts)
        own = {
            "API is_win(generic)": make_items(rng, n, k, 14, seen),
            "internal is_win_counts": make_items(rng, n, k, 14, seen),
        }
        fresh = {name: make_items(rng, n, k, 14, seen) for name in fns}
        res = first_and_repeat(fns, items, pick, own, fresh)
        report(f"{k} wild", res, "mahjong is_agari" if k == 0 else None)


def bench_waits(rng: random.Random, n: int, seen: set[Any]) -> None:
    print(
        "\n## Waits of a 13-tile hand (half one short of a win, half random), µs per hand, median"
    )
    ag = agari()

    def peer(c0: bytes) -> list[int]:
        c = list(c0)
        out = []
        for t in range(34):
            if c[t] < 4:
                c[t] += 1
                if ag.is_agari(c):
                    out.append(t)
                c[t] -= 1
        return out

    for k in range(5):
        items = make_items(rng, n, k, 13, seen)
        fns: dict[str, Callable[[Any], object]] = {
            "API waits(generic)": waits,
            "internal waits_counts": lambda it: waits_counts(
                it.counts, it.wilds, it.held, it.wild_kinds, 0, FORMS
            ),
        }
        pick: dict[str, Callable[[Any], Any]] = {
            "API waits(generic)": lambda it: it.sit,
            "internal waits_counts": lambda it: it,
        }
        if k == 0:
            fns["mahjong 34 x is_agari"] = peer
            pick["mahjong 34 x is_agari"] = lambda it: it.counts
        own = {"internal waits_counts": make_items(rng, n, k, 13, seen)}
        fresh = {name: make_items(rng, n, k, 13, seen) for name in fns}
        res = first_and_repeat(fns, items, pick, own, fresh)
        report(f"{k} wild", res, "mahjong 34 x is_agari" if k == 0 else None)


def bench_decompositions(rng: random.Random, n: int, seen: set[Any]) -> None:
    print("\n## Decompositions of a winning hand, µs per hand (new: first call)")

    def winners(k: int) -> list[Item]:
        out: list[Item] = []
        while len(out) < n:
            for it in make_items(rng, n, k, 14, seen):
                if is_win_counts(it.counts, it.wilds, 0, FORMS):
                    out.append(it)
        return out[:n]

    for k in range(5):
        items = winners(k)
        fns: dict[str, Callable[[Any], object]] = {
            "API score(generic), listing 50 + count": score,
            "internal decompositions_counts": lambda it: decompositions_counts(
                it.counts, it.wilds, 0, FORMS
            ),
        }
        pick: dict[str, Callable[[Any], Any]] = {
            "API score(generic), listing 50 + count": lambda it: it.sit,
            "internal decompositions_counts": lambda it: it,
        }
        own = {"internal decompositions_counts": winners(k)}
        report(f"{k} wild", first_and_repeat(fns, items, pick, own), None)


WORST = [
    # (what, concealed, win tile, wild kinds): many wild tiles of several kinds
    ("8 wild, 2 kinds", "1m1m1m1m2m2m2m2m5p6p7p9s9s", "3z", ["1m", "2m"]),
    ("8 wild + 123m", "1z1z1z1z2z2z2z2z1m2m3m5p6p", "7p", ["1z", "2z"]),
    ("11 wild, 3 kinds", "1z1z1z1z2z2z2z2z3z3z3z5p5p", "5p", ["1z", "2z", "3z"]),
    ("13 wild, 4 kinds", "1z1z1z1z2z2z2z2z3z3z3z3z4z", "5p", ["1z", "2z", "3z", "4z"]),
    ("14 wild, 4 kinds", "1z1z1z1z2z2z2z2z3z3z3z3z4z", "4z", ["1z", "2z", "3z", "4z"]),
]


def bench_worst(rows: int) -> None:
    print("\n## Worst shapes through score(generic) and waits(generic): time and tracemalloc peak")
    from rules import decompose, shapes

    def forget() -> None:
        """The hand's first sight again (the getattr()s let the script time an older checkout too)."""
        getattr(decompose.decompositions_counts, "cache_clear", lambda: None)()
        getattr(decompose, "_DEC", {}).clear()
        getattr(shapes, "_COUNT", {}).clear()

    for what, conc, win, wild in WORST[:rows]:
        sit = {"ruleset": "generic", "concealed": conc, "win_tile": win, "wild": wild}
        forget()
        t0 = time.perf_counter()
        r: Mapping[str, Any] = score(sit)
        dt = time.perf_counter() - t0
        forget()
        tracemalloc.start()  # again, for the peak (tracemalloc slows it)
        score(sit)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        t0 = time.perf_counter()
        w: Mapping[str, Any] = waits({**sit, "win_tile": None})
        dtw = time.perf_counter() - t0
        cnt = r.get("decomposition_count", r.get("error", {}).get("code"))
        print(
            f"- {what}: score {dt * 1000:.1f} ms, peak {peak / 1e6:.1f} MB, count {cnt}; "
            f"waits {dtw * 1000:.2f} ms ({len(w.get('waits', []))} kinds)"
        )


def bench_mcr(n: int) -> None:
    print("\n## MCR: new hand shapes vs repeated, beside PyMahjongGB on the same hands, µs")
    from rules.hand import parse_situation
    from rules.registry import get_ruleset
    from tests.rules import mcr_oracle as mo

    rs = get_ruleset("mcr")
    params = rs.resolve_params(None)
    for s in mo.generate_situations(2000, 5):  # a worker that has served a while
        score(s, "mcr")
    keys: set[tuple[str, str, str]] = set()

    def new_shapes(seed: int) -> list[dict[str, Any]]:
        """n situations whose shape (tiles, melds, win tile) no other row has met."""
        out = []
        for s in mo.generate_situations(3 * n, seed):
            key = (str(s.get("concealed")), str(s.get("melds")), str(s.get("win_tile")))
            if key not in keys:
                keys.add(key)
                out.append(s)
        return out[:n]

    sits = new_shapes(11)
    calc = mo.MahjongGB.MahjongFanCalculator
    items = [(s, mo.oracle_args(s)) for s in sits]
    fresh_items = [(s, mo.oracle_args(s)) for s in new_shapes(31)]
    fns: dict[str, Callable[[Any], object]] = {
        "API score(mcr)": lambda s: score(s, "mcr"),
        "PyMahjongGB": lambda a: calc(*a, verbose=True),
    }
    pick: dict[str, Callable[[Any], Any]] = {
        "API score(mcr)": lambda it: it[0],
        "PyMahjongGB": lambda it: it[1],
    }
    fresh = {"API score(mcr)": fresh_items, "PyMahjongGB": fresh_items}
    report("MCR end to end", first_and_repeat(fns, items, pick, None, fresh), "PyMahjongGB")
    # internally: the ruleset on a parsed hand (new shapes of another seed)
    sits2 = [s for s in mo.generate_situations(2 * n, 23) if s not in sits][:n]
    hands = [parse_situation(s) for s in sits2]
    res = first_and_repeat(
        {"internal score_hand(mcr)": lambda h: rs.score_hand(h, params)},
        hands,
        {"internal score_hand(mcr)": lambda h: h},
    )
    report("MCR on a parsed hand", res, None)


FRESH = """
import random, statistics, time
from rules import shapes, waits
t0 = time.perf_counter()
getattr(shapes, "_load_tables", lambda: None)()  # what the shipped tables cost at import
try:
    from rules import adds
    adds._load_adds()
except ImportError:  # an older checkout, timed as a peer, has no rules/adds.py
    pass
imp = (time.perf_counter() - t0) * 1000
from benchmarks.newhands import make_items
rng = random.Random(99)
items = make_items(rng, 5300, {k}, 13, set())
def run(its):
    out = []
    for it in its:
        t0 = time.perf_counter_ns(); waits(it.sit); out.append((time.perf_counter_ns() - t0) / 1000)
    return out
first = run(items[:300])
run(items[300:5000])
later = run(items[5000:])
print(f"{{imp:.1f}} {{statistics.fmean(first):.1f}} {{statistics.median(first):.1f}} {{statistics.fmean(later):.1f}} {{statistics.median(later):.1f}}")
"""


def bench_fresh() -> None:
    print("\n## A fresh process: import, then waits() of new hands (µs; mean / median)")
    for k in (0, 2, 4):
        out = subprocess.run(
            [sys.executable, "-c", FRESH.format(k=k)], capture_output=True, text=True, check=True
        ).stdout.split()
        imp, f_mean, f_med, l_mean, l_med = (float(x) for x in out)
        print(
            f"- {k} wild: loading the tables {imp:.1f} ms; first 300 hands {f_mean:.1f} / {f_med:.1f}; "
            f"after 5,000 hands {l_mean:.1f} / {l_med:.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.newhands")
    ap.add_argument("--quick", action="store_true", help="fewer hands (a smoke run)")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--worst", type=int, default=len(WORST), help="worst-shape rows to run")
    ap.add_argument("--only", default="", help="comma-separated: win,waits,dec,mcr,worst,fresh")
    args = ap.parse_args(argv)
    n = 100 if args.quick else args.hands
    only = (
        set(args.only.split(",")) if args.only else {"win", "waits", "dec", "mcr", "worst", "fresh"}
    )
    print(f"# new hands vs repeated ({n} hands per row; Python {sys.version.split()[0]})")
    print(
        "# new back to back: each hand's first call, a row's hands timed in blocks of "
        f"{BLOCK};\n# new interleaved: each first call after the other rows' calls "
        "(processor caches emptied)"
    )
    seen: set[Any] = set()
    warm_up(random.Random(5), seen)
    if "win" in only:
        bench_win(random.Random(1), n, seen)
    if "waits" in only:
        bench_waits(random.Random(2), n, seen)
    if "dec" in only:
        bench_decompositions(random.Random(3), n, seen)
    if "mcr" in only:
        bench_mcr(n)
    if "worst" in only:
        bench_worst(args.worst)
    if "fresh" in only:
        bench_fresh()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
