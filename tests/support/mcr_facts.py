"""The MCR fast paths' facts worked out the slow way, by their definitions: what
the lean and fast readers are checked against."""

from __future__ import annotations

from rules.rulesets.mcr import context, fans


def facts_by_definition(merged: bytes, kongs: int) -> tuple:
    """The facts the tile fans read, from the tile sets of context.py, tile by tile."""
    tiles = [t for t in range(34) if merged[t]]
    suits = {context.suit(t) for t in tiles}
    voided = 3 - len(suits - {3})
    no_honors = 3 not in suits
    all_simples = not any(t in context.ORPHANS for t in tiles)
    if all_simples:
        trait = 0
    elif all(t >= 27 for t in tiles):
        trait = 11
    elif all(context.is_terminal(t) for t in tiles):
        trait = 8
    elif all(t in context.ORPHANS for t in tiles):
        trait = 18
    else:
        trait = 0
    flush = (22 if no_honors else 49) if voided == 2 else 0
    all_types = (
        voided == 0
        and any(context.is_wind(t) for t in tiles)
        and any(context.is_dragon(t) for t in tiles)
    )
    green = all(t in context.GREEN for t in tiles)
    reversible = all(t in context.REVERSIBLE for t in tiles)
    ranks = {context.rank(t) for t in tiles}
    if not no_honors:
        rank_fan = 0
    elif ranks <= {1, 2, 3, 4}:
        rank_fan = 37 if 4 in ranks else 27
    elif ranks <= {6, 7, 8, 9}:
        rank_fan = 36 if 6 in ranks else 25
    elif ranks <= {4, 5, 6}:
        rank_fan = 26
    else:
        rank_fan = 0
    hogs = merged.count(4) - kongs
    return (
        voided,
        no_honors,
        flush,
        all_types,
        all_simples,
        green,
        reversible,
        trait,
        rank_fan,
        hogs,
    )


def fans_of_facts(facts: tuple) -> dict[int, int]:
    """The HAND fans the tile facts give (as the rows name them), 四归一 included."""
    voided, no_honors, flush, all_types, all_simples, green, reversible, trait, rank_fan, hogs = (
        facts
    )
    out: dict[int, int] = {}
    for fid, holds in (
        (3, green),
        (trait, trait),  # 8 / 11 / 18
        (flush, flush),  # 22 / 49
        (rank_fan, rank_fan),  # 25 / 26 / 27 / 36 / 37
        (40, reversible),
        (51, all_types),
        (68, all_simples),
        (76, no_honors),
    ):
        if holds:
            out[fid] = 1
    if hogs > 0:
        out[64] = hogs
    if voided != 2 and voided > 0:
        out[75] = voided
    return out


def rows_on(merged: bytes, hogs: int) -> dict[int, int]:
    """The HAND fans of the tiles as both scoring paths read them: the TileFan rows
    compiled on the ranks (fans.tile_fans) and 四归一's row on the facts."""
    got = fans.tile_fans(*context.ranks_of(merged))
    n = fans.WIN_FANS[64](context.WinFacts(False, False, False, 0, False, hogs))
    if n > 0:
        got[64] = n
    return got
