"""'Looks like Bob: same person?' on a 360-px phone: the start form asks it on the
seat (two thumb-sized answers, the whole row), one tap on "same person" and 开始
seats the player already here; the admin's rename asks it on a page of its own.
Both pass the a11y checks (axe, text size, contrast) and fit the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from tests.browser.a11y import check_all_modes
from tests.factories import make_member, make_room, make_table
from tests.support.browser import sign_in
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

CYRILLIC_BOB = "B\u043eb"


def test_the_same_person_question_at_360px(page: Page, live_server: LiveServer) -> None:
    room = make_room("laoli", "老李棋牌室")
    make_table("mcr", ["Bob", "小李", "阿强", "美玲"], room=room, seated=True)
    bob = room.players.get(name="Bob")

    page.goto(f"{live_server.url}/r/{room.slug}/")
    for i, name in enumerate(["老王", CYRILLIC_BOB, "丙", "丁"]):
        page.fill(f"#id_name_{i}", name)
    page.locator(".start-form button[type=submit]").last.click()
    question = page.locator("fieldset.lookalike")
    expect(question).to_have_count(1)
    expect(page.locator(".seat-field.has-error")).to_contain_text("看起来和本室的玩家 Bob 一样")
    expect(question.locator(".lookalike-answer")).to_have_count(2)
    assert_touch_targets(page, ".lookalike-answer")
    assert_no_horizontal_scroll(page)
    question.scroll_into_view_if_needed()
    snap(page, "start-question", full_page=False)
    failures = check_all_modes(page, "start form asking")
    assert not failures, "\n".join(failures)

    question.get_by_text("是同一个人：让 Bob 入座").click()
    page.locator(".start-form button[type=submit]").last.click()
    page.wait_for_url("**/s/**")
    session = GameSession.objects.latest("pk")
    assert session.players[1] == "Bob"
    assert session.seats.get(seat=1).player_id == bob.pk

    # The admin's rename: the question is a page of its own.
    owner = make_member(room, "boss", shown="老板")
    sign_in(page, live_server, owner.user)
    li = room.players.get(name="小李")
    page.goto(f"{live_server.url}/r/{room.slug}/manage/players/")
    row = page.locator(f"#player-{li.pk}")
    row.locator("summary").click()
    row.locator("input[name=name]").fill(CYRILLIC_BOB)
    row.locator("button[type=submit]").click()
    expect(page.locator("#lookalike-title")).to_have_text(
        f"“{CYRILLIC_BOB}” 看起来和 Bob 一样：是同一个人吗？"
    )
    assert_touch_targets(page, ".lookalike-box .button")
    assert_no_horizontal_scroll(page)
    snap(page, "rename-question")
    failures = check_all_modes(page, "rename asking")
    assert not failures, "\n".join(failures)
    page.get_by_role("button", name=f"是另一个人：把 小李 改名为 “{CYRILLIC_BOB}”").click()
    expect(page.locator(f"#player-{li.pk} .row-name")).to_have_text(CYRILLIC_BOB)
