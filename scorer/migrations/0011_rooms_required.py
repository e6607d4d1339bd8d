# Every configuration, table and player belongs to a room (0010 moved the existing ones
# into the first room).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0010_rooms"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gamesession",
            name="room",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="sessions",
                to="scorer.room",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="room",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="scorer.room",
            ),
        ),
        migrations.AlterField(
            model_name="roomconfig",
            name="room",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="configs",
                to="scorer.room",
            ),
        ),
    ]
