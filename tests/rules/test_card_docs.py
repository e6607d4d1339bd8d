"""The JSON rounds in docs/rules/{beijing,hebei,shandong,shaanxi,wuhan,yunnan}.md settle to
the deltas the docs state beside them, block by block, and each worked-case table's
rows (seats and deltas) are its `jsonl` rounds': the docs stay current."""

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
    "shaanxi": [[-36, 108, -24, -48], [0, 0, 6, -6], [-9, 21, -6, -6], [18, -54, 18, 18]],
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
        if out["room_take"]:  # a penalty paid to the room says so beside its deltas
            assert f"`room_take` {out['room_take']}" in text


PENALTY_SECTIONS = {  # each doc's "## Penalty" examples, in order: (deltas, room_take)
    "wuhan": [([133, -400, 134, 133], 0), ([0, -400, 0, 0], 400)],
    "shaanxi": [([18, -54, 18, 18], 0)],
    "mcr": [([10, 10, -30, 10], 0), ([-30, 0, 0, 0], 30)],
}


@pytest.mark.parametrize("rid", sorted(PENALTY_SECTIONS))
def test_penalty_examples_settle_as_stated(rid: str) -> None:
    text = (DOCS / f"{rid}.md").read_text(encoding="utf-8")
    part = text[text.index("## Penalty") :]
    blocks = re.findall(r"```json\n(.*?)```", part, re.S)
    assert len(blocks) == len(PENALTY_SECTIONS[rid])
    for block, (deltas, take) in zip(blocks, PENALTY_SECTIONS[rid], strict=True):
        out = api.settle(json.loads(block))
        assert out["ok"], out
        assert (out["deltas"], out["room_take"]) == (deltas, take)
        assert f"`{deltas}`" in part
        assert not take or f"`room_take` {take}" in part


TABLED = ("beijing", "hebei", "shandong", "shaanxi")
_ROW = re.compile(
    r"^\| (?P<case>[a-z]{2}-d\d+) [^|]*\|[^|]*\| winner (?P<winner>\d), "
    r"(?:discarder (?P<discarder>\d)|(?P<self>self-drawn)), dealer (?P<dealer>\d) \|[^|]*\| "
    r"`(?P<deltas>[^`]*)` \|$",
    re.M,
)


@pytest.mark.parametrize("rid", TABLED)
def test_worked_case_tables_are_their_rounds(rid: str) -> None:
    text = (DOCS / f"{rid}.md").read_text(encoding="utf-8")
    table = text[text.index("## Worked cases") :]
    table = table[: table.index("\n## ")]
    rows = {m["case"]: m for m in _ROW.finditer(table)}
    (block,) = re.findall(r"```jsonl\n(.*?)```", table, re.S)
    rounds = [json.loads(line) for line in block.splitlines()]
    assert sorted(rows) == sorted(r["id"] for r in rounds) and len(rows) >= 3
    for rnd in rounds:
        row = rows[rnd["id"]]
        win = rnd["events"][0]
        assert int(row["winner"]) == win["winners"][0]["seat"]
        assert (None if row["self"] else int(row["discarder"])) == win["discarder"]
        assert int(row["dealer"]) == rnd["dealer"]
        out = api.settle(rnd)
        if out["ok"]:
            assert json.loads(row["deltas"]) == out["deltas"], rnd["id"]
        else:
            assert row["deltas"] == out["error"]["code"], rnd["id"]
