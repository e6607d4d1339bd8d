"""Command line: `python -m rules score|waits|settle|win --ruleset ID < in.jsonl > out.jsonl`.

One situation per input line, one result per output line in the same order;
a bad line gives an error result for that line and the others still run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules import REGISTRY, RuleError, is_win, json_input, score, settle, waits
from rules.results import ErrorResult, ScoreResult, SettleResult, WaitsResult, WinResult


def _run(kind: str, ruleset: str | None, fin: Any, fout: Any) -> int:
    fn = {"score": score, "waits": waits, "settle": settle, "win": is_win}[kind]
    bad = 0
    for lineno, line in enumerate(fin, 1):
        if not line.strip():
            continue
        try:
            sit = json_input.loads(line)
        except RuleError as e:
            bad += 1
            result: ScoreResult | WaitsResult | SettleResult | WinResult | ErrorResult = {
                "id": None,
                "ok": False,
                "error": {
                    "code": e.code,
                    "message": f"line {lineno}: {e.message}",
                    "message_zh": f"第 {lineno} 行：{e.message_zh}",
                },
            }
        else:
            result = fn(sit, ruleset)
            if not result["ok"]:
                bad += 1
        fout.write(json.dumps(result, ensure_ascii=False) + "\n")
    fout.flush()
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules", description="Mahjong rule engine (JSON lines in, out)."
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name, what in (
        ("score", "score situations"),
        ("waits", "list the waits of hands one tile short"),
        ("settle", "settle whole rounds given as their ordered events"),
        ("win", "say whether each situation is a legal win (score()'s win alone)"),
    ):
        p = sub.add_parser(name, help=what)
        p.add_argument(
            "--ruleset",
            help="ruleset id; overrides each situation's 'ruleset' ("
            + ", ".join(sorted(REGISTRY))
            + ")",
        )
    sub.add_parser("rulesets", help="list the rulesets and their parameters as JSON")
    args = parser.parse_args(argv)
    if args.cmd == "rulesets":
        print(json.dumps([r.describe() for r in REGISTRY.values()], ensure_ascii=False, indent=2))
        return 0
    # Lines are read as bytes and decoded one by one: a line that is not text is an
    # error result for that line (json_input), not a crash of the whole batch.
    _run(args.cmd, args.ruleset, getattr(sys.stdin, "buffer", sys.stdin), sys.stdout)
    # Errors are results, not failures: the exit code stays 0 so a batch is never cut short.
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
