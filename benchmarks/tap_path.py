"""python -m benchmarks.tap_path: the project's files one tile tap on the record page passes through.

A structural measure, not a timing: the last tile of a winning hand is posted
to the record page's preview (as a phone does, each answer's state the next
tap's), once on a table whose rounds are picked hands (国标) and once on one
played as events (四川).  During that one request a profiler notes every
function of the project that runs; the report lists the files in the order
they are first entered, and the templates it loads.  Runs on its own SQLite
file; prints, never asserts.
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any
from unittest.mock import patch

from benchmarks.web import _setup
from rules.tiles import parse_tiles, tile_str

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tuple(str(ROOT / d) + "/" for d in ("rules", "scorer", "mahjong_site"))
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
HANDS = {"mcr": "111222333m456p77z", "sichuan": "111222p333s44555s"}  # the last tile wins
EXPECT = {"mcr": "一色三节高", "sichuan": "对对胡"}  # a fan of the scored hand, on the answer


def last_tap(ruleset: str) -> tuple[list[str], list[str]]:
    """Files and templates the last tap of the case passes through."""
    from django.template.base import Template
    from django.template.engine import Engine
    from django.test import Client
    from django.urls import reverse

    from scorer.models import GameSession

    s = GameSession.objects.create(ruleset=ruleset, players=["甲", "乙", "丙", "丁"])
    c = Client(HTTP_HOST="localhost")
    page = c.get(reverse("scorer:record", args=[s.code])).content.decode()
    state = {k: html.unescape(v) for k, v in HIDDEN.findall(page) if k != "csrfmiddlewaretoken"}
    url = reverse("scorer:preview", args=[s.code])
    taps = ["winner:1", "from:2", *(f"tile:{tile_str(t)}" for t in parse_tiles(HANDS[ruleset]))]
    for tap in taps[:-1]:
        text = c.post(url, {**state, "tap": tap}, HTTP_HX_REQUEST="true").content.decode()
        state.update({k: html.unescape(v) for k, v in HIDDEN.findall(text)})
    files: dict[str, None] = {}
    templates: dict[str, None] = {}

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(PROJECT):
                files.setdefault(str(Path(name).relative_to(ROOT)))

    get_template = Engine.get_template

    def loading(engine: Engine, name: str) -> Template:
        templates.setdefault(name)
        return get_template(engine, name)

    with patch.object(Engine, "get_template", loading):
        sys.setprofile(profile)
        try:
            r = c.post(url, {**state, "tap": taps[-1]}, HTTP_HX_REQUEST="true")
        finally:
            sys.setprofile(None)
    assert r.status_code == 200 and EXPECT[ruleset] in r.content.decode(), "the tap did not score"
    return list(files), list(templates)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        _setup(Path(tmp) / "bench.sqlite3")
        for ruleset in HANDS:
            files, templates = last_tap(ruleset)
            print(f"## {ruleset}: {len(files)} project files, {len(templates)} templates")
            for f in files:
                print(f"- {f}")
            print("- templates: " + ", ".join(templates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
