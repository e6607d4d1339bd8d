"""``manage.py open_room <slug> <name> [--owner USERNAME]``: a new room on this site.

The site's staff open rooms (a room cannot sign itself up: the deployment's owner
decides who is hosted).  The room starts with a configuration copied from every
code preset, and its owner, if named, is an existing account that then signs in
and invites the room's admins from the room's own pages.  Idempotent on the slug:
run again, it changes nothing and says so.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_slug
from django.db import transaction

from scorer.rooms import Room, RoomMember


class Command(BaseCommand):
    help = "Open a room (棋牌室): its address /r/<slug>/, its name, optionally its owner."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the room's short name in its address, e.g. xingfu")
        parser.add_argument("name", help="the room's name, e.g. 幸福棋牌室")
        parser.add_argument("--owner", help="an existing account's user name: the room's owner")

    def handle(self, *args: Any, **options: Any) -> None:
        slug, name = options["slug"], options["name"]
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(f"{slug!r}: letters, digits, - and _ only") from None
        owner = None
        if options["owner"]:
            try:
                owner = get_user_model().objects.get(username=options["owner"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"no account {options['owner']!r}: create it first") from None
        with transaction.atomic():
            room = Room.objects.filter(slug=slug).first()
            made = room is None
            if room is None:
                room = Room.open(name, slug)
            if owner is not None:
                RoomMember.objects.update_or_create(
                    room=room, user=owner, defaults={"role": RoomMember.OWNER}
                )
        what = "opened" if made else "already open"
        self.stdout.write(
            self.style.SUCCESS(
                f"Room {room.name} ({room.slug}) {what}: /r/{room.slug}/ ; "
                f"{room.configs.count()} configurations"
                + (f"; owner {owner.get_username()}" if owner is not None else "")
            )
        )
