"""The table rulesets and their presets, and the winning hands tried on each table:
what the table contract (tests/contract/) plays."""

from __future__ import annotations

from typing import Any

from rules import REGISTRY

TABLE_RULESETS = sorted(rs.id for rs in REGISTRY.values() if rs.table_play)


# Every preset of every table ruleset: a preset can change what the table offers
# (wild tiles, a turned tile, no honors), and each must play.
TABLE_PRESETS = [
    (rs_id, p.id) for rs_id in TABLE_RULESETS for p in REGISTRY[rs_id].presets or [None] if p
] + [(rs_id, "") for rs_id in TABLE_RULESETS if not REGISTRY[rs_id].presets]


# Winning hands to try, suited tiles only (two suits: 缺门 tables accept them too):
# the first one the engine accepts as a win on the table's values is played.
# Candidate winning hands, the last tile won; "|999s" adds a pung of 9s declared
# first (for tables where a win needs an opening, 武汉).
CANDIDATES = (
    "123m456m789m123p55p",
    "111m222m333m456p77p",
    "123m123m456m789m99m",
    "11223344556677m",
    "234m567m678p55s|999s",
    "234m567m678p55s|111p",
)


def melds_of(pungs: list[str]) -> list[dict[str, Any]]:
    return [{"type": "pung", "tiles": p * 3} for p in pungs]
