"""国标比赛 on a 360-px phone: the 比赛规则 preset started from the home page counts
its hands, the players' seat winds change between 圈 as the competition's 换位 says,
the table closes itself after the 16th hand and the result shows 标准分 beside the
points. The win is tapped tile by tile; the 15 drawn hands are one tap each."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset
from rules.table import Match
from rules.tiles import parse_tiles, tile_str
from tests.support.browser import (
    PLAYERS,
    choose_rules,
    expect_totals,
    fill_players,
    grid_tile,
    press,
    seat_button,
    settled,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser

WIND_ZH = dict(zip("ESWN", "东南西北", strict=True))


def record_draw(page: Page) -> None:
    page.locator(".actions").get_by_role("link", name="记一局").click()
    press(page.get_by_role("button", name="荒庄", exact=True))
    settled(page)
    page.locator(".pk-confirm").click()
    expect(page.locator(".messages")).to_contain_text("已记录")


def test_a_match_counts_its_hands_changes_seats_and_ends_itself(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(live_server.url + "/")
    choose_rules(page, "国标麻将", "比赛规则")
    fill_players(page)
    session = start_table(page)
    code = session.code
    assert session.rules.table.match is not None

    # Hand 1: 李四 wins on 王五's discard (tapped); the engine gives the points.
    page.locator(".actions").get_by_role("link", name="记一局").click()
    press(seat_button(page, "和牌者", PLAYERS[1]))
    press(seat_button(page, "自摸或放炮者", PLAYERS[2]))
    concealed, win = "123m456m789m123p5p", "5p"
    for t in [tile_str(t) for t in parse_tiles(concealed)] + [win]:
        grid_tile(page, t).click()
    settled(page)
    page.locator(".pk-confirm").click()
    expect(page.locator(".messages")).to_contain_text("已记录")
    session.refresh_from_db()
    totals = session.tallies()
    assert totals[1] > 0 and sum(totals) == 0
    expect_totals(page, totals)

    m = Match()
    winds = page.locator(".seat-wind")
    for k in range(1, 16):
        expect(page.locator(".match-next")).to_have_text(f"比赛：第 {k + 1} / 16 盘")
        dealer, wind = m.hand(k, 0)
        want = session.rules.seat_winds(dealer, wind)
        expect(winds).to_have_text([WIND_ZH[w] for w in want])
        if k == 4:
            # The South round: 张三 and 李四 changed places, so did 王五 and 赵六.
            assert want == ["S", "E", "N", "W"]
            assert_no_horizontal_scroll(page)
            snap(page, "south-round")
        record_draw(page)

    # The 16th hand recorded: the table closed itself; the result page ranks 李四 first.
    expect(page.locator(".closed-note")).to_be_visible()
    expect(page.locator(".actions").get_by_role("link", name="记一局")).to_have_count(0)
    session.refresh_from_db()
    assert session.closed_at is not None and session.tallies() == totals
    page.goto(f"{live_server.url}/s/{code}/final")
    expect(page.locator("h1")).to_have_text("最终结果")
    rank = page.locator(".final-rank-points b")
    expect(rank).to_have_count(4)
    expect(rank.first).to_have_text("4")
    assert get_ruleset("mcr").table(session.rules.params).match is not None
    assert_no_horizontal_scroll(page)
    snap(page, "result")
