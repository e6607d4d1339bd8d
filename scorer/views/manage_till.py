"""The room's till for its admins: a closed table's fee collected by method or left
owed, the day's close-out (日结), reports by day, week and month (and their CSV),
members' balances (会员储值) and a member's statement.  Every change is a function
of scorer/services/till.py (one transaction, the row locked, the room's log written)."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.db.models import Sum
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from scorer.models.money import BALANCE, HAND_METHODS, METHODS
from scorer.models.players import Player
from scorer.models.rooms import LAST_DAY_END_HOUR, RoomMember
from scorer.parse import date_or_none, id_or_none, int_or_none
from scorer.services import till
from scorer.services.access import player_or_404, room_admin, room_session_or_404
from scorer.spreadsheet import amount, csv_text
from scorer.views import csv_download

__all__ = [
    "balances",
    "statement",
    "till_day",
    "till_report",
    "till_table",
]


def _day(request: HttpRequest, member: RoomMember) -> dt.date | None:
    raw = request.GET.get("day") or request.POST.get("day")
    return till.today(member.room) if not raw else date_or_none(raw)


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
            choices = {
                seat: request.POST.get(f"seat_{seat}", till.OWED)
                for seat in range(session.n_players)
            }
            made = till.collect(session, choices, member)
            if made:
                messages.success(request, gettext("Collected."))
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
        "day": till.room_day(member.room, session.closed_at) if session.closed_at else None,
    }
    return render(request, "room/till_table.html", context)


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def till_day(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """日结: the day's charged, collected by method, still owed; closing the day."""
    day = _day(request, member)
    if day is None:
        return _bad_day()
    room = member.room
    if request.method == "POST":
        if request.POST.get("action") == "hour":
            hour = int_or_none(request.POST.get("hour"), 0, LAST_DAY_END_HOUR)
            if hour is not None:
                room.day_ends_hour = hour
                room.save(update_fields=["day_ends_hour"])
                messages.success(request, gettext("Saved."))
            else:
                messages.error(request, gettext("The day ends at an hour from 0 to 12."))
        elif till.close_day(room, day, member) is None:
            messages.info(request, gettext("That day was closed already."))
        else:
            messages.success(request, gettext("Day closed."))
        return HttpResponseRedirect(
            reverse("scorer:manage_till", args=[room.slug]) + f"?day={day.isoformat()}"
        )
    context = {
        "member": member,
        "room": room,
        "nav": "till",
        "day": day,
        "books": till.books(room, day),
        "closed": room.day_closes.filter(day=day).first(),
        "hours": range(LAST_DAY_END_HOUR + 1),
    }
    return render(request, "room/till_day.html", context)


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
    books = till.books(member.room, first, last)
    if request.GET.get("format") == "csv":
        return csv_download(csv_text(report_rows(books)), f"{member.room.slug}-{first}-{last}")
    context = {
        "member": member,
        "room": member.room,
        "nav": "till",
        "day": day,
        "kind": kind,
        "books": books,
        "kinds": [("day", gettext("Day")), ("week", gettext("Week")), ("month", gettext("Month"))],
    }
    return render(request, "room/till_report.html", context)


def report_rows(books: till.Books) -> list[list[object]]:
    """The report's CSV: a row per table and day, then the totals per day, per table, per
    configuration and in all (money to the 分, 元)."""
    head: list[object] = [
        gettext("Day"),
        gettext("Table"),
        gettext("Rules"),
        gettext("Players"),
        gettext("Charged (yuan)"),
        gettext("Collected (yuan)"),
        gettext("Owed (yuan)"),
    ]
    rows: list[list[object]] = [head]
    for r in books.rows:
        rows.append(
            [
                r.day.isoformat(),
                r.label,
                r.config,
                "、".join(r.players),
                amount(r.charged),
                amount(r.collected),
                amount(r.owed),
            ]
        )
    for what, group in (
        (gettext("Day"), books.days),
        (gettext("Table"), books.tables),
        (gettext("Rules"), books.configs),
    ):
        for t in group:
            rows.append(
                [what, t.label, "", "", amount(t.charged), amount(t.collected), amount(t.owed)]
            )
    total = books.total
    rows.append(
        [
            total.label,
            "",
            "",
            "",
            amount(total.charged),
            amount(total.collected),
            amount(total.owed),
        ]
    )
    return rows


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def balances(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """Members' balances (会员储值): each one's balance, and a top-up by a method."""
    room = member.room
    if request.method == "POST":
        try:
            player = room.players.get(pk=id_or_none(request.POST.get("player")) or 0)
        except Player.DoesNotExist:
            messages.error(request, gettext("Choose a player of this room."))
        else:
            method = request.POST.get("method", "")
            try:
                money = till.checked_amount(request.POST.get("amount", ""))
                till.top_up(player, money, method, member)
            except (till.BadAmount, ValueError):
                messages.error(
                    request, gettext("Give an amount in yuan, such as 200, and a method.")
                )
            else:
                messages.success(request, gettext("Topped up."))
        return HttpResponseRedirect(reverse("scorer:manage_balances", args=[room.slug]))
    players = list(room.players.annotate(balance=Sum("balance_entries__amount")).order_by("name"))
    context = {
        "member": member,
        "room": room,
        "nav": "till",
        "members": [p for p in players if p.balance is not None],
        "players": players,
        "methods": [(m, METHODS[m]) for m in HAND_METHODS],
    }
    return render(request, "room/balances.html", context)


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
