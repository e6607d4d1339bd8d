"""Who is told when a table changes: a small publish/subscribe broker.

A table's phones keep a server-sent-event stream open (scorer/services/live.py); when the
table's version moves (`GameSession.bump`, after the transaction commits) the
broker tells every stream of that table, in this process and in every other
worker, and each phone then fetches the tallies through their ETag'd view.

The interface is two calls, `publish(topic, version)` and `subscribe(topic,
deliver)`; `deliver` is called from any thread (the broker's own, or the
publisher's) with the new version, or None for "something may have been missed:
fetch" (a listening connection that was lost and came back).  It must be quick
and thread-safe: a `queue.Queue.put_nowait`, or an event loop's
`call_soon_threadsafe`.

* `memory`: in-process only.  The default on SQLite (`make run`, runserver: one
  process, no extra service).
* `redis`: Redis pub/sub, a channel per topic: a worker hears only of the tables
  its own streams follow (MAHJONG_REDIS_URL).
* `postgres`: PostgreSQL LISTEN/NOTIFY.  A publish is one `pg_notify` on the
  publisher's own connection; each worker process keeps one listening connection
  (psycopg 3, async, in one thread of its own) and hands what it hears to its
  local subscribers.  The default when DATABASE_URL is PostgreSQL.

Chosen by settings.LIVE_BROKER (MAHJONG_LIVE_BROKER); `broker()` is the process's one.
Written here rather than taken from a library: Django Channels' channel layers
need Redis (or are in-memory only), and its consumers would put every stream
back on Django's per-request path; what is needed is these ~150 lines.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from scorer.parse import MAX_VERSION, int_or_none

log = logging.getLogger(__name__)

Deliver = Callable[[int | None], None]
# The one NOTIFY channel every worker listens on; the payload is "<topic> <version>".
CHANNEL = "mahjong_live"
BROKERS = ("memory", "postgres", "redis")


def table_topic(code: str) -> str:
    """A table's topic: its phones' streams."""
    return f"s:{code}"


def room_topic(room_id: int) -> str:
    """A room's topic: its admins' dashboard and tables page."""
    return f"r:{room_id}"


def league_topic(room_id: int) -> str:
    """A room's league: its league pages, public ones too (versions only)."""
    return f"l:{room_id}"


class Subscription:
    """One subscriber of one topic; `close()` (or leaving its `with`) unsubscribes."""

    def __init__(self, hub: Hub, topic: str, deliver: Deliver) -> None:
        self.hub, self.topic, self.deliver = hub, topic, deliver

    def close(self) -> None:
        self.hub.remove(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Hub:
    """The subscribers of this process, by topic (shared by every thread and loop).

    `first(topic)` and `last(topic)` are called when a topic gets its first local
    subscriber and loses its last (the Redis broker follows only those topics)."""

    def __init__(
        self,
        first: Callable[[str], None] | None = None,
        last: Callable[[str], None] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._topics: dict[str, set[Subscription]] = {}
        self._first, self._last = first, last

    def add(self, topic: str, deliver: Deliver) -> Subscription:
        sub = Subscription(self, topic, deliver)
        with self._lock:
            new = topic not in self._topics
            self._topics.setdefault(topic, set()).add(sub)
        if new and self._first is not None:
            self._first(topic)
        return sub

    def remove(self, sub: Subscription) -> None:
        gone = False
        with self._lock:
            subs = self._topics.get(sub.topic)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._topics[sub.topic]
                    gone = True
        if gone and self._last is not None:
            self._last(sub.topic)

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._topics.values())

    def dispatch(self, topic: str, version: int | None) -> None:
        with self._lock:
            subs = list(self._topics.get(topic, ()))
        for sub in subs:
            try:
                sub.deliver(version)
            except Exception:  # one broken subscriber must not starve the others
                log.exception("live: a subscriber of %s failed", topic)

    def dispatch_all(self, version: int | None) -> None:
        with self._lock:
            topics = list(self._topics)
        for topic in topics:
            self.dispatch(topic, version)


class Broker:
    """publish(topic, version) / subscribe(topic, deliver): the interface."""

    name = "?"

    def __init__(self) -> None:
        self.hub = Hub()

    def publish(self, topic: str, version: int) -> None:
        raise NotImplementedError

    def subscribe(self, topic: str, deliver: Deliver) -> Subscription:
        return self.hub.add(topic, deliver)

    def close(self) -> None:
        """Stop what the broker runs (tests and benchmarks; a worker just exits)."""


class MemoryBroker(Broker):
    """In this process only: runserver's threads, one uvicorn worker."""

    name = "memory"

    def publish(self, topic: str, version: int) -> None:
        self.hub.dispatch(topic, version)


class PostgresBroker(Broker):
    """PostgreSQL LISTEN/NOTIFY: every worker process hears every publish.

    The listening connection is opened on the first subscribe, in a daemon thread
    running its own event loop (so it serves runserver's threads and uvicorn's loop
    alike, and never holds one of Django's connections).  Lost, it is opened again
    (after 0.5 s, doubling to 10 s), and every local subscriber is told to fetch:
    a NOTIFY sent meanwhile was not heard.
    """

    name = "postgres"

    def __init__(self, conninfo: str | None = None) -> None:
        super().__init__()
        self._conninfo = conninfo
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._start_lock = threading.Lock()
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def publish(self, topic: str, version: int) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{topic} {version}"])

    def subscribe(self, topic: str, deliver: Deliver) -> Subscription:
        sub = self.hub.add(topic, deliver)
        self.start()
        return sub

    def start(self, timeout: float = 5.0) -> None:
        """Start listening (once); wait until LISTEN is in place, so that a publish
        made after a subscribe returns is heard."""
        with self._start_lock:
            if self._thread is None:
                conninfo = self._conninfo or django_conninfo()
                self._thread = threading.Thread(
                    target=self._run, args=(conninfo,), name="live-listener", daemon=True
                )
                self._thread.start()
        if not self._ready.wait(timeout):
            log.warning("live: the listening connection is not up yet")

    def _run(self, conninfo: str) -> None:
        self._loop = asyncio.new_event_loop()
        try:
            self._loop.run_until_complete(self._listen(conninfo))
        finally:
            self._loop.close()

    async def _listen(self, conninfo: str) -> None:
        import psycopg

        delay, lost = 0.5, False
        while not self._stop.is_set():
            try:
                conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    delay = 0.5
                    if lost:
                        self.hub.dispatch_all(None)
                    async for note in conn.notifies():
                        if self._stop.is_set():
                            break
                        topic, _, version = note.payload.partition(" ")
                        self.hub.dispatch(topic, int_or_none(version, 0, MAX_VERSION))
            except (psycopg.Error, OSError) as e:
                if self._stop.is_set():
                    break
                log.warning("live: listening connection lost (%s); again in %.1f s", e, delay)
            lost = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    def close(self) -> None:
        self._stop.set()
        if self._loop is not None and self._thread is not None:
            # A NOTIFY wakes the listener, which sees the stop and leaves.
            import psycopg

            try:
                with psycopg.connect(self._conninfo or django_conninfo(), autocommit=True) as c:
                    c.execute("SELECT pg_notify(%s, %s)", [CHANNEL, "stop 0"])
            except psycopg.Error:
                pass
            self._thread.join(5)


class RedisBroker(Broker):
    """Redis pub/sub: a channel per topic ("mahjong_live:<topic>"), and each worker
    subscribed only to the topics its own streams follow, so a worker hears of its
    own tables only (PostgreSQL's NOTIFY reaches every listener with everything).

    One pub/sub connection per worker process, in a daemon thread with its own event
    loop (redis.asyncio), as the PostgreSQL broker's; publishing uses a client of its
    own (redis-py's connections are pooled and thread-safe).  A lost connection is
    made again by redis-py, which subscribes again; every local subscriber is then
    told to fetch."""

    name = "redis"

    def __init__(self, url: str | None = None) -> None:
        super().__init__()
        self.hub = Hub(first=self._follow, last=self._leave)
        self._url = url or settings.LIVE_REDIS_URL
        self._publisher: Any = None
        self._pubsub: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._start_lock = threading.Lock()
        self._stop = threading.Event()

    @staticmethod
    def channel(topic: str) -> str:
        return f"{CHANNEL}:{topic}"

    def publish(self, topic: str, version: int) -> None:
        import redis

        if self._publisher is None:
            self._publisher = redis.Redis.from_url(self._url)
        self._publisher.publish(self.channel(topic), str(version))

    def start(self, timeout: float = 5.0) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="live-redis", daemon=True)
                self._thread.start()
        if not self._ready.wait(timeout):
            log.warning("live: the Redis pub/sub connection is not up yet")

    def _run(self) -> None:
        import redis.asyncio

        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        client = redis.asyncio.Redis.from_url(self._url)
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._ready.set()

        async def main() -> None:
            try:
                await self._listen()
            finally:
                await self._pubsub.aclose()
                await client.aclose()

        try:
            self._loop.run_until_complete(main())
        finally:
            self._loop.close()

    async def _listen(self) -> None:
        import redis

        delay, lost = 0.5, False
        while not self._stop.is_set():
            if not self._pubsub.subscribed:
                await asyncio.sleep(0.2)
                continue
            try:
                note = await self._pubsub.get_message(timeout=1.0)
            except (redis.RedisError, OSError) as e:
                log.warning("live: Redis pub/sub lost (%s); again in %.1f s", e, delay)
                lost = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            if lost:
                lost, delay = False, 0.5
                self.hub.dispatch_all(None)
            if note is None or note.get("type") != "message":
                continue
            topic = note["channel"].decode().removeprefix(f"{CHANNEL}:")
            raw = note["data"].decode()
            self.hub.dispatch(topic, int_or_none(raw, 0, MAX_VERSION))

    def _follow(self, topic: str) -> None:
        """A topic's first local subscriber: subscribed before `subscribe` returns."""
        self.start()
        assert self._loop is not None
        done = asyncio.run_coroutine_threadsafe(
            self._pubsub.subscribe(self.channel(topic)), self._loop
        )
        done.result(5)

    def _leave(self, topic: str) -> None:
        if self._loop is not None and not self._loop.is_closed():
            asyncio.run_coroutine_threadsafe(
                self._pubsub.unsubscribe(self.channel(topic)), self._loop
            )

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._publisher is not None:
            self._publisher.close()


def django_conninfo() -> str:
    """The default database's connection string, as Django connects now (the test
    database in the tests): NOTIFY is heard on the same database only."""
    from django.db import connection
    from psycopg.conninfo import make_conninfo

    s: dict[str, Any] = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("the postgres live broker needs a PostgreSQL database")
    params = {
        "dbname": s["NAME"],
        "user": s["USER"],
        "password": s["PASSWORD"],
        "host": s["HOST"],
        "port": str(s["PORT"]) if s["PORT"] else "",
    }
    return make_conninfo(**{k: v for k, v in params.items() if v})


_broker: Broker | None = None
_broker_lock = threading.Lock()


def make_broker(name: str) -> Broker:
    if name == "memory":
        return MemoryBroker()
    if name == "postgres":
        return PostgresBroker()
    if name == "redis":
        try:
            import redis  # noqa: F401
        except ImportError:
            raise ImproperlyConfigured(
                "the redis live broker needs the redis package (pip install '.[deploy]')"
            ) from None
        return RedisBroker()
    raise ImproperlyConfigured(f"LIVE_BROKER must be one of {', '.join(BROKERS)}, not {name!r}")


def broker() -> Broker:
    """This process's broker, made on first use from settings.LIVE_BROKER."""
    global _broker
    with _broker_lock:
        if _broker is None:
            _broker = make_broker(settings.LIVE_BROKER)
        return _broker


def publish_on_commit(topics: list[str], version: int, using: str | None = None) -> None:
    """Tell the topics' subscribers once the current transaction commits (at once
    outside one); a change rolled back tells no one."""
    from django.db import transaction

    def send() -> None:
        b = broker()
        for topic in topics:
            try:
                b.publish(topic, version)
            except Exception:  # the change is committed: a lost nudge leaves polling
                log.exception("live: publish to %s failed", topic)

    transaction.on_commit(send, using=using)
