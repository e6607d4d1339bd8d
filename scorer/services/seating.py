"""A table's session and its seats: starting a table (`start_table`, the one way a
session is made), the session played at a room's fixed table, starting one there,
and tying a session's seats to the room's players.

These use sessions, rooms and players together, so they live above the model
modules: rooms.py and players.py each hold their own rows and never name the
session model.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from scorer.clean.text import PLAYER_NAME, cut
from scorer.models import GameSession
from scorer.models.locking import lock_objects
from scorer.models.players import Player, Seat, is_placeholder
from scorer.models.rooms import Room, RoomTable, default_room


def start_table(
    room: Room | None = None, table: RoomTable | None = None, **fields: Any
) -> GameSession:
    """A new table (一场) in `room` (the default room when None), or at the room's
    fixed `table` (its room), all or nothing.  The one place a session is made: the
    start page, a fixed table's QR code (`start_at`, under the table's lock) and an
    imported file (scorer/services/export.py import_table) all start theirs here, so what a
    start does is done the same way by each.

    `fields` are the table's rules as snapshotted when it starts (ruleset, preset,
    params, players, first_dealer, money_per_point, fee, time_fee; an import adds
    imported_at and pauses): a later change of the room's configuration never
    changes them.  Here the seats are tied to the room's players; the room's admin
    pages are told once it commits, as for any session made (models/sessions.py
    `_table_started`).  No room log entry: a
    table's start is the players' doing, not an admin's, and its own trail
    (SessionChange) begins with its first close."""
    where: dict[str, Any] = (
        {"room_table": table, "room_id": table.room_id}
        if table is not None
        else {"room": room or default_room()}
    )
    with transaction.atomic():
        session = GameSession.objects.create(**where, **fields)
        seat_players(session)
    return session


def open_session(table: RoomTable) -> GameSession | None:
    """The session now played at this table (its QR code joins it), if any.  Normally
    one at most (`start_at` sees to it); an older one reopened later is a second, and
    the one with the latest activity is the table's."""
    return (
        GameSession.objects.filter(room_table=table, closed_at__isnull=True)
        .order_by("-updated_at", "-pk")
        .first()
    )


class TableRetired(Exception):
    """The table was retired: nothing is started at it."""

    def __init__(self, table: RoomTable) -> None:
        super().__init__("table retired")
        self.table = table


def start_at(table: RoomTable, **fields: Any) -> tuple[GameSession, bool]:
    """A new session at this table, its seats tied to the room's players, all or
    nothing; or, when one is open here already, that one: (session, started).

    Race: two phones scan the table's QR code while it has no open session and
    both tap 开始.  Each would see "none open" and start its own, and the table's
    code would then lead to one of two sessions at random.  The table's row lock
    orders them: the second sees the first's session and joins it instead (a
    reopened older session is let be: reopening is about correcting it).
    TableRetired (nothing started) when the table was retired meanwhile.
    """
    try:
        with lock_objects(table) as (locked,):
            if locked.retired_at is not None:
                # Retired while the start form was open (RoomTable.retire takes this lock).
                raise TableRetired(table)
            existing = open_session(table)
            if existing is not None:
                return existing, False
            return start_table(table=table, **fields), True
    except RoomTable.DoesNotExist:  # deleted meanwhile: as retired, nothing started
        raise TableRetired(table) from None


def seat_players(session: GameSession) -> None:
    """Tie each seat of a new table to the registry, by name (a new name is a new player;
    a name a player went by before a rename or a merge is him: Player.named).

    A seat left unnamed (its placeholder, "玩家1") is no player: every unnamed
    table would otherwise add to the same "player" and his statistics."""
    now = timezone.now()
    for seat, name in enumerate(session.players):
        if is_placeholder(str(name), seat):
            continue
        name = cut(PLAYER_NAME, str(name))
        player = Player.named(session.room_id, name)
        created = player is None
        if player is None:
            player, created = Player.objects.get_or_create(room=session.room, name=name)
        if not created:
            Player.objects.filter(pk=player.pk).update(last_played=now)
        Seat.objects.get_or_create(session=session, seat=seat, defaults={"player": player})


__all__ = ["TableRetired", "open_session", "seat_players", "start_at", "start_table"]
