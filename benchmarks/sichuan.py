"""python -m benchmarks.sichuan: what settling a whole 血战 round costs on the server.

A round is settled again from its first event every time one is added (the
record page previews each tap that way), so its cost must stay small next to
one hand's `score()`.  Peer, interleaved in the same process: the single-hand
`score()` calls the round needs (its two winning hands), so the ratio says
what the replay, the wall-end waits and the 查大叫 claims add on top.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from rules import score, settle

ROUNDS = 25
REPEAT = 40

WIN_A = {"concealed": "1122334466778m", "win_tile": "8m"}
WIN_B = {"concealed": "111222333p4455s", "win_tile": "5s"}
ROUND: dict[str, Any] = {
    "ruleset": "sichuan",
    "events": [
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
        {"type": "kong", "player": 3, "kong": "concealed"},
        {"type": "win", "discarder": 0, "winners": [{"seat": 2, "hand": WIN_A}]},
        {"type": "win", "discarder": None, "winners": [{"seat": 3, "hand": WIN_B}]},
        {
            "type": "wall_end",
            "hands": [
                {"seat": 0, "concealed": "123456789s5699m"},
                {"seat": 1, "concealed": "12345678p13579m"},
            ],
        },
    ],
}
SINGLE = [{"ruleset": "sichuan", **WIN_A}, {"ruleset": "sichuan", **WIN_B, "self_drawn": True}]


def per_call_us(fn: Any) -> float:
    t0 = time.perf_counter_ns()
    for _ in range(REPEAT):
        fn()
    return (time.perf_counter_ns() - t0) / REPEAT / 1000


def main() -> None:
    assert settle(ROUND)["ok"], settle(ROUND)

    def whole() -> None:
        settle(ROUND)

    def hands() -> None:
        for s in SINGLE:
            score(s)

    a: list[float] = []
    b: list[float] = []
    whole()  # warm both paths once before timing
    hands()
    for _ in range(ROUNDS):
        a.append(per_call_us(whole))
        b.append(per_call_us(hands))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"settle(): 5-event 血战 round with a wall-end check   median {ma:8.1f} µs")
    print(f"peer: score() of its 2 winning hands               median {mb:8.1f} µs")
    print(f"ratio settle / peer: {ma / mb:.2f}")


if __name__ == "__main__":
    main()
