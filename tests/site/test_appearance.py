"""What a phone keeps and asks of the site beyond the pages: the large-text mode
(a cookie, drawn by the server), the web app manifest and its icons, the favicon,
the page description, and the 中/EN button only where there are two languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from scorer.views.appearance import LARGE_TEXT_COOKIE
from tests.factories import SHORT_NAMES, make_table, record
from tests.pages import html

pytestmark = pytest.mark.django_db


def test_large_text_is_set_per_phone_and_drawn_by_the_server(client: Client) -> None:
    home = html(client.get("/"))
    assert '<html lang="zh-hans">' in home  # no class: normal size
    assert 'name="large" value="1"' in home and 'aria-pressed="false"' in home
    response = client.post(reverse("scorer:text_size"), {"large": "1", "next": "/s/new?x=1"})
    assert response.status_code == 302 and response["Location"] == "/s/new?x=1"
    cookie = response.cookies[LARGE_TEXT_COOKIE]
    assert cookie.value == "1" and int(cookie["max-age"]) >= 300 * 24 * 3600
    home = html(client.get("/"))
    assert '<html lang="zh-hans" class="large-text">' in home
    assert 'name="large" value="0"' in home
    # Off again: the cookie goes, the page is drawn at normal size.
    client.post(reverse("scorer:text_size"), {"large": "0", "next": "/"})
    assert 'class="large-text"' not in html(client.get("/"))
    # A phone that never chose sees no difference from another that turned it off.
    assert 'class="large-text"' not in html(Client().get("/"))


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", ""])
def test_text_size_goes_back_only_to_this_site(client: Client, target: str) -> None:
    response = client.post(reverse("scorer:text_size"), {"large": "1", "next": target})
    assert response.status_code == 302 and response["Location"] == "/"


def test_text_size_takes_only_a_post(client: Client) -> None:
    assert client.get(reverse("scorer:text_size")).status_code == 405


def _static_path(url: str) -> Path:
    assert url.startswith("/static/"), url
    found = finders.find(url.removeprefix("/static/"))
    assert found, f"{url} is not a static file"
    return Path(str(found))


def test_manifest_names_the_app_and_icons_that_exist(client: Client) -> None:
    page = html(client.get("/"))
    assert f'<link rel="manifest" href="{reverse("scorer:manifest")}">' in page
    response = client.get(reverse("scorer:manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert (
        data["name"] == "麻将计分" and data["start_url"] == "/" and data["display"] == "standalone"
    )
    sizes = set()
    for icon in data["icons"]:
        path = _static_path(icon["src"])
        if icon["type"] == "image/png":
            head = path.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes  # what Android asks for a home-screen icon and its splash
    assert any(i.get("purpose") == "maskable" for i in data["icons"])
    english = Client(headers={"cookie": "django_language=en"}).get(reverse("scorer:manifest"))
    assert json.loads(english.content)["name"] == "Mahjong Scorer"


def test_every_page_links_its_icons_and_says_what_it_is(client: Client) -> None:
    page = html(client.get("/"))
    assert '<meta name="description" content="在牌桌上给麻将计分' in page
    for rel in ('rel="icon"', 'rel="apple-touch-icon"'):
        assert rel in page
    icons = [part.split('"')[0] for part in page.split('href="')[1:] if "/icons/" in part[:40]]
    assert len(icons) == 3
    for url in icons:
        _static_path(url)
    assert page.count('<meta name="theme-color"') == 2  # light and dark


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    _static_path(response["Location"])


def test_the_language_toggle_is_in_the_html_where_it_applies(client: Client) -> None:
    """Rendered by the server (it was shown by script after load, and moved the header)."""
    session = make_table("mcr", SHORT_NAMES)
    record(session)
    base = f"/s/{session.code}/"
    for url, offered in (
        ("/", False),
        (base, False),
        (base + "rounds/1/", True),
        (base + "record", True),
        (base + "ledger", True),
    ):
        page = html(client.get(url))
        assert ('class="bi-toggle"' in page) is offered, url
        assert 'bi-toggle" aria-pressed="false" hidden' not in page
