"""Eight phones at once against a live server, through the real HTTP flow.

Two server processes (`manage.py runserver`, threaded: the README's `make run`)
serve the suite's database: on PostgreSQL the test database itself, on SQLite
a file (the in-memory test database is copied to it and back, since server
processes cannot share memory).  Eight clients, each with its own cookies,
CSRF token and one-time form tokens, are released at the same instant
(a barrier) onto the same table, in bursts:

* the same form confirmed by every phone: recorded once, every phone told so;
* every phone recording its own hand for the same round: one is recorded, the
  others are asked ("第 N 局刚被记录", 409) and record theirs as the next round;
* every phone correcting the same round from the same revision: one correction,
  the others refused as a stale correction is refused one after another (409);
* every phone undoing the last round it saw: one round undone;
* 四川 with 血战 off: every phone recording the same win: one round.

Then: no answer 5xx, every round recorded exactly once, tallies summing to zero,
and every round's versions numbered without a gap, the last one current.
Loopback only; 8-25 s on a loaded 2-core machine (most of it the servers starting).
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from scorer.models import Round, Transfer
from tests.factories import make_table
from tests.support.state import state_of
from tests.support.wsgi_phone import MCR_WIN, Browser, confirm, open_form

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
N = 8
NAMES = ["甲", "乙", "丙", "丁"]
SICHUAN_WIN = {"winner": "1", "discarder": "2", "hand": "111222p3334455s", "win_tile": "5s"}
TAKEN = re.compile(r"第 (\d+) 局刚被记录")
STALE = "这一局刚刚在另一部手机上改过"
CHANGED = "这一局刚被别的手机改过了"


def at_once(phones: list[Browser], act: Callable[[int, Browser], Any]) -> list[Any]:
    """Run `act` for every phone in its own thread, all released at the same instant."""
    barrier = threading.Barrier(len(phones))
    results: list[Any] = [None] * len(phones)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = act(i, phones[i])
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(phones))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if errors:
        raise errors[0]
    return results


# ---------------------------------------------------------------- the servers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_database(tmp: Path) -> str:
    """The DATABASE_URL the servers use: this test's database, as a file for SQLite."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        target = sqlite3.connect(tmp / "db.sqlite3")
        connection.connection.backup(target)  # the migrated schema and the tables set up
        target.close()
        return f"sqlite:///{tmp / 'db.sqlite3'}"
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def _take_back(tmp: Path) -> None:
    """SQLite: what the servers wrote, back into the test database for the checks."""
    if connection.vendor != "sqlite":
        return
    source = sqlite3.connect(tmp / "db.sqlite3")
    source.execute("PRAGMA journal_mode=DELETE")  # the WAL folded in: a plain file to copy
    source.backup(connection.connection)
    source.close()


class Servers:
    """Two server processes on the loopback, on this test's database."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> list[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "MAHJONG_LISTEN")}
        env.update(
            DATABASE_URL=_server_database(self.tmp),
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            DJANGO_ALLOW_INSECURE_KEY="1",
            DJANGO_STATIC_MANIFEST="0",
            PYTHONPATH=str(ROOT),
        )
        bases = []
        for _ in range(2):
            port = _free_port()
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        for base in bases:
            while not _answers(base):
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        return bases

    def stop(self) -> None:
        """Stop the servers; on SQLite what they wrote comes back for the checks."""
        if not self.procs:
            return
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.wait(timeout=10)
        self.procs = []
        _take_back(self.tmp)


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as r:
            return bool(r.status == 200)
    except OSError:
        return False


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    s = Servers(tmp_path)
    yield s
    s.stop()


# ---------------------------------------------------------------- the phones' steps


def open_event_form(phone: Browser, code: str) -> dict[str, str]:
    page = phone.get(f"/s/{code}/record?kind=win")
    assert page.status == 200, page.status
    return state_of(page.body)


def record_mine(phone: Browser, code: str) -> tuple[str, int]:
    """Record this phone's own hand: when another phone took the round, the phone is
    asked and records it as the next round.  (its token, how often it was asked)"""
    state = {**open_form(phone, code), **MCR_WIN}
    asked = 0
    while True:
        answer = confirm(phone, code, state)
        if answer.status == 302:
            return state["token"], asked
        assert answer.status == 409, answer.status
        assert TAKEN.search(answer.body), "refused without saying why"
        asked += 1
        page = phone.post(f"/s/{code}/record/preview", {**state, "tap": "taken:next"}, htmx=True)
        assert page.status == 200, page.status
        state = {**state_of(page.body), **MCR_WIN}


def flash(phone: Browser, code: str) -> str:
    """The message the session page shows this phone after its last step."""
    page = phone.get(f"/s/{code}/")
    assert page.status == 200, page.status
    return page.body


# ---------------------------------------------------------------- the test


def test_eight_phones_at_once_on_a_live_server(servers: Servers) -> None:
    mcr = make_table("mcr", NAMES)
    sichuan = make_table("sichuan", NAMES, params={"blood_battle": False})
    sichuan.params = dict(sichuan.rules.params)
    sichuan.save()
    bases = servers.start()
    log: list[int] = []
    phones = [Browser(bases[i % 2], log) for i in range(N)]
    for p in phones:
        assert p.get("/").status == 200  # the CSRF cookie
    code = mcr.code

    # The same form (one token) confirmed by every phone at once: one round.
    tokens = []
    for _ in range(2):
        state = {**open_form(phones[0], code), **MCR_WIN}
        tokens.append(state["token"])
        answers = at_once(phones, lambda i, p, s=state: confirm(p, code, s))
        assert [a.status for a in answers] == [302] * N

    # Every phone its own form for the same round: each hand recorded once, in turn.
    asked = 0
    for _ in range(2):
        mine = at_once(phones, lambda i, p: record_mine(p, code))
        tokens += [t for t, _ in mine]
        asked += sum(n for _, n in mine)
    assert asked > 0  # they did race for the same round

    # Every phone corrects the last round from the revision it opened: one correction.
    last = len(tokens)
    for burst in range(2):
        edits = [
            {**state_of(p.get(f"/s/{code}/rounds/{last}/edit").body), "confirm": "1"}
            for p in phones
        ]
        # The form carries the revision it was made from.
        assert {e["base"] for e in edits} == {str(burst + 1)}
        # Eight different corrections: the flowers (0-8) other than the ones it has.
        flowers = [str(f) for f in range(9) if str(f) != edits[0]["flowers"]]
        answers = at_once(
            phones,
            lambda i, p, e=edits, f=flowers: p.post(
                f"/s/{code}/rounds/{last}/edit", {**e[i], "flowers": f[i]}
            ),
        )
        statuses = sorted(a.status for a in answers)
        assert statuses == [302] + [409] * (N - 1), statuses
        # Refused like a correction made after another one was saved, the current
        # version (the one correction that went through) shown above the entry.
        shown = f"现在记下的是第 {burst + 2} 版"
        assert all(STALE in a.body and shown in a.body for a in answers if a.status == 409)

    # Every phone undoes the last round it saw: one round undone.
    for number in (last, last - 1):
        answers = at_once(
            phones, lambda i, p, n=number: p.post(f"/s/{code}/undo", {"round": str(n)})
        )
        assert [a.status for a in answers] == [302] * N
        said = [flash(p, code) for p in phones]
        assert sum(f"已撤销第 {number} 局" in s for s in said) == 1
        assert sum(f"没有撤销：最后一笔现在是第 {number - 1} 局" in s for s in said) == N - 1

    # 四川, 血战 off: every phone records the same win for the same round: one round.
    # The second time the round is under way (a kong recorded): the phones that lose
    # are told the round changed meanwhile, and the round they meant is taken.
    for burst in range(2):
        if burst == 1:
            kong = {**open_event_form(phones[0], sichuan.code), "kind": "kong"}
            kong.update(player="3", kong="concealed", kong_tile="9m")
            assert confirm(phones[0], sichuan.code, kong).status == 302
        forms = [{**open_event_form(p, sichuan.code), **SICHUAN_WIN} for p in phones]
        assert {f["for_round"] for f in forms} == {str(burst + 1)}
        answers = at_once(phones, lambda i, p, f=forms: confirm(p, sichuan.code, f[i]))
        statuses = sorted(a.status for a in answers)
        assert statuses[0] == 302 and statuses[1:] == [statuses[1]] * (N - 1), statuses
        assert statuses[1] in (400, 409), statuses  # asked, or told the round changed
        refused = [a.body for a in answers if a.status != 302]
        assert all(TAKEN.search(b) for b in refused)
        assert all(CHANGED in b for b in refused) == (burst == 1)

    assert log and max(log) < 500, sorted(set(log))

    # What the servers wrote: every hand once, the corrections and undos once each.
    servers.stop()
    rounds = list(Round.objects.filter(session=mcr).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, len(tokens) + 1))
    assert sorted(str(r.token) for r in rounds) == sorted(tokens)
    assert [r.number for r in rounds if r.status == Round.UNDONE] == [last - 1, last]
    assert [r.current.number if r.current else 0 for r in rounds][-1] == 3
    played = list(Round.objects.filter(session=sichuan).order_by("number"))
    assert [(r.number, r.in_progress) for r in played] == [(1, False), (2, False)]
    assert played[1].current is not None and len(played[1].current.entry["events"]) == 2
    # The books balance: tallies sum to zero, every round's versions are numbered
    # without a gap with the last one current, every version's payments make its deltas.
    for session in (mcr, sichuan):
        assert sum(session.tallies()) == 0
        for rnd in session.rounds.all():
            numbers = list(rnd.revisions.order_by("number").values_list("number", flat=True))
            assert numbers == list(range(1, len(numbers) + 1))
            assert rnd.current is not None and rnd.current.number == numbers[-1]
            for rev in rnd.revisions.all():
                moved = [0] * session.n_players
                for t in Transfer.objects.filter(revision=rev):
                    moved[t.from_seat] -= t.amount
                    moved[t.to_seat] += t.amount
                assert moved == rev.deltas and sum(rev.deltas) == 0
