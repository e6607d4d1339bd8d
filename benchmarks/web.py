"""python -m benchmarks.web: server time of the table's pages through the Django test client.

Targets: the scoring preview <= 15 ms median; the session page with 300
recorded rounds <= 40 ms median; a tile tap on a weak network <= 4 KB on the
wire and <= 10 ms server time at p95.  The tap rows enter a whole hand tile by
tile, as a phone does (each answer's state is the next tap's), once as the page
asks (delta=1: only what changed) and once for the whole form (the peer),
interleaved in the same process, both
compressed by the site's middleware.  Runs on its own SQLite file so it never
touches a real database; prints figures, never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _setup(db: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")
    os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def median_ms(fn: Callable[[], object], rounds: int) -> float:
    fn()  # warm
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


WIN = {"kind": "win", "mode": "tiles", "winner": 1, "discarder": 2,
       "hand": {"concealed": "111m222m333m456p7z", "win_tile": "7z"}}  # fmt: skip


def preview_case(session: object) -> tuple[str, dict[str, str]]:
    """A full winning hand as the picker posts it (state format: scorer/views/record.py)."""
    from django.urls import reverse

    code = session.code  # type: ignore[attr-defined]
    state = {
        "token": str(uuid.uuid4()), "kind": "win", "winner": "1", "discarder": "2", "dealer": "0",
        "wind": "E", "mode": "tiles", "hand": "111222333m456p7z", "win_tile": "7z", "melds": "",
        "tool": "", "flags": "", "flowers": "0", "fans": "", "tap": "",
    }  # fmt: skip
    return reverse("scorer:preview", args=[code]), state


HAND_TAPS = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4p", "5p", "6p", "7z", "7z"]


def tap_sequence(
    client: Any, session: Any, delta: bool
) -> tuple[list[float], list[int], list[int]]:
    """One hand entered tap by tap: server ms, compressed and raw bytes of each answer."""
    import gzip
    import re
    from html import unescape

    from django.urls import reverse

    hidden = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
    page = client.get(reverse("scorer:record", args=[session.code])).content.decode()
    state = {k: unescape(v) for k, v in hidden.findall(page) if k != "csrfmiddlewaretoken"}
    state.update(dealer="0", wind="E")
    url = reverse("scorer:preview", args=[session.code])
    ms, wire, raw = [], [], []
    taps = ["winner:1", "from:2", *(f"tile:{t}" for t in HAND_TAPS)]
    for tap in taps:
        data = {**state, "tap": tap, **({"delta": "1"} if delta else {})}
        t0 = time.perf_counter()
        r = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip")
        elapsed = (time.perf_counter() - t0) * 1000
        body = r.content
        text = (
            gzip.decompress(body).decode() if r.get("Content-Encoding") == "gzip" else body.decode()
        )
        state.update(
            {k: unescape(v) for k, v in hidden.findall(text) if k != "csrfmiddlewaretoken"}
        )
        if tap.startswith("tile:"):
            ms.append(elapsed)
            wire.append(len(body))
            raw.append(len(text.encode()))
    assert "一色三节高" in text, "the last tap did not score the hand"
    return ms, wire, raw


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[-1] if len(xs) > 1 else xs[0]


def taps_report(client: Any, session: Any, repeat: int) -> None:
    """Tile taps, the page's delta answers against the whole form, interleaved."""
    runs: dict[bool, tuple[list[float], list[int], list[int]]] = {
        True: ([], [], []),
        False: ([], [], []),
    }
    for _ in range(max(3, repeat // 3)):
        for delta in (True, False):
            ms, wire, raw = tap_sequence(client, session, delta)
            runs[delta][0].extend(ms)
            runs[delta][1].extend(wire)
            runs[delta][2].extend(raw)
    for delta, label in (
        (False, "whole form (peer)"),
        (True, "only what changed (the page's tap)"),
    ):
        ms, wire, raw = runs[delta]
        print(
            f"- tile tap, {label}: server p50 {statistics.median(ms):.1f} ms, p95 {p95(ms):.1f} ms; "
            f"{statistics.median(wire) / 1024:.1f} KB on the wire (max {max(wire) / 1024:.1f}), "
            f"{statistics.median(raw) / 1024:.1f} KB uncompressed"
        )
    now, before = runs[True], runs[False]
    print(
        f"- ratio page's tap / whole form: server p50 {statistics.median(now[0]) / statistics.median(before[0]):.2f}, "
        f"bytes on the wire {statistics.median(now[1]) / statistics.median(before[1]):.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web")
    ap.add_argument("--rounds", type=int, default=300, help="rounds recorded in the session")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        _setup(Path(tmp) / "bench.sqlite3")
        from django.test import Client
        from django.urls import reverse

        from scorer.models import GameSession

        s = GameSession.objects.create(ruleset="mcr", players=["甲", "乙", "丙", "丁"])
        t0 = time.perf_counter()
        for i in range(args.rounds):
            entry = dict(WIN, winner=i % 4, discarder=(i + 1) % 4)
            s.record_round(uuid.uuid4(), entry)
        print(
            f"# web benchmarks (Django test client, SQLite file; Python {sys.version.split()[0]})"
        )
        print(f"- recorded {args.rounds} rounds in {time.perf_counter() - t0:.1f} s")
        c = Client(HTTP_HOST="localhost")
        pages = {
            "session page": reverse("scorer:session", args=[s.code]),
            "tallies partial (htmx)": reverse("scorer:tallies", args=[s.code]),
            "ledger": reverse("scorer:ledger", args=[s.code]),
            "record page": reverse("scorer:record", args=[s.code]),
        }

        def getter(url: str, extra: dict[str, Any]) -> Callable[[], object]:
            return lambda: c.get(url, **extra)

        for name, url in pages.items():
            extra: dict[str, Any] = {"HTTP_HX_REQUEST": "true"} if "htmx" in name else {}
            ms = median_ms(getter(url, extra), args.repeat)
            print(f"- {name} with {args.rounds} rounds: median {ms:.1f} ms")
        etag_url = pages["tallies partial (htmx)"]
        etag = c.get(etag_url, HTTP_HX_REQUEST="true").get("ETag", "")
        ms = median_ms(
            lambda: c.get(etag_url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag), args.repeat
        )
        print(f"- tallies poll answered 304 (nothing changed): median {ms:.2f} ms")
        url, data = preview_case(s)
        page = c.post(url, data, HTTP_HX_REQUEST="true").content.decode()
        assert "一色三节高" in page, "the preview did not score the hand"
        ms = median_ms(lambda: c.post(url, data, HTTP_HX_REQUEST="true"), args.repeat)
        print(
            f"- scoring preview (htmx POST, full winning hand, {args.rounds} rounds): median {ms:.1f} ms"
        )
        data_13 = dict(data, hand="111222333m456p", win_tile="7z")
        ms = median_ms(lambda: c.post(url, data_13, HTTP_HX_REQUEST="true"), args.repeat)
        print(f"- preview of a hand one tile short (waits): median {ms:.1f} ms")
        taps_report(Client(HTTP_HOST="localhost"), s, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
