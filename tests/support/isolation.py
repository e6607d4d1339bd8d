"""Every room route with its arguments filled from one room's rows: the walks that
check one room never reaches another's data."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from scorer.models.invites import RoomInvite
from scorer.models.league import Season
from scorer.models.rooms import Room, RoomMember, RoomTable
from tests.factories import make_member, make_table

PREFIX = "r/<slug:slug>/manage/"


def room_routes() -> list[str]:
    """Every route under a room's manage pages, as written in the URL configuration."""
    routes: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                routes.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns, "")
    return [r for r in routes if r.startswith(PREFIX)]


def rows_of(room: Room, tag: str) -> dict[str, Any]:
    """One row of every room-scoped kind, in `room`."""
    owner = make_member(room, f"{tag}-owner")
    admin = make_member(room, f"{tag}-admin", RoomMember.ADMIN)
    session = make_table("mcr", ["甲", "乙", "丙", "丁"], room=room, seated=True)
    table = RoomTable.objects.create(room=room, number=3)
    today = dt.date(2026, 11, 1)
    season = Season.open(room, owner, [], name=tag, first_day=today, last_day=today)
    return {
        "season": season,
        "owner": owner,
        "config": room.configs.first(),
        "player": room.players.first(),
        "member": admin,
        "invite": RoomInvite.objects.create(room=room, created_by=owner.user),
        "number": 3,
        "code": session.code,
        "version": table.qr_version,
    }


def fill(route: str, slug: str, rows: dict[str, Any]) -> str:
    """The route with this room's slug and its rows' keys."""
    path = route.replace("<slug:slug>", slug)
    for kind in ("invites", "configs", "players", "members", "seasons"):
        if f"{kind}/<num:pk>" in path:
            row = rows[{"invites": "invite", "configs": "config", "players": "player",
                        "members": "member", "seasons": "season"}[kind]]  # fmt: skip
            path = path.replace("<num:pk>", str(row.pk))
    path = path.replace("<num:number>", str(rows["number"])).replace("<str:code>", rows["code"])
    path = path.replace("<str:action>", "up").replace("<str:version>", rows["version"])
    assert "<" not in path, f"the isolation test needs a sample value for {path}"
    return "/" + path
