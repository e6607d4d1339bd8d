"""The home page's "Your tables" on a phone: each table's state,
and 隐藏 taking an accidental table off this phone's list; htmx swaps the list
only (what is typed in the start form stays), and the table comes back on demand."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from tests.factories import make_table
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

WIN = {"kind": "win", "mode": "tiles", "winner": 0, "discarder": 1,
       "hand": {"concealed": "111222333m456p7z", "win_tile": "7z"}}  # fmt: skip
LONG = ["欧阳长风慕容雪上官云飞司马懿然君", "Bartholomew-Jone", "诸葛青云", "丁"]


def test_each_table_shows_its_state_and_one_is_hidden_from_this_phone(
    page: Page, live_server: LiveServer
) -> None:
    played = make_table("mcr", LONG)
    oops = make_table("mcr", ["错甲", "错乙", "错丙", "错丁"])
    played.record_round(uuid.uuid4(), WIN)  # the latest activity: listed first
    for s in (oops, played):
        page.goto(f"{live_server.url}/s/{s.code}/")
    page.goto(live_server.url + "/")
    rows = page.locator(".table-list > li")
    expect(rows).to_have_count(2)
    expect(rows.first.locator(".table-state")).to_contain_text("进行中")
    expect(rows.first.locator(".table-state")).to_contain_text(f"{LONG[0]} 领先 +")
    expect(rows.nth(1).locator(".table-state")).to_contain_text("还没有开打")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".table-list a, .table-list button")
    snap(page, "listed")

    page.locator('input[name="name_0"]').fill("还在这里")  # the start form, half filled
    rows.nth(1).get_by_role("button", name="隐藏 错甲").click()
    expect(page.locator(".table-hidden [role=status]")).to_contain_text("错甲")
    expect(rows).to_have_count(1)
    expect(page.locator('input[name="name_0"]')).to_have_value("还在这里")  # the list only
    assert oops.rounds.count() == 0 and GameSession.objects.filter(pk=oops.pk).exists()
    snap(page, "hidden")

    page.locator(".table-hidden button").click()
    expect(rows).to_have_count(2)
    expect(page.locator(".table-hidden")).to_have_count(0)
    # Hidden again, then a reload: gone from this phone's list; its link opens it.
    rows.nth(1).get_by_role("button", name="隐藏 错甲").click()
    expect(rows).to_have_count(1)
    page.reload()
    expect(page.locator(".table-list > li")).to_have_count(1)
    expect(page.locator(".table-hidden")).to_have_count(0)
    page.goto(f"{live_server.url}/s/{oops.code}/")
    expect(page.locator("#tallies")).to_be_visible()
