"""A player's page: his record per ruleset, his net over time, and the tables of his
that the viewer holds.

The page is reached by an unguessable slug, linked from the result page of every
table he sat at: it shows his record to whoever is sent there, but links only the
tables the viewer already holds (the tables this phone has opened; all of the
room's for its signed-in admins), so that one table's link never leads to another
table (docs/security.md).  His name in the room's registry is changed by the
room's admins only (scorer/views/manage_people.py)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from rules import REGISTRY
from scorer.language import by_language
from scorer.present.chart import Series, chart_legend, line_chart
from scorer.present.player_league import player_league
from scorer.services.access import admin_of, held, public_player_or_404
from scorer.services.player_records import records
from scorer.views import HtmxHttpRequest
from scorer.views.league import drawn

__all__ = ["player"]


def _ruleset_name(rid: str) -> str:
    rs = REGISTRY.get(rid)
    return by_language(rs.name_zh, rs.name_en) if rs is not None else rid


@require_safe
def player(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    p = public_player_or_404(slug)
    by, timeline = records(p)
    rows = [
        {"label": gettext("All rulesets") if key == "" else _ruleset_name(key), "rec": rec}
        for key, rec in sorted(by.items(), key=lambda kv: (kv[0] != "", kv[0]))
    ]
    sessions = [
        s.session for s in p.seats.select_related("session").order_by("-session__created_at")
    ]
    mine = held(request, p.room, sessions)
    tables = [
        {"url": reverse("scorer:session", args=[s.code]), "at": s.created_at,
         "ruleset": _ruleset_name(s.ruleset), "names": "、".join(s.players)}
        for s in mine
    ]  # fmt: skip
    chart = ""
    if timeline:
        series = [Series(p.name, (0, *(net for _, net in timeline)))]
        chart = mark_safe(  # noqa: S308 (escaped)
            line_chart(series, gettext("Net result over time"), labels=False) + chart_legend(series)
        )
    league = player_league(p)
    drawn(league["stats"]["biggest"], p.room, admin_of(request, p.room))
    context = {
        "league": league,
        "player": p,
        "rows": rows,
        "tables": tables,
        "not_held": len(sessions) - len(mine),
        "chart": chart,
        # The room's admins rename a player on the room's players page.
        "manage_url": reverse("scorer:manage_players", args=[p.room.slug])
        if admin_of(request, p.room)
        else "",
    }
    return render(request, "scorer/player.html", context)
