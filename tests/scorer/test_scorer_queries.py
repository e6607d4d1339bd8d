"""The session page and the ledger cost the same number of queries however long the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorer.models import GameSession
from tests.factories import SHORT_NAMES, by_tiles, event, make_table, record
from tests.pages import html

pytestmark = pytest.mark.django_db


def session_with(rounds: int) -> GameSession:
    """`rounds` rounds, with an undone one and a corrected one mixed in once there are enough."""
    s = make_table("mcr", SHORT_NAMES)
    for i in range(rounds):
        winner = i % 4
        record(s, by_tiles(winner, (winner + 1) % 4))
    if rounds > 2:
        s.undo_last("x")
        first = s.rounds.get(number=1)
        assert first.current is not None
        first.revise({**first.current.entry, "discarder": None}, author="y")
    s.refresh_from_db()
    return s


# Sessions and rounds with their current versions, and the newest round's status
# (an undone last round offers 恢复).  The ledger loads a round's fans and
# payments only when its row is opened: ROUND_PART_QUERIES each time.
TALLIES_QUERIES = 3
# The whole page also reads the phone's own session row (its tables, who it is).
SESSION_PAGE_QUERIES = TALLIES_QUERIES + 1
API_SESSION_QUERIES = 2
LEDGER_QUERIES = 2
# The session, the round with its current version, that version's transfers.
ROUND_PART_QUERIES = 3


@pytest.mark.parametrize("rounds", [1, 30])
def test_session_page_queries(client: Client, django_assert_num_queries: Any, rounds: int) -> None:
    s = session_with(rounds)
    client.get(reverse("scorer:session", args=[s.code]))  # the phone has been here before
    with django_assert_num_queries(SESSION_PAGE_QUERIES):
        response = client.get(reverse("scorer:session", args=[s.code]))
    assert response.status_code == 200


@pytest.mark.parametrize("rounds", [1, 30])
def test_tallies_queries(client: Client, django_assert_num_queries: Any, rounds: int) -> None:
    s = session_with(rounds)
    with django_assert_num_queries(TALLIES_QUERIES):
        response = client.get(reverse("scorer:tallies", args=[s.code]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200


@pytest.mark.parametrize("rounds", [1, 30])
@pytest.mark.parametrize("undone", ["0", "1"])
def test_ledger_queries(
    client: Client, django_assert_num_queries: Any, rounds: int, undone: str
) -> None:
    s = session_with(rounds)
    with django_assert_num_queries(LEDGER_QUERIES):
        response = client.get(reverse("scorer:ledger", args=[s.code]), {"undone": undone})
    assert response.status_code == 200
    assert html(response).count('class="ledger-round') == (
        rounds - (1 if rounds > 2 and undone == "0" else 0)
    )


@pytest.mark.parametrize("rounds", [1, 30])
def test_ledger_round_part_queries(
    client: Client, django_assert_num_queries: Any, rounds: int
) -> None:
    s = session_with(rounds)
    page = html(client.get(reverse("scorer:ledger", args=[s.code]), {"undone": "1"}))
    for number in (1, rounds):  # the first (corrected) and the last (undone once enough)
        url = reverse("scorer:round", args=[s.code, number])
        assert f'hx-get="{url}?part=current"' in page
        with django_assert_num_queries(ROUND_PART_QUERIES):
            response = client.get(url, {"part": "current"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert 'class="revision' in html(response)


@pytest.mark.parametrize("rounds", [1, 30])
def test_tallies_with_previous_totals_queries(
    client: Client, django_assert_num_queries: Any, rounds: int
) -> None:
    s = session_with(rounds)
    url = reverse("scorer:tallies", args=[s.code])
    with django_assert_num_queries(TALLIES_QUERIES):
        response = client.get(url, {"was": "1,2,3,4"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200


@pytest.mark.parametrize("rounds", [1, 30])
def test_api_session_queries(client: Client, django_assert_num_queries: Any, rounds: int) -> None:
    s = session_with(rounds)
    with django_assert_num_queries(API_SESSION_QUERIES):
        response = client.get(reverse("scorer:api_session", args=[s.code]))
    assert response.status_code == 200


# --- 四川: rounds played as events, one of them still in progress -------------------

SICHUAN_WIN = {"concealed": "1122334466778m", "win_tile": "8m"}


def sichuan_with(rounds: int) -> GameSession:
    """`rounds` finished 血战 rounds (a kong, then three wins each) and one in progress."""
    s = make_table("sichuan", SHORT_NAMES)
    for _ in range(rounds):
        event(s, {"type": "kong", "player": 1, "kong": "concealed"})
        for seat in (1, 2, 3):
            ev = {"type": "win", "discarder": 0, "winners": [{"seat": seat, "fans": {"3": 1}}]}
            event(s, ev)
    event(s, {"type": "kong", "player": 2, "kong": "exposed", "discarder": 0})
    event(s, {"type": "win", "discarder": 0, "winners": [{"seat": 3, "hand": SICHUAN_WIN}]})
    assert s.round_in_progress() is not None
    s.refresh_from_db()
    return s


@pytest.mark.parametrize("view", ["scorer:session", "scorer:tallies", "scorer:ledger"])
def test_sichuan_pages_queries(client: Client, view: str) -> None:
    """The round in progress and the events of finished rounds add no per-round queries."""
    counts = []
    for rounds in (1, 20):
        s = sichuan_with(rounds)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(reverse(view, args=[s.code]), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 4, counts
