"""武汉 at the table: the turned tile, the winner's melds, every player's openings and
kongs, each loser's amount in words.  The worked example of docs/rules/wuhan.md."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.phone import Phone, tiles
from tests.support.tables import table

pytestmark = pytest.mark.django_db


def enter_d03(phone: Phone) -> str:
    """Seat 1 (乙) wins on 丙's 8p: chi 234p, a 蓄杠 of 9m, 345m 567s 8p + 8p."""
    phone.tap("tool:turned", "tile:5m", "winner:1", "from:2")
    phone.tap("tool:chi", "tile:2p", "tool:added_kong", "tile:9m")
    return phone.tap(*tiles("345m567s8p8p"))


def test_the_worked_example_through_the_record_page(client: Client) -> None:
    session = table()
    phone = Phone(client, session)
    page = enter_d03(phone)
    assert "癞子" in page  # 6m, marked on the picker
    # The winner's openings and kongs come from his hand: not asked.
    assert "按手牌" in page and 'value="seat_input:openings:1:+"' not in page
    page = phone.tap("seat_input:openings:2:+", "seat_input:an_gang:0:+",
                     "seat_input:hz_gang:3:+")  # fmt: skip
    # The tapped player's fold stays open; each loser's amount is said factor by factor.
    assert '<details class="pk-si-seat" open>' in page
    assert "丙：1 × 8 × 4（开口 ×2、放冲 ×2） = 32" in page
    assert "甲：1 × 8 × 8（暗杠 ×4、庄闲 ×2） = 64" in page
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-64, 112, -32, -16]
    rnd = session.rounds.get()
    assert rnd.current is not None
    assert rnd.current.entry["seat_inputs"]["hz_gang"] == [0, 0, 0, 1]


def test_a_hand_holding_the_red_dragon_is_refused_and_nothing_recorded(client: Client) -> None:
    session = table()
    phone = Phone(client, session)
    phone.tap("tool:turned", "tile:5m", "winner:1", "from:2", "tool:pung", "tile:2p")
    page = phone.tap(*tiles("345m567s777z8p8p"))
    assert "手上有红中不能胡牌" in page
    phone.confirm()
    assert session.rounds.count() == 0


def test_koukoufan_counts_every_opening(client: Client) -> None:
    session = table(variant="koukoufan", golden=500)
    phone = Phone(client, session)
    enter_d03(phone)
    page = phone.tap("seat_input:openings:2:+", "seat_input:openings:2:+")
    # Winner: 2 openings ×4, 明杠 ×2, 硬胡 ×2 = 16; 丙 two openings ×4 × 放冲 2 = 8 → 128.
    assert "丙：1 × 16 × 8（开口 2 次 ×4、放冲 ×2） = 128" in page


def test_the_third_opening_of_a_full_flush_is_told_on_the_page(client: Client) -> None:
    """承包②: each pung says whom it came from; the third opening's player pays all."""
    session = table()
    phone = Phone(client, session)
    phone.tap("tool:turned", "tile:5m", "winner:1", "from:0")
    page = phone.tap("tool:chi", "tile:1s", "tool:pung", "tile:5s", "tool:pung", "tile:7s")
    assert "谁打的？" in page and "上家打的" in page  # the chi is 上家's, fixed
    # 5s from 下家 (丙), 7s from 对家 (丁): 对家 → 下家 → … taps cycle 上家, 对家, 下家.
    phone.tap("meldfrom:1", "meldfrom:1", "meldfrom:1", "meldfrom:2", "meldfrom:2")
    assert phone.state["melds"] == "chi:1s:left pung:5s:right pung:7s:across"
    page = phone.tap(*tiles("234s9s9s"))
    assert "承包" in page
    assert phone.confirm().status_code == 302
    # 清一色 10 × (开口 2 × 硬胡 2): 40 each, 甲 the discarder × 1.5 = 60; 丁 pays 140.
    assert session.tallies() == [0, 140, 0, -140]
    rnd = session.rounds.get()
    assert rnd.current is not None
    melds = rnd.current.entry["hand"]["melds"]
    assert [m.get("claimed_from") for m in melds] == ["left", "right", "across"]


def test_a_losers_ming_gang_opens_him_and_the_page_says_why(client: Client) -> None:
    """丁's 明杠 is an opening too (a 冲杠, or a 蓄杠 whose 碰 opened):
    1 × 8 × 4, not 1 × 8 × 2; his 开口 cannot be set below it, and the row says why."""
    session = table()
    phone = Phone(client, session)
    enter_d03(phone)
    page = phone.tap("seat_input:ming_gang:3:+")
    assert "丁：1 × 8 × 4（开口 ×2、明杠 ×2） = 32" in page
    assert "有明杠就开过口" in page
    assert phone.state["si_openings"] == "0,0,0,1"
    assert 'value="seat_input:openings:3:-" aria-label="− 丁 开口" disabled' in page
    page = phone.tap("seat_input:openings:3:-")  # refused by the page: stays 1
    assert phone.state["si_openings"] == "0,0,0,1"
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-16, 64, -16, -32]


def test_koukoufan_says_a_ming_gang_is_an_opening_before_a_second_tap(client: Client) -> None:
    """丁's 明杠 is his opening already; the page says "开口 1（含明杠 1）"
    where his counts are, so that he does not tap 开口+ for the same meld, which would
    make 开口 2 次 and double his payment.  The payment recorded is the one he means."""
    session = table(variant="koukoufan", golden=500)
    phone = Phone(client, session)
    enter_d03(phone)
    page = phone.tap("seat_input:ming_gang:3:+")
    assert '<span class="pk-si-incl">开口 1（含明杠 1）</span>' in page
    assert "开口 1（含明杠 1） · 明杠 1" in page  # his fold's summary
    assert 'aria-label="+ 丁 开口: 开口 1（含明杠 1）"' in page
    assert "丁：1 × 16 × 4（开口 1 次 ×2、明杠 ×2） = 64" in page
    # A second tap is another opening, said as such: 开口 2 次, the payment doubles.
    page = phone.tap("seat_input:openings:3:+")
    assert "开口 2（含明杠 1）" in page
    assert "丁：1 × 16 × 8（开口 2 次 ×4、明杠 ×2） = 128" in page
    # He meant the one meld: back to 1 (not below: the 明杠 is an opening), confirmed.
    page = phone.tap("seat_input:openings:3:-")
    assert "丁：1 × 16 × 4（开口 1 次 ×2、明杠 ×2） = 64" in page
    assert phone.confirm().status_code == 302
    assert session.tallies()[3] == -64
    rnd = session.rounds.get()
    assert rnd.current is not None
    assert rnd.current.entry["seat_inputs"]["openings"][3] == 1
