"""python -m benchmarks.mcr_cost: what a new MCR hand costs, stage by stage, in instructions.

On two shared cores the timings of `benchmarks.newhands` move by ±10 % between
runs of the same code, more than most single changes to the MCR path are worth.
This counts machine instructions instead (valgrind's cachegrind, which also
simulates the caches), which repeat to the last digit from run to run
(PYTHONHASHSEED fixed): each stage is run on 500 new hand shapes after 1,000
other situations have been scored, and the run that stops before the stage is
subtracted from the run that includes it.

Stages (cumulative, each on the same new hands):
  parse   parse_situation alone (the API's reading of the dict);
  reading Reading(hand, params): the flags, the melds' packs, the tile facts;
  special the special forms (a loose pre-check for most hands);
  cuts    regular_cuts: the sets-and-pair cuts with their set relations;
  wait    the unique-wait check (here on every hand; score_hand asks it only
          when a cut has the win tile at an edge, closed or single place);
  best    best_reading: every reading scored, the exclusions applied;
  score   score_hand again on top: for a hand with one regular reading the
          lean path (rules/rulesets/mcr/lean.py, none of the stages above), for
          the rest the careful path on the cached cuts and wait;
  api     rules.score(situation, "mcr") from the dict, on the new hands: what a
          new hand costs end to end (the stages above are the careful path's).

It needs valgrind and takes a few minutes (each stage is two runs, side by side).
A measuring aid: nothing asserts on it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

STAGES = ("none", "parse", "reading", "special", "cuts", "wait", "best", "score")
# (stage, the run it is measured against)
PAIRS = (
    ("parse", "none"),
    ("reading", "parse"),
    ("special", "reading"),
    ("cuts", "special"),
    ("wait", "cuts"),
    ("best", "wait"),
    ("score", "best"),
    ("api", "none"),
)
N_NEW = 500


def workload(stage: str) -> None:
    """Score 1,000 situations, then run the stages up to `stage` on 500 new shapes."""
    from rules import score
    from rules.hand import parse_situation
    from rules.registry import get_ruleset
    from rules.rulesets.mcr import scoring as mcr
    from tests.rules import mcr_oracle as mo

    sits: list[dict[str, Any]] = []
    keys = set()
    for s in mo.generate_situations(900, 11):
        key = (str(s.get("concealed")), str(s.get("melds")), str(s.get("win_tile")))
        if key not in keys:
            keys.add(key)
            sits.append(s)
    sits = sits[:N_NEW]
    for s in mo.generate_situations(1000, 5):
        score(s, "mcr")
    if stage == "api":
        for s in sits:
            score(s, "mcr")
        return
    rs = get_ruleset("mcr")
    params = rs.resolve_params(None)
    upto = STAGES.index(stage)
    if upto == 0:
        return
    hands = [parse_situation(s) for s in sits] if upto > 1 else []
    if upto == 1:
        for s in sits:
            parse_situation(s)
        return
    for h in hands:
        r = mcr.Reading(h, params)
        if upto >= 3:
            r.special()
        if upto >= 4:
            mcr.regular_cuts(r.standing, r.fixed_packs, r.win)
        if upto >= 5:
            r.unique_wait()
        if upto >= 6:
            mcr.best_reading(r)
        if upto >= 7:
            rs.score_hand(h, params)


def _counts(stage: str) -> tuple[int, int, int]:
    """(instructions, D1 misses, LL misses) of a whole run up to `stage`."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null",
         sys.executable, "-m", "benchmarks.mcr_cost", "--run", stage],
        capture_output=True, text=True, env=env, check=True,
    ).stderr  # fmt: skip
    found: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        for name, label in (("I", "refs:"), ("D1", "misses:"), ("LL", "misses:")):
            if len(parts) >= 4 and parts[1] == name and parts[2] == label:
                found.setdefault(name, int(parts[3].replace(",", "")))
    return found["I"], found["D1"], found["LL"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mcr_cost")
    ap.add_argument("--run", help=argparse.SUPPRESS)  # the measured process itself
    args = ap.parse_args(argv)
    if args.run:
        workload(args.run)
        return 0
    runs = sorted({s for pair in PAIRS for s in pair})
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(zip(runs, pool.map(_counts, runs), strict=True))
    print(f"# a new MCR hand, per hand ({N_NEW} new shapes): instructions, D1 / LL misses")
    for stage, base in PAIRS:
        d = [(a - b) / N_NEW for a, b in zip(counts[stage], counts[base], strict=True)]
        print(f"{stage:8s} {d[0]:9,.0f}   D1 {d[1]:7,.0f}   LL {d[2]:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
