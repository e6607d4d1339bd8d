"""Server-sent events: what a live table's stream says, and how it is kept open.

The stream only nudges: `changed` with the table's version (its `id`, so that a
reconnecting browser sends it back as Last-Event-ID), a `ping` every
LIVE_HEARTBEAT seconds (a named event, not a comment: the page's script sees it
and, hearing none for 45 s, polls instead), and a random `retry` (2-10 s) so that
the phones of a restarted worker do not all come back at once.  The page then
fetches what changed through the tallies' ETag'd view.

Two ways to keep a stream open, with the same words: `sync_events` (a generator
for runserver's threads, one thread per stream: fine for the embedded default)
and `asgi_events` (a coroutine for the ASGI app in mahjong_site/asgi.py, no
thread and no database connection while it is open).

And one way not to: `wsgi_poll_instead`, what a WSGI server (gunicorn's workers,
mahjong_site/wsgi.py) answers on a stream's path.  A WSGI worker serves one
request at a time (a thread of gthread, one at a time too), so a stream would hold
it until the server's timeout kills it; instead the answer comes at once and says
`poll`: the page's script (static/js/live.js) closes its stream and polls.
"""

from __future__ import annotations

import asyncio
import queue
import random
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware

from scorer.clean.parse import MAX_VERSION, int_or_none
from scorer.live import metrics
from scorer.live.broker import Subscription, broker
from scorer.web.caching import PRIVATE

CONTENT_TYPE = "text/event-stream"
PING = b"event: ping\ndata: 1\n\n"
# Sent with every stream: no proxy buffers it (nginx: X-Accel-Buffering), no cache keeps
# it (scorer/web/caching.py's rule for what differs by visitor: a room's stream is its admins').
HEADERS = {
    "Content-Type": f"{CONTENT_TYPE}; charset=utf-8",
    "Cache-Control": PRIVATE,
    "X-Accel-Buffering": "no",
}

# A stream over the worker's cap: refused at once.  EventSource cannot read the status;
# the page polls while its stream is down, and htmx's extension tries again after
# 0.5 s, doubling up to 64 s (nginx's limit_conn answers 503 too: the same to the page).
REFUSED_STATUS = 503
REFUSED_HEADERS = {
    "Content-Type": "text/plain; charset=utf-8",
    "Retry-After": "30",
    "Cache-Control": "no-store",
}

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Message], Awaitable[None]]


# Under a WSGI server: "no stream here, poll".  The page closes its EventSource on
# `poll` (no reconnect, and htmx's sse extension retries only after an error); a
# page whose script is older reconnects after `retry`, an hour, and polls meanwhile.
POLL_INSTEAD = b"retry: 3600000\n\nevent: poll\ndata: 3\n\n"


class Gate:
    """The streams open in this worker process, against its cap (LIVE_MAX_STREAMS).
    Counted here, per process: a client's streams across workers are the proxy's to
    limit (docs/deploy.md, nginx `limit_conn`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0
        self.refused = 0

    def enter(self) -> bool:
        """Take a place for a stream; False (counted) when the worker is full."""
        with self._lock:
            if self.open >= settings.LIVE_MAX_STREAMS:
                self.refused += 1
                metrics.REFUSED.inc()
                return False
            self.open += 1
        metrics.STREAMS.inc()
        return True

    def leave(self) -> None:
        with self._lock:
            self.open -= 1
        metrics.STREAMS.dec()


gate = Gate()


class Counted(Iterator[bytes]):
    """A thread's stream holding its place at the gate until Django closes it
    (whether or not it was ever read)."""

    def __init__(self, stream: Iterator[bytes]) -> None:
        self._stream, self._closed = stream, False

    def __next__(self) -> bytes:
        return next(self._stream)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            getattr(self._stream, "close", lambda: None)()
            gate.leave()


def changed(version: int | None) -> bytes:
    """The nudge: the table changed (its new version; none known: "fetch anyway")."""
    if version is None:
        return b"event: changed\ndata: ?\n\n"
    return f"id: {version}\nevent: changed\ndata: {version}\n\n".encode()


def opening(version: int | None, seen: int | None) -> bytes:
    """What a stream says first: its random retry, and `changed` at once when the
    phone's version (from the page, or the browser's Last-Event-ID) is not the
    table's (a change made while it was away).  `version` None: a room's stream,
    told again only on a reconnect (`seen` set)."""
    low, high = settings.LIVE_RETRY_MS
    out = f"retry: {random.randint(low, high)}\n\n".encode()
    if version is not None and seen != version:
        out += changed(version)
    elif version is None and seen is not None:
        out += changed(None)
    return out


class BadVersion(ValueError):
    """A version said in a way no page says one (scorer/clean/parse.py): the stream answers 400."""


def seen_version(last_event_id: str | None, query: str | None) -> int | None:
    """The version the phone has: the browser's Last-Event-ID on a reconnect, else
    the page's own (?v=); None when neither is said.  BadVersion when the one said
    does not read as a version."""
    for raw in (last_event_id, query):
        if raw:
            version = int_or_none(raw, 0, MAX_VERSION)
            if version is None:
                raise BadVersion(raw)
            return version
    return None


Opening = tuple[str, bytes] | None  # the topic and the first words; None: refused


def sync_events(early: str | None, first: Callable[[], Opening]) -> Iterator[bytes]:
    """A stream for a thread (runserver).  `first()` checks access and reads the
    version (one trip to the database); a table's topic is known from its code and
    subscribed (`early`) before it, so no change falls between the two."""
    inbox: queue.SimpleQueue[int | None] = queue.SimpleQueue()
    sub = broker().subscribe(early, inbox.put) if early else None
    try:
        opened = first()
        if opened is None:
            return
        topic, head = opened
        if sub is None:
            sub = broker().subscribe(topic, inbox.put)
        yield head
        heartbeat = settings.LIVE_HEARTBEAT
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            try:
                version = inbox.get(timeout=min(heartbeat, left))
            except queue.Empty:
                yield PING
                continue
            while not inbox.empty():  # several changes at once: one nudge, the last
                version = inbox.get_nowait()
            yield changed(version)
    finally:
        if sub is not None:
            sub.close()


def wsgi_poll_instead(
    environ: Mapping[str, Any], start_response: Callable[..., Any]
) -> list[bytes]:
    """A stream's answer from a WSGI server: `poll`, at once (200, so that the
    browser reads it; a refused EventSource would be retried by htmx's extension).
    Nothing is read from the database and nothing is logged."""
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Length", "0")])
        return []
    headers = [*HEADERS.items(), ("Content-Length", str(len(POLL_INSTEAD)))]
    start_response("200 OK", headers)
    return [] if environ["REQUEST_METHOD"] == "HEAD" else [POLL_INSTEAD]


def subscribe_async(topic: str, inbox: asyncio.Queue[int | None]) -> Subscription:
    """A subscription delivering into this event loop's queue from any thread."""
    loop = asyncio.get_running_loop()

    def deliver(version: int | None) -> None:
        loop.call_soon_threadsafe(inbox.put_nowait, version)

    return broker().subscribe(topic, deliver)


async def asgi_events(
    receive: Receive, send: Send, early: str | None, first: Callable[[], Awaitable[Opening]]
) -> None:
    """A stream as an ASGI answer: no thread, and no database connection but the
    one short call `first` makes (a 404 when it refuses; a 503 over the cap)."""
    if not gate.enter():
        headers = [(k.lower().encode(), v.encode()) for k, v in REFUSED_HEADERS.items()]
        await send({"type": "http.response.start", "status": REFUSED_STATUS, "headers": headers})
        await send({"type": "http.response.body", "body": b"busy: poll"})
        return
    try:
        await _asgi_stream(receive, send, early, first)
    finally:
        gate.leave()


async def _asgi_stream(
    receive: Receive, send: Send, early: str | None, first: Callable[[], Awaitable[Opening]]
) -> None:
    inbox: asyncio.Queue[int | None] = asyncio.Queue()
    sub = subscribe_async(early, inbox) if early else None
    try:
        opened = await first()
        if opened is None:
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})  # fmt: skip
            await send({"type": "http.response.body", "body": b"Not Found"})
            return
        topic, head = opened
        if sub is None:
            sub = subscribe_async(topic, inbox)
        headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": head, "more_body": True})
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            inbox.put_nowait(None)

        watcher = asyncio.create_task(watch())
        try:
            heartbeat = settings.LIVE_HEARTBEAT
            deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
            while not gone.is_set() and (left := deadline - time.monotonic()) > 0:
                try:
                    version = await asyncio.wait_for(inbox.get(), min(heartbeat, left))
                except TimeoutError:
                    await send({"type": "http.response.body", "body": PING, "more_body": True})
                    continue
                if gone.is_set():
                    break
                while not inbox.empty():
                    version = inbox.get_nowait()
                await send(
                    {"type": "http.response.body", "body": changed(version), "more_body": True}
                )
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b""})
        finally:
            watcher.cancel()
    finally:
        if sub is not None:
            sub.close()


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's, except for event streams: compressed, their few bytes would sit in
    the compressor's buffer until it filled (the nudge minutes late)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith(CONTENT_TYPE):
            return response
        return super().process_response(request, response)
