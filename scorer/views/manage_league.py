"""The room's league as its admins run it (`/r/<slug>/manage/league/`): the league page
public or not (the owner's choice, off by default), seasons opened, changed and
closed, players left out of the league (不参加排名).  Each change is logged in the
room's log by its model method."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scorer.forms.league import SeasonForm
from scorer.models import League, RoomMember, Season
from scorer.models.league import SeasonClosed
from scorer.services.access import player_or_404, room_admin
from scorer.services.league import close_season
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import go, refused_status

__all__ = ["manage_league", "season_close", "season_edit", "set_left_out", "set_public"]


def _page(request: HtmxHttpRequest, member: RoomMember, form: SeasonForm | None = None,
          status: int = 200) -> HttpResponse:  # fmt: skip
    room = member.room
    league = League.of(room)
    context = {
        "member": member, "room": room, "nav": "league", "league": league,
        "seasons": list(room.seasons.prefetch_related("configs")),
        "form": form or SeasonForm(room),
        "left_out": list(league.left_out.order_by("name")),
        "players": list(room.players.exclude(pk__in=league.left_out.all()).order_by("name")),
    }  # fmt: skip
    return render(request, "room/league.html", context, status=status)


def _back(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    return go(request, reverse("scorer:manage_league", args=[member.room.slug]))


@room_admin
def manage_league(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The league's settings and seasons; a posted form opens a new season."""
    if request.method != "POST":
        return _page(request, member)
    form = SeasonForm(member.room, request.POST)
    if not form.is_valid():
        return _page(request, member, form, refused_status(request, 400))
    configs, fields = form.season_fields()
    Season.open(member.room, member, configs, **fields)
    messages.success(request, gettext("The season is open."))
    return _back(request, member)


@room_admin
def season_edit(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    season = get_object_or_404(member.room.seasons, pk=pk)
    if request.method != "POST":
        context = {"member": member, "room": member.room, "nav": "league", "season": season,
                   "form": SeasonForm(member.room, season=season)}  # fmt: skip
        return render(request, "room/season_edit.html", context)
    form = SeasonForm(member.room, request.POST)
    if not form.is_valid():
        context = {"member": member, "room": member.room, "nav": "league", "season": season,
                   "form": form}  # fmt: skip
        return render(
            request, "room/season_edit.html", context, status=refused_status(request, 400)
        )
    configs, fields = form.season_fields()
    try:
        changed = season.edit(member, configs, **fields)
    except SeasonClosed:
        messages.warning(request, gettext("The season is closed: its standings stay as closed."))
        return _back(request, member)
    messages.success(request, gettext("Season saved.") if changed else gettext("Nothing changed."))
    return _back(request, member)


@room_admin
@require_POST
def season_close(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    season = get_object_or_404(member.room.seasons, pk=pk)
    if close_season(season, member):
        messages.success(request, gettext("The season is closed: its standings are kept."))
    else:
        messages.info(request, gettext("The season was closed already."))
    return _back(request, member)


@room_admin
@require_POST
def set_public(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The owner's choice: the league page public on the room's start page, or not."""
    if not member.is_owner:
        raise Http404("the owner's choice")
    public = request.POST.get("public") == "1"
    League.of(member.room).set_public(public, member)
    return _back(request, member)


@room_admin
@require_POST
def set_left_out(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    """不参加排名: a player left out of the league's standings, or back in."""
    player = player_or_404(member, pk)
    League.of(member.room).leave_out(player, request.POST.get("out") == "1", member)
    return _back(request, member)
