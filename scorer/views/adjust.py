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
from scorer import phone
from scorer.access import closed_redirect, round_or_404, session_or_404
from scorer.htmx_answers import expired_text, form_token, go, refused_status
from scorer.language import by_language, rule_error_text
from scorer.models import GameSession, Round, RoundRevision, RoundTaken, StaleRevision
from scorer.parse import MAX_ROUND, int_or_none
from scorer.present.words import round_label
from scorer.record_request import recorded_message
from scorer.scoring import MAX_POINTS
from scorer.views import HtmxHttpRequest

__all__ = ["adjust", "adjust_edit"]

LINES = 4  # line rows the form shows; blank ones are ignored


def _entry(post: Any, session: GameSession) -> dict[str, Any]:
    """The entry the form says (checked by the model: nothing is trusted here)."""
    n = session.n_players
    if post.get("kind") == RoundRevision.PENALTY:
        entry: dict[str, Any] = {"kind": "penalty", "penalty": post.get("penalty", ""),
                                 "seat": int_or_none(post.get("seat"), 0, n - 1)}  # fmt: skip
        table = session.table()
        kind = table.penalty(entry["penalty"])
        ranges = {si.id: (si.min, si.max) for si in table.seat_inputs}
        inputs = {}
        for sid in kind.inputs if kind is not None else ():
            lo, hi = ranges.get(sid, (None, None))
            values = [int_or_none(post.get(f"{sid}_{s}", "0") or "0", lo, hi) for s in range(n)]
            inputs[sid] = values
        if inputs:
            entry["seat_inputs"] = inputs
        return entry
    lines = []
    for k in range(LINES):
        frm, to, amount = (post.get(f"{x}_{k}", "").strip() for x in ("from", "to", "amount"))
        if frm == to == amount == "" or (amount == "" and "" in (frm, to)):
            continue  # a blank row (or one with nothing to move)
        lines.append(
            {
                "from": int_or_none(frm, 0, n - 1),
                "to": int_or_none(to, 0, n - 1),
                "amount": int_or_none(amount, 1, MAX_POINTS),
            }  # fmt: skip
        )
    return {"kind": "adjust", "reason": post.get("reason", ""), "lines": lines}


def _form(session: GameSession, data: dict[str, Any]) -> dict[str, Any]:
    """What the template shows: the players, the declared penalties, the rows."""
    table = session.table()
    names = list(session.players)
    penalties = [
        {
            "id": p.id,
            "label": by_language(p.zh, p.en),
            # Its sentence ends in the page's language: "（口口翻 500）。这桌…", not ". 这桌".
            "help": by_language(f"{p.help_zh.rstrip('。.')}。", f"{p.help_en.rstrip('.')}. "),
            "inputs": [
                {
                    "id": si.id,
                    "label": by_language(si.zh, si.en),
                    "min": si.min,
                    "max": si.max,
                    "seats": [
                        {"seat": s, "name": names[s], "value": data.get(f"{si.id}_{s}", si.default)}
                        for s in range(len(names))
                    ],
                }
                for si in table.seat_inputs
                if si.id in p.inputs
            ],  # fmt: skip
            "to": session.resolved_params().get(p.to_param, "others"),
        }
        for p in table.penalties
    ]
    rows = [
        {k: data.get(f"{k}_{i}", "") for k in ("from", "to", "amount")} | {"i": i}
        for i in range(LINES)
    ]
    return {"names": list(enumerate(names)), "penalties": penalties, "rows": rows}


def _data(entry: dict[str, Any] | None) -> dict[str, Any]:
    """A recorded entry as the form's values (a correction starts from it)."""
    if not entry:
        return {}
    if entry.get("kind") == RoundRevision.PENALTY:
        data = {"kind": "penalty", "penalty": entry.get("penalty"), "seat": entry.get("seat")}
        for sid, values in (entry.get("seat_inputs") or {}).items():
            for s, v in enumerate(values):
                data[f"{sid}_{s}"] = v
        return data
    data = {"kind": "adjust", "reason": entry.get("reason", "")}
    for i, line in enumerate(entry.get("lines") or []):
        for k in ("from", "to", "amount"):
            data[f"{k}_{i}"] = line.get(k)
    return data


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
        **_form(session, data),
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
        rnd = session.record_round(token, _entry(post, session), author, number=number)
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
        return _render(request, session, _data(rev.entry), editing=rnd, base=rev.number)
    post = request.POST
    data = {k: post.get(k) for k in post}
    refused = refused_status(request, 400)
    base = int_or_none(post.get("base"), 1, MAX_ROUND)
    try:
        rnd.revise(_entry(post, session), phone.my_name(request, session), base=base)
    except StaleRevision as stale:
        msg = gettext(
            "This round was corrected on another phone meanwhile. "
            "Check it and confirm again to replace that correction."
        )
        return _render(request, session, _data(stale.current.entry), msg,
                       refused_status(request, 409), editing=rnd, base=stale.current.number)  # fmt: skip
    except RuleError as e:
        msg = rule_error_text(e)
        return _render(request, session, data, msg, refused, editing=rnd, base=base)
    messages.success(request, recorded_message(rnd, corrected=True))
    return go(request, reverse("scorer:round", args=[session.code, rnd.number]))
