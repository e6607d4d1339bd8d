"""Reading pages the way a player reads them: the text without its tags, one space
between words, entities resolved."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

_TAG = re.compile(r"<[^>]+>")


def text_of(page: str | bytes) -> str:
    """The words a page shows, in order, one space apart."""
    if isinstance(page, bytes):
        page = page.decode()
    return " ".join(htmllib.unescape(_TAG.sub(" ", page)).split())


def html(response: Any) -> str:
    """A response's body as text."""
    return response.content.decode()


def text(response: Any) -> str:
    """The words a response's page shows."""
    return text_of(html(response))
