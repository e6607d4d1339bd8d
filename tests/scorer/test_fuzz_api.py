"""Fuzzing the HTTP API with malformed requests.

Whatever arrives at /api/score, /api/win, /api/settle or /api/sessions/<code> (a mutated
situation or round as JSON, with NaN and lone surrogates among the values;
random bytes; the wrong method or content type; a body over the upload limit),
the answer is never a 5xx, always strict JSON (no NaN, valid UTF-8), every
refusal is the error object with a code and a message in both languages, and
a settled round's deltas sum to zero.  The upload limit is lowered for the
run so that an oversized body costs kilobytes, not megabytes
(tests/scorer/test_scorer_api_edge.py sends one over Django's real limit).
The pages' doors (table import with mutated exports, the forms) are fuzzed the
same way in tests/scorer/test_fuzz_forms.py.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import ERROR_CODES
from tests.rules.fuzz_inputs import ROUNDS, SITUATIONS, Mutated, mutated

LIMIT = 4096  # DATA_UPLOAD_MAX_MEMORY_SIZE for the run (every template is far below it)
API_CODES = {*ERROR_CODES, "not_found", "server_error"}
JSON_TYPES = ["application/json", "application/json; charset=utf-8", "application/problem+json"]
OTHER_TYPES = ["text/plain", "application/x-www-form-urlencoded", "text/html", ""]
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes
    content_type: str
    case: Mutated | None  # the mutated situation or round the body is made of, if any

    @property
    def too_big(self) -> bool:
        return len(self.body) > LIMIT

    @property
    def json_type(self) -> bool:
        return self.content_type in JSON_TYPES


def not_strict(value: Any) -> bool:
    """NaN, Infinity or a lone surrogate anywhere in a value (key or value)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, str):
        return bool(_SURROGATE.search(value))
    if isinstance(value, dict):
        return any(not_strict(k) or not_strict(v) for k, v in value.items())
    if isinstance(value, list):
        return any(map(not_strict, value))
    return False


@st.composite
def requests(draw: st.DrawFn) -> Request:
    endpoint = draw(
        st.sampled_from(["score", "score", "win", "settle", "settle", "settle", "session"])
    )
    method = draw(st.sampled_from(["POST"] * 10 + ["GET", "PUT", "DELETE"]))
    if endpoint == "session":
        code = draw(st.text(max_size=12))
        method = draw(st.sampled_from(["GET", "GET", "HEAD", "POST"]))
        return Request(method, "/api/sessions/" + quote(code, safe=""), b"", "", None)
    case: Mutated | None = None
    kind = draw(st.sampled_from(["json"] * 8 + ["bytes", "text"]))
    if kind == "json":
        case = draw(mutated(ROUNDS if endpoint == "settle" else SITUATIONS))
        # json.dumps writes NaN and Infinity as such and "\ud800" as an escape: what a
        # careless client sends.
        text = json.dumps(case.value)
        body = text.encode()
    elif kind == "bytes":
        body = draw(st.binary(max_size=40))
    else:
        body = draw(st.text(max_size=40)).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        body += b" " * (LIMIT + 1 - len(body))  # still the same JSON, one byte too many
    ctype = draw(st.sampled_from(JSON_TYPES * 3 + OTHER_TYPES))
    return Request(method, f"/api/{endpoint}", body, ctype, case)


def strict_json(content: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in an answer: strict JSON parsers refuse it")

    return json.loads(content.decode("utf-8"), parse_constant=refuse)


def check(req: Request, status: int, ctype: str, content: bytes) -> None:
    assert status < 500, (req, status, content[:300])
    assert ctype == "application/json", (req, status, ctype, content[:300])
    body = strict_json(content) if req.method != "HEAD" else None
    if body is not None and status >= 400:
        error = body["error"]
        assert error["code"] in API_CODES, body
        assert isinstance(error["message"], str) and error["message"], body
        assert isinstance(error["message_zh"], str) and error["message_zh"], body
        assert error["message_zh"] != error["message"], ("no Chinese message", body)
    elif body is not None and not req.path.startswith("/api/sessions/"):
        assert body.get("ok") is True, body
        if "deltas" in body:
            assert sum(body["deltas"]) == 0, body
    if req.path.startswith("/api/sessions/"):
        return
    # What the status must be, in the order the edge checks it.
    if req.method != "POST":
        assert status == 405, (req, status)
    elif req.too_big:
        assert status == 413, (req, status)
    elif req.body and not req.json_type:
        assert status == 415, (req, status)
    elif req.case is not None and (not_strict(req.case.value) or req.case.ints_broken):
        assert status == 400, (req, status, body)


@pytest.mark.django_db
@settings(
    max_examples=800,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(requests())
def test_every_api_answer_is_strict_json_and_never_a_5xx(req: Request) -> None:
    client = Client()
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=LIMIT):
        response = client.generic(req.method, req.path, req.body, content_type=req.content_type)
    check(req, response.status_code, response["Content-Type"], response.content)
