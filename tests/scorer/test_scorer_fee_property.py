"""台费's invariant under any history (hypothesis): over random tables with a random fee,
rounds recorded, events added and taken back, undos, restores, corrections, closes and
reopens, the players' net plus the room's take is zero, every version of every round
balances, the tallies are the sums of the rounds that count and the room's take the
sum of its payments; a refused step changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import RuleError
from scorer.models import GameSession, Round, RoundRevision, Transfer
from scorer.money.fees import FeeRule
from tests.factories import SHORT_NAMES, make_table
from tests.support.fees import step

pytestmark = pytest.mark.django_db


fees = st.one_of(
    st.just({}),
    st.builds(lambda a: {"mode": "aa", "amount": a}, st.integers(1, 50)),
    st.builds(lambda a: {"mode": "win_fixed", "amount": a}, st.integers(1, 50)),
    st.builds(
        lambda p, c: {"mode": "win_percent", "percent": p / 10, "cap": c},
        st.integers(1, 1000),
        st.integers(0, 60),
    ),
    st.builds(lambda a: {"mode": "big_winner", "amount": a}, st.integers(1, 200)),
)
seats = st.integers(0, 3)
play = st.tuples(
    st.sampled_from(["win"] * 6 + ["kong"] * 2 + ["draw", "undo", "restore", "revise",
                                                  "undo_event"]),
    seats,
    st.one_of(st.none(), seats),
    st.integers(0, 2),
)  # fmt: skip
# An evening: stretches of play, each perhaps ended by closing the table and perhaps
# reopened (a step after a close is refused: the table is read-only).
finish = st.sampled_from([(), ("close",), ("close", "reopen"), ("close", "reopen", "close")])
steps = st.lists(
    st.tuples(st.lists(play, max_size=6), finish).map(
        lambda p: [*p[0], *((op, 0, None, 0) for op in p[1])]
    ),
    min_size=1,
    max_size=3,
).map(lambda parts: [x for part in parts for x in part])


def check(s: GameSession) -> None:
    rounds = s.standing_rounds()
    totals = s.tallies(rounds)
    take = s.room_take(rounds)
    assert sum(totals) + take == 0
    want = [0] * s.n_players
    want_take = 0
    for r in Round.objects.filter(session=s, status=Round.ACTIVE).select_related("current"):
        rev = r.current
        assert rev is not None
        want = [a + b for a, b in zip(want, rev.deltas, strict=True)]
        want_take += rev.room_take
    assert totals == want and take == want_take
    assert want_take >= 0
    for rev in RoundRevision.objects.filter(round__session=s).prefetch_related("transfers"):
        assert sum(rev.deltas) + rev.room_take == 0
        to_room = [t for t in rev.transfers.all() if t.to_seat is None]
        assert sum(t.amount for t in to_room) == rev.room_take
        assert all(t.amount > 0 for t in to_room)
    # A fee charged at the close counts only while the table is closed, once.
    fee_rounds = [r for r in rounds if r.is_fee]
    assert len(fee_rounds) <= 1
    if fee_rounds:
        assert s.closed_at is not None and rounds[-1].is_fee
    elif s.closed_at is not None and s.rules.fee.mode in ("aa", "big_winner"):
        assert not [r for r in rounds if not r.is_fee]  # only an empty table pays nothing


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fee=fees, ruleset=st.sampled_from(["mcr", "sichuan"]), history=steps)
def test_players_net_plus_the_rooms_take_is_always_zero(
    fee: dict[str, Any], ruleset: str, history: list[tuple[str, int, int | None, int]]
) -> None:
    with transaction.atomic():
        s = make_table(ruleset, SHORT_NAMES, fee=fee)
        assert FeeRule.of(s.fee).to_json() == FeeRule.from_json(fee).to_json()
        for op, a, b, k in history:
            before = (s.tallies(), s.room_take(), Transfer.objects.count())
            try:
                step(s, op, a, b, k)
            except RuleError:
                # Refused (a closed table, a hand that does not fit): nothing changed.
                assert (s.tallies(), s.room_take(), Transfer.objects.count()) == before
            else:
                event(f"{op} done")
            s.refresh_from_db()
            check(s)
        event(f"room took {'something' if s.room_take() else 'nothing'}")
        transaction.set_rollback(True)
