"""选番's search box: pinyin finds fans ("pph", "jian"), and the
fans already chosen stay in sight while searching (碰碰和 vanished while 箭刻 was
searched for, still counted)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.test_table_flow import PLAYERS
from tests.factories import make_table

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
