"""What the record and event pages share: the unfinished hand's hint and waits, the author cookie."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

from django.http import HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext, ngettext
from django_htmx.http import HttpResponseClientRedirect

from rules import waits
from rules.tiles import parse_tile, tile_str, tiles_str
from scorer.entry.pick import AUTHOR_COOKIE, AUTHOR_MAX, HAND_SIZE, Pick
from scorer.models import GameSession
from scorer.present.picker import FACES
from scorer.views import HtmxHttpRequest, author_of, is_zh


def _unfinished_hand(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any] | None:
    """`out` with what the winning hand still lacks (tiles, the win tile, its waits
    when one tile short), or None when the hand is complete."""
    if p.n_tiles < HAND_SIZE - 1:
        n = HAND_SIZE - p.n_tiles
        out["hint"] = ngettext(
            "Tap the tiles of the winning hand: %(n)s more.",
            "Tap the tiles of the winning hand: %(n)s more.",
            n,
        ) % {"n": n}
        return out
    if p.n_tiles == HAND_SIZE - 1:
        return _waits(session, p, out)
    if p.win_tile is None:
        out["hint"] = gettext("Choose the winning tile.")
        return out
    return None


def _waits(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any]:
    """One tile short: the engine's waits, shown as tiles to tap."""
    hand = p._tiles_hand()
    tiles = sorted((*p.concealed, *([p.win_tile] if p.win_tile is not None else [])))
    sit = {"ruleset": session.ruleset, "params": dict(session.resolved_params()),
           "concealed": tiles_str(tiles), "melds": hand.get("melds", []),
           "wild": [tile_str(t) for t in p.wild_kinds()]}  # fmt: skip
    w = waits(sit)
    if not w["ok"]:
        e = w["error"]
        out["message"] = e["message_zh"] if is_zh() else e["message"]
        return out
    out["waits"] = [FACES[parse_tile(c)] for c in w["waits"]]
    out["hint"] = (
        gettext("One tile short: tap the winning tile.")
        if out["waits"]
        else gettext("No tile completes this hand.")
    )
    return out


# ---------------------------------------------------------------- author


def _remembered(request: HtmxHttpRequest) -> str:
    """The name this phone recorded with last time (percent-encoded: cookies are ASCII)."""
    return unquote(request.COOKIES.get(AUTHOR_COOKIE, "")).strip()[:AUTHOR_MAX]


def _author(request: HtmxHttpRequest, p: Pick) -> str:
    return p.author or _remembered(request) or author_of(request)


def _done(request: HtmxHttpRequest, url: str, p: Pick) -> HttpResponse:
    response: HttpResponse = (
        HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    )
    if p.author:
        response.set_cookie(
            AUTHOR_COOKIE, quote(p.author), max_age=365 * 24 * 3600, samesite="Lax", httponly=True
        )
    return response
