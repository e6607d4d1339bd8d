"""Fuzzing the pages' doors, beside tests/scorer/test_fuzz_api.py's API:
table import with mutated exports, and the page forms (start a table, record a
round tap by tap and confirm it, say who you are, close) with mutated fields.

Whatever arrives, the answer is never a 5xx (DEBUG off, the server error page is
what a 500 would show), an import creates one whole table whose tallies are the
file's or nothing at all, and a recorded round's deltas sum to zero.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.models import GameSession, Round
from scorer.services.export import origin_of, table_json
from tests.factories import SHORT_NAMES, make_table, record
from tests.rules.fuzz_inputs import Mutated, mutated
from tests.support.phone import Phone
from tests.support.tables import WUHAN_ENTRY, generated_table

pytestmark = pytest.mark.django_db

_EXPORTS: list[dict[str, Any]] = []


def exports() -> list[dict[str, Any]]:
    """Exported tables to mutate (made once: they are plain JSON)."""
    if not _EXPORTS:
        _EXPORTS.append(table_json(generated_table(7)))
        wuhan = make_table("wuhan", SHORT_NAMES)
        record(wuhan, WUHAN_ENTRY)
        record(wuhan, {"kind": "draw", "turned": "1z"})
        _EXPORTS.append(table_json(wuhan))
    return _EXPORTS


def post_import(client: Client, body: bytes, copy_of: str = "") -> Any:
    upload = io.BytesIO(body)
    upload.name = "table.json"
    return client.post(reverse("scorer:import"), {"file": upload, "copy_of": copy_of})


@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.data())
def test_a_mutated_export_is_imported_whole_or_refused_never_a_5xx(data: st.DataObject) -> None:
    case: Mutated = data.draw(mutated(exports()))
    before = GameSession.objects.count()
    client = Client(raise_request_exception=False)
    with override_settings(DEBUG=False):
        # The exported tables are in the database: import as a second copy, chosen.
        copy_of = origin_of(case.value) if isinstance(case.value, dict) else ""
        response = post_import(client, json.dumps(case.value).encode(), copy_of)
    assert response.status_code == 302, (case.changes, response.status_code)
    created = GameSession.objects.count() - before
    assert created in (0, 1)
    if created:
        session = GameSession.objects.latest("pk")
        assert response["Location"].endswith(f"/s/{session.code}/")
        tallies = session.tallies()
        assert sum(tallies) == 0
        if isinstance(case.value.get("tallies"), list):
            assert tallies == case.value["tallies"]
    else:
        assert response["Location"] == reverse("scorer:home")


@pytest.fixture
def mcr_table() -> GameSession:
    return make_table("mcr", SHORT_NAMES)


NASTY = ["", " ", "-1", "0", "1", "3", "4", "9", "1.5", "1e9", "99999999999999999999", "NaN",
         "true", "null", "[]", "{}", "东", "1m", "5z", "8f", "1m" * 30, "\x00", "a:b:c", "self",
         "win", "draw", "quick", "tiles", "tile:1m", "tile:9z", "hand:win", "seat_input:openings:3:+",
         "seat_input:openings:9:-", "seat_input:nope:1:+", "meld:0", "meldfrom:7", "fan:1:+",
         "fan:x:+", "kind:draw", "winner:9", "from:self", "tool:kong", "tool:turned", "x" * 300]  # fmt: skip
_value = st.one_of(st.sampled_from(NASTY), st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12))  # fmt: skip


@contextmanager
def undone(client: Client | None = None) -> Iterator[None]:
    """One example's requests in a savepoint that is rolled back, cookies too.

    The table and the phone's taps are made once per test (by a fixture, before
    Hypothesis's examples), so each example starts from the same rows and
    pays only for its own request.
    """
    cookies = copy.deepcopy(client.cookies) if client is not None else None
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
    if client is not None and cookies is not None:
        client.cookies = cookies


@pytest.fixture
def phone(ruleset: str) -> Phone:
    session = make_table(ruleset, SHORT_NAMES)
    phone = Phone(Client(raise_request_exception=False), session)
    taps = ["winner:1", "from:2"]
    if ruleset == "wuhan":
        taps += ["tool:turned", "tile:5m", "seat_input:openings:2:+", "seat_input:ming_gang:3:+"]
    phone.tap(*taps)
    return phone


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.data())
@pytest.mark.parametrize("ruleset", ["mcr", "wuhan", "jian", "beijing"])
def test_the_record_forms_with_mutated_fields_never_answer_a_5xx(
    ruleset: str, phone: Phone, data: st.DataObject
) -> None:
    fields = dict(phone.state)
    for key in data.draw(st.lists(st.sampled_from([*fields, "tap", "delta", "confirm",
                                                   "round", "nonsense"]), max_size=4)):  # fmt: skip
        fields[key] = data.draw(_value)
    htmx = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
    url = data.draw(st.sampled_from([phone.preview_url, phone.confirm_url, phone.page_url]))
    with undone(phone.client):
        with override_settings(DEBUG=False):
            response = phone.client.post(url, fields, headers=htmx)
        assert response.status_code < 500, (url, fields, response.status_code)
        for r in Round.objects.filter(session=phone.session).select_related("current"):
            assert r.current is not None and sum(r.current.deltas) == 0


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    st.dictionaries(
        st.sampled_from(["ruleset", "preset", "players", "name_0", "name_1", "name_2", "name_3",
                         "first_dealer", "money_per_point", "me", "note", "name", "round"]),
        _value, max_size=6),
    st.sampled_from(["create", "whoami", "close", "reopen", "undo"]),
)  # fmt: skip
def test_the_other_forms_with_mutated_fields_never_answer_a_5xx(
    mcr_table: GameSession, fields: dict[str, str], form: str
) -> None:
    session = mcr_table
    client = Client(raise_request_exception=False)
    if form == "create":
        url = reverse("scorer:create")
        fields = {"ruleset": "mcr", "players": "4", **fields}
    else:
        url = reverse(f"scorer:{form}", args=[session.code])
    with undone(), override_settings(DEBUG=False):
        response = client.post(url, fields)
    assert response.status_code < 500, (form, fields, response.status_code)
