"""The record page's view model (scorer/record/page.py): one path for a round
picked whole and for one event of a round recorded event by event."""

from __future__ import annotations

import pytest

from rules import get_ruleset
from rules.tiles import parse_tile
from scorer.entry.event_pick import EventPick
from scorer.entry.pick import Pick
from scorer.entry.round_now import round_now_of
from scorer.record.page import Asked, Events, WholeRound, record_page, tile_grid
from tests.factories import make_table

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]
ASKED = Asked(tap=None, where_open=False, me_seat=None)


def _dimmed(p: Pick) -> set[str]:
    return {g.face.code for row in tile_grid(p) for g in row if g.dim}


def test_both_flows_build_the_same_page_type_with_their_own_part() -> None:
    whole = make_table("mcr", NAMES)
    page = record_page(whole, Pick.fresh(whole, get_ruleset("mcr")), ASKED)
    assert isinstance(page.flow, WholeRound) and not page.context()["events_mode"]
    assert [s.name for s in page.seats] == NAMES and page.result.can_confirm is False

    events = make_table("sichuan", NAMES)
    now = round_now_of(events)
    p = EventPick.fresh(events, get_ruleset("sichuan"), "win", now=now)
    page = record_page(events, p, ASKED)
    assert isinstance(page.flow, Events) and page.context()["events_mode"]
    assert page.context()["now"] is now and [s.name for s in page.seats] == NAMES


def test_one_grid_counts_the_hand_and_dims_what_chi_cannot_start_from() -> None:
    """A chi is tapped by its lowest tile: 8, 9 and the honors never start one, on the
    whole-round picker and on an event's picker alike (one grid for both)."""
    whole = make_table("mcr", NAMES)
    p = Pick.fresh(whole, get_ruleset("mcr"))
    p.concealed = [parse_tile("5m")] * 2
    assert [g.held for g in tile_grid(p)[0]][4] == 2
    p.tool = "chi"
    expected = {f"{n}{s}" for s in "mps" for n in (8, 9)} | {f"{n}z" for n in range(1, 8)}
    assert _dimmed(p) == expected

    events = make_table("house", NAMES)
    assert events.stepwise and "chi" in events.rules.table.melds
    now = round_now_of(events)
    e = EventPick.fresh(events, get_ruleset("house"), "win", now=now)
    e.tool = "chi"
    assert _dimmed(e) == expected
