"""What a cache may keep, as docs/security.md says it, checked over every URL.

The rule is read from docs/security.md ("What a cache may keep"), compared with
scorer/web/caching.py's, and checked against the answers to every route of
scorer/urls.py (found in the URL configuration: a route added later is checked
without being listed here), filled with a room's rows (tests/room_places.py) and
asked by the room's signed-in owner and by a phone (no account), by GET and then
by POST.  An answer that may be kept carries an ETag, and the same GET sending it
back is answered 304.  The live streams say `nosniff` on both paths: the Django
view and the ASGI app that serves them ahead of Django.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorer.models.rooms import default_room
from scorer.web import caching
from tests.factories import make_room, phone
from tests.room_places import Place, fill, place, scorer_routes

DOCS = Path(settings.BASE_DIR) / "docs" / "security.md"
SECTION = "## What a cache may keep"
KEPT = ("GET", "HEAD")


def documented() -> tuple[dict[str, str], str]:
    """docs/security.md's table: each route named there with its Cache-Control, and
    the Cache-Control of every other route."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rules: dict[str, str] = {}
    default = ""
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].startswith("`"):
            continue
        header = cells[1].strip("`")
        names = re.findall(r"`([a-z_]+)`", cells[2])
        if names:
            rules.update(dict.fromkeys(names, header))
        else:
            assert cells[2] == "every other route", line
            default = header
    assert rules and default, "docs/security.md has lost its table"
    return rules, default


RULES, DEFAULT = documented()


def expected(view_name: str, method: str, status: int) -> str:
    """The Cache-Control docs/security.md gives this answer."""
    if method not in KEPT or status >= 400:
        return DEFAULT
    name = view_name.removeprefix("scorer:")
    return RULES.get(name, DEFAULT) if view_name.startswith("scorer:") else DEFAULT


def directives(header: str) -> set[str]:
    return {d.strip() for d in header.split(",") if d.strip()}


def test_the_docs_and_the_code_say_one_rule() -> None:
    assert {f"scorer:{name}": header for name, header in RULES.items()} == caching.RULES
    assert DEFAULT == caching.PRIVATE == "private, no-store"
    names = set(scorer_routes().values())
    assert set(RULES) <= names, set(RULES) - names  # a route renamed: the docs say so
    # What is the same for anyone holding a table's link is kept by the phone only.
    for name in ("tallies", "export", "final_svg", "api_session"):
        assert directives(RULES[name]) == {"private", "no-cache"}, name


@pytest.fixture
def north() -> Place:
    default_room()  # the site's `/` serves another room
    return place(make_room("north"), "north")


def urls(p: Place) -> list[tuple[str, str]]:
    """Every route's URLs for the room, with the route's view name."""
    return [(f"scorer:{name}", url) for route, name in scorer_routes().items()
            for url in fill(route, p)]  # fmt: skip


def check(client: Client, method: str, url: str, name: str) -> Any:
    response = getattr(client, method.lower())(url)
    want = expected(name, method, response.status_code)
    got = response.get("Cache-Control", "")
    assert directives(got) == directives(want), (
        f"{method} {url} ({response.status_code}): {got!r}, docs/security.md says {want!r}"
    )
    return response


@pytest.mark.django_db
def test_every_url_answered_to_a_signed_in_admin_and_a_phone_follows_the_docs(
    north: Place,
) -> None:
    boss = north.boss()
    anyone = phone()
    anyone.get(reverse("scorer:session", args=[north.table.code]))  # the phone holds it
    every = urls(north)
    assert len(every) > 80
    kept: set[str] = set()
    for client in (boss, anyone):
        for name, url in every:
            response = check(client, "GET", url, name)
            if "no-store" in response.get("Cache-Control", "") or response.streaming:
                continue
            kept.add(name)
            if response.status_code != 200:
                continue
            assert "HX-Request" in response["Vary"], url  # htmx's part is not the page
            # Kept: with its ETag, and the same GET sending it back is answered 304 (by
            # htmx too; a whole page carries a new form token each time: its part only).
            ways = [{"HTTP_HX_REQUEST": "true"}]
            if b"csrfmiddlewaretoken" not in response.content:
                ways.append({})
            for extra in ways:
                etag = client.get(url, **extra)["ETag"]
                again = client.get(url, HTTP_IF_NONE_MATCH=etag, **extra)
                assert again.status_code == 304 and again.content == b"", (url, extra)
                assert again["Cache-Control"] == response["Cache-Control"], url
                assert again["ETag"] == etag, url
    # Every route the docs name was answered 200 and kept (none hides behind a 404).
    assert kept == {f"scorer:{name}" for name in RULES}, kept
    # Then every route posted to (what follows a POST is never kept), signing out last.
    logout = reverse("scorer:logout")
    for client in (anyone, boss):
        for name, url in [*[u for u in every if u[1] != logout], ("scorer:logout", logout)]:
            check(client, "POST", url, name)


@pytest.mark.django_db
def test_an_admins_pages_and_downloads_are_never_kept(north: Place) -> None:
    """The answers the issue found kept: each one checked by name, to the signed-in owner."""
    boss = north.boss()
    code = north.table.code
    for url in (reverse("scorer:ledger", args=[code]), reverse("scorer:session", args=[code]),
                reverse("scorer:manage_report", args=[north.room.slug])):  # fmt: skip
        assert boss.get(url)["Cache-Control"] == "private, no-store", url
    for url in (reverse("scorer:export", args=[code, "csv"]),
                reverse("scorer:api_session", args=[code]),
                reverse("scorer:final_svg", args=[code])):  # fmt: skip
        answer = boss.get(url)
        assert answer["Cache-Control"] == "private, no-cache" and answer.has_header("ETag"), url


# --------------------------------------------------------------------------- the streams


@pytest.mark.django_db
def test_the_django_streams_say_nosniff(north: Place) -> None:
    boss = north.boss()
    for url in (reverse("scorer:events", args=[north.table.code]),
                reverse("scorer:manage_events", args=[north.room.slug])):  # fmt: skip
        answer = boss.get(url)
        assert answer.status_code == 200 and answer.streaming, url
        assert answer["X-Content-Type-Options"] == "nosniff", url
        assert answer["Cache-Control"] == "private, no-store", url
        b"".join(answer.streaming_content)  # (it ends at once in the suite)


def asgi_scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    path, _, query = path.partition("?")
    return {"type": "http", "method": "GET", "path": path, "query_string": query.encode(),
            "headers": headers, "http_version": "1.1", "scheme": "http",
            "server": ("testserver", 80), "client": ("127.0.0.1", 5000)}  # fmt: skip


async def asgi_start(path: str, headers: list[tuple[bytes, bytes]]) -> dict[bytes, bytes]:
    """What the ASGI app's answer starts with: its status and headers."""
    from mahjong_site.asgi import application

    talk = ApplicationCommunicator(application, asgi_scope(path, headers))
    await talk.send_input({"type": "http.request", "body": b""})
    start = await talk.receive_output(10)
    assert start["type"] == "http.response.start"
    await talk.send_input({"type": "http.disconnect"})
    await talk.wait(10)
    return {b":status": str(start["status"]).encode(), **dict(start["headers"])}


@pytest.mark.django_db(transaction=True)
def test_the_asgi_streams_say_nosniff() -> None:
    room = make_room("north")
    p = place(room, "north")
    boss = p.boss()
    cookie = [(b"cookie", f"sessionid={boss.cookies['sessionid'].value}".encode())]
    answers = {
        "table": (f"/s/{p.table.code}/events", [], b"200"),
        "room": (f"/r/{room.slug}/manage/events", cookie, b"200"),
        "no such table": ("/s/NoSuchTable/events", [], b"404"),
        "no one signed in": (f"/r/{room.slug}/manage/events", [], b"404"),
        "a version no page says": (f"/s/{p.table.code}/events?v=%C2%B2", [], b"400"),
    }
    for what, (path, headers, status) in answers.items():
        start = asyncio.run(asgi_start(path, headers))
        assert start[b":status"] == status, what
        assert start[b"x-content-type-options"] == b"nosniff", what
        if status == b"200":
            assert start[b"cache-control"] == b"private, no-store", what
            assert start[b"content-type"].startswith(b"text/event-stream"), what
