"""A 四川 round of events corrected from the ledger on a 360-px phone, in the taps a
player expects: the ledger's row → 改这一局 → 改 on the event → the fix on the event
form (prefilled with the event) → 这个事件改好了 → 确认更正.

The round was recorded with 丁's win on 甲's discard when 乙 had thrown it.  After
the correction the table's totals, the round's money and its history equal a table
where the win was recorded right from the start (the same events added directly).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.support.browser import tap
from tests.support.events import PUNGS, PURE_PAIRS, kong_event, played, same_table, win_event
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

TARGETS = (
    ".correct-step-actions .button, .correct-step-actions button, "
    ".correct-add .button, form.actions button, .rec-back"
)


def test_an_event_of_a_sichuan_round_is_corrected_from_the_ledger(
    page: Page, live_server: LiveServer
) -> None:
    events = [kong_event(1, "exposed", 2), win_event(3, 0, PUNGS), win_event(2, 1, PURE_PAIRS)]
    s = played(events)
    page.goto(f"{live_server.url}/s/{s.code}/ledger")
    # 1. The row opens on a tap; 2. 改这一局 inside it.
    page.locator("#round-1 summary").click()
    page.locator("#round-1 .row-actions").get_by_role("link", name="改这一局").click()
    expect(page).to_have_url(re.compile(rf"/s/{s.code}/rounds/1/edit$"))
    steps = page.locator(".correct-step")
    expect(steps).to_have_count(3)
    expect(steps.nth(1)).to_contain_text("丁")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, TARGETS)
    snap(page, "correct-events-list")
    # 3. 改 on 丁's win: the event form, prefilled with it.
    steps.nth(1).get_by_role("link", name="改").click()
    expect(page).to_have_url(re.compile(r"/rounds/1/edit\?step=1$"))
    expect(page.locator('input[name="winner"]')).to_have_value("3")
    expect(page.locator('input[name="discarder"]')).to_have_value("0")
    assert_no_horizontal_scroll(page)
    # 4. The discarder was 乙; 5. this event is done.
    tap(page, "from:1")
    expect(page.locator('input[name="discarder"]')).to_have_value("1")
    snap(page, "correct-events-step")
    page.get_by_role("button", name="这个事件改好了").click()
    expect(page).to_have_url(re.compile(r"/rounds/1/edit$"))
    page.wait_for_load_state()
    expect(page.locator(".correct-step").nth(1)).to_contain_text("乙")
    expect(page.locator(".correct-seats")).to_contain_text("→")
    assert_touch_targets(page, TARGETS)
    # 6. 确认修改: one new version, on the round's page.
    page.get_by_role("button", name="确认更正").click()
    expect(page).to_have_url(re.compile(r"/rounds/1/$"))
    expect(page.locator(".history")).to_contain_text("→")
    snap(page, "correct-events-done")

    right = played([events[0], win_event(3, 1, PUNGS), events[2]])
    same_table(s, right)
    page.goto(f"{live_server.url}/s/{s.code}/")
    totals = [int(t.replace("−", "-")) for t in page.locator(".seat .total").all_inner_texts()]
    assert totals == right.tallies()
