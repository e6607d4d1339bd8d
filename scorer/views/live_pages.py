"""A table's pages that follow the table live (结算, the ledger, a round's page): the
page whole, or its live region alone when the region asks for itself again
(js/live.js, `hx-get` of the page's own address, target `#live-page`).

The region's answer is ETag'd by the table's version (and the language), as the
table page's tallies are: a fetch of a page whose table has not changed is a 304
with no body, and the answer is never cached by anyone but this phone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response

from scorer.models import GameSession
from scorer.present.words import etag_of
from scorer.views import HtmxHttpRequest

__all__ = ["LIVE_REGION", "live_page"]

# The id of a live page's region: what htmx names as its target (HX-Target).
LIVE_REGION = "live-page"


def live_page(
    request: HtmxHttpRequest,
    template: str,
    session: GameSession,
    context: Callable[[], dict[str, Any]],
) -> HttpResponse:
    """`template` whole, or its partial `live` when the page's live region asks;
    `context` is built only when the answer has a body (not for a 304)."""
    etag = etag_of(session)
    # The region sends it back (hx-headers): a fetch of an unchanged table is a 304.
    headers = json.dumps({"If-None-Match": etag})
    if not (request.htmx and request.htmx.target == LIVE_REGION):
        return render(request, template, {**context(), "live_headers": headers})
    response = get_conditional_response(request, etag=etag)
    if response is None:
        page = {**context(), "live_headers": headers, "live_answer": True}
        response = render(request, f"{template}#live", page)
    response["ETag"] = etag  # (its Cache-Control is scorer/web/caching.py's, as every page's)
    return response
