"""The league's skill rating: openskill's Plackett–Luce model over each table's
finishing order, one rating per rating family (a ruleset declares its family in
rules/: a player's 国标 is not his 四川).

Each player starts at μ = 25, σ = 25/3 (openskill's defaults).  A table moves its
players by `PlackettLuce().rate([[a], [b], [c], [d]], ranks=[…])`, equal ranks
being ties.  What the pages show is one number, the ordinal μ − 3σ (a skill the
player is very likely above) on a familiar scale: 1000 + 20 × (μ − 3σ), so a new
player shows 1000 and a settled average one about 1400–1500.  A rating is
"provisional" while σ is above PROVISIONAL_SIGMA (docs/league.md): about 17 tables
of four for a new player.

Nothing here is random: the same tables in the same order give the same ratings,
so a replay from a table on (after it was reopened and closed again) is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU, START_SIGMA = MODEL.mu, MODEL.sigma
# σ under which a rating is no longer provisional.  From 8.33 at the start, σ falls
# (medians over the 40 made-up regulars of tests/league/test_ratings.py) to 7.45
# after 5 tables of four, 6.8 after 10, 6.27 after 15, 5.81 after 20 and 5.13 after
# 30: 6.0 marks about 17 tables, a month of a regular's evenings, after which one
# table moves the shown rating by a few points, not by tens.
PROVISIONAL_SIGMA = 6.0
SCALE, BASE = 20, 1000


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The one number the pages show."""
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The table's players after it, from their skills before and their places
    (1 = first; equal places are ties)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(t[0].mu, t[0].sigma) for t in after]


Table = tuple[Sequence[int], Sequence[int]]  # (player ids, their places)


def replay(tables: Sequence[Table], start: Mapping[int, Skill] | None = None) -> tuple[
    list[list[tuple[Skill, Skill]]], dict[int, Skill]
]:  # fmt: skip
    """Rate the tables in order from the skills in `start` (a player not in it starts
    new): each table's (before, after) per seat, and every player's skill at the end."""
    now: dict[int, Skill] = dict(start or {})
    out: list[list[tuple[Skill, Skill]]] = []
    for players, places in tables:
        before = [now.get(p, Skill()) for p in players]
        after = rate(before, places)
        for p, s in zip(players, after, strict=True):
            now[p] = s
        out.append(list(zip(before, after, strict=True)))
    return out, now


__all__ = ["PROVISIONAL_SIGMA", "Skill", "rate", "replay", "shown"]
