"""A table's history one random step at a time (wins, draws, kongs, undos, restores,
corrections, close and reopen), for the property tests of fees and adjustments."""

from __future__ import annotations

import uuid

from scorer.models import GameSession, Round
from tests.factories import DRAW, by_tiles, record

MCR_HANDS = [  # each a win over the minimum whoever wins, self-drawn or not
    {"concealed": "111m222m333m456p7z", "win_tile": "7z"},
    {"concealed": "1122334455667m", "win_tile": "7m"},
    {"concealed": "111m222m333m456p7z", "win_tile": "7z"},
]
SICHUAN_HANDS = [
    {"concealed": "111222p333s4455s", "win_tile": "5s"},
    {"concealed": "1122334466778m", "win_tile": "8m"},
]


def step(s: GameSession, op: str, a: int, b: int | None, k: int) -> None:
    if op == "win":
        b = None if b == a else b
        if s.stepwise:
            hand = SICHUAN_HANDS[k % 2]
            won = {"type": "win", "discarder": b, "winners": [{"seat": a, "hand": hand}]}
            s.add_event(uuid.uuid4(), won)
        else:
            record(s, by_tiles(a, b, MCR_HANDS[k]))
    elif op == "draw":
        record_draw(s, "wall_end")
    elif op == "kong" and s.stepwise:
        s.add_event(uuid.uuid4(), {"type": "kong", "player": a, "kong": "concealed"})
    elif op == "undo_event":
        s.undo_last(step=True)
    elif op == "undo":
        s.undo_last()
    elif op == "restore":
        restore_last_undone(s)
    elif op == "revise":
        last = s.rounds.filter(status=Round.ACTIVE).order_by("-number").first()
        if last is not None and not s.stepwise:
            b = None if b == a else b
            last.revise(by_tiles(a, b, MCR_HANDS[k]))
    elif op == "close":
        s.close()
    elif op == "reopen":
        s.reopen()


def record_draw(s: GameSession, event: str) -> None:
    """A round no one wins: on a table played as events, the event `event` (its wall's
    end, or a draw); elsewhere a drawn round."""
    if s.stepwise:
        s.add_event(uuid.uuid4(), {"type": event})
    else:
        record(s, DRAW)


def restore_last_undone(s: GameSession) -> None:
    """Restore the table's last undone round, if there is one."""
    undone = s.rounds.filter(status=Round.UNDONE).order_by("-number").first()
    if undone is not None:
        s.restore(undone.number)
