"""A room with one of everything, and every route of scorer/urls.py filled in for it.

The walks that go over every URL a room answers (its links stay in the room:
tests/scorer/test_room_links.py; what a cache may keep: tests/site/test_caching.py)
find the routes in the URL configuration itself, so a page added later is walked
without being listed anywhere, and fill each with a row of the room: a table
played with a corrected hand, an adjustment and an undone round, a fixed table,
a configuration, a player, an admin, an invitation.  (As the walk from one
table's link, tests/scorer/test_links_walk.py, and the room's isolation,
tests/manage/test_isolation.py, do for their parts.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.test import Client
from django.utils import timezone

from scorer.models import GameSession, Season
from scorer.models.invites import RoomInvite
from scorer.models.rooms import Room, RoomMember, RoomTable
from tests.factories import make_member, phone
from tests.support.routes import every_route, play

MANAGE = "r/<slug:slug>/manage/"
# Round numbers of the played table: a hand corrected once, the adjustment, the
# undone round (each kind of round page).
ROUNDS = (1, 4, 5)


@dataclass
class Place:
    """A room and a row of every kind its URLs take."""

    room: Room
    table: GameSession  # played: rounds 1-3 hands (1 corrected), 4 an adjustment, 5 undone
    fixed: RoomTable  # a physical table, its QR code
    owner: RoomMember
    admin: RoomMember
    invite: RoomInvite
    season: Season  # the room's league (its pages take a season)

    def boss(self) -> Client:
        """A phone signed in as the room's owner."""
        client = phone()
        client.force_login(self.owner.user)
        return client

    def player_slugs(self) -> list[str]:
        return list(self.table.seats.values_list("player__slug", flat=True))


def place(room: Room, tag: str) -> Place:
    """`room` with one of everything (`tag` names its people apart from another room's)."""
    fixed, _ = room.add_tables(1, 2)
    table = play(room, ["老王", "小李", "阿强", "美玲"], at=fixed)
    owner = make_member(room, f"{tag}-owner")
    admin = make_member(room, f"{tag}-admin", RoomMember.ADMIN)
    invite = RoomInvite.objects.create(room=room, created_by=owner.user)
    today = timezone.localdate()
    season = Season.open(room, owner, list(room.configs.filter(ruleset=table.ruleset)),
                         name=f"{tag} 月赛", first_day=today, last_day=today)  # fmt: skip
    return Place(room, table, fixed, owner, admin, invite, season)


def scorer_routes() -> dict[str, str]:
    """Every route of scorer/urls.py (as the site mounts it), with its view name."""
    return {r: n for r, n in every_route().items() if n and _is_scorer(r)}


def _is_scorer(route: str) -> bool:
    return not route.startswith(("admin/", "i18n/"))


def room_routes() -> list[str]:
    """The routes whose pages belong to one room: its own (/r/<slug>/…), a table's
    (/s/<code>/…) and a player's (/p/<slug>/)."""
    return [
        r
        for r in scorer_routes()
        if r.startswith(("r/<slug:slug>/", "s/<str:code>/", "p/<str:slug>/"))
    ]


def fill(route: str, p: Place) -> list[str]:
    """The route's URLs for place `p` (each round of its table where it takes one, each
    export format)."""
    path = re.sub(r"<(?:int|num):", "<int:", route)  # (the number converters: one kind here)
    if route.startswith("r/<slug:slug>/t/"):
        path = path.replace("<str:code>", p.fixed.code)
    path = path.replace("<slug:slug>", p.room.slug).replace("<str:code>", p.table.code)
    if route.startswith("p/"):
        path = path.replace("<str:slug>", p.player_slugs()[0])
    kinds = {"configs": p.room.configs.first(), "players": p.room.players.first(),
             "members": p.admin, "invites": p.invite, "seasons": p.season,
             "league": p.season}  # fmt: skip
    for kind, row in kinds.items():
        if f"{kind}/<int:pk>" in path:
            assert row is not None
            path = path.replace("<int:pk>", str(row.pk))
    path = path.replace("<str:action>", "up").replace("<str:version>", p.fixed.qr_version)
    path = path.replace("<str:token>", p.invite.token)
    path = path.replace("<str:ruleset>", p.table.ruleset).replace("<int:fid>", "1")
    paths = [path.replace("<str:fmt>", fmt) for fmt in ("csv", "json")]
    if route.startswith(MANAGE):
        paths = [x.replace("<int:number>", str(p.fixed.number)) for x in paths]
    else:
        paths = [x.replace("<int:number>", str(n)) for x in paths for n in ROUNDS]
    out = sorted({"/" + x for x in paths})
    for url in out:
        assert "<" not in url, f"the walk needs a sample value for {route}"
    return out


__all__ = ["Place", "fill", "place", "room_routes", "scorer_routes"]
