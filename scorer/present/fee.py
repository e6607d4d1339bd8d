"""The room's line (台费) as the table's pages show it: beside the players, never among them.

The players' totals are their net after the fee; the room's take is the rest of
the zero-sum, said on a line of its own with the room's name and how the table
is charged.  Only a table the room charges (or that paid something) has the line,
and only then is the room's row read (the pages without a fee keep their queries).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scorer.models import GameSession
from scorer.present.words import money_text
from scorer.templatetags.scorer_format import sign_class


def room_label(session: GameSession) -> str:
    """Who the fee is paid to: the room, by its name ("台费 · 棋牌室" reads as the line)."""
    return session.room.name or gettext("Room")


def room_line(session: GameSession, take: int) -> dict[str, Any] | None:
    """The room's line of a table: its name, what it has taken, as money where the
    table has a rate, and how it charges; None for a table that pays no fee."""
    rule = session.fee_rule()
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


__all__ = ["room_label", "room_line"]
