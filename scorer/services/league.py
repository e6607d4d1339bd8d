"""The room's league as its pages read it: a season's tables and standings, the
players' ratings, their stats and head to head, all from the results kept at the
close (scorer/models/results.py), never from the rounds.

Every read is a fixed number of queries whatever the size of the room
(benchmarks/league.py counts them at 500 and 5,000 tables): the season's rows in
one, the ratings of its players in one.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery

from rules.registry import rating_family
from scorer.models import League, Player, Room, Season, TableResult
from scorer.ratings import PROVISIONAL_SIGMA, shown
from scorer.standings import Ranking, Standing, Standings, score_text, standings


def ranking_of(season: Season) -> Ranking:
    return Ranking(season.ranking, season.place_points or {}, season.uma or {},
                   season.min_tables, season.best_n)  # fmt: skip


def config_q(season: Season) -> Q:
    """The tables of the season's configurations: their ruleset, and their preset
    where the configuration was made from one.  No configuration: every table."""
    q = Q()
    for c in season.configs.all():
        q |= Q(ruleset=c.ruleset, **({"preset": c.preset} if c.preset else {}))
    return q


def current_season(room_id: int, today: dt.date) -> Season | None:
    """The season a league page opens on: the open one whose days hold today, else
    the newest open one, else the newest."""
    seasons = Season.objects.filter(room_id=room_id)
    return (
        seasons.filter(closed_at__isnull=True, first_day__lte=today, last_day__gte=today).first()
        or seasons.filter(closed_at__isnull=True).first()
        or seasons.first()
    )


def season_rows(season: Season, ruleset: str = "") -> QuerySet[TableResult]:
    """The counted rows of the season's tables: closed on its days (the room's days, as
    the books cut them), every seat a registry player, in the room's books."""
    rows = TableResult.objects.filter(
        room_id=season.room_id, counted=True, day__gte=season.first_day, day__lte=season.last_day
    ).filter(config_q(season))
    return rows.filter(ruleset=ruleset) if ruleset else rows


def left_out(room: Room) -> set[int]:
    league = League.objects.filter(room=room).first()
    return set(league.left_out.values_list("pk", flat=True)) if league is not None else set()


def live_standings(season: Season, ruleset: str = "") -> Standings:
    return standings(ranking_of(season), season_rows(season, ruleset), left_out(season.room))


@dataclass(frozen=True)
class RatingNow:
    shown: int
    provisional: bool
    change: int | None  # its last table's


def ratings(room_id: int, family: str, players: Iterable[int]) -> dict[int, RatingNow]:
    """Each player's rating in the family now (his last counted table's), one query."""
    last = TableResult.objects.filter(
        room_id=room_id, family=family, counted=True, player_id=OuterRef("pk")
    ).order_by("-closed_at", "-session_id")
    rows = (
        Player.objects.filter(pk__in=list(players))
        .annotate(
            mu=Subquery(last.values("mu_after")[:1]),
            sigma=Subquery(last.values("sigma_after")[:1]),
            mu0=Subquery(last.values("mu_before")[:1]),
            sigma0=Subquery(last.values("sigma_before")[:1]),
        )
        .values_list("pk", "mu", "sigma", "mu0", "sigma0")
    )
    out = {}
    for pk, mu, sigma, mu0, sigma0 in rows:
        if mu is None or sigma is None:
            continue
        change = shown(mu, sigma) - shown(mu0, sigma0) if mu0 is not None else None
        out[pk] = RatingNow(shown(mu, sigma), sigma > PROVISIONAL_SIGMA, change)
    return out


def standing_json(s: Standing, kind: str, rating: RatingNow | None) -> dict[str, Any]:
    """One line of the standings as the pages, the picture, the CSV and a closed
    season's kept standings read it."""
    return {
        "rank": s.rank, "player": s.player_id, "name": s.name,
        "score": score_text(s.score, kind), "points": s.points, "tables": s.tables,
        "counted": s.counted, "places": list(s.places), "best": s.best,
        "rating": rating.shown if rating else None,
        "provisional": rating.provisional if rating else True,
        "trend": rating.change if rating else None,
    }  # fmt: skip


def season_family(season: Season, ruleset: str = "") -> str:
    if ruleset:
        return rating_family(ruleset)
    first = next(iter(season.configs.all()), None)
    return rating_family(first.ruleset) if first is not None else ""


def standings_json(season: Season, ruleset: str = "") -> dict[str, Any]:
    """The season's standings: kept as closed, or live from its tables' rows."""
    if season.closed_at is not None and not ruleset and season.final:
        return dict(season.final)
    got = live_standings(season, ruleset)
    family = season_family(season, ruleset)
    rated = ratings(season.room_id, family, [s.player_id for s in got.ranked + got.unranked])
    return {
        "ranked": [standing_json(s, season.ranking, rated.get(s.player_id)) for s in got.ranked],
        "unranked": [
            standing_json(s, season.ranking, rated.get(s.player_id)) for s in got.unranked
        ],  # fmt: skip
        "not_counted": len(got.not_counted),
        "family": family,
    }


def close_season(season: Season, by: Any) -> bool:
    """Close the season keeping its standings as they are now."""
    return season.close(by, standings_json(season))


# ----------------------------------------------------------------------------- stats


@dataclass
class Stats:
    """A player's figures over some tables, each with its raw counts."""

    tables: int = 0
    hands: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    fan_wins: int = 0  # wins at fan-counting tables
    win_fans: int = 0
    point_wins: int = 0
    win_points: int = 0
    net: int = 0
    fans: Counter[str] = field(default_factory=Counter)
    biggest: list[TableResult] = field(default_factory=list)

    def add(self, r: TableResult) -> None:
        self.tables += 1
        self.hands += r.hands
        if 1 <= r.place <= 4:
            self.places[r.place - 1] += 1
        self.wins += r.wins
        self.self_draws += r.self_draws
        self.deal_ins += r.deal_ins
        self.net += r.points
        if r.counts_fans:
            self.fan_wins, self.win_fans = self.fan_wins + r.wins, self.win_fans + r.win_fans
        else:
            self.point_wins += r.wins
            self.win_points += r.win_points
        for zh, (_en, n) in (r.fans or {}).items():
            self.fans[zh] += int(n)
        if r.best_round is not None:
            self.biggest.append(r)

    @staticmethod
    def rate(part: int, whole: int) -> dict[str, Any]:
        """ "23 % (41/178)": the percentage and the counts behind it."""
        return {"pct": round(100 * part / whole) if whole else None, "part": part, "whole": whole}

    def figures(self) -> dict[str, Any]:
        return {
            "tables": self.tables, "hands": self.hands, "places": self.places, "net": self.net,
            "win_rate": self.rate(self.wins, self.hands),
            "self_draw_rate": self.rate(self.self_draws, self.wins),
            "deal_in_rate": self.rate(self.deal_ins, self.hands),
            "avg_fans": round(self.win_fans / self.fan_wins, 1) if self.fan_wins else None,
            "fan_wins": self.fan_wins,
            "avg_points": round(self.win_points / self.point_wins, 1) if self.point_wins else None,
            "point_wins": self.point_wins,
            "top_fans": self.fans.most_common(8),
            "biggest": sorted(self.biggest, key=hand_size, reverse=True)[:5],
        }  # fmt: skip


def hand_size(r: TableResult) -> tuple[int, int]:
    """A biggest hand's size: by fans where the ruleset counts fans, else by points."""
    fans, points = r.best_fans or 0, r.best_points or 0
    return (fans, points) if r.counts_fans else (points, fans)


def stats_of(rows: Iterable[TableResult]) -> dict[str, Any]:
    st = Stats()
    for r in rows:
        st.add(r)
    return st.figures()


def head_to_head(a: Player, b: Player) -> dict[str, Any]:
    """The net between two players over the tables they shared, and who dealt into whom."""
    shared = TableResult.objects.filter(player=b).values("session_id")
    rows = TableResult.objects.filter(session_id__in=shared, player_id__in=[a.pk, b.pk])
    by: dict[int, dict[int, TableResult]] = defaultdict(dict)
    for r in rows:
        by[r.session_id][r.player_id] = r  # type: ignore[index]
    out = {"tables": 0, "net_a": 0, "net_b": 0, "a_into_b": 0, "b_into_a": 0, "a_above": 0}
    for seats in by.values():
        ra, rb = seats.get(a.pk), seats.get(b.pk)
        if ra is None or rb is None:
            continue
        out["tables"] += 1
        out["net_a"] += ra.points
        out["net_b"] += rb.points
        out["a_into_b"] += int((ra.fed or {}).get(str(rb.seat), 0))
        out["b_into_a"] += int((rb.fed or {}).get(str(ra.seat), 0))
        out["a_above"] += ra.place < rb.place
    return out


def opponents(player: Player, limit: int = 8) -> list[tuple[Player, int]]:
    """The players he shared most tables with, most first."""
    mine = TableResult.objects.filter(player=player).values("session_id")
    counts = Counter(
        TableResult.objects.filter(session_id__in=mine, player__isnull=False)
        .exclude(player=player)
        .values_list("player_id", flat=True)
    )
    players = Player.objects.in_bulk([pk for pk, _ in counts.most_common(limit)])
    return [(players[pk], n) for pk, n in counts.most_common(limit) if pk in players]


def big_hands(rows: Sequence[TableResult], limit: int = 10) -> list[TableResult]:
    """大牌榜: the biggest hands among these rows, by fans (or points) and then by time."""
    hands = [r for r in rows if r.best_round is not None and r.best_hand]
    return sorted(hands, key=lambda r: (hand_size(r), -r.closed_at.timestamp()), reverse=True)[
        :limit
    ]


__all__ = [
    "RatingNow",
    "Stats",
    "big_hands",
    "close_season",
    "config_q",
    "current_season",
    "head_to_head",
    "left_out",
    "live_standings",
    "opponents",
    "ranking_of",
    "ratings",
    "season_family",
    "season_rows",
    "stats_of",
    "standing_json",
    "standings_json",
]
