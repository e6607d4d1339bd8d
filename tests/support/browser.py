"""Helpers for the browser tests (the phone layout's checks are tests/support/layout.py):
the flows' preamble (the four players, a tile's name, how the pages print a number, a seat's
button, a tap that waits for its answer), once for every flow.

Import them in a test module: ``from tests.support.browser import press, ...``.
(Kept out of conftest.py: pytest advises against importing conftest modules.)
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from rules.tiles import parse_tile, parse_tiles, tile_str, tile_zh
from scorer.models import GameSession


def use_language(page: Page, base_url: str, language: str) -> None:
    """Open the site in `language` ("zh-hans" or "en"), as the language switch leaves it."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


def tap(page: Page, value: str) -> None:
    """Tap the record form's button with that tap value and wait for its answer."""
    page.locator(f'button[value="{value}"]').first.click()
    expect(page.locator("form.htmx-request")).to_have_count(0)


def choose_rules(page: Page, ruleset: str, preset: str | None = None) -> str:
    """Pick the room's configuration of this ruleset (its first, or the one named after
    the preset) on the start page, and wait for its fields to be swapped in.  The list
    is the room's configurations, each said as "name · ruleset" (or the ruleset's own
    name for its defaults)."""
    select = page.get_by_label("规则", exact=True)
    labels = [t.strip() for t in select.locator("option").all_inner_texts()]
    wanted = [
        label
        for label in labels
        if ruleset in label and (preset is None or label.split(" · ")[0] == preset)
    ]
    assert wanted, (ruleset, preset, labels)
    select.select_option(label=wanted[0])
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    expect(select.locator("option:checked")).to_have_text(wanted[0])
    return wanted[0]


def sign_in(page: Page, live_server: LiveServer, user: User) -> None:
    """This phone signed in as `user`, its session made directly (the sign-in page
    itself is tested on its own)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


PLAYERS = ["张三", "李四", "王五", "赵六"]


ZHANG, LI, WANG, ZHAO = range(4)


# The polling interval is 3 s: a change must show within at most ~2 polls.
POLL_MS = 10_000


def zh(code: str) -> str:
    """A tile's accessible name: 九条, 五筒, ..."""
    return tile_zh(parse_tile(code))


def codes(tiles: str) -> list[str]:
    """One code per tile, in tapping order: "1236677889s" -> ["1s", "2s", ...]."""
    return [tile_str(t) for t in parse_tiles(tiles)]


def signed(n: int) -> str:
    """How the tallies, the ledger and the preview print a number: "+8", "−53", "0"."""
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def seat_totals(page: Page) -> Locator:
    return page.locator("#tallies li.seat .total")


def expect_totals(page: Page, totals: list[int], timeout: float | None = None) -> None:
    expect(seat_totals(page)).to_have_text([signed(t) for t in totals], timeout=timeout)


def mark_document(page: Page) -> None:
    """Tag the loaded document: a full page load (reload, navigation) loses the tag."""
    page.evaluate("window.__e2eSameDocument = true")


def assert_same_document(page: Page) -> None:
    assert page.evaluate("window.__e2eSameDocument === true"), "the page was reloaded"


def seat_button(page: Page, group: str, name: str) -> Locator:
    """A seat in a row of seats; its name may carry a note (庄, 已和)."""
    return page.get_by_role("group", name=group, exact=True).get_by_role(
        "button", name=re.compile(f"^{name}")
    )


def press(button: Locator) -> None:
    """Tap a toggle and wait for htmx's swap to show it pressed.

    A tap while the previous request is in flight is queued by htmx and may be
    dropped when its button is replaced: every tap waits for its own effect.
    """
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def grid_tile(page: Page, code: str) -> Locator:
    """By its name, which starts with its face: 九条, 九条 ×2 (two in the hand)."""
    return page.locator(".pk-grid").get_by_role("button", name=re.compile(rf"^{zh(code)}( |$)"))


def confirm(page: Page, live_server: LiveServer, code: str, message: str) -> None:
    confirm_button = page.locator(".pk-confirm")
    expect(confirm_button).to_be_enabled()
    confirm_button.click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    expect(page.locator(".messages")).to_have_text(message)


def expect_transfers(page: Page, rows: list[tuple[int, int, int, str]]) -> None:
    """The preview's payments of this event: (from, to, amount, reason), in order."""
    items = page.locator(".ev-result .ev-transfers li")
    expect(items).to_have_count(len(rows))
    for i, (payer, payee, amount, reason) in enumerate(rows):
        item = items.nth(i)
        expect(item.locator(".ev-who")).to_have_text(f"{PLAYERS[payer]} → {PLAYERS[payee]}")
        expect(item.locator("b")).to_have_text(str(amount))
        expect(item.locator("small")).to_have_text(reason)


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def count_up(page: Page, player: int, label: str) -> None:
    # Each tap swaps the picker: wait for the last swap to land before looking up the
    # fold, or the button found may be detached by the swap still under way.
    settled(page)
    fold = page.locator(".pk-si-seat").nth(player)
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
        expect(fold).to_have_attribute("open", "")
    fold.get_by_role("button", name=f"+ {PLAYERS[player]} {label}", exact=True).click()
    settled(page)


# 111m 222m 333m 456p + 中中 (7z is Red 中): 一色三节高 24 + 三暗刻 16 + ... = 45 fans.
# Tapped in this order; the last tap is the winning tile.
TAPS = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4p", "5p", "6p", "7z", "7z"]


def enter_hand(page: Page, winner: int, discarder: int, taps: list[str]) -> None:
    for tap in (f"winner:{winner}", f"from:{discarder}"):
        page.locator(f'button[value="{tap}"]').click()
        expect(page.locator(f'button[value="{tap}"]')).to_have_attribute("aria-pressed", "true")
    for code in taps:
        page.locator(f"#g-{code}").click()
    expect(page.locator(".pk-pending")).to_have_count(0)
    expect(page.locator("form.htmx-request")).to_have_count(0)


def fill_players(page: Page) -> None:
    """The start form's four names, 东南西北: the flows' four PLAYERS."""
    for wind, name in zip("东南西北", PLAYERS, strict=True):
        page.get_by_label(wind, exact=True).fill(name)


def start_table(page: Page) -> GameSession:
    """Tap 开始 on the start form: the table's page opens; the table it started."""
    page.get_by_role("button", name="开始").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    return GameSession.objects.get(code=code)
