"""The end of the evening: who pays whom, and the competition's 标准分.

`settle_up` finds the fewest payments that bring every balance to zero.  A
group of players whose balances sum to zero settles among itself in one
payment fewer than its size, so the fewest payments are the number of players
with a balance minus the most zero-sum groups they split into; the groups come
from one pass over the subsets (2^n × n steps: instant for a table of up to a
dozen players).  Written here rather than taken from a library because it is
twenty lines and no maintained package does exactly this.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def settle_up(balances: Sequence[int]) -> list[tuple[int, int, int]]:
    """(payer, payee, amount) transfers, as few as can be, that settle `balances`.

    `balances[i]` > 0: player i is owed that much; < 0: owes it.  They sum to zero.
    """
    if sum(balances) != 0:
        raise ValueError(f"balances must sum to zero, not {sum(balances)}")
    people = [i for i, b in enumerate(balances) if b]
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[people[low]]
    # best[mask]: the most zero-sum groups the players in `mask` can be split into,
    # counted as the zero prefixes of the best order of them.
    best = [0] * (full + 1)
    last = [0] * (full + 1)  # the player put last in that best order
    for mask in range(1, full + 1):
        bonus = 1 if sums[mask] == 0 else 0
        top = -1
        for i in range(n):
            if mask >> i & 1 and best[mask ^ (1 << i)] > top:
                top, last[mask] = best[mask ^ (1 << i)], i
        best[mask] = top + bonus
    order: list[int] = []
    mask = full
    while mask:
        order.append(people[last[mask]])
        mask ^= 1 << last[mask]
    order.reverse()
    # The order's zero running sums split it into the groups; inside each, those who
    # owe pay those owed, the largest first: each payment clears at least one of the
    # two and the last clears both, so a group of m settles in m − 1 payments and
    # nobody both pays and receives.
    out: list[tuple[int, int, int]] = []
    group: list[int] = []
    running = 0
    for seat in order:
        group.append(seat)
        running += balances[seat]
        if running == 0:
            out += _settle_group(balances, group)
            group = []
    return out


def _settle_group(balances: Sequence[int], group: list[int]) -> list[tuple[int, int, int]]:
    owe = sorted(((-balances[s], s) for s in group if balances[s] < 0), reverse=True)
    owed = sorted(((balances[s], s) for s in group if balances[s] > 0), reverse=True)
    out = []
    i = j = 0
    debts = [a for a, _ in owe]
    credits = [a for a, _ in owed]
    while i < len(owe) and j < len(owed):
        amount = min(debts[i], credits[j])
        out.append((owe[i][1], owed[j][1], amount))
        debts[i] -= amount
        credits[j] -= amount
        if debts[i] == 0:
            i += 1
        if credits[j] == 0:
            j += 1
    return out


def standard_points(totals: Sequence[int], points: Sequence[int] = (4, 2, 1, 0)) -> list[Fraction]:
    """The competition's table points (标准分) by rank: 4, 2, 1, 0 for four players;
    players tied share the points of the places they hold ("并列者平分")."""
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    out = [Fraction(0)] * len(totals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        share = Fraction(sum(points[i : j + 1]), j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


__all__ = ["settle_up", "standard_points"]
