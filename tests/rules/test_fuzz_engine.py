"""Fuzzing score, waits and settle with malformed input.

The engine never raises on bad input: whatever it is given, the answer is a
result or an error object with a code and a message in both languages, deltas
sum to zero, and an integer field given a float, a bool or a string is refused
rather than read as a number.  The cases are look-alikes of valid situations
and rounds (tests/rules/fuzz_inputs.py); the example counts keep the whole file
to a few seconds.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from rules import ERROR_CODES, score, settle, waits
from tests.rules.fuzz_inputs import ROUNDS, SITUATIONS, Mutated, mutated, without_win_tile

FUZZ = settings(
    deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_answer(result: Any, case: Mutated) -> None:
    """What every answer of the engine must be, good input or bad."""
    assert isinstance(result, dict) and result.get("ok") in (True, False), result
    if result["ok"]:
        assert not case.ints_broken, ("an integer field took a non-integer", case.changes, result)
        deltas = result.get("deltas")
        if deltas is not None:
            assert sum(deltas) == 0, result
        for ev in result.get("events") or []:
            assert sum(ev["deltas"]) == 0, ev
    else:
        error = result["error"]
        assert error["code"] in ERROR_CODES, error
        assert isinstance(error["message"], str) and error["message"], error
        assert isinstance(error["message_zh"], str) and error["message_zh"], error
        assert error["message_zh"] != error["message"], ("no Chinese message", error)


@settings(FUZZ, max_examples=600)
@given(mutated(SITUATIONS))
def test_score_answers_every_malformed_situation(case: Mutated) -> None:
    check_answer(score(case.value), case)


@settings(FUZZ, max_examples=300)
@given(mutated([without_win_tile(s) for s in SITUATIONS]))
def test_waits_answers_every_malformed_hand(case: Mutated) -> None:
    check_answer(waits(case.value), case)


@settings(FUZZ, max_examples=1500)
@given(mutated(ROUNDS))
def test_settle_answers_every_malformed_round(case: Mutated) -> None:
    check_answer(settle(case.value), case)


def test_the_templates_are_valid() -> None:
    """Each case is one change away from a valid input: the templates themselves pass."""
    for s in SITUATIONS:
        assert score(s)["ok"] is True, s
        assert waits(without_win_tile(s))["ok"] is True, s
    for r in ROUNDS:
        assert settle(r)["ok"] is True, r
