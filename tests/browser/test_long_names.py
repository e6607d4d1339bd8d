"""Long names on a 360-px phone, in Chinese and in English (issue 9.10, 9.11).

Four 16-character names (Latin, then Chinese): no page scrolls sideways, a name
never takes more than two lines, English words are never broken inside, and
fan names and reasons are in the page's language (the other one on demand).
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from tests.browser.helpers import snap, use_language

pytestmark = pytest.mark.browser

LATIN = ["Maximilian-Alexa", "Bartholomew-Jone", "Christopher-Ohar", "Evangeline-Smit"]
CHINESE = [
    "欧阳长风慕容雪上官云飞司马懿然",
    "诸葛青云东方不败令狐冲岳灵珊",
    "独孤求败风清扬任我行向问天",
    "西门吹雪叶孤城陆小凤花满楼",
]
HAND = {"concealed": "111222333m456p7z", "win_tile": "7z"}

# Elements sticking out of the viewport, and names wrapping to more than two lines.
LAYOUT = """() => {
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > vw + 0.5 && getComputedStyle(el).position !== 'fixed') {
      wide.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, vw, wide: wide.slice(0, 8)};
}"""

# Text nodes in English whose words the layout broke in the middle ("Discarde r").
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || !el.offsetParent) continue;
    for (const m of node.textContent.matchAll(/[A-Za-z]{4,}/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      const lines = new Set(rects.map(r => Math.round(r.top)));
      if (lines.size > 1 && !/-/.test(m[0])) broken.push(m[0] + ' in ' + el.tagName + '.' + el.className);
    }
  }
  return broken.slice(0, 8);
}"""


def check(page: Page, what: str, english: bool) -> None:
    out = page.evaluate(LAYOUT)
    assert out["scroll"] <= out["vw"], (what, out)
    if english:
        assert page.evaluate(BROKEN_WORDS) == [], what
    # A player's name on its own: one line with an ellipsis, or at most two lines.
    # (A sentence naming three players may take more lines: it is running text.)
    tall = page.evaluate(
        """names => {
          const out = [];
          for (const el of document.querySelectorAll('body *')) {
            if (el.children.length || !names.includes(el.textContent.trim())) continue;
            const lh = parseFloat(getComputedStyle(el).lineHeight) || 20;
            if (el.getBoundingClientRect().height > 2.6 * lh) out.push(el.tagName + '.' + el.className);
          }
          return out.slice(0, 8);
        }""",
        LATIN + CHINESE,
    )
    assert tall == [], (what, tall)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("names", [LATIN, CHINESE], ids=["latin", "chinese"])
def test_long_names_fit_a_phone(
    page: Page, live_server: LiveServer, language: str, names: list[str]
) -> None:
    use_language(page, live_server.url, language)
    english = language == "en"
    mcr = GameSession.objects.create(ruleset="mcr", players=list(names))
    mcr.record_round(uuid.uuid4(), {"kind": "win", "mode": "tiles", "winner": 1,
                                    "discarder": 2, "hand": HAND})  # fmt: skip
    sichuan = GameSession.objects.create(ruleset="sichuan", players=list(names))
    sichuan.params = dict(sichuan.resolved_params())
    sichuan.save()
    sichuan.add_event(uuid.uuid4(), {"type": "kong", "player": 1, "kong": "concealed"})
    base = f"{live_server.url}/s/"
    pages = {
        "home": live_server.url + "/",
        "table": f"{base}{mcr.code}/",
        "record": f"{base}{mcr.code}/record",
        "round": f"{base}{mcr.code}/rounds/1/",
        "ledger": f"{base}{mcr.code}/ledger",
        "sichuan table": f"{base}{sichuan.code}/",
        "sichuan win": f"{base}{sichuan.code}/record?kind=win",
        "sichuan kong": f"{base}{sichuan.code}/record?kind=kong",
        "sichuan wall": f"{base}{sichuan.code}/record?kind=wall_end",
    }
    for what, url in pages.items():
        page.goto(url)
        check(page, what, english)
    # The record page with a winner and a whole hand: the fans, the payments.
    page.goto(pages["record"])
    page.locator('button[value="winner:1"]').click()
    expect(page.locator('button[value="winner:1"]')).to_have_attribute("aria-pressed", "true")
    page.locator('button[value="from:2"]').click()
    expect(page.locator('button[value="from:2"]')).to_have_attribute("aria-pressed", "true")
    for code in [
        "1m",
        "1m",
        "1m",
        "2m",
        "2m",
        "2m",
        "3m",
        "3m",
        "3m",
        "4p",
        "5p",
        "6p",
        "7z",
        "7z",
    ]:
        page.locator(f"#g-{code}").click()
    expect(page.locator(".pk-total")).to_be_visible()
    check(page, "record with result", english)
    # Fan names in the page's language; the other one on demand.
    shown, other = (
        (".pk-fans .pk-en", ".pk-fans .pk-zh")
        if english
        else (".pk-fans .pk-zh", ".pk-fans .pk-en")
    )
    expect(page.locator(shown).first).to_be_visible()
    expect(page.locator(other).first).to_be_hidden()
    page.locator(".bi-toggle").click()
    expect(page.locator(other).first).to_be_visible()
    page.locator(".bi-toggle").click()
    expect(page.locator(other).first).to_be_hidden()
    page.locator('button[value="mode:quick"]').click()
    expect(page.locator(".pk-quick")).to_be_visible()
    check(page, "quick entry", english)
    snap(page, f"long-names-{language}-{'latin' if names is LATIN else 'chinese'}")
