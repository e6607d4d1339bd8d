"""Settle-up: the fewest payments, checked against an exhaustive search for up to six
players; and the competition's 标准分 with ties split."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.money.settleup import settle_up, standard_points


def fewest(balances: list[int]) -> int:
    """The fewest payments by exhaustive search: settle the first open balance
    against each later one of the other sign, in every way (the classic backtracking)."""
    debts = [b for b in balances if b]

    def go(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = 10**9
        for i in range(start + 1, len(debts)):
            if debts[i] * debts[start] < 0:
                debts[i] += debts[start]
                best = min(best, 1 + go(start + 1))
                debts[i] -= debts[start]
        return best

    return go(0)


def apply(balances: list[int], transfers: list[tuple[int, int, int]]) -> list[int]:
    left = list(balances)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        left[payer] += amount
        left[payee] -= amount
    return left


balances_st = st.integers(2, 6).flatmap(
    lambda n: st.lists(st.integers(-60, 60), min_size=n - 1, max_size=n - 1).map(
        lambda xs: [*xs, -sum(xs)]
    )
)


@given(balances_st)
@settings(max_examples=400, deadline=None)
def test_settles_everyone_in_the_fewest_payments(balances: list[int]) -> None:
    out = settle_up(balances)
    assert apply(balances, out) == [0] * len(balances)
    assert len(out) == fewest(balances)
    assert len(out) <= max(len([b for b in balances if b]) - 1, 0)
    # Those who owe only pay, those owed only receive.
    assert all(balances[p] < 0 < balances[q] for p, q, _ in out)


@pytest.mark.parametrize(
    ("balances", "count"),
    [([0, 0, 0, 0], 0), ([30, -30, 20, -20], 2), ([90, -30, -30, -30], 3), ([5, 5, -3, -7], 3),
     ([12, -4, -8, 0], 2)],
)  # fmt: skip
def test_examples(balances: list[int], count: int) -> None:
    out = settle_up(balances)
    assert len(out) == count and apply(balances, out) == [0] * 4


def test_balances_must_sum_to_zero() -> None:
    with pytest.raises(ValueError):
        settle_up([1, 0, 0, 0])


@pytest.mark.parametrize(
    ("totals", "points"),
    [([50, 20, -10, -60], [4, 2, 1, 0]), ([30, 30, -20, -40], [3, 3, 1, 0]),
     ([0, 0, 0, 0], [Fraction(7, 4)] * 4), ([-5, 10, 10, 10], [0, Fraction(7, 3),
      Fraction(7, 3), Fraction(7, 3)])],
)  # fmt: skip
def test_standard_points_split_ties(totals: list[int], points: list[Fraction]) -> None:
    assert standard_points(totals) == points
    assert sum(standard_points(totals)) == 7
