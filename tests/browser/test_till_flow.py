"""The room's till on a 360-px phone: the owner sets 包间A at
30 元 an hour and the hall at 50 元 a 场; a table at 包间A plays 2 h 10 min with a
20-minute pause (simulated through the till's clock, never waited for); one player
pays from his member's balance, the others in cash; the day's close-out shows what
was charged, collected by method and owed, and the month report shows the day."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services.seating import start_at
from tests.factories import NAMES, make_member, record
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser

T0 = timezone.make_aware(dt.datetime(2026, 11, 27, 19, 0))


def fill_time_fee(page: Page, mode: str, **fields: str) -> None:
    """The time fee's fields (计时) on a configuration's or a table's page: its mode and
    each field by its name (price, hours, grace, unit, minimum)."""
    page.locator("select[name=tf_mode]").select_option(mode)
    for name, value in fields.items():
        page.locator(f"input[name=tf_{name}]").fill(value)


@pytest.fixture
def till_clock() -> Iterator[None]:
    with clock.frozen(T0):
        yield


def later(minutes: int) -> None:
    clock.set_now(T0 + dt.timedelta(minutes=minutes))


def test_an_evening_at_the_till(page: Page, live_server: LiveServer, till_clock: None) -> None:
    room = Room.open("老王棋牌室", "laowang")
    room.add_tables(1, 1)
    owner = make_member(room, "boss", RoomMember.OWNER, "老板")
    box = room.add_tables(2, 1, name="包间A", by=owner)[0]
    sign_in(page, live_server, owner.user)
    base = f"{live_server.url}/r/laowang/manage"

    # The hall: 50 元 a 场 of 4 hours, 10 minutes' grace, on the configuration offered first.
    config = room.offered_configs()[0]
    page.goto(f"{base}/configs/{config.pk}/")
    fill_time_fee(page, "block", price="50", hours="4", grace="10")
    page.locator("form button[type=submit].primary").click()
    expect(page).to_have_url(re.compile(r"/manage/configs/"))
    config.refresh_from_db()
    assert config.time_fee["price"] == "50.00"

    # 包间A: its own 30 元 an hour, per 30 minutes.
    page.goto(f"{base}/tables/2/")
    fill_time_fee(page, "hour", price="30", unit="30", minimum="0")
    page.locator("form.table-edit button[type=submit].primary").click()
    expect(page).to_have_url(re.compile(r"/manage/tables/$"))
    box.refresh_from_db()

    # Four friends start at 包间A at 19:00 (as the start page does: the table's own price).
    session, _ = start_at(
        box, ruleset=config.ruleset, players=list(NAMES), params=config.params,
        preset=f"room:{config.pk}", time_fee=box.time_fee or config.time_fee,
    )  # fmt: skip
    assert session.rules.time_fee.price == 30
    record(session)
    later(60)
    page.goto(f"{base}/")
    open_table = page.locator(f"#open-{session.code}")
    expect(open_table.locator(".clock-time")).to_have_text("1:00")
    open_table.locator("button[value=pause]").click()  # 饭点
    later(80)
    page.locator(f"#open-{session.code} button[value=resume]").click()
    later(150)  # 2 h 30 min since the start, 20 of them paused
    page.goto(f"{base}/")
    open_table = page.locator(f"#open-{session.code}")
    expect(open_table.locator(".clock-time")).to_have_text("2:10")
    expect(open_table.locator(".clock-fee-value")).to_have_text("75.00")
    assert_no_horizontal_scroll(page)
    snap(page, "dashboard")
    open_table.locator(".close-box summary").click()
    open_table.locator("input[name=note]").fill("打完了")
    open_table.locator(".close-box button[type=submit]").click()
    session.refresh_from_db()
    assert session.closed_at == T0 + dt.timedelta(minutes=150)

    # 老王 is a member: 100 元 paid in by WeChat; his share comes from the balance.
    page.goto(f"{base}/till/members/")
    page.locator("#topup-player").fill("老王")
    page.locator("#topup-amount").fill("100")
    page.locator("#topup-method").select_option("wechat")
    page.locator("form.start-form button[type=submit]").click()
    page.goto(f"{base}/till/t/{session.code}")
    expect(page.locator("#charged")).to_have_text("75.00")
    page.locator("#seat_0").select_option("balance")
    for seat in (1, 2, 3):
        page.locator(f"#seat_{seat}").select_option("cash")
    page.locator("form.till-form button[type=submit]").click()
    expect(page.locator("#owed")).to_have_text("0.00")
    assert_no_horizontal_scroll(page)

    # The day's close-out (the room's day: the evening of the 27th) and its 日结.
    page.goto(f"{base}/till/?day=2026-11-27")
    figures = page.locator("#day-figures")
    expect(figures.locator("[data-figure=charged]")).to_have_text("75.00 元")
    methods = figures.locator(".by-method").all_inner_texts()
    assert [re.findall(r"[\d.]+", m)[-1] for m in methods] == ["56.25", "18.75"], methods
    expect(figures.locator("[data-figure=collected]")).to_have_text("75.00 元")
    expect(figures.locator("[data-figure=owed]")).to_have_text("0.00 元")
    page.locator("button[value=review]").click()
    page.locator("button[value=close]").click()
    expect(page.locator("#day-closed")).to_contain_text("老板")
    assert_no_horizontal_scroll(page)
    snap(page, "close-out")

    # The month report has the day.
    page.goto(f"{base}/till/report?period=month&day=2026-11-27")
    expect(page.locator("#by-day")).to_contain_text("2026-11-27")
    expect(page.locator("#by-table")).to_contain_text("包间A")
    assert_no_horizontal_scroll(page)
    # Money apart from the points: the players' ledger is still zero-sum, the room took none.
    assert sum(session.tallies()) == 0 and session.room_take() == 0
