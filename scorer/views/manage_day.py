"""The room's day for its admins: the dashboard (open tables, today's 台费), closing a
table its players left open, taking an imported table into the books, and the day's
report as CSV."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rules import RuleError
from scorer.clean.parse import FIRST_DAY, LAST_DAY, date_or_none
from scorer.clean.spreadsheet import csv_text, local_time
from scorer.clean.text import AUTHOR, NOTE, TextRefused, clean_text, cut
from scorer.language import by_language, rule_error_text
from scorer.models.money import ZERO
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.present.fee import clock_view
from scorer.services import books as book
from scorer.services import calendar
from scorer.services.access import room_admin, room_session_or_404
from scorer.services.day import STALE_AFTER, results_text, table_label, tables_now
from scorer.services.taken_in import Refused, send_back, taken_in_lately
from scorer.views import HtmxHttpRequest, csv_download
from scorer.views.confirm import Ask, ask, back, confirmation
from scorer.views.manage_till import money_cells, money_head

__all__ = [
    "manage",
    "manage_clock",
    "manage_close",
    "manage_report",
    "manage_send_back",
    "manage_take_in",
]


def member_name(member: RoomMember) -> str:
    """How the table's history names the admin who closed it (a user name may be
    longer than an author's length)."""
    return cut(AUTHOR, member.display_name or member.user.get_username())


@room_admin
@require_safe
def manage(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The room's dashboard: what is being played now, and what the room took today
    (the day's books, scorer/services/books.py, with the open tables' fees so far)."""
    room = member.room
    day = calendar.today(room)
    tables, imported = tables_now(room)
    for t in tables:
        t.clock = clock_view(t.session)
    # The open tables' time fees so far: beside the books, marked running (not charged yet).
    running = sum((t.clock["fee_amount"] or ZERO for t in tables if t.clock), ZERO)
    day_books = book.books(room, day)
    context = {
        "member": member,
        "room": room,
        "nav": "day",
        "day": day,
        "tables": tables,
        "imported": imported,
        "books": day_books,
        "total": day_books.total,
        "running": running,
        "reopened": book.reopened_paid(room),
        "taken_in": [(s, table_label(s.room_table)) for s in taken_in_lately(room)],
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
    try:
        note = clean_text(NOTE, request.POST.get("note") or "")
    except TextRefused as e:
        messages.error(request, e.message)
        return back
    if not note:
        messages.error(request, gettext("Say why the table is closed: its players will read it."))
        return back
    at = ended_at(request.POST.get("at"))
    if not isinstance(at, dt.datetime | None):
        messages.error(request, gettext("Give the time the table ended, such as 23:40."))
        return back
    try:
        closed = session.close(author=member_name(member), note=note, by=member, at=at)
    except RuleError as e:  # a round still being played
        messages.error(request, rule_error_text(e))
        return back
    if closed:
        messages.success(request, gettext("Table closed."))
    else:
        messages.info(request, gettext("That table was closed already."))
    return back


def ended_at(raw: str | None) -> dt.datetime | None | bool:
    """The time an admin says a table ended ("23:40"): its last such moment up to now
    (a table left open last night, closed this morning, ended yesterday at 23:40).
    None when none is given (now); False when it is no time of day."""
    raw = (raw or "").strip()
    if not raw:
        return None
    try:
        said = dt.time.fromisoformat(raw)
    except ValueError:
        return False
    now = timezone.localtime(clock.now())
    at = now.replace(hour=said.hour, minute=said.minute, second=0, microsecond=0)
    return at if at <= now else at - dt.timedelta(days=1)


@room_admin
@require_POST
def manage_clock(request: HttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """Pause a table's clock (饭点, 休息) or start it again: the pause is not billed."""
    session = room_session_or_404(member, code)
    pausing = request.POST.get("action") == "pause"
    changed = session.pause(by=member) if pausing else session.resume(by=member)
    if changed:
        messages.success(
            request, gettext("Clock paused.") if pausing else gettext("Clock running again.")
        )
    return HttpResponseRedirect(
        reverse("scorer:manage", args=[member.room.slug]) + f"#open-{session.code}"
    )


@room_admin
@require_POST
def manage_take_in(request: HttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """Count a table imported into the room in its books (its fees, its day reports)."""
    session = room_session_or_404(member, code)
    if session.take_in(author=member_name(member), by=member):
        messages.success(request, gettext("Taken into the books."))
    else:
        messages.info(request, gettext("That table is in the books already."))
    return HttpResponseRedirect(reverse("scorer:manage", args=[member.room.slug]))


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def manage_send_back(request: HtmxHttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """送回, on the second tap: an imported table taken into the books by mistake goes
    back out of them (scorer/services/taken_in.py says when it may not)."""
    session = room_session_or_404(member, code)
    dashboard = reverse("scorer:manage", args=[member.room.slug])
    if confirmation(request) is None:
        label = table_label(session.room_table)
        return ask(request, member, "day", Ask(
            title=gettext("Send back %(table)s") % {"table": label},
            question=gettext("Take the imported game at %(table)s back out of the books?")
            % {"table": label},
            details=(gettext("Its rounds and fees stop counting in the room's days. It waits "
                             "with the imported tables, and can be taken in again."),),
            button=gettext("Send back"),
            action=reverse("scorer:manage_send_back", args=[member.room.slug, code]),
            cancel=dashboard,
        ))  # fmt: skip
    try:
        sent = send_back(session, by=member)
    except Refused as e:
        messages.error(request, e.message)
    else:
        if sent:
            messages.success(request, gettext("Sent back out of the books."))
        else:
            messages.info(request, gettext("That table is not in the books."))
    return back(request, dashboard)


def _day_asked(room: Room, raw: str | None) -> dt.date | None:
    """The day the report is asked for (the room's today when none is); None for one
    that is not a day the app can report on (2000-01-01 to 2999-12-31: scorer/clean/parse.py)."""
    return calendar.today(room) if not raw else date_or_none(raw)


@room_admin
@require_safe
def manage_report(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The day's report (CSV, in the page's language and local time): a line per table
    of the day's books (scorer/services/books.py), then the totals in the same columns."""
    day = _day_asked(member.room, request.GET.get("day"))
    if day is None:
        return HttpResponseBadRequest(
            gettext("The day must be a date from %(first)s to %(last)s, such as 2026-11-26.")
            % {"first": FIRST_DAY.isoformat(), "last": LAST_DAY.isoformat()},
            content_type="text/plain; charset=utf-8",
        )
    day_books = book.books(member.room, day, results=True)
    head = [
        gettext("Table"),
        gettext("Rules"),
        gettext("Started"),
        gettext("Closed"),
        gettext("Players"),
        gettext("Rounds"),
        gettext("Results (points)"),
        *money_head(),
    ]
    lines = [
        [
            r.label,
            r.config,
            local_time(r.started),
            local_time(r.closed) if r.reopened is None else gettext("reopened"),
            by_language("、", ", ").join(r.players),
            r.rounds,
            results_text(r.results_named)
            + (" " + gettext("(some lines can't be read)") if r.unreadable else ""),
            *money_cells(r),
        ]
        for r in day_books.rows
    ]
    total = day_books.total
    foot = [
        gettext("Total"),
        "",
        "",
        "",
        sum(len(r.players) for r in day_books.rows),
        sum(r.rounds for r in day_books.rows),
        "",
        *money_cells(total),
    ]
    return csv_download(csv_text([head, *lines, foot]), f"{member.room.slug}-{day.isoformat()}")
