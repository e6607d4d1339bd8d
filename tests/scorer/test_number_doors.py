"""Every door a number comes in by, sent each class of outside text that one reader
refuses (tests/scorer/test_number_reader.py): never a 500, nothing stored.

The doors, found rather than listed where they can be:

* every form on every page of a room and of its tables, as its owner sees them
  (the pages are read, their forms found, each number field among them: a number
  input, a select of numbers, a hidden field holding a number), each field sent
  each class with the rest of the form as the page fills it;
* every URL with a number in it (`<num:…>`), each class in its place;
* the query parameters read as numbers (`?v=`, `?was=`, `?page=`, `?day=`);
* `Last-Event-ID` on both stream paths, the Django views and the ASGI app;
* every number of the import's schema, each class in its place.

"Nothing stored" means: the rows are as they were, or as the same form leaves them
without the field (a field a form may leave out, read as absent: never as a number).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver, reverse

from scorer.models import GameSession
from scorer.models.players import Player
from scorer.models.rooms import Room
from scorer.money import clock
from scorer.services.export import table_json
from tests.factories import by_tiles, make_room, make_table, member_client, play

pytestmark = pytest.mark.django_db

# One of each class: scripts' digits, superscripts, circled, underscores, spaces
# inside, exponents, NaN and infinities, other bases, two signs, too long.
OUTSIDE = ["²", "①", "٢٠", "𝟚", "2_0", "2 0", "2e1", "NaN", "-Infinity", "0x14",
           "+-2", "２_０", "9" * 25, "9223372036854775808"]  # fmt: skip
# The classes the issue of one reader names, one each, sent to every form field (each
# request a form's whole work: the few the cheap doors get more of are left out).
CLASSES = ["٢٠", "²", "①", "2_0", "2 0", "2e1", "NaN", "-Infinity", "9" * 25]
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}
NOW = dt.datetime(2026, 11, 27, 19, 0)


# ----------------------------------------------------------------------------- the room


@dataclass
class World:
    room: Room
    boss: Client
    open_table: GameSession
    closed_table: GameSession
    player: Player
    pages: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def world() -> Iterator[World]:
    clock.set_now(NOW)
    room = make_room("east")
    boss = member_client(room, "boss", shown="老板")
    boss.raise_request_exception = False
    t1, t2 = room.add_tables(1, 2)
    config = room.configs.filter(ruleset="mcr").first()
    assert config is not None
    open_table = make_table("mcr", room=room, room_table=t1, seated=True, time_fee=HOURLY,
                            preset=f"room:{config.pk}", fee={"mode": "win_fixed", "amount": 2})  # fmt: skip
    play(open_table, [by_tiles(1, 2), by_tiles(2, 3)])
    closed_table = make_table("mcr", ["甲", "乙", "丙", "丁"], room=room, room_table=t2,
                              seated=True, time_fee=HOURLY)  # fmt: skip
    play(closed_table, [by_tiles(0, 1)])
    clock.set_now(NOW + dt.timedelta(minutes=130))
    closed_table.close("甲")
    player = Player.objects.get(room=room, name="老王")
    day = clock.now().date().isoformat()
    code, slug = open_table.code, room.slug
    pages = {
        "room": reverse("scorer:room", args=[slug]),
        "table-qr": reverse("scorer:table", args=[slug, t2.code]),  # closed: its start form
        "dashboard": reverse("scorer:manage", args=[slug]),
        "tables": reverse("scorer:manage_tables", args=[slug]),
        "table": reverse("scorer:manage_table", args=[slug, 1]),
        "configs": reverse("scorer:manage_configs", args=[slug]),
        "config": reverse("scorer:manage_config", args=[slug, config.pk]),
        "config-new": reverse("scorer:manage_config_new", args=[slug]),
        "players": reverse("scorer:manage_players", args=[slug]),
        "members": reverse("scorer:manage_members", args=[slug]),
        "till": reverse("scorer:manage_till", args=[slug]) + f"?day={day}",
        "till-table": reverse("scorer:manage_till_table", args=[slug, closed_table.code]),
        "balances": reverse("scorer:manage_balances", args=[slug]),
        "statement": reverse("scorer:manage_statement", args=[slug, player.pk]),
        "session": reverse("scorer:session", args=[code]),
        "record": reverse("scorer:record", args=[code]),
        "edit": reverse("scorer:edit", args=[code, 1]),
        "adjust": reverse("scorer:adjust", args=[code]),
        "final": reverse("scorer:final", args=[code]),
        "final-closed": reverse("scorer:final", args=[closed_table.code]),
        "ledger": reverse("scorer:ledger", args=[code]),
    }
    yield World(room, boss, open_table, closed_table, player, pages)
    clock.set_now(None)


# What a request may write without storing anything a visitor sent: the phone's own
# session (django_session), the sign-in throttle's rows (axes_*).
NOT_STORED = ("django_session", "axes_")
_WRITE = re.compile(r'^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+"?(\w+)"?', re.I)


def writes(queries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The rows a request wrote, as (verb, table): what "stored" means here."""
    out = []
    for q in queries:
        m = _WRITE.match(q["sql"])
        if m and not m.group(2).startswith(NOT_STORED):
            out.append((m.group(1).split()[0].upper(), m.group(2)))
    return sorted(out)


@contextlib.contextmanager
def rolled_back(client: Client) -> Iterator[None]:
    """One request's changes, and its phone's cookies, undone after it is looked at."""
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
    client.cookies = cookies


def answer(
    client: Client, method: str, url: str, data: dict[str, str] | None = None, **headers: str
) -> tuple[int, list[tuple[str, str]]]:
    """The status of one request and the rows it wrote, then undone."""
    with rolled_back(client), override_settings(DEBUG=False):
        with CaptureQueriesContext(connection) as seen:
            if method == "post":
                r = client.post(url, data or {}, **headers)
            else:
                r = client.get(url, **headers)
            if r.streaming:  # read to its end, as a server would: the client then closes it
                b"".join(r.streaming_content)  # (its place in the worker's count given back)
        return r.status_code, writes(seen.captured_queries)


# ----------------------------------------------------------------------------- the forms


@dataclass
class Form:
    page: str
    action: str
    fields: dict[str, str]
    numbers: list[str]


class FormReader(HTMLParser):
    """The forms a page holds (method post): their fields as a browser sends them, and
    which of them hold numbers.  A form with named submit buttons is one form per button."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page, self.forms, self._open = page, [], None  # type: ignore[var-annotated]
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._buttons: list[tuple[str, str]] = []
        self._numbers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._open = ({}, a.get("action") or self.page)
            self._buttons, self._numbers = [], []
            return
        if self._open is None or not a.get("name"):
            return
        values, _ = self._open
        name = a["name"]
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    values[name] = a.get("value", "on")
                return
            if kind == "submit":
                self._buttons.append((name, a.get("value", "")))
                return
            values.setdefault(name, a.get("value", ""))
            numeric = kind == "number" or a.get("inputmode") in ("numeric", "decimal")
            if numeric or (kind == "hidden" and re.fullmatch(r"-?[0-9]+", a.get("value", ""))):
                self._numbers.append(name)
        elif tag == "button" and a.get("type", "submit") == "submit":
            self._buttons.append((name, a.get("value", "")))
        elif tag == "select":
            self._select, self._options = name, []
        elif tag == "textarea":
            values.setdefault(name, "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._open is not None and self._select is not None:
            chosen = next(
                (v for v, on in self._options if on), self._options[0][0] if self._options else ""
            )
            self._open[0][self._select] = chosen
            if self._options and all(re.fullmatch(r"[0-9]+", v) for v, _ in self._options):
                self._numbers.append(self._select)
            self._select = None
        if tag == "form" and self._open is not None:
            values, action = self._open
            variants = [dict(values, **{n: v}) for n, v in self._buttons] or [dict(values)]
            for fields in variants:
                self.forms.append(
                    Form(self.page, action, fields, list(dict.fromkeys(self._numbers)))
                )
            self._open = None


class _Options(FormReader):
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "option" and self._select is not None:
            a = {k: v or "" for k, v in attrs}
            self._options.append((a.get("value", ""), "selected" in a))
            return
        super().handle_starttag(tag, attrs)


def forms_of(client: Client, page: str) -> list[Form]:
    r = client.get(page)
    assert r.status_code == 200, (page, r.status_code)
    reader = _Options(page)
    reader.feed(r.content.decode())
    return reader.forms


# The site's own forms on every page (the text size), walked once, on the room's page.
SITE_FORMS = {"/text-size"}
PAGES = ["room", "table-qr", "dashboard", "tables", "table", "configs", "config", "config-new",
         "players", "members", "till", "till-table", "balances", "statement", "session",
         "record", "edit", "adjust", "final", "final-closed", "ledger"]  # fmt: skip


def number_fields(world: World, page: str) -> list[tuple[Form, str]]:
    """A page's forms' number fields, each once (a form with a button per tile is one
    form: its fields are the same whichever button sends it)."""
    found: dict[tuple[str, str], Form] = {}
    for form in forms_of(world.boss, world.pages[page]):
        if form.action in SITE_FORMS and page != "room":
            continue
        for name in form.numbers:
            found.setdefault((form.action.split("?")[0], name), form)
    return [(form, name) for (_, name), form in found.items()]


def test_the_walk_finds_the_forms_number_fields(world: World) -> None:
    """The walk is no walk if it finds nothing: the fields named here are in it."""
    names = {(re.sub(r"/[A-Za-z0-9_-]{12,}/", "/<code>/", f.action), n)
             for page in PAGES for f, n in number_fields(world, page)}  # fmt: skip
    seen = {n for _, n in names}
    for expected in ["money_per_point", "first_dealer", "players", "number", "count",
                     "fee_amount", "fee_price", "fee_percent", "fee_cap", "tf_price",
                     "hour", "amount", "round", "param_base"]:  # fmt: skip
        assert expected in seen, (expected, sorted(seen))


@pytest.mark.parametrize("page", PAGES)
def test_every_forms_number_field_refuses_outside_text(world: World, page: str) -> None:
    assert set(PAGES) == set(world.pages)
    client = world.boss
    for form, name in number_fields(world, page):
        left_out: list[tuple[str, str]] | None = None
        for junk in CLASSES:
            status, wrote = answer(client, "post", form.action, {**form.fields, name: junk})
            where = (form.page, form.action, name, junk)
            assert status < 500, (*where, status)
            if wrote and left_out is None:  # the form works without the field?
                without = {k: v for k, v in form.fields.items() if k != name}
                left_out = answer(client, "post", form.action, without)[1]
            assert not wrote or wrote == left_out, ("stored", *where, wrote)


# ----------------------------------------------------------------------------- URLs


def number_urls() -> list[str]:
    """Every URL pattern with a number in it, as the resolver holds it."""
    out = []
    for pattern in get_resolver("scorer.urls").url_patterns:
        route = str(pattern.pattern)
        if "<num:" in route:
            out.append(route)
    assert len(out) >= 10
    return out


def test_every_number_in_a_url_refuses_outside_text(world: World) -> None:
    samples = {"slug": world.room.slug, "code": world.open_table.code, "ruleset": "mcr",
               "action": "up", "fmt": "csv", "version": "1", "token": "x"}  # fmt: skip
    for route in number_urls():
        for junk in OUTSIDE:
            path = "/" + re.sub(r"<num:\w+>", quote(junk, safe=""), route)
            path = re.sub(r"<\w+:(\w+)>", lambda m: samples[m.group(1)], path)
            for method in ("get", "post"):
                status, wrote = answer(world.boss, method, path)
                assert status < 500 and not wrote, (route, junk, method, status, wrote)


# ----------------------------------------------------------------------------- queries


def test_every_number_in_a_query_refuses_outside_text(world: World) -> None:
    slug, code = world.room.slug, world.open_table.code
    config = world.room.configs.first()
    assert config is not None
    queries = [
        (reverse("scorer:events", args=[code]), "v", {400}),
        (reverse("scorer:manage_events", args=[slug]), "v", {400}),
        (reverse("scorer:tallies", args=[code]), "was", {200, 304}),
        (reverse("scorer:manage_log", args=[slug]), "page", {200}),
        (reverse("scorer:manage_players", args=[slug]), "page", {200}),
        (reverse("scorer:manage_config_history", args=[slug, config.pk]), "page", {200}),
        (reverse("scorer:manage_till", args=[slug]), "day", {400}),
        (reverse("scorer:manage_till_report", args=[slug]), "day", {400}),
        (reverse("scorer:manage_report", args=[slug]), "day", {400}),
    ]
    for path, name, statuses in queries:
        for junk in OUTSIDE:
            status, wrote = answer(world.boss, "get", f"{path}?{name}={quote(junk)}")
            assert status in statuses and not wrote, (path, name, junk, status, wrote)


def test_last_event_id_refuses_outside_text_on_the_django_views(world: World) -> None:
    paths = [reverse("scorer:events", args=[world.open_table.code]),
             reverse("scorer:manage_events", args=[world.room.slug])]  # fmt: skip
    for path in paths:
        for junk in [*OUTSIDE, "\xb2"]:
            status, _ = answer(world.boss, "get", path, HTTP_LAST_EVENT_ID=junk)
            assert status == 400, (path, junk, status)
        # As the browser says it: the version it was sent.
        status, _ = answer(world.boss, "get", path, HTTP_LAST_EVENT_ID="1")
        assert status == 200


def asgi_answer(path: str, headers: list[tuple[bytes, bytes]], query: bytes = b"") -> int:
    """The status the ASGI app's stream answers with (the connection then gone)."""
    from mahjong_site.asgi import events

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "method": "GET", "path": path, "headers": headers,
             "query_string": query}  # fmt: skip
    assert asyncio.run(events(scope, receive, send)) is True
    return int(sent[0]["status"])


@pytest.mark.parametrize("path", ["/s/NoSuchTable/events", "/r/nowhere/manage/events"])
def test_last_event_id_and_v_refuse_outside_text_on_the_asgi_app(path: str) -> None:
    for junk in OUTSIDE:
        raw = junk.encode("utf-8")
        assert asgi_answer(path, [(b"last-event-id", raw)]) == 400, junk
        assert asgi_answer(path, [], b"v=" + quote(junk).encode()) == 400, junk
    assert asgi_answer(path, [(b"last-event-id", b"\xb2")]) == 400  # Latin-1 "²", as sent


# ----------------------------------------------------------------------------- imports


def numbers_in(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where a file holds a number: every int, and every text that reads as an amount."""
    if isinstance(value, bool):
        return
    if isinstance(value, int) or (
        isinstance(value, str) and re.fullmatch(r"[0-9]+(\.[0-9]+)?", value)
    ):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from numbers_in(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from numbers_in(v, (*path, i))


def put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    here = out
    for p in path[:-1]:
        here = here[p]
    here[path[-1]] = value
    return out


def test_every_number_in_an_import_refuses_outside_text(world: World) -> None:
    data = table_json(world.closed_table)
    data["fee"] = {"mode": "aa", "amount": 5}  # a fee with numbers of its own (not charged)
    paths = [p for p in numbers_in(data) if p[:1] != ("fee",)]
    paths += [("fee", "amount")]
    assert ("money_charged", 0) in paths and ("rounds", 0, "number") in paths
    url = reverse("scorer:room_import", args=[world.room.slug])
    phone = Client(raise_request_exception=False)
    sessions = GameSession.objects.count()
    for path in paths:
        for junk in OUTSIDE:
            body = json.dumps(put(data, path, junk), ensure_ascii=False).encode()
            upload = io.BytesIO(body)
            upload.name = "table.json"
            with override_settings(DEBUG=False):
                r = phone.post(url, {"file": upload})
            assert r.status_code < 500 and GameSession.objects.count() == sessions, (path, junk)
    # JSON's own odd numbers in a count: a fraction, NaN, an infinity.
    text = json.dumps(data, ensure_ascii=False)
    for odd in ["1.0", "NaN", "Infinity", "1e400", "-0.5"]:
        body = text.replace('"first_dealer": 0', f'"first_dealer": {odd}', 1).encode()
        upload = io.BytesIO(body)
        upload.name = "table.json"
        with override_settings(DEBUG=False):
            r = phone.post(url, {"file": upload})
        assert r.status_code < 500 and GameSession.objects.count() == sessions, odd


# ----------------------------------------------------------------------------- full width


def test_full_width_digits_read_as_the_ascii_ones(world: World) -> None:
    """What a Chinese keyboard types in its full-width mode is the number it shows."""
    slug = world.room.slug
    boss = world.boss
    boss.post(reverse("scorer:manage_till", args=[slug]), {"action": "hour", "hour": "１０"})
    world.room.refresh_from_db()
    assert world.room.day_ends_hour == 10
    boss.post(reverse("scorer:manage_balances", args=[slug]),
              {"player": str(world.player.pk), "amount": "２００．５０", "method": "cash"})  # fmt: skip
    from scorer.services import till

    assert till.balance_of(world.player) == 200.5
    boss.post(
        reverse("scorer:manage_tables", args=[slug]), {"number": "５０", "count": "２", "name": ""}
    )
    assert set(world.room.tables.values_list("number", flat=True)) >= {50, 51}
