"""Smoke test in a real browser: the home page on a 360x740 phone, in Chinese
and (after the language switch) in English, with its CSS and htmx loaded."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def test_home_on_a_phone_then_english(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    static_responses: dict[str, int] = {}
    page.on(
        "response",
        lambda r: static_responses.__setitem__(r.url, r.status) if "/static/" in r.url else None,
    )

    page.goto(live_server.url + "/")

    # Chinese first (the context's locale is zh-CN).
    # Headed by the room (the default one), under the site's name.
    expect(page).to_have_title("棋牌室")
    expect(page.locator("h1")).to_have_text("棋牌室")
    expect(page.locator(".site-title")).to_have_text("麻将计分")
    assert page.locator("html").get_attribute("lang") == "zh-hans"

    # Static files came from the live server: the stylesheet applied, htmx ran.
    assert static_responses, "no /static/ request was made"
    assert all(status == 200 for status in static_responses.values()), static_responses
    assert any(url.endswith(".css") for url in static_responses), static_responses
    assert any("htmx" in url for url in static_responses), static_responses
    assert page.evaluate("typeof htmx") == "object"
    # site.css sets button { min-height: 2.75rem }: 44px only if the CSS loaded.
    assert (
        page.locator(".lang-switch button").first.evaluate("b => getComputedStyle(b).minHeight")
        == "44px"
    )

    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".lang-switch button")
    snap(page, "zh")

    # The language form: a real POST with the CSRF token, then a redirect back.
    page.locator('.lang-switch button[value="en"]').click()
    expect(page.locator(".site-title")).to_have_text("Mahjong Scorer")
    expect(page.locator("h2").first).to_have_text("Start a table")
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator('.lang-switch button[value="en"]')).to_be_disabled()
    assert_no_horizontal_scroll(page)
    snap(page, "en")

    assert not page_errors, page_errors


def test_language_is_per_phone(page: Page, second_page: Page, live_server: LiveServer) -> None:
    """Two phones at one table: switching one to English leaves the other Chinese."""
    page.goto(live_server.url + "/")
    second_page.goto(live_server.url + "/")
    page.locator('.lang-switch button[value="en"]').click()
    expect(page.locator(".site-title")).to_have_text("Mahjong Scorer")

    second_page.reload()
    expect(second_page.locator(".site-title")).to_have_text("麻将计分")


def test_the_browser_runs_no_page_of_its_own(browser: Browser) -> None:
    """The browser under test preloads none of its own pages (its address bar's popup,
    chrome://omnibox-popup.top-chrome/, took a fifth of the browser tests' CPU): a
    Chromium that renames the features OUR_DISABLED_FEATURES turns off fails here, not by a
    slower suite."""
    context = browser.new_context()
    try:
        context.new_page()
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        own = [t["url"] for t in targets if t["url"].startswith("chrome://")]
        assert own == [], own
    finally:
        context.close()


def test_the_browser_keeps_playwrights_own_switches(browser: Browser) -> None:
    """Chromium keeps only the last ``--disable-features`` it is given, and Playwright
    gives its own first: the browser under test runs with both lists
    (``disabled_features``). Seen through one of Playwright's: third-party storage
    partitioning stays off, so a site framed by another talks to its own top-level
    page (a BroadcastChannel). A list of ours alone turns partitioning back on, and
    the message never arrives."""
    context = browser.new_context()
    try:
        pages = {
            "http://a.test/": "<p id=k>waiting</p><script>"
            "new BroadcastChannel('k').onmessage = (e) => {"
            " document.getElementById('k').textContent = e.data; };</script>",
            "http://a.test/framed": "<script>new BroadcastChannel('k').postMessage('framed')"
            "</script>",
            "http://b.test/": '<iframe src="http://a.test/framed"></iframe>',
        }
        context.route(
            "http://*.test/**",
            lambda route: route.fulfill(
                content_type="text/html", body=pages.get(route.request.url, "")
            ),
        )
        top = context.new_page()
        top.goto("http://a.test/")
        context.new_page().goto("http://b.test/")
        expect(top.locator("#k")).to_have_text("framed")
    finally:
        context.close()
