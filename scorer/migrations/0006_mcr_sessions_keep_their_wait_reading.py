"""MCR tables started before issue 9 keep the wait fans they were scored with.

Issue 9 made the Mahjong International League's ruling the default for 边张 /
嵌张 / 单钓将 (a tile whose four copies are in the hand is a formal wait) and kept
the earlier reading as the parameter `wait_fans_real_waits`.  A new parameter
normally takes its default, which is meant to be the ruleset's behaviour before
it existed; this one's default is the new ruling instead.  So every MCR session
that exists when this migration runs (each was played under the earlier
reading) gets `wait_fans_real_waits: true`: correcting or undoing one of its
rounds re-scores it exactly as it was recorded.
"""

from typing import Any

from django.db import migrations


def keep_real_waits(apps: Any, schema_editor: Any) -> None:
    GameSession = apps.get_model("scorer", "GameSession")
    for session in GameSession.objects.filter(ruleset="mcr").iterator():
        session.params = {**(session.params or {}), "wait_fans_real_waits": True}
        session.save(update_fields=["params"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0005_round_changes_updated_at"),
    ]

    operations = [
        migrations.RunPython(keep_real_waits, migrations.RunPython.noop),
    ]
