"""The end of the evening: close a table (结束本桌), reopen it, and its final page and
picture (what they show: scorer/present/final.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import RuleError
from scorer.clean.text import NOTE, TextRefused, clean_text
from scorer.language import rule_error_text
from scorer.models import GameSession
from scorer.models.money import FEE, TIME, ZERO
from scorer.present.fee import clock_view
from scorer.present.final import picture, summary
from scorer.services import phone
from scorer.services.access import session_or_404
from scorer.views import HtmxHttpRequest
from scorer.views.live_pages import live_page
from scorer.web.htmx_answers import go

__all__ = ["close", "final", "final_svg", "picture_page", "reopen"]


@require_safe
def final(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """结算: the result, who pays whom, close or reopen; it follows the table live
    (a close, a reopen or a fix on another phone: scorer/views/live_pages.py)."""
    session = session_or_404(code)
    phone.hold(request, session)  # a result page is shared by its link: it opens the table
    return live_page(request, "scorer/final.html", session, lambda: _final_context(session))


def _final_context(session: GameSession) -> dict[str, Any]:
    context = summary(session)
    context["history"] = list(session.changes.all())
    context["player_links"] = [
        {"name": s.player.name, "url": reverse("scorer:player", args=[s.player.slug])}
        for s in session.seats.select_related("player").order_by("seat")
    ]
    # The 计时 fee in 元, apart from the points and their settle-up: what each seat owes
    # the room for the table's time (the room collects it; docs/fees.md).
    if session.rules.time_fee.charges or session.rules.fee.yuan:
        context["clock"] = clock_view(session) if session.rules.time_fee.charges else None
        context["money_lines"] = money_lines(session)
    return context


def money_lines(session: GameSession) -> list[dict[str, Any]]:
    """What a closed table owes the room in 元, each kind of fee its own line (计时费,
    a fee set in 元 such as 大赢家付), each with its seats' shares."""
    if session.closed_at is None:
        return []
    names = [str(n) for n in session.players]
    by_kind: dict[str, list[Decimal]] = {}
    for seat, kind, amount in session.charges.filter(undone_at__isnull=True).values_list(
        "seat", "kind", "amount"
    ):
        shares = by_kind.setdefault(kind, [ZERO] * len(names))
        if seat < len(names):
            shares[seat] += amount
    labels = {TIME: gettext("Time fee"), FEE: gettext("Table fee (yuan)")}
    return [
        {
            "label": labels[kind],
            "kind": kind,
            "shares": [{"name": n, "amount": a} for n, a in zip(names, shares, strict=True) if a],
        }
        for kind, shares in sorted(by_kind.items(), key=lambda k: k[0] != TIME)
    ]


@require_safe
def final_svg(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The final page as one picture (1080 px wide: a chat message's width), in SVG;
    the page turns it into a PNG on the phone, where the fonts for the names are."""
    session = session_or_404(code)
    context = picture(session)
    body = render_to_string("scorer/final.svg", context, request=request)
    return HttpResponse(body, content_type="image/svg+xml; charset=utf-8")


@require_safe
def picture_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The result as one picture, on a page of its own (what "Save as a picture" opens
    without script, and where a phone keeps it on screen to show): it follows the
    table live, the picture asked again at each new version."""
    session = session_or_404(code)
    return live_page(request, "scorer/picture.html", session, lambda: {"session": session})


def _back(request: HtmxHttpRequest, session: GameSession) -> HttpResponse:
    return go(request, reverse("scorer:final", args=[session.code]))


@require_POST
def close(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """结束本桌 (after the page's confirm step): the table becomes read-only."""
    session = session_or_404(code)
    try:
        done = session.close(author=phone.my_name(request, session))
    except RuleError as e:
        messages.warning(request, rule_error_text(e))
        return go(request, reverse("scorer:session", args=[session.code]))
    if done:
        messages.success(request, gettext("The table is closed. Here is how everyone settles."))
    else:
        messages.info(request, gettext("The table was closed already."))
    return _back(request, session)


@require_POST
def reopen(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Open a closed table again, with a note in its history."""
    session = session_or_404(code)
    try:
        note = clean_text(NOTE, request.POST.get("note") or "")
    except TextRefused as e:  # nothing reopened: the page says why
        messages.warning(request, e.message)
        return _back(request, session)
    if session.reopen(author=phone.my_name(request, session), note=note):
        messages.success(request, gettext("The table is open again."))
        return go(request, reverse("scorer:session", args=[session.code]))
    messages.info(request, gettext("The table is open."))
    return _back(request, session)
