"""What the tests build from: tables of a ruleset with their players, rooms with their
owner and admins, rounds entered by tiles or by fans.

Plain functions, so a test reads as the story it tells ("a table of 四川 with these
four, two rounds, then close it") and a change to how a table is made is one change
here. ``tests/conftest.py`` hands the common ones out as fixtures.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scorer.models import GameSession, Round
from scorer.models.rooms import Room, RoomMember
from scorer.services.seating import seat_players

# Four players, the names most tests seat.
NAMES: tuple[str, ...] = ("老王", "小李", "阿强", "美玲")
# Four one-character names, seat by seat: the tests that read a seat by its name.
SHORT_NAMES: tuple[str, ...] = ("甲", "乙", "丙", "丁")
# docs/fees.md's worked rule: 50 元 a 4-hour 场, 10 minutes' grace, overtime 15 元 an
# hour per 30 minutes; and how the pages say it.
BLOCK_FEE: dict[str, object] = {
    "mode": "block", "price": "50", "hours": 4, "grace": 10,
    "overtime": "hour", "overtime_price": "15", "unit": 30,
}  # fmt: skip
# The till's tests play an evening: 19:00 on 2026-11-27 (the site's local time).
EVENING = dt.datetime(2026, 11, 27, 19, 0)
BLOCK_FEE_SAID = "计时：每场 4 小时 50 元，宽限 10 分钟，超时每 30 分钟 7.50 元"
ZH_PAGE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
# An MCR hand every ruleset that scores by tiles accepts: 111m 222m 333m 456p 中中, won on 中.
HAND: dict[str, str] = {"concealed": "111m222m333m456p7z", "win_tile": "7z"}
# A room admin's password: long enough for the validators (the suite hashes it fast).
PASSWORD = "a long room password 麻将"


# ----------------------------------------------------------------------------- tables


def make_table(
    ruleset: str = "mcr",
    players: Sequence[str] = NAMES,
    *,
    seated: bool = False,
    **fields: Any,
) -> GameSession:
    """A table of ``ruleset`` with ``players`` (its ``fields`` as GameSession's: room,
    params, fee, first_dealer ...); ``seated`` ties the seats to the room's registry
    of players, as the start page does."""
    session = GameSession.objects.create(ruleset=ruleset, players=list(players), **fields)
    if seated:
        seat_players(session)
    return session


def by_tiles(
    winner: int = 1,
    discarder: int | None = 2,
    hand: Mapping[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A win entered by its tiles (``discarder`` None: self-drawn)."""
    return {
        "kind": "win",
        "mode": "tiles",
        "winner": winner,
        "discarder": discarder,
        "hand": dict(hand or HAND),
        **extra,
    }


def by_fans(
    fans: Mapping[str, int], winner: int = 1, discarder: int | None = 2, **extra: Any
) -> dict[str, Any]:
    """A win entered by its fans (选番): fan id -> count."""
    return {
        "kind": "win",
        "mode": "quick",
        "winner": winner,
        "discarder": discarder,
        "fans": dict(fans),
        **extra,
    }


DRAW: Mapping[str, Any] = {"kind": "draw"}


def record(session: GameSession, entry: Mapping[str, Any] | None = None, **kw: Any) -> Round:
    """One round on ``session`` (a win by tiles unless ``entry`` says otherwise)."""
    return session.record_round(uuid.uuid4(), dict(entry or by_tiles()), **kw)


def play(session: GameSession, entries: Iterable[Mapping[str, Any]], **kw: Any) -> list[Round]:
    """Several rounds, in order."""
    return [record(session, entry, **kw) for entry in entries]


def event(session: GameSession, ev: Mapping[str, Any], **kw: Any) -> Any:
    """One event of a table that is recorded event by event (四川's kongs, wins ...)."""
    return session.add_event(uuid.uuid4(), dict(ev), **kw)


# ----------------------------------------------------------------------------- rooms


def make_room(slug: str = "laoli", name: str = "") -> Room:
    """A room of its own (not the default one), open with its preset configurations."""
    return Room.open(name or f"{slug} 棋牌室", slug)


def make_member(
    room: Room, username: str, role: str = RoomMember.OWNER, shown: str = ""
) -> RoomMember:
    """``username`` (made if new) as the room's owner or admin, shown as ``shown``."""
    user = User.objects.filter(username=username).first() or User.objects.create_user(
        username, password=PASSWORD
    )
    return RoomMember.objects.create(room=room, user=user, role=role, display_name=shown)


def signed_in(username: str, language: str | None = None) -> Client:
    """A phone signed in as ``username`` through the sign-in page itself."""
    client = phone(language)
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def member_client(
    room: Room, username: str, role: str = RoomMember.OWNER, shown: str = ""
) -> Client:
    """A phone signed in as a new member of ``room`` (the session made directly)."""
    client = phone()
    client.force_login(make_member(room, username, role, shown).user)
    return client


def phone(language: str | None = None) -> Client:
    """A phone (a test client with its own cookies), in ``language`` when given."""
    client = Client()
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client
