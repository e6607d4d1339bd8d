"""The saved picture of a table (final.svg) in a real browser: every text of it is
drawn inside the picture: when the three losers tie (a first round won by
self-draw) the leader's chart label stays inside the chart, and a long name keeps
its score inside the right edge."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from tests.factories import make_table

pytestmark = pytest.mark.browser

NAMES = ["欧阳娜娜娜娜娜", "Alexander", "司马懿", "诸葛亮"]


def test_every_label_of_the_saved_picture_is_inside_it(page: Page, live_server: LiveServer) -> None:
    s = make_table("mcr", NAMES, params={})
    s.params = dict(s.rules.params)
    s.save()
    # 欧阳… self-draws: the three others lose the same.
    s.record_round(uuid.uuid4(), {"kind": "win", "mode": "tiles", "winner": 0, "discarder": None,
                                  "hand": {"concealed": "111m222m333m456p7z", "win_tile": "7z"}})  # fmt: skip
    total = s.tallies()
    assert total[1] == total[2] == total[3] < 0
    page.goto(f"{live_server.url}/s/{s.code}/final.svg")
    texts = page.evaluate(
        """() => {
          const root = document.documentElement.getBoundingClientRect();
          return [...document.querySelectorAll('text')].map(t => {
            const r = t.getBoundingClientRect();
            return {text: t.textContent, cls: t.getAttribute('class') || '',
                    left: r.left - root.left, right: r.right - root.left,
                    top: r.top - root.top, bottom: r.bottom - root.top,
                    width: root.width, height: root.height};
          });
        }"""
    )
    chart = [t for t in texts if t["cls"].startswith("chart-")]
    assert len(chart) == 8, chart
    for t in texts:
        assert t["left"] >= 0 and t["right"] <= t["width"] + 0.5, t
        assert t["top"] >= 0 and t["bottom"] <= t["height"] + 0.5, t
    # Whole names, and the score with the cards' minus sign.
    assert [t["text"] for t in chart if t["cls"] == "chart-label"] == NAMES
    scores = [t["text"] for t in chart if t["cls"] == "chart-score"]
    assert scores[1:] == [f"−{-total[1]}"] * 3 and scores[0] == f"+{total[0]}"
    # The labels do not overlap one another.
    boxes = sorted((t["top"], t["bottom"]) for t in chart if t["cls"] == "chart-label")
    assert all(a[1] <= b[0] + 1 for a, b in zip(boxes, boxes[1:], strict=False)), boxes
