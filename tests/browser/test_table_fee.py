"""台费 on a 360-px phone: a room whose configuration takes a rake (抽水) says so on its
start page; the table started from it shows the room's take on its own line under
the seats, and at the close the result page lists the room and settle-up pays it."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from scorer.models.rooms import Room
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

ROOM = "雀友棋牌室"
MCR_WIN = {"concealed": "111m222m333m456p7z", "win_tile": "7z"}


def test_the_rooms_take_on_the_tallies_and_in_the_settle_up(
    page: Page, live_server: LiveServer
) -> None:
    room = Room.open(ROOM, "queyou")
    config = room.configs.filter(ruleset="mcr").first()
    assert config is not None
    config.fee = {"mode": "win_percent", "percent": 10, "cap": 20}
    config.save()
    page.goto(f"{live_server.url}/r/queyou/?config={config.pk}")
    expect(page.locator(".fee-line")).to_have_text("台费（抽水）：每把赢分的 10%，最多 20 分。")
    page.get_by_label("每分金额").fill("0.5")
    page.locator("form button[type=submit].primary").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))
    session = GameSession.objects.get(room=room)
    assert session.fee == {"mode": "win_percent", "percent": 10, "cap": 20}
    for winner, discarder in ((1, 2), (3, None)):
        session.record_round(uuid.uuid4(), {"kind": "win", "mode": "tiles", "winner": winner,
                                            "discarder": discarder, "hand": MCR_WIN})  # fmt: skip
    take = session.room_take()
    assert take > 0
    page.reload()
    line = page.locator(".room-line")
    expect(line).to_contain_text(ROOM)
    expect(line.locator(".room-take")).to_have_text(str(take))
    totals = [int(t.replace("−", "-")) for t in page.locator(".seat .total").all_inner_texts()]
    assert totals == session.tallies() and sum(totals) + take == 0
    expect(line.locator(".money")).to_have_text(re.compile(r"金额 \d"))
    assert_no_horizontal_scroll(page)
    snap(page, "tallies")

    page.goto(f"{live_server.url}/s/{session.code}/final")
    page.locator(".close-box summary").click()
    page.locator(".close-box button[type=submit]").click()
    expect(page.locator(".final-room")).to_contain_text(f"台费 · {ROOM}")
    expect(page.locator(".final-room .final-total")).to_have_text(str(take))
    pays = page.locator(".settle-pay .settle-who").all_inner_texts()
    assert any(p.endswith(f"→ {ROOM}") for p in pays), pays
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".settle-up ~ details > summary")
    snap(page, "final")
