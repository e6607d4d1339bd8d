"""Two phones confirm the same round at the same moment, served by two processes.

Each phone is a separate Python process (as two gunicorn workers would be) that
posts its own form for round 1 through the HTTP flow (Django's test client,
the whole middleware stack) against the same PostgreSQL database, released at
the same instant.  Exactly one round is recorded; the other phone is asked
(409, "第 1 局刚被记录").  SQLite serialises writers on one file and the test
database lives in memory, so this runs on PostgreSQL only (CI runs both).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from scorer.models import GameSession, Round
from tests.factories import SHORT_NAMES, make_table
from tests.support.phone import Phone, winning_phone

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]

PHONE = textwrap.dedent(
    """
    import json, os, sys, time
    import django
    django.setup()
    from django.test import Client
    url, state, start = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
    client = Client()
    while time.time() < start:
        time.sleep(0.001)
    response = client.post(url, {**state, "confirm": "1"})
    body = response.content.decode()
    print(json.dumps({"status": response.status_code, "asked": "第 1 局刚被记录" in body}))
    """
)


def _database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def child_env() -> dict[str, str]:
    """The environment of a child process serving the site on this test's database."""
    return {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "mahjong_site.settings",
        "DJANGO_ALLOW_INSECURE_KEY": "1",
        "DJANGO_STATIC_MANIFEST": "0",
        "PYTHONPATH": str(ROOT),
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }


@pytest.mark.skipif("postgres" not in os.environ.get("DATABASE_URL", ""), reason="needs PostgreSQL")
def test_two_processes_confirming_round_one_record_it_once() -> None:
    assert connection.vendor == "postgresql"
    session = make_table("mcr", SHORT_NAMES)
    forms = [winning_phone(Phone(Client(), session)) for _ in range(2)]
    env = child_env()
    start = time.time() + 3.0  # both processes are up and waiting by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", PHONE, p.confirm_url, json.dumps(p.state), str(start)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in forms
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted(r["status"] for r in results) == [302, 409]
    assert [r["asked"] for r in results if r["status"] == 409] == [True]
    assert list(Round.objects.filter(session=session).values_list("number", flat=True)) == [1]
    assert GameSession.objects.get(pk=session.pk).version == 1


MANY = textwrap.dedent(
    """
    import html, json, re, sys, time
    import django
    django.setup()
    from django.test import Client
    code, rounds, start = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    hidden = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
    def state(page):
        s = {k: html.unescape(v) for k, v in hidden.findall(page) if k != "csrfmiddlewaretoken"}
        m = re.search(r'<select name="dealer">.*?<option value="([^"]*)" selected', page, re.S)
        s["dealer"], s["wind"] = m.group(1), "E"
        return s
    client = Client()
    while time.time() < start:
        time.sleep(0.001)
    tokens, asked = [], 0
    for i in range(rounds):
        s = state(client.get(f"/s/{code}/record").content.decode())
        s.update(winner="1", discarder="2", hand="111222333m456p7z", win_tile="7z")
        while True:
            r = client.post(f"/s/{code}/record/confirm", {**s, "confirm": "1"})
            if r.status_code == 302:
                break
            assert r.status_code == 409, r.status_code
            asked += 1  # another process took this round: record it as the next one
            page = client.post(f"/s/{code}/record/preview", {**s, "tap": "taken:next"},
                               HTTP_HX_REQUEST="true").content.decode()
            s = {**state(page), "winner": "1", "discarder": "2",
                 "hand": "111222333m456p7z", "win_tile": "7z"}
        tokens.append(s["token"])
    print(json.dumps({"tokens": tokens, "asked": asked}))
    """
)


@pytest.mark.skipif("postgres" not in os.environ.get("DATABASE_URL", ""), reason="needs PostgreSQL")
def test_two_processes_recording_different_rounds_lose_and_double_none() -> None:
    """Two phones, each recording its own rounds as fast as it can: every round is
    recorded once, numbered without a gap; a phone that finds its round taken is
    asked, and records its hand as the next round."""
    session = make_table("mcr", SHORT_NAMES)
    env = child_env()
    each = 6
    start = time.time() + 3.0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", MANY, session.code, str(each), str(start)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for _ in range(2)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, 2 * each + 1))  # none lost, no gap
    tokens = sorted(str(r.token) for r in rounds)
    assert tokens == sorted(t for r in results for t in r["tokens"])  # each form once
    assert GameSession.objects.get(pk=session.pk).version == 2 * each
