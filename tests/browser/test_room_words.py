"""The room's pages as its owner tripped on them at 360 px: in
English no word breaks inside itself ("Roun/ds" in the day's fees), in normal and in
large text; and every placeholder a player reads passes AA (4.5:1) in the light and
the dark scheme, measured by the a11y checks, which would catch the browser's own
grey (#757575: 4.49:1 on the page's background)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models.players import Player
from tests.browser.a11y import MIN_CONTRAST, low_contrast, set_mode, text_styles
from tests.factories import by_tiles, make_member, make_room, make_table, record
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, broken_words, snap

pytestmark = pytest.mark.browser


def _placeholders(page: Page) -> list[dict[str, object]]:
    return [t for t in text_styles(page) if str(t["sel"]).endswith("::placeholder")]


def test_no_word_breaks_and_placeholders_pass_aa(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    room = make_room("laoli", "老李棋牌室")
    t1 = room.add_tables(1)[0]
    owner = make_member(room, "boss", shown="老板")
    # An open table whose rounds paid the room in points and money: the day's books
    # show it, in 元 at its rate.
    session = make_table(
        room=room,
        room_table=t1,
        seated=True,
        fee={"mode": "win_fixed", "amount": 2},
        money_per_point=Decimal("0.5"),
    )
    for winner in (0, 1, 2):
        record(session, by_tiles(winner, (winner + 1) % 4))
    player = Player.objects.get(room=room, name="老王")

    sign_in(page, live_server, owner.user)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    for path in (f"/r/{room.slug}/manage/", f"/p/{player.slug}/"):
        page.goto(live_server.url + path)
        for large in (False, True):
            set_mode(page, "light", large)
            assert broken_words(page) == [], (path, large)
            assert_no_horizontal_scroll(page)
        snap(page, path.strip("/").replace("/", "-"))
    page.goto(live_server.url + f"/r/{room.slug}/manage/")
    charged = page.locator(".day-fees thead th", has_text="Charged (yuan)")
    expect(charged).to_have_count(1)
    expect(page.locator(".day-fees")).to_contain_text("point fees")

    # The start page's placeholders (玩家1 …), in both schemes.
    page.context.add_cookies(
        [{"name": "django_language", "value": "zh-hans", "url": live_server.url}]
    )
    page.goto(live_server.url + f"/r/{room.slug}/")
    for scheme in ("light", "dark"):
        set_mode(page, scheme, False)
        shown = _placeholders(page)
        assert len(shown) >= 4, shown  # the four names' fields at least
        assert all(float(str(t["ratio"])) >= MIN_CONTRAST for t in shown), (scheme, shown)

    # The check itself: the browser's own grey on the page's light background fails it
    # (a blank page of its own: no stylesheet of the site's, no CSP to keep a <style> out).
    blank = browser.new_page()
    try:
        blank.set_content(
            "<style>body { background: #fdfcf8 } input { background: transparent;"
            " font-size: 16px }</style><input placeholder='玩家1'>"
        )
        shown = _placeholders(blank)
        assert len(shown) == 1 and float(str(shown[0]["ratio"])) < MIN_CONTRAST
        assert any("::placeholder" in line for line in low_contrast(text_styles(blank)))
    finally:
        blank.close()
