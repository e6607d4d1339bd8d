"""Every door free text comes in by, fed what no text may hold.

Each form and post that takes text (the start form, a table's QR start, both
renames, the close and reopen notes, an adjustment's reason, the room's tables,
its name, its configurations, an admin's name, an invitation) and each text field
of an imported file is sent, one at a time, a control character (NUL first), an
invisible format character (U+202E, U+200B, U+FEFF ...), another character that
shows as nothing (U+034F, U+FE0F out of an emoji, the Hangul fillers, the braille
blank ...) or a text one character over its kind's length (scorer/clean/text.py).  Whatever arrives: no 5xx, not one row
of the database changed (every row of every model read before and after), and
the refusal says why in the reader's language.

Each door is also sent a good text once, which it stores: a door that refused
everything for some other reason would make the refusals above prove nothing.

The NUL cases answered 500 on PostgreSQL before the cleaner (psycopg refuses a
NUL in a query); run this file with DATABASE_URL=postgres://... as well.
"""

from __future__ import annotations

import copy
import io
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from scorer.clean import text
from scorer.models import GameSession, Round
from scorer.models.invites import RoomInvite
from scorer.models.players import Player
from scorer.models.rooms import Room, RoomTable
from scorer.services.export import origin_of, table_json
from tests.factories import DRAW, PASSWORD, by_tiles, make_member, make_room, make_table, record
from tests.pages import text_of
from tests.support.snapshot import snapshot
from tests.support.start import form_data as start_form_data
from tests.support.state import form_data

pytestmark = pytest.mark.django_db


GOOD = "新名字"

# What no text of any kind may hold, and the word the refusal uses for it (zh-hans,
# the pages' first language).  Each sits inside a good text, not only alone: a name
# "甲\u200b" is the one that passes for "甲".
CONTROL = "控制字符"
FORMAT = "格式字符"
INVISIBLE = "看不见的字符"
TOO_LONG = "最多"
NASTY: list[tuple[str, str, str]] = [
    ("nul", "\x00", CONTROL),
    ("nul-inside", "王\x00王", CONTROL),
    ("soh", "\x01王", CONTROL),
    ("del", "王\x7f", CONTROL),
    ("tab", "王\t王", CONTROL),
    ("nel", "王\x85", CONTROL),
    ("rlo", "\u202e王", FORMAT),
    ("zwsp", "王\u200b", FORMAT),
    ("bom", "\ufeff王", FORMAT),
    ("lrm", "王\u200e", FORMAT),
    ("isolate", "\u2066王\u2069", FORMAT),
    # Shows as nothing without being a control or format character (scorer/clean/text.py):
    # the Default_Ignorable_Code_Point set, the Hangul fillers, the braille blank.
    ("cgj", "老\u034f王", INVISIBLE),
    ("vs16-not-after-an-emoji", "王\ufe0f", INVISIBLE),
    ("hangul-filler", "\u3164", INVISIBLE),
    ("halfwidth-hangul-filler", "王\uffa0", INVISIBLE),
    ("braille-blank", "老王\u2800", INVISIBLE),
    ("mongolian-fvs", "王\u180b", INVISIBLE),
    ("tag-letter", "王\U000e0041", FORMAT),  # a Cf, and default-ignorable
]


def anonymous() -> Client:
    return Client(raise_request_exception=False)


def with_session(key: str) -> Client:
    """A phone holding the signed-in session ``key`` (a fresh client: no cookie a
    previous case left, such as a message, reaches the next)."""
    client = anonymous()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


@dataclass
class World:
    """A room with an owner signed in, a fixed table, an open and a closed table, a
    played table and the file it exports."""

    room: Room
    boss: Client
    table: RoomTable
    open: GameSession
    closed: GameSession
    played: GameSession
    player: Player
    file: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Made:
    """What the module made once, by key: each case reads it afresh (its own objects)."""

    room: int
    table: int
    open: int
    closed: int
    played: int
    player: int
    invite: int
    boss_session: str
    helper_session: str
    file: dict[str, Any]


def exported(s: GameSession) -> dict[str, Any]:
    """A table with every kind of text an export carries: an adjustment's reason, an
    undone round (who undid it), a closed-and-reopened history (who, and the note)."""
    record(s, by_tiles(0, 1), author="老王")
    lines = [{"from": 1, "to": 0, "amount": 5}]
    record(s, {"kind": "adjust", "reason": "协商", "lines": lines}, author="小李")
    record(s, DRAW, author="阿强")
    s.undo_last(author="美玲")
    s.close(author="老王")
    s.reopen(author="小李", note="算错了")
    return table_json(s)


def _session_of(username: str) -> str:
    client = anonymous()
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture(scope="module")
def made(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[Made]:
    """The world, made once for the module's few hundred cases (each case runs in its
    own transaction, rolled back, and the refused ones must change nothing anyway),
    flushed at the module's end as pytest-django's ``transactional_db`` does."""
    with django_db_blocker.unblock():
        room = make_room("east")
        make_member(room, "boss", shown="老板")
        table = RoomTable.objects.create(room=room, number=1)
        open_table = make_table(room=room, seated=True)
        closed = make_table(room=room, seated=True)
        closed.close(author="老王")
        played = make_table(room=room, seated=True)
        file = exported(played)
        boss = User.objects.get(username="boss")
        User.objects.create_user("helper", password=PASSWORD)
        yield Made(
            room=room.pk,
            table=table.pk,
            open=open_table.pk,
            closed=closed.pk,
            played=played.pk,
            player=room.players.get(name="老王").pk,
            invite=RoomInvite.objects.create(room=room, created_by=boss).pk,
            boss_session=_session_of("boss"),
            helper_session=_session_of("helper"),
            file=file,
        )
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def w(made: Made) -> World:
    """The module's world, read afresh for one case."""
    return World(
        room=Room.objects.get(pk=made.room),
        boss=with_session(made.boss_session),
        table=RoomTable.objects.get(pk=made.table),
        open=GameSession.objects.get(pk=made.open),
        closed=GameSession.objects.get(pk=made.closed),
        played=GameSession.objects.get(pk=made.played),
        player=Player.objects.get(pk=made.player),
        file=copy.deepcopy(made.file),
        extra={
            "invite": RoomInvite.objects.get(pk=made.invite),
            "helper": with_session(made.helper_session),
        },
    )


@dataclass(frozen=True)
class Door:
    """One text input: who posts where, the rest of the form as a browser fills it."""

    kind: text.TextKind
    post: Callable[[World, str], Any]  # the response to posting this text in the field


def _start(w: World, value: str, field_name: str, at_table: bool) -> Any:
    config = w.room.offered_configs()[0]
    names = {f"name_{i}": n for i, n in enumerate(["甲", "乙", "丙", "丁"])}
    data = start_form_data(config, list(names.values()), **{field_name: value})
    if at_table:
        data["table"] = w.table.code
    return anonymous().post(reverse("scorer:room_create", args=[w.room.slug]), data)


def _reopen(w: World, value: str) -> Any:
    return anonymous().post(reverse("scorer:reopen", args=[w.closed.code]), {"note": value})


def _adjust(w: World, value: str) -> Any:
    data = {"token": str(uuid.uuid4()), "for_round": "1", "kind": "adjust", "reason": value,
            "from_0": "1", "to_0": "0", "amount_0": "30"}  # fmt: skip
    return anonymous().post(reverse("scorer:adjust", args=[w.open.code]), data)


def _admin_rename(w: World, value: str) -> Any:
    url = reverse("scorer:manage_player_rename", args=[w.room.slug, w.player.pk])
    return w.boss.post(url, {"name": value})


def _close_note(w: World, value: str) -> Any:
    url = reverse("scorer:manage_close", args=[w.room.slug, w.open.code])
    return w.boss.post(url, {"note": value})


def _add_table(w: World, value: str) -> Any:
    url = reverse("scorer:manage_tables", args=[w.room.slug])
    return w.boss.post(url, {"number": "7", "count": "1", "name": value})


def _edit_table(w: World, value: str) -> Any:
    url = reverse("scorer:manage_table", args=[w.room.slug, w.table.number])
    return w.boss.post(url, {"number": str(w.table.number), "name": value})


def _room_name(w: World, value: str) -> Any:
    return w.boss.post(reverse("scorer:manage_room_name", args=[w.room.slug]), {"name": value})


def _config_name(w: World, value: str) -> Any:
    config = w.room.configs.get(ruleset="mcr", preset="")
    url = reverse("scorer:manage_config", args=[w.room.slug, config.pk])
    data = form_data(w.boss.get(url).content.decode())
    return w.boss.post(url, {**data, "name": value})


def _new_config_name(w: World, value: str) -> Any:
    config = w.room.configs.get(ruleset="mcr", preset="")
    url = reverse("scorer:manage_config_new", args=[w.room.slug])
    return w.boss.post(url, {"source": f"config:{config.pk}", "name": value})


def _member_name(w: World, value: str) -> Any:
    url = reverse("scorer:manage_member_name", args=[w.room.slug])
    return w.boss.post(url, {"display_name": value})


def _invite_sign_up(w: World, value: str) -> Any:
    invite = w.extra["invite"]
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD,
            "display_name": value}  # fmt: skip
    return anonymous().post(reverse("scorer:invite", args=[invite.token]), data)


def _invite_signed_in(w: World, value: str) -> Any:
    url = reverse("scorer:invite", args=[w.extra["invite"].token])
    return w.extra["helper"].post(url, {"display_name": value})


DOORS: dict[str, Door] = {
    "start name_0": Door(text.PLAYER_NAME, lambda w, v: _start(w, v, "name_0", False)),
    "start name_3": Door(text.PLAYER_NAME, lambda w, v: _start(w, v, "name_3", False)),
    "table QR start name_1": Door(text.PLAYER_NAME, lambda w, v: _start(w, v, "name_1", True)),
    "admin rename": Door(text.PLAYER_NAME, _admin_rename),
    "reopen note": Door(text.NOTE, _reopen),
    "dashboard close note": Door(text.NOTE, _close_note),
    "adjustment reason": Door(text.REASON, _adjust),
    "new table name": Door(text.TABLE_NAME, _add_table),
    "table name": Door(text.TABLE_NAME, _edit_table),
    "room name": Door(text.ROOM_NAME, _room_name),
    "configuration name": Door(text.CONFIG_NAME, _config_name),
    "new configuration name": Door(text.CONFIG_NAME, _new_config_name),
    "admin's name": Door(text.MEMBER_NAME, _member_name),
    "invited admin's name (new account)": Door(text.MEMBER_NAME, _invite_sign_up),
    "invited admin's name (signed in)": Door(text.MEMBER_NAME, _invite_signed_in),
}


def follow(w: World, response: Any) -> str:
    """What the reader is shown: the page re-rendered, or the one redirected to."""
    assert response.status_code < 500, response.status_code
    if response.status_code in (301, 302):
        page = response.client.get(response["Location"])
        assert page.status_code < 500
        return text_of(page.content.decode())
    return text_of(response.content.decode())


def too_long(kind: text.TextKind) -> str:
    return "好" * (kind.max_length + 1)


CASES = [
    pytest.param(door, value, word, id=f"{door}-{label}")
    for door in DOORS
    for label, value, word in [*NASTY, ("too-long", None, TOO_LONG)]
]


@pytest.mark.parametrize(("door", "value", "word"), CASES)
def test_a_text_no_kind_may_hold_is_refused_and_nothing_is_stored(
    w: World, door: str, value: str | None, word: str
) -> None:
    spec = DOORS[door]
    before = snapshot()
    with override_settings(DEBUG=False):
        response = spec.post(w, too_long(spec.kind) if value is None else value)
        shown = follow(w, response)
    assert snapshot() == before
    assert word in shown, shown[:600]


@pytest.mark.parametrize("door", list(DOORS))
def test_each_door_stores_a_good_text(w: World, door: str) -> None:
    spec = DOORS[door]
    before = snapshot()
    # The longest text of its kind, with a line break where the kind has lines.
    good = GOOD + "好" * (spec.kind.max_length - len(GOOD))
    with override_settings(DEBUG=False):
        response = spec.post(w, good)
        follow(w, response)
    after = snapshot()
    assert after != before
    assert any(good in row for rows in after.values() for row in rows), door


# ----------------------------------------------------------------------------- an import


# Where each text of a file is: (path, the kind of text there, or None: any other
# text of the file, which no kind's length covers but no character refusal spares).
FILE_TEXTS: list[tuple[tuple[Any, ...], text.TextKind | None]] = [
    (("players", 0), text.PLAYER_NAME),
    (("players", 3), text.PLAYER_NAME),
    (("rounds", 0, "revisions", 0, "author"), text.AUTHOR),
    (("rounds", 1, "revisions", 0, "entry", "reason"), text.REASON),
    (("rounds", 2, "undone_by"), text.AUTHOR),
    (("rounds", 2, "changes", 0, "author"), text.AUTHOR),
    (("changes", 1, "author"), text.AUTHOR),
    (("changes", 1, "note"), text.NOTE),
    (("preset",), None),
    (("rounds", 0, "revisions", 0, "entry", "hand", "win_tile"), None),
    (("rounds", 0, "revisions", 0, "entry", "mode"), None),
]


def _at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def post_import(data: dict[str, Any]) -> Any:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "table.json"
    # The table is here already: a second copy, chosen (it would be imported).
    body = {"file": upload, "copy_of": origin_of(data)}
    return anonymous().post(reverse("scorer:import"), body)


IMPORT_CASES = [
    pytest.param(path, kind, value, word, id=f"{'.'.join(map(str, path))}-{label}")
    for path, kind in FILE_TEXTS
    for label, value, word in [*NASTY, *([("too-long", None, TOO_LONG)] if kind else [])]
]


@pytest.mark.parametrize(("path", "kind", "value", "word"), IMPORT_CASES)
def test_an_import_with_a_text_no_kind_may_hold_is_refused_whole(
    w: World, path: tuple[Any, ...], kind: text.TextKind | None, value: str | None, word: str
) -> None:
    data = w.file
    _at(data, path, too_long(kind) if value is None and kind else value)
    before = snapshot()
    with override_settings(DEBUG=False):
        response = post_import(data)
        shown = follow(w, response)
    assert snapshot() == before
    assert word in shown, shown[:600]


def test_a_key_of_the_file_is_text_too(w: World) -> None:
    data = w.file
    data["rounds"][0]["revisions"][0]["entry"]["\x00"] = 1
    before = snapshot()
    with override_settings(DEBUG=False):
        shown = follow(w, post_import(data))
    assert snapshot() == before
    assert CONTROL in shown


def test_the_exported_file_itself_is_imported(w: World) -> None:
    """The control: the same file, unchanged, makes a second copy of the table."""
    data = w.file
    _at(data, ("players", 0), "王" * text.PLAYER_NAME.max_length)
    _at(data, ("changes", 1, "note"), "第一行\n第二行")  # a note may hold lines
    before = GameSession.objects.count()
    with override_settings(DEBUG=False):
        response = post_import(data)
    assert response.status_code == 302
    assert GameSession.objects.count() == before + 1
    copy_ = GameSession.objects.latest("pk")
    assert copy_.players[0] == "王" * text.PLAYER_NAME.max_length
    assert copy_.changes.filter(note="第一行\n第二行").exists()
    assert copy_.tallies() == w.played.tallies()
    assert Round.objects.filter(session=copy_).count() == 3


# ----------------------------------------------------------------------- what is only read


@pytest.mark.parametrize("slug", ["%00", "a%00b", "%E2%80%AE", "x" * 40])
def test_a_players_page_that_cannot_be_one_is_a_404(slug: str) -> None:
    with override_settings(DEBUG=False):
        assert anonymous().get(f"/p/{slug}/").status_code == 404
        assert anonymous().post(f"/p/{slug}/rename", {"name": "甲"}).status_code == 404


@pytest.mark.parametrize(("label", "value", "word"), NASTY)
def test_the_players_search_finds_nothing_in_what_no_name_holds(
    w: World, label: str, value: str, word: str
) -> None:
    with override_settings(DEBUG=False):
        response = w.boss.get(reverse("scorer:manage_players", args=[w.room.slug]), {"q": value})
    assert response.status_code == 200
    assert word in text_of(response.content.decode())


@pytest.mark.parametrize(("label", "value", "word"), NASTY)
def test_signing_in_as_what_no_name_holds_is_refused(
    w: World, label: str, value: str, word: str
) -> None:
    users = User.objects.count()
    with override_settings(DEBUG=False):
        response = anonymous().post("/accounts/login/", {"username": value, "password": PASSWORD})
    assert response.status_code == 200  # the form again, signed in as nobody
    assert "_auth_user_id" not in response.client.session
    assert User.objects.count() == users
