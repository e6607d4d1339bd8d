"""Destructive admin actions ask for a second tap, on the server.

Removing an admin, retiring a table, a new QR code and merging two players: the
first request answers a question (a page without JS, a partial with htmx) and
changes nothing; only a POST carrying the confirmation acts.  A removed admin sees
the app's own page naming the room, not the 404 meant for a wrong link."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorer.models.players import Player
from scorer.models.roomlog import RoomLogEntry
from scorer.models.rooms import Room, RoomMember
from tests.factories import make_member, make_room, make_table, member_client
from tests.pages import html, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def room() -> Room:
    room = make_room("laowang", "老王棋牌室")
    room.add_tables(1, 4)
    for names in (["老王", "小李", "阿强", "美玲"], ["王哥", "小李", "阿强", "美玲"]):
        make_table("mcr", names, room=room, seated=True)
    return room


def signed(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner(room: Room) -> Client:
    return member_client(room, "boss", shown="老板")


@pytest.fixture
def clerk(room: Room) -> RoomMember:
    return make_member(room, "clerk", RoomMember.ADMIN, "小张")


@dataclass
class Destructive:
    """One action: its URL and form, its confirmation, and what it changes."""

    name: str
    url: Callable[[Room, RoomMember], str]
    data: Callable[[Room], dict[str, str]]
    confirm: Callable[[Room], str]
    state: Callable[[Room], Any]


def players(room: Room) -> dict[str, str]:
    return {
        "gone": str(room.players.get(name="王哥").pk),
        "keep": str(room.players.get(name="老王").pk),
    }


ACTIONS = [
    Destructive(
        "remove an admin",
        lambda room, clerk: reverse("scorer:manage_member_remove", args=[room.slug, clerk.pk]),
        lambda room: {},
        lambda room: "yes",
        lambda room: sorted(room.members.values_list("pk", flat=True)),
    ),
    Destructive(
        "retire a table",
        lambda room, clerk: reverse("scorer:manage_table_retire", args=[room.slug, 3]),
        lambda room: {},
        lambda room: "yes",
        lambda room: room.tables.get(number=3).retired_at,
    ),
    Destructive(
        "a new QR code",
        lambda room, clerk: reverse("scorer:manage_table_new_code", args=[room.slug, 2]),
        lambda room: {},
        lambda room: room.tables.get(number=2).qr_version,
        lambda room: room.tables.get(number=2).code,
    ),
    Destructive(
        "merge two players",
        lambda room, clerk: reverse("scorer:manage_players_merge", args=[room.slug]),
        players,
        lambda room: "yes",
        lambda room: sorted(room.players.values_list("name", flat=True)),
    ),
]


@pytest.mark.parametrize("action", ACTIONS, ids=[a.name for a in ACTIONS])
def test_the_first_tap_asks_and_only_the_confirmation_acts(
    room: Room, owner: Client, clerk: RoomMember, action: Destructive
) -> None:
    url, before = action.url(room, clerk), action.state(room)
    data = action.data(room)
    asked = [owner.post(url, data), owner.post(url, data)]  # a double tap asks twice
    if "merge" not in action.name and "remove" not in action.name:
        asked.append(owner.get(url))  # a link's GET asks too
    for response in asked:
        assert response.status_code == 200
        page = html(response)
        assert "<html" in page and 'name="confirm"' in page
        assert f'value="{action.confirm(room)}"' in page
        assert action.state(room) == before
    assert not RoomLogEntry.objects.exists()
    # A wrong confirmation does nothing either (a new code confirms the code it saw).
    if action.confirm(room) != "yes":
        owner.post(url, {**data, "confirm": "0" * 12})
        assert action.state(room) == before
    response = owner.post(url, {**data, "confirm": action.confirm(room)})
    assert response.status_code == 302
    assert action.state(room) != before
    assert RoomLogEntry.objects.count() == 1


@pytest.mark.parametrize("action", ACTIONS, ids=[a.name for a in ACTIONS])
def test_with_htmx_the_question_is_swapped_in(
    room: Room, owner: Client, clerk: RoomMember, action: Destructive
) -> None:
    before = action.state(room)
    response = owner.post(action.url(room, clerk), action.data(room), HTTP_HX_REQUEST="true")
    page = html(response)
    assert response.status_code == 200
    assert "<html" not in page and page.lstrip().startswith('<section class="confirm-box"')
    assert 'name="confirm"' in page and "csrfmiddlewaretoken" in page
    assert action.state(room) == before


def test_the_pages_ask_in_place(room: Room, owner: Client, clerk: RoomMember) -> None:
    """The buttons of the first tap target their own row or box with htmx, and work
    as plain links and forms without it."""
    tables = html(owner.get(reverse("scorer:manage_tables", args=[room.slug])))
    retire = reverse("scorer:manage_table_retire", args=[room.slug, 3])
    assert f'href="{retire}" hx-get="{retire}" hx-target="#table-3"' in tables
    members = html(owner.get(reverse("scorer:manage_members", args=[room.slug])))
    remove = reverse("scorer:manage_member_remove", args=[room.slug, clerk.pk])
    assert f'action="{remove}" hx-post="{remove}" hx-target="#member-{clerk.pk}"' in members
    assert f'id="member-{clerk.pk}"' in members
    merge = reverse("scorer:manage_players_merge", args=[room.slug])
    page = html(owner.get(reverse("scorer:manage_players", args=[room.slug])))
    assert f'hx-post="{merge}" hx-target="#merge-box"' in page and 'id="merge-box"' in page


def test_a_stale_confirmation_replaces_the_code_once(room: Room, owner: Client) -> None:
    """Two admins confirm a new code for the same table at once: one new code."""
    url = reverse("scorer:manage_table_new_code", args=[room.slug, 2])
    seen = room.tables.get(number=2).qr_version
    owner.post(url, {"confirm": seen})
    code = room.tables.get(number=2).code
    response = owner.post(url, {"confirm": seen}, follow=True)
    assert "这张桌刚被改过" in text(response)
    assert room.tables.get(number=2).code == code
    assert room.tables.get(number=2).old_codes.count() == 1


def test_an_invalid_first_tap_with_htmx_goes_back_to_the_whole_page(
    room: Room, owner: Client
) -> None:
    """A merge of one name with itself is refused at once: with htmx the phone goes
    back to the list (a client redirect, not a page swapped into the box)."""
    same = str(room.players.get(name="王哥").pk)
    url = reverse("scorer:manage_players_merge", args=[room.slug])
    response = owner.post(url, {"gone": same, "keep": same}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("scorer:manage_players", args=[room.slug])
    assert Player.objects.filter(pk=same).exists()


def test_a_removed_admin_sees_the_rooms_own_page(
    room: Room, owner: Client, clerk: RoomMember
) -> None:
    url = reverse("scorer:manage_member_remove", args=[room.slug, clerk.pk])
    owner.post(url, {"confirm": "yes"})
    assert not RoomMember.objects.filter(pk=clerk.pk).exists()
    removed = signed(clerk.user)
    for page in ("manage", "manage_tables", "manage_log", "manage_members"):
        response = removed.get(reverse(f"scorer:{page}", args=[room.slug]))
        assert response.status_code == 403, page
        words = text(response)
        assert "你已不再是 老王棋牌室 的管理员" in words
        assert "牌局只能通过它自己的链接打开" not in words  # not the wrong-link 404
    # Nothing changes for them: a POST is answered the same way.
    response = removed.post(
        reverse("scorer:manage_table_retire", args=[room.slug, 1]), {"confirm": "yes"}
    )
    assert response.status_code == 403 and room.tables.get(number=1).in_use
    # Anyone who never ran the room, and another room, still learn nothing.
    stranger = signed(User.objects.create_user("stranger"))
    assert stranger.get(reverse("scorer:manage", args=[room.slug])).status_code == 404
    other = make_room("other")
    assert removed.get(reverse("scorer:manage", args=[other.slug])).status_code == 404
    # Invited again, they run the room again.
    RoomMember.objects.create(room=room, user=clerk.user)
    assert removed.get(reverse("scorer:manage", args=[room.slug])).status_code == 200
