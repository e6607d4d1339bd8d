"""The table's CSV export in the page's language and local time, the totals as the
last row of the same columns, numbers a spreadsheet reads as numbers, and the room's
take (台费), adjustments and penalties kept as rows."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession, RoundRevision
from tests.factories import by_tiles, make_table, record
from tests.pages import html
from tests.scorer.csv_export import ROOM, read_export, zh_csv

pytestmark = pytest.mark.django_db

NAMES = ["欧阳大刘", "乙", "丙", "丁"]
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
AT = dt.datetime(2026, 11, 26, 12, 7, tzinfo=dt.UTC)  # 20:07 in Asia/Shanghai


def evening() -> GameSession:
    """A 国标 table with a per-win fee: a win, a corrected win, an undone win, an
    adjustment, all recorded at 12:07 UTC."""
    s = make_table("mcr", NAMES, fee={"mode": "win_percent", "percent": 10, "cap": 0})
    record(s, by_tiles(0, 1))
    second = record(s, by_tiles(2, None))
    second.revise(by_tiles(3, 2))
    record(s, by_tiles(1, 0))
    s.undo_last()
    lines = [{"from": 2, "to": 0, "amount": 25}]
    record(s, {"kind": "adjust", "reason": "借分", "lines": lines})
    RoundRevision.objects.filter(round__session=s).update(created_at=AT)
    return s


def test_the_csv_speaks_the_pages_language_in_local_time(client: Client) -> None:
    s = evening()
    got = read_export(client.get(reverse("scorer:export", args=[s.code, "csv"]), **ZH)
                      .content.decode(), NAMES)  # fmt: skip
    assert {x["时间"] for x in got.body} == {"2026-11-26 20:07"}  # not 12:07 (UTC)
    assert {x["类型"] for x in got.body} == {"和牌", "调整"}
    assert {x["计入"] for x in got.body} == {x["当前版本"] for x in got.body} == {"是", "否"}
    # A win's reason says the fans it was paid for, not "胡牌" alone.
    assert {x["原因"].partition(":")[0] for x in got.body} == {"和牌", "台费", "调整"}
    assert all("一色三节高、三暗刻" in x["原因"] for x in got.body if x["原因"].startswith("和牌"))
    # The totals are the last row, under the players' own columns, and add up.
    assert [got.totals[n] for n in NAMES] == [got.net[n] for n in NAMES] == s.tallies()
    assert got.totals[ROOM] == s.room_take() > 0
    assert sum(got.totals.values()) == 0
    assert any(v < 0 for v in got.totals.values())  # written -n, which a sheet sums


def test_the_csv_in_english(client: Client) -> None:
    s = evening()
    text = html(client.get(reverse("scorer:export", args=[s.code, "csv"]), **EN))
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0] == ["Line", "Counted", "Version", "Current", "Kind", "Dealer", "Recorded by",
                       "Time", "From", "To", "Points", "Reason", *NAMES, "the room"]  # fmt: skip
    assert rows[-1] == ["Total", *[""] * 11, *map(str, s.tallies()), str(s.room_take())]
    kinds = {r[4] for r in rows[1:-1]}
    assert kinds == {"Win", "Adjustment"} and {r[7] for r in rows[1:-1]} == {"2026-11-26 20:07"}
    assert {r[11].partition(":")[0] for r in rows[1:-1]} == {"Win", "Table fee", "Adjustment"}
    assert "Win: Pure Shifted Pungs, Three Concealed Pungs, " in {r[11][:48] for r in rows[1:-1]}


def test_a_table_with_no_room_has_no_room_column_and_a_penalty_row() -> None:
    s = make_table("wuhan", NAMES)
    record(s, {"kind": "penalty", "penalty": "escape", "seat": 3})
    record(s, {"kind": "draw", "turned": "1z"})
    got = read_export(zh_csv(s), NAMES)
    assert ROOM not in got.head and got.totals == dict(zip(NAMES, s.tallies(), strict=True))
    assert [(x["类型"], x["谁给"], x["原因"]) for x in got.body] == [("罚分", "丁", "逃跑")] * 3
