"""python -m benchmarks.mcr_diff [--n 100000] [--seed 1]: MCR against PyMahjongGB, long runs.

Generates N legal situations (tests/rules/mcr_oracle.py, the same generator
as the tests), scores each with `rules.score(sit, "mcr")` and with the
oracle, and prints the number of situations, the disagreements grouped by
fan (with the first few in full), how many situations each fan occurred in
(the generator's coverage) and the speed of both scorers in µs per hand.

Exit code: 0 when everything agrees, 1 on any disagreement, 2 when the
ruleset 'mcr' is not registered (use --oracle-only for coverage and timing).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules import score
from tests.rules import mcr_oracle as mo


def ours_median_us(sits: Sequence[dict[str, Any]], rounds: int = 5) -> float:
    """Median over `rounds` of rules.score(sit, 'mcr')'s mean µs per hand."""
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for s in sits:
            score(s, "mcr")
        samples.append((time.perf_counter_ns() - t0) / len(sits) / 1000)
    return statistics.median(samples)


def mcr_available() -> bool:
    probe = mo.generate_situations(1, 0)[0]
    probed: Mapping[str, Any] = score(probe, "mcr")
    return probed.get("error", {}).get("code") != "unknown_ruleset"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mcr_diff", description=__doc__)
    ap.add_argument("--n", type=int, default=100_000, help="situations to generate")
    ap.add_argument("--seed", type=int, default=1, help="random.Random seed")
    ap.add_argument("--show", type=int, default=20, help="disagreements printed in full")
    ap.add_argument("--oracle-only", action="store_true", help="coverage and oracle timing only")
    ap.add_argument(
        "--check-legal", action="store_true", help="also re-check every hand's legality"
    )
    ap.add_argument(
        "--split-mixed-kongs",
        action="store_true",
        help="compare the oracle's 明暗杠 (5) as 暗杠 (2) + 明杠 (1)",
    )
    ap.add_argument("--time-hands", type=int, default=2000, help="hands used for the timings")
    args = ap.parse_args(argv)
    if args.split_mixed_kongs:
        mo.SPLIT_MIXED_KONGS = True

    t0 = time.perf_counter()
    sits = mo.generate_situations(args.n, args.seed)
    print(
        f"generated {len(sits)} situations (seed {args.seed}) in {time.perf_counter() - t0:.1f} s"
    )

    if args.check_legal:
        illegal = [(s, p) for s in sits if (p := mo.legality_problems(s))]
        print(f"illegal situations: {len(illegal)}")
        for s, p in illegal[: args.show]:
            print(f"  {mo.compact(s)}: {p}")
        if illegal:
            return 1

    have_mcr = mcr_available()
    if not have_mcr and not args.oracle_only:
        print("ruleset 'mcr' is not registered (unknown_ruleset); run with --oracle-only")
        return 2
    compare = have_mcr and not args.oracle_only

    coverage: Counter[str] = Counter()
    disagreements: list[mo.Disagreement] = []
    extra_ids: dict[int, str] = {}
    t0 = time.perf_counter()
    for sit in sits:
        oracle = mo.oracle_fans(sit)
        coverage.update(zh for zh, _, _ in oracle)
        if compare:
            try:
                result: Mapping[str, Any] = score(sit, "mcr")
            except Exception as e:  # score() must never raise; count it as a disagreement
                err = {"code": "crash", "message": f"{type(e).__name__}: {e}"}
                result = {"ok": False, "error": err}
            d = mo.compare(sit, result, oracle, extra_ids)
            if d is not None:
                disagreements.append(d)
    print(f"scored in {time.perf_counter() - t0:.1f} s")

    print(f"\n## Coverage: situations (of {len(sits)}) in which the oracle gives each fan")
    for fid, zh, _, points in mo.FANS:
        print(f"  {fid:2d} {zh}\t{points:2d}\t{coverage[zh]}")
    for zh in sorted(set(coverage) - set(mo.FAN_ID)):
        print(f"  -- {zh}\t(non-standard)\t{coverage[zh]}")
    missing = [zh for _, zh, _, _ in mo.FANS if not coverage[zh]]
    if missing:
        print(f"  never reached: {' '.join(missing)}")

    timed = sits[: args.time_hands]
    print(f"\n## Speed, µs per hand, median of 5 rounds over {len(timed)} hands")
    print(f"  PyMahjongGB (C++): {mo.oracle_median_us(timed):.1f}")
    if have_mcr:
        print(f"  rules.score mcr:   {ours_median_us(timed):.1f}")

    if not compare:
        return 0
    print()
    # The wait fans follow the League's ruling, as PyMahjongGB does (docs/rules/mcr.md,
    # "Waits"): every difference is unexplained.
    if disagreements:
        print(mo.summarize(disagreements, len(sits), show=args.show))
        return 1
    print(f"all {len(sits)} situations agree with PyMahjongGB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
