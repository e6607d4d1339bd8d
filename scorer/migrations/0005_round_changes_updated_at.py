"""Round history of undo / restore, and a session's last activity.

Existing undone rounds get their undo as the first change (who and when were
kept on the round); `updated_at` starts at the last thing that happened to the
session: its newest revision or undo, else its creation.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def backfill(apps, schema_editor):
    GameSession = apps.get_model("scorer", "GameSession")
    Round = apps.get_model("scorer", "Round")
    RoundChange = apps.get_model("scorer", "RoundChange")
    RoundRevision = apps.get_model("scorer", "RoundRevision")
    for rnd in Round.objects.filter(status="undone").exclude(undone_at=None):
        RoundChange.objects.create(round=rnd, action="undo", author=rnd.undone_by, at=rnd.undone_at)
    for session in GameSession.objects.all():
        times = [session.created_at]
        last_rev = (
            RoundRevision.objects.filter(round__session=session).order_by("-created_at").first()
        )
        if last_rev is not None:
            times.append(last_rev.created_at)
        last_undo = (
            Round.objects.filter(session=session).exclude(undone_at=None).order_by("-undone_at")
        ).first()
        if last_undo is not None:
            times.append(last_undo.undone_at)
        session.updated_at = max(times)
        session.save(update_fields=["updated_at"])


class Migration(migrations.Migration):
    dependencies = [("scorer", "0004_session_full_params")]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="updated_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.CreateModel(
            name="RoundChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "action",
                    models.CharField(
                        choices=[("undo", "undo"), ("restore", "restore")], max_length=8
                    ),
                ),
                ("author", models.CharField(blank=True, max_length=80)),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="scorer.round",
                    ),
                ),
            ],
            options={"ordering": ["at", "pk"]},
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
