"""The books hold still, on a 360-px phone: 2号桌 is paid 50 元 in cash, then a
player reopens it from his own phone.  收银 still counts the cash and says the
table is reopened (the dashboard too); the owner takes 日结 in two taps, counting
the drawer 5 元 short; the table closes again 7.50 dearer, shown beside the closed
day as "日结后：+7.50 元 应收", while the day's kept figures stay as they were."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models.money import DayClose
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services.seating import start_at
from tests.factories import BLOCK_FEE, EVENING, NAMES, make_member, record
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser

T0 = timezone.make_aware(EVENING)


CASH_50 = re.compile(r"当天实收：现金\s*50\.00 元")


def later(minutes: int) -> None:
    clock.set_now(T0 + dt.timedelta(minutes=minutes))


def test_a_paid_table_reopened_and_the_day_closed(
    page: Page, second_page: Page, live_server: LiveServer, till_evening: object
) -> None:
    room = Room.open("老王棋牌室", "laowang")
    owner = make_member(room, "boss", RoomMember.OWNER, "老板")
    table = room.add_tables(2, 1, by=owner)[0]
    config = room.offered_configs()[0]
    session, _ = start_at(
        table, ruleset=config.ruleset, players=list(NAMES), params=config.params,
        preset=f"room:{config.pk}", time_fee=BLOCK_FEE,
    )  # fmt: skip
    record(session)
    later(245)  # 4 h 05: one 场, inside the grace
    assert session.close()
    sign_in(page, live_server, owner.user)
    base = f"{live_server.url}/r/laowang/manage"

    # Paid in full, in cash.
    page.goto(f"{base}/till/t/{session.code}")
    expect(page.locator("#charged")).to_have_text("50.00")
    for seat in range(4):
        page.locator(f"#seat_{seat}").select_option("cash")
    page.locator("form.till-form button[type=submit]").click()
    expect(page.locator("#owed")).to_have_text("0.00")
    expect(page.locator("#taken")).to_contain_text("12.50 元")

    # A player reopens it from his phone (the table's link is all he needs).
    later(250)
    second_page.goto(f"{live_server.url}/s/{session.code}/final")
    second_page.locator(".reopen-box summary").click()
    second_page.locator("#reopen-note").fill("再打一会")
    second_page.locator(".reopen-box button[type=submit]").click()
    session.refresh_from_db()
    assert session.closed_at is None

    # 收银 still counts the cash, and says the table is reopened; so does 今天.
    page.goto(f"{base}/till/?day=2026-11-27")
    figures = page.locator("#day-figures")
    expect(figures.locator("[data-figure=charged]")).to_have_text("50.00 元")
    expect(figures.locator(".by-method")).to_have_text(CASH_50)
    expect(page.locator("#reopened-paid")).to_contain_text("2号桌")
    expect(page.locator(f"#book-{session.code}")).to_contain_text("重新打开中")
    assert_no_horizontal_scroll(page)
    snap(page, "reopened")
    page.goto(f"{base}/")
    expect(page.locator("#reopened-paid")).to_contain_text("2号桌")
    expect(page.locator("#fees-total")).to_have_text("50.00")

    # 日结: the first tap shows what will be kept, the second keeps it with the count.
    page.goto(f"{base}/till/?day=2026-11-27")
    page.locator("button[value=review]").click()
    expect(page.locator("#close-review")).to_contain_text("应收 50.00 元")
    page.locator("#counted").fill("45")
    page.locator("button[value=close]").click()
    expect(page.locator("#day-closed")).to_contain_text("老板")
    expect(page.locator("#over-short")).to_have_text("短款 5.00 元")
    assert_no_horizontal_scroll(page)
    snap(page, "closed")

    # The table closes again at 4 h 30 of play: 57.50, the 7.50 beside the closed day.
    later(275)
    assert session.close()
    page.goto(f"{base}/till/?day=2026-11-27")
    kept = page.locator("#kept-figures")
    expect(kept.locator("[data-figure=charged]")).to_have_text("50.00 元")
    expect(kept.locator(".by-method")).to_have_text(CASH_50)
    expect(page.locator("#over-short")).to_have_text("短款 5.00 元")
    expect(page.locator("#after-close")).to_contain_text("日结后：+7.50 元 应收")
    expect(page.locator("#day-figures [data-figure=owed]")).to_have_text("7.50 元")
    assert_no_horizontal_scroll(page)
    snap(page, "after-close")
    close = DayClose.objects.get(room=room)
    assert close.figures["charged"] == "50.00" and close.figures["taken"] == {"cash": "50.00"}
    assert str(close.cash_counted) == "45.00"
