"""The room's league on a 360 x 740 phone: the owner opens 十一月月赛 on 国标 with 标准分
and a minimum of 3 tables; four tables close; the league page shows the standings
with ties shared, and moves live when a fifth closes; the standings picture renders
inside its frame; and 大字 breaks no number."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.money import clock
from tests.browser.a11y import describe, page_problems
from tests.factories import by_tiles, make_member, make_room, make_table, play
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser

FOUR = ("欧阳娜娜娜娜", "乙", "丙", "丁")

# Each number of the standings on one line: its text's boxes share one top.
ONE_LINE = """() => [...document.querySelectorAll('.league-standings .lg-num')].filter(td => {
  const r = document.createRange(); r.selectNodeContents(td);
  const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
  return tops.size > 1;
}).map(td => td.textContent.trim())"""


def close_one(room: Any, winner: int, discarder: int) -> None:
    s = make_table("mcr", FOUR, seated=True, room=room)
    play(s, [by_tiles(winner, discarder)])
    s.close()


def test_a_season_from_the_owners_phone_to_a_live_league_page(
    page: Page, live_server: LiveServer, settings: Any
) -> None:
    settings.LIVE_STREAM_SECONDS = 60
    settings.LIVE_HEARTBEAT = 1
    room = make_room("laoli")
    sign_in(page, live_server, make_member(room, "boss").user)
    page.goto(f"{live_server.url}/r/{room.slug}/manage/league/")
    page.locator("summary", has_text="开一个赛季").click()
    form = page.locator(".season-form")
    today = clock.now().date()
    form.get_by_label("名称").fill("十一月月赛")
    form.get_by_label("第一天").fill((today - dt.timedelta(days=5)).isoformat())
    form.get_by_label("最后一天").fill((today + dt.timedelta(days=5)).isoformat())
    form.get_by_label("国标", exact=False).first.check()
    form.get_by_label("排名方式").select_option("standard")
    form.get_by_label("排名所需场数").fill("3")
    form.locator("button[type=submit]").click()
    expect(page.locator(".season-row")).to_contain_text("十一月月赛")

    # Four tables: 欧阳 on 乙, 乙 on 丙, 丙 on 欧阳, then 丁 on 欧阳.
    for w, d in ((0, 1), (1, 2), (2, 0), (3, 0)):
        close_one(room, w, d)
    with page.expect_response(lambda r: "/league/events" in r.url and r.status == 200):
        page.goto(f"{live_server.url}/r/{room.slug}/league/")
    rows = page.locator(".league-row")
    expect(rows).to_have_count(4)
    ranks = [t.strip() for t in page.locator(".lg-rank").all_inner_texts()]
    assert len(set(ranks)) < len(ranks), ranks  # two equal on the whole chain share
    assert_no_horizontal_scroll(page)
    problems = page_problems(page)
    assert not any(problems.values()), describe("league", problems)

    tables = page.locator(".league-row td:nth-child(4)")
    expect(tables.first).to_have_text("4")
    close_one(room, 1, 3)  # a fifth closes: the page moves without a reload
    expect(tables.first).to_have_text("5", timeout=3000)
    expect(tables).to_have_text(["5"] * 4)

    page.locator("html").evaluate("h => h.classList.add('large-text')")
    assert_no_horizontal_scroll(page)
    assert page.evaluate(ONE_LINE) == []
    snap(page, "league-large")

    page.goto(f"{live_server.url}/r/{room.slug}/league/")
    href = page.locator("a[data-png-from-svg]").get_attribute("href")
    page.goto(f"{live_server.url}{href}")
    texts = page.evaluate(
        """() => { const root = document.documentElement.getBoundingClientRect();
          return [...document.querySelectorAll('text')].map(t => { const r = t.getBoundingClientRect();
            return {text: t.textContent, left: r.left - root.left, right: r.right - root.left,
                    width: root.width}; }); }"""
    )
    assert any("欧阳" in t["text"] for t in texts)
    for t in texts:
        assert t["left"] >= 0 and t["right"] <= t["width"] + 0.5, t
    page.goto("about:blank")
