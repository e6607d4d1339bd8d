"""ASGI entry point: the live streams ahead of Django, everything else to Django.

    uvicorn mahjong_site.asgi:application --workers 2   (docs/deploy.md)

A table's event stream (`/s/<code>/events`), a room's (`/r/<slug>/manage/events`) and its
league's (`/r/<slug>/league/events`)
stay open for as long as a phone shows the page.  Through Django's ASGI handler
each would hold a thread (its sync middleware and view) and, with persistent
connections, a database connection; here they are served by a small ASGI app:
the access check is one short database call in a worker thread, whose connection
is closed at once, and then the stream waits on the broker (scorer/live/broker.py) in
the event loop: no thread, no database connection.  The words and the checks are
the Django views' (scorer/views/live.py, scorer/services/live.py).
"""

from __future__ import annotations

import os
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
# The settings then pool PostgreSQL connections (no CONN_MAX_AGE per thread).
os.environ.setdefault("MAHJONG_SERVER", "asgi")

django_application = get_asgi_application()  # (sets Django up: imports below need it)

from asgiref.sync import sync_to_async  # noqa: E402
from django.db import close_old_connections, connections  # noqa: E402

from scorer.live.broker import table_topic  # noqa: E402
from scorer.live.streams import (  # noqa: E402
    BadVersion,
    Message,
    Opening,
    Receive,
    Scope,
    Send,
    asgi_events,
    opening,
    seen_version,
)
from scorer.services.live import (  # noqa: E402
    LEAGUE_EVENTS,
    ROOM_EVENTS,
    TABLE_EVENTS,
    league_stream_for,
    room_stream_for,
    table_version,
)
from scorer.views.live import BAD_VERSION  # noqa: E402


def _short(fn: Any) -> Any:
    """`fn` in a worker thread, its database connection closed when it returns:
    the stream then holds none (CONN_MAX_AGE does not keep it)."""

    def run(*args: Any) -> Any:
        close_old_connections()
        try:
            return fn(*args)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)


_table_version = _short(table_version)
_room_stream_for = _short(room_stream_for)
_league_stream_for = _short(league_stream_for)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _seen(scope: Scope, headers: dict[str, str]) -> int | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return seen_version(headers.get("last-event-id"), (query.get("v") or [None])[0])


async def _bad_version(send: Send) -> None:
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")]})  # fmt: skip
    await send({"type": "http.response.body", "body": BAD_VERSION.encode()})


async def _not_allowed(send: Send) -> None:
    await send({"type": "http.response.start", "status": 405,
                "headers": [(b"allow", b"GET, HEAD")]})  # fmt: skip
    await send({"type": "http.response.body", "body": b""})


async def events(scope: Scope, receive: Receive, send: Send) -> bool:
    """Serve the request when it is a stream's (True); False: Django's."""
    path = scope["path"]
    table, room = TABLE_EVENTS.match(path), ROOM_EVENTS.match(path)
    league = LEAGUE_EVENTS.match(path)
    if table is None and room is None and league is None:
        return False
    if scope["method"] not in ("GET", "HEAD"):
        await _not_allowed(send)
        return True
    headers = _headers(scope)
    try:
        seen = _seen(scope, headers)
    except BadVersion:
        await _bad_version(send)
        return True
    if table is not None:
        code = table["code"]
        topic = table_topic(code)

        async def first() -> Opening:
            version = await _table_version(code)
            return None if version is None else (topic, opening(version, seen))

        await asgi_events(receive, send, topic, first)
        return True
    cookie = SimpleCookie()
    cookie.load(headers.get("cookie", ""))
    cookies = {k: m.value for k, m in cookie.items()}
    # A room's stream (its admins') or its league's (whoever may see the league page).
    if room is not None:
        slug, find = room["slug"], _room_stream_for
    else:
        assert league is not None
        slug, find = league["slug"], _league_stream_for

    async def first_room() -> Opening:
        found = await find(cookies, slug)
        return None if found is None else (found, opening(None, seen))

    await asgi_events(receive, send, None, first_room)
    return True


def nosniff(send: Send) -> Send:
    """`send` with `X-Content-Type-Options: nosniff` on every answer: the streams'
    answers (their refusals too) never pass Django's SecurityMiddleware, which
    adds it to everything else."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            if not any(k.lower() == b"x-content-type-options" for k, _ in headers):
                headers.append((b"x-content-type-options", b"nosniff"))
            message = {**message, "headers": headers}
        await send(message)

    return sending


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and await events(scope, receive, nosniff(send)):
        return
    await django_application(scope, receive, send)


__all__ = ["application", "django_application", "Message"]
