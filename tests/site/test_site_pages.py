"""Home page, language switching, CSRF for htmx, local htmx and the health check."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.pages import html

HTMX_PATH = "django_htmx/htmx-2.min.js"
# The site's name in the header, in the page's language (the heading is the room's).
# (`/` is the default room's start page: its title leads to the room's own, /r/main/.)
SITE_TITLE_ZH = '<a class="site-title" href="/r/main/">麻将计分</a>'
SITE_TITLE_EN = '<a class="site-title" href="/r/main/">Mahjong Scorer</a>'

# The home page lists the room's configurations (a database read).
pytestmark = pytest.mark.django_db


def test_home_is_chinese_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = html(response)
    assert '<html lang="zh-hans">' in page
    # Headed by the room (the default one's name, as its owner left it), under the site's.
    assert "<title>棋牌室</title>" in page
    assert '<h1 class="place-head">棋牌室</h1>' in page
    assert SITE_TITLE_ZH in page
    assert response["Content-Language"] == "zh-hans"


def test_home_in_english_from_accept_language(client: Client) -> None:
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.9"})
    page = html(response)
    assert '<html lang="en">' in page
    assert SITE_TITLE_EN in page
    assert "麻将计分" not in page


def test_home_in_english_from_language_cookie(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = html(client.get("/", headers={"accept-language": "zh-CN"}))
    assert SITE_TITLE_EN in page


def test_language_switch_form_with_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    page = html(client.get("/"))
    assert 'action="/i18n/setlang/"' in page
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match, "the language form carries a CSRF token"

    # Without the token the switch is refused ...
    assert client.post("/i18n/setlang/", {"language": "en", "next": "/"}).status_code == 403
    # ... with it, the language cookie is set and the next page is English.
    response = client.post(
        "/i18n/setlang/",
        {"language": "en", "next": "/", "csrfmiddlewaretoken": match.group(1)},
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert SITE_TITLE_EN in html(client.get("/"))

    # And back to Chinese.
    page = html(client.get("/"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    client.post(
        "/i18n/setlang/",
        {"language": "zh-hans", "next": "/", "csrfmiddlewaretoken": token.group(1)},
    )
    assert SITE_TITLE_ZH in html(client.get("/"))


def test_body_sends_csrf_token_to_htmx(client: Client) -> None:
    response = client.get("/")
    match = re.search(r"<body hx-headers='([^']+)'>", html(response))
    assert match, "the <body> carries hx-headers"
    headers = json.loads(match.group(1))
    assert set(headers) == {"X-CSRFToken"}
    assert len(headers["X-CSRFToken"]) >= 32
    assert settings.CSRF_COOKIE_NAME in response.cookies


def test_mobile_viewport(client: Client) -> None:
    page = html(client.get("/"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


def test_htmx_is_served_locally(client: Client) -> None:
    page = html(client.get("/"))
    sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', page)
    assert f"/static/{HTMX_PATH}" in sources
    assert all(src.startswith("/static/") for src in sources), sources  # no CDN
    assert finders.find(HTMX_PATH)
    response = client.get(f"/static/{HTMX_PATH}")
    assert response.status_code == 200
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert b"htmx" in body


def test_site_css_is_served(client: Client) -> None:
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html(client.get("/"))
    response = client.get("/static/css/site.css")
    assert response.status_code == 200


def test_template_partials_loader() -> None:
    with translation.override("en"):
        fragment = render_to_string("scorer/home.html#intro")
    assert "Score a hand at the table" in fragment
    assert "<h1>" not in fragment


def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"ok": True}


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_healthz_is_read_only(client: Client, method: str) -> None:
    assert getattr(client, method)("/healthz").status_code == 405


def test_unknown_page_is_404(client: Client) -> None:
    assert client.get("/no-such-page").status_code == 404


def test_pages_carry_a_content_security_policy(client: Client) -> None:
    """Scripts and styles from the site only, none inline, no eval (the browser tests
    fail on any violation the pages cause)."""
    csp = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";") if d.strip())
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe" not in csp
    page = html(client.get("/"))
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script
    assert not re.search(r"\sstyle=\"|\son[a-z]+=\"", page)  # no inline style or handler
