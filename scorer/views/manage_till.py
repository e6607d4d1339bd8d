"""The room's till for its admins: a closed table's fee collected by method or left
owed, the day's close-out (日结), reports by day, week and month (and their CSV),
members' balances (会员储值) and a member's statement.  Every change is a function
of scorer/services/till.py (one transaction, the row locked, the room's log written)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib import messages
from django.db.models import Sum
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from scorer.clean.parse import date_or_none, id_or_none, int_or_none, money_or_none
from scorer.clean.spreadsheet import amount, csv_text, local_time
from scorer.clean.text import TextRefused
from scorer.models import GameSession
from scorer.models.money import BALANCE, HAND_METHODS, METHODS, ZERO, DayClose
from scorer.models.players import Player
from scorer.models.rooms import LAST_DAY_END_HOUR, RoomMember
from scorer.money.timefee import MAX_PRICE
from scorer.services import books as book
from scorer.services import calendar, till
from scorer.services.access import player_or_404, room_admin, room_session_or_404
from scorer.services.kept import kept, kept_figures
from scorer.templatetags.scorer_format import yuan_text
from scorer.views import csv_download

# The most cash a count at 日结 may say (a drawer, not a bank).
MAX_COUNT = Decimal("9999999.99")

__all__ = [
    "balances",
    "statement",
    "till_day",
    "till_report",
    "till_table",
]


def _day(request: HttpRequest, member: RoomMember) -> dt.date | None:
    raw = request.GET.get("day") or request.POST.get("day")
    return calendar.today(member.room) if not raw else date_or_none(raw)


def _bad_day() -> HttpResponse:
    return HttpResponseBadRequest(
        gettext("The day must be a date such as 2026-11-26."),
        content_type="text/plain; charset=utf-8",
    )


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def till_table(request: HttpRequest, member: RoomMember, code: str) -> HttpResponse:
    """A table's money: each seat's share, collected by a method or left owed."""
    session = room_session_or_404(member, code)
    if request.method == "POST":
        if session.closed_at is None:
            messages.error(request, gettext("Close the table first: its fee is known then."))
        else:
            _collect(request, member, session)
        return HttpResponseRedirect(
            reverse("scorer:manage_till_table", args=[member.room.slug, code])
        )
    money = till.table_money(session)
    # Each seat with its member's balance (a seat with a registry player names him).
    seats = [
        {
            "seat": s.seat,
            "name": s.name,
            "player": s.player,
            "charged": s.charged,
            "collected": s.collected,
            "owed": s.owed,
            "balance": till.balance_of(s.player) if s.player is not None else None,
        }
        for s in money.seats
    ]
    context = {
        "member": member,
        "room": member.room,
        "nav": "till",
        "session": session,
        "money": money,
        "seats": seats,
        "unsettled": any(s.owed for s in money.seats),
        "methods": [(m, METHODS[m]) for m in HAND_METHODS],
        "balance_method": (BALANCE, METHODS[BALANCE]),
        "owed": till.OWED,
        "day": calendar.room_day(member.room, session.closed_at) if session.closed_at else None,
        "collections": [
            (c, money.seats[c.seat].name if c.seat < len(money.seats) else "?")
            for c in session.collections.order_by("at", "pk")
        ],
        "reopened_since": None
        if session.closed_at is not None
        else session.changes.filter(action="reopen")
        .order_by("-at")
        .values_list("at", flat=True)
        .first(),
    }
    return render(request, "room/till_table.html", context)


def _collect(request: HttpRequest, member: RoomMember, session: GameSession) -> None:
    """The till form of a table: each seat's method, an optional amount for it, and a
    method for the rest; every message names who and how much, and a choice that
    could not be honoured says why."""
    before = till.table_money(session)
    choices, amounts, rest = {}, {}, {}
    for seat in range(session.n_players):
        choices[seat] = request.POST.get(f"seat_{seat}", till.OWED)
        raw = (request.POST.get(f"amount_{seat}") or "").strip()
        if raw:
            part = money_or_none(raw, Decimal("0.01"), MAX_PRICE)
            if part is None:
                messages.error(request, gettext("Give an amount in yuan, such as 12.50."))
                return
            amounts[seat] = part
        rest[seat] = request.POST.get(f"rest_{seat}", "")
    made = till.collect(session, choices, member, amounts, rest)
    for c in made:
        said = {
            "name": before.seats[c.seat].name if c.seat < len(before.seats) else "?",
            "amount": yuan_text(abs(c.amount)),
            "method": METHODS[c.method],
        }
        messages.success(
            request,
            (
                gettext("Took %(amount)s from %(name)s (%(method)s).")
                if c.amount > 0
                else gettext("Gave %(name)s back %(amount)s (%(method)s).")
            )
            % said,
        )
    after = till.table_money(session)
    for s in before.seats:
        if choices.get(s.seat) != BALANCE or s.owed <= 0:
            continue
        left = after.seats[s.seat].owed
        if s.player is None:
            messages.warning(
                request,
                gettext("%(name)s is no member with a balance: nothing was taken.")
                % {"name": s.name},
            )
        elif left > 0 and not amounts.get(s.seat):
            messages.warning(
                request,
                gettext("%(name)s's balance did not cover it: %(left)s is still owed.")
                % {"name": s.name, "left": yuan_text(left)},
            )


CLOSE_ACTIONS = ("review", "close", "hour")


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def till_day(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """日结: the day's charged, collected, owed and the money taken by method and admin;
    closing the day in two taps (the second shows the figures to be kept, with an
    optional cash count); the owner's hour the day ends."""
    day = _day(request, member)
    if day is None:
        return _bad_day()
    room = member.room
    back = HttpResponseRedirect(
        reverse("scorer:manage_till", args=[room.slug]) + f"?day={day.isoformat()}"
    )
    review = False
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in CLOSE_ACTIONS:
            return HttpResponseBadRequest(
                gettext("Unknown action."), content_type="text/plain; charset=utf-8"
            )
        if action == "hour":
            return _set_hour(request, member, back)
        if action == "close":
            answer = _close(request, member, day)
            if answer is None:
                return back
            review = True  # refused: the figures again, with why
        else:
            review = True
    return render(request, "room/till_day.html", day_context(member, day, review))


def day_context(member: RoomMember, day: dt.date, review: bool = False) -> dict[str, object]:
    """The day page's figures: a closed day's kept ones (and what changed since), an
    open day's as the books say now."""
    room = member.room
    now = book.books(room, day)
    closed = room.day_closes.filter(day=day).first()
    figures = kept_figures(now)
    return {
        "member": member,
        "room": room,
        "nav": "till",
        "day": day,
        "books": now,
        "total": now.total,
        "closed": closed,
        "kept": kept(closed, now) if closed is not None else None,
        "review": review and closed is None,
        "seen": till.figures_seen(figures),
        "reopened": book.reopened_paid(room),
        "hours": range(LAST_DAY_END_HOUR + 1),
    }


def _close(request: HttpRequest, member: RoomMember, day: dt.date) -> DayClose | None:
    """The second tap of 日结; None once done (its message set), else refused (the
    page shows the figures again with the message)."""
    raw = (request.POST.get("counted") or "").strip()
    counted = None
    if raw:
        counted = money_or_none(raw, ZERO, MAX_COUNT)
        if counted is None:
            messages.error(request, gettext("Give the cash counted in yuan, such as 352.50."))
            return DayClose()
    try:
        till.close_day(member.room, day, member, counted, request.POST.get("seen") or None)
    except till.DayRefused as e:
        messages.error(request, e.message)
        return DayClose()
    messages.success(request, gettext("Day closed."))
    return None


def _set_hour(request: HttpRequest, member: RoomMember, back: HttpResponse) -> HttpResponse:
    """The hour the room's day ends: the owner's alone (docs/security.md), here too."""
    if not member.is_owner:
        return HttpResponseForbidden(
            gettext("Only the room's owner sets the hour its day ends."),
            content_type="text/plain; charset=utf-8",
        )
    hour = int_or_none(request.POST.get("hour"), 0, LAST_DAY_END_HOUR)
    if hour is None:
        messages.error(request, gettext("The day ends at an hour from 0 to 12."))
    elif till.set_day_end(member.room, hour, member):
        messages.success(request, gettext("Saved. Days already closed keep their hours."))
    return back


@room_admin
@require_safe
def till_report(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The room's money by day, week or month: a row per day, per table and per
    configuration; as CSV (in the page's language) with ?format=csv."""
    day = _day(request, member)
    if day is None:
        return _bad_day()
    kind = request.GET.get("period", "month")
    if kind not in ("day", "week", "month"):
        kind = "month"
    first, last = till.period(kind, day)
    books = book.books(member.room, first, last)
    if request.GET.get("format") == "csv":
        return csv_download(csv_text(report_rows(books)), f"{member.room.slug}-{first}-{last}")
    context = {
        "member": member,
        "room": member.room,
        "nav": "till",
        "day": day,
        "kind": kind,
        "books": books,
        **_taken_by_method(books),
        "kinds": [("day", gettext("Day")), ("week", gettext("Week")), ("month", gettext("Month"))],
    }
    return render(request, "room/till_report.html", context)


def _taken_by_method(books: book.Books) -> dict[str, object]:
    """The report's money taken, a row per day and a column per method used."""
    total = books.total
    used = [m for m in METHODS if m in total.taken]
    return {
        "total": total,
        "methods": [(m, METHODS[m]) for m in used],
        "taken": [(t.label, [t.taken.get(m, ZERO) for m in used]) for t in books.days if t.taken],
        "taken_total": [total.taken[m] for m in used],
    }


def money_head() -> list[object]:
    """The money columns every report of the books has, in one order (CSV)."""
    return [
        gettext("Charged (yuan)"),
        gettext("Collected (yuan)"),
        gettext("Of it paid later (yuan)"),
        gettext("Owed (yuan)"),
        gettext("Point fees (yuan)"),
        gettext("Point fees (points)"),
    ]


def money_cells(t: book.Charged) -> list[object]:
    return [
        amount(t.charged),
        amount(t.collected),
        amount(t.later),
        amount(t.owed),
        amount(t.point_money),
        t.points,
    ]


def report_rows(books: book.Books) -> list[list[object]]:
    """The report's CSV: a row per table and day, then the totals per day (with the
    money taken that day by method), per table, per configuration and in all (money
    to the 分, 元; plain numbers with an ASCII minus)."""
    methods = list(METHODS)
    head: list[object] = [
        gettext("Day"),
        gettext("Table"),
        gettext("Started"),
        gettext("Rules"),
        gettext("Players"),
        *money_head(),
        *[gettext("Taken: %(method)s (yuan)") % {"method": METHODS[m]} for m in methods],
    ]
    blank = [""] * len(methods)
    rows: list[list[object]] = [head]
    for r in books.rows:
        rows.append(
            [
                r.day.isoformat(),
                r.label,
                local_time(r.started),
                r.config,
                "、".join(r.players),
                *money_cells(r),
                *blank,
            ]
        )
    for t in books.days:
        taken = [amount(t.taken[m]) if m in t.taken else "" for m in methods]
        rows.append([gettext("Day"), t.label, "", "", "", *money_cells(t), *taken])
    for what, group in ((gettext("Table"), books.tables), (gettext("Rules"), books.configs)):
        for t in group:
            rows.append([what, t.label, "", "", "", *money_cells(t), *blank])
    total = books.total
    taken = [amount(total.taken[m]) if m in total.taken else "" for m in methods]
    rows.append([total.label, "", "", "", "", *money_cells(total), *taken])
    return rows


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def balances(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """Members' balances (会员储值): each one's balance, and a top-up by a method."""
    room = member.room
    if request.method == "POST":
        _top_up(request, member)
        return HttpResponseRedirect(reverse("scorer:manage_balances", args=[room.slug]))
    players = list(
        room.players.annotate(balance=Sum("balance_entries__amount"))
        .prefetch_related("aliases")
        .order_by("name")
    )
    context = {
        "member": member,
        "room": room,
        "nav": "till",
        "members": [p for p in players if p.balance is not None],
        "players": players,
        "methods": [(m, METHODS[m]) for m in HAND_METHODS],
    }
    return render(request, "room/balances.html", context)


def _top_up(request: HttpRequest, member: RoomMember) -> None:
    """A top-up of the player named (his name or an old one, typed or picked from the
    searchable list), or of a new member made for it ("新会员", no table needed); the
    message names who and how much."""
    room = member.room
    name = (request.POST.get("name") or "").strip()
    pk = id_or_none(request.POST.get("player"))
    player = room.players.filter(pk=pk).first() if pk else None
    if player is None and name:
        player = Player.named(room.pk, name)
    amount = money_or_none(request.POST.get("amount", ""), Decimal("0.01"), MAX_PRICE)
    method = request.POST.get("method", "")
    if amount is None or method not in HAND_METHODS:
        messages.error(request, gettext("Give an amount in yuan, such as 200, and a method."))
        return
    if player is None and request.POST.get("new") and name:
        try:
            player = till.new_member(room, name)
        except TextRefused as e:
            messages.error(request, e.message)
            return
        except till.LooksLike as e:
            messages.error(
                request,
                gettext(
                    "“%(name)s” looks like %(other)s, a player of this room: choose him from"
                    " the list if it is the same person, or type the name another way."
                )
                % {"name": e.name, "other": e.other.name},
            )
            return
        except ValueError:
            player = None
    if player is None:
        messages.error(
            request,
            gettext("No player of this room is called %(name)s: tick “new member” to add one.")
            % {"name": name}
            if name
            else gettext("Choose a player of this room."),
        )
        return
    till.top_up(player, amount, method, member)
    messages.success(
        request,
        gettext("Topped up %(name)s's balance by %(amount)s (%(method)s): it is %(balance)s.")
        % {
            "name": player.name,
            "amount": yuan_text(amount),
            "method": METHODS[method],
            "balance": yuan_text(till.balance_of(player)),
        },
    )


@room_admin
def statement(request: HttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    """A member's statement: every top-up and charge, and his balance.  (The player is
    looked up first: another room's player is a 404 whatever the method.)"""
    player = player_or_404(member, pk)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    entries, balance = till.statement(player)
    context = {
        "member": member,
        "room": member.room,
        "nav": "till",
        "player": player,
        "entries": entries,
        "balance": balance,
        "methods": METHODS,
    }
    return render(request, "room/statement.html", context)
