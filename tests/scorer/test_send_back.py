"""An imported table taken into the books, and sent back out of them (送回).

The lasting case first: a file whose preset says "room:²" (a label of the room it
came from, which no reader may take for one of this room's configurations) is
imported anonymously and taken in; the till, the reports and their CSVs answer.
Then 送回: the books are as they were before the take-in, the room's log says who,
and what the books hold fast (money collected, a closed day) keeps the table in.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorer.models import GameSession
from scorer.models.roomlog import TABLE_SENT_BACK, RoomLogEntry
from scorer.models.rooms import Room
from scorer.money import clock
from scorer.services import books as book
from scorer.services.export import table_json
from scorer.services.taken_in import days_counted
from tests.factories import by_tiles, make_room, make_table, member_client, play

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}
DAY = dt.date(2026, 11, 27)


@pytest.fixture(autouse=True)
def evening_clock() -> Iterator[None]:
    clock.set_now(dt.datetime(2026, 11, 27, 19, 0))
    yield
    clock.set_now(None)


@pytest.fixture
def east() -> Room:
    return make_room("east")


@pytest.fixture
def boss(east: Room) -> Client:
    return member_client(east, "east-boss", shown="老板")


def west_file(preset: str = "room:²") -> dict[str, Any]:
    """A closed table of another room, billed by the hour, its preset said as `preset`."""
    west = make_room("west")
    s = make_table("mcr", ["甲", "乙", "丙", "丁"], room=west, time_fee=HOURLY, seated=True)
    play(s, [by_tiles(1, 2), by_tiles(2, 3)])
    clock.set_now(clock.now() + dt.timedelta(minutes=130))
    s.close("甲")
    data = table_json(s)
    data["preset"] = preset
    return data


def imported(room: Room, data: dict[str, Any]) -> GameSession:
    """The file imported on the room's page by anyone (no sign-in)."""
    upload = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    upload.name = "table.json"
    r = Client().post(reverse("scorer:room_import", args=[room.slug]), {"file": upload}, **EN)
    assert r.status_code == 302, r.content.decode()[:400]
    code = re.fullmatch(r"/s/([A-Za-z0-9_-]+)/", r["Location"])
    assert code is not None
    return GameSession.objects.get(code=code.group(1))


def url(name: str, room: Room, *args: object) -> str:
    return reverse(f"scorer:{name}", args=[room.slug, *args])


def books_of(room: Room, day: dt.date = DAY) -> tuple[Any, ...]:
    """What every page of the room's books shows for the day, as plain values."""
    with translation.override("zh-hans"):
        money = book.books(room, day)
        report = sorted((r.label, r.config, r.rounds, r.points) for r in money.rows)
    return (
        str(money.total.charged), str(money.total.collected), len(money.rows),
        report, money.total.points,
    )  # fmt: skip


def pages_answer(boss: Client, room: Room) -> None:
    """The till, the reports and their CSVs, for the day and its month: all 200."""
    day = DAY.isoformat()
    for path in (
        url("manage_till", room) + f"?day={day}",
        url("manage_till_report", room) + f"?day={day}",
        url("manage_till_report", room) + f"?day={day}&format=csv",
        url("manage_till_report", room) + f"?day={day}&period=month",
        url("manage_till_report", room) + f"?day={day}&period=month&format=csv",
        url("manage_report", room) + f"?day={day}",
        url("manage", room),
    ):
        r = boss.get(path)
        assert r.status_code == 200, (path, r.status_code)


def test_a_preset_from_another_room_is_a_label_and_the_books_answer(
    east: Room, boss: Client
) -> None:
    s = imported(east, west_file("room:²"))
    assert s.preset == "room:²" and not s.in_books
    before = books_of(east)
    assert boss.post(url("manage_take_in", east, s.code)).status_code == 302
    s.refresh_from_db()
    assert s.in_books
    pages_answer(boss, east)
    after = books_of(east)
    assert after != before  # the table counts now: 2 hours 10 at 30 an hour
    assert after[0] == "75.00" and after[2] == 1
    # Its label is its ruleset, never a configuration of this room read off the file.
    assert [r[1] for r in after[3]] == ["mcr"]


@pytest.mark.parametrize("preset", ["room:1", "room:١", "room:99999999999999999999999", "成都"])
def test_any_preset_a_file_says_is_kept_and_never_read(
    east: Room, boss: Client, preset: str
) -> None:
    s = imported(east, west_file(preset))
    boss.post(url("manage_take_in", east, s.code))
    pages_answer(boss, east)
    labels = {r.config for r in book.books(east, DAY).rows}
    assert labels == {"mcr"}  # not this room's configuration 1, whatever it is


def test_a_preset_longer_than_a_label_is_refused_with_its_field(east: Room) -> None:
    data = west_file("room:" + "9" * 40)
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "table.json"
    before = GameSession.objects.count()
    r = Client().post(
        reverse("scorer:room_import", args=[east.slug]), {"file": upload}, **EN, follow=True
    )
    assert r.status_code == 200 and "preset is longer than 32 characters" in r.content.decode()
    assert GameSession.objects.count() == before


def test_sending_back_leaves_the_books_as_before_the_take_in(east: Room, boss: Client) -> None:
    s = imported(east, west_file())
    before = books_of(east)
    version = s.version
    boss.post(url("manage_take_in", east, s.code))
    s.refresh_from_db()
    assert s.version > version  # the room's pages hear of a take-in
    assert books_of(east) != before
    dashboard = boss.get(url("manage", east), **EN).content.decode()
    assert f'id="taken-in-{s.code}"' in dashboard

    send_back = url("manage_send_back", east, s.code)
    # The first tap asks, and changes nothing.
    ask = boss.get(send_back, **EN)
    assert ask.status_code == 200 and "back out of the books" in ask.content.decode()
    assert boss.post(send_back).status_code == 200
    s.refresh_from_db()
    assert s.in_books
    # The second tap sends it back: the books are as they were, the log says who.
    r = boss.post(send_back, {"confirm": "yes"})
    assert r.status_code == 302
    s.refresh_from_db()
    assert not s.in_books and s.taken_in_by == ""
    assert books_of(east) == before
    (entry,) = RoomLogEntry.objects.filter(room=east, action=TABLE_SENT_BACK)
    assert entry.user_name == "老板" and entry.data["session"] == s.code
    dashboard = boss.get(url("manage", east), **EN).content.decode()
    assert f'id="imported-{s.code}"' in dashboard  # waiting again, to be taken in again
    # Twice is once.
    boss.post(send_back, {"confirm": "yes"})
    assert RoomLogEntry.objects.filter(room=east, action=TABLE_SENT_BACK).count() == 1
    pages_answer(boss, east)


def test_only_the_rooms_admins_send_back(east: Room, boss: Client) -> None:
    s = imported(east, west_file())
    boss.post(url("manage_take_in", east, s.code))
    west = Room.objects.get(slug="west")
    west_boss = member_client(west, "west-boss")
    for client, path, status in (
        (Client(), url("manage_send_back", east, s.code), 302),  # to sign in
        (west_boss, url("manage_send_back", east, s.code), 404),
        (west_boss, url("manage_send_back", west, s.code), 404),
    ):
        assert client.post(path, {"confirm": "yes"}).status_code == status
    s.refresh_from_db()
    assert s.in_books


def test_a_table_whose_money_was_collected_stays(east: Room, boss: Client) -> None:
    s = imported(east, west_file())
    boss.post(url("manage_take_in", east, s.code))
    boss.post(url("manage_till_table", east, s.code), {"seat_0": "cash"})
    assert book.books(east, DAY).total.collected > 0
    held = books_of(east)
    r = boss.post(url("manage_send_back", east, s.code), {"confirm": "yes"}, **EN, follow=True)
    assert "refund it on the till first" in r.content.decode()
    s.refresh_from_db()
    assert s.in_books and books_of(east) == held
    assert not RoomLogEntry.objects.filter(room=east, action=TABLE_SENT_BACK).exists()


def test_a_table_on_a_closed_day_stays(east: Room, boss: Client) -> None:
    s = imported(east, west_file())
    boss.post(url("manage_take_in", east, s.code))
    assert DAY in days_counted(s)
    boss.post(url("manage_till", east), {"day": DAY.isoformat(), "action": "close"})
    held = books_of(east)
    r = boss.post(url("manage_send_back", east, s.code), {"confirm": "yes"}, **EN, follow=True)
    assert "a day already closed" in r.content.decode()
    s.refresh_from_db()
    assert s.in_books and books_of(east) == held


def test_a_table_played_here_is_not_sent_back(east: Room, boss: Client) -> None:
    s = make_table("mcr", room=east, seated=True)
    r = boss.post(url("manage_send_back", east, s.code), {"confirm": "yes"}, **EN, follow=True)
    assert "not in the books" in r.content.decode()
    s.refresh_from_db()
    assert s.in_books
