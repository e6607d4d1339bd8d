"""Every number and day read from a URL or a form is range-checked where it is read:
a day the report cannot be made for is a 400, like a day that is no
date; a table's number is 1 to 9,999 on every path, and one past it is refused
with the room's words, nothing saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scorer.clean.parse import FIRST_DAY, LAST_DAY, date_or_none, datetime_or_none, int_or_none
from scorer.models.rooms import LAST_TABLE, Room, RoomTable
from tests.factories import make_member, make_room, signed_in
from tests.pages import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def room() -> Room:
    return make_room("east")


@pytest.fixture
def boss(room: Room) -> Client:
    make_member(room, "boss")
    client = signed_in("boss")
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize(
    "day", ["abc", "9999-12-31", "0001-01-01", "1999-12-31", "3000-01-01", "2026-02-30", "%00"]
)
def test_a_report_for_a_day_out_of_range_is_a_400(boss: Client, room: Room, day: str) -> None:
    url = reverse("scorer:manage_report", args=[room.slug])
    with override_settings(DEBUG=False):
        response = boss.get(url, {"day": day})
    assert response.status_code == 400
    assert "2000-01-01" in response.content.decode() and "2999-12-31" in response.content.decode()


@pytest.mark.parametrize("day", [FIRST_DAY, LAST_DAY, dt.date(2026, 11, 26)])
def test_a_report_for_a_day_in_range_is_made(boss: Client, room: Room, day: dt.date) -> None:
    url = reverse("scorer:manage_report", args=[room.slug])
    response = boss.get(url, {"day": day.isoformat()})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith(f'{day.isoformat()}.csv"')


def tables_of(room: Room) -> list[tuple[int, str]]:
    return list(RoomTable.objects.filter(room=room).values_list("number", "name"))


@pytest.mark.parametrize(
    ("number", "count"),
    [("9990", "60"), ("9999", "2"), ("10000", "1"), ("2147483648", "1"), ("0", "1"), ("-1", "1")],
)
def test_adding_tables_past_9999_is_refused_whole(
    boss: Client, room: Room, number: str, count: str
) -> None:
    before = tables_of(room)
    url = reverse("scorer:manage_tables", args=[room.slug])
    response = boss.post(url, {"number": number, "count": count, "name": ""})
    assert response.status_code == 400
    assert "9,999" in text_of(response.content.decode())
    assert tables_of(room) == before


def test_the_last_tables_can_be_added(boss: Client, room: Room) -> None:
    url = reverse("scorer:manage_tables", args=[room.slug])
    response = boss.post(url, {"number": "9990", "count": "10", "name": ""})
    assert response.status_code == 302
    assert max(n for n, _ in tables_of(room)) == LAST_TABLE


@pytest.mark.parametrize("number", ["2147483648", "10000", "0", "99999999999999999999"])
def test_renumbering_a_table_past_9999_is_refused(boss: Client, room: Room, number: str) -> None:
    RoomTable.objects.create(room=room, number=3, name="包间A")
    before = tables_of(room)
    url = reverse("scorer:manage_table", args=[room.slug, 3])
    with override_settings(DEBUG=False):
        response = boss.post(url, {"number": number, "name": "包间B"})
    assert response.status_code == 400
    assert "9,999" in text_of(response.content.decode())
    assert tables_of(room) == before


def test_a_table_renumbered_to_9999_is_saved(boss: Client, room: Room) -> None:
    RoomTable.objects.create(room=room, number=3)
    url = reverse("scorer:manage_table", args=[room.slug, 3])
    assert boss.post(url, {"number": "9999", "name": ""}).status_code == 302
    assert tables_of(room) == [(9999, "")]


@pytest.mark.parametrize(("first", "count"), [(9990, 60), (0, 1), (10_000, 1), (1, 0)])
def test_the_room_adds_no_table_past_its_numbers(room: Room, first: int, count: int) -> None:
    with pytest.raises(ValidationError):
        room.add_tables(first, count)
    assert tables_of(room) == []


@pytest.mark.parametrize("number", ["10000", "2147483648", "99999999999999999999"])
def test_a_table_url_past_9999_is_a_404(boss: Client, room: Room, number: str) -> None:
    RoomTable.objects.create(room=room, number=1)
    tables = f"/r/{room.slug}/manage/tables"
    assert boss.get(f"{tables}/1/qr.svg").status_code == 200  # the URL as the app makes it
    with override_settings(DEBUG=False):
        assert boss.get(f"{tables}/{number}/").status_code == 404
        assert boss.get(f"{tables}/{number}/qr.svg").status_code == 404
        assert boss.post(f"{tables}/{number}/", {"number": "5"}).status_code == 404


# ----------------------------------------------------------------------------- the readers


@given(st.integers(), st.integers(-5, 5), st.integers(-5, 5))
def test_int_or_none_reads_a_number_only_within_its_range(n: int, lo: int, hi: int) -> None:
    assert int_or_none(str(n), lo, hi) == (n if lo <= n <= hi else None)


@given(st.dates())
def test_date_or_none_reads_a_day_only_within_its_range(day: dt.date) -> None:
    assert date_or_none(day.isoformat()) == (day if FIRST_DAY <= day <= LAST_DAY else None)


@given(st.datetimes(timezones=st.timezones()))
def test_datetime_or_none_never_gives_a_time_out_of_range_in_utc(when: dt.datetime) -> None:
    read = datetime_or_none(when.isoformat())
    if read is not None:
        # The same instant (== would say no for a time in a zone's DST gap or fold:
        # Python never equates those with a time of another zone).
        assert read.timestamp() == when.timestamp()
        assert FIRST_DAY <= read.astimezone(dt.UTC).date() <= LAST_DAY
    elif FIRST_DAY < when.date() < LAST_DAY:
        # Only a day at either end can fall out of range in UTC.
        raise AssertionError(when)
