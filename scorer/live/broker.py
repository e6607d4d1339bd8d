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
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from scorer.clean.parse import MAX_VERSION, int_or_none
from scorer.live import metrics

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
            try:
                self._first(topic)
            except BaseException:  # a subscription half made is undone: a later one tries again
                self.remove(sub)
                raise
        return sub

    def topics(self) -> list[str]:
        with self._lock:
            return list(self._topics)

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

    def healthy(self) -> bool:
        """Whether changes reach this worker's streams now (never waits)."""
        return True

    def state(self) -> dict[str, Any]:
        """The broker's details, for the metrics (never waits)."""
        return {"broker": self.name, "up": True, "down_since": None, "reconnects": 0,
                "failures": 0, "thread_alive": False, "starts": 0}  # fmt: skip

    def wait_up(self, timeout: float) -> bool:
        return True

    def close(self) -> None:
        """Stop what the broker runs (tests and benchmarks; a worker just exits)."""


class MemoryBroker(Broker):
    """In this process only: runserver's threads, one uvicorn worker."""

    name = "memory"

    def publish(self, topic: str, version: int) -> None:
        self.hub.dispatch(topic, version)


class Listening(Broker):
    """A broker with a listening connection per worker process (PostgreSQL's,
    Redis's), kept in a daemon thread with an event loop of its own.

    It never blocks the caller and always heals:

    * `subscribe` adds the subscriber and makes sure the thread runs; it never waits
      for the connection.  A stream opened while the broker is down is nudged
      "fetch" (None) as soon as it is up, since a publish made meanwhile was not heard.
    * The thread's whole life, its event loop included, is retried after any failure
      (the database refusing connections, a connect that hangs, no file descriptor
      left, the connection killed) with a backoff of 0.5 s doubling to
      LIVE_BROKER_BACKOFF_MAX, for the life of the worker; a dead thread is started
      again by the next subscribe or `/healthz`.
    * `state()` says whether it is up, since when it is down, and how often it came
      back, without waiting (for `/healthz` and the metrics).
    """

    CONNECT_TIMEOUT = 5.0  # a connect that hangs is given up after this, and retried

    def __init__(self) -> None:
        super().__init__()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._up = threading.Event()
        self.down_since: float | None = time.time()
        self.reconnects = 0  # times it came back after being up
        self.failures = 0  # sessions that ended in an error
        self.starts = 0  # listener threads started (more than 1: one had died)
        self.last_error = ""

    def subscribe(self, topic: str, deliver: Deliver) -> Subscription:
        sub = self.hub.add(topic, deliver)
        self.start()
        return sub

    def start(self) -> None:
        """Make sure the listening thread runs (once; again if it died).  Never waits."""
        with self._start_lock:
            if self._stop.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(
                target=self._supervise, name=f"live-{self.name}", daemon=True
            )
            self._thread.start()
            self.starts += 1
            if not self._up.is_set():
                metrics.BROKER_UP.set(0)
                metrics.DOWN_SINCE.set(self.down_since or time.time())

    def wait_up(self, timeout: float) -> bool:
        """Wait until the listening connection is in place (tests and benchmarks:
        a publish made after it is heard).  The app never waits."""
        self.start()
        return self._up.wait(timeout)

    def state(self) -> dict[str, Any]:
        return {
            "broker": self.name,
            "up": self._up.is_set(),
            "down_since": self.down_since,
            "reconnects": self.reconnects,
            "failures": self.failures,
            "thread_alive": self._thread is not None and self._thread.is_alive(),
            "starts": self.starts,
        }

    def healthy(self) -> bool:
        """Up, or not needed yet (no stream has subscribed in this worker)."""
        if self._thread is None and self.hub.count() == 0:
            return True
        self.start()  # a dead listener is started again by the health check
        return self._up.is_set()

    def _supervise(self) -> None:
        try:
            self._retry()
        finally:  # stopped, or killed by an error no handler takes: down until started again
            self._went_down()

    def _retry(self) -> None:
        delay = 0.5
        while not self._stop.is_set():
            was_up = False
            try:
                self._loop = asyncio.new_event_loop()  # (EMFILE here too: retried)
                try:
                    was_up = self._loop.run_until_complete(self._session())
                finally:
                    self._loop.close()
            except Exception as e:  # whatever broke it: the connection, the loop, a descriptor
                self.failures += 1
                metrics.FAILURES.inc()
                self.last_error = f"{type(e).__name__}: {e}"
                if not self._stop.is_set():
                    log.warning("live: %s listener down (%s); again in %.1f s",
                                self.name, self.last_error, delay)  # fmt: skip
            was_up = was_up or self._went_down()
            if was_up:
                delay = 0.5
            self._stop.wait(delay)
            delay = min(delay * 2, settings.LIVE_BROKER_BACKOFF_MAX)

    def _went_down(self) -> bool:
        """Mark the broker down; True when it had been up."""
        if not self._up.is_set():
            return False
        self._up.clear()
        self.down_since = time.time()
        metrics.BROKER_UP.set(0)
        metrics.DOWN_SINCE.set(self.down_since)
        return True

    def _now_up(self) -> None:
        """The listening connection is in place: every local subscriber fetches (a
        publish made while it was down, or before the first connect, was not heard)."""
        if self.down_since is not None and self.reconnects + self.failures > 0:
            self.reconnects += 1
            metrics.RECONNECTS.inc()
        self.down_since = None
        self._up.set()
        metrics.BROKER_UP.set(1)
        metrics.DOWN_SINCE.set(0)
        self.hub.dispatch_all(None)

    async def _session(self) -> bool:
        """Connect, listen, hand on what is heard until the connection fails (raise)
        or the broker stops (return).  Calls `_now_up` once listening."""
        raise NotImplementedError

    def close(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(5)

    def _wake(self) -> None:
        """Wake the listener so that it sees the stop."""


class PostgresBroker(Listening):
    """PostgreSQL LISTEN/NOTIFY: every worker process hears every publish.

    The listening connection (psycopg 3, async) lives in the Listening thread, so it
    serves runserver's threads and uvicorn's loop alike and never holds one of
    Django's connections.  It bypasses any pooler: LISTEN needs a session of its own
    (docs/deploy.md, PgBouncer)."""

    name = "postgres"

    def __init__(self, conninfo: str | None = None) -> None:
        super().__init__()
        self._conninfo = conninfo

    def publish(self, topic: str, version: int) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_notify(%s, %s)", [CHANNEL, f"{topic} {version} {time.time():.6f}"]
            )

    async def _session(self) -> bool:
        import psycopg

        conninfo = self._conninfo or django_conninfo()
        conn = await psycopg.AsyncConnection.connect(
            conninfo, autocommit=True, connect_timeout=int(self.CONNECT_TIMEOUT),
            application_name=f"mahjong-live-{os.getpid()}",
        )  # fmt: skip
        async with conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._now_up()
            async for note in conn.notifies():
                if self._stop.is_set():
                    return True
                topic, _, rest = note.payload.partition(" ")
                self.hub.dispatch(topic, heard(rest))
        return True

    def _wake(self) -> None:
        # A NOTIFY wakes the listener, which sees the stop and leaves.
        import psycopg

        if self._thread is None:
            return
        try:
            with psycopg.connect(
                self._conninfo or django_conninfo(), autocommit=True, connect_timeout=2
            ) as c:
                c.execute("SELECT pg_notify(%s, %s)", [CHANNEL, "stop 0"])
        except psycopg.Error:
            pass


class RedisBroker(Listening):
    """Redis pub/sub: a channel per topic ("mahjong_live:<topic>"), and each worker
    subscribed only to the topics its own streams follow, so a worker hears of its
    own tables only (PostgreSQL's NOTIFY reaches every listener with everything).

    One pub/sub connection per worker process, in the Listening thread (redis.asyncio);
    publishing uses a client of its own (redis-py's connections are pooled and
    thread-safe).  Following a topic never waits: the listener subscribes to it
    when it can, and to every topic the worker's streams follow each time it
    connects; a follow that fails ends the session, which is made again."""

    name = "redis"

    def __init__(self, url: str | None = None) -> None:
        super().__init__()
        self.hub = Hub(first=self._follow, last=self._leave)
        self._url = url or settings.LIVE_REDIS_URL
        self._publisher: Any = None
        self._changes: asyncio.Queue[None] | None = None
        self._followed: frozenset[str] = frozenset()

    def wait_up(self, timeout: float) -> bool:
        """Up, and following every topic subscribed so far (tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        if not super().wait_up(timeout):
            return False
        while not set(self.hub.topics()) <= self._followed:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    @staticmethod
    def channel(topic: str) -> str:
        return f"{CHANNEL}:{topic}"

    def publish(self, topic: str, version: int) -> None:
        import redis

        if self._publisher is None:
            self._publisher = redis.Redis.from_url(
                self._url, socket_connect_timeout=self.CONNECT_TIMEOUT,
                socket_timeout=self.CONNECT_TIMEOUT,
            )  # fmt: skip
        self._publisher.publish(self.channel(topic), f"{version} {time.time():.6f}")

    async def _session(self) -> bool:
        import redis.asyncio

        self._changes = asyncio.Queue()
        client = redis.asyncio.Redis.from_url(
            self._url, socket_connect_timeout=self.CONNECT_TIMEOUT,
            client_name=f"mahjong-live-{os.getpid()}",
        )  # fmt: skip
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            # A channel of its own keeps the connection subscribed with no topic.
            await asyncio.wait_for(pubsub.subscribe(f"{CHANNEL}:_"), self.CONNECT_TIMEOUT)
            followed: set[str] = set()
            await self._reconcile(pubsub, followed)
            self._now_up()
            while not self._stop.is_set():
                if not self._changes.empty():
                    while not self._changes.empty():
                        self._changes.get_nowait()
                    await self._reconcile(pubsub, followed)
                note = await pubsub.get_message(timeout=0.5)
                if note is None or note.get("type") != "message":
                    continue
                topic = note["channel"].decode().removeprefix(f"{CHANNEL}:")
                self.hub.dispatch(topic, heard(note["data"].decode()))
            return True
        finally:
            self._changes, self._followed = None, frozenset()
            with contextlib.suppress(Exception):  # closing a broken connection
                await pubsub.aclose()
                await client.aclose()

    async def _reconcile(self, pubsub: Any, followed: set[str]) -> None:
        """Subscribe to the topics the worker's streams follow now, and leave the
        others (each follow is a round trip: a failure ends the session)."""
        want = set(self.hub.topics())
        if add := want - followed:
            await asyncio.wait_for(
                pubsub.subscribe(*(self.channel(t) for t in add)), self.CONNECT_TIMEOUT
            )
        if gone := followed - want:
            await asyncio.wait_for(
                pubsub.unsubscribe(*(self.channel(t) for t in gone)), self.CONNECT_TIMEOUT
            )
        followed.clear()
        followed.update(want)
        self._followed = frozenset(want)
        if add and self._up.is_set():
            # Followed only now: a publish made since the stream subscribed was missed.
            for topic in add:
                self.hub.dispatch(topic, None)

    def _changed(self) -> None:
        loop, changes = self._loop, self._changes
        if loop is not None and changes is not None and not loop.is_closed():
            # (the loop closed meanwhile: the next session follows every topic)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(changes.put_nowait, None)

    def _follow(self, topic: str) -> None:
        """A topic's first local subscriber: followed by the listener, never waited for."""
        self.start()
        self._changed()

    def _leave(self, topic: str) -> None:
        self._changed()

    def close(self) -> None:
        super().close()
        if self._publisher is not None:
            self._publisher.close()


def heard(message: str) -> int | None:
    """The version in a message "<version> <publish time>" (its lag to the metrics);
    None, "fetch", for anything else."""
    text, _, sent = message.partition(" ")
    version = int_or_none(text, 0, MAX_VERSION)
    if version is not None and sent:
        with contextlib.suppress(ValueError):  # (no time: an older worker's, a benchmark's)
            metrics.LAG.observe(max(0.0, time.time() - float(sent)))
    return version


def django_conninfo() -> str:
    """The listening connection's string: MAHJONG_LIVE_DATABASE_URL when set (behind
    PgBouncer), else the default database's, as Django connects now (the test
    database in the tests): NOTIFY is heard on the same database only."""
    from django.db import connection
    from psycopg.conninfo import make_conninfo

    if settings.LIVE_DATABASE_URL:  # PostgreSQL itself, past a transaction pooler
        return settings.LIVE_DATABASE_URL.replace("postgres://", "postgresql://", 1)
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
