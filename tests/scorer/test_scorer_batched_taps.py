"""Several taps in one request: the server applies them in order, as it
would have one request at a time (static/js/taps.js sends the taps queued behind
an answer together).

The invariant, over random tap sequences of every kind the page has (tiles, the
hand, tools, seats, fans, the mode, clear): one request with every tap leaves the
form in the same state, with the same result, as one request per tap.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.models import GameSession
from tests.factories import SHORT_NAMES, make_table
from tests.pages import html
from tests.support.htmx import HTMX
from tests.support.phone import Phone
from tests.support.state import state_of, tap_message

pytestmark = pytest.mark.django_db

TILES = ["1m", "2m", "3m", "5m", "9m", "4p", "5p", "6p", "7z"]
TAP = st.one_of(
    st.sampled_from(TILES).map(lambda t: f"tile:{t}"),
    st.sampled_from([*TILES, "win"]).map(lambda t: f"hand:{t}"),
    st.sampled_from(["pung", "chi", "kong", "win"]).map(lambda t: f"tool:{t}"),
    st.sampled_from(["winner:0", "winner:1", "from:self", "from:2", "meld:0", "clear"]),
    st.sampled_from(["fan:48:+", "fan:59:+", "fan:48:-", "mode:quick", "mode:tiles"]),
)


def result_of(page: str) -> tuple[str, ...]:
    """What the player reads: the total, the fans, the message, the hand count."""
    found = (
        re.findall(r'<table class="pk-fans">.*?</table>', page, re.S),
        re.findall(r'class="pk-pts pk-total">([^<]*)<', page),
        re.findall(r'class="pk-hand-count">([^<]*)<', page),
    )
    return tuple(" ".join(x) for x in found) + (tap_message(page),)


def batched(client: Client, session: GameSession, taps: list[str], **extra: Any) -> str:
    phone = Phone(client, session)
    url = phone.preview_url
    response = client.post(url, {**phone.state, "tap": taps, **extra}, **HTMX)
    assert response.status_code == 200
    return html(response)


def one_by_one(client: Client, session: GameSession, taps: list[str]) -> str:
    phone = Phone(client, session)
    return phone.tap(*taps)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(taps=st.lists(TAP, min_size=1, max_size=16))
def test_a_batch_is_the_taps_one_by_one(taps: list[str]) -> None:
    # Two phones, two tables: neither's draft nor 选牌/选番 memory reaches the other.
    session = make_table("mcr", SHORT_NAMES)
    alone = one_by_one(Client(), session, taps)
    session = make_table("mcr", SHORT_NAMES)
    together = batched(Client(), session, taps)
    keep = ("kind", "winner", "discarder", "mode", "hand", "win_tile", "melds", "tool", "fans")
    a, b = state_of(alone), state_of(together)
    assert {k: a[k] for k in keep} == {k: b[k] for k in keep}
    if "fan:48:+" not in taps and not any(t.startswith("hand:") for t in taps):
        # The result as read (a batch's message is its last refused tap's, which
        # one by one is the last answer's only when nothing succeeded after it).
        assert result_of(alone)[:3] == result_of(together)[:3]


def test_a_batch_of_tile_taps_answers_only_what_changed(client: Client) -> None:
    """Plain tile taps together: the hand and the grid tiles they touched, not the form."""
    session = make_table("mcr", SHORT_NAMES)
    page = batched(client, session, ["tile:1m", "tile:1m", "tile:5p"], delta="1")
    delta = '<div id="pk-state" hx-swap-oob="true">'
    assert delta in page
    assert 'value="tile:1m" id="g-1m" hx-swap-oob="true"' in page
    assert 'value="tile:5p" id="g-5p" hx-swap-oob="true"' in page
    assert 'id="g-2m"' not in page
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
    assert hidden["hand"] == "11m" and hidden["win_tile"] == "5p"
    # A tool in the batch: the whole form (the grid, every tile of it).
    session = make_table("mcr", SHORT_NAMES)
    page = batched(client, session, ["tool:pung", "tile:1m"], delta="1")
    assert delta not in page and 'id="g-2m"' in page
    assert state_of(page)["melds"] == "pung:1m"


def test_a_refused_tap_in_a_batch_is_said_and_the_rest_applied(client: Client) -> None:
    session = make_table("mcr", SHORT_NAMES)
    page = batched(client, session, ["tile:1m"] * 5 + ["tile:2m"])
    assert "1m" not in tap_message(page) and tap_message(page)  # "only four 一万"
    assert state_of(page)["hand"] == "1111m" and state_of(page)["win_tile"] == "2m"
