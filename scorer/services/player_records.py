"""A player's record (his page, /p/<slug>/): his figures per ruleset over the closed
tables he sat at, and his net after each table, read from the results kept at the
close (scorer/models/results.py), never from the rounds: one query whatever the
number of his tables.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from scorer.models.players import Player
from scorer.models.results import TableResult


@dataclass
class Record:
    """One player's figures over the tables given (one ruleset, or all)."""

    tables: int = 0
    rounds: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0  # one per discard won on (一炮多响 is one)
    net: int = 0
    won: int = 0  # what his wins brought him, summed (at their full value, before 台费)
    top: int | None = None  # the most one win brought him

    @property
    def average_hand(self) -> float | None:
        return self.won / self.wins if self.wins else None

    @property
    def biggest_hand(self) -> int | None:
        return self.top

    def add(self, r: TableResult) -> None:
        self.tables += 1
        self.rounds += r.hands
        self.wins += r.wins
        self.self_draws += r.self_draws
        self.dealt_in += r.deal_ins
        self.net += r.points
        self.won += r.win_points
        if r.top_win is not None:
            self.top = r.top_win if self.top is None else max(self.top, r.top_win)


def records(player: Player) -> tuple[dict[str, Record], list[tuple[Any, int]]]:
    """Per ruleset (and "" for all): his figures; and his net after each table, in the
    order the tables closed."""
    by: dict[str, Record] = defaultdict(Record)
    timeline: list[tuple[Any, int]] = []
    running = 0
    for r in TableResult.objects.filter(player=player).order_by("closed_at", "session_id"):
        for key in ("", r.ruleset):
            by[key].add(r)
        running += r.points
        timeline.append((r.closed_at, running))
    return dict(by), timeline
