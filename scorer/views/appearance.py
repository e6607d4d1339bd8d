"""How the site looks on this phone: the large-text mode, and what a phone's home
screen asks for (the web app manifest, the favicon)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST, require_safe

__all__ = ["LARGE_TEXT_COOKIE", "favicon", "large_text", "manifest", "text_size"]

# Kept like the language (Django's django_language cookie): per phone, a year, and
# read by the server, so the page is drawn in its size from the first paint.
LARGE_TEXT_COOKIE = "mj_large_text"
_YEAR = 365 * 24 * 3600

# The page's background in each colour scheme (static/css/site.css :root).
THEME_LIGHT = "#fdfcf8"


def large_text(request: HttpRequest) -> dict[str, Any]:
    """Context processor: whether this phone chose large text (base.html's <html> class)."""
    return {"large_text": request.COOKIES.get(LARGE_TEXT_COOKIE) == "1"}


@require_POST
def text_size(request: HttpRequest) -> HttpResponse:
    """The footer's 大字 button: large text on or off for this phone, then back to
    the page it was tapped on. A form post (no script needed), like the language."""
    target = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    if request.POST.get("large") == "1":
        response.set_cookie(
            LARGE_TEXT_COOKIE, "1", max_age=_YEAR, samesite="Lax", secure=request.is_secure()
        )
    else:
        response.delete_cookie(LARGE_TEXT_COOKIE, samesite="Lax")
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: a phone can put the site on its home screen, opening
    full-screen without the browser's bars. In the reader's language, the icons at
    their hashed static URLs. No service worker: every tap is scored and shared
    through the server, so an offline copy could only show stale tallies."""
    name = gettext("Mahjong Scorer")
    data = {
        "name": name,
        "short_name": name,
        "description": gettext(
            "Score mahjong hands at the table: pick the tiles, see every fan, keep the tally."
        ),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME_LIGHT,
        "theme_color": THEME_LIGHT,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                # The tile sits inside the safe circle, so the same picture can be masked.
                "purpose": "maskable",
            },
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Vary"] = "Cookie, Accept-Language"
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """/favicon.ico, which some browsers and bots ask for whatever the page links:
    the icon's PNG (its hashed URL, cached for a year by whitenoise)."""
    return HttpResponseRedirect(static("icons/favicon-32.png"))
