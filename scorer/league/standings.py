"""A season's standings from its tables' kept results: pure arithmetic, no model.

A table's score for a seat, by the season's ranking:
* 标准分 (standard): points per place (4/2/1/0 for four players), shared on ties
  ("并列者平分", `settleup.standard_points`);
* net points (points): the seat's final points;
* net 元 (yuan): its points × the table's rate; a table without a rate is not counted;
* net points plus uma (uma): its points plus the uma of its place, shared on ties.

A player's season score is the sum over his tables (his best N, where the season
says so).  The order is the tournaments' tie-break chain: season score, then total 比赛分
(the points of those tables), then the counts of 1st, 2nd, 3rd and 4th places,
then the best single game; players equal on all of them share the place.  Players
with fewer tables than the season's minimum are listed apart ("未满 N 场").

Every sum is exact (Fractions), and nothing depends on the order the tables come
in: the standings of the same tables are the same standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

from scorer.league.seat_results import place_points, shared

STANDARD, POINTS, YUAN, UMA = "standard", "points", "yuan", "uma"


class Row(Protocol):
    """What the standings read of a kept result (scorer.models.TableResult is one)."""

    @property
    def session_id(self) -> int: ...
    @property
    def player_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def n_players(self) -> int: ...
    @property
    def place(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def net_yuan(self) -> Decimal | None: ...


@dataclass(frozen=True)
class Ranking:
    """How a season ranks: its kind, points and uma per place by player count, its
    minimum of tables and its best N (None: every table)."""

    kind: str = STANDARD
    place_points: Mapping[str, Sequence[int]] = field(default_factory=dict)
    uma: Mapping[str, Sequence[int]] = field(default_factory=dict)
    min_tables: int = 0
    best_n: int | None = None


@dataclass
class Standing:
    player_id: int
    name: str
    score: Fraction = Fraction(0)
    points: int = 0  # 比赛分 of the tables counted
    tables: int = 0  # tables played in the season (all, even beyond the best N)
    counted: int = 0  # tables summed (the best N)
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    best: int | None = None  # the best single game's points
    rank: int = 0

    def chain(self) -> tuple[Any, ...]:
        """The tournaments' tie-break chain, biggest first."""
        return (self.score, self.points, *self.places, self.best if self.best is not None else 0)


@dataclass
class Standings:
    ranked: list[Standing]
    unranked: list[Standing]  # 未满 N 场
    not_counted: list[int]  # tables in the season the ranking cannot count (no rate)


def table_scores(ranking: Ranking, rows: Sequence[Row]) -> list[Fraction] | None:
    """Each seat's score at one table (rows in seat order); None: not counted."""
    n = len(rows)
    points = [r.points for r in rows]
    if ranking.kind == STANDARD:
        by_place = _per_place(ranking.place_points, n) if ranking.place_points else place_points(n)
        return shared(points, by_place)
    if ranking.kind == UMA:
        return [p + u for p, u in zip(points, shared(points, _per_place(ranking.uma, n)),
                                        strict=True)]  # fmt: skip
    if ranking.kind == YUAN:
        if any(r.net_yuan is None for r in rows):
            return None
        return [Fraction(r.net_yuan) for r in rows]  # type: ignore[arg-type]
    return [Fraction(p) for p in points]


def _per_place(table: Mapping[str, Sequence[int]], n: int) -> list[int]:
    got = list(table.get(str(n)) or [])
    return (got + [0] * n)[:n]


def standings(ranking: Ranking, rows: Iterable[Row], left_out: Iterable[int] = ()) -> Standings:
    """The season's standings over the counted tables' rows."""
    tables: dict[int, list[Row]] = defaultdict(list)
    for r in rows:
        tables[r.session_id].append(r)
    out: dict[int, list[tuple[Fraction, int, int]]] = defaultdict(list)
    names: dict[int, str] = {}
    not_counted = []
    for sid, seats in sorted(tables.items()):
        seats = sorted(seats, key=lambda r: (r.place, r.player_id or 0))
        scores = table_scores(ranking, seats)
        if scores is None:
            not_counted.append(sid)
            continue
        for r, score in zip(seats, scores, strict=True):
            if r.player_id is not None:
                out[r.player_id].append((score, r.points, r.place))
                names[r.player_id] = r.name
    skip = set(left_out)
    everyone = [_standing(pid, names[pid], games, ranking.best_n)
                for pid, games in out.items() if pid not in skip]  # fmt: skip
    return ordered(everyone, ranking.min_tables, not_counted)


def ordered(everyone: list[Standing], min_tables: int, not_counted: list[int]) -> Standings:
    """The players in the order of the tie-break chain, those under the minimum apart,
    each group's places shared where the whole chain is equal."""
    everyone.sort(key=lambda s: (tuple(-x for x in s.chain()), s.name, s.player_id))
    ranked = [s for s in everyone if s.tables >= min_tables]
    unranked = [s for s in everyone if s.tables < min_tables]
    for group in (ranked, unranked):
        for i, s in enumerate(group):
            s.rank = group[i - 1].rank if i and group[i - 1].chain() == s.chain() else i + 1
    return Standings(ranked, unranked, not_counted)


def _standing(pid: int, name: str, games: list[tuple[Fraction, int, int]], best_n: int | None
              ) -> Standing:  # fmt: skip
    # The best N by score, then points, then place: games equal on all three add the same.
    games = sorted(games, key=lambda g: (-g[0], -g[1], g[2]))
    summed = games[:best_n] if best_n else games
    s = Standing(pid, name, tables=len(games), counted=len(summed))
    for score, points, place in summed:
        s.score += score
        s.points += points
        if 1 <= place <= 4:
            s.places[place - 1] += 1
        s.best = points if s.best is None else max(s.best, points)
    return s


def score_text(score: Fraction | Decimal | int, kind: str) -> str:
    """A season score as the page writes it: 标准分 to two places at most (10.33),
    points as a whole number, 元 to the 分."""
    if kind == YUAN:
        return f"{Decimal(score.numerator) / Decimal(score.denominator):.2f}" if isinstance(
            score, Fraction) else f"{Decimal(score):.2f}"  # fmt: skip
    value = Fraction(score)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


__all__ = [
    "POINTS",
    "STANDARD",
    "UMA",
    "YUAN",
    "Ranking",
    "Row",
    "Standing",
    "Standings",
    "score_text",
    "ordered",
    "standings",
    "table_scores",
]
