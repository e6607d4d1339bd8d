"""POST /api/settle: one round of events in (docs/rules/sichuan.md), its transfers out."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import settle
from tests.support.api import assert_engine_refusal, engine_answer, post_json

pytestmark = pytest.mark.django_db

post = partial(post_json, route="scorer:api_settle")

SPEC = Path(__file__).resolve().parents[1] / "fixtures" / "spec" / "sichuan-rounds.jsonl"

# 直杠 by seat 1 on seat 2's discard (6), then seat 0 wins 对对胡 (2 番 = 12) on seat 2's discard.
ROUND: dict[str, Any] = {
    "id": "r1",
    "ruleset": "sichuan",
    "players": 4,
    "events": [
        {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
        {
            "type": "win",
            "discarder": 2,
            "winners": [{"seat": 0, "hand": {"concealed": "111222444m3339p", "win_tile": "9p"}}],
        },
    ],
}


def test_settle_a_round(client: Client) -> None:
    body = engine_answer(post(client, ROUND), settle(ROUND))
    assert body["ok"] is True and body["id"] == "r1" and body["ruleset"] == "sichuan"
    assert body["deltas"] == [12, 6, -18, 0]
    assert [(t["from"], t["to"], t["amount"], t["reason"]) for t in body["transfers"]] == [
        (2, 1, 6, "kong_exposed"),
        (2, 0, 12, "win_discard"),
    ]
    assert body["finished"] is False and body["out"] == [0]


def test_settle_keeps_chinese_readable(client: Client) -> None:
    response = post(client, ROUND)
    assert "刮风".encode() in response.content and "对对胡".encode() in response.content


def test_settle_the_spec_rounds(client: Client) -> None:
    lines = [json.loads(x) for x in SPEC.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert lines
    for example in lines:
        response = post(client, example)
        assert response.status_code == 200, response.content
        assert response.json()["deltas"] == example["expect"]["deltas"], example["id"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**ROUND, "events": [*ROUND["events"], {"type": "deal"}]}, "bad_event"),
        ({**ROUND, "events": []}, "bad_event"),
        ({**ROUND, "players": 7}, "bad_table"),
        ({**ROUND, "params": {"kong_exposed": -1}}, "bad_param"),
        ({**ROUND, "ruleset": "nope"}, "unknown_ruleset"),
        # Every ruleset settles rounds now; 国标 has no kong events (its kongs pay nothing apart).
        ({**ROUND, "ruleset": "mcr"}, "bad_event"),
        (
            {
                **ROUND,
                "events": [
                    {"type": "win", "discarder": 1, "winners": [{"seat": 0, "fans": {}}]},
                    {"type": "kong", "player": 0, "kong": "concealed"},
                ],
            },
            "bad_event",
        ),
    ],
)
def test_settle_engine_errors_are_400(client: Client, body: dict[str, Any], code: str) -> None:
    assert_engine_refusal(post(client, body), settle(body), code)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "one round"),
        ('"events"', "one round"),
        ("[" * 100000, "not valid JSON"),
    ],
)
def test_settle_bad_bodies_are_400(client: Client, raw: Any, fragment: str) -> None:
    response = post(client, raw, raw=True)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_input"
    assert fragment in error["message"] and error["message_zh"]


def test_settle_only_post(client: Client) -> None:
    assert client.get(reverse("scorer:api_settle")).status_code == 405


def test_settle_needs_no_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("scorer:api_settle"), json.dumps(ROUND), content_type="application/json"
    )
    assert response.status_code == 200
