"""Rounds played as events (四川 血战): each event added whole, nothing ever lost.

Every expected number is worked out here from the seed rules (base 6: 直杠 1×,
暗杠 2× from each player still in, a discard win pays base × 2^(番-1)) or from
the engine's single-hand `score()`, never read back from what was stored.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from rules import RuleError, score, waits
from scorer.models import GameSession, Round, RoundRevision
from tests.factories import SHORT_NAMES, event, make_table, record
from tests.support.events import PUNGS

pytestmark = pytest.mark.django_db

BASE = 6
# 清七对 in 万: 5 番 → 6 × 2^4 = 96 on a discard.
PURE_PAIRS = {"concealed": "1122334466778m", "win_tile": "8m"}


def sichuan(**kw: Any) -> GameSession:
    return make_table("sichuan", SHORT_NAMES, first_dealer=0, **kw)


def kong(player: int, kind: str, discarder: int | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind}
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


def win(seat: int, discarder: int | None, hand: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, "winners": [{"seat": seat, "hand": hand}], **kw}


def hand_value(hand: dict[str, Any], self_drawn: bool = False) -> int:
    r = score({"ruleset": "sichuan", **hand, "self_drawn": self_drawn})
    assert r["ok"] and r["win"], r
    return int(r["value"])


def test_pungs_hand_is_what_the_tests_assume() -> None:
    assert hand_value(PUNGS) == 12 and hand_value(PURE_PAIRS) == 96


def test_a_kong_starts_a_round_in_progress_that_counts_at_once() -> None:
    s = sichuan()
    r = event(s, kong(1, "concealed"), author="乙的手机")
    assert r.in_progress and r.number == 1
    assert s.round_in_progress() == r
    # 暗杠: "下雨立刻收取其他未胡者2倍點數" — each of three pays 12.
    assert s.tallies() == [-12, 36, -12, -12]
    assert r.current is not None and r.current.kind == RoundRevision.ROUND
    assert [t.reason for t in r.current.transfers.all()] == ["kong_concealed"] * 3


def test_events_accumulate_and_each_is_a_revision() -> None:
    s = sichuan()
    event(s, kong(1, "exposed", discarder=2))
    event(s, win(3, 0, PUNGS))
    r = event(s, win(2, None, PURE_PAIRS), expected=2)
    r.refresh_from_db()
    assert r.revisions.count() == 3
    self_drawn = hand_value(PURE_PAIRS, self_drawn=True) + BASE  # 自摸加底
    # Seat 3 has won and left: only seats 0 and 1 pay the self-draw.
    assert s.tallies() == [-12 - self_drawn, 6 - self_drawn, -6 + 2 * self_drawn, 12]
    assert r.in_progress  # two players still in: the round goes on (血战)
    assert r.current is not None and r.current.winners == [3, 2]


def test_the_third_winner_ends_the_round() -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    r = event(s, win(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"}))
    assert not r.in_progress and s.round_in_progress() is None


def test_after_the_round_ends_a_new_event_starts_the_next_round() -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    event(s, win(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"}))
    r2 = event(s, kong(0, "concealed"))
    assert r2.number == 2 and r2.in_progress


def test_a_refused_event_changes_nothing() -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    s.refresh_from_db()
    before = (s.tallies(), RoundRevision.objects.count(), s.version)
    with pytest.raises(RuleError) as e:
        event(s, kong(3, "concealed"))  # seat 3 is out
    assert e.value.code == "bad_event" and "出局" in e.value.message_zh
    s.refresh_from_db()
    assert (s.tallies(), RoundRevision.objects.count(), s.version) == before


def test_the_same_form_twice_adds_the_event_once() -> None:
    s = sichuan()
    token = uuid.uuid4()
    a = s.add_event(token, kong(1, "concealed"))
    b = s.add_event(token, kong(1, "concealed"))
    assert a == b and a.revisions.count() == 1
    assert s.tallies() == [-12, 36, -12, -12]


def test_a_phone_that_saw_an_older_round_is_refused() -> None:
    s = sichuan()
    event(s, kong(1, "concealed"), expected=0)
    with pytest.raises(RuleError) as e:
        event(s, kong(1, "concealed"), expected=0)
    assert e.value.code == "bad_event"
    assert s.tallies() == [-12, 36, -12, -12]


def test_join_last_win_is_one_discard_several_winners() -> None:
    s = sichuan()
    event(s, win(3, 0, {"concealed": "111222333p4499m", "win_tile": "9m"}))
    r = event(s, win(2, 0, {"concealed": "123456789p1178m", "win_tile": "9m"}), join_last_win=True)
    assert r.current is not None
    events = r.current.entry["events"]
    assert len(events) == 1 and [w["seat"] for w in events[0]["winners"]] == [3, 2]


def test_join_last_win_needs_the_same_discarder() -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    with pytest.raises(RuleError) as e:
        event(s, win(2, 1, PURE_PAIRS), join_last_win=True)
    assert e.value.code == "bad_event"


def test_undo_last_event_keeps_history_and_reopens() -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    r = event(s, win(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"}))
    assert not r.in_progress
    undone = s.undo_last("甲", step=True, steps=4)
    assert undone == r
    r.refresh_from_db()
    assert r.in_progress and r.revisions.count() == 5
    assert s.tallies() == [-12 - 12 - 96, 36, -12 + 96, -12 + 12]
    # A stale phone (it saw 4 events) takes back nothing more, nor one of another round.
    assert s.undo_last("乙", step=True, steps=4) is None
    assert s.undo_last("乙", 2, step=True, steps=3) is None
    assert len(r.revisions.last().entry["events"]) == 3  # type: ignore[union-attr]


def test_undoing_the_only_event_undoes_the_round() -> None:
    s = sichuan()
    r = event(s, kong(1, "concealed"))
    assert s.undo_last(step=True) == r
    r.refresh_from_db()
    assert r.status == Round.UNDONE and not r.in_progress
    assert s.tallies() == [0, 0, 0, 0] and s.round_in_progress() is None


def test_undo_last_round_closes_a_round_in_progress() -> None:
    s = sichuan()
    r = event(s, kong(1, "concealed"))
    assert s.undo_last(expected=1) == r
    r.refresh_from_db()
    assert r.status == Round.UNDONE and not r.in_progress
    r2 = event(s, kong(2, "concealed"))
    assert r2.number == 2 and r2.in_progress


def test_a_whole_round_can_be_recorded_at_once() -> None:
    s = sichuan()
    entry = {
        "kind": "round",
        "events": [kong(1, "exposed", discarder=0), win(3, 0, PUNGS), win(2, 0, PURE_PAIRS),
                   win(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"})],
    }  # fmt: skip
    r = record(s, entry)
    assert not r.in_progress
    one = hand_value({"concealed": "123456789s1122s", "win_tile": "2s"})
    assert s.tallies() == [-6 - 12 - 96 - one, 6 + one, 96, 12]
    assert sum(s.tallies()) == 0


def test_wall_end_settles_pigs_and_closes_the_round() -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    r = event(
        s,
        {
            "type": "wall_end",
            "hands": [
                {"seat": 0, "concealed": "123m456p789s1239m"},  # three suits: 花猪
                {"seat": 1, "concealed": "123456789m1234m"},  # ready
                {"seat": 2, "concealed": "12345678p13579s"},  # not ready
            ],
        },
    )
    assert not r.in_progress
    # 花猪 pays 16 × 6 = 96 to each non-pig still in (seats 1 and 2); seat 2,
    # not ready, pays seat 1 his largest claim over his waits.
    ready = waits({"ruleset": "sichuan", "concealed": "123456789m1234m"})["waits"]
    assert len(ready) == 3
    claims = [hand_value({"concealed": "123456789m1234m", "win_tile": t}) for t in ready]
    claim = max(claims)
    assert s.tallies() == [-12 - 96 * 2, 96 + claim, 96 - claim, 12]


def test_without_blood_battle_the_player_who_dealt_in_deals_next() -> None:
    s = sichuan(params={"blood_battle": False})
    r = event(s, win(3, 2, PUNGS))
    assert not r.in_progress  # the first win ends the round
    assert s.next_position() == (2, "E")  # "點炮者坐莊"
