"""Shown as they count: a table whose result is not a sum of fans says so.

北京, 河北 and 山东 pay a flat value ×2 per item (and ×2 between the dealer and
another), 陕西 pays every shape the same and lets the 炮子 make the amounts:
the record page, the round page and the ledger's round show each item as it
counts (×2, or the shape alone), the working ("平胡 5 × 2 × 2 = 20") and the
total in 分, never "番" nor a Points/×/= table that reads as a sum.  The
amounts are worked by hand from docs/rules/shandong.md and shaanxi.md.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules import REGISTRY, get_ruleset
from scorer.models import GameSession
from tests.factories import SHORT_NAMES, make_table
from tests.pages import text, text_of
from tests.support.phone import Phone, tiles

pytestmark = pytest.mark.django_db


def table(ruleset: str) -> GameSession:
    return make_table(ruleset, SHORT_NAMES, params=dict(get_ruleset(ruleset).defaults))


def bar(page: str) -> str:
    m = re.search(r'<span class="pk-bar-total">(.*?)</span>', page, re.S)
    assert m, "no bar"
    return m.group(1).strip()


def test_every_table_declares_a_unit_and_how_its_result_is_made() -> None:
    scoring = {rs.id: rs.table().scoring for rs in REGISTRY.values() if rs.table_play}
    for rid in ("beijing", "hebei", "shandong"):
        assert (scoring[rid].unit, scoring[rid].compose) == ("point", "double")
    assert (scoring["shaanxi"].unit, scoring["shaanxi"].compose) == ("point", "flat")
    assert (scoring["wuhan"].unit, scoring["wuhan"].compose) == ("point", "factors")
    assert (scoring["mcr"].unit, scoring["mcr"].compose) == ("fan", "sum")


def test_shandong_doubles_on_the_record_page_the_round_and_the_ledger(client: Client) -> None:
    # 山东 basic1 (P = 5, items 七巧对 and 明自摸): 乙 self-draws seven pairs, 甲 deals.
    # 5 × 2 × 2 = 20 from 丙 and 丁, 20 × 2 = 40 from the dealer.
    session = table("shandong")
    phone = Phone(client, session)
    page = phone.tap("winner:1", "from:self", *tiles("1133m5577p99s11z4z4z"))
    assert bar(page) == "赢 80 分"  # what the win brings: 20 + 20 + 40
    words = text_of(page)
    assert "七巧对 Seven pairs ×2" in words and "明自摸 Self-drawn ×2" in words
    # The working, payer by payer (rules/working.py): ×2 per item, ×2 for the dealer.
    assert "丙、丁 各：平胡 5 × 2 × 2 = 20" in words
    assert "甲：平胡 5 × 2 × 2 × 2（庄家） = 40" in words
    assert "番" not in bar(page)
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-40, 80, -20, -20]
    for url in (
        reverse("scorer:round", args=[session.code, 1]),
        reverse("scorer:round", args=[session.code, 1]) + "?part=current",  # the ledger's row
    ):
        words = text(client.get(url))
        assert "七巧对 Seven pairs ×2" in words
        assert "丙、丁 各：平胡 5 × 2 × 2 = 20" in words and "合计 20 分" in words
        assert "甲：平胡 5 × 2 × 2 × 2（庄家） = 40" in words
        assert "番数" not in words and "× =" not in words


def test_shaanxi_names_the_shape_and_works_each_amount_from_the_paozi(client: Client) -> None:
    # 陕西 defaults (底分 3, 放胡 A = 1, dealer ×2): 乙 wins on 丙's discard, 炮子 甲 1,
    # 乙 2: 甲 (dealer) 1 × 3 × (2 + 1 + 2) = 15, 丙 and 丁 1 × 3 × (1 + 0 + 2) = 9.
    session = table("shaanxi")
    phone = Phone(client, session)
    phone.tap("winner:1", "from:2", "seat_input:paozi:0:+")
    page = phone.tap("seat_input:paozi:1:+", "seat_input:paozi:1:+", *tiles("123m456p789s234m5s5s"))
    words = text_of(page)
    assert "甲：放胡 A 1 × 底分 3 × (庄 2 + 炮子 1 + 赢家炮子 2) = 15" in words
    assert "丙、丁 各：放胡 A 1 × 底分 3 × (庄 1 + 炮子 0 + 赢家炮子 2) = 9" in words
    # The shape is named, worth nothing of its own.
    assert re.search(r'平胡</span> <span class="pk-en" lang="en">Plain win</span></th>\s*'
                     r'<td class="pk-pts"></td>', page)  # fmt: skip
    assert bar(page) == "赢 33 分"  # what the win brings: 15 + 9 + 9
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-15, 33, -9, -9]
    # The round's page and the ledger's row: the event names the shape, with no
    # value of its own, and the working under it.
    for url in (
        reverse("scorer:round", args=[session.code, 1]),
        reverse("scorer:round", args=[session.code, 1]) + "?part=current",
    ):
        words = text(client.get(url))
        assert "乙 和牌，丙 放炮 · 平胡 Plain win" in words
        assert "甲：放胡 A 1 × 底分 3 × (庄 2 + 炮子 1 + 赢家炮子 2) = 15" in words
        assert "平胡 3 番" not in words
