"""A room's owner on a 360x740 phone retires table 3 and gives table 2 a new QR code,
each with a second tap; the old codes then show their own pages, the QR sheet
prints table 2's new code (not its old one, and not table 3), and the room's log
shows both under the owner's name.  Every new page and state passes the
accessibility checks (tests/browser/a11y.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models.rooms import Room, RoomMember, RoomTable
from scorer.web.share import qr_svg
from tests.browser.a11y import check_all_modes
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


def accessible(page: Page, label: str) -> None:
    failures = check_all_modes(page, label)
    assert not failures, "\n\n".join(failures)


def row(page: Page, number: int) -> object:
    return page.locator(f"#table-{number}")


def test_an_owner_retires_table_3_and_gives_table_2_a_new_code(
    page: Page, second_page: Page, live_server: LiveServer
) -> None:
    room = Room.open("老王棋牌室", "laowang")
    room.add_tables(1, 4)
    owner = User.objects.create_user("boss")
    RoomMember.objects.create(room=room, user=owner, role=RoomMember.OWNER, display_name="老板")
    t2, t3 = (RoomTable.objects.get(room=room, number=n) for n in (2, 3))
    old_two, old_three = t2.code, t3.code
    base = live_server.url
    sign_in(page, live_server, owner)
    page.goto(f"{base}/r/{room.slug}/manage/tables/")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".room-table .button")

    # Table 3: the first tap asks, in the row; the second retires it.
    page.locator("#table-3").get_by_role("link", name="停用").click()
    confirm = page.locator("#table-3 .confirm-box")
    expect(confirm.get_by_role("heading")).to_have_text("停用 3号桌？")
    assert RoomTable.objects.get(pk=t3.pk).in_use  # asked, nothing done yet
    assert_touch_targets(page, ".confirm-box button, .confirm-box .button")
    snap(page, "retire-asks")
    accessible(page, "retire-confirm")
    confirm.get_by_role("button", name="停用 3号桌").click()
    expect(page.locator(".messages")).to_contain_text("3号桌 已停用")
    expect(page.locator(".retired-table")).to_contain_text("3号桌")
    expect(page.locator(".room-tables .room-table:not(.retired-table)")).to_have_count(3)

    # Table 2: a new QR code, the same way.
    page.locator("#table-2").get_by_role("link", name="换新二维码").click()
    confirm = page.locator("#table-2 .confirm-box")
    expect(confirm.get_by_role("heading")).to_have_text("给 2号桌 换一个新二维码？")
    assert RoomTable.objects.get(pk=t2.pk).code == old_two
    confirm.get_by_role("button", name="换新二维码").click()
    expect(page.locator(".messages")).to_contain_text("2号桌 已换新二维码")
    new_two = RoomTable.objects.get(pk=t2.pk).code
    assert new_two != old_two
    assert_no_horizontal_scroll(page)
    snap(page, "tables-after")
    accessible(page, "tables-with-a-retired-one")

    # A phone scanning the old codes: each its own page, in the room's words.
    second_page.goto(f"{base}/r/{room.slug}/t/{old_three}/")
    expect(second_page.locator("h1")).to_have_text("老王棋牌室")
    expect(second_page.locator("main")).to_contain_text("3号桌 已停用。")
    assert_no_horizontal_scroll(second_page)
    snap(second_page, "old-code-retired")
    accessible(second_page, "table-retired")
    second_page.goto(f"{base}/r/{room.slug}/t/{old_two}/")
    expect(second_page.locator("main")).to_contain_text("2号桌 的这个二维码已换成新的。")
    expect(second_page.locator("main")).not_to_contain_text(new_two)
    snap(second_page, "old-code-replaced")
    accessible(second_page, "table-code-replaced")
    # The new code opens table 2's start page.
    second_page.goto(f"{base}/r/{room.slug}/t/{new_two}/")
    expect(second_page.locator("h1")).to_contain_text("2号桌")

    # The sheet prints the new code, not the old one, and no table 3.
    page.get_by_role("link", name="打印二维码").click()
    cards = page.locator(".qr-card")
    expect(cards).to_have_count(3)
    expect(cards.locator(".qr-card-label")).to_have_text(["1号桌", "2号桌", "4号桌"])
    two = cards.nth(1).locator(".qr-card-url")
    printed = two.text_content() or ""
    assert new_two in printed and old_two not in printed
    assert all(
        old_three not in (c or "") for c in cards.locator(".qr-card-url").all_text_contents()
    )
    svg = cards.nth(1).locator("svg").evaluate("e => e.outerHTML")
    drawn = qr_svg(printed.strip()).decode()
    assert re.findall(r' d="[^"]+"', svg) == re.findall(r' d="[^"]+"', drawn)  # its modules
    # The table's own QR image is the new code too, at a new URL.
    page.goto(f"{base}/r/{room.slug}/manage/tables/")
    href = (
        page.locator("#table-2")
        .get_by_role("link", name="二维码", exact=True)
        .get_attribute("href")
    )
    assert href and href.endswith(f"/qr-{RoomTable.objects.get(pk=t2.pk).qr_version}.svg")
    image = page.request.get(base + href)
    assert image.ok and image.body() == qr_svg(printed.strip())

    # The room's log: both, newest first, under the owner's name.
    page.get_by_role("link", name="记录").click()
    expect(page.locator("h1")).to_have_text("操作记录")
    lines = page.locator(".log-sentence")
    expect(lines.nth(0)).to_have_text("老板 给 2号桌 换了新二维码")
    expect(lines.nth(1)).to_have_text("老板 把 3号桌 停用了")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".room-nav a")
    snap(page, "log")
    accessible(page, "room-log")


def test_a_removed_admin_is_told_so(page: Page, second_page: Page, live_server: LiveServer) -> None:
    """Removing an admin asks first; the admin then reads that they no longer run
    the room, on the app's own page."""
    room = Room.open("老王棋牌室", "laowang")
    owner = User.objects.create_user("boss")
    RoomMember.objects.create(room=room, user=owner, role=RoomMember.OWNER, display_name="老板")
    clerk = User.objects.create_user("clerk")
    RoomMember.objects.create(room=room, user=clerk, display_name="小张")
    sign_in(page, live_server, owner)
    sign_in(second_page, live_server, clerk)
    page.goto(f"{live_server.url}/r/{room.slug}/manage/members/")
    page.locator(".member-row", has_text="小张").get_by_role("button", name="移除").click()
    confirm = page.locator(".confirm-box")
    expect(confirm.get_by_role("heading")).to_have_text("把 小张 从本室管理员中移除？")
    accessible(page, "remove-confirm")
    assert RoomMember.objects.filter(user=clerk).exists()
    confirm.get_by_role("button", name="移除 小张").click()
    expect(page.locator(".messages")).to_contain_text("小张 不再管理本棋牌室")
    second_page.goto(f"{live_server.url}/r/{room.slug}/manage/")
    expect(second_page.locator("main")).to_contain_text("你已不再是 老王棋牌室 的管理员。")
    assert_no_horizontal_scroll(second_page)
    snap(second_page, "no-longer-admin")
    accessible(second_page, "no-longer-admin")
