"""Every route of the site, and a room's tables played, for the walks over the links."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from scorer.models import GameSession
from scorer.models.rooms import Room, RoomTable
from tests.factories import DRAW, by_tiles, make_table, record


def every_route() -> dict[str, str]:
    """Every route of the URL configuration, with its name."""
    routes: dict[str, str] = {}

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                routes[prefix + str(p.pattern)] = p.name or ""

    walk(get_resolver().url_patterns, "")
    return routes


def play(room: Room, names: list[str], at: RoomTable | None = None, rounds: int = 3) -> GameSession:
    s = make_table("mcr", names, room=room, room_table=at, seated=True)
    for i in range(rounds):
        record(s, by_tiles(i % 4, (i + 1) % 4))
    adjust = {"kind": "adjust", "reason": "借分", "lines": [{"from": 1, "to": 0, "amount": 5}]}
    record(s, adjust)
    record(s, DRAW)
    s.undo_last("老王")  # an undone round: its page offers 恢复
    assert list(s.rounds.order_by("number").values_list("current__kind", flat=True)) == [
        "win", "win", "win", "adjust", "draw"]  # fmt: skip
    first = s.rounds.get(number=1)
    assert first.current is not None
    first.revise({**first.current.entry, "discarder": None}, author="小李")
    s.refresh_from_db()
    return s
