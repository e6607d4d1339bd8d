"""The table's live page: follow its totals, undo, restore (starting one: start.py; the
ledger and rounds: ledger.py).

Plain function views.  Everything that changes a session goes through the
model's own methods (`record_round`, `undo_last`, `Round.revise`); the views
here only read, prepare what the templates show, and call those methods.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from rules import RuleError
from rules.registry import event_steps
from rules.table import Scoring
from scorer import phone
from scorer.access import (
    closed_redirect,
    session_or_404,
)
from scorer.language import rule_error_text, seat_name
from scorer.models import GameSession, Round, RoundRevision
from scorer.parse import int_or_none
from scorer.present.chart import Mark, Series, chart_legend, line_chart, running_totals
from scorer.present.events import SUM, describe, headline, join_names
from scorer.present.fee import clock_view, room_line
from scorer.present.words import (
    EVENT_ACTIONS,
    WIND_NAMES,
    etag_of,
    line_label,
    money_text,
    round_label,
)
from scorer.share import qr_svg, share_link
from scorer.templatetags.scorer_format import sign_class
from scorer.views import HtmxHttpRequest


def kind_marks(rounds: list[Round]) -> list[Mark]:
    """The chart's marks for the steps that are adjustments or penalties, named by
    their kind and line ("第 4 行：调整"): no 局."""
    counted = [r for r in rounds if r.current is not None]
    return [
        Mark(k, capfirst(line_label(r.current.kind, r.number, None)))
        for k, r in enumerate(counted, 1)
        if r.current is not None and r.current.kind in RoundRevision.NOT_HANDS
    ]


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


def _previous_totals(request: HtmxHttpRequest, n: int) -> list[int] | None:
    """The totals the polling page showed before ("was": "-8,69,-53,-8"), if it sent them."""
    read = [int_or_none(x) for x in request.GET.get("was", "").split(",")]
    was = [x for x in read if x is not None]
    return was if len(was) == len(read) == n else None


def _board(session: GameSession, was: list[int] | None = None) -> dict[str, Any]:
    """What the tallies show: seats, totals, the next hand's dealer and wind (one query).

    `was`: the totals the page showed before this poll; a seat whose total moved
    since is marked `changed` (the page flashes it, no script needed).
    """
    rounds = session.standing_rounds()
    totals = session.tallies(rounds)
    table = session.rules.table
    dealer, wind = session.next_position(rounds)
    names = list(session.players)
    n = len(names)
    # "第 N 局" counts hands (Round.hand_number), here from the rounds at hand.
    hands = [r for r in rounds if r.is_hand]
    # A round played as events: the last one, whose last event can be taken
    # back, and the round in progress, which the page shows event by event.  Once
    # over, the last round stays (folded) until the next one starts: the table
    # checks what was just recorded and what 撤销上一步 would take back.
    events_round = (
        _events_round(rounds[-1], names, table.reasons, table.scoring, len(hands))
        if rounds
        else None
    )
    live = events_round if events_round is not None and events_round["in_progress"] else None
    finished = events_round if events_round is not None and live is None else None
    if live is not None:
        # The seats sit as they do in the round being played, not the next one.
        dealer, wind = live["dealer_seat"], live["wind_code"]
    # The round undone last, while nothing was recorded after it: it can be restored.
    # (The fee a closed table paid is undone by reopening it: never one to restore.)
    newest = (
        session.rounds.exclude(current__kind=RoundRevision.FEE)
        .order_by("-number")
        .values_list("number", "status", "current__kind")
        .first()
    )
    redo = newest[0] if newest is not None and newest[1] == Round.UNDONE else None
    # Newer than every standing line: were it a hand, it would be the next one.
    redo_label = (
        line_label(newest[2], newest[0], len(hands) + 1)
        if newest is not None and redo is not None
        else ""
    )
    per_point = session.money_per_point
    winds = session.rules.seat_winds(dealer, wind)
    seats = []
    for seat, (name, total) in enumerate(zip(names, totals, strict=True)):
        money = None if per_point is None else money_text(total * per_point, per_point)
        seats.append(
            {
                "seat": seat,
                "name": name,
                "wind": WIND_NAMES[winds[seat]],
                "dealer": seat == dealer,
                "total": total,
                "money": money,
                "sign": sign_class(total),
                "changed": was is not None and was[seat] != total,
                "out": live is not None and seat in live["out"],
            }
        )
    etag = etag_of(session)
    series = [
        Series(name, pts)
        for name, pts in zip(
            names,
            running_totals([r.current.deltas for r in rounds if r.current is not None], n),
            strict=True,
        )
    ]
    match = table.match if table.match is not None and n == table.match.players else None
    return {
        "session": session,
        "closed": session.closed_at is not None,
        # A match's next hand, said as "第 5 / 16 盘".
        "match_next": None
        if match is None
        else {"hand": min(len(hands) + 1, match.hands), "hands": match.hands},  # fmt: skip
        # Each player's running total, redrawn with every poll that brings a change.
        # (the names and totals as HTML under the lines: scorer/present/chart.py says why)
        "chart": mark_safe(  # noqa: S308 (escaped)
            line_chart(series, gettext("Running totals"), labels=False, marks=kind_marks(rounds))
            + chart_legend(series)
        )
        if rounds
        else "",
        "stepwise": table.stepwise,
        "winds": table.prevalent_wind,
        # The win button in the middle, under the thumb: kong, win, the round's end.
        "event_actions": [
            {"id": e.id, "label": EVENT_ACTIONS.get(e.id, e.zh)}
            for e in sorted(table.events, key=lambda e: list(EVENT_ACTIONS).index(e.id))
        ],
        "live": live,
        "finished_round": finished if finished is not None and finished["events"] else None,
        "undo_event": events_round,
        "seats": seats,
        # The room's take (台费) on its own line: the seats' totals are their net.
        "room_fee": room_line(session, session.room_take(rounds)),
        # The table's clock and its 计时 fee so far, where the table is billed by time.
        "clock": clock_view(session) if session.rules.time_fee.charges else None,
        # The next poll sends these back: the answer then marks what moved.
        "poll_vals": json.dumps({"was": ",".join(str(t) for t in totals)}),
        "round_count": len(hands),
        "last_round": rounds[-1].number if rounds else None,
        # What 撤销 and 恢复 name: "第 3 局", "第 4 行：调整".
        "last_label": line_label(
            rounds[-1].current.kind if rounds[-1].current is not None else None,
            rounds[-1].number,
            len(hands),
        )
        if rounds
        else "",
        "redo_round": redo,
        "redo_label": redo_label,
        "dealer_name": seat_name(names, dealer),
        "wind": WIND_NAMES[wind],
        "etag": etag,
        # Sent back by htmx with every poll: an unchanged session answers 304.
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }


def _events_round(
    rnd: Round,
    names: Sequence[str],
    reasons: Mapping[str, tuple[str, str]],
    scoring: Scoring = SUM,
    hand: int | None = None,
) -> dict[str, Any] | None:
    """A round played as events, as the session page shows it; None for a round recorded whole.

    `count` is the number of events the page shows: taking back the last one
    sends it, so that two phones tapping at once take back one event.  `number`
    is the round's line (what the form sends back), `hand` its "第 N 局" (by
    default Round.hand_number, one query).
    """
    rev = rnd.current
    if rev is None or rev.kind != RoundRevision.ROUND:
        return None
    entry = rev.entry if isinstance(rev.entry, dict) else {}
    result = rev.result if isinstance(rev.result, dict) else {}
    events = describe(result, names, reasons, scoring)
    out = [s for s in result.get("out") or [] if isinstance(s, int)]
    return {
        "number": rnd.number,
        "hand": hand if hand is not None else rnd.hand_number(),
        "in_progress": rnd.in_progress,
        "dealer_seat": rev.dealer,
        "wind_code": rev.prevalent_wind,
        "dealer": seat_name(names, rev.dealer),
        "events": events,
        "deltas": [
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
        "count": event_steps(entry.get("events") or []),
        "last": _last_step(result, names, scoring, events),
        "out": out,
        "out_names": join_names([seat_name(names, s) for s in out]),
    }


def _last_step(
    result: Mapping[str, Any], names: Sequence[str], scoring: Scoring, events: list[Any]
) -> str:
    """What 撤销上一步 takes back, in a line: the last event, or the last winner who
    joined a win on its discard (一炮多响), said as his win alone."""
    reports = [r for r in result.get("events") or [] if isinstance(r, Mapping)]
    winners = reports[-1].get("winners") if reports else None
    if isinstance(winners, list) and len(winners) > 1:
        return headline({**reports[-1], "winners": winners[-1:]}, names, scoring)
    return str(events[-1]["text"]) if events else ""


@require_safe
def detail(request: HtmxHttpRequest, code: str) -> HttpResponse:
    session = session_or_404(code)
    context = _board(session, _previous_totals(request, session.n_players))
    if request.htmx:
        return render(request, "scorer/session.html#tallies", context)
    phone.remember_table(request, session)
    context["me_seat"] = phone.my_seat(request, session)
    context["me_name"] = phone.my_name(request, session)
    share = share_link(request, reverse("scorer:session", args=[session.code]))
    context["share_url"], context["share_loopback"] = share.url, share.loopback_only
    return render(request, "scorer/session.html", context)


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
        context = _board(session, _previous_totals(request, session.n_players))
        response = render(request, "scorer/session.html#tallies", context)
        if stop:
            response.status_code = HttpResponseStopPolling.status_code
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_safe
def qr(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The session link as a QR code (SVG), for the other phones at the table."""
    session = session_or_404(code)
    url = share_link(request, reverse("scorer:session", args=[session.code])).url
    response = HttpResponse(qr_svg(url), content_type="image/svg+xml")
    patch_cache_control(response, private=True, max_age=24 * 3600)
    return response


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
    url = reverse("scorer:session", args=[session.code])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


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
    shown = _events_round(last, names, table.reasons, table.scoring) if last is not None else None
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
            rnd = session.undo_last_event(
                author=phone.my_name(request, session),
                expected=shown["count"],
                expected_round=last.number,
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
    url = reverse("scorer:session", args=[session.code])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


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
    url = reverse("scorer:session", args=[session.code])
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)


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
    url = reverse("scorer:session", args=[session.code])
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
