"""A change that could not get the database's write lock in time: "try again", never a 500.

SQLite serialises writers on one file.  With the settings' IMMEDIATE transactions
and busy timeout, concurrent phones queue for the lock; only a writer stuck for
longer than the timeout (a backup holding the file, a disk stalled) makes one
give up.  PostgreSQL queues on row locks and gives up only on a deadlock or a
`lock_timeout` an operator set.  Either way the transaction was rolled back
whole, so nothing changed, and every change the phones make is safe to repeat:
a confirm carries its one-time token, a correction its base revision, an undo
the round it saw.  The phone is told so in both languages, with 503 and
Retry-After: the page (or the htmx request, shown by static/js/busy.js, or the
JSON API) answers instead of the server error page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

RETRY_AFTER = 2  # seconds: the queue of writers is long gone by then

MESSAGE = "The table is busy: this step was not saved. Please tap again in a moment."
MESSAGE_ZH = "服务器正忙，这一步没有保存，也没有改动任何记录。请稍等片刻再点一次。"

# PostgreSQL: lock_timeout (55P03), deadlock (40P01), serialization failure (40001).
_PG_BUSY = {"55P03", "40P01", "40001"}


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is the database refusing a lock in time (not any other failure)."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) in _PG_BUSY:
        return True
    text = str(exc).lower()
    return "database is locked" in text or "database table is locked" in text


class BusyMiddleware:
    """Answers a view's lock timeout with "try again" (503, Retry-After)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_busy(exc):
            return None
        return busy_response(request)


def _busy_within(exc: BaseException) -> bool:
    """`exc` or what it was raised from (SessionInterrupted ← UpdateError ←
    OperationalError) is the database refusing a lock in time."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return False
        if is_busy(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's, with its save after the view answered like a view's lock timeout.

    The session is written once the view has answered, outside BusyMiddleware's
    reach: a first visit's new session (GET /s/<code>/ from a phone with no
    cookie) raised OperationalError there, a 500, and a tap that saves the
    phone's draft (the picker's preview) got Django's 400 "the request's session
    was deleted" (its UpdateError hides the lock).  Either way nothing was saved:
    the phone is told to try again, as for a view."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except (OperationalError, SessionInterrupted) as exc:
            if not _busy_within(exc):
                raise
            return busy_response(request)


def busy_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON for the API, the message alone for htmx, else a page."""
    response: HttpResponse
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        error = {"code": "busy", "message": MESSAGE, "message_zh": MESSAGE_ZH}
        response = JsonResponse(
            {"ok": False, "error": error, "retry_after": RETRY_AFTER},
            status=503,
            json_dumps_params={"ensure_ascii": False},
        )
    else:
        # htmx: only the message (static/js/busy.js shows it over the page, which
        # stays as it was, and static/js/taps.js sends a tap again); without
        # JavaScript the whole page, with the way back.
        # (django-htmx's reading of the request: its middleware may not have run yet.)
        fragment = bool(HtmxDetails(request))
        body = render_to_string(
            "busy.html", {"fragment": fragment, "message": MESSAGE, "message_zh": MESSAGE_ZH}
        )
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    # Never cached: the next try must reach the server.
    response["Cache-Control"] = "no-store"
    return response
