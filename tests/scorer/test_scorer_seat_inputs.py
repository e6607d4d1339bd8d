"""Per-seat inputs (开口, 炮子 …) declared by a ruleset reach the engine through the pages.

No shipped ruleset asks for one yet (武汉's 开口 count will): a test-only
ruleset declares one, and the record page must offer it, carry it tap to tap
and hand it to the engine with the win, which refuses values out of range.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import REGISTRY, settle
from rules.hand import Hand
from rules.rulesets.house.ruleset import House
from rules.table import SeatInput, TableSpec
from tests.factories import SHORT_NAMES, make_table
from tests.pages import html
from tests.support.htmx import HTMX
from tests.support.state import state_of

pytestmark = pytest.mark.django_db

KAIKOU = SeatInput("kaikou", "开口", "Open melds", min=0, max=4)


class Counted(House):
    """House rules where each payer pays once more per 开口 of the winner."""

    id = "counted_test"
    name_zh = "开口测试"
    name_en = "Open-meld test"

    def table(self, params: Mapping[str, Any] | None = None) -> TableSpec:
        return replace(super().table(params), seat_inputs=(KAIKOU,))

    def score_hand(self, hand: Hand, params: Mapping[str, Any]) -> dict[str, Any]:
        out = super().score_hand(hand, params)
        if out["win"] and "payments" in out and hand.table is not None:
            times = 1 + hand.extra["seat_inputs"]["kaikou"][hand.table.winner]
            out["payments"] = [{**p, "amount": p["amount"] * times} for p in out["payments"]]
            out["deltas"] = [d * times for d in out["deltas"]]
        return out


@pytest.fixture
def counted() -> Iterator[Counted]:
    rs = Counted()
    REGISTRY[rs.id] = rs
    yield rs
    del REGISTRY[rs.id]


HAND = {"concealed": "123m456p789p234s7s", "win_tile": "7s"}


def test_the_engine_takes_and_checks_the_counts(counted: Counted) -> None:
    win = {"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": HAND}]}
    r = settle(
        {"ruleset": counted.id, "events": [{**win, "seat_inputs": {"kaikou": [0, 2, 0, 0]}}]}
    )
    assert r["ok"] and r["deltas"] == [0, 3, -3, 0]
    r = settle({"ruleset": counted.id, "events": [win]})  # not given: the declared default 0
    assert r["ok"] and r["deltas"] == [0, 1, -1, 0]
    for bad in ({"kaikou": [0, 9, 0, 0]}, {"kaikou": [0, 1]}, {"paozi": [0, 0, 0, 0]}):
        r = settle({"ruleset": counted.id, "events": [{**win, "seat_inputs": bad}]})
        assert not r["ok"] and r["error"]["code"] == "bad_input" and r["error"]["message_zh"]


def test_the_record_page_offers_and_carries_the_counts(client: Client, counted: Counted) -> None:
    session = make_table(counted.id, SHORT_NAMES, params=dict(counted.defaults))
    url = reverse("scorer:record", args=[session.code]) + "?kind=win"
    page = html(client.get(url))
    assert "开口" in page and 'value="seat_input:kaikou:1:+"' in page
    state = state_of(page)
    assert state["si_kaikou"] == "0,0,0,0"
    preview = reverse("scorer:preview", args=[session.code])
    taps = ["seat_input:kaikou:1:+", "seat_input:kaikou:1:+", "seat_input:kaikou:0:-",
            "winner:1", "from:2", *(f"tile:{t}" for t in ("1m", "2m", "3m", "4p", "5p", "6p",
            "7p", "8p", "9p", "2s", "3s", "4s", "7s", "7s"))]  # fmt: skip
    for tap in taps:
        page = html(client.post(preview, {**state, "tap": tap}, **HTMX))
        state = state_of(page)
    assert state["si_kaikou"] == "0,2,0,0"  # never below the declared minimum
    response = client.post(
        reverse("scorer:confirm", args=[session.code]), {**state, "confirm": "1"}
    )
    assert response.status_code == 302
    assert session.tallies() == [0, 3, -3, 0]
    rnd = session.rounds.get()
    assert rnd.current is not None
    assert rnd.current.entry["events"][0]["seat_inputs"] == {"kaikou": [0, 2, 0, 0]}
