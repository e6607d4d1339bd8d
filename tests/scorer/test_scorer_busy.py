"""A change that cannot get the database's lock in time is answered "try again"
(503, Retry-After, both languages; htmx and the JSON API alike), never a 500,
and changes nothing.

The lock is really held, by a second connection to the test database in its
own transaction: on SQLite a write transaction on the (shared, in-memory)
database, on PostgreSQL the session's row locked with a short lock_timeout on
the test's connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client

from scorer.models import GameSession, Round
from scorer.web.middleware import MESSAGE, MESSAGE_ZH, is_busy
from tests.factories import SHORT_NAMES, make_table
from tests.pages import html
from tests.support.phone import Phone, winning_phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def locked() -> Iterator[Any]:
    """Hold the write lock on the session table from another connection."""

    def hold(session: GameSession) -> Any:
        s = connection.settings_dict
        if connection.vendor == "sqlite":
            other = sqlite3.connect(connection.settings_dict["NAME"], uri=True, timeout=0.1)
            other.isolation_level = None
            other.execute("BEGIN IMMEDIATE")
            other.execute(
                "UPDATE scorer_gamesession SET version = version WHERE id = ?", [session.pk]
            )
        else:
            import psycopg

            other = psycopg.connect(
                host=s["HOST"],
                port=s["PORT"] or 5432,
                user=s["USER"] or "postgres",
                password=s["PASSWORD"] or None,
                dbname=s["NAME"],
            )
            other.execute("SELECT 1 FROM scorer_gamesession WHERE id = %s FOR UPDATE", [session.pk])
            with connection.cursor() as c:
                c.execute("SET lock_timeout = '200ms'")
        held.append(other)
        return other

    held: list[Any] = []
    hold.held = held  # type: ignore[attr-defined]
    yield hold
    for other in held:
        other.rollback()
        other.close()


def test_a_confirm_that_cannot_get_the_lock_is_asked_again(locked: Any) -> None:
    session = make_table("mcr", SHORT_NAMES)
    phone = winning_phone(Phone(Client(), session))
    locked(session)
    response = phone.confirm()
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    page = html(response)
    assert MESSAGE_ZH in page and MESSAGE in page
    assert "<!DOCTYPE html>" in page
    # Nothing changed; the lock released, the same form (the same token) records it once.
    for other in locked.held:
        other.rollback()
    assert Round.objects.count() == 0
    assert GameSession.objects.get(pk=session.pk).version == 0
    assert phone.confirm().status_code == 302
    assert phone.confirm().status_code == 302
    assert Round.objects.count() == 1


def test_htmx_and_json_clients_are_told_too(locked: Any) -> None:
    session = make_table("mcr", SHORT_NAMES)
    phone = winning_phone(Phone(Client(), session))
    locked(session)
    response = phone.confirm(htmx=True)
    assert response.status_code == 503 and response["Retry-After"] == "2"
    fragment = html(response)
    # Only the message: static/js/busy.js shows it above the page, which stays.
    assert fragment.startswith('<p class="busy-msg" role="alert">')
    assert MESSAGE_ZH in fragment and MESSAGE in fragment
    response = phone.client.post(
        phone.confirm_url, {**phone.state, "confirm": "1"}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 503 and response["Retry-After"] == "2"
    body = response.json()
    assert body["ok"] is False and body["retry_after"] == 2
    assert body["error"] == {"code": "busy", "message": MESSAGE, "message_zh": MESSAGE_ZH}


def test_only_lock_timeouts_count_as_busy() -> None:
    import psycopg.errors

    assert is_busy(OperationalError("database is locked"))
    assert is_busy(OperationalError("database table is locked: scorer_round"))
    assert not is_busy(OperationalError("no such table: scorer_round"))
    assert not is_busy(ValueError("database is locked"))
    for pg, busy in ((psycopg.errors.LockNotAvailable, True),
                     (psycopg.errors.DeadlockDetected, True),
                     (psycopg.errors.AdminShutdown, False)):  # fmt: skip
        try:
            raise OperationalError("from PostgreSQL") from pg()
        except OperationalError as e:
            assert is_busy(e) is busy


# -- the session's own save, after the view, when the lock is held -------------


@pytest.fixture
def sessions_locked() -> Iterator[Any]:
    """Hold the lock Django's session save needs, from another connection.

    SQLite: a write transaction (BEGIN IMMEDIATE) on the
    shared database, so the view reads and only the session's save is refused.  PostgreSQL: the phone's
    own session row locked (FOR UPDATE), or, for a phone with no session yet
    (whose new row no row lock can stop), the table (LOCK TABLE … EXCLUSIVE,
    which still lets the view read); the test's connection waits 200 ms."""
    held: list[Any] = []

    def hold(session_key: str | None = None) -> None:
        s = connection.settings_dict
        if connection.vendor == "sqlite":
            other = sqlite3.connect(s["NAME"], uri=True, timeout=0.1)
            other.isolation_level = None
            other.execute("BEGIN IMMEDIATE")  # (shared cache: every other writer now fails)
        else:
            import psycopg

            other = psycopg.connect(host=s["HOST"], port=s["PORT"] or 5432,
                                    user=s["USER"] or "postgres", password=s["PASSWORD"] or None,
                                    dbname=s["NAME"])  # fmt: skip
            if session_key is None:
                other.execute("LOCK TABLE django_session IN EXCLUSIVE MODE")
            else:
                other.execute("SELECT 1 FROM django_session WHERE session_key = %s FOR UPDATE",
                              [session_key])  # fmt: skip
            with connection.cursor() as c:
                c.execute("SET lock_timeout = '200ms'")
        held.append(other)

    hold.held = held  # type: ignore[attr-defined]
    yield hold
    for other in held:
        other.rollback()
        other.close()


def _told_to_retry(response: Any, form: str) -> None:
    assert response.status_code == 503, response.status_code
    assert response["Retry-After"] == "2"
    if form == "json":
        body = response.json()
        assert body["ok"] is False and body["retry_after"] == 2
        assert body["error"] == {"code": "busy", "message": MESSAGE, "message_zh": MESSAGE_ZH}
        return
    text = html(response)
    assert MESSAGE_ZH in text and MESSAGE in text
    if form == "htmx":
        assert text.startswith('<p class="busy-msg" role="alert">')
    else:
        assert "<!DOCTYPE html>" in text


@pytest.mark.parametrize("form", ["page", "json"])
def test_a_first_visit_whose_new_session_cannot_be_saved_is_asked_again(
    sessions_locked: Any, form: str
) -> None:
    session = make_table("mcr", SHORT_NAMES)
    phone = Client(raise_request_exception=False)  # no cookie: its session is new
    url = f"/s/{session.code}/"
    headers = {"HX-Request": "true"} if form == "htmx" else {}
    if form == "json":
        headers["Accept"] = "application/json"
    sessions_locked()
    response = phone.get(url, headers=headers)
    _told_to_retry(response, form)
    assert settings.SESSION_COOKIE_NAME not in response.cookies
    for other in sessions_locked.held:
        other.rollback()
    assert phone.get(url).status_code == 200


@pytest.mark.parametrize("form", ["htmx", "page", "json"])
def test_a_tap_whose_draft_cannot_be_saved_is_asked_again(sessions_locked: Any, form: str) -> None:
    session = make_table("mcr", SHORT_NAMES)
    phone = Phone(Client(raise_request_exception=False), session)
    phone.tap("winner:1")
    key = phone.client.session.session_key
    assert key
    sessions_locked(key)
    headers = {"HX-Request": "true"} if form == "htmx" else {}
    if form == "json":
        headers["Accept"] = "application/json"
    response = phone.client.post(
        phone.preview_url, {**phone.state, "tap": "from:2"}, headers=headers
    )
    _told_to_retry(response, form)
    for other in sessions_locked.held:
        other.rollback()
    # The same tap, sent again once the lock is free, is taken.
    phone.tap("from:2")
    assert phone.state["discarder"] == "2"
