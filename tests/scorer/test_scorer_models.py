"""Sessions and rounds: recorded whole or not at all, never lost, totals follow."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from rules import RuleError
from scorer.models import GameSession, Round, RoundRevision, Transfer
from tests.factories import DRAW, by_fans, by_tiles, make_table, record

pytestmark = pytest.mark.django_db


def session(**kw: Any) -> GameSession:
    return make_table("mcr", ["东家", "南家", "西家", "北家"], **kw)


def test_record_round_scores_and_pays() -> None:
    s = session()
    r = record(s, by_tiles(1, 2), author="phone A")
    assert r.number == 1 and r.current is not None
    rev = r.current
    assert rev.kind == "win" and rev.winners == [1] and rev.dealer == 0
    total = rev.result["total"]
    assert rev.deltas == [-8, 8 * 3 + total, -(8 + total), -8]
    assert sum(s.tallies()) == 0 and s.tallies() == rev.deltas
    assert Transfer.objects.filter(revision=rev).count() == 3
    s.refresh_from_db()
    assert s.version == 1


def test_same_token_records_once() -> None:
    s = session()
    token = uuid.uuid4()
    a = s.record_round(token, by_tiles(1, 2))
    b = s.record_round(token, by_tiles(3, None))
    assert a.pk == b.pk
    assert Round.objects.count() == 1 and RoundRevision.objects.count() == 1


def test_bad_entry_saves_nothing() -> None:
    s = session()
    with pytest.raises(RuleError) as e:
        record(s, by_tiles(1, 2, {"concealed": "123m456p789s1123z", "win_tile": "4z"}))
    assert e.value.code == "not_a_win"
    with pytest.raises(RuleError):
        record(s, by_tiles(1, 1))
    chi = [{"type": "chi", "tiles": "234p"}]
    low = {"concealed": "234m456p678s5p", "win_tile": "5p", "melds": chi}
    with pytest.raises(RuleError) as e2:  # a legal shape below 8 fans
        record(s, by_tiles(1, 2, low))
    assert "差" in e2.value.message_zh
    assert (
        Round.objects.count() == 0
        and RoundRevision.objects.count() == 0
        and Transfer.objects.count() == 0
    )
    s.refresh_from_db()
    assert s.version == 0


def test_undo_keeps_the_round() -> None:
    s = session()
    record(s, by_tiles(1, 2))
    r2 = record(s, by_tiles(2, None))
    undone = s.undo_last(author="phone B")
    assert undone is not None and undone.pk == r2.pk
    r2.refresh_from_db()
    assert r2.status == Round.UNDONE and r2.undone_by == "phone B" and r2.current is not None
    assert [r.number for r in s.standing_rounds()] == [1]
    assert sum(s.tallies()) == 0
    s.undo_last()
    assert s.undo_last() is None
    assert s.tallies() == [0, 0, 0, 0]
    assert Round.objects.count() == 2  # nothing deleted


def test_revise_keeps_every_version() -> None:
    s = session()
    r = record(s, by_tiles(1, 2), author="A")
    first = r.current
    assert first is not None
    rev2 = r.revise(by_tiles(3, None), author="B")
    r.refresh_from_db()
    assert r.current_id == rev2.pk and rev2.number == 2 and rev2.author == "B"
    assert [v.number for v in r.revisions.all()] == [1, 2]
    assert s.tallies() == rev2.deltas and sum(rev2.deltas) == 0
    with pytest.raises(RuleError):
        r.revise(by_tiles(1, 1))
    r.refresh_from_db()
    assert r.current_id == rev2.pk and r.revisions.count() == 2


def test_draw_and_dealer_rotation_mcr() -> None:
    s = session()
    assert s.next_position() == (0, "E")
    record(s, by_tiles(0, 2))  # dealer wins: MCR competition passes the deal anyway
    assert s.next_position() == (1, "E")
    record(s, DRAW)
    assert s.next_position() == (2, "E")
    record(s, by_tiles(3, None))
    record(s, by_tiles(1, 3))
    assert s.next_position() == (0, "S")  # the deal came round: South round
    assert s.standing_rounds()[1].current.deltas == [0, 0, 0, 0]  # type: ignore[union-attr]


def test_dealer_repeat_parameter() -> None:
    s = session(params={"dealer_repeat": "dealer_wins_or_draw"})
    record(s, by_tiles(0, 2))
    assert s.next_position() == (0, "E")
    record(s, DRAW)
    assert s.next_position() == (0, "E")
    record(s, by_tiles(1, 2))
    assert s.next_position() == (1, "E")


def test_dealer_override_sets_seat_winds() -> None:
    s = session()
    r = record(s, by_tiles(1, 2, dealer=1, prevalent_wind="S"))
    assert r.current is not None and r.current.dealer == 1 and r.current.prevalent_wind == "S"


def test_quick_entry_pays_like_tiles() -> None:
    s = session()
    tiles = record(s, by_tiles(1, 2))
    assert tiles.current is not None
    fans = {str(f["id"]): f["count"] for f in tiles.current.result["fans"]}
    quick = record(s, by_fans(fans))
    assert quick.current is not None and quick.current.deltas == tiles.current.deltas
    with pytest.raises(RuleError):
        record(s, by_fans({"76": 1}))


def test_undo_expected_round_guards_a_double_undo() -> None:
    s = session()
    record(s, by_tiles(1, 2))
    record(s, by_tiles(2, None))
    assert s.undo_last(expected=2) is not None
    assert s.undo_last(expected=2) is None  # the second phone saw round 2 as the last
    assert [r.number for r in s.standing_rounds()] == [1]


def test_revise_keeps_the_rounds_own_dealer_and_wind() -> None:
    s = session()
    record(s, by_tiles(1, 2))
    r2 = record(s, by_tiles(2, 3))
    assert r2.current is not None and r2.current.dealer == 1
    rev = r2.revise(by_tiles(3, None))
    assert rev.dealer == 1 and rev.prevalent_wind == "E"
