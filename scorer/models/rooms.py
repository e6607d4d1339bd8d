"""Rooms (棋牌室) and their configurations (房间规则).

One deployment serves many rooms.  A room owns its configurations, its fixed
tables, its players and the tables (sessions) played in it; its owner and admins
are Django users tied to it by `RoomMember`.  Nothing of one room is reachable
from another: the access helpers in `scorer.services.access` look every row up through
its room.

A configuration is a ruleset, a name and its parameter values, edited by the
room's admins.

A table started from one snapshots its values (GameSession.params): editing a
configuration later changes no recorded round, correction or undo.  Values are
checked against the ruleset's own declarations on every save, whatever the entry
point — the admin's form, the shell, an API, a fixture loaded raw — so an
invalid configuration can never be stored.  Every change is kept with who and
when by django-simple-history (a maintained package, shown in the admin).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import REGISTRY
from rules.registry import Ruleset
from scorer.clean.text import CONFIG_NAME, MEMBER_NAME, ROOM_NAME, TABLE_NAME, cut
from scorer.config_checks import checked_params, checked_room_fee, checked_room_time_fee
from scorer.models.locking import lock_objects
from scorer.models.players import Player
from scorer.models.roomlog import (
    CONFIG_COPIED,
    CONFIG_CREATED,
    CONFIG_EDITED,
    CONFIG_MOVED_DOWN,
    CONFIG_MOVED_TOP,
    CONFIG_MOVED_UP,
    CONFIG_OFFERED,
    CONFIG_WITHDRAWN,
    MEMBER_REMOVED,
    MEMBER_RENAMED,
    ROOM_RENAMED,
    SENTENCES,
    TABLES_ADDED,
    Actor,
    RoomLogEntry,
)
from scorer.models.tables import (
    FIRST_TABLE,
    LAST_TABLE,
    ReplacedTableCode,
    RoomTable,
    new_room_code,
)

# The latest hour a room's day may end at (noon): the till's form offers 0 to this.
LAST_DAY_END_HOUR = 12


class Room(models.Model):
    """A chess room (棋牌室): the unit everything else belongs to."""

    name = models.CharField(_("name"), max_length=ROOM_NAME.max_length)
    # The room's address: /r/<slug>/ (letters, digits and dashes; unique on the site).
    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The room's day ends at this hour of the next morning (rooms play past midnight),
    # 0 to LAST_DAY_END_HOUR: a table's fee counts on the day of its close
    # (scorer/services/till.py).
    day_ends_hour = models.PositiveSmallIntegerField(_("the day ends at (hour)"), default=6)
    # The room's league page (scorer/models/league.py): public on its start page, or its
    # admins' only (the default).  The owner's choice, logged (League.set_public).
    league_public = models.BooleanField(default=False)
    # Moved by every change of what the league shows (a table's results written, a
    # season changed, a player renamed or left out): its pages' cached standings are
    # keyed by it (scorer/services/league.py).
    league_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("room")
        verbose_name_plural = _("rooms")

    def __str__(self) -> str:
        return self.name

    @classmethod
    def open(cls, name: str, slug: str) -> Room:
        """A new room, with a configuration copied from every code preset: a room can
        start a table at once, and its admins then edit, order or stop offering them."""
        with transaction.atomic():
            room = cls.objects.create(name=cut(ROOM_NAME, name), slug=slug)
            room.copy_presets()
        return room

    def log_action(
        self,
        action: str,
        user: User | Actor | None = None,
        data: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
    ) -> RoomLogEntry:
        """Add an entry to the room's log (scorer/models/roomlog.py, after pretix's
        LoggedModel.log_action): `action` one of its declared types, `user` who did
        it (a user, or a room's admin as the domain methods take them), `data` what
        changed, as JSON ("before"/"after" for an edit).  `name`: the name the room
        shows them by, kept in the entry (by default the admin's, else the user name).

        Called inside the transaction.atomic() of the change it records, and
        refused outside one: a change is never stored without its entry, nor an
        entry without its change."""
        if action not in SENTENCES:
            raise ValueError(f"undeclared log action {action!r}")
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("log_action belongs inside the change's transaction.atomic()")
        if user is None or isinstance(user, User):
            account, shown = user, None
        else:
            account, shown = user.user, user.shown_name
        if name is None:
            name = shown if shown is not None else self.name_of(account)
        return RoomLogEntry.objects.create(
            room=self,
            user=account if account is not None and account.pk is not None else None,
            user_name=name[:80],
            action=action,
            data=dict(data or {}),
        )

    def name_of(self, user: User | None) -> str:
        """The name the room shows a user by: their admin's name here, else their user
        name ("" for nobody)."""
        if user is None:
            return ""
        member = self.members.filter(user=user).first()
        return member.shown_name if member is not None else user.get_username()

    def was_removed(self, user: User) -> bool:
        """Whether `user` ran this room and was removed by its owner (the room's log
        says so): they are told so, where anyone else is told nothing."""
        return self.log.filter(action=MEMBER_REMOVED, data__user_id=user.pk).exists()

    def rename(self, name: str, by: Actor) -> bool:
        """The owner renames the room: its address, its tables' QR codes and every
        link stay as they are.  False when the name is the same."""
        with lock_objects(self) as (room,):
            before, after = room.name, cut(ROOM_NAME, name)
            if before == after:
                return False
            room.name = self.name = after
            room.save(update_fields=["name"])
            room.log_action(ROOM_RENAMED, by, {"before": before, "after": after})
            return True

    def copy_presets(self) -> int:
        """A configuration for every code preset this room has none of (idempotent:
        an existing one, edited or not, is never touched).  How many were made."""
        made = 0
        have = set(self.configs.values_list("ruleset", "preset"))
        order = self.configs.aggregate(m=models.Max("order"))["m"] or 0
        for rs in sorted(
            (r for r in REGISTRY.values() if r.table_play), key=lambda r: (r.order, r.id)
        ):
            # The ruleset's own defaults first (named after it), unless a preset plays
            # exactly those; then each preset.
            defaults = dict(rs.resolve_params({}))
            presets = [(p.id, p.name_zh, p.params) for p in rs.presets]
            if all(dict(rs.resolve_params(params)) != defaults for _, _, params in presets):
                presets.insert(0, ("", rs.name_zh, {}))
            for preset, name, params in presets:
                if (rs.id, preset) in have:
                    continue
                order += 10
                RoomConfig.objects.create(
                    room=self,
                    ruleset=rs.id,
                    preset=preset,
                    name=name,
                    params=dict(rs.resolve_params(params)),
                    order=order,
                )
                made += 1
        return made

    def next_table_number(self) -> int:
        return (self.tables.aggregate(m=models.Max("number"))["m"] or 0) + 1

    def add_tables(
        self, first: int, count: int = 1, name: str = "", by: Actor | None = None
    ) -> list[RoomTable]:
        """Tables numbered first, first+1, … (a new room adds its 20 at once); all or
        none, logged as `by`'s when given.  ValueError naming the numbers the room has
        already (a retired table keeps its number: it can be brought back);
        ValidationError for a number outside 1-9,999 (the forms say so first: this is
        the last word).

        Race: two admins adding table 7 at once both find it free; the (room, number)
        constraint lets one in and the other's IntegrityError rolls back all of his.
        """
        numbers = list(range(first, first + count))
        if count < 1 or first < FIRST_TABLE or first + count - 1 > LAST_TABLE:
            raise ValidationError(
                _("A table's number is from %(first)s to %(last)s."),
                params={"first": FIRST_TABLE, "last": f"{LAST_TABLE:,}"},
            )
        with transaction.atomic():
            taken = sorted(self.tables.filter(number__in=numbers).values_list("number", flat=True))
            if taken:
                raise ValueError(taken)
            made = [
                RoomTable.objects.create(
                    room=self, number=n, name=cut(TABLE_NAME, name) if count == 1 else ""
                )
                for n in numbers
            ]
            if by is not None:
                self.log_action(TABLES_ADDED, by, {"tables": [t.log_data() for t in made]})
            return made

    def offered_configs(self) -> list[RoomConfig]:
        """What the room's start page offers: its enabled configurations, each once,
        in the admins' order (one query)."""
        return list(self.configs.filter(enabled=True).order_by("order", "pk"))

    def next_order(self) -> int:
        """The place after the room's last configuration."""
        return (self.configs.aggregate(m=models.Max("order"))["m"] or 0) + 10

    def add_config(
        self, ruleset: str, preset: str, name: str, by: Actor | None = None
    ) -> RoomConfig:
        """A new configuration of the admins' own, at a code preset's values (or the
        ruleset's defaults for preset ""), last, not offered until they enable it.
        Not tied to the preset (`preset` stays ""): the room's copy made by
        copy_presets is that one; this one is theirs to change."""
        rs = REGISTRY.get(ruleset)
        if rs is None or not rs.table_play:
            raise ValidationError(_("Unknown ruleset: %(id)s") % {"id": ruleset})
        found = rs.preset(preset) if preset else None
        if preset and found is None:
            raise ValidationError(_("Unknown preset: %(id)s") % {"id": preset})
        with transaction.atomic():
            config = RoomConfig.objects.create(
                room=self,
                ruleset=rs.id,
                name=cut(CONFIG_NAME, name),
                params=dict(rs.resolve_params(found.params if found else {})),
                enabled=False,
                order=self.next_order(),
            )
            if by is not None:
                self.log_action(CONFIG_CREATED, by, {"config": config.name, "ruleset": rs.id})
        return config

    def move_config(
        self, config_pk: int, step: int, by: Actor | None = None, *, to_top: bool = False
    ) -> bool:
        """Move one configuration up (-1) or down (+1) in the room's order, past the
        next one of its kind (offered or not: the list shows the two apart, the ones
        not offered folded), or to the top (`to_top`: the start page's first,
        preselected); False at either end.  The places are renumbered 10, 20, 30… (a
        copy shares its original's number until then); only the rows whose place
        changes are saved, so the history shows the moves and nothing else."""
        # The room's row lock: two admins reordering at once would each renumber
        # from the order they read and interleave their writes; the second now
        # waits and moves from the order the first left.
        with lock_objects(self):
            configs = list(self.configs.order_by("order", "pk"))
            at = next((i for i, c in enumerate(configs) if c.pk == config_pk), None)
            if at is None:
                return False
            moved = configs[at]
            if to_top:
                if at == 0:
                    return False
                configs.insert(0, configs.pop(at))
            else:
                alike = [i for i, c in enumerate(configs) if c.enabled == moved.enabled]
                k = alike.index(at) + step
                if step == 0 or not 0 <= k < len(alike):
                    return False
                other = alike[k]
                configs[at], configs[other] = configs[other], configs[at]
            for place, config in enumerate(configs, start=1):
                if config.order != place * 10:
                    config.order = place * 10
                    config.save(update_fields=["order", "updated_at"])
            if by is not None:
                kind = CONFIG_MOVED_TOP if to_top else CONFIG_MOVED_UP if step < 0 else None
                self.log_action(
                    kind or CONFIG_MOVED_DOWN, by, {"config": moved.name, "ruleset": moved.ruleset}
                )
            return True


DEFAULT_ROOM_SLUG = "main"
# The default room's name, as data (not translated: a room's name is its own); its
# owner renames it.
DEFAULT_ROOM_NAME = "棋牌室"


def default_room() -> Room:
    """The room `/` serves: the first one, made on first use (zero set-up)."""
    room = Room.objects.order_by("pk").first()
    if room is None:
        with transaction.atomic():
            room, made = Room.objects.get_or_create(
                slug=DEFAULT_ROOM_SLUG, defaults={"name": DEFAULT_ROOM_NAME}
            )
            if made:
                room.copy_presets()
    return room


class RoomMember(models.Model):
    """A user who runs a room: its owner (who invites admins) or an admin."""

    OWNER, ADMIN = "owner", "admin"
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rooms"
    )
    role = models.CharField(
        max_length=8, choices=[(OWNER, _("owner")), (ADMIN, _("admin"))], default=ADMIN
    )
    # The name the room's history shows ("底分 8 → 10 · 老板"); the user name if blank.
    display_name = models.CharField(_("name shown"), max_length=MEMBER_NAME.max_length, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "user"], name="one_membership_per_room"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.room} ({self.role})"

    @property
    def is_owner(self) -> bool:
        return self.role == self.OWNER

    @property
    def shown_name(self) -> str:
        """The name the room's pages and history give this admin."""
        return self.display_name or self.user.get_username()

    def set_name(self, name: str) -> bool:
        """The name the room's history gives this admin ("老板"); logged under the name
        they had.  False when it is the same."""
        with lock_objects(self) as (member,):
            before, name = member.shown_name, cut(MEMBER_NAME, name)
            if name == member.display_name:
                return False
            member.display_name = self.display_name = name
            member.save(update_fields=["display_name"])
            self.room.log_action(
                MEMBER_RENAMED, member.user, {"before": before, "after": member.shown_name},
                name=before,
            )  # fmt: skip
            return True

    def remove(self, by: Actor) -> bool:
        """The owner takes this admin off the room; the log keeps who they were (their
        name and user), so that their next visit says they were removed.  ValueError
        for an owner (never removed here); False when removed already (two taps, or
        two owners at once: the second deletes nothing and logs nothing)."""
        if self.is_owner:
            raise ValueError("an owner is not removed here")
        with transaction.atomic():
            deleted, _kinds = RoomMember.objects.filter(pk=self.pk).delete()
            if not deleted:
                return False
            self.room.log_action(
                MEMBER_REMOVED,
                by,
                {
                    "name": self.shown_name,
                    "user_id": self.user_id,
                    "username": self.user.get_username(),
                },
            )
            return True


class RoomConfig(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="configs")
    ruleset = models.CharField(_("ruleset"), max_length=32)
    name = models.CharField(_("name"), max_length=CONFIG_NAME.max_length)
    # Every parameter's value (resolved): what a table started from it plays with.
    params = models.JSONField(_("values"), default=dict, blank=True)
    # How the room charges a table started from it (台费): {} for no fee (scorer/money/fees.py).
    fee = models.JSONField(_("table fee"), default=dict, blank=True)
    # Its 计时 fee in 元 (scorer/money/timefee.py): {} for none; a fixed table may have its own.
    time_fee = models.JSONField(_("time fee"), default=dict, blank=True)
    enabled = models.BooleanField(_("offered on the start page"), default=True)
    # The room's values only: the start page shows them, read-only, and a table started
    # from it plays them whatever the form sent (scorer/views/start.py).
    locked = models.BooleanField(_("players cannot change the values"), default=False)
    order = models.PositiveIntegerField(_("order"), default=0)
    # The code preset it was made from by `load_presets` ("" for the admin's own).
    preset = models.CharField(_("from preset"), max_length=32, blank=True, editable=False)
    updated_at = models.DateTimeField(_("last change"), default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["order", "pk"]
        verbose_name = _("room configuration")
        verbose_name_plural = _("room configurations")
        constraints = [
            # A room has one configuration copied from each code preset, once.
            models.UniqueConstraint(
                fields=["room", "ruleset", "preset"],
                condition=~models.Q(preset=""),
                name="one_config_per_code_preset",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Ruleset | None:
        return REGISTRY.get(self.ruleset)

    def clean(self) -> None:
        self.params = checked_params(self.ruleset, self.params)
        self.fee = checked_room_fee(self.fee)
        self.time_fee = checked_room_time_fee(self.time_fee)

    def log_data(self) -> dict[str, Any]:
        return {"config": self.name, "ruleset": self.ruleset}

    def clone(self, name: str, by: Actor | None = None) -> RoomConfig:
        """A copy to edit: the admin's own (no preset), placed right after this one,
        with its values and its table fee; not offered until enabled."""
        with transaction.atomic():
            copy = RoomConfig.objects.create(
                room=self.room,
                ruleset=self.ruleset,
                name=cut(CONFIG_NAME, name),
                params=dict(self.params),
                fee=dict(self.fee or {}),
                locked=self.locked,
                time_fee=dict(self.time_fee or {}),
                enabled=False,
                order=self.order,
            )
            if by is not None:
                self.room.log_action(CONFIG_COPIED, by, {**copy.log_data(), "source": self.name})
        return copy

    def edit(
        self,
        name: str,
        params: Mapping[str, Any],
        fee: Mapping[str, Any] | None = None,
        seen: str | None = None,
        by: Actor | None = None,
        locked: bool | None = None,
        time_fee: Mapping[str, Any] | None = None,
    ) -> RoomConfig:
        """Save an admin's form: name, values, and (when given) the table fee and
        whether the players may change the values on the start page (`locked`).

        `seen`: the `version` the form was opened at.  Two admins editing the same
        configuration on two phones: the second to save would silently undo the
        first one's change, so under the row lock a form opened before the last
        change is refused (EditConflict, nothing saved) and shown again."""
        with lock_objects(self) as (config,):
            if seen is not None and seen != config.version:
                raise EditConflict(config)
            before = {
                "name": config.name,
                "params": config.params,
                "fee": config.fee,
                "locked": config.locked,
                "time_fee": config.time_fee,
            }
            config.name = cut(CONFIG_NAME, name)
            config.params = dict(params)
            if fee is not None:
                config.fee = dict(fee)
            if locked is not None:
                config.locked = locked
            if time_fee is not None:
                config.time_fee = dict(time_fee)
            config.save()  # (the values checked and resolved by the pre_save check)
            if by is not None:
                after = {
                    "name": config.name,
                    "params": config.params,
                    "fee": config.fee,
                    "locked": config.locked,
                    "time_fee": config.time_fee,
                }
                changed = {k for k in before if before[k] != after[k]}
                if changed:
                    config.room.log_action(
                        CONFIG_EDITED,
                        by,
                        {
                            **config.log_data(),
                            "before": {k: before[k] for k in sorted(changed)},
                            "after": {k: after[k] for k in sorted(changed)},
                        },
                    )
        return config

    def set_offered(self, offered: bool, by: Actor | None = None) -> bool:
        """Offer it on the room's start page, or stop; False when it already was so.

        The room always offers one at least: a table's QR code starts a table from
        the offered ones, and with none a phone at the table could start nothing."""
        # The room's row lock: two admins each stopping one of the last two
        # offered configurations would otherwise both see another one left.
        with lock_objects(self.room):
            config = RoomConfig.objects.get(pk=self.pk)
            if config.enabled == offered:
                return False
            others = self.room.configs.filter(enabled=True).exclude(pk=self.pk)
            if not offered and not others.exists():
                raise ValidationError(
                    _("The room must offer at least one configuration: offer another first.")
                )
            config.enabled = offered
            config.save(update_fields=["enabled", "updated_at"])
            self.enabled = offered
            if by is not None:
                config.room.log_action(
                    CONFIG_OFFERED if offered else CONFIG_WITHDRAWN, by, config.log_data()
                )
            return True

    @property
    def version(self) -> str:
        """What an edit form carries to tell whether what it edits (name, values,
        fee, locked) changed since it was opened; a move or an enable in the list
        does not."""
        said: list[Any] = [self.name, self.params, self.fee, self.locked]
        if self.time_fee:  # (a configuration without one keeps the version it had)
            said.append(self.time_fee)
        text = json.dumps(said, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class EditConflict(Exception):
    """Another admin saved the configuration after this form was opened."""

    def __init__(self, current: RoomConfig) -> None:
        super().__init__("changed meanwhile")
        self.current = current


@receiver(pre_save, sender=Player)
def _player_in_a_room(sender: Any, instance: Player, raw: bool = False, **kwargs: Any) -> None:
    """A player saved without a room is the default room's (the embedded default: one
    room).  A fixture loaded raw is stored as it is."""
    if instance.room_id is None and not raw:
        instance.room = default_room()


@receiver(pre_save, sender=RoomConfig)
def _check_before_saving(
    sender: Any, instance: RoomConfig, raw: bool = False, **kwargs: Any
) -> None:
    """The last word for every entry point (a fixture is saved raw, past clean())."""
    if instance.room_id is None:  # the embedded default: one room, which `/` serves
        instance.room = default_room()
    instance.params = checked_params(instance.ruleset, instance.params)
    instance.fee = checked_room_fee(instance.fee)
    instance.time_fee = checked_room_time_fee(instance.time_fee)
    if not raw:
        instance.updated_at = timezone.now()


__all__ = [
    "FIRST_TABLE",
    "LAST_TABLE",
    "EditConflict",
    "ReplacedTableCode",
    "Room",
    "RoomConfig",
    "RoomMember",
    "RoomTable",
    "default_room",
    "new_room_code",
]
