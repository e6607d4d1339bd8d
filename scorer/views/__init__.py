"""Views shared by the whole site; the table's pages live in the modules beside this one."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: django-htmx's middleware adds `request.htmx`."""

    htmx: HtmxDetails


# (what to look for in the User-Agent, what to call it), first match wins.
_DEVICES = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)
_BROWSERS = (
    ("MicroMessenger", "WeChat"),
    ("Edg/", "Edge"),
    ("Firefox/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)


def author_of(request: HttpRequest) -> str:
    """A short, readable label of who changed something: the device and browser, or "phone".

    Sessions have no accounts; this is only a hint in the ledger's history
    ("undone by iPhone WeChat"), never used to decide anything.
    """
    ua = request.headers.get("User-Agent", "")
    device = next((name for key, name in _DEVICES if key in ua), "")
    browser = next((name for key, name in _BROWSERS if key in ua), "")
    return " ".join(part for part in (device, browser) if part) or "phone"


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness check for load balancers and `curl`: always ``{"ok": true}``."""
    return JsonResponse({"ok": True})
