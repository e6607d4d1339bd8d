"""A tile tap on a chess room's Wi-Fi: 300 ms round trip, 50 KB/s.

The tapped tile must be in the hand at once, before the server's answer (which
then brings the fans); the answer carries only what changed, compressed; taps
made meanwhile are all kept.  In zh-hans and in English, at 360 x 740.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules.tiles import parse_tiles, tile_en, tile_zh
from tests.browser.helpers import assert_no_horizontal_scroll, use_language
from tests.browser.test_table_flow import PLAYERS
from tests.factories import make_table

pytestmark = pytest.mark.browser

LATENCY_MS = 300
BYTES_PER_S = 50 * 1024
ANSWER_MAX = 4 * 1024  # bytes on the wire per tile tap


def weak_network(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": LATENCY_MS, "downloadThroughput": BYTES_PER_S,
         "uploadThroughput": BYTES_PER_S},
    )  # fmt: skip


TAP_NOW = """code => {
  const form = document.querySelector('#record-form');
  const before = form.querySelectorAll('.pk-hand-tiles .pk-tile').length;
  document.getElementById('g-' + code).click();
  const shown = form.querySelectorAll('.pk-hand-tiles .pk-tile').length - before;
  return {shown, waiting: form.classList.contains('htmx-request')};
}"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_tapped_tile_shows_before_the_answer(
    page: Page, live_server: LiveServer, language: str
) -> None:
    session = make_table("mcr", PLAYERS, first_dealer=0)
    use_language(page, live_server.url, language)
    answers: list[tuple[str | None, int]] = []

    def on_response(response: object) -> None:
        r = response  # playwright Response
        if r.url.endswith("/record/preview"):  # type: ignore[attr-defined]
            headers = r.all_headers()  # type: ignore[attr-defined]
            answers.append((headers.get("content-encoding"), int(headers["content-length"])))

    page.on("response", on_response)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    for tap in ("winner:1", "from:2"):
        page.locator(f'button[value="{tap}"]').click()
        expect(page.locator(f'button[value="{tap}"]')).to_have_attribute("aria-pressed", "true")
    weak_network(page)
    hand = "111222333m456p7z7z"
    for i, t in enumerate(parse_tiles(hand)):
        code = f"{t % 9 + 1}{'mpsz'[t // 9]}"
        tap = page.evaluate(TAP_NOW, code)
        # In the hand at once: in the same task as the click, while the answer is
        # still on its way.  (A timed assertion would fail on a loaded machine rather
        # than on slow code; the time to the total is benchmarks/taps.py's.)
        assert tap["shown"] == 1 and tap["waiting"], tap
        if i < 3:
            # The first taps wait for their answer: the server's tile replaces the pending one.
            expect(page.locator(".pk-pending")).to_have_count(0, timeout=10_000)

    # A tile's name: its face, then (in English) its English name: "一万 (1 Character)".
    def name(t: int) -> str:
        return tile_zh(t) if language == "zh-hans" else f"{tile_zh(t)} ({tile_en(t)})"

    expect(page.locator(".pk-pending")).to_have_count(0, timeout=20_000)
    expect(page.locator("form.htmx-request")).to_have_count(0, timeout=20_000)
    labels = page.locator(".pk-hand-tiles .pk-tile").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    # The winning tile: its face, its 和 badge, then what it is: "中 和 (和牌张)".
    win = parse_tiles(hand)[-1]
    assert labels.pop().startswith(f"{tile_zh(win)} {'和' if language == 'zh-hans' else 'Win'} (")
    assert labels == [name(t) for t in parse_tiles(hand)[:-1]]
    # The fans came with the answers, and the hand can be confirmed.
    total = page.locator(".pk-total")
    expect(total).to_be_visible()
    assert int(total.inner_text()) >= 8
    expect(page.locator(".pk-confirm")).to_be_enabled()
    # Every tile tap's answer was compressed and small.
    tile_answers = answers[-len(parse_tiles(hand)) :]
    assert all(enc == "gzip" and size <= ANSWER_MAX for enc, size in tile_answers), tile_answers
    assert_no_horizontal_scroll(page)
