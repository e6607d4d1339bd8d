"""What a phone's screen must look like: screenshots (test-artifacts/screenshots/),
nothing wider than the screen, touch targets a finger can hit, no word broken over
two lines.  Import them in a test module: ``from tests.support.layout import snap``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]


SCREENSHOT_DIR = ROOT / "test-artifacts" / "screenshots"


def _current_test_name() -> str:
    # "tests/browser/test_smoke.py::test_home[x] (call)" -> "test_home-x"
    current = os.environ.get("PYTEST_CURRENT_TEST", "test").split("::")[-1].split(" ")[0]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", current).strip("-")


def snap(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot as test-artifacts/screenshots/<test>-<name>.png.

    The whole page by default; ``full_page=False`` keeps only what the phone's
    screen shows at its current scroll position (sticky bars where they sit).
    """
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")
    path = SCREENSHOT_DIR / f"{_current_test_name()}-{safe}.png"
    # caret="initial": Playwright's default hides carets by giving every input an
    # inline style, which an htmx swap landing mid-screenshot could copy onto the new
    # element: a Content-Security-Policy violation the page never caused.
    # scale="css": one pixel per CSS pixel, not the phone's two: a tall page took 0.7-0.9 s
    # to encode at 2x and takes 0.3 s, and reads as well.
    page.screenshot(path=str(path), full_page=full_page, caret="initial", scale="css")
    return path


def assert_no_horizontal_scroll(page: Page) -> None:
    """The page must fit the viewport's width: nothing sticks out sideways."""
    widths = page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth,"
        " client: document.documentElement.clientWidth})"
    )
    assert widths["scroll"] <= widths["client"], (
        f"horizontal scroll: content is {widths['scroll']}px wide "
        f"in a {widths['client']}px viewport"
    )


def assert_touch_targets(page: Page, selector: str, min_px: float = 44) -> None:
    """Every visible element matching ``selector`` is at least ``min_px`` CSS px
    tall and wide.

    44 px is the default (Apple's HIG, WCAG 2.5.5 AAA): use it for buttons,
    inputs, tiles and navigation links. Links inside running text cannot be
    44 px tall without wrecking the line height; don't select them here, or
    pass ``min_px=24`` (WCAG 2.5.8 AA) for them explicitly. Half a pixel of
    slack absorbs sub-pixel rounding (2.75rem = 44px may measure 43.99).
    """
    # One round trip for every element (a locator per element took two each: 3.3 s
    # of test_table_flow's 38). Visible as Playwright's is_visible() has it: a box
    # that is not empty, and not hidden by display or visibility.
    too_small: list[str] = page.evaluate(
        """([selector, min]) => {
          const out = [];
          for (const e of document.querySelectorAll(selector)) {
            if (!e.checkVisibility({visibilityProperty: true})) continue;
            const box = e.getBoundingClientRect();
            if (box.width <= 0 || box.height <= 0) continue;
            if (box.width < min - 0.5 || box.height < min - 0.5)
              out.push(`${box.width.toFixed(1)}x${box.height.toFixed(1)}px: `
                + e.outerHTML.replace(/\\s+/g, ' ').slice(0, 120));
          }
          return out;
        }""",
        [selector, min_px],
    )
    assert not too_small, f"touch targets under {min_px}px ({selector}):\n" + "\n".join(too_small)


_BROKEN_WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !el.checkVisibility()) continue;
    for (const m of n.data.matchAll(/[A-Za-z]{2,}/g)) {
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                                        .map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(`${m[0]} (${el.tagName.toLowerCase()}.${el.className})`);
    }
  }
  return out;
}"""


def broken_words(page: Page) -> list[str]:
    """Every word of Latin letters on the page that runs over two lines ("Roun/ds"):
    each word's own box, measured by a Range over it, sits on one line or it is listed."""
    found: list[str] = page.evaluate(_BROKEN_WORDS)
    return found


def snap_page_and_screen(page: Page, name: str) -> None:
    """Two screenshots: the whole page (<name>) and what the phone's screen shows at
    its scroll position (<name>-screen), sticky bars where they sit."""
    snap(page, name)
    snap(page, f"{name}-screen", full_page=False)
