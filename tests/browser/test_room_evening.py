"""An evening in a room, on 360 x 740 phones: the owner signs in and turns on
a rake (抽水) in a configuration, adds the tables and prints the QR sheet; a phone
scans table 3, starts it from that configuration, records two rounds by tiles and
closes the table; the owner's dashboard shows the fee and the result page's
settle-up pays it to the room."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from rules.tiles import parse_tile, tile_zh
from scorer.models import GameSession, RoundRevision
from scorer.models.rooms import RoomMember, RoomTable, default_room
from tests.support.browser import PLAYERS, fill_players
from tests.support.layout import assert_no_horizontal_scroll, snap

pytestmark = pytest.mark.browser

PASSWORD = "a long room password 麻将"
# 111m 222m 333m 456p 中中, won on the second 中 (tests/browser/test_table_flow.py).
TAPS = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4p", "5p", "6p", "7z", "7z"]


def settled(page: Page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .pk-pending')"
    )


def record_a_round(page: Page, code: str, winner: int, discarder: int | None) -> None:
    page.goto(page.url.split("/s/")[0] + f"/s/{code}/record")
    winners = page.get_by_role("group", name="和牌者")
    winners.get_by_role("button", name=re.compile(f"^{PLAYERS[winner]}")).click()
    source = page.get_by_role("group", name="自摸或放炮者").get_by_role(
        "button", name="自摸" if discarder is None else PLAYERS[discarder], exact=True
    )
    source.click()
    settled(page)
    for t in TAPS:
        name = tile_zh(parse_tile(t))
        page.locator(".pk-grid").get_by_role("button", name=re.compile(rf"^{name}( |$)")).click()
    settled(page)
    expect(page.locator(".pk-confirm")).to_be_enabled()
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(re.compile(rf"/s/{code}/$"))


def test_an_evening_in_a_room(page: Page, browser: Browser, live_server: LiveServer) -> None:
    room = default_room()
    owner = User.objects.create_user("laoban", password=PASSWORD)
    RoomMember.objects.create(room=room, user=owner, role=RoomMember.OWNER, display_name="老板")
    config = room.offered_configs()[0]  # 国标麻将, preselected on the start page

    # ------------------------------------------------------------ the owner, signed in
    page.goto(f"{live_server.url}/r/{room.slug}/manage/configs/{config.pk}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.locator("#id_username").fill("laoban")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    expect(page).to_have_url(re.compile(rf"/manage/configs/{config.pk}/$"))
    page.get_by_label("台费", exact=True).select_option(value="win_percent")
    page.get_by_label("抽水（每把赢分的 %）").fill("10")
    page.get_by_label("每把封顶（分；0 为不封顶）").fill("20")
    page.get_by_label("底分").fill("10")
    page.locator("form button.primary[type=submit]").click()
    settled(page)
    config.refresh_from_db()
    assert config.fee == {"mode": "win_percent", "percent": 10, "cap": 20}
    assert config.params["base"] == 10
    page.goto(f"{live_server.url}/r/{room.slug}/manage/configs/{config.pk}/history")
    expect(page.locator("body")).to_contain_text("底分 8 → 10")
    expect(page.locator("body")).to_contain_text("老板")

    # Tables 1-3, then the QR sheet as printed.
    page.goto(f"{live_server.url}/r/{room.slug}/manage/tables/")
    page.locator("input[name=number]").fill("1")
    page.locator("input[name=count]").fill("3")
    page.locator("form.start-form button[type=submit]").click()
    settled(page)
    assert list(room.tables.values_list("number", flat=True)) == [1, 2, 3]
    page.goto(f"{live_server.url}/r/{room.slug}/manage/tables/qr-sheet")
    page.emulate_media(media="print")
    expect(page.locator(".qr-card")).to_have_count(3)
    table3 = RoomTable.objects.get(room=room, number=3)
    expect(page.locator(".qr-card").nth(2)).to_contain_text(f"/r/{room.slug}/t/{table3.code}")
    snap(page, "qr-sheet-print")
    page.emulate_media(media="screen")

    # ------------------------------------------------------------ a phone scans table 3
    phone_context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="zh-CN", is_mobile=True, has_touch=True
    )
    phone = phone_context.new_page()
    phone.goto(f"{live_server.url}/r/{room.slug}/t/{table3.code}/")
    expect(phone.locator(".fee-line")).to_contain_text("10%")
    expect(phone.get_by_label("底分")).to_have_value("10")  # the edited configuration
    fill_players(phone)
    phone.get_by_role("button", name="开始").click()
    expect(phone).to_have_url(re.compile(r"/s/[^/]+/$"))
    session = GameSession.objects.get(room_table=table3)
    assert session.params["base"] == 10 and session.fee == config.fee
    record_a_round(phone, session.code, winner=1, discarder=2)
    record_a_round(phone, session.code, winner=3, discarder=None)
    take = session.room_take()
    assert take > 0 and sum(session.tallies()) + take == 0
    revisions = RoundRevision.objects.filter(round__session=session)
    assert sum(r.room_take for r in revisions) == take

    # 结束本桌: the result page pays the room.
    phone.goto(f"{live_server.url}/s/{session.code}/final")
    phone.locator(".close-box summary").click()
    phone.locator(".close-box button[type=submit]").click()
    expect(phone.locator(".final-room .final-total")).to_have_text(str(take))
    pays = phone.locator(".settle-pay .settle-who").all_inner_texts()
    assert any(p.endswith(f"→ {room.name}") for p in pays), pays
    assert_no_horizontal_scroll(phone)
    snap(phone, "final")
    phone_context.close()

    # ------------------------------------------------------------ the owner's day
    page.goto(f"{live_server.url}/r/{room.slug}/manage/")
    # The day's books: point fees in 分 at a table without a rate, in 元 at one with.
    session.refresh_from_db()
    if session.money_per_point is None:
        expect(page.locator("#fees-points")).to_have_text(str(take))
    else:
        expect(page.locator(".day-fees")).to_contain_text(f"{take * session.money_per_point:.2f}")
    expect(page.locator(".day-fees")).to_contain_text(table3.label)
    assert_no_horizontal_scroll(page)
    snap(page, "dashboard")
