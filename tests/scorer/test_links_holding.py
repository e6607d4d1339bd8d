"""What "holding a table" is.  A phone holds every table it has opened by its link (its
start, its import, its result page): past the 30 its home page lists, after hiding
one, after an admin signs out on it.  A player's page links exactly those; and
nobody renames a player of the room's registry but its admins."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.players import Player
from scorer.models.rooms import Room
from scorer.services import phone
from tests.factories import PASSWORD, make_member, make_room, make_table, member_client

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def table(room: Room, names: list[str]) -> GameSession:
    return make_table("mcr", names, room=room, seated=True)


def linked(client: Client, player: Player) -> set[str]:
    """The tables a player's page links, by code."""
    page = client.get(reverse("scorer:player", args=[player.slug])).content.decode()
    codes = set(GameSession.objects.values_list("code", flat=True))
    return {c for c in codes if reverse("scorer:session", args=[c]) in page}


def test_nobody_renames_a_player_by_his_page(room: Room, boss: Client) -> None:
    s = table(room, ["老王", "小李", "阿强", "美玲"])
    wang = room.players.get(name="老王")
    for client in (Client(), Client()):
        client.get(reverse("scorer:session", args=[s.code]))  # at his table, even
        answer = client.post(f"/p/{wang.slug}/rename", {"name": "=HYPERLINK(1)"})
        assert answer.status_code == 404
        page = client.get(reverse("scorer:player", args=[wang.slug])).content.decode()
        assert 'name="name"' not in page and "/rename" not in page
    wang.refresh_from_db()
    assert wang.name == "老王"
    # The room's admins do, on the room's players page (the player page says where).
    page = boss.get(reverse("scorer:player", args=[wang.slug])).content.decode()
    assert reverse("scorer:manage_players", args=[room.slug]) in page
    boss.post(reverse("scorer:manage_player_rename", args=[room.slug, wang.pk]), {"name": "王哥"})
    wang.refresh_from_db()
    assert wang.name == "王哥"


def test_a_phone_holds_every_table_it_opened_past_its_list_of_30(room: Room) -> None:
    tables = [table(room, ["老王", f"客{i}", "阿强", "美玲"]) for i in range(phone.TABLES_MAX + 5)]
    never = table(room, ["老王", "小李", "丙", "丁"])
    client = Client()
    for s in tables:
        client.get(reverse("scorer:session", args=[s.code]))
    home = client.get(reverse("scorer:room", args=[room.slug])).content.decode()
    listed = [s for s in tables if reverse("scorer:session", args=[s.code]) in home]
    assert len(listed) == phone.TABLES_MAX  # the list shows the latest 30
    wang = room.players.get(name="老王")
    assert linked(client, wang) == {s.code for s in tables}  # all 35 held, not `never`
    page = html.unescape(
        client.get(reverse("scorer:player", args=[wang.slug]), **EN).content.decode()
    )
    assert "1 more table, not opened on this phone" in page and never.code not in page


def test_a_hidden_table_stays_held_and_a_result_page_holds(room: Room) -> None:
    a, b = table(room, ["老王", "小李", "阿强", "美玲"]), table(room, ["老王", "丙", "丁", "戊"])
    client = Client()
    client.get(reverse("scorer:session", args=[a.code]))
    client.post(reverse("scorer:hide_table", args=[a.code]))
    client.get(reverse("scorer:room", args=[room.slug]))  # (the offer to show it back, gone)
    wang = room.players.get(name="老王")
    assert linked(client, wang) == {a.code}
    client.get(reverse("scorer:final", args=[b.code]))  # a result page shared by its link
    assert linked(client, wang) == {a.code, b.code}


def test_signing_out_keeps_the_phones_tables_and_drops_the_rooms(room: Room) -> None:
    a, b = table(room, ["老王", "小李", "阿强", "美玲"]), table(room, ["老王", "丙", "丁", "戊"])
    make_member(room, "boss")
    client = Client()
    client.get(reverse("scorer:session", args=[a.code]))  # before signing in
    client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    wang = room.players.get(name="老王")
    assert linked(client, wang) == {a.code, b.code}  # an admin holds the room's tables
    assert client.post(reverse("scorer:logout")).status_code == 302
    assert client.get(reverse("scorer:manage", args=[room.slug])).status_code == 302
    assert linked(client, wang) == {a.code}  # the phone's own, kept
    home = client.get(reverse("scorer:room", args=[room.slug])).content.decode()
    assert reverse("scorer:session", args=[a.code]) in home


def test_a_player_page_of_another_room_links_nothing_of_it(room: Room) -> None:
    west = make_room("west")
    a = table(room, ["老王", "小李", "阿强", "美玲"])
    w = table(west, ["老王", "小李", "阿强", "美玲"])
    boss = member_client(west, "west-boss")
    boss.get(reverse("scorer:session", args=[w.code]))
    assert linked(boss, room.players.get(name="老王")) == set()  # west's admin: none of east's
    assert linked(boss, west.players.get(name="老王")) == {w.code}
    assert a.code not in boss.get(reverse("scorer:room", args=[room.slug])).content.decode()
