"""The result types (rules/results.py) against the contract's own examples.

Every JSON example of a result in docs/situation.md and docs/rules/*.md is read
here and held to the TypedDict of its shape: each key it shows is one the type
declares, and every key the type requires is shown (a complete example) — the
same for its fans, payments, transfers, events, winners, checks and losers.  A key
renamed or added on one side only fails here, so the types and the doc cannot drift.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from rules import REGISTRY, score, settle
from rules import results as R
from rules.round import WINNER_KEYS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _blocks() -> Iterator[tuple[str, Any]]:
    """(doc name, object) for every JSON object in a ```json block of the docs:
    a block is one object, or one object per line."""
    for path in [DOCS / "situation.md", *sorted((DOCS / "rules").glob("*.md"))]:
        for block in re.findall(r"```json\n(.*?)```", path.read_text(), re.S):
            try:
                yield path.name, json.loads(block)
            except json.JSONDecodeError:
                for line in block.splitlines():
                    if line.strip():
                        yield path.name, json.loads(line)


def _keys(td: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(every key, the required keys) of a TypedDict."""
    return frozenset(td.__required_keys__ | td.__optional_keys__), frozenset(td.__required_keys__)


def _fits(obj: dict[str, Any], td: Any, where: str, complete: bool) -> None:
    every, required = _keys(td)
    extra = set(obj) - every
    assert not extra, f"{where}: {sorted(extra)} not declared by {td.__name__}"
    if complete:
        missing = required - set(obj)
        assert not missing, f"{where}: {td.__name__} requires {sorted(missing)}"


def _each(obj: dict[str, Any], key: str) -> list[dict[str, Any]]:
    got = obj.get(key)
    return [x for x in got if isinstance(x, dict)] if isinstance(got, list) else []


def _fits_each(
    obj: dict[str, Any], parts: list[tuple[str, Any, str]], where: str, complete: bool
) -> int:
    """Each object of each list `key` of obj fits its type: (key, type, what) per list;
    how many objects were checked."""
    n = 0
    for key, td, what in parts:
        for x in _each(obj, key):
            _fits(x, td, f"{where} {what}", complete)
            n += 1
    return n


def _hand(obj: dict[str, Any], td: Any, where: str, complete: bool) -> int:
    """A hand's result (or a winner's report) and its parts; how many objects were checked."""
    _fits(obj, td, where, complete)
    parts = [
        ("fans", R.Fan, "fan"),
        ("payments", R.Payment, "payment"),
        ("losers", R.Loser, "loser"),
    ]
    return 1 + _fits_each(obj, parts, where, True)


def _round(obj: dict[str, Any], where: str, complete: bool) -> int:
    _fits(obj, R.SettleResult, where, complete)
    n = 1 + _fits_each(obj, [("transfers", R.Transfer, "transfer")], where, complete)
    for e in _each(obj, "events"):
        _fits(e, R.EventReport, f"{where} event", complete)
        n += 1
        for w in _each(e, "winners"):
            n += _hand(w, R.WinnerReport, f"{where} winner", complete)
        n += _fits_each(e, [("checks", R.WallCheck, "check")], where, complete)
    return n


def _body(obj: dict[str, Any]) -> dict[str, Any]:
    """A score() answer without what the API adds: the ruleset's hand result."""
    return {k: v for k, v in obj.items() if k not in ("id", "ok", "ruleset")}


def _result_type(ruleset: str) -> Any:
    """The TypedDict a ruleset's score_hand answers with (HandResult or its own extension)."""
    hints = get_type_hints(type(REGISTRY[ruleset]).score_hand)
    return hints["return"]


def test_every_result_example_in_the_docs_fits_its_type() -> None:
    checked = 0
    for name, obj in _blocks():
        if not isinstance(obj, dict):
            continue
        where = f"{name}: {json.dumps(obj, ensure_ascii=False)[:60]}"
        complete = obj.get("ok") is True  # a whole answer, not a fragment of one
        if "transfers" in obj or ("events" in obj and "deltas" in obj):
            checked += _round(obj, where, complete)
        elif "win" in obj or "losers" in obj:
            td = _result_type(obj["ruleset"]) if "ruleset" in obj else R.HandResult
            if complete:  # a score() answer: id, ok, ruleset and the ruleset's hand result
                _fits({k: obj[k] for k in ("id", "ok", "ruleset", "win")}, R.ScoreResult,
                      where, True)  # fmt: skip
            checked += _hand(_body(obj), td, where, complete)
    # the result examples of situation.md, house.md, jian.md, sichuan.md, wuhan.md and
    # wuhu.md, with their parts: the test cannot pass on nothing
    assert checked >= 60, checked


def test_the_doc_examples_answer_as_shown() -> None:
    """The types are checked against what the engine gives for the same inputs too:
    settling each ruleset doc's round gives objects whose keys the types declare.
    (situation.md's round only illustrates the form, its events from several tables.)"""
    rounds = [
        obj for name, obj in _blocks()
        if name != "situation.md" and isinstance(obj, dict) and "events" in obj
        and "ruleset" in obj and "ok" not in obj
    ]  # fmt: skip
    assert len(rounds) >= 15
    for rnd in rounds:
        got = settle(rnd)
        assert got["ok"], (rnd, got)
        _round(dict(got), f"settle {json.dumps(rnd)[:60]}", True)


@pytest.mark.parametrize(
    "situation",
    [
        {"ruleset": "mcr", "concealed": "123m456p789s123s5z", "win_tile": "5z",
         "table": {"players": 4, "dealer": 0, "winner": 0, "discarder": 2}},
        {"ruleset": "wuhu", "concealed": "123m456m79m345p99s", "win_tile": "8m",
         "self_drawn": True, "table": {"players": 4, "dealer": 0, "winner": 1}},
        {"ruleset": "generic", "concealed": "1111m3355m77p99s1z", "win_tile": "1z"},
    ],
)  # fmt: skip
def test_score_answers_fit_their_type(situation: dict[str, Any]) -> None:
    got = dict(score(situation))
    assert got["ok"], got
    _fits({k: got[k] for k in ("id", "ok", "ruleset", "win")}, R.ScoreResult, "score", True)
    _hand(_body(got), _result_type(situation["ruleset"]), "score", True)


def test_errors_fit_their_type() -> None:
    got = dict(score({"ruleset": "nope"}))
    _fits(got, R.ErrorResult, "error", True)
    _fits(got["error"], R.ErrorBody, "error body", True)


def test_a_winner_report_keeps_hand_result_keys_of_the_same_type() -> None:
    """rules.round.winner_report copies WINNER_KEYS from a HandResult into a
    WinnerReport: each must be a key of both, with one type."""
    hand = get_type_hints(R.HandResult)
    winner = get_type_hints(R.WinnerReport)
    for k in WINNER_KEYS:
        assert k in hand and k in winner, k
        assert hand[k] == winner[k], (k, hand[k], winner[k])


def test_ruleset_extensions_extend_the_hand_result() -> None:
    """A ruleset's own result type only adds optional keys to HandResult."""
    base_every, base_required = _keys(R.HandResult)
    for rid in REGISTRY:
        td = _result_type(rid)
        every, required = _keys(td)
        assert base_every <= every and required == base_required, rid
        assert typing.is_typeddict(td), rid
