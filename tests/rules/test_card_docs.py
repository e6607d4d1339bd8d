"""The JSON rounds in docs/rules/{beijing,hebei,shandong,shaanxi,yunnan}.md settle to
the deltas the docs state beside them, block by block: the docs stay current."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules import api

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
STATED = {
    "beijing": [[12, -2, -6, -4]],
    "hebei": [[0, 15, -15, 0]],
    "shandong": [[-90, 150, -50, -10]],
    "shaanxi": [[-36, 108, -24, -48]],
    "yunnan": [[-14, 4, 6, 4], [6, -9, 12, -9]],
}


@pytest.mark.parametrize("rid", sorted(STATED))
def test_doc_round_settles_as_stated(rid: str) -> None:
    text = (DOCS / f"{rid}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert len(blocks) == len(STATED[rid])
    for block, stated in zip(blocks, STATED[rid], strict=True):
        out = api.settle(json.loads(block))
        assert out["ok"], out
        assert out["deltas"] == stated
        assert f"`{stated}`" in text
