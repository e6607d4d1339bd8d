"""End-to-end in a real browser: a 武汉 红中癞子杠 table on a 360x740 phone, in Chinese.

The worked example of docs/rules/wuhan.md, played by taps: 张三 deals and turns
up 五万 (六万 is the 癞子); 李四 wins on 王五's 八筒 with a chi 234p and a 蓄杠 of
九万; 王五 opened once, 张三 has a 暗杠 and 赵六 laid out a 红中.  The three losers
pay three amounts, each said factor by factor: 64, 32, 16.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import settle
from rules.tiles import parse_tiles, tile_str
from tests.support.browser import (
    LI,
    PLAYERS,
    WANG,
    ZHANG,
    ZHAO,
    choose_rules,
    count_up,
    expect_totals,
    fill_players,
    grid_tile,
    press,
    signed,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def test_wuhan_worked_example_on_a_phone(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    page.goto(live_server.url + "/")
    assert choose_rules(page, "武汉麻将（红中癞子杠）").startswith("开口翻")
    fill_players(page)
    session = start_table(page)
    code = session.code
    assert session.ruleset == "wuhan"

    page.locator(".actions").get_by_role("link", name="记一局").click()
    press(page.get_by_role("group", name="和牌者").get_by_role(
        "button", name=re.compile(f"^{PLAYERS[LI]}")))  # fmt: skip
    press(page.get_by_role("group", name="自摸或放炮者").get_by_role(
        "button", name=PLAYERS[WANG], exact=True))  # fmt: skip
    press(page.locator(".pk-turned").get_by_role("button"))
    grid_tile(page, "5m").click()
    expect(page.locator(".pk-grid .pk-wild")).to_have_count(1)
    expect(grid_tile(page, "6m")).to_have_class(re.compile(r"\bpk-wild\b"))
    # The melds: chi 234p, then the 蓄杠 of 九万 (a 碰 from 下家 王五, later added to).
    press(page.locator(".pk-tools").get_by_role("button", name="吃", exact=True))
    grid_tile(page, "2p").click()
    expect(page.locator(".pk-meld-from").first).to_have_text("上家打的")
    press(page.locator(".pk-tools").get_by_role("button", name="加杠", exact=True))
    grid_tile(page, "9m").click()
    kong_from = page.locator(".pk-meld-from").nth(1)
    expect(kong_from).to_have_text("谁打的？")
    for label in ("上家打的", "对家打的", "下家打的"):
        kong_from.click()
        expect(page.locator(".pk-meld-from").nth(1)).to_have_text(label)
        kong_from = page.locator(".pk-meld-from").nth(1)
    count = page.locator(".pk-hand-count")
    for n, t in enumerate([tile_str(x) for x in parse_tiles("345m567s8p8p")], start=7):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
    # The winner's openings and kongs are read from his hand; the others are asked.
    li = page.locator(".pk-si-seat").nth(LI)
    li.locator("summary").click()
    expect(li.locator(".pk-si-hand")).to_have_count(3)
    count_up(page, WANG, "开口")
    count_up(page, ZHANG, "暗杠")
    count_up(page, ZHAO, "红中杠")
    expect(page.locator(".pk-si-seat").nth(ZHANG).locator(".pk-si-sum")).to_have_text("暗杠 1")
    notes = page.locator(".pk-end-notes li")
    expect(notes.nth(1)).to_have_text("赢家番数 8（开口 ×2、明杠 ×2、硬胡 ×2）")
    # The working, each loser's line (rules/working.py's terms), under the fans.
    working = page.locator(".pk-working")
    expect(working).to_have_text(["张三：1 × 8 × 8（暗杠 ×4、庄闲 ×2） = 64",
                                  "王五：1 × 8 × 4（开口 ×2、放冲 ×2） = 32",
                                  "赵六：1 × 8 × 2（红中杠 ×2） = 16"])  # fmt: skip
    expect(notes).to_have_count(2)
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-si-seat summary, .pk-si-seat .pk-counter button, "
                         ".pk-meld-from, .pk-confirm")  # fmt: skip
    snap(page, "worked-example")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    totals = [-64, 112, -32, -16]
    expect_totals(page, totals)
    hand = {"concealed": "345m567s8p", "win_tile": "8p",
            "melds": [{"type": "chi", "tiles": "234p"},
                      {"type": "kong", "tiles": "9999m", "added": True}]}  # fmt: skip
    engine = settle({"ruleset": "wuhan", "dealer": 0, "turned": "5m", "events": [
        {"type": "win", "discarder": WANG, "winners": [{"seat": LI, "hand": hand}],
         "seat_inputs": {"openings": [0, 0, 1, 0], "an_gang": [1, 0, 0, 0],
                         "hz_gang": [0, 0, 0, 1]}}]})  # fmt: skip
    assert engine["deltas"] == totals
    page.goto(f"{live_server.url}/s/{code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    assert not page_errors, page_errors
