"""A phone that talks HTTP to a real WSGI server (not the test client): two of them
race on one table."""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from tests.support.state import state_of

MCR_WIN = {"winner": "1", "discarder": "2", "hand": "111222333m456p7z", "win_tile": "7z"}


class Browser:
    """One phone: its own cookies (session, CSRF, messages), talking HTTP to `base`."""

    def __init__(self, base: str, log: list[int]) -> None:
        self.base = base
        self.log = log
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def _send(self, request: urllib.request.Request) -> Answer:
        try:
            with self.opener.open(request, timeout=60) as r:
                answer = Answer(r.status, r.read().decode(), dict(r.headers))
        except urllib.error.HTTPError as e:
            answer = Answer(e.code, e.read().decode(), dict(e.headers))
        self.log.append(answer.status)
        return answer

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> Answer:
        csrf = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
        headers = {"HX-Request": "true"} if htmx else {}
        return self._send(urllib.request.Request(self.base + path, body, headers, method="POST"))


def open_form(phone: Browser, code: str, query: str = "") -> dict[str, str]:
    page = phone.get(f"/s/{code}/record{query}")
    assert page.status == 200, page.status
    return state_of(page.body)


def confirm(phone: Browser, code: str, state: dict[str, str]) -> Answer:
    return phone.post(f"/s/{code}/record/confirm", {**state, "confirm": "1"})


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 302 is an answer to look at, not to follow
