"""What the league's tests compare: a table's kept rows, and the rows its rounds give
when rebuilt from scratch, as plain dicts."""

from __future__ import annotations

from typing import Any

from scorer.models import GameSession, TableResult
from scorer.models.results import build_results

FIELDS = ("seat", "player_id", "place", "points", "standard_12", "net_yuan", "hands", "wins",
          "self_draws", "deal_ins", "win_fans", "win_points", "top_win", "best_fans", "best_points",
          "best_round", "best_hand", "fans", "fed", "counted", "day", "family")  # fmt: skip
RATINGS = ("mu_before", "sigma_before", "mu_after", "sigma_after")


def as_dict(row: Any, ratings: bool = False) -> dict[str, Any]:
    names = FIELDS + (RATINGS if ratings else ())
    return {f: getattr(row, f) for f in names}


def kept(session: GameSession, ratings: bool = False) -> list[dict[str, Any]]:
    rows = TableResult.objects.filter(session_id=session.pk).order_by("seat")
    return [as_dict(r, ratings) for r in rows]


def rebuilt(session: GameSession) -> list[dict[str, Any]]:
    session.refresh_from_db()
    return [as_dict(r) for r in build_results(session)]
