"""四川 at the table, in a real browser at 360 x 740 (zh-hans and English):
a 流局 told in a few taps (花猪 / 没听牌 / 听牌 with the best wait's fans, its
claim shown at once), and a kong recorded as an event already in its player's
winning hand and standing hand."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset
from tests.factories import make_table
from tests.support.browser import PLAYERS, settled, tap
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def test_wall_end_told_and_kong_prefilled(
    page: Page, live_server: LiveServer, language: str
) -> None:
    session = make_table("sichuan", PLAYERS)
    session.params = dict(session.rules.params)
    session.save()
    rs = get_ruleset("sichuan")
    session.add_event(
        uuid.uuid4(), {"type": "kong", "player": 1, "kong": "concealed", "tile": "5m"}
    )
    session.add_event(uuid.uuid4(), {"type": "kong", "player": 3, "kong": "added", "tile": "9s"})
    # The win: 李四's 暗杠 of 5m is in the hand as soon as 李四 is the winner.
    page.goto(f"{live_server.url}/s/{session.code}/record?kind=win")
    tap(page, "winner:1")
    expect(page.locator(".pk-melds .pk-meld")).to_have_count(1)
    tap(page, "from:0")
    for code in ["1m", "2m", "3m", "7m", "8m", "9m", "7p", "8p", "9p", "1p", "1p"]:
        page.locator(f"#g-{code}").click()
        # One tap at a time, each answered before the next: under CI's load a burst of
        # taps once left the hand not a win (确认 stayed disabled; cause not found —
        # see the closing note). Quick taps are tested in tests/browser/test_fast_taps.py.
        expect(page.locator(".pk-pending")).to_have_count(0)
        settled(page)
    expect(page.locator(".pk-pending")).to_have_count(0)
    expect(page.locator(".pk-confirm")).to_be_enabled()
    page.locator(".pk-confirm").click()
    page.wait_for_url(f"{live_server.url}/s/{session.code}/")
    # The wall's end, told: 张三 花猪, 王五 听牌 with 对对胡, 赵六 没听牌 — no tiles.
    page.goto(f"{live_server.url}/s/{session.code}/record?kind=wall_end")
    # 赵六's 面下杠 of 9s, recorded as an event, is in his standing hand already.
    tap(page, "seat:3")
    expect(page.locator(".pk-melds .pk-meld")).to_have_count(1)
    expect(page.locator(".ev-kong-warn")).to_have_count(0)
    tap(page, "seat:0")
    tap(page, "wstatus:pig")
    tap(page, "seat:2")
    tap(page, "wstatus:ready")
    duidui = next(f for f in rs.fan_catalog(session.rules.params) if f["name_zh"] == "对对胡")
    tap(page, f"wfan:{duidui['id']}:+")
    # The claim as soon as the fans are picked, before 赵六 is told.
    claim = int(rs.quick_result({str(duidui["id"]): 1}, session.rules.params, False)["value"])
    expect(page.locator(".ev-told-claim")).to_contain_text(str(claim))
    expect(page.locator(".pk-confirm")).to_be_disabled()
    snap(page, f"sichuan-told-claim-{language}", full_page=False)
    tap(page, "seat:3")
    tap(page, "wstatus:not_ready")
    # Three players told in six taps, where their hands would take 39 tiles.
    expect(page.locator(".pk-confirm")).to_be_enabled()
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".ev-told button")
    snap(page, f"sichuan-told-{language}")
    expect(page.locator(".ev-claim")).to_contain_text(str(claim))
    page.locator(".pk-confirm").click()
    page.wait_for_url(f"{live_server.url}/s/{session.code}/")
    rnd = session.rounds.get()
    assert rnd.current is not None and not rnd.in_progress
    wall = rnd.current.entry["events"][-1]
    assert [h.get("status") for h in wall["hands"]] == ["pig", "ready", "not_ready"]
