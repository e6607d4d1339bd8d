"""Members done as a till does them: a new member topped up before he has played, the
pick list found by name or old name, every message naming who and how much, the
statement with method and admin; a seat's share split (balance first, the rest in
cash) with a word when a choice cannot be honoured; refunds said as refunds."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.money import BALANCE, CASH
from scorer.models.players import Player
from scorer.models.roomlog import TILL_REFUNDED
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.present.room_log import log_line
from scorer.services import till
from tests.factories import make_table, record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("till_evening")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 60}


def said(response: object) -> str:
    return " ".join(str(m) for m in response.context["messages"])  # type: ignore[attr-defined]


def a_closed_table(room: Room, minutes: int = 100) -> object:
    s = make_table(room=room, time_fee=HOURLY, seated=True)
    record(s)
    clock.set_now(clock.now() + dt.timedelta(minutes=minutes))
    assert s.close()
    return s  # 60 元 (2 h rounded up from 1 h 40), 15 a seat


def test_a_new_member_and_the_list_found_by_an_old_name(room: Room, boss: Client) -> None:
    url = reverse("scorer:manage_balances", args=[room.slug])
    r = boss.post(url, {"name": "老周", "amount": "200", "method": "wechat"}, follow=True, **ZH)
    assert "没有叫 老周 的玩家" in said(r) and not Player.objects.filter(name="老周").exists()
    r = boss.post(
        url, {"name": "老周", "new": "1", "amount": "200", "method": "wechat"}, follow=True, **ZH
    )
    zhou = Player.objects.get(room=room, name="老周")
    assert "已给 老周 充值 200.00 元（微信），余额 200.00 元" in said(r)
    zhou.rename("周哥")
    r = boss.post(url, {"name": "老周", "amount": "5.5", "method": "cash"}, follow=True, **ZH)
    assert "已给 周哥 充值 5.50 元（现金），余额 205.50 元" in said(r)
    page = boss.get(url, **ZH).content.decode()
    assert '<option value="老周">周哥</option>' in page
    for bad in ("-5", "5.555", "1e3", "abc", ""):
        boss.post(url, {"name": "周哥", "amount": bad, "method": "cash"})
    assert till.balance_of(zhou) == Decimal("205.50")
    statement = boss.get(
        reverse("scorer:manage_statement", args=[room.slug, zhou.pk]), **ZH
    ).content.decode()
    assert "微信 · 老板" in statement and "205.50 元" in statement


def test_a_new_member_whose_name_looks_like_a_players_is_refused(room: Room, boss: Client) -> None:
    """ "Bоb" (a Cyrillic о) beside the room's Bob: the admin is told to pick him, and no
    second player or top-up is made."""
    bob = Player.objects.create(room=room, name="Bob")
    url = reverse("scorer:manage_balances", args=[room.slug])
    r = boss.post(
        url, {"name": "B\u043eb", "new": "1", "amount": "50", "method": "cash"}, follow=True, **ZH
    )
    assert "看起来和本室的玩家 Bob 一样" in said(r)
    assert list(room.players.filter(name__startswith="B")) == [bob]
    assert till.balance_of(bob) == 0


def test_a_share_split_balance_first_the_rest_in_cash(room: Room, boss: Client) -> None:
    s = a_closed_table(room)
    owner = RoomMember.objects.get(room=room, role=RoomMember.OWNER)
    wang = Player.objects.get(room=room, name="老王")
    till.top_up(wang, Decimal("5"), CASH, owner)
    url = reverse("scorer:manage_till_table", args=[room.slug, s.code])
    r = boss.post(
        url,
        {"seat_0": BALANCE, "rest_0": CASH, "seat_1": BALANCE, "seat_2": CASH,
         "amount_2": "7.50", "seat_3": "owed"},
        follow=True, **ZH,
    )  # fmt: skip
    text = said(r)
    assert "已收 老王 5.00 元（会员余额）" in text and "已收 老王 10.00 元（现金）" in text
    assert "小李 的余额不够" in text or "小李 不是有余额的会员" in text
    assert "已收 阿强 7.50 元（现金）" in text
    seats = till.table_money(s).seats
    assert [x.owed for x in seats] == [0, 15, Decimal("7.50"), 15]


def test_a_refund_is_said_as_one(room: Room, boss: Client) -> None:
    s = a_closed_table(room, minutes=150)  # 75 元, 18.75 a seat
    owner = RoomMember.objects.get(room=room, role=RoomMember.OWNER)
    till.collect(s, dict.fromkeys(range(4), CASH), owner)
    assert s.reopen()
    assert s.close(at=s.created_at + dt.timedelta(minutes=100))  # 60 元: 3.75 back each
    url = reverse("scorer:manage_till_table", args=[room.slug, s.code])
    page = boss.get(url, **ZH).content.decode()
    assert "退给 老王 的方式" in page and "应退 3.75" in page
    r = boss.post(url, {"seat_0": CASH}, follow=True, **ZH)
    assert "已退 老王 3.75 元（现金）" in said(r)
    page = r.content.decode()
    assert "退款 3.75 元 · 现金 · 老板" in page and "收款 18.75 元 · 现金 · 老板" in page
    entry = room.log.get(action=TILL_REFUNDED)
    from django.utils import translation

    with translation.override("zh-hans"):
        assert "退给 老王 3.75 元" in log_line(entry).sentence
