"""A room admin on a phone (360 x 740, zh-hans): sign in, edit a configuration's
parameter (a refused value is shown on its field), start a table from it; the table
started before keeps its values.  Under the site's Content-Security-Policy."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession, RoomConfig
from tests.browser.helpers import snap

pytestmark = pytest.mark.browser

PASSWORD = "a long room password 麻将"


def test_an_admin_edits_a_configuration_on_a_phone(page: Page, live_server: LiveServer) -> None:
    User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    config = RoomConfig.objects.create(ruleset="mcr", name="周三比赛", params={"base": 8})
    before = GameSession.objects.create(
        ruleset="mcr", players=["甲", "乙", "丙", "丁"], params=dict(config.params)
    )
    page.goto(f"{live_server.url}/admin/")
    page.locator("#id_username").fill("boss")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    page.goto(f"{live_server.url}/admin/scorer/roomconfig/{config.pk}/change/")
    base = page.locator("#id_param_base")
    expect(base).to_be_visible()
    base.fill("-4")
    page.locator("input[name=_save]").click()
    expect(page.locator(".field-param_base .errorlist")).to_be_visible()  # shown on its field
    snap(page, "admin-refused-value")
    page.locator("#id_param_base").fill("30")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_be_visible()
    config.refresh_from_db()
    assert config.params["base"] == 30
    # The start page offers it first, filled in with its values.
    page.goto(live_server.url)
    expect(page.locator("#id_preset option:checked")).to_have_text("周三比赛")
    expect(page.locator("#id_param_base")).to_have_value("30")
    for i, name in enumerate(["东家", "南家", "西家", "北家"]):
        page.locator(f"#id_name_{i}").fill(name)
    page.locator(".start-form button[type=submit]").last.click()
    page.wait_for_url(f"{live_server.url}/s/**")
    started = GameSession.objects.exclude(pk=before.pk).get()
    assert started.params["base"] == 30 and started.preset == f"room:{config.pk}"
    before.refresh_from_db()
    assert before.params["base"] == 8  # the table started before keeps its values
