"""The league page as its template shows it: the seasons to choose from, the chosen
season's standings (kept as closed, or live), its rulesets, the 大牌榜 and the
words of its ranking; and the standings picture (league.svg) laid out.

Names and figures only: the league never shows a table's link (a table's code is
its key).  A big hand's round is linked for the room's admins only, by the view.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext

from rules import REGISTRY
from rules.errors import RuleError
from rules.tiles import parse_tiles
from scorer.language import by_language
from scorer.league.standings import POINTS, STANDARD, UMA, YUAN
from scorer.models import Room, Season, TableResult
from scorer.present.chart import fit_text, text_width
from scorer.services.league import big_hands, cached, season_rows, standings_json, top_hands

__all__ = ["CHAIN", "hand_tiles", "league_page", "picture", "ranking_words", "ruleset_name"]

# The tournaments' tie-break chain, as the page writes it under the standings.
CHAIN = gettext_lazy(
    "Ties are broken by: the season's score, then total game points, then the number "
    "of 1st, 2nd, 3rd and 4th places, then the best single game; players equal on all "
    "of them share the place."
)


def ruleset_name(rid: str) -> str:
    rs = REGISTRY.get(rid)
    return by_language(rs.name_zh, rs.name_en) if rs is not None else rid


def ranking_words(season: Season) -> str:
    words = {
        STANDARD: gettext("Standard points by place, shared on ties"),
        POINTS: gettext("Net points"),
        YUAN: gettext("Net yuan"),
        UMA: gettext("Net points plus uma"),
    }
    return words.get(season.ranking, season.ranking)


def hand_tiles(hand: dict[str, Any]) -> list[int]:
    """A picked hand's tiles in order: its standing tiles, its melds, its winning tile
    last (what the 大牌榜 draws).  Tiles that do not read are left out."""
    out: list[int] = []
    for raw in [hand.get("concealed"), *[m.get("tiles") for m in hand.get("melds") or []
                                         if isinstance(m, dict)]]:  # fmt: skip
        try:
            out += sorted(parse_tiles("".join(map(str, raw)) if isinstance(raw, list)
                                      else str(raw or "")))  # fmt: skip
        except RuleError:
            continue
    with contextlib.suppress(RuleError):
        out += parse_tiles(str(hand.get("win_tile") or ""))
    return out


def big_hand_rows(rows: list[TableResult]) -> list[dict[str, Any]]:
    return [
        {
            "name": r.name, "day": r.day, "ruleset": ruleset_name(r.ruleset),
            "fans": r.best_fans, "points": r.best_points, "counts_fans": r.counts_fans,
            "tiles": hand_tiles((r.best_hand or {}).get("tiles") or {}),
            "fan_names": [by_language(zh, en) for zh, en, *_ in (r.best_hand or {}).get("fans") or []],
            "session": r.session_id, "round": r.best_round,
        }
        for r in big_hands(rows)
    ]  # fmt: skip


def league_page(room: Room, season: Season | None, ruleset: str = "") -> dict[str, Any]:
    """What the league page shows for a season (None: the room has none yet)."""
    seasons = list(room.seasons.all())
    if season is None:
        return {"room": room, "seasons": seasons, "season": None}
    configs = list(season.configs.all())
    rulesets = sorted({c.ruleset for c in configs})
    table = standings_json(season, ruleset)
    return {
        "room": room,
        "seasons": seasons,
        "season": season,
        "ruleset": ruleset,
        "rulesets": [{"id": r, "name": ruleset_name(r)} for r in rulesets],
        "standings": table,
        "ranking": ranking_words(season),
        "chain": CHAIN,
        "big_hands": cached(
            season,
            ruleset,
            "big_hands",
            lambda: big_hand_rows(top_hands(season_rows(season, ruleset))),
        ),  # fmt: skip
        "min_tables": season.min_tables,
        "closed": season.closed_at is not None,
    }


# The picture (league.svg): 1080 wide, a row per ranked player, 72 apart from y = 300.
LEFT, RIGHT, NAME_X, ROW, TOP = 60, 1020, 150, 72, 300


def picture(room: Room, season: Season, ruleset: str = "") -> dict[str, Any]:
    """The standings as a picture for the room's WeChat group, laid out: each name cut
    to the room its figures leave."""
    table = standings_json(season, ruleset)
    lines = []
    for i, s in enumerate(table["ranked"][:30]):
        score = str(s["score"])
        room_for_name = 720 - NAME_X - text_width(score, 40) - 24
        lines.append({**s, "y": TOP + ROW * i, "name": fit_text(str(s["name"]), room_for_name, 40)})
    meta = f"{season.first_day:%Y-%m-%d} – {season.last_day:%Y-%m-%d} · {ranking_words(season)}"
    return {
        "title": fit_text(f"{room.name} · {season.name}", RIGHT - LEFT, 52),
        "meta": fit_text(meta, RIGHT - LEFT, 28),
        "lines": lines,
        "rating_word": pgettext("league column", "Rating"),
        "height": TOP + ROW * max(len(lines), 1) + 60,
    }
