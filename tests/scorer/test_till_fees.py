"""计时 fees: docs/fees.md's worked examples, each a test, and the
rules' own checks.  Pure functions of Decimal: no database."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import RuleError
from scorer.money import clock
from scorer.money.timefee import TimeFee, split

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fees.md"

BLOCK = {"mode": "block", "price": "50", "hours": 4, "grace": 10, "overtime": "block"}
BLOCK_HOURLY = {**BLOCK, "overtime": "hour", "overtime_price": "15", "unit": 30}
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}


def hm(hours: int, minutes: int) -> int:
    return (hours * 60 + minutes) * 60


# The docs' table, row by row: (rule, seconds, fee).
EXAMPLES = [
    (BLOCK, hm(3, 50), "50"),
    (BLOCK, hm(4, 8), "50"),
    (BLOCK, hm(4, 30), "100"),
    (BLOCK_HOURLY, hm(4, 30), "57.50"),
    (BLOCK_HOURLY, hm(4, 35), "65.00"),
    (HOURLY, hm(1, 40), "60"),
    (HOURLY, hm(2, 10), "75"),
]


@pytest.mark.parametrize(("rule", "seconds", "fee"), EXAMPLES)
def test_the_worked_examples(rule: dict[str, object], seconds: int, fee: str) -> None:
    assert TimeFee.from_json(rule).fee(seconds) == Decimal(fee)


def test_shared_by_four_the_odd_fen_on_the_first_seats() -> None:
    assert split(Decimal("57.50"), 4) == [Decimal(x) for x in ("14.38", "14.38", "14.37", "14.37")]


@pytest.mark.parametrize("rule", [BLOCK, BLOCK_HOURLY, HOURLY])
def test_a_forty_minute_pause_is_not_billed(rule: dict[str, object]) -> None:
    start = dt.datetime(2026, 11, 27, 19, 0, tzinfo=dt.UTC)
    pause = (start + dt.timedelta(hours=1), start + dt.timedelta(hours=1, minutes=40))
    for played in (hm(1, 40), hm(3, 50), hm(4, 30)):
        end = start + dt.timedelta(seconds=played) + dt.timedelta(minutes=40)
        billed = clock.billed_seconds(start, end, [pause])
        assert billed == played
        assert TimeFee.from_json(rule).fee(billed) == TimeFee.from_json(rule).fee(played)


def test_the_docs_table_is_the_issues_table_exactly() -> None:
    text = DOCS.read_text()
    table = re.search(r"<!-- worked-examples -->\n(.*?)<!-- /worked-examples -->", text, re.S)
    assert table is not None
    rows = [r for r in table.group(1).splitlines() if r.startswith("|")][2:]
    fees = [r.strip("| ").rsplit("|", 1)[-1].strip() for r in rows]
    assert fees[: len(EXAMPLES)] == [f for _, _, f in EXAMPLES]
    assert fees[len(EXAMPLES) :] == ["14.38, 14.38, 14.37, 14.37", "not billed for the pause"]


@given(st.integers(0, 48 * 3600), st.integers(0, 48 * 3600))
def test_more_time_never_costs_less(a: int, b: int) -> None:
    for rule in (BLOCK, BLOCK_HOURLY, HOURLY):
        r = TimeFee.from_json(rule)
        low, high = sorted((a, b))
        assert r.fee(low) <= r.fee(high)


@given(st.decimals(min_value=0, max_value=100_000, places=2), st.integers(1, 8))
def test_a_split_adds_up_and_differs_by_a_fen_at_most(total: Decimal, n: int) -> None:
    shares = split(total, n)
    assert sum(shares) == total
    assert max(shares) - min(shares) <= Decimal("0.01")
    assert shares == sorted(shares, reverse=True)


def test_the_steps_the_page_ticks_through_are_the_rules_fees() -> None:
    r = TimeFee.from_json(BLOCK_HOURLY)
    steps = r.steps(hm(3, 0), horizon=3 * 3600)
    for seconds in range(hm(3, 0), hm(6, 0), 137):
        shown = [fee for after, fee in steps if after < seconds][-1]
        assert Decimal(shown) == r.fee(seconds)


@pytest.mark.parametrize(
    "bad",
    [
        {"mode": "hour", "price": "0"},
        {"mode": "hour", "price": "1.005"},
        {"mode": "hour", "price": "30", "unit": 0},
        {"mode": "block", "price": "50", "hours": 25},
        {"mode": "block", "price": "50", "overtime": "hour"},  # no overtime price
        {"mode": "block", "price": "50", "overtime": "later"},
        {"mode": "minute", "price": "1"},
        {"mode": "hour", "price": "30", "discount": 1},
        [],
    ],
)
def test_a_rule_that_says_nothing_sound_is_refused(bad: object) -> None:
    with pytest.raises(RuleError):
        TimeFee.from_json(bad)
    assert not TimeFee.of(bad).charges  # a stored table's: bills nothing


def test_the_stored_json_round_trips() -> None:
    for rule in (BLOCK, BLOCK_HOURLY, HOURLY):
        r = TimeFee.from_json(rule)
        assert TimeFee.from_json(r.to_json()) == r


# --------------------------------------------------------------------------- point modes in 元

from scorer.money.fees import FeeRule  # noqa: E402


def test_point_modes_in_yuan_are_money_at_the_close_never_points() -> None:
    aa = FeeRule.from_json({"mode": "aa", "unit": "yuan", "amount": "20"})
    assert aa.to_json() == {"mode": "aa", "unit": "yuan", "amount": "20.00"}
    assert aa.round_fees([10, -10, 0, 0], [0]) == [0, 0, 0, 0]
    assert aa.close_fees([10, -10, 0, 0]) == [0, 0, 0, 0]
    assert aa.money_at_close([10, -10, 0, 0], [], None) == [Decimal(20)] * 4
    big = FeeRule.from_json({"mode": "big_winner", "unit": "yuan", "amount": "50.01"})
    assert big.money_at_close([30, 30, -60, 0], [], None) == [
        Decimal("25.01"), Decimal("25.00"), Decimal(0), Decimal(0)
    ]  # fmt: skip
    rake = FeeRule.from_json({"mode": "win_percent", "unit": "yuan", "percent": 10, "cap": "3"})
    assert rake.needs_rate and not aa.needs_rate
    wins = [([24, -8, -8, -8], [0]), ([-80, 80, 0, 0], [1]), ([-1, 1, 0, 0], [1])]
    # At 0.5 元 a point: 12 元 → 1.20; 40 元 → 4, capped at 3; 0.50 元 → 0.05.
    assert rake.money_at_close([0, 0, 0, 0], wins, Decimal("0.5")) == [
        Decimal("1.20"), Decimal("3.05"), Decimal(0), Decimal(0)
    ]  # fmt: skip
    assert rake.money_at_close([0, 0, 0, 0], wins, None) == [Decimal(0)] * 4
    fixed = FeeRule.from_json({"mode": "win_fixed", "unit": "yuan", "amount": "5"})
    assert fixed.money_at_close([0] * 4, wins, Decimal("0.5"))[1] == Decimal("5.50")  # 5 + 0.50
    with pytest.raises(RuleError):
        FeeRule.from_json({"mode": "aa", "unit": "yuan", "amount": "0.001"})
    with pytest.raises(RuleError):
        FeeRule.from_json({"mode": "aa", "unit": "bananas", "amount": 1})
