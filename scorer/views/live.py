"""The live streams as Django views: what runserver (and the test client) serve.

A deployment serves the same paths from the ASGI app in mahjong_site/asgi.py,
ahead of Django, with the same words (scorer/live/streams.py) and the same checks
(scorer/services/live.py); here a stream holds one of runserver's threads while it is
open, which is fine for the embedded default (a few tables).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    HttpResponseNotAllowed,
    StreamingHttpResponse,
)
from django.views.decorators.http import require_safe

from scorer.live.broker import league_topic, room_topic, table_topic
from scorer.live.streams import (
    HEADERS,
    REFUSED_HEADERS,
    REFUSED_STATUS,
    BadVersion,
    Counted,
    Opening,
    gate,
    opening,
    seen_version,
    sync_events,
)
from scorer.services.live import league_open_to, room_admin_of, room_id, table_version


def _stream(early: str | None, first: Callable[[], Opening]) -> HttpResponseBase:
    """The stream, or 503 when this worker holds LIVE_MAX_STREAMS already."""
    if not gate.enter():
        return HttpResponse("busy: poll", status=REFUSED_STATUS, headers=REFUSED_HEADERS)
    return StreamingHttpResponse(Counted(sync_events(early, first)), headers=HEADERS)


def _seen(request: HttpRequest) -> int | None:
    return seen_version(request.headers.get("Last-Event-ID"), request.GET.get("v"))


BAD_VERSION = "版本号不是数字。The version this page says is not a number."


@require_safe
def table_events(request: HttpRequest, code: str) -> HttpResponseBase:
    """The table's stream: `changed` (with its version) whenever the table changes."""
    if table_version(code) is None:
        raise Http404("no such session")
    try:
        topic, seen = table_topic(code), _seen(request)
    except BadVersion:
        return HttpResponseBadRequest(BAD_VERSION, content_type="text/plain; charset=utf-8")

    def first() -> Opening:
        version = table_version(code)  # read again, now that the stream is subscribed
        return None if version is None else (topic, opening(version, seen))

    return _stream(topic, first)


@login_required
def room_events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The room's stream, for its dashboard and tables page: its admins only (the
    check of their pages, scorer/services/access.py; anyone else: 404, whatever the method)."""
    room = room_id(slug)
    if room is None or not room_admin_of(request, slug):
        raise Http404("no such room")
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return _topic_stream(request, room_topic(room))


@require_safe
def league_events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The league's stream: `changed` when a table of the room closes (or its kept
    results change), for whoever may see the league page (public, or its admins)."""
    room = room_id(slug)
    if room is None or not league_open_to(request, slug):
        raise Http404("no such league")
    return _topic_stream(request, league_topic(room))


def _topic_stream(request: HttpRequest, topic: str) -> HttpResponseBase:
    """A room's stream or its league's, once the visitor may have it: `changed` (no
    version: told again only on a reconnect) whenever its topic is published."""
    try:
        seen = _seen(request)
    except BadVersion:
        return HttpResponseBadRequest(BAD_VERSION, content_type="text/plain; charset=utf-8")
    return _stream(None, lambda: (topic, opening(None, seen)))
