"""How a page answers a request that htmx may have sent, said once for every view.

A page here works with and without JavaScript: the same form posts either way, and
the answer differs only by `request.htmx` (django-htmx's middleware reads the
HX-Request header).  Three answers recur, each with a reason htmx gives:

* `go`: somewhere else, whole.  A redirect htmx followed itself would be swapped
  into the element that asked (a row, the form), so htmx is told to load the page
  (HX-Redirect); a plain post is redirected.
* `refused_status`: a form shown again with why it was not recorded.  htmx swaps
  only 2xx answers and drops a 4xx's body with its message, so htmx gets 200; a
  plain post gets the 4xx that says what happened (400 invalid, 409 a race lost).
* `form_token`: a record form's one-time token (what makes confirming idempotent);
  one that does not read is a form from before tokens, or tampered with, and the
  form comes back with a fresh one and `expired_text`.

And one answer every page that htmx also asks for a part of says the same way:

* `page_or_partial`: the whole page, or for htmx the named partial the page holds
  (django-template-partials' "page.html#name", django-htmx-patterns' "partial if
  htmx, else the page"): the same markup either way, so htmx swaps in what a
  reload would show.

Built on django-htmx's own helpers; its module of the bottom layer (no model), so
that the access helpers and the record request's answers use it as the views do.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect, SwapMethod, reswap
from django_htmx.middleware import HtmxDetails

__all__ = [
    "HtmxHttpRequest",
    "expired_text",
    "form_token",
    "go",
    "page_or_partial",
    "refused_status",
    "show_top",
]


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: django-htmx's middleware adds `request.htmx`."""

    htmx: HtmxDetails


def go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """To `url`, as a whole page: HX-Redirect for htmx (which would swap a redirect's
    page into the element that asked), a redirect otherwise."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def refused_status(request: HtmxHttpRequest, status: int) -> int:
    """The status of a form shown again because it was refused: `status` (400, 409)
    for a plain post, 200 for htmx, which swaps only 2xx answers (the form, with the
    message that says why, must replace the one the player tapped)."""
    return 200 if request.htmx else status


def form_token(raw: str) -> uuid.UUID | None:
    """The form's one-time token, None when it is none (an old form, a hand-made post):
    the caller refuses the form with `expired_text` and a fresh token."""
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


def expired_text() -> str:
    """What a form without a token that reads is told (see `form_token`)."""
    return gettext("This form had expired. Check the round and confirm again.")


R = TypeVar("R", bound=HttpResponse)


def show_top(response: R, swap: SwapMethod, selector: str) -> R:
    """Swap as `swap` and bring `selector` to the top of the screen (htmx's `show:`
    modifier; django-htmx's `reswap` types the swap method alone)."""
    return reswap(response, cast(SwapMethod, f"{swap} show:{selector}:top"))


def page_or_partial(
    request: HtmxHttpRequest,
    page: str,
    partial: str,
    context: Mapping[str, Any],
    *,
    status: int = 200,
    asked: bool | None = None,
    page_only: Callable[[], Mapping[str, Any]] | None = None,
    partial_only: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The template `page` whole, or its `partial` alone when htmx asks for it.

    `partial`: "#name" for a partial of the page itself, else a template name
    ("form.html#form").  `asked`: whether the partial is what is asked, when more
    than `request.htmx` decides it (a form's field changed, a region's target).
    `page_only`: what only the whole page shows, built for it alone (a partial's
    answer is cheaper, and what showing the page does, such as remembering the
    table on the phone, is not done by a swap); `partial_only`: what only the
    partial is given (it is the live answer, its navigation out of band)."""
    if asked is None:
        asked = bool(request.htmx)
    if asked:
        name = page + partial if partial.startswith("#") else partial
        return render(request, name, {**context, **(partial_only or {})}, status=status)
    extra = page_only() if page_only is not None else {}
    return render(request, page, {**context, **extra}, status=status)
