"""The JSON API: POST /api/score (one situation) and GET /api/sessions/<code>."""

from __future__ import annotations

import json
from decimal import Decimal
from functools import partial
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import score
from tests.factories import SHORT_NAMES, by_tiles, make_table, play
from tests.support.api import SITUATION, assert_engine_refusal, engine_answer, post_json

pytestmark = pytest.mark.django_db

post = partial(post_json, route="scorer:api_score")


# --------------------------------------------------------------------------- /api/score


def test_score_a_situation(client: Client) -> None:
    body = engine_answer(post(client, SITUATION), score(SITUATION))
    assert body["ok"] is True and body["win"] is True and body["id"] == "t1"
    assert {f["name_zh"] for f in body["fans"]} >= {"一色三节高"}
    assert body["deltas"] == [-8, 69, -53, -8]


def test_score_keeps_chinese_readable(client: Client) -> None:
    response = post(client, SITUATION)
    assert "一色三节高".encode() in response.content


def test_score_a_hand_that_does_not_win_is_still_a_result(client: Client) -> None:
    situation = {"ruleset": "mcr", "concealed": "123m456p789s1123z", "win_tile": "4z"}
    response = post(client, situation)
    body = response.json()
    assert body == score(situation)
    assert response.status_code == (200 if body["ok"] else 400)


@pytest.mark.parametrize(
    ("situation", "code"),
    [
        ({**SITUATION, "concealed": "111m222m333m456p9x"}, "bad_tile"),
        ({**SITUATION, "concealed": "1111m222m333m456p", "win_tile": "1m"}, "too_many_copies"),
        ({**SITUATION, "ruleset": "nope"}, "unknown_ruleset"),
        ({**SITUATION, "params": {"min_fans": 99}}, "bad_param"),
    ],
)
def test_score_engine_errors_are_400(client: Client, situation: dict[str, Any], code: str) -> None:
    assert_engine_refusal(post(client, situation), score(situation), code)


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b"not json", b"\xff\xfe\x00garbage", b"[" * 100_000],
)
def test_score_invalid_json_is_400(client: Client, body: bytes) -> None:
    response = post(client, body, raw=True)
    assert response.status_code == 400
    assert response.json() == {
        "id": None,
        "ok": False,
        "error": {
            "code": "bad_input",
            "message": "the body is not valid JSON",
            "message_zh": "请求内容不是有效的 JSON",
        },
    }


@pytest.mark.parametrize("body", [[SITUATION], "a string", 42, None, True])
def test_score_needs_one_object(client: Client, body: Any) -> None:
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_input"
    assert "object" in error["message"]


def test_score_is_post_only(client: Client) -> None:
    assert client.get(reverse("scorer:api_score")).status_code == 405


def test_score_needs_no_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    assert post(client, SITUATION).status_code == 200


# --------------------------------------------------------------------------- /api/sessions/<code>


def test_session_json(client: Client) -> None:
    s = make_table("mcr", SHORT_NAMES, money_per_point=Decimal("0.5"))
    play(s, [by_tiles(), by_tiles()])
    s.undo_last("x")
    s.refresh_from_db()
    response = client.get(reverse("scorer:api_session", args=[s.code]))
    assert response.status_code == 200
    assert response.json() == {
        "code": s.code,
        "ruleset": "mcr",
        "players": ["甲", "乙", "丙", "丁"],
        "totals": [-8, 69, -53, -8],
        "money": ["-4.00", "34.50", "-26.50", "-4.00"],
        "room_take": 0,  # no table fee (台费): the totals sum to zero
        "room_money": "0.00",
        "fee": {},
        # No 计时 fee: no clock, nothing in 元 owed to the room (docs/fees.md).
        "time_fee": {},
        "clock": None,
        "time_fee_so_far": None,
        "money_charged": ["0.00", "0.00", "0.00", "0.00"],
        "rounds": 1,
        "version": 3,
        "next": {"dealer": 1, "prevalent_wind": "E"},
    }


def test_session_json_without_money_or_rounds(client: Client) -> None:
    s = make_table("mcr", ["a", "b", "c", "d"], first_dealer=2)
    body = client.get(reverse("scorer:api_session", args=[s.code])).json()
    assert body["money"] is None
    assert body["totals"] == [0, 0, 0, 0] and body["rounds"] == 0 and body["version"] == 0
    assert body["next"] == {"dealer": 2, "prevalent_wind": "E"}


def test_session_json_unknown_code_is_404_json(client: Client) -> None:
    response = client.get(reverse("scorer:api_session", args=["nosuchcode"]))
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == "not_found"


def test_session_json_is_read_only(client: Client) -> None:
    s = make_table("mcr", ["a", "b", "c", "d"])
    assert client.post(reverse("scorer:api_session", args=[s.code])).status_code == 405


@pytest.mark.parametrize(
    ("situation", "status"),
    [
        # 13 wild tiles of four kinds: millions of readings, counted
        ({"ruleset": "generic", "wild": ["1z", "2z", "3z", "4z"],
          "concealed": "1z1z1z1z2z2z2z2z3z3z3z3z4z", "win_tile": "5p"}, 200),
        ({"ruleset": "house", "wild": ["1m", "2m"],
          "concealed": "1m1m1m1m2m2m2m2m5p6p7p9s9s", "win_tile": "3z"}, 200),
        # more wild tiles than the table holds: refused in both languages
        ({"ruleset": "wuhan", "wild": ["1z", "2z"],
          "concealed": "1z1z1z1z2z2z2z2z5p6p7p9s9s", "win_tile": "3z"}, 400),
    ],
)  # fmt: skip
def test_score_many_wild_tiles_is_answered(
    client: Client, situation: dict[str, Any], status: int
) -> None:
    """Answered, or refused with its code; never built whole, which would take tens of
    seconds (the time is measured by `python -m benchmarks.newhands --only worst`)."""
    r = post(client, situation)
    assert r.status_code == status
    body = r.json()
    if status == 400:
        assert body["error"]["code"] == "too_many_wilds" and body["error"]["message_zh"]
    else:
        assert body["win"] is True and len(body["decompositions"]) <= 50


# --------------------------------------------------------------------------- /api/win


@pytest.mark.parametrize(
    ("situation", "won"),
    [
        (SITUATION, True),
        ({**SITUATION, "ruleset": "generic"}, True),
        ({"ruleset": "generic", "concealed": "123m456p789s1123z", "win_tile": "4z"}, False),
    ],
)
def test_win_says_what_score_says(client: Client, situation: dict[str, Any], won: bool) -> None:
    r = client.post(
        reverse("scorer:api_win"), json.dumps(situation), content_type="application/json"
    )
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True and body["win"] is won == score(situation)["win"]
    assert body["ruleset"] == situation["ruleset"] and "fans" not in body


def test_win_refuses_bad_input_like_score(client: Client) -> None:
    bad = {"ruleset": "generic", "concealed": "123m", "win_tile": "4z", "seat_wind": ["E"]}
    r = client.post(reverse("scorer:api_win"), json.dumps(bad), content_type="application/json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == score(bad)["error"]["code"]
    assert client.get(reverse("scorer:api_win")).status_code == 405
