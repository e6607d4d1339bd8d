"""The room's dashboard, live: a table started and a round recorded show on an
admin's open dashboard without a reload, told by the room's event stream."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models.tables import RoomTable
from tests.factories import DRAW, make_member, make_room, make_table, record
from tests.support.browser import sign_in

pytestmark = pytest.mark.browser


def test_the_dashboard_follows_the_room(page: Page, live_server: LiveServer, settings: Any) -> None:
    settings.LIVE_STREAM_SECONDS = 60
    settings.LIVE_HEARTBEAT = 1  # (the server's thread notices the page gone at teardown)
    room = make_room("east")
    sign_in(page, live_server, make_member(room, "boss").user)
    with page.expect_response(lambda r: "/manage/events" in r.url and r.status == 200):
        page.goto(f"{live_server.url}/r/{room.slug}/manage/")
    expect(page.locator("#open-title")).to_contain_text("0")
    s = make_table("mcr", ["甲", "乙", "丙", "丁"], room=room)  # started on a phone
    expect(page.locator("#open-title")).to_contain_text("1", timeout=2000)
    expect(page.locator(f"#open-{s.code}")).to_contain_text("0 局", timeout=2000)
    record(s, DRAW)
    expect(page.locator(f"#open-{s.code}")).to_contain_text("1 局", timeout=2000)
    page.goto("about:blank")


def test_a_forms_errors_stay_on_screen_when_the_room_changes(
    page: Page, live_server: LiveServer, settings: Any
) -> None:
    """The tables page is live too, but a form sent back with its errors is not
    fetched away under the admin: what went wrong stays until he sends it again."""
    settings.LIVE_STREAM_SECONDS = 60
    settings.LIVE_HEARTBEAT = 1
    room = make_room("east")
    RoomTable.objects.create(room=room, number=1)
    sign_in(page, live_server, make_member(room, "boss").user)
    # The first page's stream is awaited here, so that the one awaited below is the
    # reloaded page's (a late answer of the first would pass for it, and a change made
    # before the second stream subscribed would go unheard).
    with page.expect_response(lambda r: "/manage/events" in r.url and r.status == 200):
        page.goto(f"{live_server.url}/r/{room.slug}/manage/tables/")
    page.locator(".start-form").get_by_label("桌号").fill("1")  # taken: refused
    with page.expect_response(lambda r: "/manage/events" in r.url and r.status == 200):
        page.locator(".start-form button[type=submit]").click()
    errors = page.locator("#room-live .form-errors")
    expect(errors).to_be_visible()
    page.evaluate(
        """() => { window.heard = 0; document.body.addEventListener('htmx:sseMessage',
        () => { window.heard += 1; }); }"""
    )
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/manage/tables" in r.url else None)
    make_table("mcr", ["甲", "乙", "丙", "丁"], room=room)  # the room changes meanwhile
    page.wait_for_function("() => window.heard > 0", timeout=3000)
    page.wait_for_timeout(200)  # past htmx's own handling of the event
    expect(errors).to_be_visible()
    assert fetched == []
    page.goto("about:blank")
