"""国标比赛 at the table: 16 hands in four 圈, the players changing seats between 圈
(their seat winds follow), the table closing itself after the 16th hand, 标准分 on
the result page; a room's table (no match) goes on as before."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError, get_ruleset
from rules.table import Match
from rules.tiles import SEAT_WINDS
from scorer.models import GameSession, SessionChange
from scorer.services.export import import_table, origin_of, table_json
from tests.factories import DRAW, SHORT_NAMES, by_tiles, make_table, record
from tests.pages import html

pytestmark = pytest.mark.django_db

SOUTH_PUNG = {"concealed": "222z123m456m789m5p", "win_tile": "5p"}


def test_every_player_deals_once_a_round_and_starts_each_round_elsewhere() -> None:
    m = Match()
    for first in range(4):
        hands = [m.hand(k, first) for k in range(16)]
        for q, wind in enumerate(SEAT_WINDS):
            assert sorted(d for d, w in hands[4 * q : 4 * q + 4]) == [0, 1, 2, 3]
            assert {w for _, w in hands[4 * q : 4 * q + 4]} == {wind}
        # Each player starts the four 圈 in four different seats (a Latin square).
        for p in range(4):
            seats = {m.order(w, first).index(p) for w in SEAT_WINDS}
            assert seats == {0, 1, 2, 3}
        assert [m.index(d, w, first) for d, w in hands] == list(range(16))


def match_table(first: int = 0) -> GameSession:
    rs = get_ruleset("mcr")
    s = make_table("mcr", SHORT_NAMES, first_dealer=first, preset="competition")
    s.params = dict(rs.resolve_params(rs.preset("competition").params))  # type: ignore[union-attr]
    s.save()
    return s


def test_a_match_of_sixteen_hands_with_seat_changes(client: Client) -> None:
    s = match_table(first=2)
    m = Match()
    for k in range(16):
        dealer, wind = s.next_position()
        assert (dealer, wind) == m.hand(k, 2)
        if k == 4:
            # The South round's first hand: the players have changed places, so seat
            # 2 (the first dealer, who dealt the East round's first hand) now sits South.
            assert s.rules.seat_winds(dealer, wind)[2] == "S"
            rnd = record(s, by_tiles(2, None, SOUTH_PUNG))
            assert rnd.current is not None
            names = {f["name_zh"] for f in rnd.current.result["fans"]}
            assert {"门风刻", "圈风刻"} <= names
        else:
            record(s, DRAW)
        s.refresh_from_db()
        assert (s.closed_at is not None) is (k == 15)
    assert s.changes.get().action == SessionChange.CLOSE
    with pytest.raises(RuleError):
        record(s, DRAW)
    page = html(client.get(reverse("scorer:final", args=[s.code])))
    assert page.count('class="final-rank-points"') == 4
    # 乙's self-drawn win: first (4); the other three tie and share 2 + 1 + 0.
    assert "<b>4</b>" in page and page.count("<b>1</b>") == 3
    # The picture for the chat says the same.
    svg = html(client.get(reverse("scorer:final_svg", args=[s.code])))
    assert "比赛 16 盘" in svg and svg.count("标准分 4<") == 1 and svg.count("标准分 1<") == 3


def test_the_table_page_counts_the_match_hands(client: Client) -> None:
    s = match_table()
    record(s, DRAW)
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    assert "比赛：第 2 / 16 盘" in page


def test_a_room_table_has_no_match() -> None:
    rs = get_ruleset("mcr")
    s = make_table("mcr", SHORT_NAMES)
    s.params = dict(rs.resolve_params(rs.preset("room").params))  # type: ignore[union-attr]
    s.save()
    for _ in range(17):
        record(s, DRAW)
    s.refresh_from_db()
    assert s.closed_at is None and s.rules.table.match is None
    assert s.rules.seat_winds(1, "S") == ["N", "E", "S", "W"]


def test_a_finished_match_exports_and_reimports_whole() -> None:
    # The South-round win with its 门风刻 only scores so because the round carries the
    # seating: the import re-scores every version and must get the same points.
    s = match_table(first=1)
    for k in range(16):
        dealer, wind = s.next_position()
        if k == 4:
            record(s, by_tiles(1, 3, SOUTH_PUNG))
        else:
            record(s, DRAW)
    s.refresh_from_db()
    assert s.closed_at is not None
    data = json.loads(json.dumps(table_json(s), ensure_ascii=False))
    t = import_table(data, copy_of=origin_of(data))  # a second copy, chosen
    assert t.tallies() == s.tallies() and t.closed_at is not None
    assert t.rules.table.match is not None
    win = t.rounds.get(number=5).current
    assert win is not None and {"门风刻", "圈风刻"} <= {f["name_zh"] for f in win.result["fans"]}
