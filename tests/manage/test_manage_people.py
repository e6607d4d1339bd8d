"""A room's players (rename; merge two names that are one person) and its admins
(the owner invites one with a one-time link)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorer.models.invites import RoomInvite
from scorer.models.players import Player, Seat, recent_names
from scorer.models.rooms import Room, RoomMember
from tests.factories import PASSWORD, make_member, make_room, make_table, member_client, signed_in
from tests.pages import html, text, text_of

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ players


def test_rename_keeps_the_record(boss: Client, room: Room) -> None:
    make_table(room=room, seated=True)
    wang = room.players.get(name="老王")
    response = boss.post(
        reverse("scorer:manage_player_rename", args=[room.slug, wang.pk]), {"name": "王哥"}
    )
    assert response.status_code == 302
    wang.refresh_from_db()
    assert wang.name == "王哥" and wang.seats.count() == 1
    # A name another player has: refused, nothing changed, merging suggested.
    response = boss.post(
        reverse("scorer:manage_player_rename", args=[room.slug, wang.pk]),
        {"name": "小李"},
        follow=True,
    )
    assert "合并" in text(response)
    wang.refresh_from_db()
    assert wang.name == "王哥"


def merge(boss: Client, room: Room, gone: Player, keep: Player) -> Any:
    """The owner merges `gone` into `keep`, confirmed; the page it lands on."""
    return boss.post(
        reverse("scorer:manage_players_merge", args=[room.slug]),
        {"gone": gone.pk, "keep": keep.pk, "confirm": "yes"},
        follow=True,
    )


def test_merge_moves_the_seats_and_the_name_goes(boss: Client, room: Room) -> None:
    make_table(room=room, seated=True)
    make_table("mcr", ["王哥", "小李", "阿强", "美玲"], room=room, seated=True)
    gone, keep = room.players.get(name="王哥"), room.players.get(name="老王")
    response = merge(boss, room, gone, keep)
    assert "王哥 已合并到 老王" in text(response)
    assert not Player.objects.filter(pk=gone.pk).exists()
    assert keep.seats.count() == 2
    assert "王哥" not in recent_names(room.pk)


def test_two_names_at_one_table_are_two_people(boss: Client, room: Room) -> None:
    make_table("mcr", ["老王", "王哥", "阿强", "美玲"], room=room, seated=True)
    gone, keep = room.players.get(name="王哥"), room.players.get(name="老王")
    response = merge(boss, room, gone, keep)
    assert "是两个人" in text(response)
    assert Player.objects.filter(pk=gone.pk).exists()
    assert Seat.objects.filter(player=gone).count() == 1


def test_another_rooms_player_cannot_be_merged_in(boss: Client, room: Room) -> None:
    other = make_room("west")
    make_table(room=room, seated=True)
    make_table("mcr", ["王哥", "小李", "阿强", "美玲"], room=other, seated=True)
    theirs, mine = other.players.get(name="王哥"), room.players.get(name="老王")
    response = boss.post(
        reverse("scorer:manage_players_merge", args=[room.slug]),
        {"gone": theirs.pk, "keep": mine.pk},
    )
    assert response.status_code == 302  # refused by the form: not one of the choices
    assert Player.objects.filter(pk=theirs.pk).exists() and mine.seats.count() == 1


def test_the_list_is_the_rooms_players_only(boss: Client, room: Room) -> None:
    make_table(room=room, seated=True)
    make_table("mcr", ["外人甲", "外人乙", "外人丙", "外人丁"], room=make_room("west"), seated=True)
    words = text(boss.get(reverse("scorer:manage_players", args=[room.slug])))
    assert "老王" in words and "外人" not in words
    found = boss.get(reverse("scorer:manage_players", args=[room.slug]), {"q": "王"})
    rows = re.findall(r'id="player-(\d+)"', html(found))
    assert rows == [str(room.players.get(name="老王").pk)]


# ------------------------------------------------------------------ admins and invitations


def invite_link(boss: Client, room: Room) -> str:
    boss.post(reverse("scorer:manage_invite", args=[room.slug]))
    invite = RoomInvite.objects.get(room=room, used_at__isnull=True)
    page = html(boss.get(reverse("scorer:manage_members", args=[room.slug])))
    path = reverse("scorer:invite", args=[invite.token])
    assert path in page  # the owner sees the link to send
    return path


def test_an_invited_person_makes_an_account_and_becomes_an_admin(boss: Client, room: Room) -> None:
    path = invite_link(boss, room)
    newcomer = Client()
    page = newcomer.get(path)
    assert page.status_code == 200 and room.name in text(page)
    data = {"username": "xiaozhang", "password1": PASSWORD, "password2": PASSWORD,
            "display_name": "小张"}  # fmt: skip
    response = newcomer.post(path, data)
    assert response.status_code == 302
    joined = RoomMember.objects.get(room=room, user__username="xiaozhang")
    assert joined.role == RoomMember.ADMIN and joined.shown_name == "小张"
    # Signed in: the room's pages open.
    assert newcomer.get(reverse("scorer:manage_configs", args=[room.slug])).status_code == 200
    # The link is used up: it says so to the next one, and changes nothing.
    again = Client().get(path)
    assert again.status_code == 410 and "已经被使用" in text(again)
    late = Client().post(path, {**data, "username": "late"})
    assert late.status_code == 410 and not User.objects.filter(username="late").exists()


def test_a_signed_in_user_joins_with_the_link(boss: Client, room: Room) -> None:
    other = make_room("west")
    make_member(other, "li")  # owner elsewhere
    path = invite_link(boss, room)
    li = signed_in("li")
    response = li.post(path, {"display_name": "李老板"})
    assert response.status_code == 302
    assert RoomMember.objects.get(room=room, user__username="li").role == RoomMember.ADMIN
    # Two rooms now: after signing in he chooses.
    rooms = li.get(reverse("scorer:my_rooms"))
    assert rooms.status_code == 200
    assert room.name in text(rooms) and other.name in text(rooms)


def test_a_member_cannot_use_a_link_and_leaves_it_for_someone_else(
    boss: Client, room: Room
) -> None:
    path = invite_link(boss, room)
    response = boss.post(path, {"display_name": "老板"})
    assert response.status_code == 409
    assert RoomInvite.objects.get(room=room).pending


def test_an_expired_link_says_so(boss: Client, room: Room) -> None:
    path = invite_link(boss, room)
    RoomInvite.objects.filter(room=room).update(expires_at=timezone.now() - timedelta(minutes=1))
    response = Client().get(path)
    assert response.status_code == 410 and "已过期" in text(response)


def test_only_the_owner_invites_and_removes(boss: Client, room: Room) -> None:
    clerk_member = make_member(room, "clerk", RoomMember.ADMIN)
    clerk = signed_in("clerk")
    assert clerk.post(reverse("scorer:manage_invite", args=[room.slug])).status_code == 404
    assert not RoomInvite.objects.exists()
    page = html(clerk.get(reverse("scorer:manage_members", args=[room.slug])))
    assert "manage/members/invite" not in page
    # The owner withdraws a pending link and removes an admin.
    path = invite_link(boss, room)
    invite = RoomInvite.objects.get()
    boss.post(reverse("scorer:manage_invite_withdraw", args=[room.slug, invite.pk]))
    assert Client().get(path).status_code == 404
    boss.post(
        reverse("scorer:manage_member_remove", args=[room.slug, clerk_member.pk]),
        {"confirm": "yes"},  # the second tap (tests/manage/test_room_log.py: the first)
    )
    # The app's own page says so, not the 404 of a wrong link.
    response = clerk.get(reverse("scorer:manage_configs", args=[room.slug]))
    assert response.status_code == 403
    assert f"你已不再是 {room.name} 的管理员" in text(response)


def test_an_admin_sets_the_name_the_history_shows(boss: Client, room: Room) -> None:
    boss.post(reverse("scorer:manage_member_name", args=[room.slug]), {"display_name": "王老板"})
    assert RoomMember.objects.get(user__username="boss").shown_name == "王老板"


def test_the_owner_renames_the_room_and_nothing_else_changes() -> None:
    room = make_room("east")
    owner = member_client(room, "boss")
    admin = member_client(room, "helper", RoomMember.ADMIN)
    url = reverse("scorer:manage_room_name", args=[room.slug])
    assert admin.post(url, {"name": "别人的名字"}).status_code == 404  # the owner's alone
    assert owner.post(url, {"name": "   "}).status_code == 302
    room.refresh_from_db()
    assert room.name != "" and room.name != "别人的名字"
    owner.post(url, {"name": "幸福棋牌室"})
    room.refresh_from_db()
    assert room.name == "幸福棋牌室" and room.slug == "east"
    page = html(owner.get(reverse("scorer:manage_members", args=["east"])))
    assert "幸福棋牌室" in text_of(page)
