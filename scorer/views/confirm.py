"""The second tap of a destructive admin action (removing an admin, retiring a table,
a new QR code, merging two players).

On the server, not only in the page's script: the first request -- a GET from a
link, or a POST without the confirmation -- answers a question naming what will
happen, and the action happens only on a POST carrying the confirmation.  It works
without JavaScript (a page of its own); with htmx the question is swapped in where
the first tap was.  A double tap on the first button asks twice and does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse

from scorer.models import RoomMember
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import go, page_or_partial

__all__ = ["CONFIRM", "Ask", "ask", "back", "confirmation"]

# The field the question's form carries, and what it holds when nothing more
# specific is confirmed (a new QR code confirms the code it replaces: its version).
CONFIRM = "confirm"
YES = "yes"


@dataclass(frozen=True)
class Ask:
    """The question: what it asks, what follows, where the answer goes."""

    title: str
    question: str
    button: str  # the second tap's words ("停用 3号桌")
    action: str  # the URL the confirmation is posted to
    cancel: str  # where "Cancel" goes back to
    details: tuple[str, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()  # posted again with the confirmation
    value: str = YES


def confirmation(request: HtmxHttpRequest) -> str | None:
    """What a POST confirms (None for a GET, or a POST without a confirmation)."""
    if request.method != "POST":
        return None
    return request.POST.get(CONFIRM) or None


def ask(request: HtmxHttpRequest, member: RoomMember, nav: str, question: Ask) -> HttpResponse:
    """The question, as a page or (htmx) as the partial for the first tap's place."""
    context = {"member": member, "room": member.room, "nav": nav, "ask": question}
    return page_or_partial(request, "room/confirm.html", "#confirm", context)


def back(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Back to the list, whole: a first tap sent by htmx (which would swap a
    redirect's page into the row) leaves the page for it instead."""
    return go(request, url)
