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
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules.tiles import parse_tiles, tile_str, tiles_str
from scorer.models import GameSession, Round
from tests.factories import event, make_table, phone
from tests.pages import html, text_of
from tests.scorer.test_scorer_views_record_sichuan import (
    PUNGS,
    PURE_PAIRS,
    kong_event,
    state_of,
    win_event,
)

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]
HTMX = {"HTTP_HX_REQUEST": "true"}
# 对对胡 in 筒/条, 777p 888p 999p 666s 77s: 2 番.
PUNGS_TOO = {"concealed": "777888999p666s7s", "win_tile": "7s"}
# 平胡 on 5条, the tile PUNGS wins on: the second winner of one discard.
ON_FIVE = {"concealed": "234777999p3466s", "win_tile": "5s"}


def sichuan() -> GameSession:
    return make_table("sichuan", NAMES, first_dealer=0)


def played(events: list[dict[str, Any]], joins: tuple[int, ...] = ()) -> GameSession:
    """A table whose first round is `events`, added one by one (index in `joins`: that
    event's winner joins the win before it, 一炮多响)."""
    s = sichuan()
    for i, ev in enumerate(events):
        event(s, ev, join_last_win=i in joins)
    return s


def first_round(s: GameSession) -> Round:
    rnd = s.rounds.select_related("current").get(number=1)
    assert rnd.current is not None
    return rnd


def norm(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the engine reads them: the form writes every flag (False ones too)
    and a hand's tiles in one run ("111222p3334455s"); the factories write fewer."""

    def hand(h: dict[str, Any]) -> dict[str, Any]:
        return {**h, "concealed": tiles_str(sorted(parse_tiles(h["concealed"])))}

    out = []
    for ev in events:
        ev = {k: v for k, v in ev.items() if v is not False}
        if "winners" in ev:
            ev["winners"] = [{**w, "hand": hand(w["hand"])} if "hand" in w else w
                             for w in ev["winners"]]  # fmt: skip
        out.append(ev)
    return out


def same_table(corrected: GameSession, right: GameSession) -> None:
    """The corrected table equals the one recorded right: events, money, totals."""
    a, b = first_round(corrected).current, first_round(right).current
    assert a is not None and b is not None
    assert norm(a.entry["events"]) == norm(b.entry["events"])
    assert a.deltas == b.deltas and a.result["transfers"] == b.result["transfers"]
    assert a.result["finished"] == b.result["finished"]
    assert corrected.tallies() == right.tallies()


class Corrector:
    """One phone correcting round `number` as a player would, from the ledger."""

    def __init__(self, client: Client, session: GameSession, number: int = 1) -> None:
        self.client, self.session = client, session
        self.url = reverse("scorer:edit", args=[session.code, number])
        self.preview = reverse("scorer:preview", args=[session.code])
        self.page = self.open_list()

    def open_list(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200
        self.page = html(response)
        return self.page

    def step(self, which: int | str, *taps: str) -> str:
        """Open step `which` on the event form (or "add"), tap, and confirm it into
        the correction (nothing saved yet); the page it lands on."""
        response = self.client.get(f"{self.url}?step={which}")
        assert response.status_code == 200
        state = state_of(html(response))
        for t in taps:
            response = self.client.post(self.preview, {**state, "tap": t}, **HTMX)
            assert response.status_code == 200
            state = state_of(html(response))
        response = self.client.post(self.url, {**state, "confirm": "1"})
        self.status = response.status_code
        if response.status_code == 302:
            return self.open_list()
        return html(response)

    def remove(self, i: int) -> str:
        response = self.client.post(self.url, {"remove": str(i)})
        assert response.status_code == 302
        return self.open_list()

    def save(self) -> Any:
        return self.client.post(self.url, {"save": "1"})


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
