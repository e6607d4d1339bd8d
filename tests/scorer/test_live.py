"""Live tables: the streams' words and who may open them, the broker, the ASGI app.

The streams end at once in the suite (MAHJONG_LIVE_STREAM_SECONDS=0, set by
mahjong_site/pytest_plugin.py): a stream's answer is what it says on opening.
The broker's tests use real commits (a change rolled back must publish nothing),
and on PostgreSQL the real LISTEN/NOTIFY; no test waits for time to pass: a
subscriber's queue is read with a timeout that only a failure reaches.
"""

from __future__ import annotations

import asyncio
import queue
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from scorer.live.broker import (
    Broker,
    MemoryBroker,
    PostgresBroker,
    RedisBroker,
    league_topic,
    make_broker,
    room_topic,
    table_topic,
)
from scorer.models import GameSession
from scorer.models.rooms import Room
from tests.factories import DRAW, make_room, make_table, member_client, record
from tests.support.redis import REDIS, redis_up

PLAYERS = ["东", "南", "西", "北"]
ON_POSTGRES = connection.vendor == "postgresql"


def body(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


# --------------------------------------------------------------------------- the Django views


@pytest.mark.django_db
def test_a_tables_stream_says_changed_only_when_the_phone_is_behind() -> None:
    s = make_table("mcr", PLAYERS)
    record(s, DRAW)
    s.refresh_from_db()
    url = reverse("scorer:events", args=[s.code])
    phone = Client()
    ahead = phone.get(url, {"v": s.version}, HTTP_ACCEPT_ENCODING="gzip")
    assert ahead.status_code == 200
    assert ahead["Content-Type"].startswith("text/event-stream")
    assert ahead["X-Accel-Buffering"] == "no"
    assert not ahead.has_header("Content-Encoding")  # GZipMiddleware leaves the stream alone
    said = body(ahead)
    assert said.startswith("retry: ")
    assert 2000 <= int(said.split()[1]) <= 10000
    assert "changed" not in said
    behind = body(phone.get(url, {"v": s.version - 1}))
    assert f"id: {s.version}\nevent: changed\ndata: {s.version}\n\n" in behind
    # A reconnect: the browser's Last-Event-ID wins over the page's ?v=.
    again = body(phone.get(url, {"v": 0}, HTTP_LAST_EVENT_ID=str(s.version)))
    assert "changed" not in again
    assert phone.get(reverse("scorer:events", args=["nosuchtable"])).status_code == 404
    assert phone.post(url).status_code == 405


@pytest.mark.django_db
def test_a_rooms_stream_is_its_admins_only() -> None:
    east, west = make_room("east"), make_room("west")
    url = reverse("scorer:manage_events", args=[east.slug])
    mine = member_client(east, "boss")
    answer = mine.get(url, HTTP_LAST_EVENT_ID="5")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/event-stream")
    assert "event: changed" in body(answer)  # a reconnect is told to fetch
    assert "changed" not in body(mine.get(url))  # a first opening is not
    assert member_client(west, "other").get(url).status_code == 404
    anyone = Client().get(url)
    assert anyone.status_code == 302 and "/accounts/login/" in anyone["Location"]


@pytest.mark.django_db
def test_the_live_pages_open_their_streams_and_a_closed_table_stops_polling() -> None:
    room = make_room("east")
    s = make_table("mcr", PLAYERS, room=room)
    page = Client().get(reverse("scorer:session", args=[s.code])).content.decode()
    assert f'sse-connect="/s/{s.code}/events?v={s.version}"' in page
    assert 'hx-trigger="live:fetch, wake, every 3s"' in page
    assert f'data-live-version="{s.version}"' in page
    assert "ext/hx-sse-2" in page  # the extension django-htmx serves
    boss = member_client(room, "boss")
    for name in ("manage", "manage_tables"):
        text = boss.get(reverse(f"scorer:{name}", args=[room.slug])).content.decode()
        assert f'sse-connect="/r/{room.slug}/manage/events"' in text, name
    s.close("东")
    tallies = reverse("scorer:tallies", args=[s.code])
    etag = Client().get(tallies)["ETag"]
    # The poll of a closed table: "stop polling" (with its tallies); the stream's
    # fetch: the ETag'd 304 as before.
    polled = Client().get(tallies, HTTP_IF_NONE_MATCH=etag, HTTP_X_LIVE_POLL="1")
    assert polled.status_code == 286 and b'id="tallies"' in polled.content
    assert b"every 3s" not in polled.content
    assert Client().get(tallies, HTTP_IF_NONE_MATCH=etag).status_code == 304


# --------------------------------------------------------------------------- the broker


def take(inbox: queue.SimpleQueue[Any]) -> Any:
    return inbox.get(timeout=10)  # reached only when the nudge never comes


def nudges_after_commit(broker: Any) -> None:
    """A committed change reaches the subscriber; one rolled back, nothing (the
    next committed one is the first thing heard)."""
    s = make_table("mcr", PLAYERS)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    assert broker.wait_up(10)  # (a stream never waits: it is nudged when the broker is up)
    with broker.subscribe(table_topic(s.code), inbox.put), \
         broker.subscribe(room_topic(s.room_id), lambda v: inbox.put(("room", v))):  # fmt: skip
        assert broker.wait_up(10)
        while not inbox.empty():  # Redis: "fetch" when a topic is followed (a gap closed)
            assert inbox.get() in (None, ("room", None))
        with transaction.atomic():
            s.bump()
        assert {take(inbox), take(inbox)} == {s.version, ("room", s.version)}
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            s.bump()
            1 / 0  # noqa: B018
        s.refresh_from_db()
        with transaction.atomic():
            s.bump()
        heard = {take(inbox), take(inbox)}
        assert heard == {s.version, ("room", s.version)}
        assert inbox.empty()


@pytest.mark.django_db(transaction=True)
def test_every_broker_publishes_after_commit_and_never_a_rollback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In-process always; PostgreSQL's LISTEN/NOTIFY on PostgreSQL; Redis's pub/sub
    where a Redis answers (one test: one flush of the database, not three)."""
    brokers: list[Broker] = [MemoryBroker()]
    if ON_POSTGRES:
        brokers.append(PostgresBroker())
    if redis_up():
        brokers.append(RedisBroker(REDIS))
    for b in brokers:
        monkeypatch.setattr("scorer.live.broker._broker", b)
        try:
            nudges_after_commit(b)
        finally:
            b.close()
        assert b.hub.count() == 0, b.name


def test_a_bad_broker_name_is_refused() -> None:
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="kafka"):
        make_broker("kafka")


# --------------------------------------------------------------------------- the ASGI app


def asgi_get(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    query = b""
    if "?" in path:
        path, q = path.split("?", 1)
        query = q.encode()
    return {"type": "http", "method": "GET", "path": path, "query_string": query,
            "headers": headers or [], "http_version": "1.1", "scheme": "http",
            "server": ("testserver", 80), "client": ("127.0.0.1", 5000)}  # fmt: skip


async def open_stream(scope: dict[str, Any]) -> tuple[ApplicationCommunicator, int, bytes]:
    from mahjong_site.asgi import application

    talk = ApplicationCommunicator(application, scope)
    await talk.send_input({"type": "http.request", "body": b""})
    start = await talk.receive_output(10)
    if start["status"] != 200:
        return talk, start["status"], b""
    first = await talk.receive_output(10)
    return talk, start["status"], first["body"]


@pytest.mark.django_db(transaction=True)
def test_the_asgi_app_serves_the_streams_ahead_of_django(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's stream nudges on a commit; the room's is its admin's only, read
    from the session cookie outside Django's views."""
    settings.LIVE_STREAM_SECONDS = 30
    b = MemoryBroker()
    monkeypatch.setattr("scorer.live.broker._broker", b)
    room = make_room("east")
    s = make_table("mcr", PLAYERS, room=room)
    boss = member_client(room, "boss")
    cookie = f"sessionid={boss.cookies['sessionid'].value}".encode()

    async def run() -> None:
        talk, status, head = await open_stream(asgi_get(f"/s/{s.code}/events?v={s.version}"))
        assert status == 200 and head.startswith(b"retry: ") and b"changed" not in head
        b.publish(table_topic(s.code), s.version + 1)
        nudge = await talk.receive_output(10)
        assert (
            nudge["body"]
            == f"id: {s.version + 1}\nevent: changed\ndata: {s.version + 1}\n\n".encode()
        )
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(10)
        assert b.hub.count() == 0  # the stream let go of its subscription
        _, status, _ = await open_stream(asgi_get("/s/nosuch/events"))
        assert status == 404
        _, status, _ = await open_stream(asgi_get(f"/r/{room.slug}/manage/events"))
        assert status == 404  # no one signed in
        cookies = [(b"cookie", cookie)]
        talk, status, _ = await open_stream(asgi_get(f"/r/{room.slug}/manage/events", cookies))
        assert status == 200
        b.publish(room_topic(room.pk), 1)
        assert b"event: changed" in (await talk.receive_output(10))["body"]
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(10)

    asyncio.run(run())
    assert GameSession.objects.filter(pk=s.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_asgi_app_serves_the_league_stream_to_whoever_may_see_the_league(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The league's stream is served ahead of Django too (no thread held): its admins
    only while the league is private, anyone once the owner makes it public."""
    settings.LIVE_STREAM_SECONDS = 30
    b = MemoryBroker()
    monkeypatch.setattr("scorer.live.broker._broker", b)
    room = make_room("east")
    boss = member_client(room, "boss")
    cookies = [(b"cookie", f"sessionid={boss.cookies['sessionid'].value}".encode())]
    path = f"/r/{room.slug}/league/events"

    async def run(headers: list[tuple[bytes, bytes]], expected: int) -> None:
        talk, status, _ = await open_stream(asgi_get(path, headers))
        assert status == expected
        if status == 200:
            b.publish(league_topic(room.pk), 1)
            assert b"event: changed" in (await talk.receive_output(10))["body"]
            await talk.send_input({"type": "http.disconnect"})
            await talk.wait(10)

    asyncio.run(run([], 404))  # private: a phone sees no league
    asyncio.run(run(cookies, 200))  # its admin does
    Room.objects.filter(pk=room.pk).update(league_public=True)
    asyncio.run(run([], 200))  # public: anyone
    assert b.hub.count() == 0


# --------------------------------------------------------------------------- the cap


@pytest.mark.django_db(transaction=True)
def test_a_stream_over_the_workers_cap_is_refused_and_its_place_comes_back(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LIVE_MAX_STREAMS streams open in the worker: the next is refused at once (503,
    "poll"), on the ASGI app and on the development server's view alike; one closed,
    the next opens."""
    from scorer.live.streams import gate

    settings.LIVE_STREAM_SECONDS = 30
    # The cap one over what this worker holds now (a stream another test's client left
    # unread stays counted until its answer is closed): room for exactly one more.
    held = gate.open
    settings.LIVE_MAX_STREAMS = held + 1
    monkeypatch.setattr("scorer.live.broker._broker", MemoryBroker())
    s = make_table("mcr", PLAYERS)
    refused = gate.refused

    async def run() -> None:
        talk, status, _ = await open_stream(asgi_get(f"/s/{s.code}/events?v={s.version}"))
        assert status == 200 and gate.open == held + 1
        _, status, _ = await open_stream(asgi_get(f"/s/{s.code}/events"))
        assert status == 503 and gate.refused == refused + 1
        # The development server's view counts against the same cap.
        assert await asyncio.to_thread(
            lambda: Client().get(reverse("scorer:events", args=[s.code])).status_code
        ) == 503  # fmt: skip
        await talk.send_input({"type": "http.disconnect"})
        await talk.wait(10)
        assert gate.open == held
        again, status, _ = await open_stream(asgi_get(f"/s/{s.code}/events"))
        assert status == 200
        await again.send_input({"type": "http.disconnect"})
        await again.wait(10)

    asyncio.run(run())
    settings.LIVE_STREAM_SECONDS = 0
    answer = Client().get(reverse("scorer:events", args=[s.code]))
    assert answer.status_code == 200 and b"retry: " in b"".join(answer.streaming_content)
    assert gate.open == held  # the view's stream gave its place back once read and closed
