"""Signing in on the app's own pages (Django's auth, throttled by django-axes), where a
user goes next, signing out; `make admin`'s command."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from scorer.models.rooms import Room, RoomMember, default_room
from tests.factories import PASSWORD, make_member, make_room, signed_in
from tests.pages import text, text_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_the_sign_in_page_is_the_apps_own_in_chinese(client: Client) -> None:
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<html lang="zh-hans">' in html and "site.css" in html
    assert "登录" in text_of(html) and "django-admin" not in html.lower()


def test_one_room_goes_to_its_pages_several_to_the_list() -> None:
    east = make_room("east")
    make_member(east, "boss")
    response = Client().post(
        "/accounts/login/", {"username": "boss", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("scorer:manage", args=["east"])
    make_member(make_room("west"), "boss")
    response = Client().post(
        "/accounts/login/", {"username": "boss", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("scorer:my_rooms")
    assert "east 棋牌室" in text(response)


def test_a_room_page_asks_to_sign_in_first_then_comes_back() -> None:
    east = make_room("east")
    make_member(east, "boss")
    page = reverse("scorer:manage_players", args=["east"])
    client = Client()
    response = client.get(page)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={page}"
    back = client.post("/accounts/login/", {"username": "boss", "password": PASSWORD, "next": page})
    assert back["Location"] == page


def test_sign_out_is_a_post() -> None:
    make_member(make_room("east"), "boss")
    client = signed_in("boss")
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get(reverse("scorer:manage_configs", args=["east"])).status_code == 302


def test_failed_sign_ins_lock_the_account_in_the_readers_language() -> None:
    make_member(make_room("east"), "boss")
    client = Client()
    for _ in range(5):
        wrong = client.post("/accounts/login/", {"username": "boss", "password": "wrong"})
        assert wrong.status_code in (200, 429)  # the form again, with its error
    locked = client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    assert locked.status_code == 429
    assert "锁定一小时" in text(locked)


# ------------------------------------------------------------------ make admin


def test_room_owner_makes_the_first_account_owner_of_the_default_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MAHJONG_ADMIN_PASSWORD", PASSWORD)
    call_command("room_owner", "--username", "boss", "--superuser", "--noinput", stdout=StringIO())
    user = User.objects.get(username="boss")
    assert user.is_superuser and user.check_password(PASSWORD)
    room = default_room()
    assert RoomMember.objects.get(user=user, room=room).role == RoomMember.OWNER
    # Run again: nothing more, the password kept.
    call_command("room_owner", "--username", "boss", "--noinput", stdout=StringIO())
    assert RoomMember.objects.filter(user=user).count() == 1
    # Signs in on the app's page and lands on the default room's pages.
    response = Client().post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302


def test_room_owner_opens_a_new_room_for_the_sites_staff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_ADMIN_PASSWORD", PASSWORD)
    with pytest.raises(CommandError, match="room-name"):
        call_command("room_owner", "--username", "li", "--room", "north", "--noinput")
    assert not User.objects.filter(username="li").exists()
    call_command("room_owner", "--username", "li", "--room", "north", "--room-name", "北门棋牌室",
                 "--noinput", stdout=StringIO())  # fmt: skip
    room = Room.objects.get(slug="north")
    assert room.name == "北门棋牌室" and room.configs.exists()
    assert RoomMember.objects.get(room=room, user__username="li").is_owner
    assert not User.objects.get(username="li").is_superuser


def test_manage_py_without_a_key_says_what_to_do_without_a_traceback() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    done = subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--help"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr and "make admin" in done.stderr
    assert "Traceback" not in done.stderr
