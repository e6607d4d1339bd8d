"""The JSON API as a client calls it: a situation to score, a body posted."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from django.urls import reverse

# One winning hand at a table of four: 一色三节高 and more, won on 丙's discard.
SITUATION = {
    "id": "t1",
    "ruleset": "mcr",
    "concealed": "111m222m333m456p7z",
    "win_tile": "7z",
    "table": {"players": 4, "dealer": 0, "winner": 1, "discarder": 2},
}


def post_json(client: Client, body: Any, raw: bool = False, *, route: str) -> Any:
    """POST `body` as JSON (or as it is, `raw`) to the API's `route`."""
    data = body if raw else json.dumps(body)
    return client.post(reverse(route), data, content_type="application/json")
