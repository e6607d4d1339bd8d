"""芜湖 at the table: the picker says 支 and 押 as the hand forms; a round is recorded.

Amounts by hand from docs/rules/wuhu.md (30 点: 底番 + 支番 + 嘴子 + 杠, the
dealer one 底番 more, all three pay on a discard).
"""

from __future__ import annotations

import pytest
from django.test import Client

from rules import get_ruleset
from tests.factories import SHORT_NAMES, make_table
from tests.support.phone import Phone, tiles

pytestmark = pytest.mark.django_db

WUHU = get_ruleset("wuhu")


def test_the_picker_counts_zhi_and_ya_and_the_round_is_recorded(client: Client) -> None:
    session = make_table("wuhu", SHORT_NAMES, params=dict(WUHU.defaults))
    phone = Phone(client, session)
    page = phone.tap("winner:2", "from:3", *tiles("12345m"))
    assert "万 5 支（成牌要 8 支）" in page
    # 123m 456m 79m + 345p 99s, won on 8m: the only wait, 押 8; 8 万 … 9 万 with the win.
    page = phone.tap(*tiles("6m79m345p99s"), "tile:8m")
    assert "万 9 支 · 押 8" in page
    # 押档 底番 2 + 支番 rhu((9 + 8) × 2) = 3 + 通天 (123 456 789m) 2: 7 from each
    # (一家点炮三家给), the dealer 甲 one 底番 more.
    assert "通天" in page
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-9, -7, 23, -7]


def test_the_english_picker_counts_too(client: Client) -> None:
    session = make_table("wuhu", ["A", "B", "C", "D"], params=dict(WUHU.defaults))
    client.cookies["django_language"] = "en"
    phone = Phone(client, session)
    page = phone.tap(*tiles("1234567m"))
    assert "7 Characters (a win needs 8)" in page


def test_a_hand_with_a_dragon_cannot_be_tapped(client: Client) -> None:
    session = make_table("wuhu", SHORT_NAMES, params=dict(WUHU.defaults))
    page = Phone(client, session).page
    assert 'value="tile:5z"' not in page and 'value="tile:4z"' in page


def test_the_http_api_scores_and_settles_wuhu(client: Client) -> None:
    hand = {"concealed": "234567m79m123m99s", "win_tile": "8m"}
    r = client.post("/api/score", {"ruleset": "wuhu", **hand, "table": {
        "players": 4, "dealer": 0, "winner": 2, "discarder": 3}},
        content_type="application/json")  # fmt: skip
    # 30 点 押档 12 支 押 8: 底番 2 + rhu(20 × 2) = 4 → 6 from each, the dealer 2 more.
    assert r.status_code == 200 and r.json()["deltas"] == [-8, -6, 20, -6]
    rnd = {"ruleset": "wuhu", "events": [{"type": "win", "discarder": 3,
                                          "winners": [{"seat": 2, "hand": hand}]}]}  # fmt: skip
    r = client.post("/api/settle", rnd, content_type="application/json")
    assert r.status_code == 200 and r.json()["deltas"] == [-8, -6, 20, -6]
