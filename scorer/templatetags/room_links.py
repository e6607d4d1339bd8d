"""Where a page's "home" leads: `{% load room_links %}`, `{% room_home %}`.

A page of room X, or of one of X's tables, leads home to X's start page
(`/r/<slug>/`), never to the site's `/`: that is the default room's start page,
and a table started there goes into the default room's books.  A page of no room
(the sign-in page, a fan's help, a wrong address) leads to `/`.

The room is read off what the view found, never asked of the database again:
the context's `room` (a room's start and admin pages, a fixed table's QR page,
an invitation, an import's answer), else the room of its `session` (a table's
pages, whose view loads the room with the table) or of its `player` (a player's
page).  The 404 page gets its `room` from the address
(`scorer.services.access.room_of_path`).  The site's title (templates/base.html),
the 404 page's way back and every other "start page" link use this tag.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()

# Context names whose value belongs to one room, in the order they are trusted.
OWNERS = ("session", "player")


def page_room_slug(context: Any) -> str | None:
    """The slug of the room the page belongs to, or None for a page of no room."""
    room = context.get("room")
    if getattr(room, "slug", None) is None:
        room = next(
            (r for key in OWNERS if (r := getattr(context.get(key), "room", None)) is not None),
            None,
        )
    slug = getattr(room, "slug", None)
    return slug if isinstance(slug, str) and slug else None


@register.simple_tag(takes_context=True)
def room_home(context: Any) -> str:
    """The start page of the page's room; `/` for a page of no room."""
    slug = page_room_slug(context)
    return reverse("scorer:room", args=[slug]) if slug else reverse("scorer:home")
