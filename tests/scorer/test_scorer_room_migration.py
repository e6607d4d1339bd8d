"""Rooms arrive on a database already in use: every configuration, table and player
made before moves into one room, which `/` then serves as before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scorer", "0009_players")]
AFTER = [("scorer", "0012_fees")]


def test_existing_rows_move_into_the_first_room() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    config = old.get_model("scorer", "RoomConfig").objects.create(
        ruleset="mcr", name="周三比赛", params={"base": 8}
    )
    session = old.get_model("scorer", "GameSession").objects.create(
        code="abc", ruleset="mcr", players=["甲", "乙", "丙", "丁"]
    )
    player = old.get_model("scorer", "Player").objects.create(name="甲")
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    rooms = list(new.get_model("scorer", "Room").objects.all())
    assert len(rooms) == 1 and rooms[0].slug == "main"
    room = rooms[0]
    assert new.get_model("scorer", "RoomConfig").objects.get(pk=config.pk).room_id == room.pk
    assert new.get_model("scorer", "GameSession").objects.get(pk=session.pk).room_id == room.pk
    assert new.get_model("scorer", "Player").objects.get(pk=player.pk).room_id == room.pk
    # Back to the latest state for the tests that follow.
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_a_new_database_has_no_room_until_first_used() -> None:
    from scorer.models.rooms import Room, default_room

    assert not Room.objects.exists()
    room = default_room()
    assert room.slug == "main" and room.configs.filter(enabled=True).exists()
    assert default_room() == room  # made once


def test_tables_made_before_get_the_origin_their_exports_carry() -> None:
    """A table made before the upgrade gets the origin its exports carry: exported after
    it, the table is recognised when imported here."""
    from scorer.models import GameSession
    from scorer.models.sessions import origin_of_code

    executor = MigrationExecutor(connection)
    executor.migrate([("scorer", "0015_adjust_penalty")])
    old = executor.loader.project_state([("scorer", "0015_adjust_penalty")]).apps
    session = old.get_model("scorer", "GameSession").objects.create(
        code="abc",
        ruleset="mcr",
        players=["甲", "乙", "丙", "丁"],
        room=old.get_model("scorer", "Room").objects.create(slug="r", name="r"),
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert GameSession.objects.get(pk=session.pk).origin == origin_of_code("abc")
