"""吉安冲关 at the table: the turned tile, 精 in the hand, each player's 精 at the round's end.

Amounts are worked by hand from docs/rules/jian.md: 出子 = 2^翻 per payer,
精分 n from each other player (正精 counts two), 冲关 (n − 3) × n from five on,
霸精 doubles a sole holder's.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer.models import GameSession, Transfer
from tests.factories import SHORT_NAMES, make_table
from tests.pages import html
from tests.support.phone import Phone, tiles

pytestmark = pytest.mark.django_db

JIAN = get_ruleset("jian")


def table() -> GameSession:
    return make_table("jian", SHORT_NAMES, params=dict(JIAN.defaults))


def test_a_win_with_jing_records_the_win_and_every_players_jing(client: Client) -> None:
    session = table()
    phone = Phone(client, session)
    page = phone.tap("tool:turned", "tile:7p")
    assert "pk-wild" in page  # 8p and 9p are marked wild on the picker
    # 乙 (not dealing) self-draws 123m 456m 789s 12s 11z with 8p standing in for 3s.
    page = phone.tap("winner:1", "from:self", *tiles("123m456m789s12s11z8p"))
    # 乙's 正精 starts at the one 8p in his hand and cannot go below it.
    assert phone.state["si_zheng_jing"] == "0,1,0,0"
    page = phone.tap("seat_input:zheng_jing:1:-")
    assert phone.state["si_zheng_jing"] == "0,1,0,0"
    # 丙 shows two 副精; 乙 one more 正精: 乙 2×2 = 4 精, 丙 2.
    page = phone.tap(
        "seat_input:zheng_jing:1:+", "seat_input:fu_jing:2:+", "seat_input:fu_jing:2:+"
    )
    assert "精" in page and "每家付 4" in page and "每家付 2" in page
    assert phone.confirm().status_code == 302
    # Win: 闲家 自摸 平胡 with a 精 used: 4 from the dealer, 2 from each other.
    win = [-4, 8, -2, -2]
    jing = [-4 - 2, 4 * 3 - 2, 2 * 3 - 4, -4 - 2]
    assert session.tallies() == [w + j for w, j in zip(win, jing, strict=True)]
    reasons = sorted(set(Transfer.objects.values_list("reason", flat=True)))
    assert reasons == ["jing", "win"]


def test_a_drawn_round_pays_chong_guan_and_says_so(client: Client) -> None:
    session = table()
    phone = Phone(client, session)
    phone.tap("kind:draw")
    assert "正精" in phone.page and "副精" in phone.page
    # 甲 (the dealer) alone shows 2 正精 and 1 副精: 5 精, 冲关 (5−3)×5 = 10, 霸精 ×2.
    page = phone.tap("seat_input:zheng_jing:0:+", "seat_input:zheng_jing:0:+",
                     "seat_input:fu_jing:0:+")  # fmt: skip
    assert "冲关" in page and "霸精" in page
    assert phone.confirm().status_code == 302
    assert session.tallies() == [60, -20, -20, -20]
    rnd = session.rounds.get()
    assert rnd.current is not None
    assert rnd.current.entry["seat_inputs"] == {"zheng_jing": [2, 0, 0, 0], "fu_jing": [1, 0, 0, 0]}
    assert set(Transfer.objects.values_list("reason", flat=True)) == {"chongguan_ba"}
    detail = html(client.get(reverse("scorer:round", args=[session.code, 1])))
    assert "冲关" in detail


def test_too_many_jing_are_refused_and_nothing_is_recorded(client: Client) -> None:
    session = table()
    phone = Phone(client, session)
    phone.tap("kind:draw")
    page = phone.tap(*["seat_input:fu_jing:0:+"] * 3, *["seat_input:fu_jing:1:+"] * 2)
    assert "副精一共只有四张" in page
    phone.confirm()
    assert session.rounds.count() == 0


def test_the_english_page_names_the_jing(client: Client) -> None:
    session = table()
    client.cookies["django_language"] = "en"
    phone = Phone(client, session)
    phone.tap("kind:draw")
    page = phone.tap("seat_input:zheng_jing:0:+", "seat_input:fu_jing:1:+")
    assert "Main jing" in page and "Minor jing" in page
    assert "each other player pays 2" in page


def test_the_http_api_settles_a_jian_round_and_scores_a_hand(client: Client) -> None:
    rnd = {"ruleset": "jian", "dealer": 0, "turned": "7p",
           "events": [{"type": "draw", "seat_inputs": {"zheng_jing": [0, 0, 2, 0],
                                                       "fu_jing": [0, 0, 1, 0]}}]}  # fmt: skip
    r = client.post("/api/settle", rnd, content_type="application/json")
    assert r.status_code == 200
    assert r.json()["deltas"] == [-20, -20, 60, -20]
    hand = {"ruleset": "jian", "concealed": "147m147p123456z1s", "win_tile": "7z",
            "self_drawn": True, "table": {"players": 4, "dealer": 0, "winner": 0}}  # fmt: skip
    r = client.post("/api/score", hand, content_type="application/json")
    assert r.status_code == 200 and r.json()["deltas"] == [111, -37, -37, -37]
