"""Live tables: who may open which event stream, and the stream's first words.

A table's stream (`/s/<code>/events`) is opened by that table's link: its code,
as every page of the table.  A room's stream (`/r/<slug>/manage/events`, for its
dashboard and tables page) by the room's admins only, the same check as their
pages (scorer/services/access.py `member_or_404`, signed out after 14 idle days), made
from the session cookie alone when the stream is served outside Django's views
(mahjong_site/asgi.py).  Each check is one short trip to the database, made after
subscribing (so no change falls between the version read and the subscription).
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import NamedTuple

from django.conf import settings
from django.contrib import auth
from django.http import Http404, HttpRequest

from scorer.live.broker import league_topic, room_topic, table_topic
from scorer.models import GameSession
from scorer.models.rooms import Room
from scorer.services.access import CODE, NoLongerAdmin, member_or_404
from scorer.web import signin

# The paths the ASGI app serves ahead of Django (the same as scorer/urls.py's).
TABLE_EVENTS = re.compile(r"^/s/(?P<code>[^/]+)/events$")
ROOM_EVENTS = re.compile(r"^/r/(?P<slug>[-a-zA-Z0-9_]+)/manage/events$")
LEAGUE_EVENTS = re.compile(r"^/r/(?P<slug>[-a-zA-Z0-9_]+)/league/events$")


class Opened(NamedTuple):
    topic: str
    version: int | None  # a table's version; None for a room's stream


def table_version(code: str) -> int | None:
    """The table's version now, None for no table (one query)."""
    if not CODE.fullmatch(code):
        return None
    return GameSession.objects.filter(code=code).values_list("version", flat=True).first()


def room_id(slug: str) -> int | None:
    """The room's id by its slug, for its topic (one query); None for none."""
    return Room.objects.filter(slug=slug).values_list("pk", flat=True).first()


def room_admin_of(request: HttpRequest, slug: str) -> bool:
    """Whether the request's signed-in user is an admin of the room now: the check
    of the room's admin pages (`member_or_404`), not signed out by 14 idle days."""
    if not request.user.is_authenticated or signin.idle(request.session):
        return False
    try:
        member_or_404(request, slug)
    except (Http404, NoLongerAdmin):
        return False
    return True


def league_open_to(request: HttpRequest, slug: str) -> bool:
    """Whether the league page of the room is open to this request: public, or its admin."""
    if Room.objects.filter(slug=slug, league_public=True).exists():
        return True
    return room_admin_of(request, slug)


def request_from_cookies(cookies: dict[str, str]) -> HttpRequest:
    """A request carrying what the session cookie says (its user), for a stream
    served outside Django's middleware."""
    request = HttpRequest()
    request.COOKIES = cookies
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(cookies.get(settings.SESSION_COOKIE_NAME))
    request.user = auth.get_user(request)
    return request


def room_stream_for(cookies: dict[str, str], slug: str) -> str | None:
    """The room's topic when the cookies' user is its admin, else None."""
    if room_admin_of(request_from_cookies(cookies), slug) and (pk := room_id(slug)) is not None:
        return room_topic(pk)
    return None


def league_stream_for(cookies: dict[str, str], slug: str) -> str | None:
    """The league's topic when its page is open to the cookies' visitor (public, or the
    room's admin), else None."""
    if league_open_to(request_from_cookies(cookies), slug) and (pk := room_id(slug)) is not None:
        return league_topic(pk)
    return None


__all__ = [
    "LEAGUE_EVENTS",
    "ROOM_EVENTS",
    "TABLE_EVENTS",
    "Opened",
    "league_open_to",
    "league_stream_for",
    "room_admin_of",
    "room_id",
    "room_stream_for",
    "table_topic",
    "table_version",
]
