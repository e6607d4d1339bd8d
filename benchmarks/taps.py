"""python -m benchmarks.taps: from the last of 14 quick taps to the final total, on a slow network.

With 400 ms added to every request, taps queued behind the answer in flight go
to the server together (static/js/taps.js, scorer/views/record.py `posted_pick`);
sent one request each, the total of a hand tapped in quickly comes seconds after
the last tap.

Two servers side by side, each `manage.py runserver` on its own SQLite file:
**before**, the peer, a `git archive` of --before (default 108f47a, which sends
one request per queued tap), **after** this checkout.  Chromium (Playwright, $CHROMIUM or /usr/bin/chromium)
as a 360x740 phone with --latency ms added to every request by the DevTools
protocol; each run opens a fresh table's record page, chooses the winner and
the discarder, turns the latency on, taps the 14 tiles of a winning hand
--gap ms apart, and times from the last tap (its click in the page) to the
moment the page shows the final total with no tap pending and no request in
flight (polled every animation frame).  The two servers alternate run by run,
so a noisy machine slows both alike.  Prints medians (and the range) and the
ratio; never asserts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from benchmarks.served import runserver, stop_server

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["张三", "李四", "王五", "赵六"]
# 111m 222m 333m 456p 中中: tests/browser/test_table_flow.py's hand (MCR, 45 fans).
TAPS = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4p", "5p", "6p", "7z", "7z"]

DONE = """() => {
  const form = document.querySelector('#record-form');
  const total = document.querySelector('.pk-total');
  const count = document.querySelector('.pk-hand-count');
  const settled = total && count && /^14\\b/.test(count.textContent.trim()) &&
    !form.classList.contains('htmx-request') && !document.querySelector('.pk-pending');
  return settled ? performance.now() : false;
}"""

TAP = """code => { document.getElementById('g-' + code).click(); return performance.now(); }"""


class Server:
    """One runserver on its own SQLite file, serving the code under `root`."""

    def __init__(self, name: str, root: Path, work: Path) -> None:
        self.name, self.root = name, root
        self.db = work / f"{name}.sqlite3"
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""
        self.samples: list[float] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "MAHJONG_LISTEN")}
        env.update(
            DATABASE_URL=f"sqlite:///{self.db}",
            DJANGO_SETTINGS_MODULE="mahjong_site.settings",
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            DJANGO_ALLOW_INSECURE_KEY="1",
            DJANGO_STATIC_MANIFEST="0",
            PYTHONPATH=str(self.root),
        )
        return env

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=self.root, env=self.env(),
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return out.stdout

    def start(self) -> None:
        self.manage("migrate", "--verbosity", "0")
        self.proc, self.base = runserver(self.root, self.env(), self.name)

    def stop(self) -> None:
        stop_server(self.proc)

    def tables(self, n: int) -> list[str]:
        """`n` fresh MCR tables (through the ORM of the served code; not timed)."""
        script = (
            "from scorer.models import GameSession\n"
            f"for _ in range({n}):\n"
            f"    print(GameSession.objects.create(ruleset='mcr', players={PLAYERS!r}).code)\n"
        )
        return self.manage("shell", "-c", script).split()


def checkout(rev: str, into: Path) -> Path:
    """The project as it was at `rev` (git archive), for the "before" server."""
    data = subprocess.run(
        ["git", "archive", "--format=tar", rev], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def one_run(browser: Browser, server: Server, code: str, latency: int, gap: int) -> float:
    """ms from the last tap to the final total."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
        has_touch=True, locale="zh-CN",
    )  # fmt: skip
    try:
        page = context.new_page()
        page.goto(f"{server.base}/s/{code}/record")
        for tap in ("winner:1", "from:2"):
            page.locator(f'button[value="{tap}"]').click()
            page.wait_for_selector(f'button[value="{tap}"][aria-pressed="true"]')
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": latency, "downloadThroughput": -1,
             "uploadThroughput": -1},
        )  # fmt: skip
        last = 0.0
        for i, tile in enumerate(TAPS):
            if i:
                page.wait_for_timeout(gap)
            last = float(page.evaluate(TAP, tile))
        done = page.wait_for_function(DONE, polling="raf", timeout=60_000).json_value()
        return float(done) - last
    finally:
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="108f47a", help="the commit to compare with")
    ap.add_argument("--runs", type=int, default=9, help="runs per server")
    ap.add_argument("--latency", type=int, default=400, help="ms added to every request")
    ap.add_argument("--gap", type=int, default=100, help="ms between two taps")
    args = ap.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        servers = [
            Server("before", checkout(args.before, work / "before"), work),
            Server("after", ROOT, work),
        ]
        try:
            for s in servers:
                s.start()
            codes = {s.name: s.tables(args.runs + 1) for s in servers}
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
                )
                for s in servers:  # warm each server's imports and templates, not timed
                    one_run(browser, s, codes[s.name].pop(), args.latency, args.gap)
                for _ in range(args.runs):
                    for s in servers:
                        s.samples.append(
                            one_run(browser, s, codes[s.name].pop(), args.latency, args.gap)
                        )
                browser.close()
        finally:
            for s in servers:
                s.stop()
    print(
        f"## 14 taps {args.gap} ms apart at {args.latency} ms latency: "
        f"last tap -> final total, ms ({args.runs} runs each)"
    )
    med = {s.name: statistics.median(s.samples) for s in servers}
    for s in servers:
        print(
            f"{s.name:7} median {med[s.name]:7.0f}   range {min(s.samples):.0f}-"
            f"{max(s.samples):.0f}   runs {' '.join(f'{x:.0f}' for x in s.samples)}"
        )
    print(f"ratio after/before {med['after'] / med['before']:.2f}")


if __name__ == "__main__":
    main()
