"""python -m benchmarks.lighthouse (make lighthouse): Lighthouse's four scores for the
pages players use, in Chinese and in English, as a phone on slow 4G sees them.

A throwaway production-like server: DEBUG off, collectstatic's hashed and
compressed files served by whitenoise, uvicorn with two workers on 127.0.0.1 as
docs/deploy.md deploys it (the table page's event stream served by the ASGI app
ahead of Django), a fresh SQLite
database in a temporary folder with demo tables (an MCR table with a win and a
draw, a closed one for the result page). Lighthouse 12 (npm, package.json; run
through node_modules/.bin) with its defaults: mobile form factor, simulated
throttling (slow 4G, 4x CPU). Chromium from $CHROME_PATH (default /usr/bin/chromium).

Prints one line per page and language and writes the reports to
test-artifacts/lighthouse/ (<page>-<lang>.json, summary.md). Not a test and not
in CI: a run takes a few minutes and measures; docs/performance.md quotes it.
After each run it counts the server's connections still open once Chromium has
gone ("held"): a stream the server kept would show there, and take the next page's
place (under gunicorn's sync workers the table page's stream held a worker for
30 s, and the record page got none: NO_NAVSTART).  --rounds N runs the pages N
times against the one server.  Exit status 1 when a run failed, left a connection
held, or scored under --min (accessibility, best practices, SEO; default 100) or
--min-performance (default 90: the performance score moves with the machine's
load, a few points of TBT on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
OUT = ROOT / "test-artifacts" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
LANGUAGES = ("zh-hans", "en")
PLAYERS = ["张三", "李四", "王五", "赵六"]
# 111m 222m 333m 456p 中中 (MCR, 45 fans): tests/browser/test_table_flow.py's hand.
HAND = {"concealed": "111222333m456p7z", "win_tile": "7z"}
CHROME_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(db: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_ALLOW_INSECURE_KEY="1",
        DJANGO_STATIC_MANIFEST="1",
        DATABASE_URL=f"sqlite:///{db}",
        PYTHONPATH=str(ROOT),
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


DEMO = f"""
import json, uuid
from scorer.models import GameSession
from scorer.services.seating import seat_players
hand = {HAND!r}
mcr = GameSession.objects.create(ruleset="mcr", players={PLAYERS!r})
seat_players(mcr)
mcr.record_round(uuid.uuid4(), {{"kind": "win", "mode": "tiles", "winner": 1, "discarder": 2, "hand": hand}})
mcr.record_round(uuid.uuid4(), {{"kind": "draw"}})
closed = GameSession.objects.create(ruleset="mcr", players={PLAYERS!r})
closed.record_round(uuid.uuid4(), {{"kind": "win", "mode": "tiles", "winner": 0, "discarder": None, "hand": hand}})
closed.close()
print(json.dumps({{"mcr": mcr.code, "closed": closed.code}}))
"""


def demo_tables(env: dict[str, str]) -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", DEMO],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    codes: dict[str, str] = json.loads(out.stdout.strip().splitlines()[-1])
    return codes


def pages(codes: dict[str, str]) -> dict[str, str]:
    mcr, closed = codes["mcr"], codes["closed"]
    return {
        "home": "/",
        "table": f"/s/{mcr}/",
        "record": f"/s/{mcr}/record",
        "ledger": f"/s/{mcr}/ledger",
        "round": f"/s/{mcr}/rounds/1/",
        "result": f"/s/{closed}/final",
    }


def wait_until_up(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url + "healthz", timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def lighthouse(url: str, language: str, report: Path, chrome: str) -> dict[str, Any]:
    """One Lighthouse run; its scores, or {"error": …} when the run failed (a page
    that never loaded: NO_NAVSTART, NO_FCP …)."""
    cmd = [
        str(LIGHTHOUSE), url,
        "--quiet", "--output=json", f"--output-path={report}",
        f"--chrome-flags={CHROME_FLAGS}",
        f"--extra-headers={json.dumps({'Cookie': f'django_language={language}'})}",
        f"--locale={'zh' if language.startswith('zh') else 'en'}",
    ]  # fmt: skip
    report.unlink(missing_ok=True)
    run = subprocess.run(cmd, check=False, env={**os.environ, "CHROME_PATH": chrome})
    if not report.exists():
        return {"error": f"lighthouse exited {run.returncode} with no report"}
    data = json.loads(report.read_text(encoding="utf-8"))
    if data.get("runtimeError") or run.returncode:
        error = (data.get("runtimeError") or {}).get("code", f"exit {run.returncode}")
        return {"error": error, "served": served(data, url)}
    scores: dict[str, Any] = {
        c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES
    }
    audits = data["audits"]
    scores["cls"] = audits["cumulative-layout-shift"]["numericValue"]
    scores["tbt_ms"] = audits["total-blocking-time"]["numericValue"]
    scores["lcp_ms"] = audits["largest-contentful-paint"]["numericValue"]
    failed = [
        f"{c}: {audits[ref['id']]['title']}"
        for c in CATEGORIES
        for ref in data["categories"][c]["auditRefs"]
        if ref["weight"]
        and audits[ref["id"]]["score"] is not None
        and audits[ref["id"]]["score"] < 1
    ]
    scores["failed"] = failed
    return scores


def served(data: dict[str, Any], url: str) -> str:
    """How the server answered the page in a failed run, from the run's own network
    log: "200 in 105 ms" when it answered the page and every request the page
    made (the failure is then Chromium's or Lighthouse's: a trace without its
    navigation start, NO_NAVSTART, seen under a heavy load), "" when it did not."""
    items = data.get("audits", {}).get("network-requests", {}).get("details", {}).get("items", [])
    page = next((i for i in items if i.get("url") == url), None)
    if (
        page is None
        or page.get("statusCode") != 200
        or any(not i.get("finished") or i.get("statusCode", 0) >= 400 for i in items)
    ):
        return ""
    return f"200 in {page['networkEndTime'] - page['networkRequestTime']:.0f} ms"


def held_connections(port: int, settle: float = 5.0) -> int:
    """The server's connections still open after a run (Chromium has exited): a
    stream the server did not let go of would stay here.  Read from /proc/net/tcp*
    (state 01, ESTABLISHED, on the server's port); waits up to `settle` s for 0."""
    deadline = time.monotonic() + settle
    while True:
        held = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = Path(table).read_text().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                local, state = line.split()[1], line.split()[3]
                if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
                    held += 1
        if held == 0 or time.monotonic() > deadline:
            return held
        time.sleep(0.2)


def row(name: str, language: str, s: dict[str, Any]) -> str:
    if "error" in s:
        return f"{name:7} {language:7} FAILED: {s['error']}"
    return (
        f"{name:7} {language:7} "
        + " ".join(f"{c[:4]} {s[c]:3}" for c in CATEGORIES)
        + f"  CLS {s['cls']:.3f} TBT {s['tbt_ms']:.0f} ms LCP {s['lcp_ms']:.0f} ms"
        + f"  held {s['held']}"
    )


def below(s: dict[str, Any], least: int, least_performance: int) -> bool:
    if "error" in s or s["held"]:
        return True
    return s["performance"] < least_performance or any(s[c] < least for c in CATEGORIES[1:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min", type=int, default=100,
                        help="lowest acceptable accessibility, best-practices and SEO score")  # fmt: skip
    parser.add_argument("--min-performance", type=int, default=90,
                        help="lowest acceptable performance score (it moves with the machine's load)")  # fmt: skip
    parser.add_argument("--pages", nargs="*", help="only these pages (home, table, ...)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every page and language this many times against the one server")  # fmt: skip
    args = parser.parse_args(argv)
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not LIGHTHOUSE.exists():
        print(f"{LIGHTHOUSE} missing: run `make node` (npm ci)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="mj-lighthouse-"))
    env = server_env(tmp / "db.sqlite3")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    codes = demo_tables(env)
    port = free_port()
    base = f"http://localhost:{port}/"
    # As deployed (docs/deploy.md): uvicorn, two workers, the ASGI app serving the
    # table page's event stream ahead of Django.
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "mahjong_site.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", "2", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    rows: list[tuple[int, str, str, dict[str, Any]]] = []
    again, load = 0, os.getloadavg()
    try:
        wait_until_up(base)
        for n in range(1, args.rounds + 1):
            if args.rounds > 1:
                print(f"round {n} of {args.rounds}", flush=True)
            for name, path in pages(codes).items():
                if args.pages and name not in args.pages:
                    continue
                for language in LANGUAGES:
                    url = base.rstrip("/") + path
                    report = OUT / f"{name}-{language}.json"
                    s = lighthouse(url, language, report, chrome)
                    for _ in range(2):  # Lighthouse's own advice for a bad trace: run again
                        if not s.get("served"):
                            break
                        print(f"{name:7} {language:7} {s['error']}, the page served"
                              f" ({s['served']}): run again", flush=True)  # fmt: skip
                        s = lighthouse(url, language, report, chrome)
                        again += 1
                    s["held"] = held_connections(port)
                    print(row(name, language, s), flush=True)
                    for f in s.get("failed", []):
                        print(f"        not met: {f}", flush=True)
                    rows.append((n, name, language, s))
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    version = subprocess.run(
        [str(LIGHTHOUSE), "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    chromium = subprocess.run([chrome, "--version"], capture_output=True, text=True, check=False)
    lines = [
        f"Lighthouse {version}, {chromium.stdout.strip()}, mobile, simulated slow 4G;"
        f" uvicorn, 2 workers; load average {load[0]:.1f} at the start,"
        f" {os.getloadavg()[0]:.1f} at the end; runs made again: {again}",
        "",
        "| round | page | language | performance | accessibility | best practices | SEO | CLS"
        " | TBT | LCP | connections held after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n, name, language, s in rows:
        if "error" in s:
            lines.append(f"| {n} | {name} | {language} | failed: {s['error']} |")
            continue
        lines.append(
            f"| {n} | {name} | {language} | "
            + " | ".join(str(s[c]) for c in CATEGORIES)
            + f" | {s['cls']:.3f} | {s['tbt_ms']:.0f} ms | {s['lcp_ms'] / 1000:.1f} s | {s['held']} |"
        )
    (OUT / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = [r for r in rows if below(r[3], args.min, args.min_performance)]
    print(f"reports: {OUT}/; {len(rows) - len(bad)} of {len(rows)} runs met the minimums")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
