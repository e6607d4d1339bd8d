"""The suite's shared fixtures: the factories of tests/factories.py as fixtures, and
what every test runs under.

* **Passwords hash fast.** Django's PBKDF2 costs about half a second per hash, paid
  at every ``create_user`` and every sign-in; the suite tests who may do what, not
  the hash, so it hashes with MD5 (the test settings only: ``mahjong_site.settings``
  keeps Django's defaults for every real deployment).
* **Factories** (tests/factories.py): ``room`` (a room of its own) with ``boss``
  (its owner, signed in) and ``admin`` (an admin, signed in); ``table`` (an MCR table
  of four in the default room). A module that needs another shape defines its own
  fixture of the same name, which wins over these.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.test.utils import override_settings

from scorer.models import GameSession
from scorer.rooms import Room, RoomMember
from tests.factories import make_room, make_table, member_client

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher() -> Iterator[None]:
    """MD5 for the whole run (override_settings clears Django's cached hashers)."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture
def room(db: None) -> Room:
    """老李棋牌室 (slug ``laoli``), open with its preset configurations."""
    return make_room("laoli", "老李棋牌室")


@pytest.fixture
def boss(room: Room) -> Client:
    """The room's owner, signed in on his phone."""
    return member_client(room, "boss", RoomMember.OWNER, "老板")


@pytest.fixture
def admin(room: Room) -> Client:
    """An admin of the room (not its owner), signed in on her phone."""
    return member_client(room, "xiaomei", RoomMember.ADMIN, "小美")


@pytest.fixture
def table(db: None) -> GameSession:
    """An MCR table of four (tests/factories.NAMES) in the default room."""
    return make_table("mcr")
