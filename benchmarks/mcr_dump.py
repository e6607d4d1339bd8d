"""python -m benchmarks.mcr_dump OUT [--against FILE]: every answer of score(…, "mcr") on a fixed set.

A speed-up of the MCR path must leave every result byte for byte the same, the
refusals included.  This writes `rules.score(situation, "mcr")` as one JSON line
per situation (keys in the result's own order) for 39,060 situations:

* the generated legal situations of six seeds (4,000 each), every MCR parameter
  in turn and a table with payments on every third;
* 3,000 generated situations with contradictory flags, odd tables, winds and
  flower counts, wild tiles and unknown keys;
* the spec examples (tests/fixtures/spec/mcr.jsonl);
* 8,000 uniform random hands (half winning shapes), some with a wrong win tile;
* 4,000 broken or unusual situations from the parse differential test's
  generator (tests/support/situations.py), every spelling of the tiles.

Run it on the commit before a change and after it, then compare the files
(`--against` does it and names the first differing line).  `--reverse` scores
them in the opposite order: the answers must not depend on what the caches
hold.  It measures nothing and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.hands import random_tiles, winning_tiles
from rules import score
from rules.tiles import tile_str

_PARAMS: list[dict[str, Any] | None] = [
    None,
    {"mixed_kong_fan": False},
    {"knitted_wait_fans": False},
    {"wait_fans_real_waits": True},
    {"min_fans": 0, "flower_points": 3},
    {"base": 5, "match": True},
    {"min_fans": 88},
]
_FLAGS = (
    "self_drawn",
    "after_kong",
    "robbing_kong",
    "last_tile",
    "fourth_tile",
    "heavenly",
    "earthly",
)


def situations() -> list[dict[str, Any]]:
    """The fixed set, always the same (seeded)."""
    from tests.rules import mcr_oracle as mo
    from tests.support import situations as tpf

    out: list[dict[str, Any]] = []
    for seed in (1, 2, 3, 5, 11, 23):
        for i, s in enumerate(mo.generate_situations(4000, seed)):
            s = dict(s)
            p = _PARAMS[i % len(_PARAMS)]
            if p:
                s["params"] = p
            if i % 3 == 0:
                s["table"] = {
                    "players": 4,
                    "dealer": i % 4,
                    "winner": (i + 1) % 4,
                    "discarder": None if s.get("self_drawn") else (i + 2) % 4,
                }
            out.append(s)
    rng = random.Random(99)
    for s in mo.generate_situations(3000, 77):
        s = dict(s)
        for f in _FLAGS:
            if rng.random() < 0.3:
                s[f] = rng.choice([True, False, None])
        r = rng.random()
        if r < 0.2:
            s["table"] = {
                "players": rng.choice([2, 3, 4]),
                "dealer": 0,
                "winner": rng.choice([0, 1, None]),
                "discarder": rng.choice([None, 1, 2]),
            }
        elif r < 0.3:
            s["table"] = {"players": 4}
        if rng.random() < 0.1:
            s["wild"] = ["1m"]
        if rng.random() < 0.1:
            s["seat_wind"] = rng.choice(["S", "south", "x", "", None, 3])
        if rng.random() < 0.1:
            s["flowers"] = rng.choice([0, 3, 9, -1, 2.0, None, True])
        if rng.random() < 0.05:
            s["extra_key"] = 1
        out.append(s)
    spec = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "spec" / "mcr.jsonl"
    with spec.open(encoding="utf-8") as fh:
        out.extend(json.loads(line) for line in fh if line.strip())
    for i in range(8000):
        tiles = winning_tiles(rng) if i % 2 == 0 else random_tiles(rng)
        if i % 5 == 0:
            del tiles[rng.randrange(14)]
            tiles.append(rng.randrange(34))
        rng.shuffle(tiles)
        win = tiles.pop()
        conc = sorted(tiles)
        u: dict[str, Any] = {
            "id": f"u{i}",
            "ruleset": "mcr",
            "concealed": "".join(tile_str(t) for t in conc)
            if i % 2
            else [tile_str(t) for t in conc],
            "win_tile": tile_str(win),
            "self_drawn": rng.random() < 0.4,
            "fourth_tile": rng.random() < 0.2,
            "last_tile": rng.random() < 0.1,
            "seat_wind": rng.choice("ESWN"),
            "prevalent_wind": rng.choice("ESWN"),
        }
        if rng.random() < 0.2:
            u["flowers"] = rng.randrange(9)
        out.append(u)
    for _ in range(4000):
        s = tpf.situation(rng, True)
        s["ruleset"] = "mcr"
        out.append(s)
    return out


def dump(path: str, reverse: bool = False) -> int:
    """Write the answers (in the set's order, whichever order they were scored in)."""
    sits = situations()
    order = list(range(len(sits)))
    if reverse:
        order.reverse()
    lines: list[str] = [""] * len(sits)
    for i in order:
        lines[i] = json.dumps(score(copy.deepcopy(sits[i]), "mcr"), ensure_ascii=False)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return len(sits)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mcr_dump")
    ap.add_argument("out", help="where to write the answers (JSON lines)")
    ap.add_argument("--against", help="an earlier dump: report whether they are identical")
    ap.add_argument("--reverse", action="store_true", help="score in the opposite order")
    args = ap.parse_args(argv)
    n = dump(args.out, args.reverse)
    print(f"{n} situations written to {args.out}")
    if args.against:
        with open(args.out, encoding="utf-8") as a, open(args.against, encoding="utf-8") as b:
            for i, (x, y) in enumerate(zip(a, b, strict=False), 1):
                if x != y:
                    print(f"line {i} differs:\n  {y.rstrip()}\n  {x.rstrip()}")
                    return 1
        print(f"identical to {args.against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
