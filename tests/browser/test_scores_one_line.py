"""Scores never break in the middle, and badges never cover a tile's face.

One table carries every digit shape at once: adjustments move 3, 47, 472, 1500,
16999 and 100000 points, a penalty and a win sit among them, and a last
adjustment leaves the players on +123456, −654321, +530858 and +7 (money at 0.5 a
point, a fee on each win).  Every page that shows a score is opened once per
language, and checked in light and dark, normal and large text (大字) on the
same load (the colour scheme is emulated and the large-text class toggled, as
tests/browser/a11y.py does): every number is on one line (one line box per
number, its text inside its own box), every label too (罚分, 调整, 开口, 合计 …),
and nothing scrolls sideways.  The saved picture (final.svg) is checked by its
text boxes: inside the picture, none overlapping another.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from scorer.models import GameSession
from scorer.models.rooms import RoomMember
from tests.browser.a11y import set_mode
from tests.factories import by_tiles, event, make_member, make_room, make_table, record
from tests.support.browser import sign_in, use_language
from tests.support.events import PUNGS
from tests.support.layout import snap
from tests.support.tables import WUHAN_ENTRY

pytestmark = pytest.mark.browser

NAMES = ["老王", "Bartholomew", "欧阳长风慕容雪上官云飞", "美玲"]
AMOUNTS = (3, 47, 472, 1500, 16999, 100000)  # 1 to 6 digits, each given and taken
TARGET = (123456, -654321, 530858, 7)  # the totals the table ends on
MODES = [("light", False), ("dark", False), ("light", True), ("dark", True)]

# Elements that hold a score (or a money amount), and labels that must stay whole.
SCORES = ".pts"
LABELS = (
    ".kind-mark, .ledger-foot .num, .ledger .num abbr, .fans td:first-child > .pk-zh,"
    " .fans th, .room-tag, .stat-grid dt, .ev-reason, .meld-name,"
    " .last-round-label, .ev-running-label, .money-label, .dealer-mark, .out-mark"
)

CHECK = """([scores, labels]) => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push('sideways scroll: ' + root.scrollWidth);
  const shown = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('.visually-hidden');
  // The lines a range's text takes: its rects merged where they share a line.
  const lines = range => {
    const rects = [...range.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5)
      .sort((a, b) => a.top - b.top);
    const ls = [];
    for (const r of rects) {
      const last = ls[ls.length - 1];
      if (last && r.top < last.bottom - 2) { last.bottom = Math.max(last.bottom, r.bottom); }
      else ls.push({top: r.top, bottom: r.bottom});
    }
    return {n: ls.length, rects};
  };
  const say = el => (el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 40)
    + '"').replace(/\\s+/g, ' ');
  const range = document.createRange();
  // Every score element: one line, its text inside its own box.
  for (const el of document.querySelectorAll(scores + ', ' + labels)) {
    if (!shown(el) || !el.textContent.trim()) continue;
    range.selectNodeContents(el);
    const {n, rects} = lines(range);
    if (n > 1) out.push('on ' + n + ' lines: ' + say(el));
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (cs.display !== 'inline') {
      for (const r of rects) {
        if (r.right > box.right + 1 || r.left < box.left - 1) {
          out.push('out of its box: ' + say(el)); break;
        }
      }
    }
    if (box.right > root.clientWidth + 0.5) out.push('past the screen: ' + say(el));
  }
  // Every number in the page's text: one line.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || !shown(el)) continue;
    for (const m of node.textContent.matchAll(/[+\\u2212-]?\\d[\\d.,:-]*\\d/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (lines(range).n > 1) out.push('number broken: ' + m[0] + ' in ' + say(el));
    }
  }
  return out.slice(0, 12);
}"""

# The saved picture: every text inside the picture, no two overlapping.
SVG_CHECK = """() => {
  const svg = document.documentElement;
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map(t => ({t, r: t.getBoundingClientRect()}))
    .filter(({r}) => r.width > 0);
  const out = [];
  const say = t => '"' + t.textContent.slice(0, 30) + '"';
  for (const {t, r} of texts) {
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
        || r.bottom > box.bottom + 0.5) out.push('outside: ' + say(t));
  }
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].r, b = texts[j].r;
      // Half a pixel of the boxes' slack: glyph boxes of two lines touch.
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 3) out.push('overlap: ' + say(texts[i].t) + ' / ' + say(texts[j].t));
    }
  }
  return {problems: out.slice(0, 12), count: texts.length, height: box.height,
          text: [...svg.querySelectorAll('text')].map(t => t.textContent)};
}"""


def balance(session: GameSession, target: tuple[int, ...]) -> dict[str, Any]:
    """The adjustment that moves the table's totals to `target` (a zero sum)."""
    # The room's take is the rest of the zero sum: the last player's total gives way.
    target = (*target[:-1], -sum(target[:-1]) - session.room_take())
    diff = [t - now for t, now in zip(target, session.tallies(), strict=True)]
    givers = [[s, -d] for s, d in enumerate(diff) if d < 0]
    takers = [[s, d] for s, d in enumerate(diff) if d > 0]
    lines = []
    for taker in takers:
        while taker[1]:
            giver = next(g for g in givers if g[1])
            amount = min(giver[1], taker[1], 100_000)  # an adjustment line's most
            lines.append({"from": giver[0], "to": taker[0], "amount": amount})
            giver[1] -= amount
            taker[1] -= amount
    return {"kind": "adjust", "reason": "协商", "lines": lines}


def build(live_server: LiveServer) -> tuple[dict[str, str], User]:
    """The tables, every page that shows one of their scores, and the room's owner
    (the dashboard is his)."""
    room = make_room("laoli", "老李棋牌室")
    (fixed,) = room.add_tables(1)
    owner = make_member(room, "boss", RoomMember.OWNER, "老板")
    fee = {"mode": "win_percent", "percent": 10, "cap": 0}
    table = make_table("mcr", NAMES, room=room, room_table=fixed, seated=True,
                       money_per_point=Decimal("0.5"), fee=fee)  # fmt: skip
    record(table, by_tiles(1, 2))
    for k, amount in enumerate(AMOUNTS):
        record(table, {"kind": "adjust", "reason": "借分",
                       "lines": [{"from": k % 4, "to": (k + 1) % 4, "amount": amount}]})  # fmt: skip
    record(table, {"kind": "penalty", "penalty": "false_win", "seat": 3})
    record(table, {"kind": "adjust", "reason": "x", "lines": [{"from": 0, "to": 1, "amount": 5}]})
    table.undo_last("老王")  # struck through in the ledger
    record(table, balance(table, TARGET))
    assert tuple(table.tallies())[:3] == TARGET[:3]
    closed = make_table("mcr", NAMES, room=room, fee={"mode": "aa", "amount": 10})
    record(closed, by_tiles(0, None))
    closed.close("老王")
    wuhan = make_table("wuhan", NAMES, room=room)
    record(wuhan, WUHAN_ENTRY)
    sichuan = make_table("sichuan", NAMES, room=room)
    sichuan.params = dict(sichuan.rules.params)
    sichuan.save()
    event(sichuan, {"type": "kong", "player": 0, "kong": "concealed"})
    event(sichuan, {"type": "win", "discarder": 1, "winners": [{"seat": 3, "hand": PUNGS}]})
    s = f"{live_server.url}/s/"
    player = table.seats.select_related("player").get(seat=1).player
    pages = {
        "table": f"{s}{table.code}/",
        "ledger": f"{s}{table.code}/ledger?undone=1",
        "round (win)": f"{s}{table.code}/rounds/1/",
        "round (adjustment)": f"{s}{table.code}/rounds/7/",
        "round (penalty)": f"{s}{table.code}/rounds/8/",
        "result": f"{s}{table.code}/final",
        "player": f"{live_server.url}/p/{player.slug}/",
        "dashboard": f"{live_server.url}/r/{room.slug}/manage/",
        "my tables": f"{live_server.url}/",  # the tables this phone opened above
        "closed ledger": f"{s}{closed.code}/ledger",
        "closed result": f"{s}{closed.code}/final",
        "wuhan round": f"{s}{wuhan.code}/rounds/1/",
        "wuhan ledger": f"{s}{wuhan.code}/ledger",
        "sichuan table": f"{s}{sichuan.code}/",
        "sichuan round": f"{s}{sichuan.code}/rounds/1/",
        "picture": f"{s}{table.code}/final.svg",
    }
    return pages, owner.user


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_scores_and_labels_stay_on_one_line(
    page: Page, live_server: LiveServer, language: str
) -> None:
    pages, owner = build(live_server)
    use_language(page, live_server.url, language)
    sign_in(page, live_server, owner)
    picture = pages.pop("picture")
    failures: list[str] = []
    for what, url in pages.items():
        page.goto(url)
        for scheme, large in MODES:
            set_mode(page, scheme, large)
            for problem in page.evaluate(CHECK, [SCORES, LABELS]):
                failures.append(f"{what} [{scheme}{', 大字' if large else ''}]: {problem}")
            if what in ("table", "ledger") and scheme == "light" and large:
                snap(page, f"{what}-{language}-large")  # for people to look at
        set_mode(page, "light", False)
    page.goto(picture)
    svg = page.evaluate(SVG_CHECK)
    # The picture as it is saved, for a person to look at (a screenshot of an SVG
    # document waits for ever on the whole page: the viewport is made its size).
    page.set_viewport_size({"width": 1080, "height": int(svg["height"])})
    snap(page, f"picture-{language}", full_page=False)
    # It says when, under which rules, in which room and at which table.
    day = timezone.localdate().isoformat()
    rules = "国标麻将" if language == "zh-hans" else "Chinese Official (MCR)"
    label = "1号桌" if language == "zh-hans" else "Table 1"
    assert svg["text"][2:4] == [f"{day} · {rules}", f"老李棋牌室 · {label}"], svg["text"][:4]
    failures += [f"picture: {p}" for p in svg["problems"]]
    assert not failures, "\n".join(failures)
