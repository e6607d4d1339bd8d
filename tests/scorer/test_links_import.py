"""Imports: an import goes into the room whose page it was posted from, never shows or
leads to a table the importer did not hold already (an export file is no key to the
live table), and an imported table stays out of the room's books (the dashboard,
today's fees, the day report) until the room's admins take it in."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.roomlog import TABLE_TAKEN_IN, RoomLogEntry
from scorer.models.rooms import Room, default_room
from scorer.services import books as book
from scorer.services import calendar
from scorer.services.day import open_tables
from scorer.services.export import table_json
from tests.factories import NAMES, by_tiles, make_room, make_table, member_client, play

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def played(room: Room, names: Sequence[str] = NAMES, close: bool = False) -> GameSession:
    """A table with a fee on every win (2 points to the room), three wins."""
    fee = {"mode": "win_fixed", "amount": 2}
    s = make_table("mcr", names, room=room, fee=fee, seated=True)
    play(s, [by_tiles(i, i + 1) for i in range(3)])
    if close:
        s.close("老王")
    s.refresh_from_db()
    assert s.room_take() == 6
    return s


def send(client: Client, url: str, data: dict[str, Any], **form: str) -> Any:
    upload = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    upload.name = "table.json"
    return client.post(url, {"file": upload, **form}, **EN)


def made_by(response: Any) -> GameSession:
    assert response.status_code == 302, response.content.decode()[:300]
    code = re.fullmatch(r"/s/([A-Za-z0-9_-]+)/", response["Location"])
    assert code is not None, response["Location"]
    return GameSession.objects.get(code=code.group(1))


@pytest.fixture
def rooms() -> tuple[Room, Room]:
    default_room()
    return make_room("east"), make_room("west")


def test_the_import_form_posts_to_its_rooms_own_url(rooms: tuple[Room, Room]) -> None:
    east, west = rooms
    for room in (east, west, default_room()):
        page = Client().get(reverse("scorer:room", args=[room.slug])).content.decode()
        url = reverse("scorer:room_import", args=[room.slug])
        assert f'action="{url}" enctype="multipart/form-data"' in page
        assert f'action="{reverse("scorer:import")}"' not in page


def test_an_import_goes_into_the_room_it_was_posted_from(rooms: tuple[Room, Room]) -> None:
    east, west = rooms
    data = table_json(played(east))
    phone = Client()
    copy = made_by(send(phone, reverse("scorer:room_import", args=[west.slug]), data))
    assert copy.room == west and copy.imported_at is not None and not copy.in_books
    assert copy.tallies() == data["tallies"]
    # Its players are west's: offered on west's start page, not on the default room's.
    assert set(west.players.values_list("name", flat=True)) == set(NAMES)
    assert not default_room().players.exists()
    west_page = phone.get(reverse("scorer:room", args=[west.slug])).content.decode()
    assert reverse("scorer:session", args=[copy.code]) in west_page  # this phone's table
    # The site's own /s/import keeps importing into the default room.
    other = made_by(send(phone, reverse("scorer:import"), data))
    assert other.room == default_room() and not other.in_books


def test_an_export_file_is_no_key_to_the_live_table(rooms: tuple[Room, Room]) -> None:
    east, _ = rooms
    live = played(east)
    data = table_json(live)
    stranger = Client()
    answer = send(stranger, reverse("scorer:room_import", args=[east.slug]), data)
    page = html.unescape(answer.content.decode())
    assert answer.status_code == 200 and not answer.has_header("Location")
    assert "This table is already here" in page and "Nothing was imported" in page
    assert live.code not in page and "Open it" not in page
    assert "1 copy was not opened on this phone" in page
    # The second copy, chosen: a new table, its own link; still never the live one's.
    again = send(stranger, reverse("scorer:room_import", args=[east.slug]), data,
                 copy_of=live.origin)  # fmt: skip
    copy = made_by(again)
    assert copy.pk != live.pk and live.code not in again.content.decode()
    assert GameSession.objects.filter(origin=live.origin).count() == 2
    # Its players, at that table, hold it: the answer links it, and only it.
    players = Client()
    players.get(reverse("scorer:session", args=[live.code]))
    page = send(players, reverse("scorer:room_import", args=[east.slug]), data).content.decode()
    assert reverse("scorer:session", args=[live.code]) in page
    assert copy.code not in page and "1 copy was not opened on this phone" in page


def test_another_rooms_copy_is_neither_found_nor_named(rooms: tuple[Room, Room]) -> None:
    east, west = rooms
    live = played(east)
    phone = Client()
    phone.get(reverse("scorer:session", args=[live.code]))  # (even its own players)
    answer = send(phone, reverse("scorer:room_import", args=[west.slug]), table_json(live))
    copy = made_by(answer)  # west has no such table: imported there
    assert copy.room == west and live.code not in answer.content.decode()


def test_an_imported_table_stays_out_of_the_books_until_taken_in(
    rooms: tuple[Room, Room],
) -> None:
    east, west = rooms
    boss = member_client(east, "east-boss", shown="老板")
    west_boss = member_client(west, "west-boss")
    here = played(east)  # played in the room: in its books
    data = table_json(played(west, ["甲", "乙", "丙", "丁"]))
    imported = made_by(send(Client(), reverse("scorer:room_import", args=[east.slug]), data))

    def books() -> tuple[set[int], int, set[int]]:
        day = book.books(east, calendar.today(east))
        report = {r.session_id for r in day.rows}
        return {t.session.pk for t in open_tables(east)}, day.total.points, report

    assert books() == ({here.pk}, 6, {here.pk})
    dashboard = boss.get(reverse("scorer:manage", args=[east.slug]), **EN).content.decode()
    assert f'id="open-{here.code}"' in dashboard and f'id="open-{imported.code}"' not in dashboard
    assert f'id="imported-{imported.code}"' in dashboard
    assert "1 imported table, not in the books" in html.unescape(dashboard)
    report = boss.get(reverse("scorer:manage_report", args=[east.slug]), **EN)
    assert "甲" not in report.content.decode("utf-8-sig")

    take_in = reverse("scorer:manage_take_in", args=[east.slug, imported.code])
    # Nobody else takes it in: a phone is sent to sign in, another room's admin 404s.
    assert Client().post(take_in).status_code == 302
    assert west_boss.post(take_in).status_code == 404
    assert (
        west_boss.post(
            reverse("scorer:manage_take_in", args=[west.slug, imported.code])
        ).status_code
        == 404
    )
    assert books() == ({here.pk}, 6, {here.pk})

    assert boss.post(take_in).status_code == 302
    imported.refresh_from_db()
    assert imported.in_books and imported.taken_in_by == "老板"
    assert imported.imported_at is not None  # still marked imported
    assert books() == ({here.pk, imported.pk}, 12, {here.pk, imported.pk})
    report = boss.get(reverse("scorer:manage_report", args=[east.slug]), **EN)
    assert "甲" in report.content.decode("utf-8-sig")
    dashboard = boss.get(reverse("scorer:manage", args=[east.slug]), **EN).content.decode()
    assert f'id="imported-{imported.code}"' not in dashboard
    # The room's log says who took it in (once: twice is once).
    boss.post(take_in)
    assert book.books(east, calendar.today(east)).total.points == 12
    (entry,) = RoomLogEntry.objects.filter(room=east, action=TABLE_TAKEN_IN)
    assert entry.user_name == "老板" and entry.data["session"] == imported.code


def test_a_closed_imported_table_waits_on_the_dashboard_too(rooms: tuple[Room, Room]) -> None:
    east, west = rooms
    boss = member_client(east, "east-boss")
    data = table_json(played(west, close=True))
    imported = made_by(send(Client(), reverse("scorer:room_import", args=[east.slug]), data))
    assert imported.closed_at is not None
    dashboard = boss.get(reverse("scorer:manage", args=[east.slug]))
    page = dashboard.content.decode()
    assert f'id="imported-{imported.code}"' in page
    assert reverse("scorer:manage_take_in", args=[east.slug, imported.code]) in page
