"""Adjustments and penalties under any history (hypothesis): over random tables of 武汉,
陕西 and 国标 with a random 台费, penalties paid to the others or to the room,
adjustments, wins, draws, undos, restores and corrections, every version balances
with the room's take, the tallies are the sums of the current versions of the rounds
that count, and a refused step changes nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import RuleError
from scorer.models import GameSession, Round, RoundRevision, Transfer
from tests.factories import SHORT_NAMES, by_tiles, make_table, record
from tests.support.fees import record_draw, restore_last_undone

pytestmark = pytest.mark.django_db

HAND = {"concealed": "111m222m333m456p7z", "win_tile": "7z"}  # wins at 国标 and 陕西
PENALTY = {"wuhan": "escape", "shaanxi": "escape", "mcr": "false_win"}
TO_PARAM = {"wuhan": "escape_to", "shaanxi": "escape_to", "mcr": "false_win_to"}

fees = st.sampled_from(
    [{}, {"mode": "win_fixed", "amount": 3}, {"mode": "win_percent", "percent": 10, "cap": 20},
     {"mode": "aa", "amount": 5}]
)  # fmt: skip
seats = st.integers(0, 3)
lines = st.lists(st.tuples(seats, seats, st.integers(0, 300)), min_size=1, max_size=3)
play = st.tuples(
    st.sampled_from(["adjust", "adjust", "penalty", "penalty", "win", "draw", "undo", "restore",
                     "revise", "close", "reopen"]),
    seats,
    st.one_of(st.none(), seats),
    lines,
    st.lists(st.integers(0, 4), min_size=4, max_size=4),
)  # fmt: skip


def check(s: GameSession) -> None:
    rounds = s.standing_rounds()
    totals, take = s.tallies(rounds), s.room_take(rounds)
    assert sum(totals) + take == 0
    want, want_take = [0] * s.n_players, 0
    for r in Round.objects.filter(session=s, status=Round.ACTIVE).select_related("current"):
        assert r.current is not None
        want = [a + b for a, b in zip(want, r.current.deltas, strict=True)]
        want_take += r.current.room_take
    assert (totals, take) == (want, want_take)
    for rev in RoundRevision.objects.filter(round__session=s).prefetch_related("transfers"):
        assert sum(rev.deltas) + rev.room_take == 0
        net = [0] * s.n_players
        for t in rev.transfers.all():
            net[t.from_seat] -= t.amount
            if t.to_seat is not None:
                net[t.to_seat] += t.amount
        assert net == rev.deltas
        assert sum(t.amount for t in rev.transfers.all() if t.to_seat is None) == rev.room_take


def step(s: GameSession, op: str, a: int, b: int | None, ls: list[Any], paozi: list[int]) -> None:
    adjust = {"kind": "adjust", "reason": "协商", "lines": [
        {"from": f, "to": t, "amount": n} for f, t, n in ls]}  # fmt: skip
    penalty = {"kind": "penalty", "penalty": PENALTY[s.ruleset], "seat": a}
    if s.ruleset == "shaanxi":
        penalty["seat_inputs"] = {"paozi": paozi}
    if op == "adjust":
        record(s, adjust)
    elif op == "penalty":
        record(s, penalty)
    elif op == "win" and s.ruleset != "wuhan":
        b = None if b == a else b
        if s.stepwise:
            won = {"type": "win", "discarder": b, "winners": [{"seat": a, "hand": HAND}]}
            s.add_event(uuid.uuid4(), won)
        else:
            record(s, by_tiles(a, b, HAND))
    elif op == "draw":
        record_draw(s, "draw")
    elif op == "undo":
        s.undo_last()
    elif op == "restore":
        restore_last_undone(s)
    elif op == "revise":
        last = s.rounds.filter(status=Round.ACTIVE).select_related("current").first()
        if last is not None and last.current is not None:
            kind = last.current.kind
            last.revise(penalty if kind == RoundRevision.PENALTY else adjust)
    elif op == "close":
        s.close()
    elif op == "reopen":
        s.reopen()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fee=fees,
    ruleset=st.sampled_from(["wuhan", "shaanxi", "mcr"]),
    to=st.sampled_from(["others", "room"]),
    history=st.lists(play, min_size=1, max_size=10),
)
def test_every_ledger_balances_with_the_rooms_take(
    fee: dict[str, Any], ruleset: str, to: str, history: list[Any]
) -> None:
    with transaction.atomic():
        s = make_table(ruleset, SHORT_NAMES, fee=fee, params={TO_PARAM[ruleset]: to})
        for op, a, b, ls, paozi in history:
            before = (s.tallies(), s.room_take(), Transfer.objects.count())
            try:
                step(s, op, a, b, ls, paozi)
            except RuleError:
                # Refused (a line paying oneself, 0 points, a closed table): nothing changed.
                assert (s.tallies(), s.room_take(), Transfer.objects.count()) == before
                event(f"{op} refused")
            else:
                event(f"{op} done")
            s.refresh_from_db()
            check(s)
        transaction.set_rollback(True)
