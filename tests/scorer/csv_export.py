"""Reading a table's CSV export (scorer/services/export.py) as a spreadsheet would, in Chinese.

Every check of the file's shape is here, so that each test asking "do the rows
reconcile" holds the whole file to it: the BOM, a number in every number cell
(an ASCII minus, no "+", no separator), the player columns saying on each row
that counts exactly what its transfer moves, and the last row the column sums.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from django.utils import translation

from scorer.models import GameSession
from scorer.services.export import table_csv

NUMBER = re.compile(r"-?\d+")
HEAD = [
    "行",
    "计入",
    "版本",
    "当前版本",
    "类型",
    "庄家",
    "记录人",
    "时间",
    "谁给",
    "给谁",
    "分数",
    "原因",
]
ROOM = "棋牌室"


@dataclass
class Export:
    head: list[str]
    body: list[dict[str, str]]
    totals: dict[str, int]  # the last row: a player's (or the room's) column total
    net: dict[str, int]  # what the counted rows' from/to/amount add up to


def read_export(text: str, names: list[str]) -> Export:
    assert text.startswith("\ufeff"), "a BOM, for Excel to read the Chinese"
    rows = list(csv.reader(io.StringIO(text[1:])))
    head, body, last = rows[0], rows[1:-1], rows[-1]
    payees = head[len(HEAD) :]
    assert head[: len(HEAD)] == HEAD and payees[: len(names)] == names
    assert payees[len(names) :] in ([], [ROOM])
    assert last[0] == "合计" and last[1 : len(HEAD)] == [""] * (len(HEAD) - 1)
    assert all(NUMBER.fullmatch(x) for x in last[len(HEAD) :]), last
    net = dict.fromkeys(payees, 0)
    sums = dict.fromkeys(payees, 0)
    records = []
    for row in body:
        assert len(row) == len(head), row
        rec = dict(zip(head, row, strict=True))
        records.append(rec)
        assert rec["计入"] in ("是", "否") and rec["当前版本"] in ("是", "否")
        assert NUMBER.fullmatch(rec["分数"]) and NUMBER.fullmatch(rec["行"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", rec["时间"]), rec["时间"]
        moved = {p: rec[p] for p in payees}
        if rec["计入"] == rec["当前版本"] == "是":
            amount = int(rec["分数"])
            want = dict.fromkeys(payees, 0)
            want[rec["谁给"]] -= amount
            want[rec["给谁"]] += amount
            assert {p: int(v) for p, v in moved.items()} == want, rec
            for p in payees:
                net[p] += want[p]
                sums[p] += int(moved[p])
        else:  # the history: it counts for no one
            assert set(moved.values()) == {""}, rec
    totals = {p: int(x) for p, x in zip(payees, last[len(HEAD) :], strict=True)}
    assert totals == sums, "the last row is the columns' sums"
    return Export(head, records, totals, net)


def zh_csv(session: GameSession) -> str:
    """The export as a Chinese page's link gives it (the language is the request's)."""
    with translation.override("zh-hans"):
        return table_csv(session)
