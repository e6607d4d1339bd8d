"""选番's search box: pinyin finds fans ("pph", "jian"), everyday names too (七对子,
"self drawn", 鸡胡), and the fans already chosen stay in sight while searching
(碰碰和 vanished while 箭刻 was searched for, still counted); "?" opens a fan's
meaning and example hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import by_tiles, make_table, record
from tests.support.browser import PLAYERS
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser


def fan(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(".pk-quick-fan").filter(has=page.locator(".pk-zh", has_text=name)).first


def test_pinyin_finds_fans_and_chosen_fans_stay_shown(page: Page, live_server: LiveServer) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    page.locator('button[value="mode:quick"]').click()
    search = page.locator("[data-fan-search]")
    expect(search).to_be_visible()
    search.fill("pph")  # 碰碰和 by its initials
    expect(fan(page, "碰碰和")).to_be_visible()
    expect(fan(page, "箭刻")).to_be_hidden()
    fan(page, "碰碰和").locator(".pk-quick-add").click()
    expect(fan(page, "碰碰和")).to_have_class("pk-quick-fan pk-on")
    search.fill("jian")  # 箭刻 by its pinyin
    expect(fan(page, "箭刻")).to_be_visible()
    expect(fan(page, "平和")).to_be_hidden()
    # Chosen, counted, not matching "jian": still shown, with its "−".
    expect(fan(page, "碰碰和")).to_be_visible()
    expect(fan(page, "碰碰和").locator(".pk-quick-less")).to_be_visible()
    search.fill("")
    expect(fan(page, "平和")).to_be_visible()
    # Everyday names find their fans (rules/fan_help.py's aliases).
    for typed, name, other in (("七对子", "七对", "平和"), ("self drawn", "自摸", "平和"),
                               ("鸡胡", "无番和", "七对")):  # fmt: skip
        search.fill(typed)
        expect(fan(page, name)).to_be_visible()
        expect(fan(page, other)).to_be_hidden()
    # "?" opens what the fan means, with an example hand (loaded when opened).
    help = fan(page, "无番和").locator(".pk-fan-help")
    help.locator("summary").click()
    expect(help.locator(".pk-fan-meaning")).to_contain_text("数不出任何番种")
    expect(help.locator(".pk-fan-example .pk-tile")).to_have_count(14)
    assert_no_horizontal_scroll(page)
    help.scroll_into_view_if_needed()
    snap(page, "fan-help", full_page=False)
    search.fill("")


def test_everyday_abbreviations_find_fans_and_no_match_is_said(
    page: Page, live_server: LiveServer
) -> None:
    """ "qdd" (七对), "13幺" and "十三么" (十三幺) find their fans (the aliases of each
    ruleset's fan help: tests/rules/test_fan_help.py); a search that finds nothing
    says so, with what was typed."""
    session = make_table("mcr", PLAYERS, first_dealer=0)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    page.locator('button[value="mode:quick"]').click()
    search = page.locator("[data-fan-search]")
    none = page.locator("[data-fan-no-match]")
    found = {"qdd": "七对", "13幺": "十三幺", "十三么": "十三幺"}
    for typed, name in found.items():
        search.fill(typed)
        expect(
            page.locator(".pk-quick-fan:not([hidden]) .pk-zh", has_text=name).first
        ).to_be_visible()
        expect(none).to_be_hidden()
    search.fill("zzzq")
    expect(page.locator(".pk-quick-fan:not([hidden])")).to_have_count(0)
    expect(none).to_be_visible()
    expect(none).to_have_text("没有这个番种： zzzq")
    search.fill("")
    expect(none).to_be_hidden()


def test_a_fans_page_leads_back_to_the_round(page: Page, live_server: LiveServer) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    record(session, by_tiles(winner=1, discarder=2))
    round_url = f"{live_server.url}/s/{session.code}/rounds/1/"
    page.goto(round_url)
    page.locator(".current-version .fan-help-link").first.click()
    page.wait_for_url("**/rules/mcr/fans/**")
    page.get_by_role("link", name="← 返回").click()
    page.wait_for_url(round_url)
