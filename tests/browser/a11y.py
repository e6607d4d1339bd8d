"""Accessibility checks for the browser tests: axe-core, and the site's own
computed-style checks for what axe leaves to a person (text size, and contrast
where axe can only say "needs review").

* ``axe_violations(page)`` injects axe-core (npm, ``node_modules/axe-core``,
  installed by ``make node``; see package.json) into the page as it is now --
  after taps, with a fold open -- and runs the WCAG 2.0/2.1 A and AA rules.
  axe is evaluated through the DevTools protocol, which the site's
  Content-Security-Policy does not apply to; nothing is added to the page.
* ``small_text(page)`` lists every visible text a player reads set under
  14 px (the project's floor, guide.md), less the allowed exceptions
  (``SMALL_TEXT_ALLOWED``, each with why).
* ``low_contrast(page)`` measures the contrast of every visible text node
  itself, from computed styles (colours read back through a canvas, so any CSS
  colour syntax works, color-mix() included; backgrounds composited up the
  ancestors, opacity applied; SVG text by its fill). It is the check for what axe
  reports as *incomplete* (single characters, SVG text, text over a sticky bar)
  and is run over the whole page, not only those nodes. A field's placeholder, while
  it shows, is measured too (its ``::placeholder`` colour over the field), which axe
  leaves out.
* ``check_page(page, label)`` runs all three in the current colour scheme and
  text size; ``check_all_modes`` in light and dark, normal and large text.

Written here rather than taken from a package: axe-core is the library; the
Python packages wrapping it (axe-playwright-python, axe-selenium-python) ship
their own older copy of axe and have no text-size or SVG-contrast check.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_MISSING = (
    f"{AXE_JS} is missing: run `make node` (npm ci) -- the accessibility checks "
    "are browser tests and need axe-core from package-lock.json"
)

# WCAG 2.1 level AA: the A and AA rules of 2.0 and 2.1 (axe's tags).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

MIN_TEXT_PX = 14.0
# WCAG 1.4.3: 4.5:1, or 3:1 for large text (>= 24 px, or >= 18.66 px bold).
MIN_CONTRAST = 4.5
MIN_CONTRAST_LARGE = 3.0

# Text under 14 px that is allowed, as CSS selectors matched against the text's
# element (closest()), each with why.
SMALL_TEXT_ALLOWED: dict[str, str] = {
    # Screen-reader-only text: 1 px box, never seen.
    ".visually-hidden": "read by screen readers only, never shown",
    # The share QR code is an image of modules, its <path>s carry no text.
}

_AXE_RUN = """async ([tags, rules]) => {
  const r = await axe.run(document, {
    runOnly: rules ? {type: 'rule', values: rules} : {type: 'tag', values: tags},
    resultTypes: ['violations', 'incomplete'],
  });
  const brief = (items) => items.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({
      target: n.target.join(' '), html: n.html.slice(0, 160),
      summary: (n.failureSummary || '').slice(0, 300),
    })),
  }));
  return {violations: brief(r.violations), incomplete: brief(r.incomplete)};
}"""


def _inject_axe(page: Page) -> None:
    if page.evaluate("typeof window.axe") == "object":
        return
    assert AXE_JS.is_file(), AXE_MISSING
    # Evaluated as a function body: axe's UMD wrapper sets window.axe.
    page.evaluate("() => {" + AXE_JS.read_text(encoding="utf-8") + "\n}")
    assert page.evaluate("typeof window.axe") == "object", "axe-core did not load"


def axe_results(page: Page, rules: Sequence[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """axe-core's violations and incompletes on the page as it is: the WCAG 2.1 A + AA
    rules, or only ``rules`` (axe's rule ids) when given."""
    _inject_axe(page)
    result: dict[str, list[dict[str, Any]]] = page.evaluate(
        _AXE_RUN, [AXE_TAGS, list(rules) if rules else None]
    )
    return result


def axe_violations(page: Page, rules: Sequence[str] | None = None) -> list[dict[str, Any]]:
    return axe_results(page, rules)["violations"]


# What the dark theme and large text change is colour and size; the page's words,
# structure and names are the same as in the light theme at normal size, which runs
# every rule. In those modes axe runs its colour rule, beside the site's own checks of
# size, contrast and width (``page_problems``).
AXE_RULES_OF_A_MODE = ("color-contrast",)


# Every visible text node: its element, font size and weight, the contrast of its
# colour over the backgrounds under it. Colours are parsed by a canvas (fillStyle
# takes any CSS colour and getImageData returns sRGB bytes).
_TEXTS = """() => {
  const cv = document.createElement('canvas'); cv.width = cv.height = 1;
  const cx = cv.getContext('2d', {willReadFrequently: true});
  const rgba = (css) => {
    cx.clearRect(0, 0, 1, 1); cx.fillStyle = '#000'; cx.fillStyle = css;
    cx.fillRect(0, 0, 1, 1);
    const d = cx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, bottom) => {  // top (with alpha) composited over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  const visible = (el) => {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const background = (el) => {
    // The layers from the root down to el, composited; opacity multiplies down.
    const chain = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) chain.unshift(e);
    let bg = rgba(getComputedStyle(document.documentElement).backgroundColor);
    if (bg[3] < 1) bg = over(bg, [255, 255, 255, 1]);
    for (const e of chain) {
      const s = getComputedStyle(e);
      if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) {
        if (e.tagName === 'rect' && s.fill && s.fill !== 'none') {
          const f = rgba(s.fill); f[3] *= parseFloat(s.fillOpacity || '1');
          bg = over(f, bg);
        }
        continue;
      }
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) bg = over(c, bg);
    }
    return bg;
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    return o;
  };
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.data.trim()) continue;
    const el = n.parentElement;
    if (!el || seen.has(el) || el.closest('script, style, template, noscript, option, title')) continue;
    seen.add(el);
    if (!visible(el)) continue;
    const s = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    let fg = rgba(svg ? s.fill : s.color);
    fg[3] *= opacity(el) * (svg ? parseFloat(s.fillOpacity || '1') : 1);
    const bg = background(el);
    // A background image (the tiles' gradient, none yet) would make this a guess.
    const text = Array.from(el.childNodes).filter(c => c.nodeType === 3).map(c => c.data).join('').trim();
    let size = parseFloat(s.fontSize);
    if (svg) {  // an SVG's user units are scaled to its box: the size on screen
      const box = el.getBoundingClientRect(); const em = el.getBBox ? el.getBBox() : null;
      if (em && em.height > 0) size = size * box.height / em.height;
    }
    const sel = el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    out.push({
      text: text.slice(0, 40), sel, size, weight: parseInt(s.fontWeight, 10) || 400,
      ratio: ratio(over(fg, bg), bg), ancestors: (() => {
        const p = []; for (let e = el; e && e !== document.body; e = e.parentElement) p.push(e);
        return p.length;
      })(),
      allowed: null, el_index: out.length,
      // WCAG 1.4.3 exempts inactive controls (disabled buttons, at opacity .4).
      disabled: !!el.closest(':disabled, [aria-disabled="true"]'),
    });
    el.setAttribute('data-a11y-text', String(out.length - 1));
  }
  // A field's placeholder, while it shows (the field empty): text a player reads, which
  // axe does not measure. Its colour is the ::placeholder's, over the field's background.
  document.querySelectorAll('input[placeholder], textarea[placeholder]').forEach(el => {
    const text = (el.getAttribute('placeholder') || '').trim();
    if (!text || el.value !== '' || !visible(el)) return;
    const ps = getComputedStyle(el, '::placeholder');
    const fg = rgba(ps.color);
    fg[3] *= opacity(el) * parseFloat(ps.opacity || '1');
    const bg = background(el);
    const sel = (el.id ? '#' + el.id : el.tagName.toLowerCase()) + '::placeholder';
    out.push({
      text: text.slice(0, 40), sel, size: parseFloat(ps.fontSize),
      weight: parseInt(ps.fontWeight, 10) || 400, ratio: ratio(over(fg, bg), bg),
      ancestors: 0, allowed: null, el_index: out.length, disabled: el.disabled,
    });
    el.setAttribute('data-a11y-text', String(out.length - 1));
  });
  return out;
}"""

_ALLOWED = """(sels) => {
  const hit = {};
  document.querySelectorAll('[data-a11y-text]').forEach(el => {
    for (const s of sels) if (el.closest(s)) { hit[el.getAttribute('data-a11y-text')] = s; break; }
    el.removeAttribute('data-a11y-text');
  });
  return hit;
}"""


def text_styles(page: Page, allowed: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every visible text on the page: where, how big, and its contrast ratio."""
    texts: list[dict[str, Any]] = page.evaluate(_TEXTS)
    rules = {**SMALL_TEXT_ALLOWED, **(allowed or {})}
    hits: dict[str, str] = page.evaluate(_ALLOWED, list(rules))
    for i, t in enumerate(texts):
        t["allowed"] = hits.get(str(i))
    return texts


def _large(t: dict[str, Any]) -> bool:
    return t["size"] >= 24 - 0.05 or (t["size"] >= 18.66 - 0.05 and t["weight"] >= 700)


def small_text(texts: list[dict[str, Any]]) -> list[str]:
    """Texts under 14 px that are not an allowed exception."""
    return [
        f"{t['size']:.2f}px {t['sel']}: {t['text']!r}"
        for t in texts
        if t["size"] < MIN_TEXT_PX - 0.01 and not t["allowed"]
    ]


def low_contrast(texts: list[dict[str, Any]]) -> list[str]:
    """Texts under WCAG AA's contrast (4.5:1; 3:1 for large text)."""
    bad = []
    for t in texts:
        floor = MIN_CONTRAST_LARGE if _large(t) else MIN_CONTRAST
        if t["ratio"] < floor - 0.005 and not t["allowed"] and not t["disabled"]:
            bad.append(
                f"{t['ratio']:.2f}:1 (< {floor}) {t['size']:.1f}px {t['sel']}: {t['text']!r}"
            )
    return bad


# WCAG 2.5.3 (label in name) where axe can only flag it for review (a single
# character, a face of two): a control's accessible name (aria-label) must start with
# the text it shows, letters and digits compared, spaces, punctuation and symbols
# ("−", "×", "(") left out.
_NAMES = """() => {
  const norm = (s) => (s || '').replace(/[\\s\\p{P}\\p{S}]/gu, '').toLowerCase();
  const out = [];
  document.querySelectorAll('button[aria-label], a[aria-label], summary[aria-label], [role=button][aria-label]').forEach(el => {
    if (!el.checkVisibility()) return;
    const shown = norm(el.innerText), name = norm(el.getAttribute('aria-label'));
    if (shown && !name.startsWith(shown)) out.push(
      `"${el.getAttribute('aria-label')}" shows "${el.innerText.replace(/\\s+/g, ' ').trim()}": ${el.outerHTML.slice(0, 100)}`);
  });
  return out;
}"""


def name_mismatches(page: Page) -> list[str]:
    """Controls whose accessible name does not start with what they show."""
    result: list[str] = page.evaluate(_NAMES)
    return result


def _format_axe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])})")
        for n in v["nodes"][:6]:
            lines.append(f"      {n['target']}  {n['html']}")
            if n["summary"]:
                lines.append("        " + n["summary"].replace("\n", " | "))
    return "\n".join(lines)


def page_problems(
    page: Page, allowed: dict[str, str] | None = None, rules: Sequence[str] | None = None
) -> dict[str, Any]:
    """axe's violations (of every WCAG A/AA rule, or of ``rules``), the small texts and
    the low-contrast texts, as they are now."""
    violations = axe_violations(page, rules)
    texts = text_styles(page, allowed)
    return {
        "axe": violations,
        "small": small_text(texts),
        "contrast": low_contrast(texts),
        "names": name_mismatches(page),
    }


def describe(label: str, problems: dict[str, Any]) -> str:
    parts = []
    if problems["axe"]:
        n = sum(len(v["nodes"]) for v in problems["axe"])
        parts.append(f"{label}: axe-core, {n} violating elements:\n" + _format_axe(problems["axe"]))
    if problems["small"]:
        parts.append(
            f"{label}: text under {MIN_TEXT_PX:g}px:\n  " + "\n  ".join(problems["small"][:30])
        )
    if problems["contrast"]:
        parts.append(f"{label}: contrast under AA:\n  " + "\n  ".join(problems["contrast"][:30]))
    if problems["names"]:
        parts.append(
            f"{label}: names not starting with what is shown:\n  "
            + "\n  ".join(problems["names"][:20])
        )
    if problems.get("scroll"):
        parts.append(f"{label}: sideways scrolling: {problems['scroll'][0]}")
    return "\n".join(parts)


MODES = [
    ("light", False),
    ("dark", False),
    ("light", True),
    ("dark", True),
]


def set_mode(page: Page, scheme: str, large: bool) -> None:
    """The colour scheme (as the phone's setting) and the large-text mode (the class
    the server renders on <html> when the phone chose it, see base.html)."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.evaluate("(on) => document.documentElement.classList.toggle('large-text', on)", large)


def check_all_modes(
    page: Page,
    label: str,
    allowed: dict[str, str] | None = None,
    modes: Sequence[tuple[str, bool]] = MODES,
) -> list[str]:
    """The checks in light and dark, normal and large text (or in ``modes``): a
    failure message per mode with any problem (empty when all pass). Every axe rule
    runs in the light theme at normal size (or the first of ``modes``), the colour
    rule in the others (``AXE_RULES_OF_A_MODE``). Leaves the page light, normal size."""
    failures = []
    full = ("light", False) if ("light", False) in modes else modes[0]
    try:
        for scheme, large in modes:
            set_mode(page, scheme, large)
            rules = None if (scheme, large) == full else AXE_RULES_OF_A_MODE
            problems = page_problems(page, allowed, rules)
            widths = page.evaluate(
                "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if widths[0] > widths[1]:
                problems["scroll"] = [f"content {widths[0]}px wide in a {widths[1]}px viewport"]
            if any(problems.values()):
                mode = f"{label} [{scheme}{', large text' if large else ''}]"
                failures.append(describe(mode, problems))
    finally:
        set_mode(page, "light", False)
    return failures
