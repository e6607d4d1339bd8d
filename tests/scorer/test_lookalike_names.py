"""A new name that looks like a room player's without being it (scorer/clean/lookalike.py:
Cyrillic "о" for Latin "o", "Ｂｏｂ" typed full-width for "Bob") is asked about before
it is kept: "looks like Bob: same person?" on the admin's rename and on the start
form; an import, where nobody is there to answer, is refused naming the field."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError
from scorer.models import GameSession
from scorer.models.players import Player, PlayerAlias
from scorer.models.rooms import Room
from scorer.services.export import import_table, origin_of, table_json
from tests.factories import make_room, make_table
from tests.pages import html, text, text_of
from tests.support.snapshot import snapshot
from tests.support.start import form_data

pytestmark = pytest.mark.django_db

BOB = "Bob"
CYRILLIC_BOB = "B\u043eb"  # о: CYRILLIC SMALL LETTER O
WIDE_BOB = "\uff22\uff4f\uff42"  # Ｂｏｂ


@pytest.fixture
def bob(room: Room) -> Player:
    make_table("mcr", [BOB, "小李", "阿强", "美玲"], room=room, seated=True)
    return room.players.get(name=BOB)


# ------------------------------------------------------------------ the admin's rename


def _rename(client: Client, room: Room, player: Player, name: str, **extra: str) -> Any:
    url = reverse("scorer:manage_player_rename", args=[room.slug, player.pk])
    return client.post(url, {"name": name, **extra})


@pytest.mark.parametrize("name", [CYRILLIC_BOB, WIDE_BOB])
def test_a_rename_to_a_look_alike_asks_first_and_changes_nothing(
    boss: Client, room: Room, bob: Player, name: str
) -> None:
    li = room.players.get(name="小李")
    before = snapshot()
    response = _rename(boss, room, li, name)
    assert response.status_code == 200
    shown = text(response)
    assert f"“{name}” 看起来和 {BOB} 一样：是同一个人吗？" in shown
    assert f"是同一个人：把 小李 合并到 {BOB}" in shown
    assert f"是另一个人：把 小李 改名为 “{name}”" in shown
    assert snapshot() == before


def test_the_question_is_said_in_english_too(bob: Player, room: Room, boss: Client) -> None:
    li = room.players.get(name="小李")
    boss.cookies["django_language"] = "en"
    shown = text(_rename(boss, room, li, CYRILLIC_BOB))
    assert f"“{CYRILLIC_BOB}” looks like {BOB}: same person?" in shown
    assert f"Same person: merge 小李 into {BOB}" in shown


def test_the_start_forms_question_is_said_in_english_too(
    client: Client, room: Room, bob: Player
) -> None:
    client.cookies["django_language"] = "en"
    shown = text(_start(client, room, ["老王", CYRILLIC_BOB, "丙", "丁"]))
    assert f"“{CYRILLIC_BOB}” looks like {BOB}, a player of this room: same person?" in shown
    assert f"Someone else: a new player “{CYRILLIC_BOB}”" in shown


def test_someone_else_keeps_the_new_name(boss: Client, room: Room, bob: Player) -> None:
    li = room.players.get(name="小李")
    response = _rename(boss, room, li, CYRILLIC_BOB, confirm=CYRILLIC_BOB)
    assert response.status_code == 302
    li.refresh_from_db()
    assert li.name == CYRILLIC_BOB
    assert li.seats.count() == 1 and bob.seats.count() == 1  # two players still


def test_an_answer_counts_for_the_name_it_was_given_for(
    boss: Client, room: Room, bob: Player
) -> None:
    li = room.players.get(name="小李")
    response = _rename(boss, room, li, WIDE_BOB, confirm=CYRILLIC_BOB)
    assert response.status_code == 200 and "是同一个人吗" in text(response)
    li.refresh_from_db()
    assert li.name == "小李"


def test_same_person_leads_to_the_merge_and_its_second_tap(
    boss: Client, room: Room, bob: Player
) -> None:
    li = room.players.get(name="小李")
    page = html(_rename(boss, room, li, CYRILLIC_BOB))
    merge_url = reverse("scorer:manage_players_merge", args=[room.slug])
    assert f'action="{merge_url}"' in page
    assert f'name="gone" value="{li.pk}"' in page and f'name="keep" value="{bob.pk}"' in page
    # What that form posts: the merge's own question (nothing merged yet) ...
    asked = boss.post(merge_url, {"gone": li.pk, "keep": bob.pk})
    assert "合并" in text(asked)
    assert Player.objects.filter(pk=li.pk).exists()


def test_a_name_like_his_own_old_one_is_not_asked(boss: Client, room: Room, bob: Player) -> None:
    # Bob renamed himself away and back: his own names are no one else's.
    response = _rename(boss, room, bob, "Bobby")
    assert response.status_code == 302
    response = _rename(boss, room, bob, CYRILLIC_BOB)
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.name == CYRILLIC_BOB
    assert PlayerAlias.objects.filter(player=bob, name=BOB).exists()


def test_a_look_alike_of_an_old_name_is_asked_about(boss: Client, room: Room, bob: Player) -> None:
    _rename(boss, room, bob, "Robert")
    li = room.players.get(name="小李")
    response = _rename(boss, room, li, WIDE_BOB)
    assert response.status_code == 200
    assert "看起来和 Robert 一样" in text(response)


# ----------------------------------------------------------------- the start form


def _start(client: Client, room: Room, names: list[str], **extra: str) -> Any:
    config = room.offered_configs()[0]
    return client.post(
        reverse("scorer:room_create", args=[room.slug]), form_data(config, names, **extra)
    )


@pytest.mark.parametrize("name", [CYRILLIC_BOB, WIDE_BOB])
def test_the_start_form_asks_about_a_look_alike_and_starts_nothing(
    client: Client, room: Room, bob: Player, name: str
) -> None:
    before = snapshot()
    response = _start(client, room, ["老王", name, "丙", "丁"])
    assert response.status_code == 400
    page = html(response)
    assert f"“{name}” 看起来和本室的玩家 {BOB} 一样：是同一个人吗？" in text_of(page)
    assert f'name="same_1" value="same:{BOB}"' in page
    assert f'name="same_1" value="new:{name}"' in page
    assert f"是同一个人：让 {BOB} 入座" in text_of(page)
    assert snapshot() == before


def test_same_person_seats_the_player_already_here(client: Client, room: Room, bob: Player) -> None:
    response = _start(client, room, ["老王", CYRILLIC_BOB, "丙", "丁"], same_1=f"same:{BOB}")
    assert response.status_code == 302
    session = GameSession.objects.latest("pk")
    assert session.players[1] == BOB
    assert session.seats.get(seat=1).player == bob
    assert not Player.objects.filter(room=room, name=CYRILLIC_BOB).exists()


def test_someone_else_is_a_new_player(client: Client, room: Room, bob: Player) -> None:
    response = _start(
        client, room, ["老王", CYRILLIC_BOB, "丙", "丁"], same_1=f"new:{CYRILLIC_BOB}"
    )
    assert response.status_code == 302
    session = GameSession.objects.latest("pk")
    assert session.players[1] == CYRILLIC_BOB
    assert session.seats.get(seat=1).player != bob
    assert Player.objects.filter(room=room, name=CYRILLIC_BOB).exists()


def test_an_answer_for_another_name_is_asked_again(client: Client, room: Room, bob: Player) -> None:
    response = _start(client, room, ["老王", WIDE_BOB, "丙", "丁"], same_1=f"new:{CYRILLIC_BOB}")
    assert response.status_code == 400
    assert "是同一个人吗" in text(response)


def test_same_person_twice_at_one_table_is_two_players_called_alike(
    client: Client, room: Room, bob: Player
) -> None:
    response = _start(client, room, [BOB, CYRILLIC_BOB, "丙", "丁"], same_1=f"same:{BOB}")
    assert response.status_code == 400
    assert f"有两位玩家都叫 {BOB}" in text(response)


def test_two_names_alike_at_one_table_clash_like_two_equal_ones(client: Client, room: Room) -> None:
    before = snapshot()
    response = _start(client, room, ["老王", "Ann", "\u0410nn", "丁"])  # Cyrillic А
    assert response.status_code == 400
    page = html(response)
    assert "有两位玩家都叫 Ann" in text_of(page) and "有两位玩家都叫 \u0410nn" in text_of(page)
    assert snapshot() == before


def test_a_name_typed_exactly_is_that_player_no_question(
    client: Client, room: Room, bob: Player
) -> None:
    response = _start(client, room, ["老王", BOB, "丙", "丁"])
    assert response.status_code == 302
    assert GameSession.objects.latest("pk").seats.get(seat=1).player == bob


def test_another_rooms_player_is_no_look_alike(client: Client, room: Room) -> None:
    other = make_room("west")
    make_table("mcr", [BOB, "小李", "阿强", "美玲"], room=other, seated=True)
    response = _start(client, room, ["老王", CYRILLIC_BOB, "丙", "丁"])
    assert response.status_code == 302


# ---------------------------------------------------------------------- an import


def _file(room: Room, names: list[str]) -> dict[str, Any]:
    return table_json(make_table("mcr", names, room=room))


def _post_file(client: Client, room: Room, data: dict[str, Any]) -> Any:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "table.json"
    url = reverse("scorer:room_import", args=[room.slug])
    return client.post(url, {"file": upload, "copy_of": origin_of(data)}, follow=True)


@pytest.mark.parametrize("name", [CYRILLIC_BOB, WIDE_BOB])
def test_an_import_naming_a_look_alike_is_refused_naming_the_field(
    client: Client, room: Room, bob: Player, name: str
) -> None:
    data = _file(room, ["老王", "小李", name, "美玲"])
    before = snapshot()
    response = _post_file(client, room, data)
    assert response.status_code == 200
    assert f"players[2]：“{name}” 看起来和本室的玩家 {BOB} 一样" in text(response)
    assert snapshot() == before


def test_the_import_refusal_is_said_in_english_too(room: Room, bob: Player) -> None:
    data = _file(room, ["老王", "小李", CYRILLIC_BOB, "美玲"])
    with pytest.raises(RuleError) as refused:
        import_table(data, copy_of=origin_of(data), room=room)
    assert refused.value.message.startswith(
        f"players[2]: “{CYRILLIC_BOB}” looks like {BOB}, a player of this room"
    )


def test_an_import_with_the_rooms_own_names_is_taken(
    client: Client, room: Room, bob: Player
) -> None:
    data = _file(room, ["老王", "小李", BOB, "美玲"])
    before = GameSession.objects.count()
    response = _post_file(client, room, data)
    assert response.status_code == 200
    assert GameSession.objects.count() == before + 1
