"""The price where people look: the start page and the table page say the rule in
words next to the fee so far, with what the next step costs and when; a closed
table says 计时费, not 至今; each kind of fee its own line."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.rooms import Room
from scorer.money import clock
from tests.factories import BLOCK_FEE, BLOCK_FEE_SAID, ZH_PAGE, make_table, record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("till_evening")]

ZH = ZH_PAGE
BLOCK = BLOCK_FEE
SAID = BLOCK_FEE_SAID


def test_the_start_page_says_the_price(room: Room) -> None:
    config = room.offered_configs()[0]
    config.time_fee = BLOCK
    config.save()
    page = Client().get(reverse("scorer:room", args=[room.slug]), **ZH).content.decode()
    assert SAID in page


def test_the_table_page_says_the_rule_and_the_next_step(room: Room) -> None:
    s = make_table(room=room, time_fee=BLOCK, seated=True)
    record(s)
    clock.set_now(clock.now() + dt.timedelta(hours=4))
    page = Client().get(reverse("scorer:session", args=[s.code]), **ZH).content.decode()
    assert "计时费至今" in page and 'class="clock-fee-value">50.00<' in page
    assert SAID in page and ">4:10 起 +7.50<" in page
    clock.set_now(clock.now() + dt.timedelta(minutes=15))
    page = Client().get(reverse("scorer:session", args=[s.code]), **ZH).content.decode()
    assert 'class="clock-fee-value">57.50<' in page and ">4:30 起 +7.50<" in page
    assert s.close()
    page = Client().get(reverse("scorer:final", args=[s.code]), **ZH).content.decode()
    assert "计时费至今" not in page and "计时费" in page and "起 +" not in page


def test_each_kind_of_fee_its_own_line(room: Room) -> None:
    s = make_table(
        room=room,
        time_fee=BLOCK,
        fee={"mode": "big_winner", "amount": "20", "unit": "yuan"},
        money_per_point="1",
        seated=True,
    )
    record(s)
    clock.set_now(clock.now() + dt.timedelta(hours=3))
    assert s.close()
    page = Client().get(reverse("scorer:final", args=[s.code]), **ZH).content.decode()
    time_part, _, fee_part = page.partition("money-kind-fee")
    assert "money-kind-time" in time_part and "12.50 元" in time_part
    assert "台费（元）" in fee_part and "20.00 元" in fee_part
