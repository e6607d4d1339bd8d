"""scorer's models, one subject per module, imported here so that Django finds them.

Bottom first (each module imports only those before it; tests/site/test_structure.py
checks it): the room's log (roomlog), players, a room's physical tables (tables),
rooms and their configurations, invitations, the till's money rows, then a table's
rounds and their trails (rounds) and the sessions (sessions), which hold the one
lock every change of a table takes (`sessions.locked`).  `errors` names the
refusals a change answers with; `session_rules` is `GameSession.rules`.
"""

from scorer.models.invites import RoomInvite
from scorer.models.league import League, Season
from scorer.models.money import BalanceEntry, Collection, DayClose, TableCharge
from scorer.models.players import Player, PlayerAlias, Seat
from scorer.models.results import TableRating, TableResult
from scorer.models.roomlog import RoomLogEntry
from scorer.models.rooms import Room, RoomConfig, RoomMember
from scorer.models.rounds import (
    Round,
    RoundChange,
    RoundRevision,
    RoundTaken,
    SessionChange,
    StaleRevision,
    Transfer,
)
from scorer.models.sessions import GameSession
from scorer.models.tables import ReplacedTableCode, RoomTable

__all__ = [
    "BalanceEntry",
    "Collection",
    "DayClose",
    "GameSession",
    "League",
    "Player",
    "PlayerAlias",
    "ReplacedTableCode",
    "Room",
    "RoomConfig",
    "RoomInvite",
    "RoomLogEntry",
    "RoomMember",
    "RoomTable",
    "Round",
    "RoundChange",
    "RoundRevision",
    "RoundTaken",
    "Season",
    "Seat",
    "SessionChange",
    "StaleRevision",
    "TableCharge",
    "TableRating",
    "TableResult",
    "Transfer",
]
