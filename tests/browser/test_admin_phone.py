"""A room's owner on a phone (360 x 740, zh-hans), on the app's own pages (not Django's
admin): sign in, find the configuration in the room's list, edit a parameter (a
refused value is shown on its field), read the change in its history as a line
("底分 8 → 30 · 老板 · 11-26 20:31"), then start a table from the room's page, which
preselects it with its values; the table started before keeps its own.  Under the
site's Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession, RoomConfig
from scorer.models.rooms import RoomMember, default_room
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

PASSWORD = "a long room password 麻将"


def test_an_owner_edits_a_configuration_on_a_phone(page: Page, live_server: LiveServer) -> None:
    room = default_room()
    owner = User.objects.create_user("boss", password=PASSWORD)
    RoomMember.objects.create(room=room, user=owner, role=RoomMember.OWNER, display_name="老板")
    # order 0: before the presets' copies, so the start page preselects it.
    config = RoomConfig.objects.create(
        room=room, ruleset="mcr", name="周三比赛", params={"base": 8}, order=0
    )
    before = GameSession.objects.create(
        room=room, ruleset="mcr", players=["甲", "乙", "丙", "丁"], params=dict(config.params)
    )

    # A room page asks to sign in first, then comes back to it.
    page.goto(f"{live_server.url}/r/{room.slug}/manage/configs/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    page.locator("#id_username").fill("boss")
    page.locator("#id_password").fill(PASSWORD)
    page.locator(".login-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/manage/configs/$"))
    # The URL is the new page's once it commits, before its style sheets have loaded:
    # measured then, every target is the browser's default size.
    page.wait_for_load_state("load")
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".row-actions .button, .room-links a")
    snap(page, "room-configs")

    page.locator(f"#config-{config.pk} .row-name").click()
    base = page.locator("#id_param_base")
    expect(base).to_be_visible()
    base.fill("-4")
    page.locator(".config-form button[type=submit]").click()
    # Refused on its own field, nothing saved.
    expect(page.locator(".has-error #id_param_base")).to_be_visible()
    expect(page.locator(".has-error .errorlist")).to_be_visible()
    assert_no_horizontal_scroll(page)
    snap(page, "room-config-refused-value")
    config.refresh_from_db()
    assert config.params["base"] == 8
    page.locator("#id_param_base").fill("30")
    page.locator(".config-form button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("已保存")
    config.refresh_from_db()
    assert config.params["base"] == 30

    # Its history: one readable line, in Chinese and local time.
    page.locator(f"#config-{config.pk} a", has_text="修改记录").click()
    when = timezone.localtime(config.history.first().history_date).strftime("%m-%d %H:%M")
    expect(page.locator(".history-line").first).to_have_text(f"底分 8 → 30 · 老板 · {when}")
    assert_no_horizontal_scroll(page)
    snap(page, "room-config-history")

    # The room's start page preselects it, filled in with its values.
    page.goto(live_server.url)
    expect(page.locator("#id_config option:checked")).to_have_text("周三比赛 · 国标麻将")
    expect(page.locator("#id_param_base")).to_have_value("30")
    for i, name in enumerate(["东家", "南家", "西家", "北家"]):
        page.locator(f"#id_name_{i}").fill(name)
    page.locator(".start-form button[type=submit]").last.click()
    page.wait_for_url(f"{live_server.url}/s/**")
    started = GameSession.objects.exclude(pk=before.pk).get()
    assert started.params["base"] == 30 and started.preset == f"room:{config.pk}"
    before.refresh_from_db()
    assert before.params["base"] == 8  # the table started before keeps its values
