"""云南 at the table, in a real browser at 360 x 740: a round of events that ends at
the wall (流局查大叫, 杠钱不算).

张三 declares a 暗杠 (2 from each of the others, at once).  The wall runs out: 张三
听牌 with 清一色 (claims 3, the self-draw value of 1 番), 王五 听牌 plain (1), 李四
and 赵六 没听牌, each told in a tap, with no 花猪 to pick (Yunnan has no 缺门).
The 暗杠's money goes back and each player not ready pays each ready one.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset, settle
from tests.factories import make_table
from tests.support.browser import LI, PLAYERS, WANG, ZHANG, ZHAO, expect_totals, signed, tap
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def test_yunnan_wall_end_told_on_a_phone(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    rs = get_ruleset("yunnan")
    session = make_table("yunnan", PLAYERS)
    session.params = dict(session.rules.params)
    session.save()
    session.add_event(
        uuid.uuid4(), {"type": "kong", "player": ZHANG, "kong": "concealed", "tile": "9p"}
    )
    page.goto(f"{live_server.url}/s/{session.code}/")
    expect_totals(page, [6, -2, -2, -2])
    actions = page.locator("#tallies .event-actions")
    expect(actions.get_by_role("link")).to_have_text(["记杠", "记和牌", "流局"])
    actions.get_by_role("link", name="流局", exact=True).click()
    expect(page).to_have_url(re.compile(r"/record\?kind=wall_end$"))
    # 没听牌 and 听牌 only: no 花猪 at a table without 缺门.
    told = page.locator(".ev-told button")
    expect(told).to_have_text(["录牌", "没听牌", "听牌"])
    flush = next(f for f in rs.fan_catalog(session.rules.params) if f["name_zh"] == "清一色")
    # Only the patterns are offered for a claim: 十老头 is no standing hand.
    tap(page, f"seat:{ZHANG}")
    tap(page, "wstatus:ready")
    expect(page.locator(".ev-told-fans .pk-quick-add")).to_have_count(4)
    tap(page, f"wfan:{flush['id']}:+")
    expect(page.locator(".ev-told-claim")).to_contain_text("3")
    tap(page, f"seat:{LI}")
    tap(page, "wstatus:not_ready")
    tap(page, f"seat:{WANG}")
    tap(page, "wstatus:ready")
    expect(page.locator(".ev-told-claim")).to_contain_text("1")
    tap(page, f"seat:{ZHAO}")
    tap(page, "wstatus:not_ready")
    expect(page.locator(".pk-confirm")).to_be_enabled()
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".ev-told button, .pk-confirm")
    snap(page, "yunnan-wall-end")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{session.code}/")
    # The 暗杠 voided; 李四 and 赵六 each pay 张三 3 and 王五 1.
    totals = [6, -4, 2, -4]
    expect_totals(page, totals)
    rnd = session.rounds.get()
    assert rnd.current is not None and not rnd.in_progress
    entry = rnd.current.entry
    assert settle({"ruleset": "yunnan", "dealer": 0, "events": entry["events"]})["deltas"] == totals
    page.goto(f"{live_server.url}/s/{session.code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    assert not page_errors, page_errors
