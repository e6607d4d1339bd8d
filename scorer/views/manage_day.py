"""The room's day for its admins: the dashboard (open tables, today's 台费), closing a
table its players left open, taking an imported table into the books, and the day's
report as CSV."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import RuleError
from scorer.access import room_admin, room_session_or_404
from scorer.day import (
    STALE_AFTER,
    day_report,
    fees_of_day,
    results_text,
    sum_money,
    tables_now,
    today,
)
from scorer.language import by_language, rule_error_text
from scorer.rooms import RoomMember
from scorer.spreadsheet import amount, csv_text, local_time
from scorer.views import csv_download

__all__ = ["manage", "manage_close", "manage_report", "manage_take_in"]


def member_name(member: RoomMember) -> str:
    """How the table's history names the admin who closed it."""
    return member.display_name or member.user.get_username()


@room_admin
@require_safe
def manage(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The room's dashboard: what is being played now, and what the room took today."""
    room = member.room
    day = today()
    tables, imported = tables_now(room)
    context = {
        "member": member,
        "room": room,
        "nav": "day",
        "day": day,
        "tables": tables,
        "imported": imported,
        "fees": fees_of_day(room, day, gettext("Total")),
        "stale_hours": int(STALE_AFTER.total_seconds() // 3600),
    }
    return render(request, "room/dashboard.html", context)


@room_admin
@require_POST
def manage_close(request: HttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """Close a table its players left open, saying why (the table's history keeps it;
    its players can still reopen it from its result page)."""
    session = room_session_or_404(member, code)
    back = HttpResponseRedirect(reverse("scorer:manage", args=[member.room.slug]))
    note = (request.POST.get("note") or "").strip()
    if not note:
        messages.error(request, gettext("Say why the table is closed: its players will read it."))
        return back
    try:
        closed = session.close(author=member_name(member), note=note, by=member)
    except RuleError as e:  # a round still being played
        messages.error(request, rule_error_text(e))
        return back
    if closed:
        messages.success(request, gettext("Table closed."))
    else:
        messages.info(request, gettext("That table was closed already."))
    return back


@room_admin
@require_POST
def manage_take_in(request: HttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """Count a table imported into the room in its books (its fees, its day reports)."""
    session = room_session_or_404(member, code)
    if session.take_in(author=member_name(member)):
        messages.success(request, gettext("Taken into the books."))
    else:
        messages.info(request, gettext("That table is in the books already."))
    return HttpResponseRedirect(reverse("scorer:manage", args=[member.room.slug]))


def _day_asked(raw: str | None) -> dt.date | None:
    if not raw:
        return today()
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        return None


@room_admin
@require_safe
def manage_report(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The day's report (CSV, in the page's language and local time): a row per table
    played that day, then the totals in the same columns."""
    day = _day_asked(request.GET.get("day"))
    if day is None:
        return HttpResponseBadRequest(
            gettext("The day must be a date such as 2026-11-26."),
            content_type="text/plain; charset=utf-8",
        )
    rows = day_report(member.room, day)
    head = [
        gettext("Table"),
        gettext("Rules"),
        gettext("Started"),
        gettext("Closed"),
        gettext("Players"),
        gettext("Rounds"),
        gettext("Results (points)"),
        gettext("Room's take (points)"),
        gettext("Room's take (money)"),
    ]
    lines = [
        [
            r.label,
            r.config,
            local_time(r.session.created_at),
            local_time(r.session.closed_at),
            by_language("、", ", ").join(n for n, _ in r.results),
            r.rounds,
            results_text(r.results),
            r.take,
            amount(r.money),
        ]
        for r in rows
    ]
    total = [
        gettext("Total"),
        "",
        "",
        "",
        sum(len(r.results) for r in rows),
        sum(r.rounds for r in rows),
        "",
        sum(r.take for r in rows),
        amount(sum_money(r.money for r in rows)),
    ]
    return csv_download(csv_text([head, *lines, total]), f"{member.room.slug}-{day.isoformat()}")
