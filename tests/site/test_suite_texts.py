"""The tests say what they check, not when it was asked for: no issue numbers in tests/.
CHANGELOG.md keeps the history, by date and issue; a test's docstring that names an
issue reads as history to the next person, and the numbers crept back after they
were taken out once."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AN_ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)


def test_no_test_names_an_issue() -> None:
    """Every line of every Python file under tests/, this one included."""
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if AN_ISSUE.search(line)
    ]
    assert hits == [], "\n".join(hits)


def test_the_check_finds_an_issue_named() -> None:
    """The pattern finds the forms the lines took, and not the word's other uses."""
    number = "36"  # (written apart, or this file would name one)
    assert AN_ISSUE.search(f'"""The till (issue {number}, items 3-5): a closed table')
    assert AN_ISSUE.search(f"# as Issue #{number} asked")
    assert not AN_ISSUE.search("the issue's figures, an issued receipt")
