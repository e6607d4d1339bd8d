"""Generated 四川 hands for the round tests and `python -m benchmarks.sichuan_dump`:
legal winning hands of one or two suits and loose hands, drawn from a shared pool
of tiles so that a round never holds a tile five times."""

from __future__ import annotations

import random
from typing import Any

SUIT = "mps"


def kong_meld(t: str, exposed: bool = True) -> dict[str, Any]:
    return {"type": "kong", "tiles": t * 4, "exposed": exposed}


def pung_meld(t: str) -> dict[str, Any]:
    return {"type": "pung", "tiles": t * 3}


def tile(t: int) -> str:
    return f"{t % 9 + 1}{SUIT[t // 9]}"


def compact(tiles: list[int]) -> str:
    return "".join(tile(t) for t in sorted(tiles))


def win_hand(rng: random.Random, pool: list[int]) -> tuple[list[int], list[dict[str, Any]]] | None:
    """A legal winning hand of one or two suits from the tiles left in `pool`:
    concealed tiles (win tile included) and melds; None when the pool is too thin."""
    local = pool[:]
    suits = rng.choice([[0], [1], [2], [0, 1], [0, 2], [1, 2]])
    kinds = [9 * s + r for s in suits for r in range(9)]
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    if rng.random() < 0.2:
        for _ in range(7):
            pairs = [t for t in kinds if local[t] >= 2]
            if not pairs:
                return None
            t = rng.choice(pairs)
            local[t] -= 2
            concealed += [t, t]
    else:
        for _ in range(4):
            opts: list[tuple[str, int]] = [("pung", t) for t in kinds if local[t] >= 3]
            opts += [("kong", t) for t in kinds if local[t] >= 4]
            opts += [
                ("chow", t)
                for t in kinds
                if t % 9 <= 6 and min(local[t], local[t + 1], local[t + 2]) >= 1
            ]
            if not opts:
                return None
            kind, t = rng.choice(opts)
            if kind == "chow":
                for x in (t, t + 1, t + 2):
                    local[x] -= 1
                concealed += [t, t + 1, t + 2]
            elif kind == "kong":
                local[t] -= 4
                melds.append(kong_meld(tile(t), exposed=rng.random() < 0.5))
            else:
                local[t] -= 3
                if rng.random() < 0.4:
                    melds.append(pung_meld(tile(t)))
                else:
                    concealed += [t, t, t]
        opts_pair = [t for t in kinds if local[t] >= 2]
        if not opts_pair:
            return None
        t = rng.choice(opts_pair)
        local[t] -= 2
        concealed += [t, t]
    pool[:] = local
    return concealed, melds


def loose_hand(rng: random.Random, pool: list[int], n: int, three_suits: bool) -> list[int] | None:
    suits = [0, 1, 2] if three_suits else rng.choice([[0, 1], [0, 2], [1, 2]])
    out: list[int] = []
    if three_suits:  # one tile of each suit first: a sure 花猪
        for s in suits:
            opts = [t for t in range(9 * s, 9 * s + 9) if pool[t]]
            if not opts:
                return None
            out.append(rng.choice(opts))
            pool[out[-1]] -= 1
    while len(out) < n:
        opts = [t for s in suits for t in range(9 * s, 9 * s + 9) if pool[t]]
        if not opts:
            return None
        out.append(rng.choice(opts))
        pool[out[-1]] -= 1
    return out
