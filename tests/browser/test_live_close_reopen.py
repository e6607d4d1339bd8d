"""Every page of a table follows it live, on two phones at 360 x 740.

Phone B has the table page, 结算, the ledger and the result's picture open.  Phone A closes the table on
its 结算: B's table page and 结算 change to the closed set (no 记一局, 重新打开本桌)
without a reload.  A reopens it and a round is fixed: B's buttons, totals, 结算 and
ledger and picture follow.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from tests.factories import by_tiles, make_table, play
from tests.support.browser import PLAYERS

pytestmark = pytest.mark.browser


def opened(p: Page, url: str) -> Page:
    """`p` on `url`, its stream open, marked so that a reload would show."""
    with p.expect_response(lambda r: "/events" in r.url and r.status == 200):
        p.goto(url)
    p.evaluate("() => { window.mahjongNotReloaded = true; }")
    return p


def totals(p: Page, selector: str) -> list[int]:
    texts = p.locator(selector).all_inner_texts()
    return [int(t.split()[0].replace("−", "-").replace("+", "")) for t in texts]


def shows_version(pages: list[Page], s: GameSession) -> None:
    s.refresh_from_db()
    for p in pages:
        expect(p.locator("[data-live-version]")).to_have_attribute(
            "data-live-version", str(s.version)
        )


def test_close_reopen_and_fix_reach_every_page_of_the_other_phone(
    page: Page, second_page: Page, live_server: LiveServer, settings: Any
) -> None:
    settings.LIVE_STREAM_SECONDS = 120
    settings.LIVE_HEARTBEAT = 1
    s = make_table("mcr", PLAYERS, first_dealer=0)
    rounds = play(s, [by_tiles(winner=1, discarder=2), by_tiles(winner=3, discarder=0)])
    base = f"{live_server.url}/s/{s.code}/"
    a_final = opened(page, f"{base}final")
    b_table = opened(second_page, base)
    b_final = opened(second_page.context.new_page(), f"{base}final")
    b_ledger = opened(second_page.context.new_page(), f"{base}ledger")
    b_picture = opened(second_page.context.new_page(), f"{base}picture")
    b_pages = [b_table, b_final, b_ledger, b_picture]
    record_button = b_table.locator(".actions a", has_text="记一局")
    expect(record_button).to_be_visible()

    # A closes the table.
    a_final.locator(".close-box summary").click()
    a_final.get_by_role("button", name="确定结束本桌").click()
    expect(a_final.locator("h1")).to_have_text("最终结果")
    shows_version(b_pages, s)
    # B's table page: the closed set (账本 / 结算), its navigation too.
    expect(b_table.locator(".closed-note")).to_contain_text("本桌已结束。")
    expect(record_button).to_have_count(0)
    expect(b_table.locator(".actions a", has_text="调整 / 罚分")).to_have_count(0)
    expect(b_table.locator(".actions a", has_text="结算")).to_be_visible()
    expect(b_table.locator(".session-nav a", has_text="记一局")).to_have_count(0)
    # B's 结算: the final result, with 重新打开本桌 and no 结束本桌.
    expect(b_final.locator("h1")).to_have_text("最终结果")
    expect(b_final.locator(".reopen-box summary")).to_have_text("重新打开本桌")
    expect(b_final.locator(".close-box")).to_have_count(0)

    # A reopens it, and round 1 is fixed (as A's 改这一局 does: Round.revise).
    a_final.locator(".reopen-box summary").click()
    a_final.locator("#reopen-note").fill("算错了")
    a_final.get_by_role("button", name="确定重新打开").click()
    a_final.wait_for_url(base)
    shows_version(b_pages, s)
    expect(record_button).to_be_visible()
    expect(b_table.locator(".session-nav a", has_text="记一局")).to_be_visible()
    expect(b_final.locator("h1")).to_have_text("目前结果")
    expect(b_final.locator(".close-box summary")).to_be_visible()
    # B has round 1 open in the ledger: it stays open through the fix, its details anew.
    b_ledger.locator("#round-1 summary").click()
    expect(b_ledger.locator("#round-1 .round-detail .outcome")).to_contain_text(PLAYERS[1])
    before = s.tallies()
    rounds[0].revise(by_tiles(winner=2, discarder=1), author=PLAYERS[0])
    after = s.tallies()
    assert after != before
    shows_version(b_pages, s)
    assert totals(b_table, "#tallies .seat .total") == after
    assert totals(b_ledger, ".ledger-foot .cell strong") == after
    expect(b_ledger.locator("#round-1 .num sup")).to_have_attribute("title", "已修改")
    expect(b_ledger.locator("#round-1")).to_have_attribute("open", "")
    expect(b_ledger.locator("#round-1 .round-detail .outcome")).to_contain_text(
        f"{PLAYERS[2]} 和牌，{PLAYERS[1]} 放炮"
    )
    assert sorted(totals(b_final, ".final-total")) == sorted(after)
    # The result's picture: asked again at the table's version, and drawn.
    picture = b_picture.locator("img.final-picture")
    expect(picture).to_have_attribute("src", f"/s/{s.code}/final.svg?v={s.version}")
    assert b_picture.evaluate("() => document.querySelector('img.final-picture').naturalWidth") > 0
    # Asked again with nothing changed, each page's region is answered 304, no body.
    for p in b_pages:
        with p.expect_response(lambda r: r.request.headers.get("hx-request") == "true") as got:
            p.evaluate("() => htmx.trigger(document.querySelector('[data-live-poll]'), 'wake')")
        assert got.value.status == 304, (p.url, got.value.status)
    for p in b_pages:
        assert p.evaluate("() => window.mahjongNotReloaded === true"), p.url
        p.goto("about:blank")  # (their streams closed: the server's threads end at a ping)
