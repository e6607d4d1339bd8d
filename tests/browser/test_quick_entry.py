"""选番 (quick entry) in a real browser at 360 x 740, zh-hans and English: the search
box finds a fan, a fan that a picked one excludes (不计) is greyed with the reason
and not counted, a flag the tiles contradict is explained, and the phone keeps its
last entry mode."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules.rulesets.mcr.fans import FANS
from tests.factories import make_table
from tests.support.browser import PLAYERS, TAPS, tap
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser


def test_quick_entry_search_exclusions_and_mode(
    page: Page, live_server: LiveServer, language: str
) -> None:
    session = make_table("mcr", PLAYERS)
    url = f"{live_server.url}/s/{session.code}/record"
    page.goto(url)
    # A flag the tiles contradict: 杠上开花 without a kong is explained next to it.
    tap(page, "winner:1")
    tap(page, "from:self")
    tap(page, "flag:after_kong")
    for code in TAPS:
        page.locator(f"#g-{code}").click()
    expect(page.locator(".pk-pending")).to_have_count(0)
    expect(page.locator("#flag-note-after_kong")).to_be_visible()
    # Quick entry: find 清一色 by typing.
    tap(page, "mode:quick")
    search = page.locator("[data-fan-search]")
    expect(search).to_be_visible()
    name = FANS[22].zh if language == "zh-hans" else FANS[22].en
    search.fill(name)
    visible = page.locator(".pk-quick-fan:visible")
    expect(visible.first).to_contain_text(name)
    tap(page, "fan:22:+")
    search.fill("")
    tap(page, "fan:48:+")
    tap(page, "fan:75:+")
    row = page.locator(".pk-quick-fan.pk-void", has=page.locator('button[value="fan:75:+"]'))
    expect(row).to_be_visible()
    expect(row.locator(".pk-quick-why")).to_contain_text(
        FANS[22].zh if language == "zh-hans" else FANS[22].en
    )
    expect(page.locator(".pk-total")).to_have_text(str(FANS[22].points + FANS[48].points))
    assert_no_horizontal_scroll(page)
    snap(page, f"quick-entry-{language}")
    # The phone keeps 选番 for its next entry.
    page.locator(".pk-confirm").click()
    page.wait_for_url(f"{live_server.url}/s/{session.code}/")
    page.goto(url)
    expect(page.locator('button[value="mode:quick"]')).to_have_attribute("aria-pressed", "true")
