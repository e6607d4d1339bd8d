"""Seasons: what counts (the room's days as the books cut them, the configurations,
registry players, the books), the rankings, the MCR tie-break chain, the minimum and
the best N, a season closed keeping its standings, and the room's log."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.league.standings import POINTS, STANDARD, UMA, YUAN, Ranking, standings
from scorer.models import RoomLogEntry, Season
from scorer.models.roomlog import (
    SEASON_CLOSED,
    SEASON_EDITED,
    SEASON_OPENED,
    SEASON_TABLE_CHANGED,
    SEASON_TABLE_REOPENED,
)
from scorer.money import clock
from scorer.services.league import SeatRow, close_season, live_standings, standings_json
from tests.factories import by_tiles, make_member, make_room, make_table, play

NOV1, NOV30 = dt.date(2026, 11, 1), dt.date(2026, 11, 30)


def table(sid: int, points: dict[int, int], rate: Decimal | None = None) -> list[SeatRow]:
    from scorer.league.seat_results import places

    pids = list(points)
    pl = places([points[p] for p in pids])
    return [SeatRow(sid, p, f"p{p}", len(pids), pl[i], points[p], None if rate is None else points[p] * rate)
            for i, p in enumerate(pids)]  # fmt: skip


def test_standard_points_shared_on_ties_and_the_chain() -> None:
    rows = table(1, {1: 30, 2: 30, 3: -20, 4: -40}) + table(2, {1: 10, 2: 20, 3: -10, 4: -20})
    got = standings(Ranking(STANDARD), rows)
    by = {s.player_id: s for s in got.ranked}
    assert by[1].score == Fraction(3) + 2 and by[2].score == Fraction(3) + 4
    assert [s.player_id for s in got.ranked] == [2, 1, 3, 4]
    assert sum(s.score for s in got.ranked) == 14


def test_the_tie_break_chain_goes_to_points_then_places_then_best_game() -> None:
    # Same 标准分 (4 + 0 and 2 + 2), so 比赛分 decides.
    rows = table(1, {1: 50, 2: 10, 3: -20, 4: -40}) + table(2, {1: -60, 2: 20, 3: 30, 4: 10})
    got = standings(Ranking(STANDARD), rows)
    by = {s.player_id: s for s in got.ranked}
    assert by[1].score == by[2].score == 4
    assert by[2].points == 30 > by[1].points == -10
    assert got.ranked.index(by[2]) < got.ranked.index(by[1])


def test_players_equal_on_the_whole_chain_share_the_place() -> None:
    rows = table(1, {1: 30, 2: 30, 3: -30, 4: -30})
    got = standings(Ranking(STANDARD), rows)
    assert [s.rank for s in got.ranked] == [1, 1, 3, 3]


def test_minimum_tables_and_best_n() -> None:
    rows = (table(1, {1: 40, 2: 0, 3: -10, 4: -30}) + table(2, {1: -40, 2: 0, 3: 10, 4: 30})
            + table(3, {1: 20, 2: 10, 5: -10, 6: -20}))  # fmt: skip
    got = standings(Ranking(POINTS, min_tables=2, best_n=2), rows)
    assert {s.player_id for s in got.unranked} == {3, 4, 5, 6} - {3, 4} | {5, 6}
    by = {s.player_id: s for s in got.ranked}
    assert by[1].tables == 3 and by[1].counted == 2 and by[1].score == 60


def test_net_yuan_leaves_out_tables_without_a_rate() -> None:
    rows = table(1, {1: 40, 2: 0, 3: -10, 4: -30}, Decimal("0.5")) + table(
        2, {1: -40, 2: 0, 3: 10, 4: 30}
    )
    got = standings(Ranking(YUAN), rows)
    assert got.not_counted == [2]
    assert {s.player_id: s.score for s in got.ranked}[1] == 20


def test_uma_by_place_shared_on_ties() -> None:
    rows = table(1, {1: 40, 2: 40, 3: -30, 4: -50})
    got = standings(Ranking(UMA, uma={"4": [20, 10, -10, -20]}), rows)
    assert {s.player_id: s.score for s in got.ranked} == {1: 55, 2: 55, 3: -40, 4: -70}


tables_st = st.lists(
    st.lists(st.integers(-100, 100), min_size=4, max_size=4), min_size=1, max_size=12
)


@settings(max_examples=80, deadline=None)
@given(totals=tables_st, kind=st.sampled_from([STANDARD, POINTS, UMA]),
       seed=st.integers(0, 10**6), best_n=st.one_of(st.none(), st.integers(1, 4)))  # fmt: skip
def test_the_standings_do_not_depend_on_the_order_tables_were_recorded_in(
    totals: list[list[int]], kind: str, seed: int, best_n: int | None
) -> None:
    rng = random.Random(seed)
    rows = []
    for sid, t in enumerate(totals):
        players = rng.sample(range(1, 9), 4)
        rows += table(sid, dict(zip(players, t, strict=True)))
    ranking = Ranking(kind, uma={"4": [15, 5, -5, -15]}, min_tables=2, best_n=best_n)
    first = standings(ranking, rows)
    shuffled = rows[:]
    rng.shuffle(shuffled)
    again = standings(ranking, shuffled)
    assert first == again


# ----------------------------------------------------------------------------- in a room


def at(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def closed_table(room: Any, names: tuple[str, ...], winner: int, when: dt.datetime) -> Any:
    """A table of `names` won once by `winner`, closed at `when` (the till's clock)."""
    with clock.frozen(when - dt.timedelta(minutes=30)):
        s = make_table("mcr", names, seated=True, room=room)
        play(s, [by_tiles(winner, (winner + 1) % 4)])
    with clock.frozen(when):
        s.close()
    return s


@pytest.mark.django_db
def test_a_season_counts_the_room_days_its_configs_and_logs_its_changes() -> None:
    room = make_room("laoli")
    boss = make_member(room, "boss")
    mcr = room.configs.filter(ruleset="mcr").first()
    season = Season.open(room, boss, [mcr], name="十一月月赛", first_day=NOV1, last_day=NOV30,
                         min_tables=1)  # fmt: skip
    four = ("甲", "乙", "丙", "丁")
    inside = closed_table(room, four, 0, at(dt.date(2026, 12, 1), 3))  # Nov 30's night
    closed_table(room, four, 1, at(dt.date(2026, 12, 1), 7))  # Dec 1: outside
    closed_table(room, four, 2, at(dt.date(2026, 10, 31), 23))  # outside
    got = live_standings(season)
    assert sum(s.tables for s in got.ranked) == 4
    assert {s.name: s.score for s in got.ranked}["甲"] == 4
    assert season.edit(boss, [mcr], name="十一月月赛", first_day=NOV1, last_day=dt.date(2026, 12, 1),
                       ranking=POINTS, place_points={}, uma={}, min_tables=1, best_n=None)  # fmt: skip
    assert sum(s.tables for s in live_standings(season).ranked) == 8
    final = standings_json(season)
    assert close_season(season, boss)
    assert not close_season(season, boss)  # closed once
    inside.reopen(note="改")
    play(inside, [by_tiles(3, 2)])
    inside.close()
    season.refresh_from_db()
    assert standings_json(season) == final
    actions = list(RoomLogEntry.objects.filter(room=room).values_list("action", flat=True))
    for a in (SEASON_OPENED, SEASON_EDITED, SEASON_CLOSED, SEASON_TABLE_REOPENED,
              SEASON_TABLE_CHANGED):  # fmt: skip
        assert a in actions


@pytest.mark.django_db
@pytest.mark.parametrize("kind", [STANDARD, POINTS, YUAN])
def test_the_standings_summed_by_the_database_are_those_summed_table_by_table(kind: str) -> None:
    from scorer.services.league import ROW_FIELDS, ranking_of, season_rows, summed_standings

    room = make_room("sums")
    boss = make_member(room, "boss")
    rng = random.Random(7)
    names = ("甲", "乙", "丙", "丁", "戊", "己")
    for i in range(9):
        four = tuple(rng.sample(names, 4))
        s = make_table("mcr", four, seated=True, room=room,
                       money_per_point=None if i == 4 else Decimal("0.5"))  # fmt: skip
        for _ in range(rng.randrange(1, 4)):
            winner = rng.randrange(4)
            play(s, [by_tiles(winner, rng.choice([None, *(set(range(4)) - {winner})]))])
        s.close()
    today = clock.now().date()
    season = Season.open(room, boss, [], name="s", first_day=today - dt.timedelta(days=2),
                         last_day=today + dt.timedelta(days=2), ranking=kind, min_tables=2)  # fmt: skip
    summed = summed_standings(season)
    assert summed is not None
    rows = [SeatRow(*t) for t in season_rows(season).values_list(*ROW_FIELDS)]
    assert summed == standings(ranking_of(season), rows)
