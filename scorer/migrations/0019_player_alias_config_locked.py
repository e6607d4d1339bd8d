"""A configuration's values locked against the players' changes; a player's old names
kept as his (PlayerAlias), made for the renames and merges the room's log has kept."""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

# The room's log's action keys (scorer/models/roomlog.py), as they are stored.
RENAMED, MERGED = "room.player.renamed", "room.player.merged"


def backfill(player_model: Any, alias_model: Any, log_model: Any) -> int:
    """Aliases for the names the room's log says were renamed or merged away: walked
    newest first from the names the players have now, each renamed name and each
    merged name is the player it became.  A name some player has now, or an alias
    already, is left as it is.  How many were made."""
    made = 0
    actions = [RENAMED, MERGED]
    rooms = log_model.objects.filter(action__in=actions).values_list("room_id", flat=True)
    for room_id in sorted(set(rooms)):
        now = {p.name: p.pk for p in player_model.objects.filter(room_id=room_id)}
        taken = set(now) | set(
            alias_model.objects.filter(room_id=room_id).values_list("name", flat=True)
        )
        current = dict(now)  # name -> the player it is now, as the walk goes back
        found: dict[str, int] = {}
        entries = log_model.objects.filter(room_id=room_id, action__in=actions)
        for entry in entries.order_by("-at", "-pk"):
            data = entry.data if isinstance(entry.data, dict) else {}
            old, new = (
                (data.get("before"), data.get("after"))
                if entry.action == RENAMED
                else (data.get("gone"), data.get("keep"))
            )
            if not isinstance(old, str) or not old or not isinstance(new, str):
                continue
            player = current.get(new)
            if player is None:
                continue
            if entry.action == RENAMED:
                current.pop(new, None)  # before the rename, nobody had the new name
            current[old] = player
            if old not in taken:
                found[old] = player
        for name, player in found.items():
            alias_model.objects.create(room_id=room_id, player_id=player, name=name)
            made += 1
    return made


def aliases_from_the_log(apps: Any, schema_editor: Any) -> None:
    backfill(
        apps.get_model("scorer", "Player"),
        apps.get_model("scorer", "PlayerAlias"),
        apps.get_model("scorer", "RoomLogEntry"),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0018_room_log"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalroomconfig",
            name="locked",
            field=models.BooleanField(
                default=False, verbose_name="players cannot change the values"
            ),
        ),
        migrations.AddField(
            model_name="roomconfig",
            name="locked",
            field=models.BooleanField(
                default=False, verbose_name="players cannot change the values"
            ),
        ),
        migrations.CreateModel(
            name="PlayerAlias",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="aliases",
                        to="scorer.player",
                    ),
                ),
                (
                    "room",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="scorer.room",
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("room", "name"), name="player_alias_once_per_room"
                    )
                ],
            },
        ),
        migrations.RunPython(aliases_from_the_log, migrations.RunPython.noop),
    ]
