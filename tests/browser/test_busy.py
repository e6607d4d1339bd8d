"""A busy database, in a real browser: a confirm that cannot get the write lock in
time is answered "try again" (503); static/js/busy.js shows it above the page, the
hand entered stays, and tapping 确认 again, once the lock is free, records the
round once (the same one-time token).

The lock is really held: a second connection to the suite's in-memory SQLite
database (shared cache, which the live server's connection is on) in a write
transaction.  On PostgreSQL the live server's own connection has no lock_timeout
to set, so this runs on SQLite; tests/scorer/test_scorer_busy.py covers both.
"""

from __future__ import annotations

import sqlite3

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import Round
from scorer.web.middleware import MESSAGE_ZH
from tests.factories import make_table
from tests.support.browser import PLAYERS, TAPS, enter_hand

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
        reason="the lock is held through SQLite's shared cache",
    ),
]


def test_a_busy_confirm_is_said_and_tapping_again_records_once(
    page: Page, live_server: LiveServer
) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    table = f"{live_server.url}/s/{session.code}/"
    page.goto(f"{table}record")
    enter_hand(page, 1, 2, TAPS)
    other = sqlite3.connect(connection.settings_dict["NAME"], uri=True, timeout=0.1)
    other.isolation_level = None
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE scorer_gamesession SET version = version WHERE id = ?", [session.pk])
    try:
        page.locator(".pk-confirm").click()
        expect(page.locator(".busy-msg")).to_contain_text(MESSAGE_ZH)
        expect(page.locator(".pk-hand-count")).to_contain_text("14")  # the hand stays
        assert page.url == f"{table}record"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert Round.objects.count() == 0
    page.locator(".pk-confirm").click()
    page.wait_for_url(table)
    assert list(Round.objects.values_list("number", flat=True)) == [1]


def test_a_busy_tap_is_kept_and_sent_again(page: Page, live_server: LiveServer) -> None:
    """A tile tap whose draft (the phone's session) cannot be saved is
    answered 503, not Django's 400; the page says so, keeps the tap, and sends it
    again after Retry-After, without a second tap."""
    session = make_table("mcr", PLAYERS, first_dealer=0)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    enter_hand(page, 1, 2, ["1m"])
    count = page.locator(".pk-hand-count")
    expect(count).to_contain_text("1")
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/record/" in r.url else None)
    other = sqlite3.connect(connection.settings_dict["NAME"], uri=True, timeout=0.1)
    other.isolation_level = None
    other.execute("BEGIN IMMEDIATE")  # every other writer is refused: the session's save too
    try:
        page.locator("#g-2m").click()
        expect(page.locator(".busy-msg")).to_contain_text(MESSAGE_ZH)
        expect(page.locator(".pk-pending")).to_have_count(1)  # the tap still shows, waiting
    finally:
        other.execute("ROLLBACK")
        other.close()
    # Sent again by the page after Retry-After (2 s): one tap, one tile.
    expect(page.locator(".pk-pending")).to_have_count(0, timeout=6000)
    expect(count).to_contain_text("2")
    expect(page.locator("#pk-live .pk-hand-tiles .pk-tile")).to_have_count(2)
    assert 503 in answers and answers[-1] == 200
