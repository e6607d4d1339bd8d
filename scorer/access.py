"""Small access helpers: a session is reachable only through its unguessable code."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect

from scorer.models import GameSession, Round

# What new_code() makes (secrets.token_urlsafe), up to the field's length.
CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def session_or_404(code: str) -> GameSession:
    # A code that cannot be one is no session, answered before the database: PostgreSQL
    # refuses a NUL byte in a query with an error (a 500), found by the API fuzz test.
    if not CODE.fullmatch(code):
        raise Http404("no such session")
    try:
        return GameSession.objects.get(code=code)
    except GameSession.DoesNotExist:
        raise Http404("no such session") from None


def round_or_404(session: GameSession, number: int) -> Round:
    try:
        return session.rounds.select_related("current").get(number=number)
    except Round.DoesNotExist:
        raise Http404("no such round") from None


def closed_redirect(request: HttpRequest, session: GameSession) -> HttpResponse | None:
    """A closed table's pages that would change it send the phone to its result
    page, which says so and offers to reopen it; None while the table is open.
    (The model refuses any change to a closed table as well, under its lock.)"""
    if session.closed_at is None:
        return None
    messages.info(
        request, gettext("This table is closed. Reopen it on this page to change anything.")
    )
    url = reverse("scorer:final", args=[session.code])
    if request.headers.get("HX-Request") == "true":
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)
