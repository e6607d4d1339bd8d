"""The record page's driver: one phone at the table, and the hands it taps.

The four players of the tests' tables are NAMES; a phone that has entered a win is
`winning_phone`.
"""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from rules.tiles import parse_tiles, tile_str
from scorer.models import GameSession
from tests.factories import by_tiles
from tests.pages import html
from tests.support.htmx import HTMX
from tests.support.state import state_of

NAMES = ["甲", "乙", "丙", "丁"]


# 一色三节高 + 三暗刻 ...: comfortably over the 8-fan minimum
WIN_TILES = "111222333m456p7z7z"


class Phone:
    """One phone at the table with the record page open: it reads the form's state
    back from each answer, adds one tap, posts it, as the browser does.

    The one record-page driver of the tests: the record page (a whole round, or one
    event: `kind` opens it on that event), a round's edit page (`number`), or any
    other page with the record form (`url`: a correction's step)."""

    def __init__(
        self,
        client: Client,
        session: GameSession,
        number: int | None = None,
        *,
        kind: str = "",
        url: str | None = None,
    ) -> None:
        self.client = client
        self.session = session
        code = session.code
        if number is None:
            self.page_url = reverse("scorer:record", args=[code])
        else:
            self.page_url = reverse("scorer:edit", args=[code, number])
        self.preview_url = reverse("scorer:preview", args=[code])
        self.confirm_url = reverse("scorer:confirm", args=[code])
        response = client.get(url or self.page_url + (f"?kind={kind}" if kind else ""))
        assert response.status_code == 200
        self.page = html(response)
        self.state = state_of(self.page)

    def tap(self, *taps: str) -> str:
        """Tap buttons one after another through htmx previews; the last partial."""
        for t in taps:
            response = self.client.post(self.preview_url, {**self.state, "tap": t}, **HTMX)
            assert response.status_code == 200, response.status_code
            self.page = html(response)
            self.state = state_of(self.page)
        return self.page

    def tiles(self, tiles: str) -> str:
        return self.tap(*(f"tile:{tile_str(t)}" for t in parse_tiles(tiles)))

    def confirm(self, htmx: bool = False, *, url: str | None = None, **extra: str) -> Any:
        """Confirm: to the confirm address, or to the edit page when editing a round, or
        to `url`."""
        if url is None:
            url = self.confirm_url if "round" not in self.state else self.page_url
        headers = HTMX if htmx else {}
        return self.client.post(url, {**self.state, "confirm": "1", **extra}, **headers)


def winning_phone(phone: Phone) -> Phone:
    phone.tap("winner:1", "from:2")
    phone.tiles(WIN_TILES)
    return phone


def tiles(s: str) -> list[str]:
    """One tap a tile, in order: "123m4p" -> ["tile:1m", "tile:2m", "tile:3m", "tile:4p"]."""
    out, digits = [], ""
    for ch in s:
        if ch.isdigit():
            digits += ch
        else:
            out += [f"tile:{d}{ch}" for d in digits]
            digits = ""
    return out


SEVEN_PAIRS = "1133m5577p99s1122z"  # 七对: a common hand two phones might both enter


def seven_pairs_phone(client: Client, session: GameSession) -> Phone:
    phone = Phone(client, session)
    phone.tap("winner:2", "from:self")
    phone.tiles(SEVEN_PAIRS)
    return phone


# A win as the record form sends it, for rounds recorded without the page.
ENTRY = by_tiles(winner=0, discarder=1)
