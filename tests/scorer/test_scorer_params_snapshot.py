"""A session plays with the values it started with, whatever happens to the defaults later.

The session stores every parameter's value when it starts.  These tests change
a ruleset's default afterwards (as a code change or a room configuration would)
and check that recording, correcting and undoing the session's rounds still use
the values it started with.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from rules.registry import Ruleset
from scorer.models import GameSession
from tests.factories import by_tiles, make_table, record
from tests.pages import html

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]


@pytest.fixture
def mcr_base_default() -> Iterator[Any]:
    """Change 国标's default 底分 (base) for the test, and put it back after."""
    rs: Ruleset = get_ruleset("mcr")
    params = rs.params
    saved_dict = dict(rs.__dict__)

    def set_default(value: int) -> None:
        rs.__dict__.pop("_defaults", None)
        type(rs).params = tuple(
            dataclasses.replace(p, default=value) if p.name == "base" else p for p in params
        )

    yield set_default
    type(rs).params = params
    rs.__dict__.clear()
    rs.__dict__.update(saved_dict)


def start(client: Client) -> GameSession:
    page = html(client.get(reverse("scorer:home") + "?ruleset=mcr"))
    assert 'name="param_base"' in page
    data = {"ruleset": "mcr", "players": "4", "first_dealer": "0",
            **{f"name_{i}": n for i, n in enumerate(NAMES)}}  # fmt: skip
    for p in get_ruleset("mcr").params:
        if p.type == "bool":
            if p.default:
                data[f"param_{p.name}"] = "on"
        else:
            data[f"param_{p.name}"] = str(p.default)
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302
    return GameSession.objects.get(code=response["Location"].split("/")[-2])


def test_a_changed_default_changes_no_round_correction_or_undo(
    client: Client, mcr_base_default: Any
) -> None:
    session = start(client)
    started_base = session.params["base"]
    rnd = record(session)
    assert rnd.current is not None
    before = list(rnd.current.deltas)
    assert before[1] > 0 and sum(before) == 0

    mcr_base_default(started_base * 10)
    assert get_ruleset("mcr").defaults["base"] == started_base * 10

    # The round as recorded, re-scored by a correction that changes nothing else:
    rnd.revise(by_tiles())
    rnd.refresh_from_db()
    assert rnd.current is not None and list(rnd.current.deltas) == before
    # A second round is scored with the session's own base too.
    second = record(session)
    assert second.current is not None and list(second.current.deltas) == before
    # Undo the second: the first stands unchanged.
    session.undo_last(expected=second.number)
    assert session.tallies() == before
    # A session started now takes the new default.
    assert start(client).params["base"] == started_base * 10


def test_migration_fills_every_value_of_older_sessions() -> None:
    """Sessions stored before the snapshot kept only their overrides: the data
    migration writes the values they were played with."""
    migration = importlib.import_module("scorer.migrations.0004_session_full_params")
    old = make_table("mcr", NAMES, params={"min_fans": 6})
    gone = make_table("no-such-ruleset", NAMES, params={"x": 1})
    migration.fill_params(django_apps, None)
    old.refresh_from_db()
    gone.refresh_from_db()
    assert old.params == {**get_ruleset("mcr").defaults, "min_fans": 6}
    assert gone.params == {"x": 1}


def test_older_mcr_tables_keep_the_wait_reading_they_were_scored_with() -> None:
    """A round with a phantom wait (a tile whose four copies are in the hand) recorded
    before the League's ruling became the default re-scores the same on a correction."""
    migration = importlib.import_module(
        "scorer.migrations.0006_mcr_sessions_keep_their_wait_reading"
    )
    old = make_table("mcr", NAMES)
    old.params = {k: v for k, v in get_ruleset("mcr").defaults.items()
                  if k != "wait_fans_real_waits"}  # fmt: skip
    old.save()
    other = make_table("sichuan", NAMES, params={"base": 2})
    migration.keep_real_waits(django_apps, None)
    old.refresh_from_db()
    other.refresh_from_db()
    assert old.rules.params["wait_fans_real_waits"] is True
    assert other.params == {"base": 2}
    # 1234444678m456p self-drawn on 1m: 单钓将 under the earlier reading, kept on correction.
    entry = by_tiles(0, None, {"concealed": "1234444678m456p", "win_tile": "1m"})
    rnd = record(old, entry)
    assert rnd.current is not None
    assert "独听・单钓" in {f["name_zh"] for f in rnd.current.result["fans"]}
    rev = rnd.revise(entry)
    assert rev.deltas == rnd.current.deltas
