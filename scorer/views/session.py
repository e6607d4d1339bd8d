"""The table's live page: follow its totals, undo, restore (starting one: start.py; the
ledger and rounds: ledger.py).

Plain function views.  Everything that changes a session goes through the
model's own methods (`record_round`, `undo_last`, `Round.revise`); what the page
shows is built by scorer/present/board.py; the views here route and answer.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from rules import RuleError
from scorer.clean.parse import int_or_none
from scorer.language import rule_error_text
from scorer.models import GameSession, Round
from scorer.present.board import board, events_round
from scorer.present.words import etag_of, line_label, round_label
from scorer.services import phone
from scorer.services.access import closed_redirect, session_or_404
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import go, page_or_partial
from scorer.web.share import qr_svg, share_link

__all__ = [
    "detail",
    "qr",
    "restore",
    "tallies",
    "undo",
    "undo_event",
    "whoami",
]


# --------------------------------------------------------------------------- the session page

# The tallies answered alone carry the table's navigation too (a close or a reopen
# on another phone takes 记一局 out of it or puts it back), marked as the scores page's.
LIVE_ANSWER = {"live_answer": True, "nav_here": "session"}


def _previous_totals(request: HtmxHttpRequest, n: int) -> list[int] | None:
    """The totals the polling page showed before ("was": "-8,69,-53,-8"), if it sent them."""
    read = [int_or_none(x) for x in request.GET.get("was", "").split(",")]
    was = [x for x in read if x is not None]
    return was if len(was) == len(read) == n else None


@require_safe
def detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    session = session_or_404(code)
    context = board(session, _previous_totals(request, session.n_players))

    def page_only() -> dict[str, Any]:
        """The page's own (the tallies swapped in by htmx are the live answer)."""
        phone.remember_table(request, session)
        share = share_link(request, reverse("scorer:session", args=[session.code]))
        return {
            "me_seat": phone.my_seat(request, session),
            "me_name": phone.my_name(request, session),
            "share_url": share.url,
            "share_loopback": share.loopback_only,
        }

    return page_or_partial(
        request, "scorer/session.html", "#tallies", context,
        page_only=page_only, partial_only=LIVE_ANSWER,
    )  # fmt: skip


@require_safe
def tallies(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The polled part of the session page; 304 while the session has not changed.

    Fetched when the table's stream says it changed (js/live.js), or polled while
    the stream is down.  A closed table's poll (X-Live-Poll) is answered "stop
    polling" (286) with the tallies: its page keeps its stream, so a reopen still
    reaches it."""
    session = session_or_404(code)  # only the session row before deciding
    etag = etag_of(session)
    stop = session.closed_at is not None and request.headers.get("X-Live-Poll") == "1"
    response = None if stop else get_conditional_response(request, etag=etag)
    if response is None:
        context = board(session, _previous_totals(request, session.n_players))
        response = render(request, "scorer/session.html#tallies", {**context, **LIVE_ANSWER})
        if stop:
            response.status_code = HttpResponseStopPolling.status_code
    response["ETag"] = etag  # (kept by the phone only, asked again: scorer/web/caching.py)
    return response


@require_safe
def qr(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The session link as a QR code (SVG), for the other phones at the table."""
    session = session_or_404(code)
    url = share_link(request, reverse("scorer:session", args=[session.code])).url
    return HttpResponse(qr_svg(url), content_type="image/svg+xml")  # kept a day (caching.py)


def _last_standing(session: GameSession) -> int | None:
    rounds = session.rounds.filter(status=Round.ACTIVE).order_by("-number")
    return rounds.values_list("number", flat=True).first()


def _not_undone(request: HtmxHttpRequest, session: GameSession, last: int) -> None:
    rnd = session.rounds.select_related("current").get(number=last)
    messages.warning(
        request,
        gettext(
            "Nothing was undone: the last line is now %(what)s. Check the totals and try again."
        )
        % {"what": round_label(rnd)},
    )


@require_POST
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Undo the last standing round, if it is still the one the page showed."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    last = _last_standing(session)
    if last is None:
        messages.info(request, gettext("There is no round to undo."))
    elif request.POST.get("round") != str(last):
        # Another phone changed the session since this page was loaded: undoing
        # "the last round" now would undo a round nobody looked at.
        _not_undone(request, session, last)
    else:
        # expected=last: re-checked under the session lock, closing the race between
        # the check above and the undo (two phones tapping at once undo one round).
        try:
            undone = session.undo_last(author=phone.my_name(request, session), expected=last)
        except RuleError:  # closed on another phone since the check above
            session.refresh_from_db(fields=["closed_at"])
            return closed_redirect(request, session) or HttpResponseRedirect(request.path)
        if undone is None:
            # Another phone undid it (or recorded one) between the check and the lock.
            now = _last_standing(session)
            if now is None:
                messages.info(request, gettext("There is no round to undo."))
            else:
                _not_undone(request, session, now)
        else:
            # This phone's entry in progress was made on the round just undone (its
            # dealer and wind, its number): dropped, not restored later as if another
            # phone had changed the table under it.
            phone.clear_draft(request, session)
            messages.success(
                request,
                gettext(
                    "%(what)s undone: it no longer counts. The ledger shows it, "
                    "struck through, under “Show undone rounds”."
                )
                % {"what": capfirst(round_label(undone))},
            )
    return go(request, reverse("scorer:session", args=[session.code]))


@require_POST
def undo_event(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Take back the last event of the last round played as events, if the
    page showed that round with that many events."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    names = list(session.players)
    last = (
        session.rounds.filter(status=Round.ACTIVE)
        .select_related("current")
        .order_by("-number")
        .first()
    )
    table = session.rules.table
    shown = events_round(last, names, table.reasons, table.scoring) if last is not None else None
    if last is None or shown is None or not shown["count"]:
        messages.info(request, gettext("There is no event to take back."))
    elif request.POST.get("round") != str(last.number) or request.POST.get("events") != str(
        shown["count"]
    ):
        # Another phone added or took back an event since this page was loaded:
        # "the last event" is now one nobody here has looked at.
        messages.warning(request, _changed_meanwhile(shown["hand"]))
    else:
        # expected: re-checked under the session lock (two phones tapping at once).
        try:
            rnd = session.undo_last(
                author=phone.my_name(request, session),
                expected=last.number,
                step=True,
                steps=shown["count"],
            )
        except RuleError:  # closed on another phone since the check above
            session.refresh_from_db(fields=["closed_at"])
            return closed_redirect(request, session) or HttpResponseRedirect(request.path)
        if rnd is not None:
            # This phone's entry in progress was opened on the events just changed:
            # dropped, so that 记和牌 opens on the round as it is, not on a stale entry
            # that would be blamed on "another phone" and refused once.
            phone.clear_draft(request, session)
        if rnd is None:
            messages.warning(request, _changed_meanwhile(shown["hand"]))
        elif rnd.status == Round.UNDONE:
            messages.success(
                request,
                gettext(
                    "Took back “%(event)s”, the only event of round %(number)s: the round "
                    "is undone: it no longer counts. The ledger shows it, struck through, under "
                    "“Show undone rounds”."
                )
                % {"event": shown["last"], "number": shown["hand"]},
            )
        else:
            messages.success(
                request,
                gettext("Took back the last event of round %(number)s: “%(event)s”.")
                % {"event": shown["last"], "number": shown["hand"]},
            )
    return go(request, reverse("scorer:session", args=[session.code]))


def _changed_meanwhile(number: int) -> str:
    """`number`: the round's "第 N 局" (Round.hand_number), not its line."""
    return gettext(
        "Nothing was taken back: round %(number)s changed on another phone meanwhile. "
        "Check the events and try again."
    ) % {"number": number}


@require_POST
def whoami(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """This phone says which player it is at this table (its name goes into the history)."""
    session = session_or_404(code)
    phone.set_my_seat(request, session, phone.read_seat(request.POST.get("seat"), session))
    return go(request, reverse("scorer:session", args=[session.code]))


@require_POST
def restore(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """Restore an undone round (redo): it counts again; its history keeps the undo."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    try:
        rnd = session.restore(number, author=phone.my_name(request, session))
    except RuleError as e:
        messages.warning(request, rule_error_text(e))
        rnd = None
    else:
        if rnd is None:
            # Named as the line is now ("第 3 局", "第 4 行：调整"); the URL's line number
            # names no line at all when there is none.
            line = session.rounds.select_related("current").filter(number=number).first()
            messages.info(
                request,
                gettext("%(what)s is not undone (restored on another phone?).")
                % {"what": capfirst(round_label(line) if line else line_label(None, number, None))},
            )
        else:
            messages.success(
                request,
                gettext("%(what)s restored: it counts again.")
                % {"what": capfirst(round_label(rnd))},
            )
    return go(request, reverse("scorer:session", args=[session.code]))
