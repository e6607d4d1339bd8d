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


def assert_engine_refusal(response: Any, engine_answer: dict[str, Any], code: str) -> None:
    """A 400 whose body is the engine's own answer: its error's code, and its message in
    both languages."""
    assert response.status_code == 400
    body = response.json()
    assert body == engine_answer
    assert body["ok"] is False and body["error"]["code"] == code
    assert body["error"]["message"] and body["error"]["message_zh"]


def engine_answer(response: Any, engine_answer: dict[str, Any]) -> dict[str, Any]:
    """A 200 in JSON whose body is the engine's answer, as it is; the body."""
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = response.json()
    assert body == engine_answer
    return body
