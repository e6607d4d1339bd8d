"""End-to-end in a real browser: a 吉安冲关 table on a 360x740 phone, in Chinese.

Start it from the home page, record 李四's self-drawn win with a 精 (the phone
turns up 七筒, so 八筒 is the 正精 and 九筒 the 副精), enter every player's 精
with the −/+ counters, see 冲关 said in words, confirm; then a drawn round where
张三 alone shows five 精 points (霸精冲关).  Expected numbers by hand from
docs/rules/jian.md, and by the engine's `settle()` of the same rounds.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import settle
from rules.tiles import parse_tiles, tile_str
from tests.support.browser import (
    LI,
    PLAYERS,
    WANG,
    ZHANG,
    choose_rules,
    expect_totals,
    fill_players,
    grid_tile,
    signed,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

TURNED = "7p"  # 正精 8p, 副精 9p
# 123m 456m 789s 12s 11z and a self-drawn 八筒 (正精) standing for 三条.
CONCEALED = "123m456m789s12s11z"
WIN = "8p"


def seat_group(page: Page, legend: str) -> Locator:
    return page.get_by_role("group", name=legend)


def tap(button: Locator) -> None:
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def counter(page: Page, player: int, label: str, sign: str) -> Locator:
    # The name starts with the sign the button shows (WCAG 2.5.3).
    return page.get_by_role("button", name=f"{sign} {PLAYERS[player]} {label}", exact=True)


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def test_jian_table_a_win_with_jing_and_a_drawn_round(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:

    # ------------------------------------------------------------ start from the home page
    page.goto(live_server.url + "/")
    choose_rules(page, "吉安冲关麻将")
    expect(page.get_by_label("定精", exact=True).locator("option:checked")).to_have_text(
        "下一张是正精"
    )
    fill_players(page)
    assert_no_horizontal_scroll(page)
    session = start_table(page)
    code = session.code
    assert session.ruleset == "jian"

    # ------------------------------------------------------------ 李四 self-draws with a 精
    page.locator(".actions").get_by_role("link", name="记一局").click()
    expect(page).to_have_url(re.compile(r"/record$"))
    tap(seat_group(page, "和牌者").get_by_role("button", name=re.compile(f"^{PLAYERS[LI]}")))
    tap(seat_group(page, "自摸或放炮者").get_by_role("button", name="自摸", exact=True))
    turn = page.locator(".pk-turned").get_by_role("button")
    expect(turn).to_have_text("翻精")
    tap(turn)
    grid_tile(page, TURNED).click()
    expect(page.locator(".pk-turned button")).to_contain_text("翻出")
    # Both 精 are marked on the grid: 八筒 and 九筒, nothing else.
    expect(page.locator(".pk-grid .pk-wild")).to_have_count(2)
    expect(grid_tile(page, "8p")).to_have_class(re.compile(r"\bpk-wild\b"))
    expect(grid_tile(page, "9p")).to_have_class(re.compile(r"\bpk-wild\b"))
    expect(page.locator(".pk-turned .pk-turned-wild")).to_contain_text("精:")
    count = page.locator(".pk-hand-count")
    for n, t in enumerate([tile_str(x) for x in parse_tiles(CONCEALED)] + [WIN], start=1):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
    result = page.locator(".pk-result")
    expect(result.locator(".pk-fans tbody tr .pk-zh")).to_have_text(["自摸", "平胡"])
    # 李四's 正精 starts at the 八筒 in his hand; his − cannot go below it.
    expect(counter(page, LI, "正精", "−")).to_be_disabled()
    # 李四 shows one more 正精 and two 副精: 2×2 + 2 = 6 精 → 冲关 (6−3)×6 = 18 from each.
    counter(page, LI, "正精", "+").click()
    expect(counter(page, LI, "正精", "−")).to_be_enabled()
    for _ in range(2):
        counter(page, LI, "副精", "+").click()
        settled(page)
    # 王五 one 副精: 1 from each.
    counter(page, WANG, "副精", "+").click()
    settled(page)
    notes = page.locator(".pk-end-notes li")
    expect(notes).to_have_count(2)
    expect(notes.nth(0)).to_contain_text("冲关：(6−3)×6 = 18，每家付 18")
    expect(notes.nth(1)).to_contain_text("1 个副精 = 1 精，每家付 1")
    expect(page.locator(".pk-payments .pk-why").first).to_have_text("冲关")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-si-grid button, .pk-turned button, .pk-confirm")
    snap(page, "win-with-jing")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    # Win: dealer 张三 pays 2^2, the others 2^1; 精: 18 from each to 李四, 1 from each to 王五.
    win = [-4, 8, -2, -2]
    jing = [-18 - 1, 18 * 3 - 1, -18 + 3, -18 - 1]
    first = [w + j for w, j in zip(win, jing, strict=True)]
    expect_totals(page, first)

    # ------------------------------------------------------------ a drawn round: 霸精冲关
    page.locator(".actions").get_by_role("link", name="记一局").click()
    draw = page.get_by_role("button", name="荒庄", exact=True)
    tap(draw)
    for label, times in (("正精", 2), ("副精", 1)):
        for _ in range(times):
            counter(page, ZHANG, label, "+").click()
            settled(page)
    expect(page.locator(".pk-end-notes")).to_contain_text("霸精")
    assert_no_horizontal_scroll(page)
    snap(page, "draw-bajing")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    second = [60, -20, -20, -20]  # (5−3)×5 = 10, doubled, from each of three
    totals = [a + b for a, b in zip(first, second, strict=True)]
    expect_totals(page, totals)

    # The engine agrees, round by round.
    hand = {"concealed": CONCEALED, "win_tile": WIN}
    r1 = settle({"ruleset": "jian", "dealer": 0, "turned": TURNED, "events": [
        {"type": "win", "discarder": None, "winners": [{"seat": LI, "hand": hand}],
         "seat_inputs": {"zheng_jing": [0, 2, 0, 0], "fu_jing": [0, 2, 1, 0]}}]})  # fmt: skip
    r2 = settle({"ruleset": "jian", "dealer": 0, "events": [
        {"type": "draw", "seat_inputs": {"zheng_jing": [2, 0, 0, 0], "fu_jing": [1, 0, 0, 0]}}]})  # fmt: skip
    assert r1["deltas"] == first and r2["deltas"] == second
    page.goto(f"{live_server.url}/s/{code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    assert sum(totals) == 0
    assert not page_errors, page_errors
