"""Players: a registry reused across tables, and each player's record.

A table keeps the names as they were typed (its pages and exports never change);
each seat is also tied to a `Player`, found by name when the table starts.
Renaming a player changes the registry only, so his record keeps every table he
sat at.  A player's page is reached by an unguessable slug, like a table: it
lists his tables, and a table's link is its only key.
"""

from __future__ import annotations

import secrets
from typing import cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.dispatch import Signal
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from scorer.clean.lookalike import looks_like
from scorer.clean.text import PLAYER_NAME, clean_text
from scorer.models.locking import lock_objects
from scorer.models.roomlog import PLAYER_RENAMED, PLAYERS_MERGED, Actor

# Sent inside a merge's transaction, its seats moved and before the name goes:
# `keep` (the player kept) and `sessions` (the pks of the tables whose seats moved),
# so that what is kept of those tables (scorer/models/sessions.py) is written again.
players_merged = Signal()


def new_slug() -> str:
    return secrets.token_urlsafe(9)


class Player(models.Model):
    slug = models.CharField(max_length=24, unique=True, default=new_slug, editable=False)
    # Players are per room: a name typed in one room is never offered in another.
    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="players")
    # Wider than a player's name (PLAYER_NAME, 16): names renamed to up to 40 before
    # one length held everywhere are kept as they are.
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    last_played = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_played"]
        constraints = [
            models.UniqueConstraint(fields=["room", "name"], name="player_name_once_per_room")
        ]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def named(room_id: int, name: str) -> Player | None:
        """The room's player going by `name`: his own name, else one he was known by
        before a rename or a merge (PlayerAlias).  None for a name nobody has."""
        found = Player.objects.filter(room_id=room_id, name=name).first()
        if found is None:
            alias = (
                PlayerAlias.objects.select_related("player")
                .filter(room_id=room_id, name=name)
                .first()
            )
            found = alias.player if alias is not None else None
        return found

    @staticmethod
    def looking_like(room_id: int, name: str, but_not: int | None = None) -> Player | None:
        """The room's player (other than `but_not`) whose name, or a name he went by,
        looks the same as `name` without being it (scorer/clean/lookalike.py): Latin "o" and
        Cyrillic "о", "Ｂｏｂ" and "Bob".  None when nobody's does, or when `name` is a
        player's own: a name typed exactly is that player, no question asked.  A start,
        a rename or an import asks (or refuses) before keeping such a name."""
        if not name or Player.named(room_id, name) is not None:
            return None
        # A room's names, a few hundred: their skeletons are cached (lookalike.skeleton).
        names = Player.objects.filter(room_id=room_id).values_list("pk", "name")
        aliases = PlayerAlias.objects.filter(room_id=room_id).values_list("player_id", "name")
        for pk, known in [*names.order_by("-last_played", "pk"), *aliases.order_by("pk")]:
            if pk != but_not and looks_like(name, known):
                return Player.objects.get(pk=pk)
        return None

    def rename(self, name: str, by: Actor | None = None) -> None:
        """A new name for the same player: his record stays his (seats point at him),
        and his old name stays his too (an alias: typed again at a table, it is him,
        not a new player).  The room's log keeps the old and the new name when an
        admin (`by`) renames.  TextRefused (scorer/clean/text.py) for a name no player may
        have; ValueError when it is blank or another player goes by that name already
        (his own, or one of his old ones)."""
        name = clean_text(PLAYER_NAME, name)
        if not name:
            raise ValueError("empty name")
        # The player's row lock: two admins renaming him at once would each keep
        # the name they read as his old one.
        with lock_objects(self) as (row,):
            before = row.name
            taken = Player.named(self.room_id, name)
            if taken is not None and taken.pk != self.pk:
                raise ValueError("name taken")
            self.name = name
            self.save(update_fields=["name"])
            if before != name:
                PlayerAlias.objects.filter(player=self, name=name).delete()  # his again
                PlayerAlias.keep(self, before)
            if by is not None and before != name:
                self.room.log_action(PLAYER_RENAMED, by, {"before": before, "after": name})
            if before != name:  # the league's standings show his name
                room_rows = type(self.room).objects.filter(pk=self.room_id)
                room_rows.update(league_version=models.F("league_version") + 1)

    def closed_tables(self) -> list[models.Model]:
        """The closed tables he sat at (their kept results name him), in pk order."""
        seats = Seat.objects.filter(player=self, session__closed_at__isnull=False)
        return [s.session for s in seats.select_related("session").order_by("session_id")]

    def merge_into(self, keep: Player, by: Actor | None = None) -> int:
        """Two names that are one person: his seats move to `keep`, this name goes
        (the room's log keeps both names when an admin, `by`, merges them).
        How many seats moved.  ValidationError (nothing changed) when they sat at the
        same table (two people, then) or are of different rooms; Player.DoesNotExist
        when one of them is gone (merged meanwhile)."""
        if keep.pk == self.pk or keep.room_id != self.room_id:
            raise ValidationError(_("Choose two different players of this room."))
        # Both rows locked (lock_objects: in pk order): two admins merging the same
        # pair (either way round) would otherwise both move seats and one would then
        # delete a player the other had just given seats to; the second now finds one
        # gone (Player.DoesNotExist).  The closed tables whose kept results are
        # written again (players_merged) are locked first, as the locking rule
        # orders: a table before a player.
        closed = self.closed_tables()
        with lock_objects(*closed, self, keep) as rows:
            locked = cast(list[Player], rows[-2:])
            if not {t.pk for t in self.closed_tables()} <= {t.pk for t in closed}:
                raise Player.DoesNotExist("merged meanwhile")  # another name's tables came
            both = (
                Seat.objects.filter(player=self, session__seats__player=keep)
                .select_related("session")
                .first()
            )
            if both is not None:
                raise ValidationError(
                    _("%(a)s and %(b)s sat at the same table (%(when)s): they are two people.")
                    % {
                        "a": self.name,
                        "b": keep.name,
                        "when": timezone.localtime(both.session.created_at).strftime(
                            "%Y-%m-%d %H:%M"
                        ),
                    }
                )
            sessions = list(Seat.objects.filter(player=self).values_list("session_id", flat=True))
            moved = Seat.objects.filter(player=self).update(player=keep)
            players_merged.send(sender=Player, keep=keep, sessions=sessions)
            # The name that goes, and the names it was known by, are his from now on.
            PlayerAlias.objects.filter(player=self).update(player=keep)
            PlayerAlias.keep(keep, next(p.name for p in locked if p.pk == self.pk))
            # His balance (会员储值, scorer/models/money.py) moves with his seats.
            self.balance_entries.update(player=keep)
            last = max(p.last_played for p in locked)
            Player.objects.filter(pk=keep.pk).update(last_played=last)
            Player.objects.filter(pk=self.pk).delete()
            if by is not None:
                names = {p.pk: p.name for p in locked}
                self.room.log_action(
                    PLAYERS_MERGED,
                    by,
                    {"gone": names[self.pk], "keep": names[keep.pk], "seats": moved},
                )
        keep.last_played = last
        return moved


class PlayerAlias(models.Model):
    """A name a player went by before a rename or a merge: typed again at a table, it
    finds him (Player.named) instead of making a new player.  A name is one player's
    in a room, as his name or as one of these (checked under the player's lock by
    rename; the constraint keeps two aliases apart)."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["room", "name"], name="player_alias_once_per_room")
        ]

    def __str__(self) -> str:
        return f"{self.name} -> {self.player_id}"

    @classmethod
    def keep(cls, player: Player, name: str) -> None:
        """Keep `name` as one of `player`'s (inside the rename's or merge's transaction);
        nothing when it is a placeholder or an alias already."""
        if name and not any(is_placeholder(name, seat) for seat in range(len(PLACEHOLDER_NAMES))):
            cls.objects.get_or_create(
                room_id=player.room_id, name=name, defaults={"player": player}
            )


class Seat(models.Model):
    """Who sat in which seat of a table."""

    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}:{self.seat} {self.player_id}"


# A player left unnamed is kept as a placeholder, numbered by the seat he starts in
# (not its wind: the seat winds move round, and "北 东家" read as a contradiction).
# A placeholder is never a player of the room's registry (see is_placeholder).
PLACEHOLDER_NAMES = (_("Player 1"), _("Player 2"), _("Player 3"), _("Player 4"))


def is_placeholder(name: str, seat: int) -> bool:
    """Whether `name` is the placeholder of an unnamed player at `seat`, in any of the
    site's languages (a table keeps the words of the page it was started from)."""
    if not 0 <= seat < len(PLACEHOLDER_NAMES):
        return False
    words = set()
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            words.add(str(PLACEHOLDER_NAMES[seat]))
    return name in words


def recent_names(room_id: int, limit: int = 24) -> list[str]:
    """The names the room's start page offers: its own players only."""
    return list(
        Player.objects.filter(room_id=room_id)
        .order_by("-last_played")
        .values_list("name", flat=True)[:limit]
    )


__all__ = [
    "Player",
    "PlayerAlias",
    "Seat",
    "players_merged",
    "recent_names",
]
