"""Badges clear of the tile's face: the 和 badge on the winning tile and the 癞子
badge on a wild tile never cover the tile's character, in the hand and in the
grid, in normal and large text (大字).

A 武汉 hand on a 360-px phone: 五万 turned up makes 六万 the 癞子; the hand holds
two 六万 and wins on 二条 (the 四川 win on 2s whose top stroke the badge hid read
as 一条).  By geometry, not pixels: each character of a tile's face (its line
box) is clear of every badge box, and a badge is one line.  One screenshot per
text size is saved for people to look at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import NAMES, make_table
from tests.support.browser import tap
from tests.support.layout import snap

# Cookies are all a test here changes of a phone: one phone for the module.
pytestmark = [pytest.mark.browser, pytest.mark.one_phone]

HAND = ["1m", "2m", "3m", "6m", "6m", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "2s"]

GEOMETRY = """() => {
  const out = [];
  const badges = [...document.querySelectorAll('.pk-win-mark, .pk-wild-mark')]
    .filter(b => b.getClientRects().length);
  // Each line of a face (一 / 万): its box is the character's line box, which holds
  // its em square, where a CJK character's strokes are drawn.  (A Range's box is the
  // font's whole ascent and descent, taller than any stroke.)
  const glyphs = [];
  for (const t of document.querySelectorAll(
      '.pk-live .pk-face > span, .pk-grid .pk-face > span')) {
    const r = t.getBoundingClientRect();
    if (r.width) glyphs.push({ch: t.textContent, r,
      tile: t.closest('.pk-tile').getAttribute('aria-label')});
  }
  for (const b of badges) {
    const br = b.getBoundingClientRect();
    const lh = parseFloat(getComputedStyle(b).lineHeight);
    if (br.height > 1.5 * lh) out.push('badge on two lines: ' + b.textContent + ' ' + br.height);
    for (const g of glyphs) {
      const w = Math.min(br.right, g.r.right) - Math.max(br.left, g.r.left);
      const h = Math.min(br.bottom, g.r.bottom) - Math.max(br.top, g.r.top);
      if (w > 0.5 && h > 0.5) out.push(b.textContent + ' covers ' + g.ch + ' of ' + g.tile);
    }
  }
  return {problems: out.slice(0, 12), badges: badges.length, glyphs: glyphs.length};
}"""


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
def test_badges_never_cover_a_tiles_face(page: Page, live_server: LiveServer, large: bool) -> None:
    if large:
        page.context.add_cookies([{"name": "mj_large_text", "value": "1", "url": live_server.url}])
    session = make_table("wuhan", NAMES)
    page.goto(f"{live_server.url}/s/{session.code}/record")
    tap(page, "winner:1")
    tap(page, "from:2")
    tap(page, "tool:turned")
    tap(page, "tile:5m")
    expect(page.locator(".pk-grid .pk-wild")).to_have_count(1)
    for code in HAND:
        page.locator(f"#g-{code}").click()
        expect(page.locator("form.htmx-request")).to_have_count(0)
    tap(page, "tile:2s")  # the winning tile
    expect(page.locator(".pk-live .pk-win-mark")).to_have_count(1)
    expect(page.locator(".pk-live .pk-wild-mark")).to_have_count(2)
    found = page.evaluate(GEOMETRY)
    # The winning tile's badge, two wild ones in the hand and the grid's one.
    assert found["badges"] == 4 and found["glyphs"] > 60, found
    page.locator(".pk-live").scroll_into_view_if_needed()
    snap(page, "large" if large else "normal", full_page=False)
    assert found["problems"] == [], found["problems"]
