"""Under a WSGI server a live stream never holds a worker.

gunicorn with 2 sync workers (its default worker, as `gunicorn mahjong_site.wsgi`
runs), on PostgreSQL: four table pages are opened with their event streams, the
streams' sockets kept open as a browser keeps them, and meanwhile a phone opens
the record page and confirms a round and every phone polls its tallies for longer
than gunicorn's worker timeout.  Every one of those is answered, the streams are
answered "poll" at once, and no worker is killed (the same worker processes at the
end, no `WORKER TIMEOUT`, nothing logged at ERROR).  Before, each stream held a
worker until the timeout killed it, and the record page waited behind them.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import RequestFactory

from scorer.live.streams import POLL_INSTEAD
from scorer.models import Round
from tests.factories import make_table
from tests.support.wsgi_phone import MCR_WIN, Browser, confirm, open_form

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["甲", "乙", "丙", "丁"]
TIMEOUT = 4  # gunicorn's worker timeout here (30 s by default): the test outlasts it
ON_POSTGRES = "postgres" in os.environ.get("DATABASE_URL", "")


def wsgi_answer(method: str, path: str) -> tuple[str, dict[str, str], bytes]:
    from mahjong_site.wsgi import application

    environ = RequestFactory().generic(method, path).environ
    said: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        said.update(status=status, headers=dict(headers))

    body = b"".join(application(dict(environ), start_response))
    return said["status"], said["headers"], body


@pytest.mark.django_db(transaction=True)  # (Django's handler closes the connection)
def test_the_wsgi_app_answers_a_stream_poll_instead_and_everything_else_as_django() -> None:
    s = make_table("mcr", NAMES)
    status, headers, body = wsgi_answer("GET", f"/s/{s.code}/events")
    assert status == "200 OK" and headers["Content-Type"].startswith("text/event-stream")
    assert body == POLL_INSTEAD and b"event: poll\n" in body
    assert wsgi_answer("GET", "/r/main/manage/events")[2] == POLL_INSTEAD
    assert wsgi_answer("GET", "/r/main/league/events")[2] == POLL_INSTEAD
    assert wsgi_answer("POST", f"/s/{s.code}/events")[0].startswith("405")
    status, _, body = wsgi_answer("GET", f"/s/{s.code}/")
    assert status == "200 OK" and f'sse-connect="/s/{s.code}/events' in body.decode()


# ---------------------------------------------------------------------- gunicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (gunicorn's master: its workers)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


class Gunicorn:
    def __init__(self, log: Path) -> None:
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
        env.update(
            DATABASE_URL=database_url(),
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            MAHJONG_LIVE_BROKER="postgres",  # as deployed on PostgreSQL
            MAHJONG_LIVE_STREAM_SECONDS="1800",  # a stream that would be held: as deployed
            PYTHONPATH=str(ROOT),
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "mahjong_site.wsgi",
             "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
             "--timeout", str(TIMEOUT), "--graceful-timeout", "2",
             "--log-level", "info", "--error-logfile", str(log)],
            cwd=ROOT, env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while len(self.workers()) < 2 or not self.answers():
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)

    def workers(self) -> set[int]:
        return children(self.proc.pid)

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=15)


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(tmp_path / "gunicorn.log")
    yield server
    server.stop()


def open_stream(base: str, path: str) -> socket.socket:
    """A stream opened as a browser's EventSource opens it; the socket is left open."""
    sock = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=TIMEOUT)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n".encode()
    )
    return sock


def read_answer(sock: socket.socket) -> bytes:
    """What the server says on the stream, up to its end (within the timeout)."""
    data = b""
    while b"\r\n\r\n" not in data or not data.endswith(POLL_INSTEAD):
        chunk = sock.recv(4096)  # socket.timeout: the stream was held
        if not chunk:
            break
        data += chunk
    return data


def poll(phone: Browser, code: str) -> int:
    """The tallies' poll, as the page's every-3-s trigger sends it."""
    headers = {"HX-Request": "true", "X-Live-Poll": "1"}
    request = urllib.request.Request(f"{phone.base}/s/{code}/tallies", headers=headers)
    with phone.opener.open(request, timeout=TIMEOUT * 2) as answer:
        phone.log.append(answer.status)
        return int(answer.status)


@pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_gunicorn_sync_workers_answer_the_record_page_a_confirm_and_every_poll_with_four_tables_streaming(
    gunicorn: Gunicorn,
) -> None:
    assert connection.vendor == "postgresql"
    tables = [make_table("mcr", NAMES) for _ in range(4)]
    workers = gunicorn.workers()
    assert len(workers) == 2
    log: list[int] = []
    phones = [Browser(gunicorn.base, log) for _ in tables]
    streams = []
    started = time.monotonic()
    for phone, table in zip(phones, tables, strict=True):
        page = phone.get(f"/s/{table.code}/")
        assert page.status == 200
        match = re.search(r'sse-connect="([^"]+)"', page.body)
        assert match is not None
        streams.append(open_stream(gunicorn.base, match.group(1).replace("&amp;", "&")))
    try:
        # The streams' sockets stay open; the record page, a confirm, and the polls.
        first, code = phones[0], tables[0].code
        state = {**open_form(first, code), **MCR_WIN}
        assert confirm(first, code, state).status == 302
        polls = 0
        while time.monotonic() - started < TIMEOUT + 3:  # past gunicorn's timeout
            for phone, table in zip(phones, tables, strict=True):
                t0 = time.monotonic()
                assert poll(phone, table.code) == 200
                assert time.monotonic() - t0 < TIMEOUT
                polls += 1
            time.sleep(0.5)
        assert polls >= 4 * 3
        for sock in streams:  # each was answered "poll" at once, and ended
            said = read_answer(sock)
            assert said.startswith(b"HTTP/1.1 200 ") and said.endswith(POLL_INSTEAD), said
    finally:
        for sock in streams:
            sock.close()
    assert Round.objects.filter(session__code=code).count() == 1
    assert gunicorn.workers() == workers, "a worker was replaced"
    text = gunicorn.log.read_text()
    assert "WORKER TIMEOUT" not in text and "[ERROR]" not in text and "Traceback" not in text
    assert not [s for s in log if s >= 500]
