"""The event form (`EventPick`): an `EventState` read against the round in progress,
and recorded as one event of it; the record flow of a table that moves money before
a round ends (scorer/entry/protocol.py `RecordPick`, as `Pick` for a round picked
whole).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any, Self, TypeVar

from django.utils.translation import gettext

from rules import RuleError
from rules.registry import Ruleset
from rules.tiles import parse_tile, tile_str
from scorer.clean.parse import int_or_none
from scorer.entry.event_state import KONG_KINDS, STANDING_SIZE, EventState, read_hand
from scorer.entry.round_now import RoundNow, round_now_of
from scorer.models import GameSession, Round

T = TypeVar("T")

__all__ = ["STANDING_SIZE", "EventPick"]


class EventPick(EventState):
    """One event of the round in progress as the form picks it and 确认 adds it."""

    @classmethod
    def fresh(
        cls,
        session: GameSession,
        rs: Ruleset,
        kind: str = "",
        mode: str = "tiles",
        now: RoundNow | None = None,
    ) -> Self:
        """A new form on the event `kind` (a win when the table has no such event):
        for the round in progress, else for the next round; quick entry (`mode`, the
        phone's last) where the table offers it."""
        now = round_now_of(session) if now is None else now
        spec = session.rules.table
        wind = now.wind if spec.prevalent_wind else "E"
        p = cls(token=str(uuid.uuid4()), dealer=now.dealer, wind=wind, spec=spec)
        p._know(session, rs, now)
        p.seat_values = p.default_seat_values(session.n_players)
        p.kind = kind if kind in spec.event_ids else "win"
        p.expected = now.count
        p.for_round = now.rnd.number if now.rnd is not None else session.next_number()
        if p.kind == "wall_end":
            p._prefill_wall()
            p._switch_seat(p.first_in_play())
        if mode == "quick" and p.catalog:
            p.mode = "quick"
        return p

    @classmethod
    def read(
        cls,
        data: Mapping[str, str],
        session: GameSession,
        rs: Ruleset,
        now: RoundNow | None = None,
    ) -> Self:
        """The state the form sent, checked against the round as it is now (`now`: the
        round in progress, or the round before a step being corrected)."""
        now = round_now_of(session) if now is None else now
        p = super().read(data, session, rs)
        p._know(session, rs, now)
        n = session.n_players
        usable = set(p.spec.tiles)
        kind = data.get("kind", "")
        p.kind = kind if kind in p.spec.event_ids else "win"
        if p.tool not in p.tools():
            p.tool = ""
        p.fans = {f: min(c, p.fan_max[f]) for f, c in p.fans.items() if f in p.fan_max}
        p.flowers = 0
        p.expected = int_or_none(data.get("expected"), 0, 10_000) or 0
        p.player = int_or_none(data.get("player"), 0, n - 1)
        p.kong = data.get("kong", "") if data.get("kong", "") in KONG_KINDS else ""
        try:
            code = data.get("kong_tile", "")
            p.kong_tile = parse_tile(code) if code else None
        except RuleError:
            p.kong_tile = None
        if p.kong_tile not in usable:
            p.kong_tile = None
        p.join = data.get("join") == "1" and p.join_from is not None
        if p.join:
            p.discarder, p.flags = str(p.join_from), set()
        if p.kind == "kong":
            # The kong's discarder, whoever the (unused) winner field still names.
            d = int_or_none(data.get("discarder"), 0, n - 1)
            p.discarder = "" if d is None or d == p.player else str(d)
        for s in range(n):
            raw = data.get(f"wall_{s}")
            if raw and s not in p.out:
                p.wall[s] = read_hand(raw, usable)
        for s in range(n):
            status, _, fans = data.get(f"ws_{s}", "").partition(":")
            if status in p.spec.wall_statuses and s not in p.out:
                p.wall_status[s] = status
                if status == "ready":
                    p.wall_fans[s] = p._read_fans(fans)
        if p.kind == "wall_end":
            if p.win_tile is not None:
                p.concealed, p.win_tile = sorted((*p.concealed, p.win_tile)), None
            p.seat = int_or_none(data.get("seat"), 0, n - 1)
            if p.seat is None or p.seat in p.out:
                p._switch_seat(p.first_in_play())
            else:
                p.wall.pop(p.seat, None)  # its tiles came in hand / melds
        return p

    # -- the record flow (scorer/entry/protocol.py `RecordPick`) --------------

    def next_round(self, session: GameSession, rs: Ruleset) -> None:
        """ "Record it as the next round" (tap taken:next): start the next round
        instead, its number, its dealer, the events so far."""
        fresh = type(self).fresh(session, rs, self.kind, now=self.now)
        self.for_round, self.dealer, self.expected = fresh.for_round, fresh.dealer, fresh.expected

    @property
    def open_number(self) -> int | None:
        """The round in progress this form adds to: the round it was opened for, not
        one taken from it (scorer/record/page.py `taken_round`)."""
        now = self.now
        return now.rnd.number if now is not None and now.rnd is not None else None

    def missing(self) -> str:
        """What 确认 still needs chosen or tapped ("" when nothing)."""
        return self.event()[1]

    def save(self, session: GameSession, token: uuid.UUID, author: str) -> Round:
        """Add the event to the round in progress, or start one with it
        (GameSession.add_event: under the table's lock, once per token).  Raises
        RoundTaken or RuleError, nothing saved."""
        event, _ = self.event()
        assert event is not None  # `missing` said so first
        position: dict[str, Any] = {"dealer": self.dealer, "prevalent_wind": self.wind}
        if self.turned is not None and self.asks_turned:
            position["turned"] = tile_str(self.turned)  # a round in progress keeps its dealer
        return session.add_event(
            token,
            event,
            author,
            expected=self.expected,
            join_last_win=self.join,
            position=position,
            number=self.for_round,
        )

    def done_message(self, rnd: Round, again: bool) -> str:
        """What the table says once the event is in: nothing when an earlier 确认 of
        this form added it (a double tap, a retry after a lost answer)."""
        if again:
            return ""
        # "第 N 局" counts hands (Round.hand_number), not the ledger's lines.
        hand = rnd.hand_number() or rnd.number
        if rnd.in_progress:
            return gettext("Added to round %(number)s.") % {"number": hand}
        return gettext("Round %(number)s is over.") % {"number": hand}

    def after_refusal(self, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Self:
        """The form to show after the engine refused its 确认: when another phone added
        an event meanwhile, the round as it is now (the next 确认, made knowing it,
        goes through)."""
        now = round_now_of(session)
        if self.expected == now.count:
            self.now = now  # shown against the round as it is
            return self
        posted = {**dict(data.items()), "expected": str(now.count)}  # a QueryDict: last values
        return type(self).read(posted, session, rs, now)

    @property
    def takes_delta(self) -> bool:
        """An event's form is answered whole after every tap."""
        return False

    def completes(self, tap: str) -> bool:
        """Whether `tap` completed the hand tapped on the picker: a win's in tiles, or
        a standing hand at the wall's end (a kong's tile is only chosen)."""
        picked = self.kind == "wall_end" or (self.kind != "kong" and self.mode == "tiles")
        return tap.startswith("tile:") and self.n_tiles == self.hand_size and picked

    def by_flow(self, whole: Callable[[Any], T], events: Callable[[EventPick], T]) -> T:
        """`events(self)`: what the page shows of an event's form."""
        return events(self)

    @property
    def choosing_tile(self) -> bool:
        """A kong's tile is chosen on the grid, not added to a hand."""
        return self.kind == "kong"

    @property
    def chosen_tile(self) -> int | None:
        return self.kong_tile if self.kind == "kong" else super().chosen_tile
