"""The end of the evening as its pages show it: the final page's ranking, points and
money, the fewest payments that settle everyone, the chart; and the picture of it
all sized for a chat message (final.svg), laid out here so the view only answers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

from rules import REGISTRY
from scorer.language import by_language
from scorer.models import GameSession
from scorer.money.settleup import settle_up, standard_points
from scorer.present.board import totals_chart
from scorer.present.chart import fit_text, line_chart, text_width
from scorer.present.fee import room_line
from scorer.present.words import money_text
from scorer.templatetags.scorer_format import sign_class, signed_text

__all__ = ["picture", "picture_meta", "summary"]


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
    chart = totals_chart(rounds, names)
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
        "chart": chart.page,
        "chart_picture": mark_safe(line_chart(chart.series, gettext("Running totals"))),  # noqa: S308
    }


def _points_text(points: Fraction) -> str:
    """4, 1.5, 2.33: a share of rank points, as a table writes it."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")


def _money(amount: Decimal, rate: Decimal) -> str:
    return money_text(amount, rate).lstrip("+")


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


def picture(session: GameSession) -> dict[str, Any]:
    """What the final page's picture (final.svg) shows, laid out: its rows, payments
    and chart placed down a 1080 px column, each name cut to the room it has."""
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
    return context
