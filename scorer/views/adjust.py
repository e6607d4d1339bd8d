"""Adjustments (调整) and the penalties a ruleset declares (逃跑, 错和), entered from
the table page: one small form, no tile picker.

Recorded as rounds of their own (kinds "adjust" / "penalty", scorer/scoring.py) through
`GameSession.record_round`, so the one-time token, the session's row lock, the round
number the form was opened for and the closed-table check are the ones every round
has; corrected through `Round.revise` with the revision the form was opened on.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from rules import RuleError
from scorer.clean.parse import MAX_ROUND, int_or_none
from scorer.language import rule_error_text
from scorer.models import GameSession, Round, RoundRevision, RoundTaken, StaleRevision
from scorer.present.adjust import adjust_data, adjust_entry, adjust_form
from scorer.present.words import recorded_message, round_label
from scorer.services import phone
from scorer.services.access import closed_redirect, round_or_404, session_or_404
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import expired_text, form_token, go, refused_status

__all__ = ["adjust", "adjust_edit"]


def _render(
    request: HtmxHttpRequest,
    session: GameSession,
    data: dict[str, Any],
    message: str = "",
    status: int = 200,
    editing: Round | None = None,
    token: str = "",
    base: int | None = None,
    number: int | None = None,
) -> HttpResponse:
    context = {
        "session": session,
        "data": data,
        "kind": data.get("kind") or "adjust",
        "message": message,
        "editing": editing,
        # A correction is titled by the line's kind: "修改第 4 行：调整", never a 局.
        "editing_label": round_label(editing) if editing is not None else "",
        "token": token or str(uuid.uuid4()),
        "base": base,
        "for_round": number if number is not None else session.next_number(),
        "author": phone.my_name(request, session),
        **adjust_form(session, data),
    }
    return render(request, "scorer/adjust.html", context, status=status)


@require_http_methods(["GET", "POST"])
def adjust(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Record an adjustment or a penalty as the next round, once."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    if request.method == "GET":
        kind = request.GET.get("kind", "adjust")
        data: dict[str, Any] = {"kind": kind if kind in ("adjust", "penalty") else "adjust"}
        return _render(request, session, data)
    post = request.POST
    data = {k: post.get(k) for k in post}
    refused = refused_status(request, 400)
    number = int_or_none(post.get("for_round"), 1, MAX_ROUND)
    token = form_token(post.get("token", ""))
    if token is None:
        return _render(request, session, data, expired_text(), refused)
    author = phone.my_name(request, session)
    try:
        rnd = session.record_round(token, adjust_entry(post, session), author, number=number)
    except RoundTaken as taken:
        msg = gettext(
            "Another phone recorded a round meanwhile. Check the scores, then confirm again "
            "to record this one as round %(number)s."
        ) % {"number": taken.next_number}
        return _render(request, session, data, msg, refused, token=str(token),
                       number=taken.next_number)  # fmt: skip
    except RuleError as e:
        msg = rule_error_text(e)
        return _render(request, session, data, msg, refused, token=str(token), number=number)
    messages.success(request, recorded_message(rnd))
    return go(request, reverse("scorer:session", args=[session.code]))


@require_http_methods(["GET", "POST"])
def adjust_edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """Correct an adjustment or a penalty: a new version, made from the one shown."""
    session = session_or_404(code)
    if (closed := closed_redirect(request, session)) is not None:
        return closed
    rnd = round_or_404(session, number)
    rev = rnd.current
    if rev is None or rev.kind not in RoundRevision.NOT_HANDS:
        raise Http404("not an adjustment or a penalty")
    if request.method == "GET":
        return _render(request, session, adjust_data(rev.entry), editing=rnd, base=rev.number)
    post = request.POST
    data = {k: post.get(k) for k in post}
    refused = refused_status(request, 400)
    base = int_or_none(post.get("base"), 1, MAX_ROUND)
    try:
        rnd.revise(adjust_entry(post, session), phone.my_name(request, session), base=base)
    except StaleRevision as stale:
        msg = gettext(
            "This round was corrected on another phone meanwhile. "
            "Check it and confirm again to replace that correction."
        )
        return _render(request, session, adjust_data(stale.current.entry), msg,
                       refused_status(request, 409), editing=rnd, base=stale.current.number)  # fmt: skip
    except RuleError as e:
        msg = rule_error_text(e)
        return _render(request, session, data, msg, refused, editing=rnd, base=base)
    messages.success(request, recorded_message(rnd, corrected=True))
    return go(request, reverse("scorer:round", args=[session.code, rnd.number]))
