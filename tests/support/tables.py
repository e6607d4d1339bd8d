"""Tables made for the tests: a 武汉 table, a long generated evening, a 武汉 entry."""

from __future__ import annotations

import random
from decimal import Decimal

from rules import get_ruleset
from scorer.models import GameSession, Round
from tests.factories import DRAW, SHORT_NAMES, by_tiles, make_table, record
from tests.support.phone import NAMES

WUHAN_ENTRY = {
    "kind": "win", "mode": "tiles", "winner": 1, "discarder": 2, "turned": "5m",
    "hand": {"concealed": "345m567s8p", "win_tile": "8p",
             "melds": [{"type": "chi", "tiles": "234p", "claimed_from": "left"},
                       {"type": "kong", "tiles": "9999m", "exposed": True, "added": True,
                        "claimed_from": "right"}]},
    "seat_inputs": {"openings": [0, 0, 1, 0], "ming_gang": [0, 0, 0, 0], "an_gang": [1, 0, 0, 0],
                    "hz_gang": [0, 0, 0, 1], "lz_gang": [0, 0, 0, 0]},
}  # fmt: skip
HANDS = [
    {"concealed": "111m222m333m456p7z", "win_tile": "7z"},
    {"concealed": "123m456m789m123p5p", "win_tile": "5p"},
    {"concealed": "1122334455667m", "win_tile": "7m"},
]
WUHAN = get_ruleset("wuhan")


def table(**params: object) -> GameSession:
    return make_table("wuhan", SHORT_NAMES, params={**WUHAN.defaults, **params})


def generated_table(seed: int, rate: str | None = "0.5") -> GameSession:
    """A table of random wins and draws, some undone (one restored), one corrected."""
    rng = random.Random(seed)
    money = None if rate is None else Decimal(rate)
    s = make_table("mcr", NAMES, params={}, money_per_point=money)
    s.params = dict(s.rules.params)
    s.save()
    for _ in range(rng.randint(3, 9)):
        if rng.random() < 0.15:
            record(s, DRAW)
            continue
        winner = rng.randrange(4)
        discarder = rng.choice([None, *[x for x in range(4) if x != winner]])
        record(s, by_tiles(winner, discarder, rng.choice(HANDS)))
        if rng.random() < 0.2:
            s.undo_last()
    last = s.rounds.filter(status=Round.ACTIVE).select_related("current").last()
    if last is not None and last.current is not None and last.current.kind == "win":
        last.revise(by_tiles(0, None, HANDS[0]))
    undone = s.rounds.filter(status=Round.UNDONE).first()
    if undone is not None and rng.random() < 0.5:
        s.restore(undone.number)
    return s
