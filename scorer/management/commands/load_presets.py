"""``manage.py load_presets``: check the built-in ruleset presets and report them.

Presets are declared by each ruleset in code (`rules.registry.Preset`), so there
is nothing to copy into the database: the command validates every preset's
parameters against its ruleset's declarations, which makes a bad preset fail at
set-up (`make run`) rather than at the table.  Idempotent.
"""

from typing import Any

from django.core.management.base import BaseCommand

from rules import REGISTRY


class Command(BaseCommand):
    help = "Check the built-in ruleset presets and report how many there are. Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        count = 0
        for rs in REGISTRY.values():
            for preset in rs.presets:
                rs.resolve_params(preset.params)  # RuleError (set-up fails) on a bad preset
                count += 1
        rulesets = sum(1 for rs in REGISTRY.values() if rs.presets)
        self.stdout.write(
            self.style.SUCCESS(
                f"Checked {count} presets of {rulesets} rulesets: every value fits its parameter. "
                "(Presets live in each ruleset's code; nothing is written to the database.)"
            )
        )
