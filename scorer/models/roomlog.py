"""The room's log: one append-only trail of what the room's admins did -- who, what,
when, and what it was before and after.

In the manner of pretix's `LoggedModel.log_action`: a change made by an admin calls
`room.log_action(ACTION, user=..., data=...)` inside the same transaction as the
change itself, so the change and its entry are stored together or not at all.
Each kind of action is a named constant, declared here in one line with the
sentence that says it ("老板 把 3号桌 停用了"); the page that lists the log
(scorer/present/room_log.py) fills the sentence from the entry's data.  The till's
top-ups, collections and 日结 will be declared the same way.

The log is kept apart from a table's own trails (RoundChange, SessionChange,
Round.undone_by), which travel in the table's export, and from the history
django-simple-history keeps of each configuration: what a room's admins did to
the room is read here, in one place, in the order they did it.

Append-only: an entry is never changed or deleted by the app.  The model refuses
`save()` on a stored row and `delete()`, its querysets refuse `update()` and
`delete()`, and the Django admin shows it read-only.  (A room deleted by the
site's staff takes its log with it; a user deleted leaves their entries, the
name they were shown by kept in `user_name`.)
"""

from __future__ import annotations

from typing import Any, NoReturn, Protocol

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class LogIsAppendOnly(Exception):
    """A change or a deletion of a stored log entry was attempted."""


class Actor(Protocol):
    """Who did it: a room's admin (scorer.models.rooms.RoomMember) as the domain methods
    take them; typed here so that a model below the rooms can name one."""

    @property
    def user(self) -> User: ...

    @property
    def shown_name(self) -> str: ...


# The sentence of each action type (gettext_lazy, read in the reader's language), by
# its key.  Placeholders: %(who)s, the data's own keys, and the few the page derives
# (scorer/present/room_log.py: table, tables, config, players).
SENTENCES: dict[str, Promise] = {}
# The action types whose data's "before" and "after" are listed under the sentence,
# field by field ("底分 8 → 10").
LISTS_CHANGES: set[str] = set()


def action(key: str, sentence: Promise, changes: bool = False) -> str:
    """Declare an action type: its key (stored in each entry), its sentence, and
    whether its before/after are listed.  Returns the key, for a named constant."""
    if key in SENTENCES:
        raise ValueError(f"action {key!r} is declared twice")
    SENTENCES[key] = sentence
    if changes:
        LISTS_CHANGES.add(key)
    return key


# Tables (the room's fixed tables and the games played at them).
TABLES_ADDED = action("room.tables.added", _("%(who)s added %(tables)s"))
TABLE_EDITED = action("room.table.edited", _("%(who)s changed %(table)s"), changes=True)
TABLE_RETIRED = action("room.table.retired", _("%(who)s retired %(table)s"))
TABLE_BROUGHT_BACK = action("room.table.brought_back", _("%(who)s brought %(table)s back"))
TABLE_CODE_REPLACED = action("room.table.code_replaced", _("%(who)s gave %(table)s a new QR code"))
TABLE_CLOSED = action("room.game.closed", _("%(who)s closed the game at %(table)s: %(note)s"))
TABLE_PAUSED = action("room.game.paused", _("%(who)s paused the clock at %(table)s"))
TABLE_RESUMED = action("room.game.resumed", _("%(who)s restarted the clock at %(table)s"))
TABLE_TAKEN_IN = action(
    "room.game.taken_in", _("%(who)s took the imported game at %(table)s into the books")
)
TABLE_SENT_BACK = action(
    "room.game.sent_back",
    _("%(who)s sent the imported game at %(table)s back out of the books"),
)
# The till (scorer/services/till.py): money in 元, never points.
TILL_COLLECTED = action(
    "room.till.collected",
    _("%(who)s took %(amount)s yuan from %(name)s for %(table)s (%(method)s)"),
)
TILL_TOPPED_UP = action(
    "room.till.topped_up", _("%(who)s topped up %(player)s's balance by %(amount)s yuan")
)
TILL_REFUNDED = action(
    "room.till.refunded", _("%(who)s gave %(name)s back %(amount)s yuan for %(table)s (%(method)s)")
)
TILL_DAY_CLOSED = action("room.till.day_closed", _("%(who)s closed the day %(day)s"))
TILL_DAY_END_SET = action(
    "room.till.day_end_set",
    _("%(who)s set the hour the room's day ends to %(after)s (it was %(before)s)"),
)
# Configurations (房间规则): django-simple-history keeps each version as well.
CONFIG_CREATED = action("room.config.created", _("%(who)s made the configuration %(config)s"))
CONFIG_COPIED = action("room.config.copied", _("%(who)s copied %(source)s as %(config)s"))
CONFIG_EDITED = action("room.config.edited", _("%(who)s changed %(config)s"), changes=True)
CONFIG_OFFERED = action("room.config.offered", _("%(who)s offered %(config)s"))
CONFIG_WITHDRAWN = action("room.config.withdrawn", _("%(who)s stopped offering %(config)s"))
CONFIG_MOVED_UP = action("room.config.moved_up", _("%(who)s moved %(config)s up"))
CONFIG_MOVED_DOWN = action("room.config.moved_down", _("%(who)s moved %(config)s down"))
CONFIG_MOVED_TOP = action("room.config.moved_top", _("%(who)s moved %(config)s to the top"))
# Players (the room's registry of names).
PLAYER_RENAMED = action(
    "room.player.renamed", _("%(who)s renamed the player %(before)s to %(after)s")
)
PLAYERS_MERGED = action(
    "room.player.merged", _("%(who)s merged %(gone)s into %(keep)s (%(seats)s tables)")
)
# The league (scorer/models/league.py).
LEAGUE_SHOWN = action("room.league.shown", _("%(who)s made the league page public"))
LEAGUE_HIDDEN = action("room.league.hidden", _("%(who)s made the league page admins-only"))
LEAGUE_LEFT_OUT = action("room.league.left_out", _("%(who)s left %(player)s out of the league"))
LEAGUE_TAKEN_BACK = action("room.league.taken_back", _("%(who)s put %(player)s back in the league"))
SEASON_OPENED = action("room.season.opened", _("%(who)s opened the season %(season)s"))
SEASON_EDITED = action(
    "room.season.edited", _("%(who)s changed the season %(season)s"), changes=True
)
SEASON_CLOSED = action("room.season.closed", _("%(who)s closed the season %(season)s"))
SEASON_TABLE_REOPENED = action(
    "room.season.table_reopened",
    _(
        "The game at %(table)s, counted by the closed season %(season)s, was reopened: "
        "the season's final standings stay as they were"
    ),
)
SEASON_TABLE_CHANGED = action(
    "room.season.table_changed",
    _(
        "The game at %(table)s, counted by the closed season %(season)s, was closed again: "
        "the season's final standings stay as they were"
    ),
)
# Admins, invitations and the room itself.
INVITE_MADE = action("room.invite.made", _("%(who)s made an invitation link"))
INVITE_WITHDRAWN = action("room.invite.withdrawn", _("%(who)s withdrew an invitation link"))
MEMBER_JOINED = action("room.member.joined", _("%(who)s joined the room by an invitation"))
MEMBER_REMOVED = action("room.member.removed", _("%(who)s removed the admin %(name)s"))
MEMBER_RENAMED = action("room.member.renamed", _("%(who)s is now called %(after)s here"))
ROOM_RENAMED = action("room.renamed", _("%(who)s renamed the room %(before)s to %(after)s"))


class RoomLogQuerySet(models.QuerySet["RoomLogEntry"]):
    """The log's rows: read and added, never updated or deleted in bulk."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise LogIsAppendOnly("the room's log is append-only")

    def delete(self) -> NoReturn:
        raise LogIsAppendOnly("the room's log is append-only")


class RoomLogEntry(models.Model):
    """One thing a room's admin did (written by Room.log_action, never changed)."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The name the room showed them by at the time ("老板"): it stays when the admin
    # is removed, renamed or their account deleted.
    user_name = models.CharField(max_length=80, blank=True)
    action = models.CharField(max_length=64)
    data = models.JSONField(default=dict, blank=True)

    objects = RoomLogQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("room log entry")
        verbose_name_plural = _("room log")
        indexes = [models.Index(fields=["room", "-at"], name="room_log_newest_first")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user_name} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LogIsAppendOnly("the room's log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LogIsAppendOnly("the room's log is append-only")


__all__ = [
    "CONFIG_COPIED",
    "CONFIG_CREATED",
    "CONFIG_EDITED",
    "CONFIG_MOVED_DOWN",
    "CONFIG_MOVED_TOP",
    "CONFIG_MOVED_UP",
    "CONFIG_OFFERED",
    "CONFIG_WITHDRAWN",
    "INVITE_MADE",
    "LEAGUE_HIDDEN",
    "LEAGUE_LEFT_OUT",
    "LEAGUE_SHOWN",
    "LEAGUE_TAKEN_BACK",
    "INVITE_WITHDRAWN",
    "LISTS_CHANGES",
    "MEMBER_JOINED",
    "MEMBER_REMOVED",
    "MEMBER_RENAMED",
    "PLAYERS_MERGED",
    "PLAYER_RENAMED",
    "ROOM_RENAMED",
    "SEASON_CLOSED",
    "SEASON_EDITED",
    "SEASON_OPENED",
    "SEASON_TABLE_CHANGED",
    "SEASON_TABLE_REOPENED",
    "SENTENCES",
    "TABLES_ADDED",
    "TABLE_BROUGHT_BACK",
    "TABLE_CLOSED",
    "TABLE_CODE_REPLACED",
    "TABLE_EDITED",
    "TABLE_PAUSED",
    "TABLE_RESUMED",
    "TABLE_RETIRED",
    "TILL_COLLECTED",
    "TILL_DAY_CLOSED",
    "TILL_DAY_END_SET",
    "TILL_REFUNDED",
    "TILL_TOPPED_UP",
    "Actor",
    "LogIsAppendOnly",
    "RoomLogEntry",
    "action",
]
