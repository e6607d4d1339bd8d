"""The room's league: its seasons (月赛) and the owner's choices (the league page public
or not, the players left out of it).  Every change is an admin's, logged in the
room's log in its own transaction (scorer/models/roomlog.py).

What a season counts and how it ranks is read from the kept results
(scorer/models/results.py) by scorer/services/league.py; the rules are in
docs/league.md.  Closing a season keeps its final standings here, as data: a
table reopened later changes nothing in them (the room's log says so).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.apps import apps
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorer.clean.text import SEASON_NAME
from scorer.league.seat_results import PLACE_POINTS
from scorer.league.standings import POINTS, STANDARD, UMA, YUAN
from scorer.live.broker import league_topic, publish_on_commit
from scorer.models.locking import lock_objects
from scorer.models.roomlog import (
    LEAGUE_HIDDEN,
    LEAGUE_LEFT_OUT,
    LEAGUE_SHOWN,
    LEAGUE_TAKEN_BACK,
    SEASON_CLOSED,
    SEASON_EDITED,
    SEASON_OPENED,
    Actor,
)


def league_changed(room_id: int) -> None:
    """The room's league moved (a table's results written, a season opened, changed
    or closed, a player left out or renamed): its version, the key of its pages'
    cached standings, moves; and once the change commits its league pages are told
    (a version only, as a table's stream)."""
    room_model = apps.get_model("scorer", "Room")
    rooms = room_model.objects.filter(pk=room_id)
    rooms.update(league_version=models.F("league_version") + 1)
    publish_on_commit([league_topic(room_id)], rooms.values_list("league_version", flat=True)[0])


# The rankings a season offers (scorer/league/standings.py says how each counts).
RANKINGS = (
    (STANDARD, _("Standard points by place (4/2/1/0, shared on ties)")),
    (POINTS, _("Net points")),
    (YUAN, _("Net yuan")),
    (UMA, _("Net points plus uma")),
)
DEFAULT_PLACE_POINTS = {str(n): list(p) for n, p in PLACE_POINTS.items()}
DEFAULT_UMA = {"4": [20, 10, -10, -20], "3": [15, 0, -15], "2": [10, -10]}


class SeasonClosed(Exception):
    """The season was closed (by another admin, meanwhile): nothing changed."""


class Season(models.Model):
    """A season of the room's league: its days, the configurations that count, its ranking."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=SEASON_NAME.max_length)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    # The room's configurations whose tables count (by their ruleset and preset).
    configs = models.ManyToManyField("scorer.RoomConfig", related_name="+", blank=True)
    ranking = models.CharField(_("ranking"), max_length=8, choices=RANKINGS, default=STANDARD)
    # 标准分 per place, and the uma per place, by the number of players ("4": [4, 2, 1, 0]).
    place_points = models.JSONField(default=dict, blank=True)
    uma = models.JSONField(default=dict, blank=True)
    min_tables = models.PositiveSmallIntegerField(_("tables to be ranked"), default=0)
    best_n = models.PositiveSmallIntegerField(_("only the best tables"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The standings as they stood at the close: what the season shows from then on.
    final = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-first_day", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first_day__lte=models.F("last_day")),
                name="season_days_in_order",
            )
        ]

    def __str__(self) -> str:
        return self.name

    FIELDS = ("name", "first_day", "last_day", "ranking", "place_points", "uma",
              "min_tables", "best_n")  # fmt: skip

    def points_for(self, n_players: int) -> list[int]:
        return list((self.place_points or DEFAULT_PLACE_POINTS).get(str(n_players)) or [])

    def uma_for(self, n_players: int) -> list[int]:
        return list((self.uma or DEFAULT_UMA).get(str(n_players)) or [])

    def counts_day(self, day: dt.date) -> bool:
        return self.first_day <= day <= self.last_day

    def log_data(self) -> dict[str, Any]:
        return {"season": self.name}

    def snapshot(self) -> dict[str, Any]:
        out = {f: getattr(self, f) for f in self.FIELDS}
        out["first_day"], out["last_day"] = str(self.first_day), str(self.last_day)
        out["configs"] = sorted(c.name for c in self.configs.all()) if self.pk else []
        return out

    @classmethod
    def open(cls, room: Any, by: Actor, configs: list[Any], **fields: Any) -> Season:
        """A new season, logged."""
        with transaction.atomic():
            season = cls.objects.create(room=room, **fields)
            season.configs.set(configs)
            room.log_action(SEASON_OPENED, by, season.log_data())
            league_changed(room.pk)
        return season

    def edit(self, by: Actor, configs: list[Any], **fields: Any) -> bool:
        """Change an open season (its days, configurations, ranking), logged before and
        after.  SeasonClosed when it was closed meanwhile (the row lock orders two
        admins).  False when nothing changed."""
        with lock_objects(self) as (locked,):
            if locked.closed_at is not None:
                raise SeasonClosed(self.name)
            before = locked.snapshot()
            for k, v in fields.items():
                setattr(locked, k, v)
            locked.save()
            locked.configs.set(configs)
            after = locked.snapshot()
            if before == after:
                return False
            self.room.log_action(
                SEASON_EDITED, by, {**locked.log_data(), "before": before, "after": after}
            )
            league_changed(self.room_id)
        self.refresh_from_db()
        return True

    def close(self, by: Actor, final: dict[str, Any]) -> bool:
        """Close the season keeping `final` (its standings now) as what it shows from
        now on.  False when it was closed already (two admins at once: closed once)."""
        with lock_objects(self) as (locked,):
            if locked.closed_at is not None:
                return False
            locked.closed_at, locked.final = timezone.now(), final
            locked.save(update_fields=["closed_at", "final"])
            self.room.log_action(SEASON_CLOSED, by, locked.log_data())
            league_changed(self.room_id)
        self.closed_at, self.final = locked.closed_at, locked.final
        return True


class League(models.Model):
    """The owner's choices for the room's league: whether its page is public (off by
    default: the room's admins only) and who is left out of it (不参加排名)."""

    room = models.OneToOneField("scorer.Room", on_delete=models.CASCADE, related_name="league")
    left_out = models.ManyToManyField("scorer.Player", related_name="+", blank=True)

    def __str__(self) -> str:
        return f"league of {self.room_id}"

    @staticmethod
    def of(room: Any) -> League:
        league, _made = League.objects.get_or_create(room=room)
        return league

    @property
    def public(self) -> bool:
        """Kept on the room's own row (Room.league_public): its start page reads it
        with the room, at no cost."""
        return bool(self.room.league_public)

    def set_public(self, public: bool, by: Actor) -> bool:
        """The owner's choice, logged; False when it was so already (the room's row
        lock orders two taps)."""
        with lock_objects(self.room) as (locked,):
            if locked.league_public == public:
                return False
            locked.league_public = self.room.league_public = public
            locked.save(update_fields=["league_public"])
            self.room.log_action(LEAGUE_SHOWN if public else LEAGUE_HIDDEN, by, {})
        return True

    def leave_out(self, player: Any, out: bool, by: Actor) -> bool:
        """不参加排名: the player is listed in no standings (his tables still count for
        the others); or back in.  False when nothing changed."""
        with lock_objects(self):
            now = self.left_out.filter(pk=player.pk).exists()
            if now == out:
                return False
            (self.left_out.add if out else self.left_out.remove)(player)
            self.room.log_action(
                LEAGUE_LEFT_OUT if out else LEAGUE_TAKEN_BACK, by, {"player": player.name}
            )
            league_changed(self.room_id)
        return True


__all__ = [
    "DEFAULT_PLACE_POINTS",
    "DEFAULT_UMA",
    "POINTS",
    "RANKINGS",
    "STANDARD",
    "UMA",
    "YUAN",
    "League",
    "league_changed",
    "Season",
    "SeasonClosed",
]
