"""No cell of an export is a formula: a table's CSV and the room's day
report, read back with the csv module as a spreadsheet would get them.

Names come from anyone at a table or in an imported file, and older tables hold
names no form takes today (longer, or typed before the cleaner): the tables here
are made with such names directly.  Every text cell that a spreadsheet would
evaluate comes back with a leading "'"; a number cell is still a bare number,
-42 included, and a player named "-42" is text, neutralised like the rest.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scorer.clean.spreadsheet import BOM, FORMULA_START, cell, csv_text
from scorer.models import GameSession
from scorer.models.rooms import Room, RoomTable
from tests.factories import make_member, make_room, make_table, record, signed_in

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://x","y")'
FORMULAS = [HYPERLINK, "+1+1", "-1+1", "@SUM(1)"]
OTHERS = ["-42", "\t=1+1", "\r=1+1", "老王"]


def rows_of(text: str) -> list[list[str]]:
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text.removeprefix(BOM))))


def evaluated(value: str) -> bool:
    """Whether a spreadsheet would read this cell as a formula."""
    return value.startswith(FORMULA_START)


def adjusted(room: Room, names: list[str], table: RoomTable | None = None) -> GameSession:
    """A table whose second player lost 42 points to the first (a -42 result)."""
    config = room.offered_configs()[0]
    s = make_table(
        config.ruleset,
        names,
        room=room,
        preset=f"room:{config.pk}",
        room_table=table,
        params=dict(config.params),
        money_per_point=Decimal("0.5"),
        seated=True,
    )
    lines = [{"from": 1, "to": 0, "amount": 42}]
    record(s, {"kind": "adjust", "reason": "=1+1", "lines": lines}, author="@me")
    return s


@pytest.fixture
def room() -> Room:
    return make_room("east")


@pytest.mark.parametrize("names", [FORMULAS, OTHERS])
def test_the_tables_export_neutralises_every_text_cell(
    client: Client, room: Room, names: list[str]
) -> None:
    s = adjusted(room, names)
    response = client.get(reverse("scorer:export", args=[s.code, "csv"]))
    assert response.status_code == 200
    rows = rows_of(response.content.decode())
    head, *body = rows
    player_columns = head[12:16]
    for name, shown in zip(names, player_columns, strict=True):
        assert shown == (f"'{name}" if evaluated(name) else name)
    line = body[0]
    assert line[5] == player_columns[0]  # the dealer: a name, as the header says it
    assert line[6] == "'@me"  # recorded by
    assert line[8:10] == [player_columns[1], player_columns[0]]  # from, to
    assert line[11].endswith("=1+1") and not evaluated(line[11])  # the reason
    # The points moved: numbers, bare, the loser's -42 with its minus.
    assert line[10] == "42" and line[12:16] == ["42", "-42", "0", "0"]
    assert body[-1][12:16] == ["42", "-42", "0", "0"]  # the totals
    assert not any(evaluated(c) for row in rows for c in row if not _number(c))


def _number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


def test_the_rooms_day_report_neutralises_every_text_cell(room: Room) -> None:
    make_member(room, "boss")
    boss = signed_in("boss")
    config = room.offered_configs()[0]
    config.name = "-1+1"  # an admin's name for it, stored before the cleaner
    config.save()
    table = RoomTable.objects.create(room=room, number=3, name="@SUM(1)")
    adjusted(room, FORMULAS, table)
    adjusted(room, OTHERS)
    response = boss.get(reverse("scorer:manage_report", args=[room.slug]))
    assert response.status_code == 200
    rows = rows_of(response.content.decode())
    first, second = (r for r in rows[1:-1])
    assert first[0] == "'@SUM(1)" and first[1] == "'-1+1"  # the table, the configuration
    assert first[4] == f"'{'、'.join(FORMULAS)}"  # the players, from the first one's name
    assert first[6].startswith(f"'{HYPERLINK} ")  # the results, from the first one's name
    assert second[4].startswith("'-42、") and second[6].startswith("'-42 ")
    # Hands (局): numbers, bare; an adjustment is no 局.
    assert first[5] == second[5] == "0"
    assert rows[-1][4:6] == ["8", "0"]  # the totals: players, hands
    assert first[8] == second[8] == rows[-1][8] == "0.00"  # money: a number, to the 分
    assert not any(evaluated(c) for row in rows for c in row if not _number(c))


@given(st.one_of(st.integers(), st.decimals(allow_nan=False, allow_infinity=False, places=2)))
def test_a_number_is_written_bare_whatever_its_sign(n: int | Decimal) -> None:
    text = csv_text([[n]]).removeprefix(BOM).strip()
    assert text == str(n) and Decimal(text) == n


@given(st.text())
def test_a_text_cell_is_never_read_as_a_formula_and_keeps_its_text(value: str) -> None:
    written = cell(value)
    assert isinstance(written, str)
    assert not evaluated(written)
    assert written.removeprefix("'") == value or written == value
    (read,) = rows_of(csv_text([[value]]))
    assert read == [written]
