"""Properties of the kept results (hypothesis): after any history of rounds, corrections,
undos, closes, reopens, take-ins and merges, every closed table's rows are what its
rounds give when rebuilt from scratch, and its family's ratings are what a replay of
every counted table in close order gives."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError
from scorer.league.ratings import Skill, replay
from scorer.models import GameSession, Player, TableResult
from scorer.models.results import replay_ratings
from scorer.services.export import import_table, table_json
from tests.factories import make_room, make_table
from tests.league.helpers import kept, rebuilt
from tests.support.fees import step

pytestmark = pytest.mark.django_db

NAMES = ("甲", "乙", "丙", "丁", "戊", "己")
seats = st.integers(0, 3)
op = st.tuples(
    st.sampled_from(["win"] * 5 + ["draw", "undo", "revise", "close", "reopen"]),
    seats,
    st.one_of(st.none(), seats),
    st.integers(0, 2),
)
table = st.tuples(
    st.permutations(NAMES).map(lambda p: p[:4]),
    st.sampled_from(["mcr", "sichuan"]),
    st.lists(op, max_size=8),
    st.booleans(),  # closed at the end
    st.booleans(),  # exported and taken back in (its copy) once closed
)
merge = st.one_of(st.none(), st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)))


def stored_ratings(room_id: int, family: str) -> list[tuple[Any, ...]]:
    rows = TableResult.objects.filter(room_id=room_id, family=family, counted=True)
    return list(rows.order_by("closed_at", "session_id", "seat").values_list(
        "player_id", "rating__mu_before", "rating__sigma_before", "rating__mu_after",
        "rating__sigma_after"))  # fmt: skip


def from_scratch(room_id: int, family: str) -> list[tuple[Any, ...]]:
    rows = list(TableResult.objects.filter(room_id=room_id, family=family, counted=True)
                .order_by("closed_at", "session_id", "seat"))  # fmt: skip
    tables: dict[int, list[TableResult]] = {}
    for r in rows:
        tables.setdefault(r.session_id, []).append(r)
    rated, _ = replay([([r.player_id for r in t], [r.place for r in t]) for t in tables.values()])
    out = []
    for t, seats_ in zip(tables.values(), rated, strict=True):
        for r, (b, a) in zip(t, seats_, strict=True):
            out.append((r.player_id, b.mu, b.sigma, a.mu, a.sigma))
    return out


def close_enough(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return len(a) == len(b) and all(
        x[0] == y[0] and all(abs(p - q) < 1e-9 for p, q in zip(x[1:], y[1:], strict=True))
        for x, y in zip(a, b, strict=True)
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables=st.lists(table, min_size=1, max_size=4), merged=merge)
def test_kept_results_equal_results_rebuilt_from_scratch(
    tables: list[tuple[Any, ...]], merged: tuple[str, str] | None
) -> None:
    with transaction.atomic():
        room = make_room("prop")
        for names, ruleset, history, closed, take_in in tables:
            s = make_table(ruleset, names, seated=True, room=room, first_dealer=0)
            for o, a, b, k in history:
                with contextlib.suppress(RuleError):
                    step(s, o, a, b, k)
                s.refresh_from_db()
            if closed and s.closed_at is None:
                with contextlib.suppress(RuleError):
                    s.close()
                s.refresh_from_db()
            if take_in and s.closed_at is not None:
                copy = import_table(table_json(s), copy_of=s.origin, room=room)
                copy.take_in("老板")
        if merged is not None:
            gone, keep = (Player.objects.filter(room=room, name=n).first() for n in merged)
            if gone is not None and keep is not None:
                # Two people who sat at one table are refused: nothing merged.
                with contextlib.suppress(ValidationError):
                    gone.merge_into(keep)
        for s in GameSession.objects.filter(room=room):
            if s.closed_at is not None:
                assert kept(s) == rebuilt(s)
            else:
                assert all(r.reopened for r in TableResult.objects.filter(session=s))
        for family in ("mcr", "sichuan"):
            incremental = stored_ratings(room.pk, family)
            assert close_enough(incremental, from_scratch(room.pk, family))
            replay_ratings(room.pk, family)
            assert close_enough(stored_ratings(room.pk, family), incremental)
        transaction.set_rollback(True)


@given(totals=st.lists(st.integers(-50, 50), min_size=4, max_size=4))
def test_standard_points_of_a_four_player_table_sum_to_seven_shared_on_ties(
    totals: list[int],
) -> None:
    from scorer.league.seat_results import Line, table_figures

    deltas = [t - sum(totals) // 4 if i else 0 for i, t in enumerate(totals)]
    deltas[0] = -sum(deltas[1:])
    rows = table_figures([Line(1, "adjust", {}, {}, deltas)], 4, True)
    assert sum(r.standard_12 for r in rows) == 7 * 12
    for a in rows:
        for b in rows:
            if a.points == b.points:
                assert a.standard_12 == b.standard_12 and a.place == b.place
            elif a.points > b.points:
                assert a.standard_12 > b.standard_12 and a.place < b.place


def test_a_replay_from_scratch_of_no_table_is_nothing() -> None:
    room = make_room("empty")
    assert replay_ratings(room.pk, "mcr") == 0
    assert Skill().shown == 1000 and Skill().provisional
