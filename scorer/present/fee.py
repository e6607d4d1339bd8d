"""The room's line (台费) as the table's pages show it: beside the players, never among them.

The players' totals are their net after the fee; the room's take is the rest of
the zero-sum, said on a line of its own with the room's name and how the table
is charged.  Only a table the room charges (or that paid something) has the line,
and only then is the room's row read (the pages without a fee keep their queries).
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from scorer.models import GameSession
from scorer.money import clock
from scorer.present.words import money_text
from scorer.templatetags.scorer_format import sign_class


def room_label(session: GameSession) -> str:
    """Who the fee is paid to: the room, by its name ("台费 · 棋牌室" reads as the line)."""
    return session.room.name or gettext("Room")


def room_line(session: GameSession, take: int) -> dict[str, Any] | None:
    """The room's line of a table: its name, what it has taken, as money where the
    table has a rate, and how it charges; None for a table that pays no fee."""
    rule = session.rules.fee
    if not rule.charges and not take:
        return None
    rate = session.money_per_point
    return {
        "name": room_label(session),
        "take": take,
        "sign": sign_class(take),
        "money": None if rate is None else money_text(take * rate, rate),
        "rule": rule.describe(),
    }


def NEXT_FORMAT() -> str:  # noqa: N802 (a sentence with placeholders, said per language)
    return gettext("from %(time)s +%(fee)s")


def next_step(steps: list[list[Any]], seconds: int) -> str:
    """The fee's next step after `seconds` of billed time, in words; "" for none."""
    current = next((Decimal(f) for after, f in reversed(steps) if after < seconds), None)
    for after, fee in steps:
        if after >= seconds and current is not None:
            minutes = after // 60
            return NEXT_FORMAT() % {
                "time": f"{minutes // 60}:{minutes % 60:02d}",
                "fee": f"{Decimal(fee) - current:.2f}",
            }
    return ""


def clock_view(session: GameSession, at: dt.datetime | None = None) -> dict[str, Any]:
    """The table's clock as the pages show it (templates/scorer/_clock.html): the time
    billed so far (start to now or its close, less its pauses), whether it runs, the
    time fee so far in 元, and what the page's script ticks from (static/js/clock.js)."""
    data = session.clock_data(at)
    rule = session.rules.time_fee
    seconds = int(data["seconds"])
    closed = session.closed_at is not None
    return {
        "closed": closed,
        # What the next step costs and when, in billed time ("4:10 起 +7.50"); the
        # script moves it on from the same steps (static/js/clock.js).
        "next": "" if closed else next_step(data["steps"], seconds),
        "next_format": NEXT_FORMAT(),
        "text": clock.duration_text(seconds),
        "seconds": seconds,
        "paused": session.paused,
        "fee": f"{rule.fee(seconds):.2f}" if rule.charges else None,
        "fee_amount": rule.fee(seconds) if rule.charges else None,
        "rule": rule.words() if rule.charges else "",
        "since": timezone.localtime(session.created_at).strftime("%H:%M"),
        "json": json.dumps(data, separators=(",", ":")),
    }


__all__ = ["clock_view", "room_label", "room_line"]
