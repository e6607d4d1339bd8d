"""The live broker under faults, on PostgreSQL and on Redis: it never blocks a
stream's opening or /healthz, and heals by itself.

Each fault is made by the test, never on the shared servers' settings: a TCP
proxy of the test's own stands between the broker and the real server and
refuses connections, or accepts them and never answers; the listening connection
is killed on the server (`pg_terminate_backend`, Redis's `CLIENT KILL`) and the
listener's thread killed; and a worker process of its own runs out of file
descriptors (`RLIMIT_NOFILE`).  In each, streams subscribed meanwhile return at
once, and once the server answers again every one of them is told to fetch and
hears the next change: no stream left unsubscribed, no change missed.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test import Client

from scorer.live.broker import CHANNEL, Listening, PostgresBroker, RedisBroker, django_conninfo
from tests.support.redis import REDIS, redis_up

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRES = connection.vendor == "postgresql"
STREAMS = 12
KINDS = [
    pytest.param("postgres", marks=pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL")),
    pytest.param("redis", marks=pytest.mark.skipif(not redis_up(), reason="no Redis answers")),
]


class Proxy:
    """A TCP proxy on the loopback in front of `target`: `mode` "pass" forwards,
    "refuse" closes each new connection at once, "hang" accepts and never answers."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target, self.mode = target, "pass"
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.mode == "refuse":
                client.close()
                continue
            self.held.append(client)
            if self.mode == "hang":
                continue
            upstream = socket.create_connection(self.target)
            self.held.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.closed = True
        self.server.close()
        for s in self.held:
            s.close()


def pg_target() -> tuple[str, int]:
    s = connection.settings_dict
    return (s["HOST"] or "127.0.0.1", int(s["PORT"] or 5432))


def redis_target() -> tuple[str, int]:
    parts = urlsplit(REDIS)
    return (parts.hostname or "127.0.0.1", parts.port or 6379)


def make(kind: str, port: int | None = None) -> Listening:
    """A broker of `kind`, through the proxy's `port` when given."""
    if kind == "postgres":
        from psycopg.conninfo import make_conninfo

        conninfo = django_conninfo()
        if port is not None:
            conninfo = make_conninfo(conninfo, host="127.0.0.1", port=str(port))
        return PostgresBroker(conninfo)
    url = REDIS if port is None else REDIS.replace(f":{redis_target()[1]}/", f":{port}/")
    return RedisBroker(url)


def publish(kind: str, topic: str, version: int) -> None:
    """A change published on the real server (as another worker publishes it)."""
    if kind == "postgres":
        import psycopg

        with psycopg.connect(django_conninfo(), autocommit=True) as c:
            c.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{topic} {version}"])
    else:
        import redis

        with redis.Redis.from_url(REDIS) as r:
            r.publish(RedisBroker.channel(topic), str(version))


class Streams:
    """`STREAMS` subscribers (as the ASGI app's streams subscribe), each timed."""

    def __init__(self, broker: Listening, prefix: str) -> None:
        self.topics = [f"s:{prefix}{i}" for i in range(STREAMS)]
        self.inboxes: list[queue.SimpleQueue[int | None]] = []
        self.subs = []
        self.slowest = 0.0
        for topic in self.topics:
            inbox: queue.SimpleQueue[int | None] = queue.SimpleQueue()
            t0 = time.monotonic()
            self.subs.append(broker.subscribe(topic, inbox.put))
            self.slowest = max(self.slowest, time.monotonic() - t0)
            self.inboxes.append(inbox)

    def told_to_fetch(self) -> bool:
        """Every stream was nudged "fetch" (None) since it subscribed."""
        return all(None in drain(inbox) for inbox in self.inboxes)

    def hear(self, kind: str, version: int) -> None:
        """A change to each topic reaches its stream."""
        for topic in self.topics:
            publish(kind, topic, version)
        for inbox in self.inboxes:
            heard = [v for v in until(inbox, version) if v is not None]
            assert heard[-1:] == [version]

    def close(self) -> None:
        for sub in self.subs:
            sub.close()


def drain(inbox: queue.SimpleQueue[int | None]) -> list[int | None]:
    out = []
    while not inbox.empty():
        out.append(inbox.get())
    return out


def until(inbox: queue.SimpleQueue[int | None], version: int) -> list[int | None]:
    """What the stream hears up to `version` (a failure if it never comes)."""
    out: list[int | None] = []
    while version not in out:
        out.append(inbox.get(timeout=15))
    return out


@pytest.fixture
def quick(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Backoff and connect timeout short, so that healing takes a second, not ten."""
    settings.LIVE_BROKER_BACKOFF_MAX = 0.5
    monkeypatch.setattr(Listening, "CONNECT_TIMEOUT", 1.0)


@pytest.fixture
def proxy(request: pytest.FixtureRequest) -> Iterator[Proxy]:
    kind = request.node.callspec.params["kind"]
    p = Proxy(pg_target() if kind == "postgres" else redis_target())
    yield p
    p.close()


def failed(broker: Listening) -> None:
    """Wait until the broker has failed to connect at least once."""
    deadline = time.monotonic() + 15
    while broker.state()["failures"] < 1:
        assert time.monotonic() < deadline, broker.state()
        time.sleep(0.05)


def healthz_with(broker: Listening, monkeypatch: pytest.MonkeyPatch) -> tuple[str, float]:
    monkeypatch.setattr("scorer.live.broker._broker", broker)
    client = Client()
    client.get("/healthz")  # (the first request of the process sets Django's handler up)
    t0 = time.monotonic()
    answer = client.get("/healthz").json()
    return answer["status"], time.monotonic() - t0


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fault", ["refuse", "hang"])
def test_a_server_refusing_or_hanging_blocks_nothing_and_the_broker_heals(
    kind: str, fault: str, proxy: Proxy, quick: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy.mode = fault
    broker = make(kind, proxy.port)
    try:
        streams = Streams(broker, f"{fault}-")
        assert streams.slowest < 0.5  # each stream opened at once, the broker down
        failed(broker)  # attempts refused, or a connect hanging past its timeout
        status, took = healthz_with(broker, monkeypatch)
        assert status == "degraded" and took < 1.0
        assert not broker.state()["up"] and broker.state()["failures"] >= 1
        proxy.mode = "pass"
        assert broker.wait_up(15)
        assert healthz_with(broker, monkeypatch)[0] == "ok"
        assert streams.told_to_fetch()  # what was sent while it was down: "fetch"
        streams.hear(kind, 7)
        assert broker.hub.count() == STREAMS
        streams.close()
    finally:
        broker.close()
    assert broker.hub.count() == 0


def kill_listener(kind: str) -> None:
    """The listening connection killed on the server, as an admin or a failover would."""
    name = f"mahjong-live-{os.getpid()}"
    if kind == "postgres":
        import psycopg

        with psycopg.connect(django_conninfo(), autocommit=True) as c:
            killed = c.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s AND datname = current_database()",
                [name],
            ).fetchall()
    else:
        import redis

        with redis.Redis.from_url(REDIS) as r:
            ids = [c["id"] for c in r.client_list() if c.get("name") == name]
            killed = [r.execute_command("CLIENT", "KILL", "ID", i) for i in ids]
    assert killed, "no listening connection to kill"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.django_db(transaction=True)
def test_the_listener_killed_comes_back_and_no_change_is_missed(
    kind: str, quick: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = make(kind)
    try:
        streams = Streams(broker, "killed-")
        assert broker.wait_up(15)
        for inbox in streams.inboxes:
            drain(inbox)
        streams.hear(kind, 3)
        # 1. Its connection terminated on the server.
        kill_listener(kind)
        deadline = time.monotonic() + 15
        while broker.state()["reconnects"] < 1:
            assert time.monotonic() < deadline, broker.state()
            time.sleep(0.05)
        assert broker.wait_up(15)
        assert streams.told_to_fetch()
        streams.hear(kind, 4)
        # 2. Its thread killed (an error no handler takes): the next stream's opening,
        # or /healthz, starts it again.
        starts = broker.state()["starts"]
        session = type(broker)._session

        async def dies(self: Listening) -> bool:
            raise SystemExit("killed")

        monkeypatch.setattr(type(broker), "_session", dies)
        kill_listener(kind)
        deadline = time.monotonic() + 15
        while broker.state()["thread_alive"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        monkeypatch.setattr(type(broker), "_session", session)
        healthz_with(broker, monkeypatch)  # starts it again
        assert broker.state()["starts"] == starts + 1
        assert broker.wait_up(15)
        assert streams.told_to_fetch()
        streams.hear(kind, 5)
        streams.close()
    finally:
        broker.close()


EXHAUSTED = textwrap.dedent(
    """
    import json, os, queue, resource, sys, time
    import django
    django.setup()
    from django.conf import settings
    settings.LIVE_BROKER_BACKOFF_MAX = 0.5
    from tests.scorer.test_live_faults import Streams, make
    kind = sys.argv[1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    held = []
    try:
        while True:
            held.append(open(os.devnull))
    except OSError:
        pass  # EMFILE: no descriptor left
    broker = make(kind)
    t0 = time.monotonic()
    streams = Streams(broker, "emfile-")
    opened = time.monotonic() - t0
    deadline = time.monotonic() + 15
    while broker.state()["failures"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    down = broker.state()
    for f in held:
        f.close()
    up = broker.wait_up(20)
    fetch = streams.told_to_fetch()
    streams.hear(kind, 9)
    print(json.dumps({"opened_s": opened, "held": len(held), "down": down, "up": up,
                      "fetch": fetch, "alive": broker.state()["thread_alive"]}))
    broker.close()
    """
)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.django_db(transaction=True)
def test_running_out_of_file_descriptors_does_not_kill_the_listener(kind: str) -> None:
    """In a process of its own (its descriptor limit lowered, every descriptor taken):
    the streams open at once, the listener fails and keeps trying, and once
    descriptors are free again it is up and every stream hears the next change."""
    s = connection.settings_dict
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MAHJONG_LIVE_BROKER": "memory",
           "DJANGO_SETTINGS_MODULE": "mahjong_site.settings"}  # fmt: skip
    if ON_POSTGRES:
        user = s.get("USER") or "postgres"
        password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
        env["DATABASE_URL"] = f"postgres://{user}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", EXHAUSTED, kind], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    said = json.loads(out.stdout.strip().splitlines()[-1])
    assert said["held"] > 100 and said["opened_s"] < 0.5
    assert not said["down"]["up"] and said["down"]["failures"] >= 1
    assert said["up"] and said["fetch"] and said["alive"]


# --------------------------------------------------------------------------- /metrics


@pytest.mark.django_db(transaction=True)
def test_metrics_say_the_streams_and_the_broker_to_the_loopback_or_the_token_only(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer.live.broker import MemoryBroker
    from scorer.live.streams import gate

    monkeypatch.setattr("scorer.live.broker._broker", MemoryBroker())
    settings.METRICS_TOKEN = "s3cret-token"
    assert gate.enter()  # one stream open
    try:
        local = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
        assert local.status_code == 200 and local["Content-Type"].startswith("text/plain")
        text = local.content.decode()
        assert "mahjong_live_streams " in text and "mahjong_live_broker_up" in text
        assert "mahjong_live_publish_lag_seconds_bucket" in text
        line = next(x for x in text.splitlines() if x.startswith("mahjong_live_streams "))
        assert float(line.split()[1]) >= 1
    finally:
        gate.leave()
    # Through the proxy (it sets X-Forwarded-For), or from elsewhere: nothing.
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics", HTTP_X_FORWARDED_FOR="1.2.3.4").status_code == 404  # fmt: skip
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    wrong = Client(REMOTE_ADDR="203.0.113.9").get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.status_code == 404
    token = Client(REMOTE_ADDR="203.0.113.9").get(
        "/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token"
    )
    assert token.status_code == 200


def test_a_publish_carries_its_time_and_the_listener_reads_the_lag() -> None:
    from prometheus_client import REGISTRY

    from scorer.live.broker import heard

    before = REGISTRY.get_sample_value("mahjong_live_publish_lag_seconds_count") or 0
    assert heard(f"12 {time.time() - 0.02:.6f}") == 12
    assert heard("13") == 13  # an older worker's message: no time, no lag
    assert heard("x 1") is None  # not a version: "fetch"
    after = REGISTRY.get_sample_value("mahjong_live_publish_lag_seconds_count") or 0
    assert after >= before + 1  # (a listener of another test may observe too)


WORKER = textwrap.dedent(
    """
    import sys, time
    import django
    django.setup()
    from scorer.live.streams import gate
    for _ in range(int(sys.argv[1])):
        assert gate.enter()
    print("open", flush=True)
    sys.stdin.readline()  # held open until the test lets go
    """
)


def test_metrics_sum_the_workers_and_forget_a_worker_that_is_gone(tmp_path: Path) -> None:
    """Two worker processes with 3 and 5 streams, one figures folder: one scrape says
    8; the second worker gone (as a killed uvicorn worker goes, with no hook), 3."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
           "DJANGO_SETTINGS_MODULE": "mahjong_site.settings", "MAHJONG_LIVE_BROKER": "memory"}  # fmt: skip
    env.pop("DATABASE_URL", None)
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(n)], cwd=ROOT, env=env, **pipes)
               for n in (3, 5)]  # fmt: skip
    scrape = ("import django; django.setup(); from scorer.live import metrics;"
              "print(metrics.text().decode())")  # fmt: skip

    def streams() -> float:
        out = subprocess.run([sys.executable, "-c", scrape], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True, timeout=60).stdout  # fmt: skip
        line = next(x for x in out.splitlines() if x.startswith("mahjong_live_streams "))
        return float(line.split()[1])

    try:
        for w in workers:
            assert w.stdout is not None and w.stdout.readline().strip() == "open"
        assert streams() == 8
        workers[1].kill()
        workers[1].wait(10)
        assert streams() == 3
    finally:
        for w in workers:
            w.kill()
            w.wait(10)
