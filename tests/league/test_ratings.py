"""The league's rating on made-up regulars: 40 players with hidden skills drawn from
N(0, 1) in log-strength (a fixed seed) play 300 tables of four, 30 each, their
finishing orders drawn from a Plackett–Luce model of those skills.  After them the
ratings must order the players as their hidden skills do: a Spearman correlation
of at least 0.8.  The test prints the figure."""

from __future__ import annotations

import math
import random

import pytest

from scorer.league.ratings import Skill, replay
from scorer.models import TableResult
from tests.factories import by_tiles, make_room, make_table, play

PLAYERS, ROUNDS, SEED = 40, 30, 20261129


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb)


def finishing_order(rng: random.Random, seats: list[int], skill: list[float]) -> list[int]:
    """Plackett–Luce: first place drawn with probability ∝ e^skill, then the next
    among those left, and so on."""
    left, order = list(seats), []
    while left:
        weights = [math.exp(skill[p]) for p in left]
        pick = rng.choices(left, weights)[0]
        order.append(pick)
        left.remove(pick)
    return order


def league(seed: int = SEED) -> tuple[list[float], list[tuple[list[int], list[int]]]]:
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    tables = []
    for _ in range(ROUNDS):
        everyone = list(range(PLAYERS))
        rng.shuffle(everyone)
        for t in range(PLAYERS // 4):
            seats = everyone[4 * t : 4 * t + 4]
            order = finishing_order(rng, seats, skill)
            tables.append((seats, [order.index(p) + 1 for p in seats]))
    return skill, tables


def test_ratings_find_the_hidden_skills() -> None:
    skill, tables = league()
    assert len(tables) == 300
    _, now = replay(tables)
    shown = [float(now[p].shown) for p in range(PLAYERS)]
    rho = spearman(shown, skill)
    provisional = sum(now[p].provisional for p in range(PLAYERS))
    print(f"\nSpearman(rating, hidden skill) over {PLAYERS} players, {len(tables)} tables: "
          f"{rho:.3f}; provisional after 30 tables: {provisional}")  # fmt: skip
    assert rho >= 0.8
    assert provisional == 0


def test_a_replay_is_deterministic() -> None:
    _, tables = league()
    assert replay(tables)[1] == replay(tables)[1]
    assert Skill().provisional


@pytest.mark.django_db
def test_each_table_moves_its_players_and_ties_move_them_alike() -> None:
    room = make_room("r")
    s = make_table("mcr", room=room, seated=True)
    play(s, [by_tiles(1, 2), by_tiles(3, 2)])  # 1 and 3 tie at the top
    s.close()
    rows = {r.seat: r for r in TableResult.objects.filter(session=s)}
    assert rows[1].place == rows[3].place == 1
    assert rows[1].mu_after == pytest.approx(rows[3].mu_after)
    assert rows[1].rating_change > 0 > rows[2].rating_change
