"""The models package's one locked path, its named refusals and the rules facade.

* every change of a table goes through `locked(session)`: a closed table is
  refused by each of them, with the one named refusal (errors.TABLE_CLOSED), and
  nothing is written;
* two changes made from the same stale copy of a table are served one after the
  other, the second seeing what the first did (the lock re-reads the row);
* each named refusal is the one the change raises, its messages byte for byte;
* `GameSession.rules` is read once per session object and read again when the
  fields it comes from change.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules import RuleError
from scorer.models import GameSession, Round, RoundTaken, SessionChange, errors
from scorer.models.session_rules import SessionRules
from scorer.models.sessions import locked
from tests.factories import by_tiles, make_table

pytestmark = pytest.mark.django_db

KONG = {"type": "kong", "player": 1, "kong": "concealed"}


def fresh() -> GameSession:
    return make_table()


def a_closed_table() -> tuple[GameSession, Round]:
    """A table with one round, closed: every change of it is refused."""
    s = fresh()
    rnd = s.record_round(uuid.uuid4(), by_tiles())
    s.record_round(uuid.uuid4(), {"kind": "draw"})
    assert s.close()
    return s, rnd


CHANGES: dict[str, Callable[[GameSession, Round], Any]] = {
    "record": lambda s, r: s.record_round(uuid.uuid4(), {"kind": "draw"}),
    "adjust": lambda s, r: s.record_round(
        uuid.uuid4(),
        {"kind": "adjust", "reason": "x", "lines": [{"from": 0, "to": 1, "amount": 1}]},
    ),
    "undo": lambda s, r: s.undo_last(),
    "undo_event": lambda s, r: s.undo_last(step=True),
    "restore": lambda s, r: s.restore(r.number),
    "revise": lambda s, r: r.revise({"kind": "draw"}),
    "revise_round": lambda s, r: s.revise_round(r, {"kind": "draw"}),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_refuses_a_closed_table(change: str) -> None:
    s, rnd = a_closed_table()
    before = (s.rounds.count(), GameSession.objects.get(pk=s.pk).version)
    with pytest.raises(RuleError) as refused:
        CHANGES[change](s, rnd)
    assert errors.TABLE_CLOSED.is_raised_as(refused.value)
    assert (s.rounds.count(), GameSession.objects.get(pk=s.pk).version) == before


def test_an_event_on_a_closed_table_is_refused_too() -> None:
    s = make_table("sichuan")
    assert s.close()
    with pytest.raises(RuleError) as refused:
        s.add_event(uuid.uuid4(), KONG)
    assert errors.TABLE_CLOSED.is_raised_as(refused.value)


def test_the_changes_allowed_on_a_closed_table_say_so() -> None:
    """Closing twice, reopening, the clock: they look at a closed table on purpose."""
    s, _ = a_closed_table()
    assert s.close() is False  # closed already: nothing to do, no refusal
    assert s.pause() is False
    with locked(s, closed_ok=True) as row:
        assert row.closed_at is not None
    with pytest.raises(RuleError), locked(s):
        pass
    assert s.reopen()
    with locked(s) as row:
        assert row.closed_at is None


def test_the_lock_reads_the_row_again() -> None:
    s = fresh()
    stale = GameSession.objects.get(pk=s.pk)
    s.record_round(uuid.uuid4(), by_tiles())
    with locked(stale) as row:
        assert row is not stale and row.version == stale.version + 1


@pytest.mark.skipif(
    not connection.features.has_select_for_update, reason="the database locks no rows"
)
def test_the_lock_is_a_row_lock() -> None:
    s = fresh()
    with CaptureQueriesContext(connection) as seen, locked(s):
        pass
    assert any("FOR UPDATE" in q["sql"] for q in seen.captured_queries)


def test_two_phones_with_the_same_copy_are_served_one_after_the_other() -> None:
    """Both loaded the table before either confirmed: the second sees the first."""
    s = fresh()
    phone_a, phone_b = GameSession.objects.get(pk=s.pk), GameSession.objects.get(pk=s.pk)
    phone_a.record_round(uuid.uuid4(), by_tiles(), number=1)
    with pytest.raises(RoundTaken) as taken:
        phone_b.record_round(uuid.uuid4(), by_tiles(winner=3), number=1)
    assert taken.value.next_number == 2
    # Both undo the last round they saw: one round undone, not two.
    phone_b.record_round(uuid.uuid4(), {"kind": "draw"}, number=2)
    assert phone_a.undo_last(expected=2) is not None
    assert phone_b.undo_last(expected=2) is None
    assert [r.number for r in s.standing_rounds()] == [1]
    # Both close: closed once, one trail line.
    assert phone_a.close() and not phone_b.close()
    assert s.changes.filter(action=SessionChange.CLOSE).count() == 1


# -- the named refusals --------------------------------------------------------


def refused(call: Callable[[], Any]) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call()
    return caught.value


def test_each_refusal_is_the_one_named() -> None:
    s = make_table("sichuan")
    s.add_event(uuid.uuid4(), KONG)  # a round in progress
    assert errors.ROUND_OPEN.is_raised_as(
        refused(lambda: s.record_round(uuid.uuid4(), {"kind": "round", "events": [KONG]}))
    )
    penalty = {"kind": "adjust", "reason": "x", "lines": [{"from": 0, "to": 1, "amount": 1}]}
    assert errors.LINE_WITH_ROUND_OPEN.is_raised_as(
        refused(lambda: s.record_round(uuid.uuid4(), penalty))
    )
    assert errors.ROUND_CHANGED.is_raised_as(
        refused(lambda: s.add_event(uuid.uuid4(), KONG, expected=5))
    )
    assert errors.CLOSE_WITH_ROUND_OPEN.is_raised_as(refused(s.close))

    t = fresh()
    first = t.record_round(uuid.uuid4(), by_tiles())
    assert errors.CLOSE_TIME_OUT_OF_RANGE.is_raised_as(
        refused(lambda: t.close(at=t.created_at.replace(year=2000)))
    )
    line = t.record_round(uuid.uuid4(), penalty)
    assert errors.LINE_KIND_KEPT.is_raised_as(refused(lambda: line.revise(by_tiles())))
    del first


def test_the_refusals_are_named_once_with_their_messages() -> None:
    assert len({r.message for r in errors.REFUSALS}) == len(errors.REFUSALS)
    assert (
        errors.Refusal(
            "bad_event",
            "this table is closed: reopen it to change anything",
            "本桌已经结束：要改动请先重新打开",
        )
        == errors.TABLE_CLOSED
    )
    error = errors.TABLE_CLOSED.error()
    assert error is not errors.TABLE_CLOSED.error()  # a fresh one to raise each time
    assert (error.code, error.message, error.message_zh) == (
        "bad_event",
        "this table is closed: reopen it to change anything",
        "本桌已经结束：要改动请先重新打开",
    )


# -- the rules facade --------------------------------------------------------------


def test_the_rules_are_read_once_per_session_object() -> None:
    s = fresh()
    rules = s.rules
    assert isinstance(rules, SessionRules)
    assert s.rules is rules and s.rules.table is rules.table and s.rules.params is rules.params
    assert rules.table == rules.ruleset.table(rules.params)


def test_the_rules_are_read_again_when_the_fields_change() -> None:
    s = fresh()
    before = s.rules
    s.params = {**dict(s.rules.params), "min_fans": 1}
    after = s.rules
    assert after is not before and after.params["min_fans"] == 1
    s.fee = {"mode": "aa", "amount": 10}
    assert s.rules is not after and s.rules.fee.mode == "aa"
    s.refresh_from_db()
    assert s.rules.params == before.params and s.rules.fee == before.fee
