"""The end of the evening: close a table (结束本桌), reopen it, and its final page —
ranking, points and money, the fewest payments that settle everyone, the chart,
and a picture of it all sized for a chat message."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from rules import REGISTRY, RuleError
from scorer import phone
from scorer.access import session_or_404
from scorer.language import by_language, rule_error_text
from scorer.models import GameSession
from scorer.present.chart import (
    Series,
    chart_legend,
    fit_text,
    line_chart,
    running_totals,
    text_width,
)
from scorer.present.fee import clock_view, room_line
from scorer.present.words import money_text
from scorer.settleup import settle_up, standard_points
from scorer.templatetags.scorer_format import sign_class, signed_text
from scorer.text import NOTE, TextRefused, clean_text
from scorer.views import HtmxHttpRequest
from scorer.views.session import kind_marks

__all__ = ["close", "final", "final_svg", "reopen", "summary"]


def summary(session: GameSession) -> dict[str, Any]:
    """What the final page and its picture show, from the rounds that count."""
    rounds = session.standing_rounds()
    totals = session.tallies(rounds)
    take = session.room_take(rounds)
    room = room_line(session, take)
    names = list(session.players)
    rate = session.money_per_point
    order = sorted(range(len(names)), key=lambda s: -totals[s])
    ranks: dict[int, int] = {}
    for place, seat in enumerate(order):
        ranks[seat] = (
            place + 1
            if place == 0 or totals[seat] != totals[order[place - 1]]
            else ranks[order[place - 1]]
        )
    rows = [
        {
            "seat": seat,
            "rank": ranks[seat],
            "name": names[seat],
            "total": totals[seat],
            "sign": sign_class(totals[seat]),
            "money": None if rate is None else money_text(totals[seat] * rate, rate),
        }
        for seat in order
    ]
    # The room is a payee like a player (its take is the rest of the zero-sum): the
    # fewest payments may have a player pay the room and another player at once.
    payees = [*names, room["name"]] if room is not None else names
    balances = [*totals, take] if room is not None else totals
    payments = [
        {
            "from": payees[payer],
            "to": payees[payee],
            "to_room": payee == len(names),
            "points": amount,
            "money": None if rate is None else _money(amount * rate, rate),
        }
        for payer, payee, amount in settle_up(balances)
    ]
    match = session.rules.table.match
    if match is not None and len(names) == match.players:
        # 标准分 by rank, shared where players tie ("并列者平分").
        for row, points in zip(rows, standard_points([r["total"] for r in rows],
                                                     match.rank_points), strict=True):  # fmt: skip
            row["rank_points"] = _points_text(points)
    deltas = [r.current.deltas for r in rounds if r.current is not None]
    series = [
        Series(n, pts) for n, pts in zip(names, running_totals(deltas, len(names)), strict=True)
    ]
    return {
        "session": session,
        "rows": rows,
        "room_fee": room,
        "payments": payments,
        "round_count": sum(1 for r in rounds if r.is_hand),
        "match_hands": match.hands if match is not None and len(names) == match.players else None,
        "rate": rate,
        "closed": session.closed_at is not None,
        # The page: the lines, and the names and totals as HTML under them (chart_legend);
        # the picture (final.svg): the lines with their end labels.
        "chart": mark_safe(  # noqa: S308 (escaped)
            line_chart(series, gettext("Running totals"), labels=False, marks=kind_marks(rounds))
            + chart_legend(series)
        ),
        "chart_picture": mark_safe(line_chart(series, gettext("Running totals"))),  # noqa: S308
    }


def _points_text(points: Fraction) -> str:
    """4, 1.5, 2.33: a share of rank points, as a table writes it."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")


def _money(amount: Decimal, rate: Decimal) -> str:
    return money_text(amount, rate).lstrip("+")


@require_safe
def final(request: HtmxHttpRequest, code: str) -> HttpResponse:
    session = session_or_404(code)
    phone.hold(request, session)  # a result page is shared by its link: it opens the table
    context = summary(session)
    context["history"] = list(session.changes.all())
    context["player_links"] = [
        {"name": s.player.name, "url": reverse("scorer:player", args=[s.player.slug])}
        for s in session.seats.select_related("player").order_by("seat")
    ]
    # The 计时 fee in 元, apart from the points and their settle-up: what each seat owes
    # the room for the table's time (the room collects it; docs/fees.md).
    if session.rules.time_fee.charges:
        context["clock"] = clock_view(session)
        context["time_shares"] = [
            {"name": str(n), "amount": m}
            for n, m in zip(session.players, session.money_charged(), strict=True)
        ]
    return render(request, "scorer/final.html", context)


# The picture's columns (final.svg): 60 to 1020 of its 1080; a row's name from 130, its
# total ending at 720 (44, bold), money and rank points ending at 1020.
LEFT, RIGHT, NAME_X, TOTAL_END, GAP = 60, 1020, 130, 720, 24


def picture_meta(session: GameSession) -> tuple[str, str]:
    """The picture's lines of when, what and where: the day and the rules, the room
    and its table ("2026-11-28 · 国标麻将", "老李棋牌室 · 3号桌").  Never the
    table's code: it is the table's key, and the picture goes to a chat."""
    rs = REGISTRY.get(session.ruleset)
    day = localtime(session.created_at).date().isoformat()
    rules = by_language(rs.name_zh, rs.name_en) if rs is not None else session.ruleset
    table = session.room_table.label if session.room_table is not None else ""
    return f"{day} · {rules}", " · ".join(p for p in (session.room.name, table) if p)


def _layout_rows(rows: list[dict[str, Any]]) -> None:
    """Each row's name as long as the room its total leaves (cut with "…"): a long
    name ran under a six-digit total."""
    for r in rows:
        total = signed_text(r["total"])
        room = TOTAL_END - text_width(total, 44 * 1.08) - GAP - NAME_X  # bold: wider
        r["name"] = fit_text(str(r["name"]), room, 44)


def _layout_payments(payments: list[dict[str, Any]]) -> None:
    """Each payment on one line inside the picture: the two names share what the
    arrow and the amount leave."""
    for p in payments:
        amount = p["money"] if p["money"] is not None else p["points"]
        rest = RIGHT - LEFT - text_width(f" → {amount}  ", 38)
        payer = fit_text(str(p["from"]), rest / 2, 38)
        p["from"] = payer
        p["to"] = fit_text(str(p["to"]), rest - text_width(payer, 38), 38)


@require_safe
def final_svg(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The final page as one picture (1080 px wide: a chat message's width), in SVG;
    the page turns it into a PNG on the phone, where the fonts for the names are."""
    session = session_or_404(code)
    context = summary(session)
    rows = context["rows"]
    room = context["room_fee"]
    if room is not None:  # the room's line under the players', unranked
        rows.append({"rank": "", "name": f"{gettext('Table fee')} · {room['name']}",
                     "total": room["take"], "money": room["money"], "rank_points": None})  # fmt: skip
    payments = context["payments"]
    _layout_rows(rows)
    _layout_payments(payments)
    context["meta"] = [fit_text(line, RIGHT - LEFT, 30) for line in picture_meta(session)]
    # Rows from y = 340, 80 apart; the payments under their heading, 64 apart; the
    # chart (320 × 150, drawn ×3) last.
    for i, r in enumerate(rows):
        r["y"] = 340 + 80 * i
    context["pay_top"] = pay_top = 340 + 80 * len(rows)
    for i, p in enumerate(payments):
        p["y"] = pay_top + 110 + 64 * i
    context["chart_top"] = chart_top = pay_top + 120 + 64 * max(len(payments), 1)
    context["height"] = chart_top + 3 * 150 + 40
    body = render_to_string("scorer/final.svg", context, request=request)
    response = HttpResponse(body, content_type="image/svg+xml; charset=utf-8")
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _back(request: HtmxHttpRequest, session: GameSession) -> HttpResponse:
    url = reverse("scorer:final", args=[session.code])
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)


@require_POST
def close(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """结束本桌 (after the page's confirm step): the table becomes read-only."""
    session = session_or_404(code)
    try:
        done = session.close(author=phone.my_name(request, session))
    except RuleError as e:
        messages.warning(request, rule_error_text(e))
        url = reverse("scorer:session", args=[session.code])
        return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    if done:
        messages.success(request, gettext("The table is closed. Here is how everyone settles."))
    else:
        messages.info(request, gettext("The table was closed already."))
    return _back(request, session)


@require_POST
def reopen(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Open a closed table again, with a note in its history."""
    session = session_or_404(code)
    try:
        note = clean_text(NOTE, request.POST.get("note") or "")
    except TextRefused as e:  # nothing reopened: the page says why
        messages.warning(request, e.message)
        return _back(request, session)
    if session.reopen(author=phone.my_name(request, session), note=note):
        messages.success(request, gettext("The table is open again."))
        url = reverse("scorer:session", args=[session.code])
        return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    messages.info(request, gettext("The table is open."))
    return _back(request, session)
