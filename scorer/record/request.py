"""The record page's request as both flows (a round picked whole, a round recorded
event by event) read and answer it: the taps it carries, who records, what of it
keeps a fold open, the form's answer (`render_form`: the page or its form's inside,
for a new entry, a correction or a step of one) and the answer once the entry is in
or dropped.

Request handling for scorer/views/record*.py, beside scorer/services/access.py and
scorer/services/phone.py: the form's state itself is read by scorer/entry, shown by
scorer/record/page.py.
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext

from scorer.entry.pick import MAX_TAPS, Pick
from scorer.models import GameSession, Round
from scorer.record.page import Asked, RoundSummary, record_page, refusal
from scorer.services import phone
from scorer.web.htmx_answers import HtmxHttpRequest, go, page_or_partial


def taps_of(request: HttpRequest) -> list[str]:
    """The taps a request carries, in the order they were made.

    One from a button; several when the taps made while an answer was on its way
    come together (static/js/taps.js), so that on a slow network the final hand
    and its score are one answer after the last tap, whatever their number.
    """
    return request.POST.getlist("tap")[:MAX_TAPS]


def asked(request: HttpRequest, session: GameSession) -> Asked:
    """What of the request the page shows beyond the form's state."""
    tap = request.POST.get("tap") if request.method == "POST" else None
    return Asked(
        tap=tap,
        # A select changed (htmx posts the form with no tap): keep dealer and wind open.
        where_open=request.method == "POST" and tap is None and "confirm" not in request.POST,
        me_seat=phone.my_seat(request, session),
    )


def who_records(request: HttpRequest, session: GameSession, p: Pick) -> None:
    """Read the bar's "recorded by" seat: the phone remembers it for this table."""
    if "me" in request.POST:
        phone.set_my_seat(request, session, phone.read_seat(request.POST.get("me"), session))
    if not p.author:
        p.author = phone.my_name(request, session)


def author(request: HttpRequest, session: GameSession, p: Pick) -> str:
    """Who the recorded version names: the form's author, else this phone's player."""
    return p.author or phone.my_name(request, session)


def done(request: HtmxHttpRequest, session: GameSession, url: str) -> HttpResponse:
    """The entry is recorded (or dropped): the phone forgets it, and goes to `url`."""
    phone.clear_draft(request, session)
    return go(request, url)


def dropped(request: HtmxHttpRequest, session: GameSession) -> HttpResponse:
    """The player drops an entry whose round another phone recorded first."""
    messages.info(request, gettext("Your entry was dropped; nothing was recorded from it."))
    return done(request, session, reverse("scorer:session", args=[session.code]))


def render_form(
    request: HtmxHttpRequest,
    session: GameSession,
    p: Pick,
    message: str = "",
    editing: Round | None = None,
    status: int = 200,
    stale: RoundSummary | None = None,
    refused: bool = False,
    step: int | None = None,
) -> HttpResponse:
    """The form's inside for htmx, else the whole page.  `stale`: the version another
    phone saved meanwhile, shown above a correction made from an older one;
    `refused`: the answer to a 确认 that recorded nothing (the bar says so, and why);
    `step`: the step of the round of events `editing` this form changes
    (record_edit_events.py)."""
    page = record_page(session, p, asked(request, session), message, editing)
    page = replace(page, stale=stale)
    if step is not None:
        page = page.with_step(step)
    if message and message == page.result.message:
        # A refused confirm of an event: its preview says it already.
        page = p.by_flow(lambda _: page, lambda _: replace(page, tap_message=""))
    if refused:
        page = refusal(page, message)
    return page_or_partial(
        request,
        "scorer/record/page.html",
        "scorer/record/form.html#form",
        page.context(),
        status=status,
    )
