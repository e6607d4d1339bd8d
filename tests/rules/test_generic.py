"""docs/rules/generic.md: every JSON example gives the answer the doc states under it.

The examples are the seeds' own (004's 万能牌 readings, its seven-pairs rule) and
the decisions taken where the seeds are silent or loose; the doc is read here,
so it stays current."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "generic.md"
EXAMPLE = re.compile(r"```json\n(.*?)\n```\n`(score|is_win|waits)` → `(.*?)`$", re.S | re.M)


def examples() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    text = DOC.read_text(encoding="utf-8")
    found = [(fn, json.loads(sit), json.loads(want)) for sit, fn, want in EXAMPLE.findall(text)]
    assert len(found) == text.count("```json"), "an example the pattern did not read"
    return found


@pytest.mark.parametrize(("fn", "situation", "stated"), examples())
def test_doc_example_answers_as_stated(
    fn: str, situation: dict[str, Any], stated: dict[str, Any]
) -> None:
    out = getattr(rules, fn)(situation)
    assert {k: out.get(k) for k in stated} == stated, out


def test_the_seeds_readings_are_listed() -> None:
    """004's readings themselves: 112245777 + 2 wild read as 1 and 3 (among
    four), 1234567 + 1 wild as 1, 4 or 7 (exactly)."""
    (_, first, _), (_, third, _) = examples()[:2]
    assert ["1m", "3m"] in [d["wild_as"] for d in rules.score(first)["decompositions"]]
    assert sorted(d["wild_as"] for d in rules.score(third)["decompositions"]) == [
        ["1m"],
        ["4m"],
        ["7m"],
    ]
