"""Results kept at the close: one row per seat, written in the closing transaction,
rewritten by a reopen and close, a take-in and a player merge; a reopened table keeps
its last close's rows marked reopened; the data migration fills them the same way."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorer.models import GameSession, Player, TableResult
from scorer.models.results import build_results
from tests.factories import DRAW, by_fans, by_tiles, event, make_table, play, record
from tests.league.helpers import kept, rebuilt

pytestmark = pytest.mark.django_db


def test_a_close_keeps_one_row_per_seat() -> None:
    s = make_table("mcr", seated=True, money_per_point=Decimal("0.50"))
    play(s, [by_tiles(1, 2), by_tiles(1, None), DRAW, by_tiles(3, 2)])
    assert not TableResult.objects.filter(session=s).exists()
    assert s.close()
    rows = list(TableResult.objects.filter(session=s).order_by("seat"))
    assert [r.points for r in rows] == s.tallies()
    assert sum(r.points for r in rows) == 0
    by_seat = {r.seat: r for r in rows}
    assert by_seat[1].wins == 2 and by_seat[1].self_draws == 1 and by_seat[1].place == 1
    assert by_seat[2].deal_ins == 2 and by_seat[2].fed == {"1": 1, "3": 1}
    assert all(r.hands == 4 for r in rows)
    assert sum(r.standard_12 for r in rows) == 7 * 12
    assert by_seat[1].net_yuan == by_seat[1].points * Decimal("0.50")
    assert by_seat[1].best_fans == 47 and by_seat[1].best_hand["tiles"]["win_tile"] == "7z"
    assert by_seat[1].fans["一色三节高"] == ["Pure Shifted Pungs", 2]
    assert all(r.counted and not r.reopened for r in rows)
    assert all(r.mu_after is not None for r in rows)


def test_a_reopened_table_keeps_its_rows_marked_until_it_closes_again() -> None:
    s = make_table("mcr", seated=True)
    play(s, [by_tiles(1, 2)])
    s.close()
    before = kept(s)
    s.reopen(note="记错了")
    rows = TableResult.objects.filter(session=s)
    assert rows.count() == 4 and all(r.reopened for r in rows)
    assert [r.points for r in rows.order_by("seat")] == [row["points"] for row in before]
    record(s, by_tiles(3, 1))
    s.close()
    assert kept(s) == rebuilt(s)
    assert not TableResult.objects.filter(session=s, reopened=True).exists()


def test_a_table_with_an_unnamed_seat_is_kept_but_not_counted() -> None:
    s = make_table("mcr", ["老王", "小李", "阿强", "Player 4"], seated=True)
    play(s, [by_tiles(1, 2)])
    s.close()
    rows = TableResult.objects.filter(session=s)
    assert rows.count() == 4 and not any(r.counted for r in rows)
    assert rows.get(seat=3).player is None


def test_events_count_one_deal_in_per_discard_and_each_winner() -> None:
    from tests.support.events import PUNGS

    s = make_table("sichuan", seated=True, first_dealer=0)
    event(s, {"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": PUNGS}]})
    hands = [{"seat": 0, "status": "not_ready"}, {"seat": 2, "status": "not_ready"},
             {"seat": 3, "status": "not_ready"}]  # fmt: skip
    event(s, {"type": "wall_end", "hands": hands})
    s.close()
    rows = {r.seat: r for r in TableResult.objects.filter(session=s)}
    assert rows[1].wins == 1 and rows[1].best_fans == 2 and rows[1].win_points == 12
    assert rows[2].deal_ins == 1 and rows[2].fed == {"1": 1}
    assert not rows[1].counts_fans or rows[1].best_hand["tiles"] == PUNGS


def test_a_take_in_counts_an_imported_table() -> None:
    from scorer.services.export import import_table, table_json

    s = make_table("mcr", seated=True)
    play(s, [by_tiles(1, 2), by_fans({"24": 1}, 2, 3)])
    s.close()
    copy = import_table(table_json(s), copy_of=s.origin, room=s.room)
    rows = TableResult.objects.filter(session=copy)
    assert rows.count() == 4 and not any(r.counted for r in rows)
    assert copy.take_in("老板")
    assert all(r.counted for r in TableResult.objects.filter(session=copy))
    assert kept(copy) == rebuilt(copy)


def test_a_merge_moves_the_rows_and_replays_the_ratings() -> None:
    a = make_table("mcr", ["老王", "小李", "阿强", "美玲"], seated=True)
    play(a, [by_tiles(1, 2)])
    a.close()
    b = make_table("mcr", ["王哥", "小李", "阿强", "美玲"], seated=True)
    play(b, [by_tiles(0, 2)])
    b.close()
    gone, keep = Player.objects.get(name="王哥"), Player.objects.get(name="老王")
    gone.merge_into(keep)
    assert TableResult.objects.filter(player=keep).count() == 2
    second = TableResult.objects.get(session=b, seat=0)
    first = TableResult.objects.get(session=a, seat=0)
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)


def test_build_results_matches_the_rows_of_a_close() -> None:
    s = make_table("mcr", seated=True)
    play(s, [by_tiles(2, 1), DRAW])
    s.close()
    assert [r.points for r in build_results(s)] == [
        r.points for r in TableResult.objects.filter(session=s).order_by("seat")
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_rows_of_every_closed_table() -> None:
    tables = []
    for names in (("甲", "乙", "丙", "丁"), ("甲", "乙", "丙", "戊")):
        s = make_table("mcr", names, seated=True)
        play(s, [by_tiles(1, 2), by_tiles(0, None)])
        s.close()
        tables.append(s)
    open_one = make_table("mcr", seated=True)
    record(open_one, by_tiles(1, 2))
    written = {s.pk: kept(s, ratings=True) for s in tables}
    executor = MigrationExecutor(connection)
    executor.migrate([("scorer", "0022_books")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    for s in tables:
        assert kept(GameSession.objects.get(pk=s.pk), ratings=True) == written[s.pk]
    assert not TableResult.objects.filter(session=open_one).exists()
