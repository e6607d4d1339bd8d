"""Every room-scoped URL (every route under /r/<slug>/manage/, found in the URL
configuration, so a page added later is covered without being listed here): an
anonymous visitor gets the sign-in page, another room's admin a 404 (not a 403
that would say the room exists), this room's admin the page; and a row of another
room addressed through one's own room is a 404 as well."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scorer.models.rooms import Room
from tests.factories import make_room, signed_in
from tests.support.isolation import PREFIX, fill, room_routes, rows_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def rooms() -> tuple[Room, dict[str, Any], Room, dict[str, Any]]:
    east, west = make_room("east"), make_room("west")
    return east, rows_of(east, "east"), west, rows_of(west, "west")


def test_the_room_pages_are_found(rooms: Any) -> None:
    routes = room_routes()
    for name in (
        "configs/",
        "configs/<num:pk>/",
        "configs/<num:pk>/history",
        "players/",
        "members/",
    ):
        assert PREFIX + name in routes
    assert len(routes) >= 12


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_room_page_is_the_rooms_admins_only(rooms: Any, method: str) -> None:
    east, east_rows, west, west_rows = rooms
    anonymous = Client()
    west_owner = signed_in("west-owner")
    east_owner = signed_in("east-owner")
    for route in room_routes():
        url = fill(route, east.slug, east_rows)
        response = getattr(anonymous, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
        assert getattr(west_owner, method)(url).status_code == 404, url
        # West's rows through west's own room are west's; east's rows through it are not.
        crossed = fill(route, west.slug, east_rows)
        if crossed != fill(route, west.slug, west_rows):
            # (A GET of a POST-only page is refused before any row is looked up: 405
            # whatever the key, which says nothing about east's rows.)
            allowed = (404,) if method == "post" else (404, 405)
            assert getattr(west_owner, method)(crossed).status_code in allowed, crossed
        if method == "get":
            assert east_owner.get(url).status_code in (200, 405), url


def test_nothing_of_another_room_changes(rooms: Any) -> None:
    east, east_rows, _, _ = rooms
    before = {
        "configs": list(east.configs.values_list("pk", "order", "enabled", "name", "params")),
        "players": list(east.players.values_list("pk", "name")),
        "members": list(east.members.values_list("pk", "role")),
        "invites": list(east.invites.values_list("pk", "used_at")),
    }
    west_owner = signed_in("west-owner")
    for route in room_routes():
        west_owner.post(fill(route, east.slug, east_rows), {"name": "x", "display_name": "x"})
        west_owner.post(fill(route, "west", east_rows), {"name": "x", "display_name": "x"})
    after = {
        "configs": list(east.configs.values_list("pk", "order", "enabled", "name", "params")),
        "players": list(east.players.values_list("pk", "name")),
        "members": list(east.members.values_list("pk", "role")),
        "invites": list(east.invites.values_list("pk", "used_at")),
    }
    assert after == before
