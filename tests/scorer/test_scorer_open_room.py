"""The site's staff open rooms: `manage.py open_room` (and the staff admin)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from scorer.rooms import Room, RoomMember

pytestmark = pytest.mark.django_db


def test_open_room_makes_a_room_with_its_configurations_and_owner() -> None:
    owner = User.objects.create_user("lao", password="x" * 20)
    out = StringIO()
    call_command("open_room", "xingfu", "幸福棋牌室", "--owner", "lao", stdout=out)
    room = Room.objects.get(slug="xingfu")
    assert room.name == "幸福棋牌室" and "/r/xingfu/" in out.getvalue()
    assert room.offered_configs() and RoomMember.objects.get(room=room, user=owner).is_owner
    n = room.configs.count()
    # Again: nothing more is made.
    call_command("open_room", "xingfu", "别的名字", stdout=StringIO())
    room.refresh_from_db()
    assert room.name == "幸福棋牌室" and room.configs.count() == n
    # Its start page offers its own configurations.
    page = Client().get("/r/xingfu/").content.decode()
    assert f'value="{room.offered_configs()[0].pk}" selected' in page


@pytest.mark.parametrize("args", [["bad slug", "x"], ["ok", "x", "--owner", "nobody"]])
def test_open_room_refuses_what_it_cannot_do(args: list[str]) -> None:
    with pytest.raises(CommandError):
        call_command("open_room", *args, stdout=StringIO())
    assert not Room.objects.filter(slug__in=["bad slug", "ok"]).exists()


def test_an_unknown_room_is_a_404() -> None:
    assert Client().get("/r/nowhere/").status_code == 404
