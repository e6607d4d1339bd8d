"""The room's league pages: the standings (`/r/<slug>/league/`), the page that explains
the rating, the standings picture and the CSVs.

Public on the room's start page when its owner says so (off by default), else for
the room's admins only (404 for anyone else).  They show names and figures, never a
table's link; a big hand's round is linked for the room's admins only.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from scorer.clean.parse import int_or_none
from scorer.clean.spreadsheet import csv_text
from scorer.league.ratings import BASE, PROVISIONAL_SIGMA, SCALE
from scorer.models import Room, Season
from scorer.models.results import room_day_of
from scorer.money import clock
from scorer.present.league import league_page, picture, ruleset_name
from scorer.record.picker import FACES
from scorer.services.access import admin_of, room_or_404
from scorer.services.league import current_season, season_rows, standings_json
from scorer.views import HtmxHttpRequest, csv_download
from scorer.web.htmx_answers import page_or_partial

__all__ = ["drawn", "league", "league_csv", "league_svg", "rating_help", "tables_csv"]


def _room(request: HtmxHttpRequest, slug: str) -> tuple[Room, bool]:
    """The room whose league the visitor may see, and whether he runs it."""
    room = room_or_404(slug)
    admin = admin_of(request, room)
    if not admin and not room.league_public:
        raise Http404("no league here")
    return room, admin


def _season(request: HtmxHttpRequest, room: Room) -> Season | None:
    pk = int_or_none(request.GET.get("season"), 1)
    if pk is not None:
        season = room.seasons.filter(pk=pk).prefetch_related("configs").first()
    else:
        season = current_season(room.pk, room_day_of(room.day_ends_hour, clock.now()))
    if season is not None:
        season.room = room  # (read through its room: no second query)
    return season


def _ruleset(request: HtmxHttpRequest, season: Season | None) -> str:
    asked = str(request.GET.get("rules") or "")
    if season is None or not asked:
        return ""
    return asked if any(c.ruleset == asked for c in season.configs.all()) else ""


def drawn(hands: list[dict[str, Any]], room: Room, admin: bool) -> None:
    """Each big hand's tile faces (the picker's), and its round's link for the room's
    admins only (they hold every table of the room; anyone else gets no table's link)."""
    codes = (dict(room.sessions.filter(pk__in=[h["session"] for h in hands])
                  .values_list("pk", "code")) if admin else {})  # fmt: skip
    for hand in hands:
        hand["faces"] = [FACES[t] for t in hand["tiles"] if 0 <= t < len(FACES)]
        code = codes.get(hand["session"])
        hand["url"] = reverse("scorer:round", args=[code, hand["round"]]) if code else ""


@require_safe
def league(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    room, admin = _room(request, slug)
    season = _season(request, room)
    ruleset = _ruleset(request, season)
    context = league_page(room, season, ruleset)
    context["admin"] = admin
    drawn(context.get("big_hands", []), room, admin)
    return page_or_partial(request, "scorer/league.html", "#standings", context)


@require_safe
def rating_help(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    room, _admin = _room(request, slug)
    context = {"room": room, "bound": PROVISIONAL_SIGMA, "base": BASE, "scale": SCALE}
    return render(request, "scorer/league_rating.html", context)


def _season_or_404(request: HtmxHttpRequest, slug: str, pk: int) -> tuple[Room, Season, str]:
    room, _admin = _room(request, slug)
    season = room.seasons.filter(pk=pk).first()
    if season is None:
        raise Http404("no such season")
    return room, season, _ruleset(request, season)


@require_safe
def league_svg(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The standings as one picture (1080 px wide, for the room's WeChat group); the
    page turns it into a PNG on the phone, as the result picture."""
    room, season, ruleset = _season_or_404(request, slug, pk)
    body = render_to_string("scorer/league.svg", picture(room, season, ruleset), request=request)
    return HttpResponse(body, content_type="image/svg+xml; charset=utf-8")


@require_safe
def league_csv(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The standings as CSV, through the one CSV writer."""
    room, season, ruleset = _season_or_404(request, slug, pk)
    table = standings_json(season, ruleset)
    head = [gettext("Place"), gettext("Player"), gettext("Score"), gettext("Game points"),
            gettext("Tables"), gettext("Tables counted"), "1", "2", "3", "4",
            gettext("Best game"), gettext("Rating"), gettext("Ranked")]  # fmt: skip
    lines = [
        [s["rank"], s["name"], s["score"], s["points"], s["tables"], s["counted"], *s["places"],
         s["best"], s["rating"], gettext("yes") if ranked else gettext("no")]
        for ranked, group in ((True, table["ranked"]), (False, table["unranked"]))
        for s in group
    ]  # fmt: skip
    return csv_download(csv_text([head, *lines]), f"{room.slug}-{season.pk}-standings")


@require_safe
def tables_csv(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The season's table results, a row per seat, through the one CSV writer."""
    room, season, ruleset = _season_or_404(request, slug, pk)
    head = [gettext("Day"), gettext("Rules"), gettext("Table"), gettext("Player"),
            gettext("Place"), gettext("Points"), gettext("Standard points"), gettext("Net yuan"),
            gettext("Hands"), gettext("Wins"), gettext("Self-drawn"), gettext("Dealt in"),
            gettext("Reopened")]  # fmt: skip
    rows = season_rows(season, ruleset).order_by("closed_at", "session_id", "seat")
    numbers: dict[int, int] = {}
    lines = [
        [r.day.isoformat(), ruleset_name(r.ruleset), numbers.setdefault(r.session_id, len(numbers) + 1),
         r.name, r.place, r.points, round(r.standard, 2), r.net_yuan, r.hands, r.wins,
         r.self_draws, r.deal_ins, gettext("yes") if r.reopened else ""]
        for r in rows
    ]  # fmt: skip
    return csv_download(csv_text([head, *lines]), f"{room.slug}-{season.pk}-tables")
