"""What a signed-in admin is answered is never cached, and an admin unused for 14 days
is signed out, the phone keeping its tables.

Every page under a room's /manage/ (found in the URL configuration, as the
isolation test finds them), the accounts' pages and an invitation's, and any
page a signed-in user opens, send `Cache-Control: private, no-store`; the tallies'
poll keeps its ETag and 304 for everyone (tests/site/test_caching.py checks every
URL against docs/security.md)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.invites import RoomInvite
from scorer.models.rooms import Room
from scorer.web import signin
from tests.factories import PASSWORD, SHORT_NAMES, make_member, make_room, make_table, signed_in
from tests.pages import html
from tests.support.isolation import fill, room_routes, rows_of

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


@pytest.fixture
def room() -> tuple[Room, dict[str, Any]]:
    east = make_room("east")
    return east, rows_of(east, "east")


def test_every_admin_page_and_download_is_private_no_store(room: Any) -> None:
    east, rows = room
    boss = signed_in("east-owner")
    urls = [fill(route, east.slug, rows) for route in room_routes()]
    assert any(u.endswith("report.csv") for u in urls) and any("qr-sheet" in u for u in urls)
    assert any(u.endswith("qr.svg") for u in urls) and any("members/" in u for u in urls)
    for url in urls:
        for method in ("get", "post"):
            answer = getattr(boss, method)(url)
            assert answer["Cache-Control"] == "private, no-store", (method, url)
    # Also to a visitor who is not signed in (the sign-in redirect says nothing else).
    for url in urls:
        assert Client().get(url)["Cache-Control"] == "private, no-store", url


def test_the_accounts_pages_and_an_invitation_are_private(room: Any) -> None:
    east, rows = room
    invite: RoomInvite = rows["invite"]
    anonymous = Client()
    for url in (reverse("scorer:login"), reverse("scorer:invite", args=[invite.token])):
        assert anonymous.get(url)["Cache-Control"] == "private, no-store", url
    boss = signed_in("east-owner")
    make_member(make_room("west"), "east-owner")  # two rooms: the list, not a redirect
    for url in (reverse("scorer:my_rooms"), reverse("scorer:invite", args=[invite.token])):
        answer = boss.get(url)
        assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"
    assert boss.post(reverse("scorer:logout"))["Cache-Control"] == "private, no-store"


def test_a_signed_in_user_gets_no_page_to_keep_and_phones_keep_their_etags(room: Any) -> None:
    east, rows = room
    code = rows["code"]
    boss = signed_in("east-owner")
    for name in ("session", "final", "player"):
        args = [east.players.first().slug] if name == "player" else [code]  # type: ignore[union-attr]
        answer = boss.get(reverse(f"scorer:{name}", args=args))
        assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store", name
    assert (
        boss.get(reverse("scorer:room", args=[east.slug]))["Cache-Control"] == "private, no-store"
    )
    # A phone (no account) polling the same table: its ETag and 304 as before.
    phone = Client()
    phone.get(reverse("scorer:session", args=[code]))
    first = phone.get(reverse("scorer:tallies", args=[code]))
    assert "no-store" not in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    again = phone.get(reverse("scorer:tallies", args=[code]), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    page = phone.get(reverse("scorer:session", args=[code]))
    assert page["Cache-Control"] == "private, no-store"  # a page: the phone's form token
    qr = phone.get(reverse("scorer:qr", args=[code]))
    assert "max-age" in qr["Cache-Control"] and "no-store" not in qr["Cache-Control"]
    # The signed-in admin's own poll is still answered 304 (its page sends the ETag).
    polled = boss.get(reverse("scorer:tallies", args=[code]), HTTP_IF_NONE_MATCH=first["ETag"])
    assert polled.status_code == 304


def set_times(client: Client, **times: float) -> None:
    session = client.session
    for key, value in times.items():
        session[key] = value
    session.save()


def test_an_admin_unused_for_14_days_is_signed_out_and_the_phone_keeps_its_tables() -> None:
    east = make_room("east")
    make_member(east, "boss")
    table = make_table("mcr", SHORT_NAMES, room=east, seated=True)
    client = Client()
    client.get(reverse("scorer:session", args=[table.code]))  # the phone's table
    client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    signed_at = client.session[signin.SIGNED_IN_AT]
    assert abs(signed_at - time.time()) < 60 and client.session[signin.USED_AT] == signed_at
    manage = reverse("scorer:manage", args=[east.slug])
    assert client.get(manage).status_code == 200
    # 15 days without use.
    set_times(client, **{signin.USED_AT: time.time() - 15 * DAY})
    key = client.session.session_key
    answer = client.get(manage, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert answer.redirect_chain[0][0].startswith(reverse("scorer:login"))
    assert "signed out after 14 days without use" in html(answer)
    assert client.session.session_key != key  # a new session key, the same phone
    assert signin.SIGNED_IN_AT not in client.session
    home = html(client.get(reverse("scorer:room", args=[east.slug])))
    assert reverse("scorer:session", args=[table.code]) in home  # its tables, kept
    # Signing in again: the room's pages open.
    client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    assert client.get(manage).status_code == 200


def test_each_use_starts_the_14_days_again() -> None:
    east = make_room("east")
    make_member(east, "boss")
    client = signed_in("boss")
    manage = reverse("scorer:manage", args=[east.slug])
    signed_at = client.session[signin.SIGNED_IN_AT] - 20 * DAY  # signed in 20 days ago
    set_times(client, **{signin.SIGNED_IN_AT: signed_at, signin.USED_AT: time.time() - 13 * DAY})
    assert client.get(manage).status_code == 200  # used 13 days ago: still signed in
    used = client.session[signin.USED_AT]
    assert abs(used - time.time()) < 60  # used now: 14 more days
    assert client.session[signin.SIGNED_IN_AT] == signed_at  # the sign-in time stays
    # Within minutes the last use is not written again (no write per poll).
    set_times(client, **{signin.USED_AT: used - 60})
    client.get(manage)
    assert client.session[signin.USED_AT] == used - 60


def test_the_limits() -> None:
    assert signin.ADMIN_IDLE.days == 14
    now = 1_000_000_000.0
    session: dict[str, Any] = {signin.USED_AT: now - 14 * DAY + 1}
    assert not signin.idle(session, now)  # type: ignore[arg-type]
    session[signin.USED_AT] = now - 14 * DAY - 1
    assert signin.idle(session, now)  # type: ignore[arg-type]
    assert not signin.idle({}, now)  # type: ignore[arg-type]
