"""The table page's board: the seats and their totals, the next hand's dealer and
wind, the round played event by event, the chart of the running totals; what the
page shows and each poll redraws (scorer/views/session.py answers with it).

The chart is built here for the final page too (`totals_chart`): one drawing of
the running totals, the steps that are no hand marked by their kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext

from rules.registry import event_steps
from rules.table import Scoring
from scorer.language import seat_name
from scorer.models import GameSession, Round, RoundRevision
from scorer.present.chart import Mark, Series, chart_legend, line_chart, running_totals
from scorer.present.events import SUM, describe, headline, join_names
from scorer.present.fee import clock_view, room_line
from scorer.present.words import EVENT_ACTIONS, WIND_NAMES, etag_of, line_label, money_text
from scorer.templatetags.scorer_format import sign_class

__all__ = ["TotalsChart", "board", "events_round", "kind_marks", "last_step", "totals_chart"]


def kind_marks(rounds: list[Round]) -> list[Mark]:
    """The chart's marks for the steps that are adjustments or penalties, named by
    their kind and line ("第 4 行：调整"): no 局."""
    counted = [r for r in rounds if r.current is not None]
    return [
        Mark(k, capfirst(line_label(r.current.kind, r.number, None)))
        for k, r in enumerate(counted, 1)
        if r.current is not None and r.current.kind in RoundRevision.NOT_HANDS
    ]


@dataclass(frozen=True)
class TotalsChart:
    """The running totals drawn: `page`, the lines with the names and totals as HTML
    under them (scorer/present/chart.py says why); `series`, for a drawing of
    their own (the final picture labels the lines' ends instead)."""

    series: list[Series]
    page: SafeString


def totals_chart(rounds: list[Round], names: Sequence[str]) -> TotalsChart:
    """Each player's running total over the rounds that count, for the table page
    (redrawn by every poll that brings a change) and the final page alike."""
    deltas = [r.current.deltas for r in rounds if r.current is not None]
    series = [
        Series(name, pts)
        for name, pts in zip(names, running_totals(deltas, len(names)), strict=True)
    ]
    page = mark_safe(  # noqa: S308 (escaped)
        line_chart(series, gettext("Running totals"), labels=False, marks=kind_marks(rounds))
        + chart_legend(series)
    )
    return TotalsChart(series, page)


def board(session: GameSession, was: list[int] | None = None) -> dict[str, Any]:
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
    shown = (
        events_round(rounds[-1], names, table.reasons, table.scoring, len(hands))
        if rounds
        else None
    )
    live = shown if shown is not None and shown["in_progress"] else None
    finished = shown if shown is not None and live is None else None
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
        "chart": totals_chart(rounds, names).page if rounds else "",
        "stepwise": table.stepwise,
        "winds": table.prevalent_wind,
        # The win button in the middle, under the thumb: kong, win, the round's end.
        "event_actions": [
            {"id": e.id, "label": EVENT_ACTIONS.get(e.id, e.zh)}
            for e in sorted(table.events, key=lambda e: list(EVENT_ACTIONS).index(e.id))
        ],
        "live": live,
        "finished_round": finished if finished is not None and finished["events"] else None,
        "undo_event": shown,
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


def events_round(
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
        "last": last_step(result, names, scoring, events),
        "out": out,
        "out_names": join_names([seat_name(names, s) for s in out]),
    }


def last_step(
    result: Mapping[str, Any], names: Sequence[str], scoring: Scoring, events: list[Any]
) -> str:
    """What 撤销上一步 takes back, in a line: the last event, or the last winner who
    joined a win on its discard (一炮多响), said as his win alone."""
    reports = [r for r in result.get("events") or [] if isinstance(r, Mapping)]
    winners = reports[-1].get("winners") if reports else None
    if isinstance(winners, list) and len(winners) > 1:
        return headline({**reports[-1], "winners": winners[-1:]}, names, scoring)
    return str(events[-1]["text"]) if events else ""
