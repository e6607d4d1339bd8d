"""The share link and QR code name an address the other phones can open."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, override_settings

from scorer.models import GameSession
from scorer.web import lan
from tests.factories import SHORT_NAMES, make_table
from tests.pages import html

pytestmark = pytest.mark.django_db

ALLOWED = ["localhost", "127.0.0.1", "[::1]", "testserver", "mj.example.org"]


def share_of(session: GameSession, host: str) -> tuple[str, bool]:
    page = html(Client().get(f"/s/{session.code}/", HTTP_HOST=host))
    m = re.search(r'<textarea id="share-url"[^>]*>(.*?)</textarea>', page, re.S)
    assert m
    return m.group(1).strip(), 'class="share-warning"' in page


@pytest.fixture
def session() -> GameSession:
    return make_table("mcr", SHORT_NAMES)


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_on_the_loopback_only_the_page_says_how_to_serve_the_room(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_LISTEN", "127.0.0.1:8000")
    url, warned = share_of(session, "127.0.0.1:8000")
    assert url == f"http://127.0.0.1:8000/s/{session.code}/" and warned


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_served_on_all_interfaces_the_link_names_the_lan_address(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_LISTEN", "0.0.0.0:8000")
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        url, warned = share_of(session, host)
        assert url == f"http://192.168.1.23:8000/s/{session.code}/" and not warned
    # The QR code carries the same link.
    seen: list[str] = []
    import qrcode

    real = qrcode.make

    def spy(data: Any, **kw: Any) -> Any:
        seen.append(data)
        return real(data, **kw)

    monkeypatch.setattr(qrcode, "make", spy)
    Client().get(f"/s/{session.code}/qr.svg", HTTP_HOST="127.0.0.1:8000")
    assert seen == [f"http://192.168.1.23:8000/s/{session.code}/"]


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_a_machine_without_a_network_keeps_the_warning(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_LISTEN", "0.0.0.0:8000")
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    url, warned = share_of(session, "127.0.0.1:8000")
    assert url.startswith("http://127.0.0.1:8000/") and warned


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_a_public_host_is_kept_as_it_is(session: GameSession) -> None:
    url, warned = share_of(session, "mj.example.org")
    assert url == f"http://mj.example.org/s/{session.code}/" and not warned


@override_settings(ALLOWED_HOSTS=ALLOWED, PUBLIC_URL="https://mj.example.org")
def test_the_public_url_setting_wins(session: GameSession) -> None:
    url, warned = share_of(session, "127.0.0.1:8000")
    assert url == f"https://mj.example.org/s/{session.code}/" and not warned


@pytest.mark.parametrize(
    ("hostport", "split"),
    [("127.0.0.1:8000", ("127.0.0.1", "8000")), ("[::1]:8000", ("::1", "8000")),
     ("0.0.0.0:8000", ("0.0.0.0", "8000")), ("8000", ("127.0.0.1", "8000")),
     ("mj.example.org", ("mj.example.org", ""))],
)  # fmt: skip
def test_split_host(hostport: str, split: tuple[str, str]) -> None:
    assert lan.split_host(hostport) == split


def test_the_lan_address_is_no_loopback() -> None:
    address = lan.lan_address()
    assert address is None or not lan.is_loopback(address)


def test_a_phone_remembers_its_tables_for_half_a_year(session: GameSession) -> None:
    """The cookie that holds a phone's tables (and who it is at each) outlives a month."""
    client = Client()
    response = client.get(f"/s/{session.code}/")
    cookie = response.cookies["sessionid"]
    assert int(cookie["max-age"]) >= 180 * 24 * 3600


def test_make_run_says_where_to_open_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    assert "http://192.168.1.23:8000" in lan.banner("0.0.0.0:8000")
    local = lan.banner("127.0.0.1:8000")
    assert "http://127.0.0.1:8000" in local and "make run ADDR=0.0.0.0:8000" in local
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    assert "192.168" not in lan.banner("0.0.0.0:8000")


@override_settings(ALLOWED_HOSTS=ALLOWED)
@pytest.mark.parametrize(
    ("language", "said"),
    [("zh-hans", "其他手机打不开 127.0.0.1"), ("en", "Other phones cannot open 127.0.0.1")],
)
def test_the_loopback_note_is_in_the_page_language(
    session: GameSession, monkeypatch: pytest.MonkeyPatch, language: str, said: str
) -> None:
    monkeypatch.setenv("MAHJONG_LISTEN", "127.0.0.1:8000")
    client = Client()
    client.cookies["django_language"] = language
    page = html(client.get(f"/s/{session.code}/", HTTP_HOST="127.0.0.1:8000"))
    note = re.search(r'<p class="share-warning"[^>]*>(.*?)</p>', page, re.S)
    # A player's page names no developer's command (the README has it).
    assert note and said in note.group(1) and "make run" not in note.group(1)
    assert "make run" not in page and "ADDR=" not in page
