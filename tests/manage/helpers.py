"""Rooms, their owners and admins, signed in, for the room admin pages' tests."""

from __future__ import annotations

import html as htmllib
import re

from django.contrib.auth.models import User
from django.test import Client

from scorer.rooms import Room, RoomMember

PASSWORD = "a long room password 麻将"


def open_room(slug: str, name: str = "") -> Room:
    return Room.open(name or f"{slug} 棋牌室", slug)


def member(room: Room, username: str, role: str = RoomMember.OWNER, shown: str = "") -> RoomMember:
    user = User.objects.filter(username=username).first() or User.objects.create_user(
        username, password=PASSWORD
    )
    return RoomMember.objects.create(room=room, user=user, role=role, display_name=shown)


def signed_in(username: str) -> Client:
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def text_of(page: str) -> str:
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", page)).split())
