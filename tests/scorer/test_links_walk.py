"""The capability walk: a table's link grants that table and nothing more.

Several tables share players in one room (and the same names play in another
room); a phone opens one table's link and walks everything it can reach from it:
every public URL of the URL configuration that takes a table's code (found there,
so a page added later is walked without being listed here), filled with that
table's code and its rounds' numbers, got and posted to, with and without htmx;
every link, image and form those answers carry (the player pages the result page
links, the exports, the SVGs, the ledger, the round pages); the import of the
table's own export.  No answer's body or headers may carry another table's code,
another physical table's QR code, or a player page of anyone who did not sit at
that table.  (As tests/manage/test_isolation.py walks every room admin URL.)
"""

from __future__ import annotations

import html
import io
import json
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.players import Player
from scorer.models.rooms import Room, RoomTable, default_room
from scorer.services.export import import_table, table_json
from tests.factories import make_room, member_client
from tests.support.routes import every_route, play

pytestmark = pytest.mark.django_db

MANAGE = "r/<slug:slug>/manage/"
QR_LANDING = "r/<slug:slug>/t/<str:code>/"
IMPORTS = ("s/import", "r/<slug:slug>/import")


def table_routes() -> list[str]:
    """Every public route that takes a table's code (the room admins' pages are
    walked by the isolation test: a phone is sent to sign in there)."""
    return [r for r in every_route() if "<str:code>" in r and not r.startswith(MANAGE)]


@dataclass
class Rooms:
    east: Room
    west: Room
    a: GameSession  # the table whose link the phone holds
    t1: RoomTable  # its physical table
    others: list[GameSession] = field(default_factory=list)
    other_tables: list[RoomTable] = field(default_factory=list)

    def forbidden(self) -> dict[str, str]:
        """What no answer reached from A's link may carry, by what it is."""
        out = {s.code: f"table {s.players}" for s in self.others}
        out.update({t.code: f"QR code of {t}" for t in self.other_tables})
        at_a = set(self.a.seats.values_list("player_id", flat=True))
        for p in Player.objects.exclude(pk__in=at_a):
            out[f"/p/{p.slug}/"] = f"player page of {p.name} ({p.room.slug})"
        return out


@pytest.fixture
def rooms() -> Rooms:
    default_room()  # the site's `/` serves another room
    east, west = make_room("east"), make_room("west")
    t1, t2 = east.add_tables(1, 2)
    (w1,) = west.add_tables(1)
    a = play(east, ["老王", "小李", "阿强", "美玲"], at=t1)
    b = play(east, ["老王", "小李", "丙", "丁"])
    b.close("丙")
    c = play(east, ["阿强", "美玲", "戊", "己"], at=t2)
    copy = import_table(table_json(a), copy_of=a.origin, room=east)  # a copy of A, here
    d = play(west, ["老王", "小李", "阿强", "美玲"], at=w1)
    return Rooms(east, west, a, t1, [b, c, copy, d], [t2, w1])


def fill(route: str, r: Rooms) -> list[str]:
    """The route's URLs for table A: each of its rounds where it takes one."""
    if route == QR_LANDING:
        return [f"/r/{r.east.slug}/t/{r.t1.code}/"]
    path = route.replace("<str:code>", r.a.code).replace("<slug:slug>", r.east.slug)
    paths = [path.replace("<str:fmt>", fmt) for fmt in ("json", "csv", "svg")]
    if "<num:number>" in path:
        # A hand corrected once, the adjustment, the undone round (each kind of page).
        numbers = [1, 4, 5]
        paths = [p.replace("<num:number>", str(n)) for p in paths for n in numbers]
    paths = sorted(set(paths))
    for p in paths:
        assert "<" not in p, f"the walk needs a sample value for {route}"
    return ["/" + p for p in paths]


TABLE_URL = re.compile(r"/(?:s|api/sessions)/([A-Za-z0-9_-]+)(?:/|$)")
LINK = re.compile(r'(?:href|src|action|hx-get|hx-post|data-[a-z-]+)="(/[^"]*)"')


def links_in(body: str) -> set[str]:
    found = set()
    for raw in LINK.findall(body):
        url = html.unescape(raw).split("#", 1)[0]
        if url and not url.startswith(("/static/", "//")):
            found.add(url)
    return found


class Walk:
    """One phone's answers, each checked as it comes."""

    def __init__(self, client: Client, forbidden: dict[str, str], code: str) -> None:
        self.client, self.forbidden, self.code = client, forbidden, code
        self.seen: set[tuple[str, str, bool]] = set()
        self.requested: set[str] = set()  # every URL got or posted to, never cleared
        self.answers = 0
        self.players: set[str] = set()

    def check(self, method: str, url: str, response: Any, allowed: str = "") -> None:
        self.answers += 1
        self.requested.add(url)
        body = b"".join(response) if response.streaming else response.content
        text = body.decode("utf-8", "replace")
        headers = " ".join(f"{k}: {v}" for k, v in response.items())
        for secret, what in self.forbidden.items():
            if secret == allowed:
                continue
            assert secret not in text, f"{method} {url} answers {what}"
            assert secret not in headers, f"{method} {url} sends {what} in a header"
        if url.startswith("/p/") and response.status_code == 200:
            self.players.add(url)

    def get(self, url: str, htmx: bool = False, allowed: str = "") -> set[str]:
        key = ("GET", url, htmx)
        if key in self.seen:
            return set()
        self.seen.add(key)
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = self.client.get(url, **extra)
        self.check("GET", url, response, allowed)
        out = set() if response.streaming else links_in(response.content.decode("utf-8", "replace"))
        if response.has_header("Location"):
            out.add(response["Location"])
        return out

    def post(
        self, url: str, data: dict[str, Any], htmx: bool = False, allowed: str = ""
    ) -> set[str]:
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = self.client.post(url, data, **extra)
        self.check("POST", url, response, allowed)
        out = links_in(response.content.decode("utf-8", "replace"))
        if response.has_header("Location"):
            out.add(response["Location"])
        return out

    def crawl(self, start: set[str], allowed: str = "") -> None:
        """Every page the answers link, breadth first (the site's own pages only)."""
        queue = deque(sorted(start))
        while queue and len(self.seen) < 2000:
            url = queue.popleft()
            if url.startswith(("/accounts/", "/admin/", "/text-size", "/i18n/")):
                continue  # signing in, Django's admin, the page's language are no table's
            table = TABLE_URL.match(url)
            if table is not None and table.group(1) != self.code:
                continue  # a table its own imports made (its answer was checked)
            for htmx in (False, True):
                queue.extend(sorted(self.get(url, htmx, allowed) - {u for _, u, _ in self.seen}))


def upload(data: dict[str, Any]) -> io.BytesIO:
    f = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    f.name = "table.json"
    return f


# What the table's forms post, roughly (a note, a seat, the last round seen).
FORM = {"note": "走了", "expected": "5", "name": "老王", "seat": "0", "me": "0"}


def walk_from_a(r: Rooms, client: Client, forbidden: dict[str, str]) -> Walk:
    walk = Walk(client, forbidden, r.a.code)
    qr = f"/r/{r.east.slug}/t/{r.t1.code}/"
    urls = {u for route in table_routes() for u in fill(route, r)}
    walk.crawl({reverse("scorer:session", args=[r.a.code])})  # the link, opened first
    walk.crawl(urls - {qr})
    walk.crawl({qr}, allowed=r.t1.code)  # (the QR code's own landing names its code)
    export = table_json(r.a)
    # The import of A's own export, in A's room (A and its copy are there) and elsewhere.
    for target in IMPORTS:
        url = "/" + target.replace("<slug:slug>", r.east.slug)
        walk.crawl(walk.post(url, {"file": upload(export)}))
        walk.crawl(walk.post(url, {"file": upload(export), "copy_of": r.a.origin}))
    # Then every route posted to, empty and as the pages' forms would (state changes
    # of A itself: undo, close, reopen), and walked again.
    for route in table_routes():
        for url in fill(route, r):
            own = r.t1.code if route == QR_LANDING else ""
            for data, htmx in (({}, False), (FORM, True)):
                walk.crawl(walk.post(url, data, htmx, own), own)
    r.a.refresh_from_db()
    if r.a.closed_at is None:
        r.a.close("老王")
    walk.seen.clear()
    walk.crawl(urls - {qr})
    walk.crawl({qr}, allowed=r.t1.code)
    return walk


def test_the_walk_finds_the_table_routes_in_the_url_configuration() -> None:
    names = {every_route()[r] for r in table_routes()}
    assert {"session", "tallies", "qr", "final", "final_svg", "ledger", "round", "export",
            "record", "adjust", "edit", "restore", "api_session", "table", "events"} <= names  # fmt: skip
    assert not any(r.startswith(MANAGE) for r in table_routes())


def test_one_tables_link_reaches_no_other_table(rooms: Rooms) -> None:
    phone = Client()
    walk = walk_from_a(rooms, phone, rooms.forbidden())
    # Every table route was walked, for every round of A where it takes one.
    assert {u for route in table_routes() for u in fill(route, rooms)} <= walk.requested
    assert walk.answers > 200
    # The walk reached the player pages of A's four players (from the result page),
    # and each says that he sat at two tables this phone never opened without linking
    # them: the copy of A imported before, and B (老王, 小李) or C (阿强, 美玲).  (It
    # reached the players of the tables its own imports made too: those it holds.)
    at_a = {f"/p/{s.player.slug}/" for s in rooms.a.seats.select_related("player")}
    assert at_a <= walk.players
    for url in at_a:
        page = html.unescape(phone.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        assert "2 more tables, not opened on this phone" in page, url
        assert reverse("scorer:session", args=[rooms.a.code]) in page
    # The import of A's export in A's room: A is there and this phone holds it; the
    # copy of A made there earlier is counted, not linked.
    answer = import_answer(phone, rooms)
    assert reverse("scorer:session", args=[rooms.a.code]) in answer
    assert "copies were not opened on this phone" in answer or "copy was not" in answer


def import_answer(phone: Client, r: Rooms) -> str:
    url = reverse("scorer:room_import", args=[r.east.slug])
    answer = phone.post(url, {"file": upload(table_json(r.a))}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    return html.unescape(answer.content.decode())


def test_the_rooms_admin_holds_the_rooms_tables_and_no_other_rooms(rooms: Rooms) -> None:
    """A signed-in admin of the room holds all its tables: a player's page links every
    table of the room he sat at, never another room's (and west's admin sees east's
    player pages as any phone does: holding none of its tables)."""
    east_boss = member_client(rooms.east, "east-boss")
    west_boss = member_client(rooms.west, "west-boss")
    west_codes = [s.code for s in rooms.others if s.room_id == rooms.west.pk]
    for seat in rooms.a.seats.select_related("player"):
        url = reverse("scorer:player", args=[seat.player.slug])
        page = east_boss.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        sat_at = seat.player.seats.values_list("session__code", flat=True)
        assert len(sat_at) == 3  # A, its copy, and B or C
        for code in sat_at:
            assert reverse("scorer:session", args=[code]) in page
        assert "not opened" not in page
        assert not any(code in page for code in west_codes)
        other = html.unescape(west_boss.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        assert "3 more tables, not opened on this phone" in other
        assert not any(code in other for code in sat_at)
