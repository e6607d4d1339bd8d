"""The record flow's one protocol (`RecordPick`) and the one place that chooses it.

A table records a round one of two ways: picked whole (`Pick`, a win or a draw) or,
where money moves before the round ends (kongs paid at once, the others playing on
after a win: 四川's 血战), one event at a time (`EventPick`).  Both answer the same
methods with the same names and types, so the record views, the page and the model
take either without asking which; where the flows differ (a 四川 winner joining the
last win, an event's form read against the round in progress) the difference is in
the two implementations.  `pick_for` is the only code that asks the table's ruleset
which (tests/site/test_structure.py checks it).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Protocol, Self, TypeVar

from rules.registry import Ruleset
from scorer.entry.event_pick import EventPick
from scorer.entry.pick import Pick
from scorer.models import GameSession, Round

T = TypeVar("T")

__all__ = ["RecordPick", "pick_for"]


class RecordPick(Protocol):
    """What the record views ask of a form's state, whichever the flow."""

    token: str
    author: str
    kind: str
    mode: str

    @classmethod
    def read(cls, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Self:
        """The state the form sent (never an error: what cannot be read is left out)."""
        ...

    @classmethod
    def fresh(cls, session: GameSession, rs: Ruleset, kind: str = "", mode: str = "tiles") -> Self:
        """A new form for the next entry (`kind`: the event asked; `mode`: the phone's last)."""
        ...

    def apply(self, tap: str, n_players: int, rs: Ruleset) -> str:
        """Apply one tap; the message to show when it cannot be done."""
        ...

    def hidden(self) -> dict[str, str]:
        """The hidden inputs that carry the state to the next tap."""
        ...

    def next_round(self, session: GameSession, rs: Ruleset) -> None:
        """The form made over for the next round (tap taken:next)."""
        ...

    @property
    def open_number(self) -> int | None:
        """The round in progress the form adds to, if any."""
        ...

    def missing(self) -> str:
        """What 确认 still needs ("" when nothing)."""
        ...

    def save(self, session: GameSession, token: uuid.UUID, author: str) -> Round:
        """Record it under the table's lock, once per token (RoundTaken, RuleError)."""
        ...

    def done_message(self, rnd: Round, again: bool) -> str:
        """What the table says once it is recorded (`again`: by an earlier 确认)."""
        ...

    def after_refusal(self, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Self:
        """The form to show after the engine refused its 确认."""
        ...

    @property
    def takes_delta(self) -> bool:
        """Whether a plain tile tap may be answered with only what it changed."""
        ...

    def completes(self, tap: str) -> bool:
        """Whether `tap` completed the hand tapped on the picker."""
        ...

    def by_flow(self, whole: Callable[[Pick], T], events: Callable[[EventPick], T]) -> T:
        """`whole(self)` or `events(self)`: the page's part that only its flow has."""
        ...


def pick_for(session: GameSession) -> type[Pick]:
    """The form a new entry at this table is: a round picked whole, or one event of
    the round in progress where the table's ruleset records events (`stepwise`)."""
    return EventPick if session.stepwise else Pick


# Both flows answer the protocol (checked by mypy).
_FLOWS: tuple[type[RecordPick], ...] = (Pick, EventPick)
