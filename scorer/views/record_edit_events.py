"""Correct a round played as events (四川 血战): the same steps as any other round
(ledger row → 改这一局 → s/<code>/rounds/<n>/edit), on a page of its own.

The page lists the round's steps (scorer/entry/event_edit.py): each is changed on
the event form prefilled with it (the same form that added it: `?step=<i>`),
or removed; a step is added the same way (`?step=add`).  The steps as this phone
has changed them are kept for it (scorer/services/phone.py) until its 确认, which
settles the round again whole and makes one new version of it (`Round.revise`,
under the table's lock, ending with bump()); or until it drops them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from rules import RuleError
from rules.registry import get_ruleset
from scorer.clean.parse import int_or_none
from scorer.entry.event_edit import Step, events_of, now_before, step_pick, steps_of
from scorer.entry.event_pick import EventPick
from scorer.entry.round_now import RoundNow
from scorer.language import rule_error_text
from scorer.models import GameSession, Round, StaleRevision
from scorer.present.words import recorded_message
from scorer.record.correction import correction_page
from scorer.record.request import render_form, taps_of, who_records
from scorer.scoring import evaluate
from scorer.services import phone
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import go, refused_status

__all__ = ["edit_events"]

MAX_STEPS = 64  # far more than a round has: a step index past it is no step


def edit_events(request: HtmxHttpRequest, session: GameSession, rnd: Round) -> HttpResponse:
    """The correction of a round of events: its list, or one step on the event form."""
    kept = _kept(request, session, rnd)
    steps: list[Step] = kept["steps"]
    source = request.GET if request.method == "GET" else request.POST
    raw = source.get("step")
    if raw is not None:
        i = len(steps) if raw == "add" else int_or_none(raw, 0, len(steps))
        if i is not None:
            return _step(request, session, rnd, kept, i)
    if request.method == "POST":
        if "drop" in request.POST:
            phone.drop_correction(request, session, rnd.number)
            messages.info(request, gettext("Your correction was dropped; the round is unchanged."))
            return go(request, reverse("scorer:round", args=[session.code, rnd.number]))
        if "save" in request.POST:
            return _save(request, session, rnd, kept)
        gone = int_or_none(request.POST.get("remove"), 0, len(steps) - 1)
        if gone is not None:
            del steps[gone]
            phone.save_correction(request, session, rnd.number, kept)
        return go(request, _list_url(session, rnd))
    return _list(request, session, rnd, kept)


def _list_url(session: GameSession, rnd: Round) -> str:
    return reverse("scorer:edit", args=[session.code, rnd.number])


def _kept(request: HtmxHttpRequest, session: GameSession, rnd: Round) -> dict[str, Any]:
    """This phone's working copy of the round's steps, started from the round's current
    version."""
    assert rnd.current is not None
    kept = phone.load_correction(request, session, rnd.number)
    # A version made since (an event added, another phone's correction): a copy not
    # changed yet starts again from it; a changed one is kept, and its 确认 says so
    # (StaleRevision) before it replaces that version.
    if (
        kept is not None
        and isinstance(kept.get("steps"), list)
        and (kept.get("base") == rnd.current.number or kept["steps"] != kept.get("from"))
    ):
        return kept
    return _start(request, session, rnd)


def _start(request: HtmxHttpRequest, session: GameSession, rnd: Round) -> dict[str, Any]:
    """A working copy of the round's current version."""
    assert rnd.current is not None
    steps = _recorded(rnd)
    kept = {"base": rnd.current.number, "steps": steps, "from": [dict(s) for s in steps]}
    phone.save_correction(request, session, rnd.number, kept)
    return kept


def _recorded(rnd: Round) -> list[Step]:
    assert rnd.current is not None
    return steps_of(rnd.current.entry.get("events") or [])


def _list(
    request: HtmxHttpRequest,
    session: GameSession,
    rnd: Round,
    kept: dict[str, Any],
    message: str = "",
    status: int = 200,
) -> HttpResponse:
    page = correction_page(session, rnd, kept["steps"], _recorded(rnd), message)
    context = {"page": page, "session": session}
    return render(request, "scorer/record/correct_events.html", context, status=status)


def _save(
    request: HtmxHttpRequest, session: GameSession, rnd: Round, kept: dict[str, Any]
) -> HttpResponse:
    """确认: the round settled again with the corrected steps, one new version."""
    done = reverse("scorer:round", args=[session.code, rnd.number])
    refused = refused_status(request, 400)
    if kept["steps"] == _recorded(rnd):
        phone.drop_correction(request, session, rnd.number)
        # Nothing to correct (or a double tap that saved it): said, so that a step
        # refused just before is not taken for one kept.
        messages.info(request, gettext("This round is as it was: nothing was changed."))
        return go(request, done)
    try:
        events = events_of(kept["steps"], session)
        rnd.revise({"kind": "round", "events": events}, phone.my_name(request, session),
                   base=int(kept["base"]))  # fmt: skip
    except StaleRevision as stale:
        # A version made since this phone began: never silently written over.
        rnd.current = stale.current
        msg = _caught_up(kept, rnd)
        phone.save_correction(request, session, rnd.number, kept)
        return _list(request, session, rnd, kept, msg, refused_status(request, 409))
    except RuleError as e:
        return _list(request, session, rnd, kept, rule_error_text(e), refused)
    phone.drop_correction(request, session, rnd.number)
    messages.success(request, recorded_message(rnd, corrected=True))
    return go(request, done)


def _caught_up(kept: dict[str, Any], rnd: Round) -> str:
    """The working copy made from an older version of the round, brought to its
    current one (`rnd.current`), and what the player is told.

    Events only added since (the round in progress, played on at another phone)
    join the correction at its end, so its next 确认 loses none of them; any other
    change (another phone's correction) is said, and the next 确认, made knowing
    it, replaces it."""
    assert rnd.current is not None
    now = _recorded(rnd)
    was = list(kept.get("from") or [])
    kept["base"], kept["from"] = rnd.current.number, now
    if now[: len(was)] == was:
        kept["steps"] = [*kept["steps"], *now[len(was) :]]
        return gettext(
            "Events were added to this round on another phone meanwhile: they are now at "
            "the end of your correction. Check it and confirm again."
        )
    return gettext(
        "This round was corrected on another phone meanwhile. "
        "Check it and confirm again to replace that correction."
    )


def _step(
    request: HtmxHttpRequest, session: GameSession, rnd: Round, kept: dict[str, Any], i: int
) -> HttpResponse:
    """One step on the event form: opened prefilled, its taps, its 确认 (into the
    working copy, not the table)."""
    rs = get_ruleset(session.ruleset)
    steps: list[Step] = kept["steps"]
    try:
        now = now_before(session, rnd, steps, i)
    except RuleError as e:
        # The steps before it no longer join up: said on the list, to be fixed first.
        return _list(request, session, rnd, kept, rule_error_text(e))
    if request.method == "GET":
        p = step_pick(session, rs, now, steps[i] if i < len(steps) else None)
        p.author = phone.my_name(request, session)
        return render_form(request, session, p, editing=rnd, step=i)
    p = EventPick.read(request.POST, session, rs, now)
    who_records(request, session, p)
    message = ""
    for tap in taps_of(request):
        message = p.apply(tap, session.n_players, rs) or message
    if "confirm" not in request.POST:
        return render_form(request, session, p, message, rnd, step=i)
    return _confirm_step(request, session, rnd, kept, p, now, i)


def _confirm_step(
    request: HtmxHttpRequest,
    session: GameSession,
    rnd: Round,
    kept: dict[str, Any],
    p: EventPick,
    now: RoundNow,
    i: int,
) -> HttpResponse:
    """The step as the form shows it, checked by the engine after the steps before
    it (as the event form checks an event added), then put in the working copy."""
    refused = refused_status(request, 400)
    event, missing = p.event()
    if event is None:
        return render_form(request, session, p, missing, rnd, refused, refused=True, step=i)
    try:
        events = get_ruleset(session.ruleset).with_event(
            list(now.events), event, session.rules.params, p.join
        )
        evaluate(session, p.round_entry(events))
    except RuleError as e:
        message = rule_error_text(e)
        return render_form(request, session, p, message, rnd, refused, refused=True, step=i)
    steps: list[Step] = kept["steps"]
    step: Step = {"event": event, "join": p.join}
    if i < len(steps):
        steps[i] = step
    else:
        steps.append(step)
    phone.save_correction(request, session, rnd.number, kept)
    return go(request, _list_url(session, rnd))
