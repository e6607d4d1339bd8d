"""Record one event of a round recorded event by event: its form, its live preview, its
confirm.  scorer/views/record.py's views hand a table that records events here; the page
is the same (scorer/record/page.py)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from rules import RuleError
from rules.registry import Ruleset
from rules.tiles import tile_str
from scorer.entry.event_pick import EventPick
from scorer.entry.round_now import RoundNow, round_now_of
from scorer.htmx_answers import expired_text, form_token, refused_status, show_top
from scorer.language import rule_error_text
from scorer.models import GameSession, Round, RoundRevision, RoundTaken
from scorer.record.page import record_page, refusal
from scorer.record.request import asked, author, done, dropped, taps_of, who_records
from scorer.services import phone
from scorer.views import HtmxHttpRequest

__all__ = ["confirm_event", "preview_event", "record_event", "render_event"]


def render_event(
    request: HtmxHttpRequest,
    session: GameSession,
    p: EventPick,
    now: RoundNow,
    message: str = "",
    status: int = 200,
    refused: bool = False,
    step: tuple[Round, int] | None = None,
) -> HttpResponse:
    """The event form (its inside for htmx, else the page).  `step`: the round of
    events being corrected and the step this form changes (record_edit_events.py)."""
    template = "scorer/record/form.html#form" if request.htmx else "scorer/record/page.html"
    editing = step[0] if step is not None else None
    page = record_page(session, p, asked(request, session), message, editing=editing, now=now)
    if step is not None:
        page = page.with_step(step[1])
    if message and message == page.result.message:
        page = replace(page, tap_message="")  # a refused confirm: the preview says it already
    if refused:
        page = refusal(page, message)  # the bar says it was not recorded, and why
    return render(request, template, page.context(), status=status)


def _posted_event(
    request: HtmxHttpRequest, session: GameSession, rs: Ruleset, now: RoundNow
) -> tuple[EventPick, str]:
    """The event's state with its taps applied in order (several when taps made while
    an answer was on its way come together: static/js/taps.js), and the message of
    the last tap that could not be done."""
    p = EventPick.read(request.POST, session, rs, now)
    who_records(request, session, p)
    message = ""
    for tap in taps_of(request):
        if tap == "taken:next":
            # Start the next round instead: its number, its dealer, the events so far.
            fresh = EventPick.fresh_event(session, rs, now, p.kind)
            p.for_round, p.dealer, p.expected = fresh.for_round, fresh.dealer, fresh.expected
            continue
        message = p.apply(tap, session.n_players, rs) or message
        if tap.startswith("mode:"):
            phone.set_last_mode(request, p.mode)
    return p, message


def record_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    """The record page of a table that records events (scorer/views/record.py `record`)."""
    now = round_now_of(session)
    if request.method == "POST":
        if "taken:discard" in taps_of(request):
            return dropped(request, session)
        p, message = _posted_event(request, session, rs, now)
        phone.save_draft(request, session, p.hidden())
        return render_event(request, session, p, now, message)
    kind = request.GET.get("kind", "")
    draft = phone.load_draft(request, session)
    if draft and kind in ("", draft.get("kind")):
        # The phone's entry in progress (a reload, or back to the page): as it was.
        p = EventPick.read(draft, session, rs, now)
    else:
        p = EventPick.fresh_event(session, rs, now, kind)
        if phone.last_mode(request) == "quick" and p.catalog:
            p.mode = "quick"
    p.author = phone.my_name(request, session)
    return render_event(request, session, p, now)


def preview_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    """Apply the taps and show the event's live result; saves only the phone's entry."""
    now = round_now_of(session)
    if "taken:discard" in taps_of(request):
        return dropped(request, session)
    p, message = _posted_event(request, session, rs, now)
    phone.save_draft(request, session, p.hidden())
    response = render_event(request, session, p, now, message)
    completed = request.POST.get("tap", "").startswith("tile:") and p.n_tiles == p.hand_size
    if (
        completed
        and not message
        and p.kind != "kong"
        and (p.kind == "wall_end" or p.mode == "tiles")
    ):
        show_top(response, "innerHTML", ".pk-live")
    return response


def confirm_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    """Add the event the form shows to the round in progress (or start one with it), once."""
    refused = refused_status(request, 400)
    table_url = reverse("scorer:session", args=[session.code])
    now = round_now_of(session)
    p = EventPick.read(request.POST, session, rs, now)
    who_records(request, session, p)
    if "taken:next" in taps_of(request):
        # "Record it as round N": a confirm, starting the next round.
        fresh = EventPick.fresh_event(session, rs, now, p.kind)
        p.for_round, p.dealer, p.expected = fresh.for_round, fresh.dealer, fresh.expected
    token = form_token(p.token)
    if token is None:
        p.token = str(uuid.uuid4())
        return render_event(request, session, p, now, expired_text(), status=refused, refused=True)
    if RoundRevision.objects.filter(round__session=session, token=token).exists():
        # A double tap, or a retry after a lost answer: the event is already in.
        return done(request, session, table_url)
    event, missing = p.event()
    if event is None:
        return render_event(request, session, p, now, missing, status=refused, refused=True)
    position: dict[str, Any] = {"dealer": p.dealer, "prevalent_wind": p.wind}
    if p.turned is not None and p.asks_turned:
        position["turned"] = tile_str(p.turned)  # a round in progress keeps its dealer
    try:
        rnd = session.add_event(
            token,
            event,
            author(request, session, p),
            expected=p.expected,
            join_last_win=p.join,
            position=position,
            number=p.for_round,
        )
    except RoundTaken:
        # The form shows the round recorded meanwhile and asks what to do with this event.
        return render_event(
            request, session, p, now, status=refused_status(request, 409), refused=True
        )
    except RuleError as e:
        now = round_now_of(session)
        if p.expected != now.count:
            # Another phone added an event meanwhile: show the round as it is now;
            # the next confirm, made knowing it, goes through.
            p = EventPick.read(
                {**request.POST.dict(), "expected": str(now.count)}, session, rs, now
            )
        return render_event(
            request, session, p, now, rule_error_text(e), status=refused, refused=True
        )
    # "第 N 局" counts hands (Round.hand_number), not the ledger's lines.
    hand = rnd.hand_number() or rnd.number
    if rnd.in_progress:
        msg = gettext("Added to round %(number)s.") % {"number": hand}
    else:
        msg = gettext("Round %(number)s is over.") % {"number": hand}
    messages.success(request, msg)
    return done(request, session, table_url)
