"""No phone silently out of date: faults injected on the fetch that follows a change.

Two phones at one table, one on the table page, one on 结算, both told of every
change by their event stream.  The fetch after a change fails: a 503 "busy", a
dropped answer, 20 s of the phone's offline mode with two changes meanwhile, and a
slow fetch during which a second change is made.  Each time both phones say they
are catching up (正在同步…) while a fetch fails, and show the newest round within
5 s of the fault's end, with no reload.  The faults are Playwright routes and the
browser's offline switch, not real outages.  The changes are made on the server,
as another phone's 确认 would make them (the stream carries them the same way).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from tests.factories import by_tiles, make_table, record
from tests.support.browser import PLAYERS

pytestmark = pytest.mark.browser

WITHIN_MS = 5_000  # the invariant: the newest version within 5 s of the fault's end
SYNCING = "正在同步…"

# A live fetch (js/live.js) names the region it fetches: the table page's tallies, or
# a table page's region (结算, the ledger, a round's page).
LIVE_TARGETS = {"tallies", "live-page"}


def is_live_fetch(request: Request) -> bool:
    return request.headers.get("hx-target") in LIVE_TARGETS


@pytest.fixture
def table(settings: Any) -> GameSession:
    settings.LIVE_STREAM_SECONDS = 120
    settings.LIVE_HEARTBEAT = 1  # (the server's thread notices the page gone at teardown)
    return make_table("mcr", PLAYERS, first_dealer=0)


def open_phones(page: Page, second_page: Page, live_server: LiveServer, s: GameSession) -> None:
    """Phone A on the table page, phone B on 结算, each with its stream open; each
    page marked, so that a reload (which would drop the mark) fails the test."""
    for p, path in ((page, ""), (second_page, "final")):
        with p.expect_response(lambda r: "/events" in r.url and r.status == 200):
            p.goto(f"{live_server.url}/s/{s.code}/{path}")
        p.evaluate("() => { window.mahjongNotReloaded = true; }")


def region(p: Page) -> Any:
    return p.locator("[data-live-version]")


def newest_within(phones: list[Page], s: GameSession, rounds: int, ms: int = WITHIN_MS) -> None:
    """Every phone shows the table's version and its rounds, within `ms`, not reloaded,
    and no longer says it is catching up."""
    s.refresh_from_db()
    t0 = time.monotonic()
    for p in phones:
        left = max(1, int(ms - (time.monotonic() - t0) * 1000))
        expect(region(p)).to_have_attribute("data-live-version", str(s.version), timeout=left)
        expect(p.locator("#tallies .round-info, #live-page > .help").first).to_contain_text(
            f"已打 {rounds} 局"
        )
        expect(p.locator(".live-sync")).to_be_hidden()
        assert p.evaluate("() => window.mahjongNotReloaded === true"), "the page was reloaded"


def fail_first_fetch(p: Page, fail: Callable[[Route], None]) -> list[str]:
    """The phone's first live fetch fails as `fail` makes it; the others go through.
    Returns what happened to each live fetch, in order ("failed", "passed")."""
    seen: list[str] = []

    def handle(route: Route) -> None:
        if not is_live_fetch(route.request):
            route.continue_()
        elif not seen:
            seen.append("failed")
            fail(route)
        else:
            seen.append("passed")
            route.continue_()

    p.route(lambda url: "/tallies" in url or "/final" in url, handle)
    return seen


def busy(route: Route) -> None:
    route.fulfill(status=503, body="busy", headers={"Retry-After": "1"})


def dropped(route: Route) -> None:
    route.abort("connectionreset")


@pytest.mark.parametrize("fault", [busy, dropped], ids=["503", "dropped"])
def test_a_failed_fetch_after_a_change_is_retried(
    page: Page,
    second_page: Page,
    live_server: LiveServer,
    table: GameSession,
    fault: Callable[[Route], None],
) -> None:
    s = table
    open_phones(page, second_page, live_server, s)
    phones = [page, second_page]
    outcomes = [fail_first_fetch(p, fault) for p in phones]
    record(s, by_tiles(winner=1, discarder=2))
    for p, seen in zip(phones, outcomes, strict=True):
        # The fetch the stream's nudge asked for failed: the phone says it is
        # catching up (until its retry, 0.5 s later, succeeds).
        p.wait_for_function("() => document.querySelector('.live-sync') !== null")
        assert seen[:1] == ["failed"], seen
    # The fault is over once each phone's failed fetch is answered: within 5 s the
    # phones show round 1, with no reload.
    newest_within(phones, s, 1)
    for seen in outcomes:
        assert seen[0] == "failed" and "passed" in seen, seen


def test_offline_for_20_seconds_with_two_changes(
    page: Page, second_page: Page, live_server: LiveServer, table: GameSession
) -> None:
    s = table
    open_phones(page, second_page, live_server, s)
    phones = [page, second_page]
    for p in phones:
        p.context.set_offline(True)
    record(s, by_tiles(winner=1, discarder=2))
    page.wait_for_timeout(10_000)
    record(s, by_tiles(winner=3, discarder=0))
    page.wait_for_timeout(10_000)
    for p in phones:  # nothing could be fetched: both still show the empty table
        expect(p.locator("#tallies .round-info, #live-page > .help").first).not_to_contain_text(
            "已打 2 局"
        )
        p.context.set_offline(False)
    newest_within(phones, s, 2)


def test_two_changes_while_one_fetch_is_slow(
    page: Page, second_page: Page, live_server: LiveServer, table: GameSession
) -> None:
    """The second change is made while the first one's fetch is on its way (the fetch
    has its answer, round 1, but the phone has not): once it lands, the phone fetches
    again for the version its stream told it meanwhile, and shows round 2."""
    s = table
    open_phones(page, second_page, live_server, s)
    phones = [page, second_page]
    slowed: list[Page] = []
    second: list[int] = []

    def slow(p: Page) -> Callable[[Route], None]:
        def handle(route: Route) -> None:
            if not is_live_fetch(route.request) or p in slowed:
                route.continue_()
                return
            slowed.append(p)
            answer = route.fetch()  # round 1, as the table was when the fetch went out
            if not second:
                second.append(record(s, by_tiles(winner=3, discarder=0)).number)  # meanwhile
            time.sleep(1.0)  # the stream's nudge reaches the page before this answer
            route.fulfill(response=answer)

        return handle

    for p in phones:
        p.route(lambda url: "/tallies" in url or "/final" in url, slow(p))
    record(s, by_tiles(winner=1, discarder=2))
    for _ in range(100):  # the first fetch goes out, and round 2 is made meanwhile
        if second:
            break
        page.wait_for_timeout(100)
    newest_within(phones, s, 2, ms=WITHIN_MS + 2_000)  # (each slow answer is held 1 s)
    assert sorted(slowed, key=phones.index) == phones and second == [2]
