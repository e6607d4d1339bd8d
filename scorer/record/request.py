"""The record page's request as both flows (a round picked whole, a round recorded
event by event) read and answer it: the taps it carries, who records, what of it
keeps a fold open, and the answer once the entry is in or dropped.

Request handling for scorer/views/record*.py, beside scorer/services/access.py and
scorer/services/phone.py: the form's state itself is read by scorer/entry, shown by
scorer/record/page.py.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext

from scorer.entry.pick import MAX_TAPS, Pick
from scorer.htmx_answers import HtmxHttpRequest, go
from scorer.models import GameSession, Round, RoundRevision
from scorer.record.page import Asked
from scorer.services import phone


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


def recorded_message(rnd: Round, corrected: bool = False) -> str:
    """What the table says once a line is recorded (or corrected): a hand by its
    place among the hands, "第 3 局已记录" (Round.hand_number: the line's own number
    counts the adjustments, penalties and fees too), the other lines by their kind,
    never as a 局."""
    kind = rnd.current.kind if rnd.current is not None else ""
    if kind == RoundRevision.ADJUST:
        return gettext("Adjustment corrected.") if corrected else gettext("Adjustment recorded.")
    if kind == RoundRevision.PENALTY:
        return gettext("Penalty corrected.") if corrected else gettext("Penalty recorded.")
    number = rnd.hand_number() or rnd.number
    if corrected:
        return gettext("Round %(number)s corrected.") % {"number": number}
    return gettext("Round %(number)s recorded.") % {"number": number}
