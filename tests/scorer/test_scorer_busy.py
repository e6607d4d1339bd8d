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
from django.db import OperationalError, connection
from django.test import Client

from scorer.busy import MESSAGE, MESSAGE_ZH, is_busy
from scorer.models import GameSession, Round
from tests.scorer.test_scorer_views_record import Phone, make_session, winning_phone

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
    session = make_session()
    phone = winning_phone(Phone(Client(), session))
    locked(session)
    response = phone.confirm()
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    page = response.content.decode()
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
    session = make_session()
    phone = winning_phone(Phone(Client(), session))
    locked(session)
    response = phone.confirm(htmx=True)
    assert response.status_code == 503 and response["Retry-After"] == "2"
    fragment = response.content.decode()
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
