"""调整 and 罚分 on a 360-px phone: from the table page, an adjustment of two lines and a
陕西 逃跑 paid to the room are entered by taps, and the tallies, the room's line and
the ledger show them as such."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import make_table
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets

pytestmark = pytest.mark.browser

NAMES = ["张三", "李四", "王五", "赵六"]


def test_an_adjustment_and_a_penalty_entered_at_the_table(
    page: Page, live_server: LiveServer
) -> None:
    s = make_table("shaanxi", NAMES, params={"escape_to": "room"})  # fmt: skip
    page.goto(f"{live_server.url}/s/{s.code}/")
    page.get_by_role("link", name="调整 / 罚分").click()
    expect(page).to_have_url(re.compile(r"/adjust$"))
    assert_no_horizontal_scroll(page)
    assert_touch_targets(
        page, ".adjust-form select, .adjust-form input[type=number], .adjust-form button"
    )
    page.get_by_label("原因").fill("上一局算错了")
    page.locator("select[name=from_0]").select_option(label="李四")
    page.locator("select[name=to_0]").select_option(label="张三")
    page.locator("input[name=amount_0]").fill("30")
    page.locator("select[name=from_1]").select_option(label="王五")
    page.locator("select[name=to_1]").select_option(label="赵六")
    page.locator("input[name=amount_1]").fill("6")
    page.get_by_role("button", name="确认").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))
    totals = [int(t.replace("−", "-")) for t in page.locator(".seat .total").all_inner_texts()]
    assert totals == [30, -30, -6, 6]

    page.get_by_role("link", name="调整 / 罚分").click()
    expect(page.locator(".adjust-penalty")).to_be_hidden()  # 调整 chosen: its rows only
    page.get_by_label("罚分", exact=True).check()
    # 罚分 chosen: the 调整 rows go, the penalty's fields show.
    expect(page.locator(".adjust-lines")).to_be_hidden()
    expect(page.locator(".adjust-penalty")).to_be_visible()
    page.locator("select[name=seat]").select_option(label="王五")
    page.locator("input[name=paozi_2]").fill("2")
    page.get_by_role("button", name="确认").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))
    take = 3 * (8 + 2 * 3)  # 底分 × (8 + 自己的炮子數 × 3 + 其余玩家炮子數和)
    expect(page.locator(".room-line .room-take")).to_have_text(str(take))
    totals = [int(t.replace("−", "-")) for t in page.locator(".seat .total").all_inner_texts()]
    assert totals == [30, -30, -6 - take, 6] and sum(totals) + take == 0

    page.goto(f"{live_server.url}/s/{s.code}/ledger")
    expect(page.locator(".ledger-round .ledger-row .num").nth(0)).to_contain_text("调整")
    expect(page.locator(".ledger-round .ledger-row .num").nth(1)).to_contain_text("罚分")
