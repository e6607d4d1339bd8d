"""A room's fixed tables on a 360x740 phone: the URL in table 3's QR code starts a
table with last time's players filled in, a second phone scanning it joins the
same table, and the room's sheet of QR codes prints on A4, 12 codes a page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from scorer.models.rooms import Room, RoomMember
from scorer.services.seating import seat_players
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

LAST_TIME = ["阿珍", "大刘", "小美", "老周"]


def test_a_phone_scans_table_3_and_the_qr_sheet_prints(
    page: Page, second_page: Page, live_server: LiveServer
) -> None:
    room = Room.open("老李棋牌室", "laoli")
    tables = room.add_tables(1, 13)
    t3 = tables[2]
    # Last week's game at table 3: its players fill the next start.
    last = GameSession.objects.create(room=room, room_table=t3, ruleset="mcr", players=LAST_TIME)
    seat_players(last)
    last.close("阿珍")
    owner = User.objects.create_user("boss", password="a long password 麻将")
    RoomMember.objects.create(room=room, user=owner, role=RoomMember.OWNER, display_name="老板")
    table_url = live_server.url + f"/r/{room.slug}/t/{t3.code}/"

    # The phone scans table 3: the room's start page for that table, names filled in.
    page.goto(table_url)
    # Headed by the room and the table, in the title too.
    expect(page.locator("h1")).to_have_text("老李棋牌室 · 3号桌")
    expect(page).to_have_title("老李棋牌室 · 3号桌")
    for seat, name in enumerate(LAST_TIME):
        expect(page.locator(f'input[name="name_{seat}"]')).to_have_value(name)
    select = page.locator('select[name="config"]')
    expect(select.locator("option[selected]")).to_have_count(1)
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".start-form button[type=submit], .start-form select")
    snap(page, "table-3-start")
    page.locator('.start-form button[type="submit"].primary').click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))
    session = GameSession.objects.get(room_table=t3, closed_at__isnull=True)
    assert session.players == LAST_TIME
    assert page.url.endswith(f"/s/{session.code}/")

    # A second phone scanning the same code joins that table.
    second_page.goto(table_url)
    expect(second_page).to_have_url(re.compile(rf"/s/{session.code}/$"))
    expect(second_page.locator(".seat-name").first).to_be_visible()
    expect(second_page.locator("h1")).to_have_text("老李棋牌室 · 3号桌")

    # The owner prints the room's QR codes.
    sign_in(second_page, live_server, owner)
    second_page.goto(live_server.url + f"/r/{room.slug}/manage/tables/")
    second_page.get_by_role("link", name="打印二维码").click()
    expect(second_page.locator("h1")).to_have_text("牌桌二维码")
    cards = second_page.locator(".qr-card")
    expect(cards).to_have_count(13)
    expect(cards.nth(2)).to_contain_text("3号桌")
    expect(cards.nth(2)).to_contain_text("老李棋牌室")
    assert t3.code in (cards.nth(2).locator(".qr-card-url").text_content() or "")
    assert_no_horizontal_scroll(second_page)
    assert_touch_targets(second_page, ".qr-sheet ~ * button, .screen-only .button")
    expect(second_page.locator(".text-size button")).to_be_visible()  # on the screen
    snap(second_page, "qr-sheet-screen")

    # For print (laid out at A4's width, 794 CSS px): no header, buttons or notes;
    # three codes a row, each one whole.
    second_page.emulate_media(media="print")
    second_page.set_viewport_size({"width": 794, "height": 1123})
    expect(second_page.locator(".screen-only")).to_be_hidden()
    expect(second_page.locator(".site-header")).to_be_hidden()
    # Nor the phone's 大字 button (the page's foot), on the sheet stuck on the tables.
    expect(second_page.locator(".text-size button")).to_be_hidden()
    expect(second_page.locator(".site-foot")).to_be_hidden()
    boxes = [cards.nth(i).bounding_box() for i in range(13)]
    assert all(b is not None and b["width"] > 100 for b in boxes)
    assert len({round(b["x"]) for b in boxes if b is not None}) == 3
    svg = cards.nth(0).locator("svg").bounding_box()
    card = boxes[0]
    assert svg is not None and card is not None
    assert 140 < svg["width"] <= card["width"]  # 40 mm (151 px), whole: read from a seat
    pdf = second_page.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2  # 12 on the first page, 1 after
    snap(second_page, "qr-sheet-print")

    # Back on the phone's screen: the tables page and the day's dashboard fit it,
    # table 3 open there with its players.
    second_page.emulate_media(media="screen")
    second_page.set_viewport_size({"width": 360, "height": 740})
    second_page.goto(live_server.url + f"/r/{room.slug}/manage/tables/")
    assert_no_horizontal_scroll(second_page)
    assert_touch_targets(second_page, ".room-nav a, .room-table .button, .start-form button")
    snap(second_page, "tables")
    second_page.get_by_role("link", name="今天").click()
    opened = second_page.locator(f"#open-{session.code}")
    expect(opened).to_contain_text("3号桌")
    expect(opened).to_contain_text("阿珍")
    assert_no_horizontal_scroll(second_page)
    assert_touch_targets(second_page, ".room-nav a, .day-table .button, .close-box > summary")
    snap(second_page, "dashboard")
