"""Small access helpers: a session is reachable only through its unguessable code, and
everything a room's admins manage only through the room they belong to.  A page
links another table only when its viewer holds it (`held`).

Each room-scoped kind has one helper that looks the row up *through the member's
room*, so a row of another room is a 404, never a 403 that would say it exists
(in the manner of healthchecks' `_get_check_for_user`): get_object_or_404 on the
room's own rows, so the query itself cannot reach another room's.  A visitor who
is not signed in is sent to the sign-in page by `room_admin`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext

from scorer.models import GameSession, Round
from scorer.models.invites import RoomInvite
from scorer.models.players import Player
from scorer.models.rooms import (
    FIRST_TABLE,
    LAST_TABLE,
    Room,
    RoomConfig,
    RoomMember,
    RoomTable,
    default_room,
)
from scorer.services import phone
from scorer.web.htmx_answers import HtmxHttpRequest, go

# What new_code() makes (secrets.token_urlsafe), up to the field's length; a
# player's slug (scorer.models.players.new_slug) is one too.
CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")  # an invitation's (scorer.models.invites)


def session_or_404(code: str) -> GameSession:
    # A code that cannot be one is no session, answered before the database: PostgreSQL
    # refuses a NUL byte in a query with an error (a 500), found by the API fuzz test.
    if not CODE.fullmatch(code):
        raise Http404("no such session")
    # Its room and fixed table in the same query: the table's pages are headed by
    # them ("老王棋牌室 · 1号桌").
    return get_object_or_404(GameSession.objects.select_related("room", "room_table"), code=code)


def round_or_404(session: GameSession, number: int) -> Round:
    return get_object_or_404(session.rounds.select_related("current"), number=number)


def closed_redirect(request: HtmxHttpRequest, session: GameSession) -> HttpResponse | None:
    """A closed table's pages that would change it send the phone to its result
    page, which says so and offers to reopen it; None while the table is open.
    (The model refuses any change to a closed table as well, under its lock.)"""
    if session.closed_at is None:
        return None
    messages.info(
        request, gettext("This table is closed. Reopen it on this page to change anything.")
    )
    return go(request, reverse("scorer:final", args=[session.code]))


# ----------------------------------------------------------------------------- rooms


def room_or_404(slug: str | None) -> Room:
    """A room's public pages (its start page, a table's QR code): by its slug, or the
    default room for the site's own `/`."""
    if slug is None:
        return default_room()
    return get_object_or_404(Room, slug=slug)


def admin_of(request: HttpRequest, room: Room) -> bool:
    """Whether the signed-in user runs this room (one of its admins, or the site's
    staff): such a user holds every table of the room."""
    user = request.user
    if not user.is_authenticated:
        return False
    return user.is_superuser or RoomMember.objects.filter(room=room, user_id=user.pk).exists()


def held(request: HttpRequest, room: Room, sessions: Iterable[GameSession]) -> list[GameSession]:
    """Those of `sessions` (all of `room`) the viewer holds: the tables this phone has
    opened by their links (scorer/services/phone.py), or all of them for the room's admins.
    A page links a table only when its viewer holds it (docs/security.md)."""
    sessions = list(sessions)
    if sessions and admin_of(request, room):
        return [s for s in sessions if s.room_id == room.pk]
    codes = phone.held_codes(request)
    return [s for s in sessions if s.code in codes]


class NoLongerAdmin(Exception):
    """The signed-in user ran this room and was removed by its owner."""

    def __init__(self, room: Room) -> None:
        super().__init__("removed from the room")
        self.room = room


def member_or_404(request: HttpRequest, slug: str) -> RoomMember:
    """The signed-in user's membership of this room; 404 for anyone else (another
    room's admin learns nothing, not even that the room exists), NoLongerAdmin for
    an admin the owner removed (the room's log says so: they are told).  The site's
    superusers (Django's admin) may look after every room, as its owner."""
    user = request.user
    if not user.is_authenticated:
        raise Http404("not signed in")  # room_admin redirects before this
    try:
        return RoomMember.objects.select_related("room", "user").get(room__slug=slug, user=user)
    except RoomMember.DoesNotExist:
        room = Room.objects.filter(slug=slug).first()
        if room is not None and user.is_superuser:
            return RoomMember(room=room, user=user, role=RoomMember.OWNER)
        if room is not None and isinstance(user, User) and room.was_removed(user):
            raise NoLongerAdmin(room) from None
        raise Http404("no such room") from None


P = ParamSpec("P")
# The request type the view declares (an HtmxHttpRequest for a page that answers htmx).
R = TypeVar("R", bound=HttpRequest)


def room_admin(
    view: Callable[Concatenate[R, RoomMember, P], HttpResponse],
) -> Callable[Concatenate[R, str, P], HttpResponse]:
    """A room admin's page: signed in (else the sign-in page, then back here), and a
    member of the room in the URL (else 404).  The view gets the membership, and
    reaches the room's rows only through it."""

    @login_required
    @wraps(view)
    def wrapped(request: R, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            member = member_or_404(request, slug)
        except NoLongerAdmin as e:
            # The app's own page in the room's words, not the 404 of a wrong link.
            context = {"room": e.room}
            return render(request, "room/no_longer_admin.html", context, status=403)
        return view(request, member, *args, **kwargs)

    return wrapped


def config_or_404(member: RoomMember, pk: int) -> RoomConfig:
    return get_object_or_404(member.room.configs, pk=pk)


def table_or_404(room: Room, number: int) -> RoomTable:
    # A number no table can have (the URL's <int:> takes any length) is none.
    if not FIRST_TABLE <= number <= LAST_TABLE:
        raise Http404("no such table")
    return get_object_or_404(room.tables, number=number)


def room_table_by_code_or_404(room: Room, code: str) -> RoomTable:
    """A table of the room by the code its QR code carries now or carried before
    (public: whoever scans it joins the table's open session, so the code, not the
    number, is the key).  The caller checks that the code still opens it:
    `table_gone` says why not."""
    if not CODE.fullmatch(code):
        raise Http404("no such table")
    found = room.tables.filter(Q(code=code) | Q(old_codes__code=code)).first()
    if found is None:
        raise Http404("no such table")
    return found


RETIRED, REPLACED = "retired", "replaced"


def table_gone(table: RoomTable, code: str) -> str | None:
    """Why `code` no longer opens `table`: RETIRED (the table is out of use, whichever
    of its codes it is), REPLACED (a new code took this one's place); None when it
    opens it."""
    if table.retired_at is not None:
        return RETIRED
    if table.code != code:
        return REPLACED
    return None


def public_player_or_404(slug: str) -> Player:
    """A player's page by its slug (public: the slug is the key).  A slug that cannot
    be one is none, answered before the database (PostgreSQL refuses a NUL)."""
    if not CODE.fullmatch(slug):
        raise Http404("no such player")
    return get_object_or_404(Player.objects.select_related("room"), slug=slug)


def player_or_404(member: RoomMember, pk: int) -> Player:
    return get_object_or_404(member.room.players, pk=pk)


def room_session_or_404(member: RoomMember, code: str) -> GameSession:
    """A table played in the member's room (its admins close a stale one)."""
    if not CODE.fullmatch(code):
        raise Http404("no such session")
    return get_object_or_404(member.room.sessions, code=code)


def owner_or_404(member: RoomMember) -> RoomMember:
    """Pages only the owner sees (inviting admins)."""
    if not member.is_owner:
        raise Http404("owners only")
    return member


def room_member_or_404(member: RoomMember, pk: int) -> RoomMember:
    """Another admin of the member's room (the owner removes one)."""
    return get_object_or_404(member.room.members.select_related("user"), pk=pk)


def invite_or_404(member: RoomMember, pk: int) -> RoomInvite:
    """One of the room's invitations (the owner withdraws a pending one)."""
    return get_object_or_404(member.room.invites, pk=pk)


# The addresses that belong to a room: its own pages, a table's, a player's.
ROOM_PATH = re.compile(
    r"/r/(?P<slug>[-a-zA-Z0-9_]+)/|/s/(?P<code>[A-Za-z0-9_-]{1,32})/|/p/(?P<player>[A-Za-z0-9_-]{1,32})/"
)


def room_of_path(path: str) -> Room | None:
    """The room an address belongs to, whatever follows its key: `/r/<slug>/…` that
    room, `/s/<code>/…` its table's, `/p/<slug>/` its player's; None for an address
    of no room or a key that opens nothing.  For a page the view could not find
    (the 404 page), whose way back leads to that room's start page, never to
    another room's (templatetags/room_links.py).  It tells nothing a visitor could
    not learn from the room's own start page or the table's own link."""
    found = ROOM_PATH.match(path)
    if found is None:
        return None
    if found["slug"]:
        return Room.objects.filter(slug=found["slug"]).first()
    if found["code"]:
        session = GameSession.objects.select_related("room").filter(code=found["code"]).first()
        return None if session is None else session.room
    player = Player.objects.select_related("room").filter(slug=found["player"]).first()
    return None if player is None else player.room


def way_back(path: str) -> str:
    """The server error page's way back, read off the address alone (the database may
    be what failed): a room's page to its start page, a table's to the table's own
    page (which leads to its room); anything else to `/`."""
    found = ROOM_PATH.match(path)
    if found is None or found["player"]:
        return "/"
    return found.group(0)


def invite_by_token_or_404(token: str) -> RoomInvite:
    """An invitation by its link (public: the token is the key), used or not."""
    if not TOKEN.fullmatch(token):
        raise Http404("no such invitation")
    return get_object_or_404(RoomInvite.objects.select_related("room"), token=token)
