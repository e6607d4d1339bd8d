"""The JSON API's edge: every refusal is the JSON error object, and every answer is
strict JSON (no NaN, no lone surrogate), whatever the body."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.support.api import SITUATION

ROUND = {
    "ruleset": "sichuan",
    "players": 4,
    "events": [{"type": "win", "discarder": 2, "winners": [{"seat": 0, "fans": {"3": 1}}]}],
}


def strict(content: bytes) -> Any:
    """The body as a strict JSON parser (JavaScript's JSON.parse) reads it."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in the answer")

    text = content.decode("utf-8")  # strict: a lone surrogate cannot have been encoded
    return json.loads(text, parse_constant=refuse)


def refused(response: Any, status: int, code: str = "bad_input") -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = strict(response.content)
    assert body["ok"] is False and body["error"]["code"] == code, body
    assert body["error"]["message"] and body["error"]["message_zh"]
    return body


def post(client: Client, name: str, raw: str | bytes, ctype: str = "application/json") -> Any:
    return client.post(reverse(name), raw, content_type=ctype)


@pytest.mark.parametrize("name", ["scorer:api_score", "scorer:api_settle"])
@pytest.mark.parametrize(
    "raw",
    [
        '{"id": NaN, "ruleset": "mcr"}',
        '{"id": Infinity}',
        '{"id": -Infinity}',
        '{"id": 1e400}',
        '{"id": [1, {"x": NaN}]}',
    ],
)
def test_non_finite_numbers_are_bad_input_never_echoed(client: Client, name: str, raw: str) -> None:
    body = refused(post(client, name, raw), 400)
    assert body["id"] is None


@pytest.mark.parametrize("name", ["scorer:api_score", "scorer:api_settle"])
@pytest.mark.parametrize(
    "raw",
    [
        b'{"id": "\\ud800", "ruleset": "mcr"}',
        b'{"id": "a\\udfffb"}',
        b'{"\\ud800": 1}',
        b'{"id": "\xed\xa0\x80"}',  # the surrogate encoded as (invalid) UTF-8
    ],
)
def test_a_lone_surrogate_is_bad_input_not_a_500(client: Client, name: str, raw: bytes) -> None:
    refused(post(client, name, raw), 400)


def test_a_surrogate_pair_is_one_character_and_echoed(client: Client) -> None:
    raw = json.dumps({**SITUATION, "id": "🀄 中"})  # ensure_ascii: "\ud83c\udc04"
    assert "\\ud83c" in raw
    response = post(client, "scorer:api_score", raw)
    assert response.status_code == 200
    assert strict(response.content)["id"] == "🀄 中"


@pytest.mark.parametrize("name", ["scorer:api_score", "scorer:api_settle"])
def test_a_body_over_the_upload_limit_gets_the_json_error(client: Client, name: str) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert limit == 2_621_440  # Django's default, the limit a body just over it meets
    raw = json.dumps({**SITUATION, "pad": " " * limit})
    body = refused(post(client, name, raw), 413)
    assert str(limit) in body["error"]["message"]


@pytest.mark.parametrize("name", ["scorer:api_score", "scorer:api_settle"])
@pytest.mark.parametrize(
    "ctype", ["text/plain", "application/x-www-form-urlencoded", "text/json", "application/xml"]
)
def test_a_body_that_is_not_declared_json_is_415(client: Client, name: str, ctype: str) -> None:
    refused(post(client, name, json.dumps(SITUATION), ctype), 415)


def test_a_body_without_a_content_type_is_415(client: Client) -> None:
    response = client.generic(
        "POST", reverse("scorer:api_score"), json.dumps(SITUATION).encode(), content_type=""
    )
    refused(response, 415)


@pytest.mark.parametrize("ctype", ["application/json; charset=utf-8", "application/problem+json"])
def test_json_content_types_with_parameters_or_suffix_pass(client: Client, ctype: str) -> None:
    assert post(client, "scorer:api_score", json.dumps(SITUATION), ctype).status_code == 200
    assert post(client, "scorer:api_settle", json.dumps(ROUND), ctype).status_code == 200


@pytest.mark.parametrize(
    ("method", "name", "allow"),
    [("get", "scorer:api_score", "POST"), ("put", "scorer:api_settle", "POST")],
)
def test_a_wrong_method_is_the_json_error_with_allow(
    client: Client, method: str, name: str, allow: str
) -> None:
    response = getattr(client, method)(reverse(name))
    refused(response, 405)
    assert response["Allow"] == allow


@pytest.mark.django_db
def test_the_session_endpoint_refuses_post_with_the_json_error(client: Client) -> None:
    response = client.post(reverse("scorer:api_session", args=["ABCDEF"]))
    refused(response, 405)
    assert response["Allow"] == "GET, HEAD"


def test_players_4_0_and_a_list_wind_are_400_over_http(client: Client) -> None:
    refused(
        post(client, "scorer:api_settle", json.dumps({**ROUND, "players": 4.0})), 400, "bad_table"
    )
    sit = {**SITUATION, "seat_wind": ["E"]}
    refused(post(client, "scorer:api_score", json.dumps(sit)), 400)
    rnd = json.loads(json.dumps(ROUND))
    rnd["events"][0]["winners"][0]["fans"] = {"3": 1.7}
    refused(post(client, "scorer:api_settle", json.dumps(rnd)), 400)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/", "/api/nothing", "/api/sessions/", "/api/score/extra"])
def test_an_unknown_api_address_is_the_json_404(client: Client, path: str) -> None:
    refused(client.get(path), 404, "not_found")


@pytest.mark.django_db
def test_pages_outside_the_api_keep_the_html_404(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_server_error_in_the_api_is_the_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    import scorer.views.api as api

    def boom(situation: Any) -> Any:
        raise RuntimeError("on purpose")

    monkeypatch.setattr(api, "score_situation", boom)
    response = Client(raise_request_exception=False).post(
        reverse("scorer:api_score"), json.dumps(SITUATION), content_type="application/json"
    )
    refused(response, 500, "server_error")


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["%00", "a%00b", "x" * 33, "%F0%9F%80%84", "a%20b"])
def test_a_code_that_cannot_be_one_is_404_on_every_database(client: Client, code: str) -> None:
    """PostgreSQL refused a NUL byte in the lookup with a 500 (found by the API fuzz test)."""
    refused(client.get("/api/sessions/" + code), 404, "not_found")
    assert client.get(f"/s/{code}/").status_code == 404
