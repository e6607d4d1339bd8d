"""A table page whose server keeps no streams polls instead, in a real browser.

Under a WSGI server (gunicorn: mahjong_site/wsgi.py) a table's event stream is
answered at once with `poll` (scorer/live/streams.py `wsgi_poll_instead`).  Here the
browser is handed exactly that answer for the stream (the live server itself is
the development server, which keeps streams): the page does not ask for the
stream again, polls its tallies (marked X-Live-Poll) every 3 s, and shows a round
recorded elsewhere within one poll.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorer.live.streams import HEADERS, POLL_INSTEAD
from tests.factories import DRAW, make_table, record
from tests.support.browser import PLAYERS

pytestmark = pytest.mark.browser


def test_a_table_page_told_poll_closes_its_stream_and_polls(
    page: Page, live_server: LiveServer
) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    streams: list[str] = []

    def as_gunicorn_answers(route: Route) -> None:
        streams.append(route.request.url)
        route.fulfill(status=200, headers=HEADERS, body=POLL_INSTEAD)

    page.route("**/events?*", as_gunicorn_answers)
    with page.expect_request(lambda r: "/tallies" in r.url, timeout=8000) as first:
        page.goto(f"{live_server.url}/s/{session.code}/")
        etag = page.locator("#tallies").get_attribute("data-etag")
    assert first.value.headers.get("x-live-poll") == "1"  # a poll, not a stream's fetch
    record(session, DRAW)  # a round recorded on another phone
    expect(page.locator("#tallies")).not_to_have_attribute("data-etag", etag or "", timeout=8000)
    with page.expect_request(lambda r: "/tallies" in r.url, timeout=8000):
        pass  # the page polls on
    assert len(streams) == 1  # told "poll" once: the stream is not asked for again
    page.goto("about:blank")


def test_a_table_page_whose_stream_is_refused_over_the_cap_polls(
    page: Page, live_server: LiveServer, settings: Any
) -> None:
    """The worker holds LIVE_MAX_STREAMS streams (here 0): the page's stream is
    refused (503) and the page polls its tallies, and shows a change within a poll."""
    settings.LIVE_MAX_STREAMS = 0
    session = make_table("mcr", PLAYERS, first_dealer=0)
    with (
        page.expect_response(lambda r: "/events" in r.url) as stream,
        page.expect_request(lambda r: "/tallies" in r.url, timeout=8000) as first,
    ):
        page.goto(f"{live_server.url}/s/{session.code}/")
        etag = page.locator("#tallies").get_attribute("data-etag")
    assert stream.value.status == 503
    assert first.value.headers.get("x-live-poll") == "1"
    record(session, DRAW)
    expect(page.locator("#tallies")).not_to_have_attribute("data-etag", etag or "", timeout=8000)
    page.goto("about:blank")
