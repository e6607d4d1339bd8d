"""End-to-end in a real browser: a 芜湖 table on a 360x740 phone, in Chinese.

Start it from the home page with the 2468 preset, record 王五's win on 赵六's
discard by tapping tiles, watch the line under the hand count the 支 as the hand
forms and name the 押 when the winning tile fills the only wait, confirm, and
find the same numbers in the tallies, the engine and the ledger.  Amounts by hand
from docs/rules/wuhu.md.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset, settle
from rules.tiles import parse_tiles, tile_str
from tests.support.browser import (
    PLAYERS,
    WANG,
    ZHAO,
    choose_rules,
    expect_totals,
    fill_players,
    grid_tile,
    press,
    signed,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

# 12 万 with a 坎张: 234m 567m 79m 123m + 99s, won on 8m (押 8) — no 嘴子 (no 456: no 通天).
CONCEALED = "234567m79m123m99s"
WIN = "8m"


def test_wuhu_2468_table(page: Page, live_server: LiveServer, page_errors: list[str]) -> None:
    rs = get_ruleset("wuhu")
    preset = rs.preset("p2468")
    assert preset is not None
    params = rs.resolve_params(preset.params)

    page.goto(live_server.url + "/")
    choose_rules(page, "芜湖麻将", "2468")
    expect(page.get_by_label("平胡底番", exact=True)).to_have_value("2")
    fill_players(page)
    assert_no_horizontal_scroll(page)
    session = start_table(page)
    code = session.code
    assert session.ruleset == "wuhu" and session.params == dict(params)

    page.locator(".actions").get_by_role("link", name="记一局").click()
    press(page.get_by_role("group", name="和牌者").get_by_role(
        "button", name=re.compile(f"^{PLAYERS[WANG]}")))  # fmt: skip
    press(page.get_by_role("group", name="自摸或放炮者").get_by_role(
        "button", name=PLAYERS[ZHAO], exact=True))  # fmt: skip
    # No dragons on this table's picker.
    expect(page.locator(".pk-grid").get_by_role("button", name=re.compile("^中"))).to_have_count(0)
    shape = page.locator(".pk-shape")
    count = page.locator(".pk-hand-count")
    taps = [tile_str(t) for t in parse_tiles(CONCEALED)] + [WIN]
    for n, t in enumerate(taps, start=1):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
        if n == 3:
            expect(shape).to_have_text("万 3 支（成牌要 8 支）")
        if n == 8:
            expect(shape).to_have_text("万 8 支")
    expect(shape).to_have_text("万 12 支 · 押 8")
    fans = page.locator(".pk-result .pk-fans tbody tr .pk-zh")
    expect(fans).to_have_text(["押档", "支番"])
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-confirm, .rec-seats button")
    snap(page, "win-2468")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    # 2468 押当 12 支 押 8: 底番 4 + 支番 (12 + 8) × 5 = 100 → 10 = 14 from each of the
    # three (一家点炮三家给), the dealer 张三 4 more: the table's row "押当12支:押(7~8) … 14(+4)".
    totals = [-18, -14, 46, -14]
    expect_totals(page, totals)
    engine = settle({"ruleset": "wuhu", "params": dict(params), "dealer": 0, "events": [
        {"type": "win", "discarder": ZHAO,
         "winners": [{"seat": WANG, "hand": {"concealed": CONCEALED, "win_tile": WIN}}]}]})  # fmt: skip
    assert engine["deltas"] == totals
    page.goto(f"{live_server.url}/s/{code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    assert not page_errors, page_errors
