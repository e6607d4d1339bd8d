"""A room's fixed tables (1号桌, 包间A): the URL in a table's QR code joins its open
session, or starts one from the room's configurations with last time's players
filled in; two phones starting the same table at once end up at one session.  The
start page, a table's QR code and an import all start theirs by seating.start_table."""

from __future__ import annotations

import io
import json
import re
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer.live.broker import MemoryBroker, broker, room_topic
from scorer.models import GameSession
from scorer.models.players import Seat
from scorer.models.rooms import Room, RoomTable
from scorer.services import seating
from scorer.services.export import table_json
from scorer.services.seating import start_at
from tests.factories import make_room, make_table
from tests.pages import html, text, text_of
from tests.support.start import form_data, start

pytestmark = pytest.mark.django_db

NAMES = ["老王", "小李", "阿强", "美玲"]


@pytest.fixture
def table3(room: Room) -> RoomTable:
    return RoomTable.objects.create(room=room, number=3)


def table_url(t: RoomTable) -> str:
    return reverse("scorer:table", args=[t.room.slug, t.code])


def test_a_table_with_nothing_open_shows_the_rooms_start_page_for_it(
    client: Client, table3: RoomTable
) -> None:
    response = client.get(table_url(table3))
    assert response.status_code == 200
    page = html(response)
    assert f'<input type="hidden" name="table" value="{table3.code}">' in page
    assert "3号桌" in text_of(page)  # its label, in the page's language (Chinese first)
    # The room's configurations, the first preselected (the same list as the room's page).
    offered = table3.room.offered_configs()
    assert re.search(rf'<option value="{offered[0].pk}" selected>', page)
    assert page.count("<option value=") >= len(offered)


def test_starting_at_a_table_ties_the_session_to_it_and_the_phone_remembers_it(
    client: Client, table3: RoomTable
) -> None:
    response = start(client, table3, NAMES)
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:session", args=[session.code])
    assert session.room_table == table3 and session.room == table3.room
    assert [s.player.room_id for s in session.seats.all()] == [table3.room_id] * 4
    # Scanning the code again joins it; a second phone scanning it joins it too.
    assert client.get(table_url(table3))["Location"] == response["Location"]
    other = Client()
    joined = other.get(table_url(table3))
    assert joined.status_code == 302 and joined["Location"] == response["Location"]
    home = html(other.get(reverse("scorer:room", args=[table3.room.slug])))
    assert response["Location"] in home  # "Your tables" on the phone that scanned it


def test_the_next_session_at_a_table_starts_with_last_times_players(
    client: Client, table3: RoomTable
) -> None:
    start(client, table3, ["阿珍", "阿强", "大刘"] + ["小美"])
    session = GameSession.objects.get()
    session.close("阿珍")
    page = html(client.get(table_url(table3)))
    for i, name in enumerate(["阿珍", "阿强", "大刘", "小美"]):
        assert re.search(rf'name="name_{i}" value="{name}"', page), name
    # Another table of the room is not prefilled from this one.
    t5 = RoomTable.objects.create(room=table3.room, number=5, name="包间A")
    page = html(client.get(table_url(t5)))
    assert not re.search(r'name="name_0" value=', page) and "包间A" in page


def test_a_second_start_at_an_open_table_joins_it(client: Client, table3: RoomTable) -> None:
    first = start(client, table3, NAMES)
    other = Client()
    second = start(other, table3, ["甲", "乙", "丙", "丁"])  # the page was loaded before
    assert GameSession.objects.count() == 1
    assert second.status_code == 302 and second["Location"] == first["Location"]
    page = text(other.get(second["Location"]))
    assert "另一台手机" in page or "another phone" in page
    assert GameSession.objects.get().players == NAMES


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="threads on one in-memory SQLite database lock each other out (CI runs PostgreSQL)",
)
@pytest.mark.django_db(transaction=True)
def test_two_phones_starting_one_table_at_once_make_one_session() -> None:
    """The table's row lock orders them: without it both would see "none open"."""
    room = Room.open("并发", "race")
    t = RoomTable.objects.create(room=room, number=1)
    config = room.offered_configs()[0]
    rules = get_ruleset(config.ruleset)
    fields = {"ruleset": rules.id, "params": dict(config.params), "players": NAMES}
    barrier = threading.Barrier(2)
    results: list[bool] = []

    def go() -> None:
        try:
            barrier.wait()
            results.append(start_at(RoomTable.objects.get(pk=t.pk), **fields)[1])
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [False, True]
    assert GameSession.objects.filter(room_table=t).count() == 1


def test_an_edited_configuration_starts_a_tables_session_with_the_edit(
    client: Client, table3: RoomTable
) -> None:
    config = table3.room.offered_configs()[0]
    base = next(p for p in get_ruleset(config.ruleset).params if p.type == "int")
    old = config.params[base.name]
    config.params = {**config.params, base.name: old + 2}
    config.save()
    page = html(client.get(table_url(table3)))
    assert re.search(rf'name="param_{base.name}" value="{old + 2}"', page)
    start(client, table3, NAMES, config)
    assert GameSession.objects.get().params[base.name] == old + 2


def test_a_tables_code_is_its_rooms_only(client: Client, table3: RoomTable) -> None:
    other = Room.open("别家", "other")
    assert client.get(reverse("scorer:table", args=[other.slug, table3.code])).status_code == 404
    assert client.get(reverse("scorer:table", args=[table3.room.slug, "nope"])).status_code == 404
    # Posting this table's code to another room's start starts nothing.
    data = form_data(other.offered_configs()[0], NAMES, table=table3.code)
    assert client.post(reverse("scorer:room_create", args=[other.slug]), data).status_code == 404
    assert not GameSession.objects.exists()


def test_a_bad_start_at_a_table_keeps_the_table(client: Client, table3: RoomTable) -> None:
    response = start(client, table3, ["老王", "老王", "阿强", "美玲"])
    assert response.status_code == 400
    page = html(response)
    assert f'name="table" value="{table3.code}"' in page
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("flow", ["start page", "fixed table", "import"])
def test_every_way_of_starting_a_table_goes_through_start_table(
    client: Client,
    room: Room,
    flow: str,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The start page, a fixed table's QR code and an imported file each make their
    table by seating.start_table, and so alike: in the room, its seats tied to the
    room's players by name, the room's admin pages told once it commits."""
    made: list[GameSession] = []
    real = seating.start_table

    def spy(*args: Any, **kwargs: Any) -> GameSession:
        made.append(real(*args, **kwargs))
        return made[-1]

    for module in ("scorer.services.seating", "scorer.views.start", "scorer.services.export"):
        monkeypatch.setattr(f"{module}.start_table", spy)
    monkeypatch.setattr("scorer.live.broker._broker", MemoryBroker())
    told: list[int | None] = []
    config = room.offered_configs()[0]
    with broker().subscribe(room_topic(room.pk), told.append):
        if flow == "import":
            elsewhere = make_table("mcr", NAMES, room=make_room("elsewhere"), seated=True)
            upload = io.BytesIO(json.dumps(table_json(elsewhere), ensure_ascii=False).encode())
            upload.name = "table.json"
            url = reverse("scorer:room_import", args=[room.slug])
            with django_capture_on_commit_callbacks(execute=True):
                response = client.post(url, {"file": upload})
        else:
            extra = {"table": RoomTable.objects.create(room=room, number=7).code}
            data = form_data(config, NAMES, **(extra if flow == "fixed table" else {}))
            with django_capture_on_commit_callbacks(execute=True):
                response = client.post(reverse("scorer:room_create", args=[room.slug]), data)
    session = GameSession.objects.get(room=room)
    assert response.status_code == 302 and session.code in response["Location"]
    assert made == [session]
    seats = Seat.objects.filter(session=session).order_by("seat")
    assert [(s.seat, s.player.name, s.player.room_id) for s in seats] == [
        (i, name, room.pk) for i, name in enumerate(NAMES)
    ]
    assert told  # the room's admin pages heard of it
    assert (session.room_table is not None) == (flow == "fixed table")
    assert (session.imported_at is not None) == (flow == "import")
