"""Every link on a room's pages stays in the room.

Two rooms on one deployment: the default room `main` (the site's `/` is its start
page) and `north`.  A phone holding a table of each room, and the room's signed-in
owner (who opened a table of the other room by its link too), walk every page of
the room: every route of the URL configuration that
belongs to a room (its start page, a physical table's QR page, its admin pages, a
table's pages and rounds, a player's page: tests/room_places.py finds them there),
got and then posted to, the 404 pages under its addresses, and every page those
answers link or redirect to, breadth first.  No answer links a page of the other room (its start page, `/` included
for `north`, its tables, its players, its admin pages), and the site's title and
the 404 page's way back lead to the room's own start page, /r/<slug>/.
"""

from __future__ import annotations

import html
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.invites import RoomInvite
from scorer.models.players import Player
from scorer.models.rooms import Room, default_room
from tests.factories import make_room, phone
from tests.room_places import MANAGE, Place, fill, place, room_routes

pytestmark = pytest.mark.django_db

LINK = re.compile(r'(?:href|src|action|formaction|hx-get|hx-post|data-[a-z-]+)="(/[^"]*)"')
TITLE = re.compile(r'<a class="site-title" href="([^"]*)"')
WAY_BACK = re.compile(r'<a class="button primary" href="([^"]*)">')
DEFAULT_ROOM_PATHS = ("/s/new", "/s/import")


def room_of_link(url: str) -> Room | None:
    """The room a link leads into (None: a page of no room: signing in, a fan's help,
    the language, static files)."""
    path = url.split("?", 1)[0].split("#", 1)[0]
    if path == "/" or path in DEFAULT_ROOM_PATHS:
        return default_room()
    key = re.match(r"/(r|s|p|invite|api/sessions)/([^/]+)", path)
    if key is None:
        return None
    kind, value = key.groups()
    if kind == "r":
        return Room.objects.get(slug=value)
    if kind in ("s", "api/sessions"):
        return GameSession.objects.select_related("room").get(code=value).room
    if kind == "p":
        return Player.objects.select_related("room").get(slug=value).room
    return RoomInvite.objects.select_related("room").get(token=value).room


@dataclass
class Walk:
    """One phone's walk over a room's pages, every answer checked as it comes."""

    p: Place
    client: Client
    seen: set[str] = field(default_factory=set)
    titles: int = 0  # pages that carry the site's title
    not_found: int = 0  # 404 pages seen
    rooms: dict[str, Room | None] = field(default_factory=dict)  # each link's, once

    def room_of(self, link: str) -> Room | None:
        if link not in self.rooms:
            self.rooms[link] = room_of_link(link)
        return self.rooms[link]

    @property
    def home(self) -> str:
        return reverse("scorer:room", args=[self.p.room.slug])

    def get(self, url: str) -> set[str]:
        self.seen.add(url)
        return self.check(f"GET {url}", self.client.get(url))

    def post(self, url: str) -> set[str]:
        """A form's answer (refused, asked again, or done and sent on) is a page too."""
        return self.check(f"POST {url}", self.client.post(url, {}))

    def check(self, asked: str, response: Any) -> set[str]:
        """The answer's links (its redirect's too), each of this room or of none; its
        title and a 404's way back lead to the room's start page."""
        if response.streaming:  # an event stream (it ends at once in the suite): no links
            return set()
        body = response.content.decode("utf-8", "replace")
        links = {html.unescape(u).split("#", 1)[0] for u in LINK.findall(body)}
        if response.has_header("Location"):
            links.add(response["Location"])
        for link in links:
            room = self.room_of(link)
            assert room is None or room == self.p.room, (
                f"{asked} ({response.status_code}) links {link}, a page of {room}"
            )
        for title in TITLE.findall(body):
            self.titles += 1
            assert title == self.home, f"{asked}: the title leads to {title}"
        if response.status_code == 404 and "text/html" in response.get("Content-Type", ""):
            self.not_found += 1
            assert WAY_BACK.findall(body) == [self.home], f"{asked}: the 404's way back"
        return {u for u in links if self.room_of(u) == self.p.room}

    def crawl(self, start: list[str]) -> None:
        queue = deque(start)
        while queue and len(self.seen) < 1500:
            url = queue.popleft()
            if url in self.seen:
                continue
            queue.extend(sorted(self.get(url) - self.seen))


def not_found_pages(p: Place) -> list[str]:
    """Addresses under the room's that answer 404: a wrong page of the room, a round the
    table never had, a player's wrong page, an admin's wrong table."""
    slug, code = p.room.slug, p.table.code
    return [f"/r/{slug}/no-such-page", f"/s/{code}/rounds/999/", f"/s/{code}/no-such-page",
            f"/p/{p.player_slugs()[0]}/no-such-page", f"/r/{slug}/manage/tables/9999/"]  # fmt: skip


def walk(p: Place, other: Place, client: Client, admin: bool) -> Walk:
    w = Walk(p, client)
    # The phone holds a table of each room (the other room's opened first): its
    # list on this room's start page is this room's tables only.
    client.get(reverse("scorer:session", args=[other.table.code]))
    client.get(reverse("scorer:session", args=[p.table.code]))
    routes = [r for r in room_routes() if admin or not r.startswith(MANAGE)]
    start = [u for r in routes for u in fill(r, p)] + not_found_pages(p)
    if p.room == default_room():
        start.append("/")  # the site's own start page is this room's
    w.crawl(start)
    # The phone's list on the room's start page shows the room's own table.
    listed = client.get(reverse("scorer:room", args=[p.room.slug])).content.decode()
    assert f'class="table-link" href="/s/{p.table.code}/"' in listed
    # Then every route posted to (empty: most forms are refused and shown again), and
    # the pages the answers lead to walked as well.
    for url in start:
        w.crawl(sorted(w.post(url) - w.seen))
    return w


@pytest.fixture
def rooms() -> tuple[Place, Place]:
    main = default_room()
    assert main.slug == "main"
    return place(main, "main"), place(make_room("north"), "north")


@pytest.mark.parametrize("which", ["main", "north"])
def test_no_page_of_a_room_links_another_room(rooms: tuple[Place, Place], which: str) -> None:
    p, other = rooms if which == "main" else rooms[::-1]
    for admin in (False, True):
        w = walk(p, other, p.boss() if admin else phone(), admin)
        assert w.titles > (110 if admin else 30), w.titles
        assert w.not_found >= (5 if admin else 4)
        # Every round's page of the table, the exports and the manage pages were walked.
        for route in room_routes():
            if admin or not route.startswith(MANAGE):
                assert set(fill(route, p)) <= w.seen, route


def test_a_table_started_from_a_rooms_page_goes_into_that_rooms_books(
    rooms: tuple[Place, Place],
) -> None:
    """The start form a north table's title leads to starts a table in north."""
    north = rooms[1]
    player = phone()
    page = player.get(reverse("scorer:ledger", args=[north.table.code])).content.decode()
    (home,) = TITLE.findall(page)
    form = player.get(home).content.decode()
    action = re.search(r'<form class="start-form" method="post" action="([^"]*)"', form)
    assert action is not None and action.group(1) == f"/r/{north.room.slug}/new"
    config = north.room.offered_configs()[0]
    data: dict[str, Any] = {"config": config.pk, "players": 4, "first_dealer": 0}
    data.update({f"name_{i}": n for i, n in enumerate(["一", "二", "三", "四"])})
    answer = player.post(action.group(1), data)
    assert answer.status_code == 302, answer.content.decode()[:300]
    made = GameSession.objects.get(code=answer["Location"].split("/")[2])
    assert made.room == north.room


def test_a_page_of_no_room_leads_to_the_sites_start_page() -> None:
    for url in ("/accounts/login/", "/no-such-page", "/s/NoSuchTable/", "/r/no-such-room/"):
        body = Client().get(url).content.decode()
        assert TITLE.findall(body) == ["/"], url
