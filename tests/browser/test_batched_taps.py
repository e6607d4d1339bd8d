"""Taps made while an answer is on its way go to the server together.

On a chess room's Wi-Fi every answer takes half a second or more.  The taps a
player makes meanwhile were sent one request at a time, so the final score came
one round trip per tap after the last one (~4 s for 14 taps at 400 ms).  Now
static/js/taps.js sends every tap queued behind the request in flight as one
request, which the server applies in order (scorer/views/record.py `posted_pick`).

These tests count requests, not time: the server's answers are held back
(Playwright's routing) while the player taps, then let through one by one.  Tools,
the winner and the 选番 list are tapped too: their order matters.  The final hand
and total must be the server's for every tap, applied one by one as before
(the expected state is computed here by the same `Pick.apply`, tap by tap).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from rules.registry import get_ruleset
from scorer.entry.pick import Pick
from scorer.models import GameSession
from scorer.scoring import evaluate
from tests.factories import make_table
from tests.support.browser import PLAYERS

pytestmark = pytest.mark.browser

# 14 quick taps: the winner, 自摸, two pungs by the meld tool, then tiles.
# Pungs of 1m and 2m, 333m, 456p, 中中: 14 tiles, self-drawn on the last 中.
TILE_TAPS = [
    "winner:1", "from:self", "tool:pung", "tile:1m", "tool:pung", "tile:2m",
    "tile:3m", "tile:3m", "tile:3m", "tile:4p", "tile:5p", "tile:6p", "tile:7z", "tile:7z",
]  # fmt: skip


class HeldAnswers:
    """Holds every preview request until the test lets it through, and counts them."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.held: list[Route] = []
        self.bodies: list[list[str]] = []
        page.route("**/record/preview", self._hold)

    def _hold(self, route: Route) -> None:
        form = route.request.post_data or ""
        from urllib.parse import parse_qs

        self.bodies.append(parse_qs(form, keep_blank_values=True).get("tap", []))
        self.held.append(route)

    def settle(self, timeout_s: float = 20.0) -> None:
        """Let the answers through, one at a time, until nothing is waiting."""
        end = time.monotonic() + timeout_s
        quiet = 0
        while time.monotonic() < end:
            if self.held:
                self.held.pop(0).continue_()
                quiet = 0
            busy = self.page.evaluate(
                "document.querySelector('#record-form').classList.contains('htmx-request')"
            )
            quiet = 0 if busy or self.held else quiet + 1
            if quiet >= 10:  # half a second with nothing in flight nor queued
                return
            self.page.wait_for_timeout(50)
        raise AssertionError("the taps never settled")


def tap(page: Page, value: str) -> None:
    """A tap as a finger makes it, without waiting for anything the tap causes."""
    page.locator(f'#record-form button[value="{value}"]').first.click(no_wait_after=True)


def server_state(session: GameSession, taps: list[str]) -> tuple[dict[str, str], Any]:
    """The state and total the server reaches applying the taps one by one."""
    rs = get_ruleset(session.ruleset)
    p = Pick.fresh(session, rs)
    for t in taps:
        p.apply(t, session.n_players, rs)
    return p.hidden(), evaluate(session, p.entry()).result["total"]


def form_state(page: Page) -> dict[str, str]:
    return dict(
        page.locator("#pk-state input").evaluate_all("els => els.map(e => [e.name, e.value])")
    )


KEYS = ("winner", "discarder", "mode", "hand", "win_tile", "melds", "tool", "fans", "flags")


def test_taps_behind_an_answer_go_in_one_request(page: Page, live_server: LiveServer) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    expect(page.locator(".pk-hand-count")).to_have_text("0 / 14 张")
    answers = HeldAnswers(page)
    for value in TILE_TAPS:
        tap(page, value)
    # The first tap's request is in flight, held; the other 13 wait in the page.
    assert len(answers.held) == 1
    # The tiles show at once, before any answer (a tile after a tool is the
    # server's to place: a meld, not one tile).
    page.wait_for_timeout(100)
    shown = page.locator("#pk-live .pk-pending").count()
    answers.settle()
    # At most two requests after the one in flight (here: one, with 13 taps in order).
    assert len(answers.bodies) <= 3, answers.bodies
    assert shown == 8
    assert [t for body in answers.bodies for t in body] == TILE_TAPS
    expected, total = server_state(session, TILE_TAPS)
    state = form_state(page)
    assert {k: state[k] for k in KEYS} == {k: expected[k] for k in KEYS}
    assert expected["melds"] == "pung:1m pung:2m" and expected["win_tile"] == "7z"
    expect(page.locator(".pk-pending")).to_have_count(0)
    expect(page.locator(".pk-total")).to_have_text(str(total))
    expect(page.locator(".pk-hand-count")).to_have_text("14 / 14 张")
    expect(page.locator(".pk-confirm")).to_be_enabled()


def test_fan_taps_behind_an_answer_go_in_one_request(page: Page, live_server: LiveServer) -> None:
    """选番: the fans, the winner and a fan taken back, in the order tapped."""
    session = make_table("mcr", PLAYERS, first_dealer=0)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    page.locator('button[value="mode:quick"]').click()
    expect(page.locator(".pk-quick-add").first).to_be_visible()
    fans = page.locator(".pk-quick-add").evaluate_all("els => els.map(e => e.value)")[:4]
    a, b, c, d = (f.rpartition(":")[0] for f in fans)
    answers = HeldAnswers(page)
    taps = [f"{a}:+", "winner:2", f"{b}:+", f"{c}:+", f"{a}:+", "from:0", f"{d}:+", f"{b}:+"]
    for value in taps:
        tap(page, value)
    assert len(answers.held) == 1
    answers.settle()
    # Taking one back: its "−" is there only once the answer says it is counted.
    tap(page, f"{c}:-")
    answers.settle()
    taps.append(f"{c}:-")
    assert len(answers.bodies) <= 4, answers.bodies
    assert [t for body in answers.bodies for t in body] == taps
    expected, total = server_state(session, ["mode:quick", *taps])
    state = form_state(page)
    assert {k: state[k] for k in KEYS} == {k: expected[k] for k in KEYS}
    assert expected["winner"] == "2" and expected["discarder"] == "0"
    expect(page.locator(".pk-total")).to_have_text(str(total))
