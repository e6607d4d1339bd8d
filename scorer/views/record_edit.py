"""Correct a past round: the record form (scorer/views/record.py) prefilled with the
round's current version; confirming adds a revision, never overwrites one.

Apart from `record.py` because correcting has its own races (a correction made on
another phone meanwhile, a double tap) and its own way out (back to the round).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from rules import RuleError
from rules.registry import get_ruleset
from scorer.entry.pick import Pick
from scorer.entry.round_edit import pick_of_entry
from scorer.language import rule_error_text
from scorer.models import GameSession, Round, RoundRevision, StaleRevision
from scorer.present.words import recorded_message
from scorer.record.page import round_summary
from scorer.record.request import author, render_form, who_records
from scorer.services import phone
from scorer.services.access import closed_redirect, round_or_404, session_or_404
from scorer.views import HtmxHttpRequest
from scorer.views.record import posted_pick
from scorer.views.record_edit_events import edit_events
from scorer.web.htmx_answers import go, refused_status

__all__ = ["edit"]


@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """Correct a past round: the record form prefilled; confirming adds a revision."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    rnd = round_or_404(session, number)
    if rnd.current is None:
        raise Http404("this round has no version to correct")
    if rnd.current.kind in RoundRevision.NOT_HANDS:
        # An adjustment or a penalty has its own small form (scorer/views/adjust.py).
        return go(request, reverse("scorer:adjust_edit", args=[session.code, rnd.number]))
    if rnd.current.kind == RoundRevision.ROUND:
        # A round played as events is corrected a step at a time, on the event form.
        return edit_events(request, session, rnd)
    if request.method == "GET":
        p = pick_of_entry(rnd.current.entry, rnd)
        p.author = phone.my_name(request, session)
        return render_form(request, session, p, editing=rnd)
    if "confirm" not in request.POST:
        p, message, _ = posted_pick(request, session, Pick)
        return render_form(request, session, p, message, editing=rnd)
    return _confirm_edit(request, session, rnd, rnd.current)


def _confirm_edit(
    request: HtmxHttpRequest, session: GameSession, rnd: Round, current: RoundRevision
) -> HttpResponse:
    """确认 on a correction of `rnd` (`current`: its version as loaded now): a new
    version, once, never silently over one made meanwhile."""
    rs = get_ruleset(session.ruleset)
    p = Pick.read(request.POST, session, rs)
    who_records(request, session, p)
    refused = refused_status(request, 400)
    if msg := p.missing():
        return render_form(request, session, p, msg, rnd, status=refused, refused=True)
    done = reverse("scorer:round", args=[session.code, rnd.number])
    entry = p.entry()
    if pick_of_entry(current.entry, rnd).entry() == entry:
        # Nothing to correct: unchanged, or a double tap whose first tap saved it.
        # (Back to the round; unlike record_request.done, the phone's new-round entry is kept.)
        return go(request, done)
    try:
        # base: the revision this form was opened on, checked under the row lock, so
        # a correction made meanwhile (one after another or at the same moment) is
        # never silently written over.
        rnd.revise(entry, author(request, session, p), base=p.base)
    except StaleRevision as stale:
        rnd.current = stale.current
        if pick_of_entry(stale.current.entry, rnd).entry() == entry:
            # The same correction made meanwhile (a double tap, or another phone).
            return go(request, done)
        # Someone else corrected the round since this form was opened: show it
        # before replacing their version (the next confirm does, deliberately).
        p.base = stale.current.number
        msg = gettext(
            "This round was corrected on another phone meanwhile. "
            "Check it and confirm again to replace that correction."
        )
        status = refused_status(request, 409)
        return render_form(
            request, session, p, msg, rnd, status, stale=round_summary(session, rnd), refused=True
        )
    except RuleError as e:
        return render_form(
            request, session, p, rule_error_text(e), rnd, status=refused, refused=True
        )
    messages.success(request, recorded_message(rnd, corrected=True))
    return go(request, done)
