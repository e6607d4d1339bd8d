"""``manage.py load_presets``: every room has a configuration copied from each code preset.

Each ruleset declares its presets in code (`rules.registry.Preset`).  A room's
admins edit its configurations in the database; this command makes sure the
default room exists (the zero set-up install: `/` serves it) and gives every room
a configuration for each preset it has none of, with the preset's values checked
against the ruleset's declarations, so a bad preset fails at set-up (`make run`).
An existing configuration is never touched: an admin's edits survive every run.
Idempotent.
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from rules import REGISTRY
from scorer.models.rooms import Room, RoomConfig, default_room


class Command(BaseCommand):
    help = "Give every room a configuration for each ruleset preset it has none of. Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            kept = RoomConfig.objects.count()
            default_room()  # a new install's one room, with its copies
            for room in Room.objects.all():
                room.copy_presets()
            created = RoomConfig.objects.count() - kept
        # Rulesets that are not played at a table (generic) have no configurations.
        others = sum(len(rs.presets) for rs in REGISTRY.values() if not rs.table_play)
        self.stdout.write(
            self.style.SUCCESS(
                f"Room configurations: {created} created, {kept} kept as they are"
                + (
                    f" ({others} presets of rulesets not played at a table skipped)"
                    if others
                    else ""
                )
                + "."
            )
        )
