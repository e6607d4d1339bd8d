"""python -m benchmarks.rounds: what recording every round through settle() costs.

The table records a whole round (国标: one win) as a round of one event,
settled by `settle()`, not by `score()` on the hand.  Peer,
interleaved in the same process: `score()` of the same situation (seat and
round winds, the table), so the ratio is what the one path adds per tap.
The house row does the same for a round with a kong, a turned tile and a
wild tile, against `score()` of its winning hand; the 芜湖 row a 2468 win (the
押 needs the hand's waits), the 吉安 row a win with a 精 and every player's 精
paid at the round's end (冲关), the 武汉 row the worked example (three losers,
each with his own factor, the winner's hand read for 硬胡 among its readings).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from rules import score, settle

ROUNDS = 25
REPEAT = 200

HAND = {"concealed": "111m222m333m456p7z", "win_tile": "7z"}
MCR_SITUATION = {
    "ruleset": "mcr", **HAND, "seat_wind": "S", "prevalent_wind": "E",
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}  # fmt: skip
MCR_ROUND = {
    "ruleset": "mcr", "players": 4, "dealer": 0, "prevalent_wind": "E",
    "events": [{"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": HAND}]}],
}  # fmt: skip
WILD_HAND = {"concealed": "123m456p789s234s7s", "win_tile": "5m"}
HOUSE_SITUATION = {
    "ruleset": "house", "params": {"wild": "turned_next"}, **WILD_HAND, "wild": ["5m"],
    "self_drawn": True, "table": {"players": 4, "dealer": 0, "winner": 1},
}  # fmt: skip
HOUSE_ROUND = {
    "ruleset": "house", "params": {"wild": "turned_next"}, "turned": "4m", "players": 4,
    "events": [
        {"type": "kong", "player": 3, "kong": "concealed"},
        {"type": "win", "discarder": None, "winners": [{"seat": 1, "hand": WILD_HAND}]},
    ],
}  # fmt: skip


WUHU_HAND = {"concealed": "234567m79m123m99s", "win_tile": "8m"}
WUHU_SITUATION = {
    "ruleset": "wuhu", **WUHU_HAND, "table": {"players": 4, "dealer": 0, "winner": 2, "discarder": 3},
}  # fmt: skip
WUHU_ROUND = {
    "ruleset": "wuhu", "players": 4, "dealer": 0,
    "events": [{"type": "win", "discarder": 3, "winners": [{"seat": 2, "hand": WUHU_HAND}]}],
}  # fmt: skip
JIAN_HAND = {"concealed": "123m456m789s12s11z", "win_tile": "8p"}
JIAN_SITUATION = {
    "ruleset": "jian", **JIAN_HAND, "wild": ["8p", "9p"], "self_drawn": True,
    "table": {"players": 4, "dealer": 0, "winner": 1},
}  # fmt: skip
JIAN_ROUND = {
    "ruleset": "jian", "players": 4, "dealer": 0, "turned": "7p",
    "events": [{"type": "win", "discarder": None, "winners": [{"seat": 1, "hand": JIAN_HAND}],
                "seat_inputs": {"zheng_jing": [0, 2, 0, 0], "fu_jing": [0, 2, 1, 0]}}],
}  # fmt: skip


WUHAN_HAND = {
    "concealed": "345m567s8p", "win_tile": "8p",
    "melds": [{"type": "chi", "tiles": "234p"}, {"type": "kong", "tiles": "9999m", "added": True}],
}  # fmt: skip
WUHAN_INPUTS = {"openings": [0, 0, 1, 0], "an_gang": [1, 0, 0, 0], "hz_gang": [0, 0, 0, 1]}
WUHAN_SITUATION = {
    "ruleset": "wuhan", **WUHAN_HAND, "wild": ["6m"], "seat_inputs": WUHAN_INPUTS,
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}  # fmt: skip
WUHAN_ROUND = {
    "ruleset": "wuhan", "players": 4, "dealer": 0, "turned": "5m",
    "events": [{"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": WUHAN_HAND}],
                "seat_inputs": WUHAN_INPUTS}],
}  # fmt: skip

# 北京: a 混儿 standing in, a kong paid by each; 陕西: a self-draw with 炮子.
CARD_HAND = {"concealed": "123m456p789s23m5z1s", "win_tile": "4m"}
BEIJING_SITUATION = {
    "ruleset": "beijing", **CARD_HAND, "wild": ["1s"], "seat_inputs": {"an_gang": [1, 0, 0, 0]},
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}  # fmt: skip
BEIJING_ROUND = {
    "ruleset": "beijing", "players": 4, "dealer": 0, "turned": "9s",
    "events": [{"type": "win", "discarder": 2, "winners": [{"seat": 1, "hand": CARD_HAND}],
                "seat_inputs": {"an_gang": [1, 0, 0, 0]}}],
}  # fmt: skip
SHAANXI_HAND = {"concealed": "123m456p789s234m5s", "win_tile": "5s"}
SHAANXI_SITUATION = {
    "ruleset": "shaanxi", **SHAANXI_HAND, "self_drawn": True,
    "seat_inputs": {"paozi": [1, 2, 0, 4]}, "table": {"players": 4, "dealer": 0, "winner": 1},
}  # fmt: skip
SHAANXI_ROUND = {
    "ruleset": "shaanxi", "players": 4, "dealer": 0,
    "events": [{"type": "win", "discarder": None, "winners": [{"seat": 1, "hand": SHAANXI_HAND}],
                "seat_inputs": {"paozi": [1, 2, 0, 4]}}],
}  # fmt: skip
# 云南: a 明杠 voided at the wall's end, two hands shown for 查大叫 (their waits and best
# claim worked out), two told; peer: scoring one 清一色 + 碰碰胡 win.
YUNNAN_SITUATION = {
    "ruleset": "yunnan", "concealed": "111222333m4445m", "win_tile": "5m",
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}  # fmt: skip
YUNNAN_ROUND = {
    "ruleset": "yunnan", "players": 4, "dealer": 0,
    "events": [{"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
               {"type": "wall_end", "hands": [
                   {"seat": 0, "concealed": "1112345678999m"},
                   {"seat": 1, "concealed": "123m456p789s1357z"},
                   {"seat": 2, "status": "ready", "fans": {"2": 1, "3": 1}},
                   {"seat": 3, "status": "not_ready"}]}],
}  # fmt: skip


def per_call_us(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter_ns()
    for _ in range(REPEAT):
        fn()
    return (time.perf_counter_ns() - t0) / REPEAT / 1000


def pair(name: str, rnd: dict[str, Any], sit: dict[str, Any]) -> None:
    r, s = settle(rnd), score(sit)
    assert r["ok"] and s["ok"] and s["win"], (r, s)
    a: list[float] = []
    b: list[float] = []
    for _ in range(ROUNDS):
        a.append(per_call_us(lambda: settle(rnd)))
        b.append(per_call_us(lambda: score(sit)))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name}: settle() median {ma:6.1f} µs, peer score() {mb:6.1f} µs, ratio {ma / mb:.2f}")


def main() -> None:
    pair("mcr, one win          ", MCR_ROUND, MCR_SITUATION)
    pair("house, kong + wild win", HOUSE_ROUND, HOUSE_SITUATION)
    pair("wuhu, 押档 win         ", WUHU_ROUND, WUHU_SITUATION)
    pair("jian, 精 win + 冲关     ", JIAN_ROUND, JIAN_SITUATION)
    pair("wuhan, three losers    ", WUHAN_ROUND, WUHAN_SITUATION)
    pair("beijing, 混儿 + kong    ", BEIJING_ROUND, BEIJING_SITUATION)
    pair("shaanxi, 炮子 self-draw ", SHAANXI_ROUND, SHAANXI_SITUATION)
    pair("yunnan, 流局 查大叫      ", YUNNAN_ROUND, YUNNAN_SITUATION)


if __name__ == "__main__":
    main()
