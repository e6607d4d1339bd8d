"""The end of the evening on a 360-px phone: a table started and played by taps (河北,
two plain wins on discards), its running-totals chart,
结束本桌 with its confirm step, the result with the fewest payments in money, the
picture made on the phone as a PNG, both exports downloaded, and the table
reopened with a note."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules.tiles import parse_tiles, tile_str
from scorer.money.settleup import settle_up
from tests.scorer.csv_export import read_export
from tests.support.browser import (
    LI,
    PLAYERS,
    WANG,
    ZHAO,
    choose_rules,
    expect_totals,
    fill_players,
    grid_tile,
    press,
    settled,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def record_win(page: Page, winner: int, discarder: int, concealed: str, win: str) -> None:
    page.locator(".actions").get_by_role("link", name="记一局").click()
    press(page.get_by_role("group", name="和牌者").get_by_role(
        "button", name=re.compile(f"^{PLAYERS[winner]}")))  # fmt: skip
    press(page.get_by_role("group", name="自摸或放炮者").get_by_role(
        "button", name=PLAYERS[discarder], exact=True))  # fmt: skip
    count = page.locator(".pk-hand-count")
    taps = [tile_str(t) for t in parse_tiles(concealed)] + [win]
    for n, t in enumerate(taps, start=1):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
    settled(page)
    page.locator(".pk-confirm").click()
    expect(page.locator(".messages")).to_contain_text("已记录")


def test_play_close_settle_export_reopen(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    page.goto(live_server.url + "/")
    choose_rules(page, "河北麻将")
    fill_players(page)
    money = page.get_by_label(re.compile("每分"))
    if money.count():
        money.first.fill("2")
    session = start_table(page)
    code = session.code

    # 河北 basic (1): a plain win is 5 from the discarder, ×2 between dealer and another.
    record_win(page, LI, WANG, "123m456p789s234m5s", "5s")
    record_win(page, ZHAO, LI, "123m456p789s234m5s", "5s")
    # The second hand is dealt by 李四 (the deal moves on), who pays double as dealer.
    totals = [0, -5, -5, 10]
    expect_totals(page, totals)
    chart = page.locator("#tallies .chart")
    expect(chart).to_be_visible()
    expect(chart.locator(".chart-line")).to_have_count(4)
    assert_no_horizontal_scroll(page)
    snap(page, "table-with-chart")

    # 结束本桌: the result page, then the confirm step.
    page.locator(".actions").get_by_role("link", name="结束本桌").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/final")
    page.locator(".close-box summary").click()
    page.get_by_role("button", name="确定结束本桌").click()
    expect(page.locator(".messages")).to_contain_text("本桌已结束")
    expect(page.locator("h1")).to_have_text("最终结果")
    pays = page.locator(".settle-pay")
    expect(pays).to_have_count(len(settle_up(totals)))
    rate = session.money_per_point
    for i, (payer, payee, amount) in enumerate(settle_up(totals)):
        expect(pays.nth(i).locator(".settle-who")).to_have_text(
            f"{PLAYERS[payer]} → {PLAYERS[payee]}"
        )
        shown = str(amount * rate).rstrip("0").rstrip(".") if rate is not None else str(amount)
        expect(pays.nth(i).locator("b")).to_have_text(shown)
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".final-share .button, .reopen-box summary")
    snap(page, "result")

    # The picture: the SVG drawn on the phone's canvas as a PNG.
    size = page.evaluate(
        "() => mahjongFinalPng(document.querySelector('[data-png-from-svg]'))"
        ".then(b => [b.type, b.size])"
    )
    assert size[0] == "image/png" and size[1] > 10_000

    # The exports: CSV rows reconcile to the tallies, JSON carries them.
    with page.expect_download() as got:
        page.get_by_role("link", name="导出表格").click()
    exported = read_export(Path(got.value.path()).read_text(encoding="utf-8"), PLAYERS)
    assert [exported.totals[p] for p in PLAYERS] == [exported.net[p] for p in PLAYERS] == totals
    # The times as the page shows them (local time), the kinds in the page's words.
    assert {x["类型"] for x in exported.body} == {"和牌"}
    with page.expect_download() as got:
        page.get_by_role("link", name="导出完整数据").click()
    data = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert data["tallies"] == totals and data["closed_at"]

    # Closed: the table page offers no recording; reopening takes a note.
    page.goto(f"{live_server.url}/s/{code}/")
    expect(page.locator(".closed-note")).to_be_visible()
    expect(page.locator(".actions").get_by_role("link", name="记一局")).to_have_count(0)
    page.goto(f"{live_server.url}/s/{code}/final")
    page.locator(".reopen-box summary").click()
    page.get_by_label("原因（记入本桌历史）").fill("再打一圈")
    page.get_by_role("button", name="确定重新打开").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    expect(page.locator(".actions").get_by_role("link", name="记一局")).to_be_visible()
    session.refresh_from_db()
    assert session.closed_at is None
    assert list(session.changes.values_list("note", flat=True)) == ["", "再打一圈"]
    assert not page_errors, page_errors
