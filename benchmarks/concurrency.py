"""python -m benchmarks.concurrency: how many tables a server serves at once.

The worst moment of an evening: a hand ends at every table at the same instant.
At each table one phone confirms the round (the real HTTP flow: its CSRF cookie,
the record page's one-time token) while the table's three other phones poll the
tallies (the session page does every 3 s; here without its ETag, so each poll is
a full render).  Every table's four phones are released together, `--bursts`
times per table count, and every answer is timed.

Servers (`--servers`, benchmarks/served.py; DEBUG off): `runserver` (threaded, one
process: `make run`; the default), `uvicorn` (two workers, as docs/deploy.md
deploys) and `gunicorn` (two sync workers); every set-up on each, each on its own
SQLite file (or a PostgreSQL database with --pg), the set-ups interleaved burst by
burst so a noisy machine slows them alike.  Every line printed names its server.  Set-ups (benchmarks/concurrency_settings.py): the site's (IMMEDIATE,
20 s busy timeout, WAL, synchronous=NORMAL), IMMEDIATE alone, and Django's
and SQLite's defaults.  Prints medians and p95 in ms, the 5xx
count and whether every round was recorded once; never asserts.  Loopback only.
"""

from __future__ import annotations

import argparse
import html
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from benchmarks.served import SERVERS, runserver, stop_server

ROOT = Path(__file__).resolve().parent.parent
WIN = {"winner": "1", "discarder": "2", "hand": "111222333m456p7z", "win_tile": "7z"}
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
SELECT = r'<select name="{}">.*?<option value="([^"]*)" selected'


class Phone:
    """One phone: its own cookies and its own kept-alive connection (as a browser
    keeps one), so what is timed is the server's work, not TCP's accept queue."""

    def __init__(self, base: str) -> None:
        host, port = urllib.parse.urlsplit(base)[1].split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=120)
        self.cookies: dict[str, str] = {}

    def send(self, path: str, data: dict[str, str] | None = None) -> tuple[int, float, str]:
        """(status, ms, body); status 0 when the connection failed."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        t0 = time.perf_counter()
        for again in (False, True):
            try:
                self.conn.request("POST" if body else "GET", path, body, headers)
                r = self.conn.getresponse()
                status, text = r.status, r.read().decode()
                break
            except ConnectionError:
                # The server closed the kept-alive connection while it was idle
                # (uvicorn after 5 s): a browser sends the request again on a new one.
                self.conn.close()
                if again:
                    return 0, (time.perf_counter() - t0) * 1000, ""
            except OSError:
                self.conn.close()  # reconnects on the next request
                return 0, (time.perf_counter() - t0) * 1000, ""
        ms = (time.perf_counter() - t0) * 1000
        for value in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return status, ms, text

    def record_form(self, code: str) -> dict[str, str]:
        page = self.send(f"/s/{code}/record")[2]
        state = {k: html.unescape(v) for k, v in HIDDEN.findall(page)}
        state.pop("csrfmiddlewaretoken", None)
        for name in ("dealer", "wind"):
            m = re.search(SELECT.format(name), page, re.S)
            state[name] = m.group(1) if m else ""
        return {**state, **WIN, "confirm": "1"}


class Setup:
    """One server on its own database."""

    def __init__(
        self, name: str, database_url: str, variant: str, server: str = "runserver"
    ) -> None:
        self.name = f"{name}, {server}"
        self.url = database_url
        self.variant = variant
        self.server = server
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""
        self.codes: list[str] = []
        self.confirms: dict[int, list[float]] = {}
        self.polls: dict[int, list[float]] = {}
        self.errors: dict[int, int] = {}
        self.bursts: dict[int, list[float]] = {}

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "MAHJONG_LISTEN")}
        env.update(
            DATABASE_URL=self.url,
            DJANGO_SETTINGS_MODULE="benchmarks.concurrency_settings",
            BENCH_SQLITE=self.variant,
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            DJANGO_ALLOW_INSECURE_KEY="1",
            DJANGO_STATIC_MANIFEST="0",
            PYTHONPATH=str(ROOT),
        )
        return env

    def start(self) -> None:
        self.proc, self.base = runserver(ROOT, self.env(), self.name, self.server)

    def stop(self) -> None:
        stop_server(self.proc)

    def tables(self, n: int) -> list[str]:
        """`n` MCR tables (made through the ORM of a short subprocess, not timed)."""
        while len(self.codes) < n:
            script = (
                "import django; django.setup();"
                "from scorer.models import GameSession;"
                f"print(' '.join(GameSession.objects.create(ruleset='mcr', players=list('甲乙丙丁')).code"
                f" for _ in range({n - len(self.codes)})))"
            )
            out = subprocess.run(
                [sys.executable, "-c", script], cwd=ROOT, env=self.env(),
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            self.codes += out.stdout.split()
        return self.codes[:n]

    def rounds(self) -> tuple[int, int]:
        """(rounds recorded, distinct form tokens among them)."""
        script = (
            "import django; django.setup();"
            "from scorer.models import Round;"
            "print(Round.objects.count(), Round.objects.values('token').distinct().count())"
        )
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=self.env(),
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        a, b = out.stdout.split()
        return int(a), int(b)


def burst(setup: Setup, n_tables: int, phones: dict[str, list[Phone]]) -> None:
    """Every table: one phone confirms its round, three poll, all at the same instant."""
    codes = setup.tables(n_tables)
    jobs: list[tuple[Phone, str, dict[str, str] | None, str]] = []
    for code in codes:
        table = phones.setdefault(code, [])
        while len(table) < 4:
            p = Phone(setup.base)
            p.send("/")  # the CSRF cookie
            table.append(p)
        jobs.append((table[0], f"/s/{code}/record/confirm", table[0].record_form(code), "confirm"))
        jobs += [(p, f"/s/{code}/tallies", None, "poll") for p in table[1:]]
    barrier = threading.Barrier(len(jobs) + 1)
    results: list[tuple[str, int, float]] = []
    lock = threading.Lock()

    def run(job: tuple[Phone, str, dict[str, str] | None, str]) -> None:
        phone, path, data, kind = job
        barrier.wait()
        status, ms, _ = phone.send(path, data)
        with lock:
            results.append((kind, status, ms))

    threads = [threading.Thread(target=run, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    setup.bursts.setdefault(n_tables, []).append((time.perf_counter() - t0) * 1000)
    setup.confirms.setdefault(n_tables, []).extend(ms for k, s, ms in results if k == "confirm")
    setup.polls.setdefault(n_tables, []).extend(ms for k, s, ms in results if k == "poll")
    bad = sum(1 for k, s, _ in results if s >= 500 or s == 0 or (k == "confirm" and s != 302))
    setup.errors[n_tables] = setup.errors.get(n_tables, 0) + bad


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.concurrency")
    ap.add_argument("--tables", default="1,4,8,16,32", help="table counts, comma separated")
    ap.add_argument("--bursts", type=int, default=5, help="bursts per table count and set-up")
    ap.add_argument("--variants", default="ours,immediate,default")
    ap.add_argument("--pg", default="", help="also a PostgreSQL database (created, migrated)")
    ap.add_argument("--servers", default="runserver",
                    help=f"each set-up on each of these servers: {', '.join(SERVERS)}")  # fmt: skip
    args = ap.parse_args(argv)
    servers = args.servers.split(",")
    counts = [int(x) for x in args.tables.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="mj-bench-"))
    template = tmp / "template.sqlite3"
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    base_env = {**os.environ, "DJANGO_ALLOW_INSECURE_KEY": "1", "DJANGO_STATIC_MANIFEST": "0"}
    base_env.pop("DJANGO_DEBUG", None)
    subprocess.run(migrate, cwd=ROOT, check=True,
                   env={**base_env, "DATABASE_URL": f"sqlite:///{template}"})  # fmt: skip
    setups = []
    for server in servers:
        for v in args.variants.split(","):
            db = tmp / f"{v}-{server}.sqlite3"
            shutil.copy(template, db)
            setups.append(Setup(f"SQLite {v}", f"sqlite:///{db}", v, server))
        if args.pg:
            import psycopg

            parts = urllib.parse.urlsplit(args.pg)
            name = f"{parts.path.lstrip('/')}_{server}"  # a database per server
            url = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
            admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{name}"')
                c.execute(f'CREATE DATABASE "{name}"')
            subprocess.run(migrate, cwd=ROOT, check=True, env={**base_env, "DATABASE_URL": url})
            setups.append(Setup("PostgreSQL", url, "ours", server))
    print(
        f"# Concurrent tables, each set-up on its server ({', '.join(servers)}; "
        f"{args.bursts} bursts per row; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs)"
    )
    print(
        "per row: confirm median / p95 ms, poll median / p95 ms, burst (all answered) median ms, bad answers"
    )
    try:
        for s in setups:
            s.start()
        phones: dict[str, dict[str, list[Phone]]] = {s.name: {} for s in setups}
        for n in counts:
            for _ in range(args.bursts):
                for s in setups:  # interleaved: the machine's noise falls on all alike
                    burst(s, n, phones[s.name])
            print(f"\n## {n} table(s), {4 * n} phones at once")
            for s in setups:
                conf, p = s.confirms[n], s.polls[n]
                poll = f"{statistics.median(p):.0f} / {p95(p):.0f}" if p else "-"
                print(
                    f"- {s.name}: confirm {statistics.median(conf):.0f} / {p95(conf):.0f}, "
                    f"poll {poll}, burst {statistics.median(s.bursts[n]):.0f}, "
                    f"bad {s.errors[n]}/{len(conf) + len(p)}"
                )
        print("\n## Rounds recorded (each confirmed once: every one accepted is there once)")
        for s in setups:
            got, distinct = s.rounds()
            expected = args.bursts * sum(counts) - sum(s.errors.values())
            print(f"- {s.name}: {got} rounds, {distinct} distinct forms; {expected} answered 302")
    finally:
        for s in setups:
            s.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
