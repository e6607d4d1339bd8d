"""Correcting a round played as events (四川 血战) from the ledger: ledger row → 改这一局
→ the round's steps, each changed on the event form prefilled, removed, or one added;
确认 makes one new version of the round.

Every check compares with a table where the round was recorded right from the start
(the same events added by `GameSession.add_event`): the corrected round's events,
its money and the table's totals must be the same, and the engine's refusals leave
everything as it was.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.tiles import parse_tiles, tile_str
from tests.factories import event, phone
from tests.pages import html, text_of
from tests.support.events import (
    PUNGS,
    PUNGS_TOO,
    PURE_PAIRS,
    Corrector,
    first_round,
    kong_event,
    played,
    same_table,
    win_event,
)

pytestmark = pytest.mark.django_db

# 平胡 on 5条, the tile PUNGS wins on: the second winner of one discard.
ON_FIVE = {"concealed": "234777999p3466s", "win_tile": "5s"}


def test_the_ledger_row_offers_correcting_a_round_of_events() -> None:
    s = played([kong_event(1, "exposed", 2), win_event(3, 0, PUNGS)])
    ledger = html(phone().get(reverse("scorer:ledger", args=[s.code])))
    assert reverse("scorer:edit", args=[s.code, 1]) in ledger
    page = html(phone().get(reverse("scorer:round", args=[s.code, 1])))
    assert reverse("scorer:edit", args=[s.code, 1]) in page


def test_changing_a_wins_discarder() -> None:
    events = [kong_event(1, "exposed", 2), win_event(3, 0, PUNGS), win_event(2, 1, PURE_PAIRS)]
    s = played(events)
    c = Corrector(phone(), s)
    assert "甲" in c.page and c.page.count('name="remove"') == 3
    c.step(1, "from:1")
    assert s.rounds.get().revisions.count() == 3  # nothing saved before 确认
    response = c.save()
    assert response.status_code == 302
    right = played([events[0], win_event(3, 1, PUNGS), events[2]])
    same_table(s, right)
    assert first_round(s).revisions.count() == 4


def test_changing_the_winner_and_the_fans() -> None:
    quick = {"type": "win", "discarder": 0, "winners": [{"seat": 3, "fans": {"2": 1}}]}
    s = played([quick])
    c = Corrector(phone(), s)
    c.step(0, "winner:1", "fan:15:+")
    assert c.save().status_code == 302
    right = played(
        [{"type": "win", "discarder": 0, "winners": [{"seat": 1, "fans": {"2": 1, "15": 1}}]}]
    )
    same_table(s, right)


def test_removing_an_event_and_adding_one() -> None:
    s = played([kong_event(1, "concealed"), win_event(3, 0, PUNGS)])
    c = Corrector(phone(), s)
    c.remove(0)
    c.step("add", "kind:kong", "player:2", "kong:exposed", "from:0")
    assert c.save().status_code == 302
    right = played([win_event(3, 0, PUNGS), kong_event(2, "exposed", 0)])
    same_table(s, right)


def test_an_impossible_win_is_refused_on_the_form_and_changes_nothing() -> None:
    s = played([win_event(3, 0, PUNGS), win_event(2, 1, PURE_PAIRS)])
    before = (s.tallies(), first_round(s).current_id)
    c = Corrector(phone(), s)
    # A 1筒 out, a 9万 in: no win (and a third suit).
    page = c.step(0, "hand:1p", "tile:9m")
    assert c.status == 400 and "pk-refused" in page and "没有记录" in page
    # The correction kept the step as it was: nothing to save, nothing saved.
    assert c.open_list().count('name="remove"') == 2
    assert (s.tallies(), first_round(s).current_id) == before


def test_a_player_who_already_won_winning_again_is_refused_in_words() -> None:
    s = played([win_event(3, 0, PUNGS), win_event(2, 1, PURE_PAIRS)])
    before = (s.tallies(), first_round(s).current_id, first_round(s).revisions.count())
    c = Corrector(phone(), s)
    # The first win given to 丙, who wins again in the next step: the list says why.
    page = c.step(0, "winner:2")
    assert "丙" in page and "不能保存" in page
    response = c.save()
    assert response.status_code == 400
    after = (s.tallies(), first_round(s).current_id, first_round(s).revisions.count())
    assert after == before


def test_a_round_that_had_ended_is_not_left_open() -> None:
    s = played([win_event(3, 0, PUNGS), win_event(2, 1, PURE_PAIRS), win_event(1, 0, PUNGS_TOO)])
    kept = (s.tallies(), first_round(s).current_id)
    c = Corrector(phone(), s)
    c.remove(2)
    response = c.save()
    assert response.status_code == 400
    assert "这一局已经打完" in html(response)
    assert (s.tallies(), first_round(s).current_id) == kept


def test_the_rounds_history_says_who_when_and_before_after() -> None:
    events = [kong_event(1, "exposed", 2), win_event(3, 0, PUNGS)]
    s = played(events)
    client = phone("en")
    client.post(reverse("scorer:whoami", args=[s.code]), {"seat": "1"})  # this phone is 乙
    c = Corrector(client, s)
    c.step(1, "from:2")
    c.remove(0)
    assert c.save().status_code == 302
    page = html(client.get(reverse("scorer:round", args=[s.code, 1])))
    history = page[page.index('class="history"') :]
    summaries = [text_of(m) for m in re.findall(r"<summary>(.*?)</summary>", history, re.S)]
    newest = summaries[0]
    # Who (乙, this phone), when (the version's time), before → after.
    assert newest.startswith("v3 current · 乙"), newest
    assert re.search(r"\d\d-\d\d \d\d:\d\d", newest)
    assert "Changed: 乙: exposed kong on 丙's discard; 丁 wins on 甲's discard" in newest
    assert "→ 丁 wins on 丙's discard" in newest
    assert len(summaries) == 3  # the earlier versions stay


def test_the_round_in_progress_is_corrected_and_may_end_with_it() -> None:
    s = played([kong_event(1, "concealed"), win_event(3, 0, PUNGS)])
    assert first_round(s).in_progress
    c = Corrector(phone(), s)
    c.step(0, "kong:exposed", "from:0")
    assert c.save().status_code == 302
    rnd = first_round(s)
    assert rnd.in_progress
    same_table(s, played([kong_event(1, "exposed", 0), win_event(3, 0, PUNGS)]))
    # Adding its last two wins ends it: the next event starts round 2.
    c = Corrector(phone(), s)
    c.step("add", "winner:2", "from:1", *(f"tile:{t}" for t in tiles_of(PURE_PAIRS)))
    c.step("add", "winner:1", "from:0", *(f"tile:{t}" for t in tiles_of(PUNGS_TOO)))
    assert c.save().status_code == 302
    assert not first_round(s).in_progress and s.round_in_progress() is None
    right = played([kong_event(1, "exposed", 0), win_event(3, 0, PUNGS),
                    win_event(2, 1, PURE_PAIRS), win_event(1, 0, PUNGS_TOO)])  # fmt: skip
    same_table(s, right)


def test_a_joined_winner_is_a_step_of_his_own() -> None:
    # 一炮多响: 丙 and 丁 both win on 甲's discard; 丙's win is taken back alone.
    s = played([win_event(3, 0, PUNGS), win_event(2, 0, ON_FIVE)], joins=(1,))
    c = Corrector(phone(), s)
    assert c.page.count('name="remove"') == 2 and "也和了这张炮" in c.page
    c.remove(1)
    assert c.save().status_code == 302
    same_table(s, played([win_event(3, 0, PUNGS)]))


def test_a_correction_made_meanwhile_is_not_written_over() -> None:
    s = played([win_event(3, 0, PUNGS)])
    a, b = Corrector(phone(), s), Corrector(phone(), s)
    a.step(0, "from:1")
    b.step(0, "from:2")
    assert a.save().status_code == 302
    response = b.save()
    assert response.status_code == 409 and "另一部手机" in html(response)
    same_table(s, played([win_event(3, 1, PUNGS)]))
    assert b.save().status_code == 302  # confirmed again, knowing it
    same_table(s, played([win_event(3, 2, PUNGS)]))
    assert first_round(s).revisions.count() == 3


def tiles_of(hand: dict[str, str]) -> list[str]:
    """A hand's tiles as the picker taps them: the standing tiles, then the win tile."""
    return [tile_str(t) for t in parse_tiles(hand["concealed"])] + [hand["win_tile"]]


def test_an_event_added_meanwhile_joins_the_correction_and_is_not_lost() -> None:
    s = played([kong_event(1, "concealed")])
    c = Corrector(phone(), s)
    c.step(0, "kong:added")
    event(s, win_event(3, 0, PUNGS))  # another phone, meanwhile: the round plays on
    response = c.save()
    assert response.status_code == 409 and "另一部手机上加了事件" in html(response)
    assert c.open_list().count('name="remove"') == 2
    assert c.save().status_code == 302
    same_table(s, played([kong_event(1, "added"), win_event(3, 0, PUNGS)]))
