"""Two phones at one table, in a real browser at 360 x 740 (zh-hans and English).

Both phones enter a hand for the same round; the first confirms; the second is
told which round was just recorded (by whom, with its result) and records its
hand as the next round instead of doubling the first.  A pull to refresh keeps
the hand being entered; the home page lists the phone's tables; an undone round
is restored; each phone says once which player it is and that name goes into
the history.  A round recorded on one phone reaches the other through its
event stream, without a poll.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import Round
from tests.factories import make_table
from tests.support.browser import PLAYERS, TAPS, enter_hand, use_language
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser

WORDS = {
    "zh-hans": {"taken": "第 1 局刚被记录", "next": "记为第 2 局", "who": "你是哪位",
                "restore": "恢复第 2 局", "tables": "你的牌桌", "undo": "撤销",
                "yes_undo": "确认撤销第 2 局"},
    "en": {"taken": "Round 1 was just recorded", "next": "Record it as round 2",
           "who": "Which player are you", "restore": "Restore round 2", "tables": "Your tables",
           "undo": "Undo", "yes_undo": "Yes, undo round 2"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_two_phones_one_round(
    page: Page, second_page: Page, live_server: LiveServer, language: str
) -> None:
    words = WORDS[language]
    session = make_table("mcr", PLAYERS, first_dealer=0)
    table = f"{live_server.url}/s/{session.code}/"
    for p in (page, second_page):
        use_language(p, live_server.url, language)
    # Phone A says who it is, once.
    page.goto(table)
    expect(page.locator(".whoami summary")).to_contain_text(words["who"])
    page.locator(".whoami-seats button", has_text=PLAYERS[0]).click()
    expect(page.locator(".whoami summary")).to_contain_text(PLAYERS[0])

    # Both phones open 记一局 for round 1 and enter a hand.
    page.goto(f"{table}record")
    second_page.goto(f"{table}record")
    enter_hand(page, 1, 2, TAPS)
    enter_hand(second_page, 3, 2, TAPS[:10])
    # B's phone is pulled to refresh: its hand is still there.
    second_page.reload()
    expect(second_page.locator(".pk-hand-count")).to_contain_text("10")
    expect(second_page.locator('button[value="winner:3"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    enter_hand(second_page, 3, 2, TAPS[10:])

    page.locator(".pk-confirm").click()
    page.wait_for_url(table)
    second_page.locator(".pk-confirm").click()
    panel = second_page.locator(".rec-taken")
    expect(panel).to_contain_text(words["taken"])
    expect(panel).to_contain_text(PLAYERS[0])  # who recorded it
    expect(panel).to_contain_text(PLAYERS[1])  # its winner
    expect(second_page.locator(".pk-confirm")).to_be_disabled()
    assert_no_horizontal_scroll(second_page)
    assert_touch_targets(second_page, ".rec-taken-choices button")
    snap(second_page, f"two-phones-taken-{language}")
    assert Round.objects.filter(session=session).count() == 1
    # "Record it as round 2" records it (a confirm, not a move).
    second_page.get_by_role("button", name=words["next"]).click()
    second_page.wait_for_url(table)
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    assert [r.number for r in rounds] == [1, 2]
    assert [r.current.winners for r in rounds if r.current] == [[1], [3]]
    assert rounds[0].current is not None and rounds[0].current.author == PLAYERS[0]
    # Round 2's dealer follows round 1 (the stale one B had loaded was replaced).
    session.refresh_from_db()
    dealer_after_1 = session.next_position(rounds[:1])[0]
    assert rounds[1].current is not None and rounds[1].current.dealer == dealer_after_1

    # Undo round 2 on A, then restore it.
    page.goto(table)
    page.locator(".undo-box summary").last.click()
    page.get_by_role("button", name=words["yes_undo"]).click()
    expect(page.get_by_role("button", name=words["restore"])).to_be_visible()
    page.get_by_role("button", name=words["restore"]).click()
    expect(page.get_by_role("button", name=words["restore"])).to_have_count(0)
    rounds[1].refresh_from_db()
    assert rounds[1].status == Round.ACTIVE
    assert list(rounds[1].changes.values_list("action", "author")) == [
        ("undo", PLAYERS[0]),
        ("restore", PLAYERS[0]),
    ]
    # The home page lists this table for both phones.
    for p in (page, second_page):
        p.goto(live_server.url)
        expect(p.locator(".my-tables")).to_contain_text(words["tables"])
        expect(p.locator(".my-tables a")).to_have_attribute("href", f"/s/{session.code}/")
        assert_no_horizontal_scroll(p)


def test_a_round_reaches_the_other_phone_through_its_stream(
    page: Page, second_page: Page, live_server: LiveServer, settings: Any
) -> None:
    """Phone A records a round; phone B, showing the table, shows it within 1 s,
    told by its event stream (no /tallies poll before it), then fetches the tallies."""
    settings.LIVE_STREAM_SECONDS = 60
    settings.LIVE_HEARTBEAT = 1  # (the server's thread notices the page gone at teardown)
    session = make_table("mcr", PLAYERS, first_dealer=0)
    table = f"{live_server.url}/s/{session.code}/"
    polls: list[str] = []
    second_page.on("request", lambda r: polls.append(r.url) if "/tallies" in r.url else None)
    with second_page.expect_response(lambda r: "/events" in r.url and r.status == 200):
        second_page.goto(table)
    etag = second_page.locator("#tallies").get_attribute("data-etag")
    page.goto(f"{table}record")
    enter_hand(page, 1, 2, TAPS)
    assert polls == []  # the healthy stream: B polled nothing meanwhile
    page.locator(".pk-confirm").click()
    page.wait_for_url(table)
    expect(second_page.locator("#tallies")).not_to_have_attribute(
        "data-etag", etag or "", timeout=1000
    )
    assert len(polls) == 1  # the one fetch the nudge asked for
    assert Round.objects.filter(session=session).count() == 1
    for p in (page, second_page):  # their streams closed: the server's threads end at a ping
        p.goto("about:blank")
