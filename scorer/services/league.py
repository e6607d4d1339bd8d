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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum

from rules.registry import rating_family
from scorer.clean.parse import int_or_none
from scorer.league.ratings import PROVISIONAL_SIGMA, shown
from scorer.league.seat_results import PLACE_POINTS, TWELFTHS
from scorer.league.standings import (
    POINTS,
    STANDARD,
    UMA,
    YUAN,
    Ranking,
    Standing,
    Standings,
    ordered,
    score_text,
    standings,
)
from scorer.models import League, Player, Season, TableResult


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
    seasons = Season.objects.filter(room_id=room_id).prefetch_related("configs")
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


def left_out(room_id: int) -> set[int]:
    """不参加排名: the players the room's admins left out of the standings (one query)."""
    return set(League.left_out.through.objects.filter(league__room_id=room_id)
               .values_list("player_id", flat=True))  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeatRow:
    """What the standings read of a kept row (scorer/league/standings.py `Row`), fetched as
    plain values: a season of 5,000 tables is 20,000 of them."""

    session_id: int
    player_id: int | None
    name: str
    n_players: int
    place: int
    points: int
    net_yuan: Decimal | None


ROW_FIELDS = ("session_id", "player_id", "name", "n_players", "place", "points", "net_yuan")


def live_standings(season: Season, ruleset: str = "") -> Standings:
    """The season's standings now: summed by the database where the kept rows hold
    the scores already (标准分 at the default points per place, net points, net 元,
    every table counted), else table by table here (the same rules, the same order:
    tests/league/test_seasons.py compares the two)."""
    out = summed_standings(season, ruleset)
    if out is not None:
        return out
    rows = [SeatRow(*t) for t in season_rows(season, ruleset).values_list(*ROW_FIELDS)]
    return standings(ranking_of(season), rows, left_out(season.room_id))


def summed_standings(season: Season, ruleset: str = "") -> Standings | None:
    """The standings summed in one query per player (None: the season needs each
    table's own score: uma, points per place of its own, or only the best N)."""
    ranking = ranking_of(season)
    defaults = {str(n): list(p) for n, p in PLACE_POINTS.items()}
    if ranking.best_n or ranking.kind == UMA:
        return None
    if ranking.kind == STANDARD and dict(ranking.place_points or defaults) != defaults:
        return None
    rows = season_rows(season, ruleset)
    not_counted: list[int] = []
    if ranking.kind == YUAN:
        not_counted = sorted(set(rows.filter(net_yuan__isnull=True)
                                 .values_list("session_id", flat=True)))  # fmt: skip
        rows = rows.exclude(session_id__in=not_counted)
    score = {STANDARD: Sum("standard_12"), POINTS: Sum("points"), YUAN: Sum("net_yuan")}
    sums = (
        rows.exclude(player_id__in=left_out(season.room_id))
        .values("player_id")
        .annotate(
            name=Max("name"), score=score[ranking.kind], total=Sum("points"), tables=Count("id"),
            p1=Count("id", filter=Q(place=1)), p2=Count("id", filter=Q(place=2)),
            p3=Count("id", filter=Q(place=3)), p4=Count("id", filter=Q(place=4)),
            best=Max("points"), last=Max("closed_at"),
        )
    )  # fmt: skip
    names = dict(
        Player.objects.filter(pk__in=[r["player_id"] for r in sums]).values_list("pk", "name")
    )
    everyone = []
    for r in sums:
        value = r["score"] or 0
        total = Fraction(value, TWELFTHS) if ranking.kind == STANDARD else Fraction(value)
        everyone.append(Standing(
            r["player_id"], names.get(r["player_id"], r["name"]), total, r["total"], r["tables"],
            r["tables"], [r["p1"], r["p2"], r["p3"], r["p4"]], r["best"],
        ))  # fmt: skip
    return ordered(everyone, ranking.min_tables, not_counted)


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
    ids = Player.objects.filter(pk__in=list(players)).annotate(last=Subquery(last.values("pk")[:1]))
    rows = TableResult.objects.filter(pk__in=ids.values("last")).values_list(
        "player_id",
        "rating__mu_after",
        "rating__sigma_after",
        "rating__mu_before",
        "rating__sigma_before",
    )
    out = {}
    for pk, mu, sigma, mu0, sigma0 in rows:
        if mu is None or sigma is None:
            continue
        known = mu0 is not None and sigma0 is not None
        change = shown(mu, sigma) - shown(mu0, sigma0) if known else None
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


# How long a page's standings stay in the cache at most: any change of the league
# moves the room's league_version, the key, so this only bounds the memory.
CACHE_SECONDS = 24 * 3600


def cached(season: Season, ruleset: str, part: str, build: Callable[[], Any]) -> Any:
    """What a league page shows of a season, computed once per change of the room's
    league: keyed by the room's `league_version` (scorer/models/league.py
    `league_changed` moves it in the transaction of every change), so a page never
    shows standings older than the last change it was told of."""
    made = season.created_at.timestamp()  # (a season's id alone may come back in a test)
    key = f"league:{season.pk}:{made}:{ruleset}:{part}:{season.room.league_version}"
    got = cache.get(key)
    if got is None:
        got = build()
        cache.set(key, got, CACHE_SECONDS)
    return got


def standings_json(season: Season, ruleset: str = "") -> dict[str, Any]:
    """The season's standings: kept as closed, or live from its tables' rows (cached
    until the league next changes)."""
    if season.closed_at is not None and not ruleset and season.final:
        return dict(season.final)
    return dict(cached(season, ruleset, "standings", lambda: standings_now(season, ruleset)))


def standings_now(season: Season, ruleset: str = "") -> dict[str, Any]:
    """The season's standings from its tables' rows now."""
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
    return season.close(by, standings_now(season))


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


H2H_FIELDS = ("session_id", "player_id", "seat", "points", "place", "fed")


def head_to_head(a: Player, b: Player) -> dict[str, Any]:
    """The net between two players over the tables they shared, and who dealt into whom."""
    shared = TableResult.objects.filter(player=b).values("session_id")
    rows = TableResult.objects.filter(session_id__in=shared, player_id__in=[a.pk, b.pk])
    return _versus(a.pk, b.pk, _by_table(rows.values_list(*H2H_FIELDS)))


def _by_table(rows: Iterable[tuple[Any, ...]]) -> dict[int, dict[int, tuple[Any, ...]]]:
    by: dict[int, dict[int, tuple[Any, ...]]] = defaultdict(dict)
    for row in rows:
        if row[1] is not None:
            by[row[0]][row[1]] = row
    return by


def _versus(a: int, b: int, tables: dict[int, dict[int, tuple[Any, ...]]]) -> dict[str, Any]:
    out = {"tables": 0, "net_a": 0, "net_b": 0, "a_into_b": 0, "b_into_a": 0, "a_above": 0}
    for seats in tables.values():
        ra, rb = seats.get(a), seats.get(b)
        if ra is None or rb is None:
            continue
        out["tables"] += 1
        out["net_a"] += ra[3]
        out["net_b"] += rb[3]
        out["a_into_b"] += int_or_none((ra[5] or {}).get(f"{rb[2]}")) or 0
        out["b_into_a"] += int_or_none((rb[5] or {}).get(f"{ra[2]}")) or 0
        out["a_above"] += ra[4] < rb[4]
    return out


def rivals(player: Player, limit: int = 8) -> list[dict[str, Any]]:
    """Head to head with the players he shared most tables with, most first: every
    row of his tables in one query, his rivals' names in one more."""
    mine = TableResult.objects.filter(player=player).values("session_id")
    tables = _by_table(TableResult.objects.filter(session_id__in=mine).values_list(*H2H_FIELDS))
    counts = Counter(pid for seats in tables.values() for pid in seats if pid != player.pk)
    top = [pk for pk, _n in counts.most_common(limit)]
    names = dict(Player.objects.filter(pk__in=top).values_list("pk", "name"))
    return [
        {"name": names[pk], "tables": counts[pk], **_versus(player.pk, pk, tables)}
        for pk in top
        if pk in names
    ]


def top_hands(rows: QuerySet[TableResult], limit: int = 10) -> list[TableResult]:
    """大牌榜 of these rows, picked by the database (two short queries: the biggest by
    fans at tables that count fans, by points at the others), then merged."""
    hands = rows.filter(best_round__isnull=False)
    by_fans = hands.filter(counts_fans=True).order_by("-best_fans", "-best_points", "closed_at")
    by_points = hands.filter(counts_fans=False).order_by("-best_points", "-best_fans", "closed_at")
    return big_hands([*by_fans[:limit], *by_points[:limit]], limit)


def big_hands(rows: Sequence[TableResult], limit: int = 10) -> list[TableResult]:
    """大牌榜: the biggest hands among these rows, by fans (or points) and then by time."""
    hands = [r for r in rows if r.best_round is not None and r.best_hand]
    return sorted(hands, key=lambda r: (hand_size(r), -r.closed_at.timestamp()), reverse=True)[
        :limit
    ]


__all__ = [
    "RatingNow",
    "Stats",
    "CACHE_SECONDS",
    "big_hands",
    "cached",
    "close_season",
    "config_q",
    "current_season",
    "head_to_head",
    "left_out",
    "live_standings",
    "rivals",
    "ranking_of",
    "ratings",
    "season_family",
    "season_rows",
    "stats_of",
    "top_hands",
    "summed_standings",
    "standing_json",
    "standings_json",
    "standings_now",
]
