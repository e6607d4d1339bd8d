"""A player's page's league part: his stats from the picked hands (all time and this
season, each percentage with its raw counts), his biggest hands, head to head with
the players he met most; and, when the room's league is public, his season and his
ratings with each table's change ("+18, 3rd of 4 against 1612 average").

Read from the results kept at the close, never the rounds: a fixed number of queries.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.core.cache import cache

from scorer.league.ratings import PROVISIONAL_SIGMA, shown
from scorer.models import Player, TableResult
from scorer.models.results import room_day_of
from scorer.money import clock
from scorer.present.league import big_hand_rows, ruleset_name
from scorer.services.league import (
    CACHE_SECONDS,
    current_season,
    rivals,
    season_rows,
    standings_json,
    stats_of,
)

__all__ = ["player_league", "player_league_now"]

CHANGES = 10  # the rating changes his page lists, newest first
RIVALS = 5  # the players his head to head lists


def _changes(player: Player, rows: list[TableResult]) -> list[dict[str, Any]]:
    rated = [r for r in rows if r.counted and r.mu_before is not None][-CHANGES:]
    others: dict[int, list[TableResult]] = defaultdict(list)
    shared = TableResult.objects.filter(session_id__in=[r.session_id for r in rated])
    for o in shared.exclude(player=player).select_related("rating"):
        others[o.session_id].append(o)
    out = []
    for r in reversed(rated):
        them = [shown(o.mu_before, o.sigma_before) for o in others[r.session_id]
                if o.mu_before is not None and o.sigma_before is not None]  # fmt: skip
        out.append({
            "change": r.rating_change, "place": r.place, "of": r.n_players, "day": r.day,
            "ruleset": ruleset_name(r.ruleset),
            "against": round(sum(them) / len(them)) if them else None,
        })  # fmt: skip
    return out


def _ratings(rows: list[TableResult]) -> list[dict[str, Any]]:
    last: dict[str, TableResult] = {}
    count: dict[str, int] = defaultdict(int)
    for r in rows:
        if r.counted and r.mu_after is not None:
            last[r.family] = r
            count[r.family] += 1
    return [
        {"family": ruleset_name(fam), "shown": shown(r.mu_after, r.sigma_after),  # type: ignore[arg-type]
         "provisional": (r.sigma_after or 0) > PROVISIONAL_SIGMA, "tables": count[fam]}
        for fam, r in sorted(last.items())
    ]  # fmt: skip


def _season(player: Player, season: Any) -> dict[str, Any]:
    mine = list(season_rows(season).filter(player=player))
    table = standings_json(season)
    line = next((s for group in ("ranked", "unranked") for s in table[group]
                 if s["player"] == player.pk), None)  # fmt: skip
    return {"season": season, "line": line, "ranked": line in table["ranked"],
            "stats": stats_of(mine)}  # fmt: skip


def player_league(player: Player) -> dict[str, Any]:
    """His page's league part, computed once per change of the room's league (kept
    under the room's `league_version`, which every change moves, the day and whether
    the league is public)."""
    room = player.room
    made = player.created_at.timestamp()
    key = (f"player-league:{player.pk}:{made}:{room.league_version}:{room.league_public}:"
           f"{room_day_of(room.day_ends_hour, clock.now())}")  # fmt: skip
    got = cache.get(key)
    if got is None:
        got = player_league_now(player)
        cache.set(key, got, CACHE_SECONDS)
    return dict(got)


def player_league_now(player: Player) -> dict[str, Any]:
    rows = list(
        TableResult.objects.filter(player=player)
        .select_related("rating")
        .order_by("closed_at", "session_id")
    )
    stats = stats_of(rows)
    stats["biggest"] = big_hand_rows(stats["biggest"])
    out: dict[str, Any] = {
        "stats": stats,
        "rivals": rivals(player, RIVALS),
        "public": player.room.league_public,
    }
    if out["public"]:
        room = player.room
        season = current_season(room.pk, room_day_of(room.day_ends_hour, clock.now()))
        if season is not None:
            season.room = room
        out["season"] = _season(player, season) if season is not None else None
        out["ratings"] = _ratings(rows)
        out["changes"] = _changes(player, rows)
    return out
