"""Views shared by the whole site; the table's pages live in the modules beside this one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe
from django_htmx.middleware import HtmxDetails

from rules.tiles import tile_en, tile_zh


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: django-htmx's middleware adds `request.htmx`."""

    htmx: HtmxDetails


def is_zh() -> bool:
    """Whether the reader reads Chinese (the active language is zh-*)."""
    return (get_language() or "").lower().startswith("zh")


def by_language(zh: Any, en: Any) -> str:
    """The engine's texts come in both languages: pick the active one ("" for none)."""
    return str((zh if is_zh() else en) or "")


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV file to save (its text from scorer/spreadsheet.py, BOM included)."""
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def seat_name(names: Sequence[str], seat: Any) -> str:
    """The player in that seat; "#seat" for anything that is not a seat (a bool is not)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def tile_name(t: int) -> str:
    """A tile as the reader calls it: 五万 / 5 Characters."""
    return tile_zh(t) if is_zh() else tile_en(t)


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
