from django.db import migrations, models


class Migration(migrations.Migration):
    """An imported table is marked, and kept out of the room's books until its admins
    take it in (issue 34).  Tables imported before this migration are not marked: they
    were counted already, and stay counted."""

    dependencies = [
        ("scorer", "0016_session_origin"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="imported_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="gamesession",
            name="taken_in_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="gamesession",
            name="taken_in_by",
            field=models.CharField(blank=True, max_length=80),
        ),
    ]
