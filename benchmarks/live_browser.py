"""Live tables in a real browser: an idle table, a page shown again, a worker killed.

    python -m benchmarks.live_browser [--pg URL] [--phones 8]

One uvicorn worker on PostgreSQL (the postgres broker), one table, `--phones`
pages of Debian's Chromium (Playwright, each its own context) showing it:

* idle, 30 s: the requests each page starts after it has loaded, and the
  database's transactions meanwhile (pg_stat_database.xact_commit);
* a page hidden and shown again (its visibilityState): how soon it fetches;
* the worker killed (SIGKILL) and started again 8 s later: how soon each page
  polls the tallies again, and how the pages' reconnects spread once it is back.

Figures: docs/performance.md, "Live tables".
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import psycopg
from playwright.sync_api import sync_playwright

from benchmarks.live import free_port, pg_conninfo, pg_env, stop_server, tables, uvicorn

HIDE = """(state) => { Object.defineProperty(document, 'visibilityState',
  {configurable: true, get: () => state}); document.dispatchEvent(new Event('visibilitychange')); }"""


def commits(conninfo: str) -> int:
    with psycopg.connect(conninfo, autocommit=True) as c:
        row = c.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        return int(row[0]) if row else 0


def noting(log: list[tuple[float, int, str, str]], page: int, kind: str) -> Any:
    """A handler noting a page's request or response: when seen, and its URL."""

    def note(r: Any) -> None:
        log.append((time.monotonic(), page, kind, r.url))

    return note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/bench_live")
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--baseline", type=float, default=30)
    args = parser.parse_args(argv)
    env = pg_env(args.pg)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = uvicorn(env, port)
    (code,) = tables(env, 1)
    b0 = commits(pg_conninfo(env))
    time.sleep(args.baseline)
    print(f"no page open, 30 s: database transactions {commits(pg_conninfo(env)) - b0}")
    log: list[tuple[float, int, str, str]] = []  # (time, page, kind, url)
    try:
        with sync_playwright() as pw:
            # One browser per phone, as phones are: one browser's contexts share its
            # 6 connections per host (HTTP/1.1), which the streams would use up.
            browsers = [
                pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for _ in range(args.phones)
            ]
            pages: list[Any] = []
            for i, browser in enumerate(browsers):
                page = browser.new_context().new_page()
                page.on("request", noting(log, i, "req"))
                page.on("response", noting(log, i, "resp"))
                page.goto(f"{base}/s/{code}/")
                pages.append(page)
            deadline = time.monotonic() + 30
            while (
                time.monotonic() < deadline
                and len({i for _, i, k, u in log if k == "resp" and "/events" in u}) < args.phones
            ):
                pages[0].wait_for_timeout(200)  # every page's stream open (events come in
                # while Playwright waits, never during a time.sleep: the times are when seen)
            pages[0].wait_for_timeout(2000)
            c0 = commits(pg_conninfo(env))
            pages[0].wait_for_timeout(1000)
            t0, c0b = time.monotonic(), commits(pg_conninfo(env))  # (c0b - c0: the reading's own)
            pages[0].wait_for_timeout(30_000)
            c1 = commits(pg_conninfo(env))
            c1 -= c0b - c0
            with psycopg.connect(pg_conninfo(env), autocommit=True) as c:
                recent = c.execute(
                    "SELECT backend_type, left(query, 60) FROM pg_stat_activity WHERE datname ="
                    " current_database() AND pid <> pg_backend_pid() AND query_start > now()"
                    " - interval '30 seconds'"
                ).fetchall()
            print(f"the database's sessions with a statement in those 30 s: {recent}")
            idle = [
                sum(1 for t, i, k, _ in log if t >= t0 and i == p and k == "req")
                for p in range(args.phones)
            ]
            opened = [
                sum(1 for t, i, k, u in log if t < t0 and i == p and k == "req" and "/events" in u)
                for p in range(args.phones)
            ]
            print(f"streams opened per page before the idle time: {opened}")
            extra = sorted(
                {u.split(str(port), 1)[1] for t, _, k, u in log if t >= t0 and k == "req"}
            )
            print(f"idle 30 s, {args.phones} pages: requests per page {idle} {extra}; "
                  f"database transactions {c1 - c0} (the statistics' own reads included)")  # fmt: skip
            # Hidden, then shown again: the fetch.
            shown: list[float] = []
            for _ in range(5):
                pages[0].evaluate(HIDE, "hidden")
                pages[0].wait_for_timeout(500)
                t = time.monotonic()
                pages[0].evaluate(HIDE, "visible")
                pages[0].wait_for_timeout(1500)
                fetched = [
                    x for x, i, k, u in log if x >= t and i == 0 and k == "req" and "/tallies" in u
                ]
                shown.append((fetched[0] - t) * 1000 if fetched else float("inf"))
            print(f"shown again -> tallies fetch: {', '.join(f'{x:.0f}' for x in shown)} ms")
            # The worker killed.
            proc.kill()
            killed = time.monotonic()
            pages[0].wait_for_timeout(8000)
            proc = uvicorn(env, port)
            back = time.monotonic()
            pages[0].wait_for_timeout(15_000)
            polls, reconnects = [], []
            for p in range(args.phones):
                first = [
                    t
                    for t, i, k, u in log
                    if t >= killed and i == p and k == "req" and "/tallies" in u
                ]
                polls.append(first[0] - killed if first else float("inf"))
                again = [
                    t
                    for t, i, k, u in log
                    if t >= back and i == p and k == "resp" and "/events" in u
                ]
                reconnects.append(again[0] - back if again else float("inf"))
            print(f"worker killed -> first poll per page (s): {', '.join(f'{x:.1f}' for x in polls)}; "
                  f"max {max(polls):.1f}")  # fmt: skip
            print(f"worker back -> stream reopened per page (s): "
                  f"{', '.join(f'{x:.1f}' for x in sorted(reconnects))}; spread "
                  f"{max(reconnects) - min(reconnects):.1f} s, median {statistics.median(reconnects):.1f}")  # fmt: skip
            for browser in browsers:
                browser.close()
    finally:
        stop_server(proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
