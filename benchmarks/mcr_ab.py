"""python -m benchmarks.mcr_ab [--against REV] [--readers] [--hands N]: MCR's new hands, A beside B in one process.

The machine is shared and noisy: runs of `benchmarks.newhands` in turn, one
tree then the other, differ by more than most changes do.  Here both sides
run in the same process, hand by hand, each hand new to both (which side goes
first alternates), and the medians are compared.

* `--against REV` (default HEAD~1): the engine of commit REV (`git archive REV
  rules`, imported as a package of another name, so its caches are its own)
  against the working tree's, on the rows of `benchmarks.newhands`' MCR
  section: `score(…, "mcr")` of new situations, `score_hand` of new parsed
  hands (each side parses its own), and those hands repeated (median of 5).
* `--readers`: the fast readers of a situation against the careful path they
  stand in for, the same code switched per call: `score(mcr)` with and without
  `rules.hand.read_tiles_fast`, `waits` and `is_win` (generic) with and without the
  plain reader (`rules.plain_reader.read`).  These are the figures that decide
  whether a second reader of the situation format is kept (more than 10 % of
  the new-hand time it saves).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

clock = time.perf_counter_ns
ROOT = Path(__file__).resolve().parent.parent


def old_engine(rev: str, into: Path) -> ModuleType:
    """The `rules` package of commit `rev`, importable as `rules_ab`."""
    raw = subprocess.run(
        ["git", "archive", rev, "rules"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
        tar.extractall(into, filter="data")
    pkg = into / "rules_ab"
    (into / "rules").rename(pkg)
    for path in pkg.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\bfrom rules(\.| import)", r"from rules_ab\1", text)
        text = re.sub(r"\bimport rules\.", "import rules_ab.", text)
        text = text.replace('"rules.rulesets', '"rules_ab.rulesets')
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module("rules_ab")


def interleaved(
    calls: tuple[Callable[[Any], object], Callable[[Any], object]],
    items: Sequence[tuple[Any, Any]],
) -> tuple[float, float]:
    """Median µs of each side over the items, A and B in turn (who goes first alternates)."""
    times: tuple[list[float], list[float]] = ([], [])
    for i, pair in enumerate(items):
        for side in (0, 1) if i % 2 else (1, 0):
            fn = calls[side]
            t0 = clock()
            fn(pair[side])
            times[side].append((clock() - t0) / 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def line(what: str, a: str, b: str, ma: float, mb: float) -> None:
    print(f"- {what}: {a} {ma:.2f} µs, {b} {mb:.2f} µs, {b}/{a} {mb / ma:.3f}")


def against(rev: str, n: int) -> None:
    import rules
    from rules.hand import parse_situation
    from rules.registry import get_ruleset
    from tests.rules import mcr_oracle as mo

    with tempfile.TemporaryDirectory() as tmp:
        old = old_engine(rev, Path(tmp))
        old_parse = importlib.import_module("rules_ab.hand").parse_situation
        old_rs = importlib.import_module("rules_ab.registry").get_ruleset("mcr")
        new_rs = get_ruleset("mcr")
        po, pn = old_rs.resolve_params(None), new_rs.resolve_params(None)
        for s in mo.generate_situations(2000, 5):  # a worker that has served a while
            old.score(s, "mcr")
            rules.score(s, "mcr")
        seen: set[tuple[str, str, str]] = set()

        def fresh(seed: int) -> list[dict[str, Any]]:
            out = []
            for s in mo.generate_situations(3 * n, seed):
                key = (str(s.get("concealed")), str(s.get("melds")), str(s.get("win_tile")))
                if key not in seen:
                    seen.add(key)
                    out.append(s)
            return out[:n]

        print(f"\n## MCR, {rev} (A) against the working tree (B), {n} new hands a row")
        gc.disable()
        try:
            sits = fresh(11)
            ma, mb = interleaved(
                (lambda s: old.score(s, "mcr"), lambda s: rules.score(s, "mcr")),
                [(s, s) for s in sits],
            )
            line("API score(mcr), new", "A", "B", ma, mb)
            hands = [(old_parse(s), parse_situation(s)) for s in fresh(23)]
            ma, mb = interleaved(
                (lambda h: old_rs.score_hand(h, po), lambda h: new_rs.score_hand(h, pn)), hands
            )
            line("internal score_hand(mcr), new", "A", "B", ma, mb)

            def five(rs: Any, p: Any) -> Callable[[Any], float]:
                def run(h: Any) -> float:
                    ts = []
                    for _ in range(5):
                        t0 = clock()
                        rs.score_hand(h, p)
                        ts.append((clock() - t0) / 1000)
                    return statistics.median(ts)

                return run

            ra, rb = five(old_rs, po), five(new_rs, pn)
            line(
                "internal score_hand(mcr), repeated",
                "A",
                "B",
                statistics.median(ra(h) for h, _ in hands[:500]),
                statistics.median(rb(h) for _, h in hands[:500]),
            )
        finally:
            gc.enable()


def readers(n: int) -> None:
    import rules
    from benchmarks.newhands import make_items
    from rules import hand, plain_reader
    from tests.rules import mcr_oracle as mo

    for s in mo.generate_situations(2000, 5):
        rules.score(s, "mcr")
    fast, read = hand.read_tiles_fast, plain_reader.read

    def switched(
        fn: Callable[[Any], object], off: Callable[[], None]
    ) -> tuple[Callable[[Any], object], Callable[[Any], object]]:
        def on() -> None:
            hand.read_tiles_fast, plain_reader.read = fast, read

        def with_it(x: Any) -> object:
            on()
            return fn(x)

        def without(x: Any) -> object:
            off()
            r = fn(x)
            on()
            return r

        return with_it, without

    def no_fast() -> None:
        hand.read_tiles_fast = lambda s, n: None  # type: ignore[assignment]

    def no_plain() -> None:
        plain_reader.read = lambda s, w: None  # type: ignore[assignment]

    print(
        f"\n## The fast readers against the careful path, {n} new hands a row (A with, B without)"
    )
    gc.disable()
    try:
        sits = mo.generate_situations(2 * n, 11)
        ma, mb = interleaved(
            switched(lambda s: rules.score(s, "mcr"), no_fast),
            list(zip(sits[0::2], sits[1::2], strict=True)),
        )
        line("score(mcr), rules.hand.read_tiles_fast", "A", "B", ma, mb)
        rng = random.Random(2)
        for size, what, fn in ((13, "waits", rules.waits), (14, "is_win", rules.is_win)):
            items = [it.sit for it in make_items(rng, 2 * n, 0, size, set())]
            ma, mb = interleaved(
                switched(fn, no_plain), list(zip(items[0::2], items[1::2], strict=True))
            )
            line(f"{what}(generic), the plain reader", "A", "B", ma, mb)
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mcr_ab")
    ap.add_argument("--against", default="HEAD~1", help="the commit to compare with (A)")
    ap.add_argument("--readers", action="store_true", help="the fast readers, on and off")
    ap.add_argument("--hands", type=int, default=1500)
    args = ap.parse_args(argv)
    if args.readers:
        readers(args.hands)
    else:
        against(args.against, args.hands)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
