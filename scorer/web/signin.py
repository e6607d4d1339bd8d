"""An admin signed in on a phone, beside the phone's own memory of its tables.

A phone has one Django session (a cookie kept for half a year, scorer/services/phone.py):
the tables it has opened and holds, who it is at each, a half-entered hand.  An
admin who signs in on that phone adds Django's sign-in to the same session, and
this module keeps the two apart:

* the session keeps the sign-in time and the admin's last use; an admin unused
  for `ADMIN_IDLE` (14 days) is signed out on his next visit, and every use
  renews the 14 days;
* signing out (the button, or those 14 days) removes the sign-in only: the
  session gets a new key, as Django's own sign-in gives one, and the phone keeps
  its tables.  Django's `logout` would flush the whole session, tables and all.

What a cache may keep of an admin's answers is decided with everyone else's, by
the route, in scorer/web/caching.py: every page `private, no-store`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib import auth, messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import rotate_token
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

ADMIN_IDLE = dt.timedelta(days=14)
# The last use is written at most this often: an admin's phone polling a table
# every few seconds does not write its session each time.
USE_NOTED_EVERY = dt.timedelta(minutes=10)
SIGNED_IN_AT = "admin_signed_in_at"  # when the admin signed in (seconds since the epoch)
USED_AT = "admin_used_at"  # his last use, to the USE_NOTED_EVERY

_AUTH_KEYS = (auth.SESSION_KEY, auth.BACKEND_SESSION_KEY, auth.HASH_SESSION_KEY)


def _now() -> float:
    return timezone.now().timestamp()


def signed_in(session: SessionBase) -> bool:
    """Whether the session carries a sign-in (read from the session, no query)."""
    return auth.SESSION_KEY in session


def idle(session: SessionBase, now: float | None = None) -> bool:
    """Whether the signed-in admin has not used this phone for ADMIN_IDLE."""
    last = session.get(USED_AT, session.get(SIGNED_IN_AT))
    if not isinstance(last, (int, float)):
        return False  # signed in before the times were kept: counted from now
    return (now if now is not None else _now()) - last > ADMIN_IDLE.total_seconds()


def note_use(session: SessionBase, now: float | None = None) -> None:
    """The admin used the site: the 14 days start again (written when it matters)."""
    now = now if now is not None else _now()
    if not isinstance(session.get(SIGNED_IN_AT), (int, float)):
        session[SIGNED_IN_AT] = now
    last = session.get(USED_AT)
    if not isinstance(last, (int, float)) or now - last >= USE_NOTED_EVERY.total_seconds():
        session[USED_AT] = now


def sign_out(request: HttpRequest) -> None:
    """Sign the admin out and keep the phone's own memory (its tables, who it is at
    each): Django's `logout`, but removing the sign-in from the session instead of
    emptying it.  The session gets a new key and the form token a new value, as
    with Django's own sign-in and sign-out."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        user_logged_out.send(sender=user.__class__, request=request, user=user)
    for key in (*_AUTH_KEYS, SIGNED_IN_AT, USED_AT):
        request.session.pop(key, None)
    request.session.cycle_key()
    rotate_token(request)
    request.user = AnonymousUser()


class SignOut(auth_views.LogoutView):
    """Django's sign-out view (POST only, CSRF, its safe `next`), signing out with
    `sign_out`: the phone keeps its tables."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        sign_out(request)
        return HttpResponseRedirect(self.get_success_url())


class AdminSessionMiddleware:
    """Signs out an admin unused for ADMIN_IDLE before the view sees him, and notes
    each use.

    After AuthenticationMiddleware and MessageMiddleware.  Nothing is read that the
    view did not read: the sign-in is checked when the view asks who the user is."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if hasattr(request, "user"):
            request.user = SimpleLazyObject(lambda: self.user(request))  # type: ignore[assignment]
        response = self.get_response(request)
        session: SessionBase | None = getattr(request, "session", None)
        admin = session is not None and session.accessed and signed_in(session)
        if admin:
            assert session is not None
            note_use(session)
        return response

    @staticmethod
    def user(request: HttpRequest) -> object:
        """Django's user of the session, unless its admin has been idle too long:
        then signed out (the phone's tables kept) and told so."""
        if signed_in(request.session) and idle(request.session):
            request.user = auth.get_user(request)  # (who signs out: for the signal)
            sign_out(request)
            messages.info(
                request,
                gettext("You were signed out after 14 days without use. Sign in again."),
                fail_silently=True,
            )
            return request.user
        return auth.get_user(request)
