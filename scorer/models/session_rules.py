"""What a table plays by, read once: `GameSession.rules`.

A session keeps its rules as it started (its ruleset, every parameter's value,
its fee and its 计时 rule, snapshotted), and a page asks them many times: the
table's spec for the form, the values for the engine, each seat's wind, the next
dealer, the fee.  Each was worked out again at every ask (a registry lookup and a
resolve of every parameter); here each is worked out once per session object, and
worked out anew when the session's own fields it is read from change (a test or
an import that sets the values, then reads).  Nothing here touches the database.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, Protocol

from rules.params import ParamValues
from rules.registry import Ruleset, get_ruleset
from rules.table import TableSpec, seat_wind_in
from rules.tiles import SEAT_WINDS
from scorer.money.fees import FeeRule
from scorer.money.timefee import TimeFee
from scorer.scoring import first_discarder


class LastHand(Protocol):
    """What the next position reads of the last hand played (a RoundRevision)."""

    dealer: int
    prevalent_wind: str
    winners: Any
    entry: Any


class RuleFields(Protocol):
    """The fields of a session (a GameSession) its rules are read from."""

    ruleset: str
    params: Mapping[str, Any] | None
    players: Sequence[Any]
    first_dealer: int
    fee: Mapping[str, Any] | None
    time_fee: Mapping[str, Any] | None


class SessionRules:
    """A table's rules with the values it started with, each read once."""

    def __init__(self, fields: RuleFields) -> None:
        self.ruleset_id = fields.ruleset
        self.stored_params = dict(fields.params or {})
        self.n_players = len(fields.players)
        self.first_dealer = fields.first_dealer
        self.fee_json = fields.fee or {}
        self.time_fee_json = fields.time_fee or {}
        self.key = self.key_of(fields)

    @staticmethod
    def key_of(fields: RuleFields) -> str:
        """The session's fields these rules are read from, as one string: the rules
        of a session whose fields no longer give this key are read again."""
        return json.dumps(
            [
                fields.ruleset,
                fields.params or {},
                len(fields.players),
                fields.first_dealer,
                fields.fee or {},
                fields.time_fee or {},
            ],
            sort_keys=True,
            default=str,
        )

    @cached_property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.ruleset_id)

    @cached_property
    def params(self) -> ParamValues:
        """The values this session plays with: its own, checked.

        A parameter added to the ruleset after the session started takes its
        default (the ruleset's behaviour before it had one); one since removed is
        dropped.
        """
        known = {p.name for p in self.ruleset.params}
        return self.ruleset.resolve_params(
            {k: v for k, v in self.stored_params.items() if k in known}
        )

    @cached_property
    def table(self) -> TableSpec:
        """What this session's table offers, with the values it started with."""
        return self.ruleset.table(self.params)

    @cached_property
    def fee(self) -> FeeRule:
        """How the room charges this table, as snapshotted when it started."""
        return FeeRule.of(self.fee_json)

    @cached_property
    def time_fee(self) -> TimeFee:
        """How this table's time is billed, as snapshotted when it started."""
        return TimeFee.of(self.time_fee_json)

    @property
    def stepwise(self) -> bool:
        """Whether the table records its rounds event by event (money moves before a
        round ends: a kong pays at once, the others play on after a win)."""
        return self.table.stepwise

    def seat_winds(self, dealer: int, wind: str) -> list[str]:
        """Each seat's wind in a hand with this dealer and round wind (where a match
        has changed the players' places, round their order in that 圈)."""
        match, n = self.table.match, self.n_players
        order = None
        if match is not None and n == match.players and wind in SEAT_WINDS:
            order = match.order(wind, self.first_dealer)
        return [seat_wind_in(s, dealer, order, n) for s in range(n)]

    def next_position_after(self, last: LastHand | None) -> tuple[int, str]:
        """(dealer, prevalent wind) of the hand after `last` (None: the first hand).

        The ruleset decides (连庄 or not, whether a 圈风 moves on)."""
        if last is None:
            return self.first_dealer, "E"
        return self.ruleset.next_position(
            last.dealer,
            last.prevalent_wind,
            self.first_dealer,
            self.n_players,
            list(last.winners),
            self.params,
            discarder=first_discarder(last.entry),
        )
