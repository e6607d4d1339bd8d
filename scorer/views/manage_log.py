"""The room's log on its admins' phones: what each of them did, newest first, in the
page's language and local time (the entries: scorer/models/roomlog.py; their sentences:
scorer/present/room_log.py)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorer.clean.parse import page_number
from scorer.models.rooms import RoomMember
from scorer.present.room_log import log_line
from scorer.services.access import room_admin
from scorer.views import HtmxHttpRequest

__all__ = ["room_log"]

LOG_PAGE = 50


@room_admin
@require_safe
def room_log(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """Every admin of the room sees the whole log: it is their shared record of who
    did what (a removed admin's entries stay, under the name they had)."""
    entries = member.room.log.order_by("-at", "-pk")
    page = Paginator(entries, LOG_PAGE).get_page(page_number(request.GET.get("page")))
    context = {
        "member": member,
        "room": member.room,
        "page": page,
        "lines": [log_line(e) for e in page],
        "nav": "log",
    }
    return render(request, "room/log.html", context)
