"""Readers of a page as a browser sees it: the form's state it would post next, the
messages, the buttons and what the record page's preview lists.

The tests drive the pages through Django's test client; what a browser would read
off the page (hidden inputs, the chosen options) is read here, once.
"""

from __future__ import annotations

import html as htmllib
import re

from tests.pages import text_of

# A hidden input as the templates write it: the form's state between taps.
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def state_of(page: str) -> dict[str, str]:
    """What the browser would post next: the hidden inputs and the option each select
    has chosen (the dealer, the prevailing wind, who records: 'me').

    One reader for every record page (a whole round or one event, the record page or
    the correction's step) and for the start form's selects."""
    data = {k: htmllib.unescape(v) for k, v in HIDDEN.findall(page) if k != "csrfmiddlewaretoken"}
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        if chosen:
            data[name] = htmllib.unescape(chosen.group(1))
    return data


def tap_message(page: str) -> str:
    m = re.search(r'<p class="pk-msg pk-msg-tap" role="alert">(.*?)</p>', page, re.S)
    return htmllib.unescape(m.group(1)) if m else ""


def result_message(page: str) -> str:
    m = re.search(r'<p class="pk-msg pk-msg-result" role="alert">(.*?)</p>', page, re.S)
    return htmllib.unescape(m.group(1)) if m else ""


def confirm_enabled(page: str) -> bool:
    m = re.search(r'<button type="submit" class="pk-confirm"[^>]*>', page, re.S)
    assert m, "no confirm button"
    # aria-disabled, not disabled: a tap on it is still answered (static/js/taps.js).
    return 'aria-disabled="true"' not in m.group(0)


def button(page: str, value: str) -> str:
    m = re.search(rf'<button[^>]*value="{re.escape(value)}"[^>]*>', page)
    assert m, f"no button {value}"
    return m.group(0)


def disabled(page: str, value: str) -> bool:
    return re.search(r"\sdisabled[\s>]", button(page, value)) is not None


def pressed(page: str, value: str) -> bool:
    return 'aria-pressed="true"' in button(page, value)


def transfers(page: str) -> list[tuple[str, str, int]]:
    """This event's payments as the preview lists them: (payer, payee, amount)."""
    return [(a, b, n) for a, b, n, _ in transfers_with_reasons(page)]


def transfers_with_reasons(page: str) -> list[tuple[str, str, int, str]]:
    rows = re.findall(
        r'<span class="ev-who">(.*?) → (.*?)</span> <b>(\d+)</b> <small>(.*?)</small>', page
    )
    return [(a, b, int(n), htmllib.unescape(r)) for a, b, n, r in rows]


def checks(page: str) -> list[tuple[str, str]]:
    """The wall's end statuses the preview shows: (name, pig | not_ready | ready)."""
    rows = re.findall(r'<li class="ev-(\w+)">\s*<span class="ev-check-name">(.*?)</span>', page)
    return [(name, status) for status, name in rows]


def taken_panel(page: str) -> str:
    m = re.search(r'<section class="rec-taken".*?</section>', page, re.S)
    return text_of(m.group(0)) if m else ""


def form_data(page: str) -> dict[str, str]:
    """What a browser would send: every field as the page fills it."""
    data = dict(
        re.findall(r'<input type="(?:text|number|hidden)" name="([^"]+)" value="([^"]*)"', page)
    )
    for name, value in re.findall(
        r'<input type="(?:text|number|hidden)" name="([^"]+)"[^>]*value="([^"]*)"', page
    ):
        data.setdefault(name, value)
    for name in re.findall(r'<input type="checkbox" name="([^"]+)"[^>]*checked', page):
        data[name] = "on"
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = chosen.group(1) if chosen else ""
    return data
