"""``manage.py load_presets``: a room configuration (房间规则) for every code preset, once.

Each ruleset declares its presets in code (`rules.registry.Preset`).  The room's
admins edit configurations in the database; this command creates one per preset
of every registered ruleset that has none yet (keyed by ruleset and preset), with
the preset's values checked against the ruleset's declarations, so a bad preset
fails at set-up (`make run`).  An existing configuration is never touched: an
admin's edits survive every run.  Idempotent.
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from rules import REGISTRY
from scorer.present.words import table_rulesets
from scorer.rooms import RoomConfig


class Command(BaseCommand):
    help = "Create a room configuration for every ruleset preset that has none. Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        created = kept = 0
        order = 0
        with transaction.atomic():
            for rs in table_rulesets():
                for preset in rs.presets:
                    values = dict(rs.resolve_params(preset.params))  # RuleError: set-up fails
                    order += 10
                    _, made = RoomConfig.objects.get_or_create(
                        ruleset=rs.id,
                        preset=preset.id,
                        defaults={"name": preset.name_zh, "params": values, "order": order},
                    )
                    created += made
                    kept += not made
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
