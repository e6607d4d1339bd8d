"""Live tables: a round confirmed on one phone, heard on the others' event streams.

    python -m benchmarks.live default            # runserver on SQLite, 4 streams, 50 rounds
    python -m benchmarks.live two --pg URL [--broker redis]   # two uvicorn workers, two ports
    python -m benchmarks.live many --pg URL [-n 2000]   # n streams open in one uvicorn worker
    python -m benchmarks.live scale --pg URL [--broker redis]  # 4,000 streams, 1,000 tables, 100/s

The client is the benchmark's own: asyncio sockets reading each stream's lines
(as a browser's EventSource would), and Python's http.client for the confirms
(the record form, as benchmarks/concurrency.py posts it).  A round's latency is
from the confirm sent to each stream's `changed` read.  `many` also reports the
worker's RSS and threads before and after opening the streams, its CPU while
they idle, the PostgreSQL connections of its database, and one table's fan-out
(a publish heard on its 4 streams) among them; it raises `ulimit -n` first.
Figures: docs/performance.md, "Live tables".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from benchmarks.concurrency import Phone, Setup, p95
from benchmarks.served import stop_server

ROOT = Path(__file__).resolve().parent.parent


class Stream:
    """One phone's event stream, read line by line."""

    def __init__(self, base: str, path: str) -> None:
        self.host, port = urllib.parse.urlsplit(base)[1].split(":")
        self.port, self.path = int(port), path
        self.heard: asyncio.Queue[float] = asyncio.Queue()
        self.opened = asyncio.Event()

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 16)
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n"
            "Accept-Encoding: gzip\r\n\r\n".encode()
        )
        await writer.drain()
        while (line := await reader.readline()) not in (b"\r\n", b""):
            pass  # the headers
        self.opened.set()
        while line := await reader.readline():
            if b"event: changed" in line:
                self.heard.put_nowait(time.perf_counter())
        writer.close()


def uvicorn(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "uvicorn", "mahjong_site.asgi:application",
           "--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("uvicorn did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def rounds(
    confirm_base: str, stream_base: str, code: str, n: int, phones: int
) -> list[float]:
    """n rounds confirmed on `confirm_base`, heard by `phones` streams on `stream_base`."""
    streams = [Stream(stream_base, f"/s/{code}/events?v=999999") for _ in range(phones)]
    tasks = [asyncio.create_task(s.run()) for s in streams]
    await asyncio.gather(*(s.opened.wait() for s in streams))
    for s in streams:  # the opening "changed" (the version given is not the table's)
        await asyncio.wait_for(s.heard.get(), 10)
    phone = Phone(confirm_base)
    phone.send("/")
    out: list[float] = []
    confirms: list[float] = []
    for _ in range(n):
        form = await asyncio.to_thread(phone.record_form, code)
        t0 = time.perf_counter()
        status, ms, _ = await asyncio.to_thread(phone.send, f"/s/{code}/record/confirm", form)
        assert status == 302, status
        confirms.append(ms)
        for s in streams:
            out.append((await asyncio.wait_for(s.heard.get(), 10) - t0) * 1000)
    for t in tasks:
        t.cancel()
    say("  (the confirm's own answer)", confirms)
    return out


def say(name: str, ms: list[float]) -> None:
    print(f"{name}: {len(ms)} deliveries, median {statistics.median(ms):.1f} ms, "
          f"p95 {p95(ms):.1f} ms, max {max(ms):.1f} ms")  # fmt: skip


def default(args: argparse.Namespace) -> None:
    db = Path(f"/tmp/bench-live-{os.getpid()}.sqlite3")
    setup = Setup("default", f"sqlite:///{db}", "ours")
    env = setup.env()
    env.update(MAHJONG_LIVE_BROKER="memory")
    setup.env = lambda: env  # type: ignore[method-assign]
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    setup.start()
    try:
        (code,) = setup.tables(1)
        say(
            "runserver, SQLite, 4 streams",
            asyncio.run(rounds(setup.base, setup.base, code, args.rounds, 4)),
        )
    finally:
        setup.stop()
        for p in db.parent.glob(db.name + "*"):
            p.unlink()


def pg_env(url: str) -> dict[str, str]:
    """The environment of a server on `url`, its database made anew and migrated
    (a fresh machine has none)."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')
    setup = Setup("pg", url, "ours")
    env = setup.env()
    env.update(MAHJONG_LIVE_BROKER="postgres", DJANGO_SETTINGS_MODULE="mahjong_site.settings",
               MAHJONG_LIVE_STREAM_SECONDS="3600")  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    return env


def tables(env: dict[str, str], k: int) -> list[str]:
    script = ("import django; django.setup(); from scorer.models import GameSession;"
              f"print(*(GameSession.objects.create(ruleset='mcr', players=list('甲乙丙丁')).code"
              f" for _ in range({k})))")  # fmt: skip
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True).stdout.split()  # fmt: skip


def two(args: argparse.Namespace) -> None:
    env = pg_env(args.pg)
    env["MAHJONG_LIVE_BROKER"] = args.broker
    a, b = free_port(), free_port()
    procs = [uvicorn(env, a), uvicorn(env, b)]
    try:
        (code,) = tables(env, 1)
        ms = asyncio.run(
            rounds(f"http://127.0.0.1:{a}", f"http://127.0.0.1:{b}", code, args.rounds, 4)
        )
        say(
            f"two uvicorn workers, PostgreSQL, the {args.broker} broker (confirm on one, streams on the other)",
            ms,
        )
    finally:
        for p in procs:
            stop_server(p)


def proc_figures(pid: int) -> tuple[float, int, float]:
    """(RSS in MB, threads, CPU seconds so far) of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) / 1024
    threads = int(next(x for x in status.splitlines() if x.startswith("Threads")).split()[1])
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return rss, threads, cpu


def pg_conninfo(env: dict[str, str]) -> str:
    return env["DATABASE_URL"].replace("postgres://", "postgresql://", 1)


def pg_connections(env: dict[str, str]) -> int:
    script = ("import django; django.setup(); from django.db import connection;"
              "c = connection.cursor(); c.execute('SELECT count(*) FROM pg_stat_activity "
              "WHERE datname = current_database() AND pid <> pg_backend_pid()'); print(c.fetchone()[0])")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return int(out.stdout)


async def many_streams(base: str, codes: list[str], n: int, pid: int, env: dict[str, str]) -> None:
    before = proc_figures(pid)
    streams = [Stream(base, f"/s/{codes[i % len(codes)]}/events?v=999999") for i in range(n)]
    tasks = [asyncio.create_task(s.run()) for s in streams]
    for i in range(0, n, 200):  # opened 200 at a time
        await asyncio.gather(*(s.opened.wait() for s in streams[i : i + 200]))
    for s in streams:
        await asyncio.wait_for(s.heard.get(), 30)
    await asyncio.sleep(5)
    opened = proc_figures(pid)
    await asyncio.sleep(20)  # idle: heartbeats only
    idle = proc_figures(pid)
    conns = await asyncio.to_thread(pg_connections, env)
    print(f"{n} streams in one uvicorn worker: RSS {before[0]:.0f} -> {opened[0]:.0f} MB "
          f"(+{opened[0] - before[0]:.0f}); threads {before[1]} -> {opened[1]}; "
          f"idle CPU {(idle[2] - opened[2]) / 20 * 100:.1f} % of a core over 20 s; "
          f"PostgreSQL connections of the database {conns}")  # fmt: skip
    # One table's fan-out: a NOTIFY (what a commit's publish sends) heard on its 4
    # streams, and a confirm (the whole path: the change, its commit, the NOTIFY).
    import psycopg

    fan: list[float] = []
    mine = [s for s in streams if codes[0] in s.path]
    with psycopg.connect(pg_conninfo(env), autocommit=True) as pg:
        for k in range(50):
            t0 = time.perf_counter()
            pg.execute("SELECT pg_notify('mahjong_live', %s)", [f"s:{codes[0]} {1000 + k}"])
            for s in mine:
                fan.append((await asyncio.wait_for(s.heard.get(), 10) - t0) * 1000)
            await asyncio.sleep(0.05)
    say(f"one table's fan-out among {n} streams (NOTIFY to its 4 streams)", fan)
    whole: list[float] = []
    phone = Phone(base)
    phone.send("/")
    for _ in range(20):
        form = await asyncio.to_thread(phone.record_form, codes[0])
        t0 = time.perf_counter()
        await asyncio.to_thread(phone.send, f"/s/{codes[0]}/record/confirm", form)
        for s in mine:
            whole.append((await asyncio.wait_for(s.heard.get(), 10) - t0) * 1000)
    say(f"a confirm on the same worker to its 4 streams among {n}", whole)
    for t in tasks:
        t.cancel()


def many(args: argparse.Namespace) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, args.n * 2 + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))  # the worker inherits it
    env = pg_env(args.pg)
    port = free_port()
    proc = uvicorn(env, port)
    try:
        codes = tables(env, max(1, args.n // 4))  # 4 phones a table
        asyncio.run(many_streams(f"http://127.0.0.1:{port}", codes, args.n, proc.pid, env))
    finally:
        stop_server(proc)


class Watcher(Stream):
    """A stream that keeps which versions it heard, and when."""

    def __init__(self, base: str, path: str) -> None:
        super().__init__(base, path)
        self.versions: dict[int, float] = {}

    async def run(self) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 16)
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        while (line := await reader.readline()) not in (b"\r\n", b""):
            pass
        self.opened.set()
        event = b""
        while line := await reader.readline():
            if line.startswith(b"event: "):
                event = line[7:-1]
            elif event == b"changed" and line.startswith(b"data: ") and line[6:-1].isdigit():
                self.versions[int(line[6:-1])] = time.perf_counter()
        writer.close()


BUMP = (  # what GameSession.bump runs, and its publish_on_commit's two NOTIFYs
    "WITH b AS (UPDATE scorer_gamesession SET version = version + 1, updated_at = now()"
    " WHERE code = %s RETURNING version, room_id)"
    " SELECT version, pg_notify('mahjong_live', 's:' || %s || ' ' || version),"
    " pg_notify('mahjong_live', 'r:' || room_id || ' ' || version) FROM b"
)


# The same change, told through Redis (the broker's channels) after the commit.
BUMP_ONLY = (
    "UPDATE scorer_gamesession SET version = version + 1, updated_at = now()"
    " WHERE code = %s RETURNING version, room_id"
)


def changes(
    conninfo: str, codes: list[str], rate: int, seconds: int, redis_url: str = ""
) -> list[tuple[str, int, float]]:
    """`rate` tables changed each second for `seconds` s, each in its own transaction,
    the tables taken in turn, told by NOTIFY (or by Redis when `redis_url`); (code,
    version, commit time) of each."""
    import psycopg

    out: list[tuple[str, int, float]] = []
    k = 0
    red = None
    if redis_url:
        import redis

        red = redis.Redis.from_url(redis_url)
    with psycopg.connect(conninfo) as pg:
        start = time.perf_counter()
        for second in range(seconds):
            for _ in range(rate):
                code = codes[k % len(codes)]
                k += 1
                if red is None:
                    with pg.transaction():
                        (version, _, _) = pg.execute(BUMP, [code, code]).fetchone() or (0, 0, 0)
                else:
                    with pg.transaction():
                        (version, room) = pg.execute(BUMP_ONLY, [code]).fetchone() or (0, 0)
                    sent = f"{version} {time.time():.6f}"
                    with red.pipeline(transaction=False) as p:
                        p.publish(f"mahjong_live:s:{code}", sent)
                        p.publish(f"mahjong_live:r:{room}", sent)
                        p.execute()
                out.append((code, version, time.perf_counter()))
            left = start + second + 1 - time.perf_counter()
            if left > 0:
                time.sleep(left)
    return out


async def scale_run(base: str, codes: list[str], args: argparse.Namespace, pid: int,
                    env: dict[str, str]) -> None:  # fmt: skip
    n = args.n
    before = proc_figures(pid)
    streams = [Watcher(base, f"/s/{codes[i % len(codes)]}/events?v=0") for i in range(n)]
    tasks = [asyncio.create_task(s.run()) for s in streams]
    for i in range(0, n, 200):
        await asyncio.gather(*(s.opened.wait() for s in streams[i : i + 200]))
    await asyncio.sleep(5)
    opened = proc_figures(pid)
    per_stream_kb = (opened[0] - before[0]) * 1024 / n
    print(f"{n} streams over {len(codes)} tables in one uvicorn worker, the {args.broker} broker: RSS "
          f"{before[0]:.0f} -> {opened[0]:.0f} MB, {per_stream_kb:.1f} KB a stream; "
          f"threads {before[1]} -> {opened[1]}", flush=True)  # fmt: skip
    for s in streams:
        s.versions.clear()  # (the opening "changed")
    t0 = proc_figures(pid)[2]
    redis_url = env["MAHJONG_REDIS_URL"] if args.broker == "redis" else ""
    made = await asyncio.to_thread(
        changes, pg_conninfo(env), codes, args.rate, args.seconds, redis_url
    )
    await asyncio.sleep(3)  # the last ones on their way
    cpu = proc_figures(pid)[2] - t0
    by_code: dict[str, list[Watcher]] = {}
    for s in streams:
        by_code.setdefault(s.path.split("/")[2], []).append(s)
    lags, missed = [], 0
    for code, version, at in made:
        for s in by_code[code]:
            heard = s.versions.get(version)
            if heard is None:
                missed += 1
            else:
                lags.append((heard - at) * 1000)
    seconds = args.seconds + 3
    print(f"{len(made)} changes ({args.rate} tables a second for {args.seconds} s), "
          f"{len(made) * 4} deliveries due: {missed} missed", flush=True)  # fmt: skip
    say("publish (commit) to event", lags)
    print(f"the worker's CPU: {cpu / seconds * 100:.1f} % of a core, "
          f"{cpu / seconds * 100 / (n / 1000):.1f} % per 1,000 streams; "
          f"RSS at the end {proc_figures(pid)[0]:.0f} MB", flush=True)  # fmt: skip
    for t in tasks:
        t.cancel()


def scale(args: argparse.Namespace) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, args.n * 2 + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    env = pg_env(args.pg)
    env["MAHJONG_LIVE_MAX_STREAMS"] = str(args.n + 100)
    env["MAHJONG_LIVE_BROKER"] = args.broker
    env.setdefault("MAHJONG_REDIS_URL", "redis://127.0.0.1:6379/0")
    port = free_port()
    proc = uvicorn(env, port)
    try:
        codes = tables(env, args.tables)
        asyncio.run(scale_run(f"http://127.0.0.1:{port}", codes, args, proc.pid, env))
    finally:
        stop_server(proc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("what", choices=("default", "two", "many", "scale"))
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/bench_live")
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--broker", choices=("postgres", "redis"), default="postgres")
    parser.add_argument("-n", type=int, default=2000, help="streams (scale: 4000)")
    parser.add_argument("--tables", type=int, default=1000, help="scale: tables")
    parser.add_argument("--rate", type=int, default=100, help="scale: tables changed a second")
    parser.add_argument("--seconds", type=int, default=60, help="scale: for how long")
    args = parser.parse_args(argv)
    if args.what == "scale" and "-n" not in (argv or sys.argv):
        args.n = 4000
    {"default": default, "two": two, "many": many, "scale": scale}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
