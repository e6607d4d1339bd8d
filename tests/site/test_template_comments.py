"""Django's {# … #} comment is one line only: spread over two it is printed on the page."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).parents[2] / "templates"


def test_no_template_comment_spans_lines() -> None:
    bad = [
        f"{path.relative_to(TEMPLATES)}: {m.group(0)[:40]!r}"
        for path in TEMPLATES.rglob("*.html")
        for m in re.finditer(r"\{#.*?#\}", path.read_text(), re.S)
        if "\n" in m.group(0)
    ]
    assert not bad, bad
