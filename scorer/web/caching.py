"""What a cache may keep of each answer, said once: by the answer's route, never by who asks.

docs/security.md ("What a cache may keep") is the same table in words, and
tests/site/test_caching.py reads it there and checks every URL against it.

* An answer that is the same for anyone holding the table's link (the tallies'
  poll, the exports, the result picture, the API's table) is `private, no-cache`
  with an ETag: the phone may keep it, no shared cache may, and it asks again each
  time, answered 304 while nothing changed.  A signed-in admin gets the same
  bytes as the table's players, so the same header.
* Everything else (every page, every form's answer, everything under a room's
  /manage/, the accounts' pages) is `private, no-store`, for everyone: a page
  carries the phone's form token and messages, and for a signed-in admin the
  room's tables and links; nothing keeps it, not even the browser's back button.
  Deciding by the route alone needs no sign-in read, so a phone's poll never
  loads its session for it.
* A few answers with no table and no person in them (a fan's explanation, the
  web app manifest, the favicon) are public.  The live streams are `private,
  no-store` like the pages, on both paths: the Django view's through here, the
  ASGI app's (mahjong_site/asgi.py, ahead of Django) by `scorer/live/streams.py`'s
  HEADERS, which take PRIVATE from here.
* A refusal or an error (status 400 and up), and the answer to anything but GET
  or HEAD, is never kept: `private, no-store`.

An answer kept (no `no-store`) varies by HX-Request (htmx's part of a page is
not the page), gets an ETag when its view set none (a hash of its body, as
Django's ConditionalGetMiddleware makes one), and a GET carrying it back in
If-None-Match is answered 304 with no body.  The tallies set their own ETag
(the table's version) and answer 304 before building anything.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers, set_response_etag

PRIVATE = "private, no-store"  # differs by visitor: kept nowhere
LINK = "private, no-cache"  # the same for anyone holding the link: kept by the phone, asked again
QR = "private, max-age=86400"  # a table's QR code: its link, which never changes
PUBLIC = "public, max-age=3600"  # no table and no person in it

# By the route's name (namespace included); every route not named here is PRIVATE.
RULES: dict[str, str] = {
    "scorer:tallies": LINK,
    "scorer:export": LINK,
    "scorer:final_svg": LINK,
    "scorer:api_session": LINK,
    "scorer:qr": QR,
    "scorer:fan_help": PUBLIC,
    "scorer:manifest": PUBLIC,
    "scorer:favicon": "public, max-age=86400",
}

KEPT_METHODS = ("GET", "HEAD")


def rule(request: HttpRequest, status: int) -> str:
    """The Cache-Control of the answer to `request` with `status`."""
    if request.method not in KEPT_METHODS or status >= 400:
        return PRIVATE
    match = request.resolver_match
    return RULES.get(match.view_name, PRIVATE) if match is not None else PRIVATE


class CacheMiddleware:
    """Sets every answer's Cache-Control by `rule`, and gives an answer that may be
    kept its ETag and its 304.  Outside the views' middleware (after the session's
    in settings.MIDDLEWARE), so that redirects and refusals made by middleware pass
    through it too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        header = rule(request, response.status_code)
        response["Cache-Control"] = header
        if "no-store" in header or not isinstance(response, HttpResponse):
            return response  # (a stream is no HttpResponse: never kept)
        # The part of a page htmx asks for is not the page, at the same URL (a fan's
        # explanation is either): a browser must not answer one with the other.
        patch_vary_headers(response, ("HX-Request",))
        if response.status_code != 200:
            return response  # (a redirect; the tallies' own 304)
        if not response.has_header("ETag"):
            set_response_etag(response)
        return (
            get_conditional_response(request, etag=response["ETag"], response=response) or response
        )
