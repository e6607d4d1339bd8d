"""Sessions keep every parameter's value, not only the overrides of the defaults.

A session used to store the values that differed from the ruleset's defaults
at the time: a later change of a default (or of a room's configuration) would
then have changed how its recorded rounds are re-scored on a correction or an
undo.  This fills in the values every existing session was played with, from
the defaults as they are when the migration runs (the values those sessions
have been scored with so far).
"""

from typing import Any

from django.db import migrations


def fill_params(apps: Any, schema_editor: Any) -> None:
    from rules import REGISTRY

    GameSession = apps.get_model("scorer", "GameSession")
    for session in GameSession.objects.all().iterator():
        rs = REGISTRY.get(session.ruleset)
        if rs is None:
            continue  # a ruleset no longer here: its stored values stay as they are
        known = {p.name for p in rs.params}
        stored = {k: v for k, v in (session.params or {}).items() if k in known}
        session.params = {**rs.defaults, **stored}
        session.save(update_fields=["params"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0003_round_events"),
    ]

    operations = [
        migrations.RunPython(fill_params, migrations.RunPython.noop),
    ]
