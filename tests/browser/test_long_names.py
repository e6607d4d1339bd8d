"""Long names on a 360-px phone, in Chinese and in English.

Four 16-character names (the longest a table takes, Latin, then Chinese) on
every page a table shows: no page scrolls sideways, a name never takes more
than two lines, no text is cut off without an ellipsis, English words are
never broken inside (a name may be: it is no word), and fan names are in the
page's language with the other one on demand.
"""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from scorer.present.words import NAME_MAX
from tests.factories import make_table
from tests.support.browser import tap, use_language
from tests.support.layout import snap

# Cookies are all a test here changes of a phone: one phone for the module.
pytestmark = [pytest.mark.browser, pytest.mark.one_phone]

LATIN = ["Maximilian-Alexa", "Bartholomew-Jone", "Christopher-Ohar", "Evangeline-Smith"]
CHINESE = [
    "欧阳长风慕容雪上官云飞司马懿然君",
    "诸葛青云东方不败令狐冲岳不群灵珊",
    "独孤求败风清扬任我行向问天林平之",
    "西门吹雪叶孤城陆小凤花满楼楚留香",
]
HAND = {"concealed": "111222333m456p7z", "win_tile": "7z"}
PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}  # 四川 对对胡
WALL_END = [
    {"seat": 0, "concealed": "123m456p789s1239m"},  # three suits: 花猪
    {"seat": 1, "concealed": "123456789m1234m"},  # ready
    {"seat": 2, "concealed": "12345678p13579s"},  # not ready
]

# The page's width, and what sticks out of the viewport.
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

# Text cut off with no ellipsis to say so: a box holding its own text that is
# wider than it shows, clipped (a line clamp ends in an ellipsis).  A button
# draws no ellipsis of its own text in Chromium, whatever its text-overflow
# says: its text needs a span that does.
CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length || el.closest('.visually-hidden')) continue;
    if (['SELECT', 'OPTION', 'TEXTAREA'].includes(el.tagName)) continue;
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const cs = getComputedStyle(el);
    if (cs.overflowX === 'visible' || el.scrollWidth <= el.clientWidth + 1) continue;
    const clamped = !['', 'none'].includes(cs.getPropertyValue('-webkit-line-clamp'));
    const ellipsis = clamped || (cs.textOverflow === 'ellipsis' && el.tagName !== 'BUTTON');
    if (!ellipsis) out.push(el.tagName + '.' + el.className + ': ' + el.textContent.trim());
  }
  return out.slice(0, 8);
}"""

# English words the layout broke in the middle ("Discarde r"); names excepted.
BROKEN_WORDS = """names => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || !el.getClientRects().length) continue;
    // Inside a closed <details>, but for its summary: laid out, never shown.
    const fold = el.closest('details:not([open])');
    if (fold && !el.closest('summary')) continue;
    for (const m of node.textContent.matchAll(/[A-Za-z]{4,}/g)) {
      if (names.some(n => n.includes(m[0]))) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (new Set(rects.map(r => Math.round(r.top))).size > 1) {
        broken.push(m[0] + ' in ' + el.tagName + '.' + el.className);
      }
    }
  }
  return broken.slice(0, 8);
}"""

# A player's name on its own (its element holds nothing else) taller than two lines.
TALL_NAMES = """names => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.children.length || !names.includes(el.textContent.trim())) continue;
    if (!el.getClientRects().length || ['OPTION', 'SELECT'].includes(el.tagName)) continue;
    const lh = parseFloat(getComputedStyle(el).lineHeight) || 20;
    if (el.getBoundingClientRect().height > 2.6 * lh) out.push(el.tagName + '.' + el.className);
  }
  return out.slice(0, 8);
}"""


def check(page: Page, what: str, names: list[str], english: bool) -> None:
    out = page.evaluate(LAYOUT)
    assert out["scroll"] <= 360 and out["scroll"] <= out["vw"], (what, out)
    assert page.evaluate(CLIPPED) == [], what
    assert page.evaluate(TALL_NAMES, names) == [], what
    if english:
        assert page.evaluate(BROKEN_WORDS, names) == [], what


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("names", [LATIN, CHINESE], ids=["latin", "chinese"])
def test_long_names_fit_a_phone(
    page: Page, live_server: LiveServer, language: str, names: list[str]
) -> None:
    assert all(len(n) == NAME_MAX for n in names)  # the longest a table takes
    use_language(page, live_server.url, language)
    english = language == "en"
    shot = f"{language}-{'latin' if names is LATIN else 'chinese'}"

    # Start the table as a player does: four names typed into the start form.
    page.goto(live_server.url + "/")
    for i, name in enumerate(names):
        page.locator(f'input[name="name_{i}"]').fill(name)
    check(page, "start form", names, english)
    page.locator(".start-form > button.primary").click()
    expect(page.locator("#tallies")).to_be_visible()
    mcr = GameSession.objects.get()
    assert list(mcr.players) == names
    # The table's page is live: each change below would have it fetch its tallies
    # while this thread writes the next, and the in-memory SQLite this thread shares
    # with the live server once refused such a write ("database table is locked").
    page.goto("about:blank")
    mcr.record_round(uuid.uuid4(), {"kind": "win", "mode": "tiles", "winner": 1,
                                    "discarder": 2, "hand": HAND})  # fmt: skip
    mcr.record_round(uuid.uuid4(), {"kind": "draw"})
    sichuan = make_table("sichuan", names)
    sichuan.params = dict(sichuan.rules.params)
    sichuan.save()
    for event in (
        {"type": "kong", "player": 0, "kong": "concealed"},
        {"type": "kong", "player": 2, "kong": "exposed", "discarder": 1},
        {"type": "win", "discarder": 1, "winners": [{"seat": 3, "hand": PUNGS}]},
        {"type": "wall_end", "hands": WALL_END},
        {"type": "kong", "player": 1, "kong": "added"},  # round 2, in progress
    ):
        sichuan.add_event(uuid.uuid4(), event)

    base = f"{live_server.url}/s/"
    pages = {
        "table": f"{base}{mcr.code}/",
        "home with its tables": live_server.url + "/",
        "round": f"{base}{mcr.code}/rounds/1/",
        "drawn round": f"{base}{mcr.code}/rounds/2/",
        "ledger": f"{base}{mcr.code}/ledger",
        "correct round 1": f"{base}{mcr.code}/rounds/1/edit",
        "sichuan table": f"{base}{sichuan.code}/",
        "sichuan round": f"{base}{sichuan.code}/rounds/1/",
        "sichuan ledger": f"{base}{sichuan.code}/ledger",
        "sichuan win": f"{base}{sichuan.code}/record?kind=win",
        "sichuan kong": f"{base}{sichuan.code}/record?kind=kong",
        "sichuan wall": f"{base}{sichuan.code}/record?kind=wall_end",
    }
    for what, url in pages.items():
        page.goto(url)
        check(page, what, names, english)
    # Which player is this phone: every name whole on its button (two lines at most).
    page.goto(pages["table"])
    for i, name in enumerate(names):
        button = page.locator(f'.whoami-seats button[value="{i}"]')
        assert button.get_attribute("title") == name
    snap(page, f"table-{shot}")
    # A ledger row opened: the round's fans and payments.
    page.goto(pages["sichuan ledger"])
    page.locator("#round-1 > summary").click()
    expect(page.locator("#round-1 .round-detail .event").first).to_be_visible()
    check(page, "sichuan ledger row", names, english)

    # The record page with a winner and a whole hand: the fans, the payments.
    page.goto(f"{base}{mcr.code}/record")
    tap(page, "winner:1")
    tap(page, "from:2")
    for code in ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4p", "5p", "6p", "7z", "7z"]:
        page.locator(f"#g-{code}").click()
    expect(page.locator(".pk-total")).to_be_visible()
    check(page, "record with result", names, english)
    # Fan names in the page's language; the other one on demand (the header's 中/EN).
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
    snap(page, f"record-{shot}")
    tap(page, "mode:quick")
    expect(page.locator(".pk-quick")).to_be_visible()
    check(page, "quick entry", names, english)


def test_the_language_toggle_is_offered_only_where_it_shows_something(
    page: Page, live_server: LiveServer, language: str
) -> None:
    session = make_table("mcr", LATIN)
    session.record_round(uuid.uuid4(), {"kind": "win", "mode": "tiles", "winner": 1,
                                        "discarder": 2, "hand": HAND})  # fmt: skip
    base = f"{live_server.url}/s/{session.code}/"
    for url, offered in (
        (live_server.url + "/", False),
        (base, False),
        (base + "rounds/1/", True),  # fan names
        (base + "record", True),  # fan names come with the hand
        (base + "ledger", True),  # a round's details open in place
    ):
        page.goto(url)
        expect(page.locator(".bi-toggle")).to_be_visible() if offered else expect(
            page.locator(".bi-toggle")
        ).to_be_hidden()
    # Without the toggle the English header fits one row above the page.
    page.goto(base)
    header = page.locator(".site-title").bounding_box()
    switch = page.locator(".lang-switch").bounding_box()
    assert header and switch and abs(header["y"] - switch["y"]) < 20, (header, switch)


# Names alike at the start: "欧阳…" on three buttons would tell nobody
# who was who.  Each set: what a table really has, then the worst a table takes (16
# characters, one differing in its last).
ALIKE = {
    "zh-short": ["欧阳长风", "欧阳长云", "欧阳明", "司马懿"],
    "zh-long": [
        "欧阳长风慕容雪上官云飞司马懿然君",
        "欧阳长风慕容雪上官云飞司马懿然臣",
        "欧阳长风慕容雪",
        "上官云飞",
    ],
    "latin-short": ["Alexander", "Alexandra", "Alex", "Bob"],
    "latin-long": ["Maximilian-Alexa", "Maximilian-Alexb", "Maximilian", "Bartholomew-Jone"],
}

# What a name's box shows of it: the characters drawn inside the box, less those
# an ellipsis covers at the end of its last line when the name is cut.
SHOWN = """el => {
  const node = el.firstChild;
  if (!node || node.nodeType !== 3) return el.textContent;
  const box = el.getBoundingClientRect();
  const cut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const em = parseFloat(getComputedStyle(el).fontSize);
  const range = document.createRange();
  const text = node.textContent;
  let shown = '';
  for (let i = 0; i < text.length; i++) {
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const r = [...range.getClientRects()].find(r => r.width > 0);
    if (!r || r.bottom > box.bottom + 0.5 || r.right > box.right + 0.5) break;
    if (cut && r.bottom > box.bottom - r.height + 0.5 && r.right > box.right - em) break;
    shown += text[i];
  }
  return shown;
}"""


def shown_names(row: Locator) -> dict[str, str]:
    """Each name button of the row (a `.rec-seats` fieldset): its name -> what shows."""
    out = {}
    buttons = row.locator("button[title]")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        out[b.get_attribute("title") or ""] = b.locator(".nm").evaluate(SHOWN)
    return out


def assert_told_apart(page: Page, what: str, names: list[str]) -> None:
    rows = page.locator(".rec-seats")
    assert rows.count() >= 2, what
    for k in range(rows.count()):
        shown = shown_names(rows.nth(k))
        assert len(shown) >= 2, (what, k)
        for name, part in shown.items():
            assert part and name.startswith(part), (what, name, part)
        assert len(set(shown.values())) == len(shown), (what, k, shown)
    check(page, what, names, english=False)


@pytest.mark.parametrize("names", list(ALIKE.values()), ids=list(ALIKE))
def test_names_alike_are_told_apart_on_the_seat_buttons(
    page: Page, live_server: LiveServer, language: str, names: list[str]
) -> None:
    mcr = make_table("mcr", names)
    page.goto(f"{live_server.url}/s/{mcr.code}/record")
    tap(page, "winner:3")  # the discarder's row: the other three
    assert_told_apart(page, "record", names)
    for b in page.locator(".rec-seats button[title]").all():
        # Its accessible name is its whole name: starts with what is shown.
        assert b.get_attribute("aria-label") is None
        assert b.locator(".nm").inner_text() == b.get_attribute("title")
    snap(page, f"record-{language}")

    sichuan = make_table("sichuan", names)
    sichuan.params = dict(sichuan.rules.params)
    sichuan.save()
    page.goto(f"{live_server.url}/s/{sichuan.code}/record?kind=win")
    tap(page, "winner:3")
    assert_told_apart(page, "sichuan win", names)
    page.goto(f"{live_server.url}/s/{sichuan.code}/record?kind=kong")
    tap(page, "kong:exposed")
    assert_told_apart(page, "sichuan kong", names)
