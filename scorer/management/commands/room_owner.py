"""``manage.py room_owner``: an account that owns a room (``make admin`` runs it).

On the default install it makes the first account: the owner of the default room
(the one `/` serves), and a superuser of the site (Django's admin at /admin/, for
the site's staff), asking for the name and password.  On a site serving many
rooms the site's staff make each room's owner with it (``--room slug --room-name
"…"`` opens the room when it does not exist yet); the owner then invites the
room's admins from the room's pages.  An existing account is made the owner and
keeps its password.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from scorer.clean.text import MEMBER_NAME, ROOM_NAME, TextKind, TextRefused, clean_text
from scorer.models.rooms import Room, RoomMember, default_room

PASSWORD_VARIABLE = "MAHJONG_ADMIN_PASSWORD"


class Command(BaseCommand):
    help = (
        "Make an account the owner of a room (the default room unless --room); asks for a password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", help="the account's name (asked if not given)")
        parser.add_argument(
            "--room", help="the room's short name (slug); default: the default room"
        )
        parser.add_argument("--room-name", help="the room's name, when --room opens a new one")
        parser.add_argument("--display-name", default="", help='what the room calls him ("老板")')
        parser.add_argument(
            "--superuser", action="store_true", help="also the site's staff (Django's admin)"
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help=f"ask nothing: --username is needed, the password comes from ${PASSWORD_VARIABLE}",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interactive = options["interactive"]
        # The names come in by hand, like a form's: the same cleaner (scorer/clean/text.py).
        options["room_name"] = _cleaned(ROOM_NAME, options["room_name"], "--room-name")
        options["display_name"] = _cleaned(MEMBER_NAME, options["display_name"], "--display-name")
        username = options["username"] or (input("Username: ").strip() if interactive else "")
        if not username:
            raise CommandError("A username is needed (--username).")
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        password = None
        if user is None:
            password = self._password(User(username=username), interactive)
        with transaction.atomic():
            room = self._room(options["room"], options["room_name"])
            if user is None:
                user = User.objects.create_user(username=username, password=password)
            if options["superuser"] and not user.is_superuser:
                user.is_staff = user.is_superuser = True
                user.save(update_fields=["is_staff", "is_superuser"])
            member, made = RoomMember.objects.get_or_create(
                room=room,
                user=user,
                defaults={"role": RoomMember.OWNER, "display_name": options["display_name"]},
            )
            if not made and member.role != RoomMember.OWNER:
                member.role = RoomMember.OWNER
                member.save(update_fields=["role"])
        self.stdout.write(
            self.style.SUCCESS(
                f"{username} owns the room {room.name!r}: sign in at /accounts/login/ "
                f"(its pages: /r/{room.slug}/manage/)."
            )
        )

    def _room(self, slug: str | None, name: str | None) -> Room:
        if not slug:
            return default_room()
        room = Room.objects.filter(slug=slug).first()
        if room is None:
            if not name:
                raise CommandError(f"There is no room {slug!r}: give --room-name to open it.")
            room = Room.open(name, slug)
            self.stdout.write(f"Opened the room {name!r} at /r/{slug}/.")
        return room

    def _password(self, user: Any, interactive: bool) -> str:
        if not interactive:
            password = os.environ.get(PASSWORD_VARIABLE, "")
            if not password:
                raise CommandError(f"Set ${PASSWORD_VARIABLE} for a new account with --noinput.")
            return password
        while True:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("The two passwords differ; again.")
                continue
            try:
                validate_password(password, user)
            except ValidationError as e:
                self.stderr.write(" ".join(e.messages))
                continue
            return password


def _cleaned(kind: TextKind, raw: str | None, option: str) -> str | None:
    if raw is None:
        return None
    try:
        return clean_text(kind, raw)
    except TextRefused as e:
        raise CommandError(f"{option}: {e.message}") from None
