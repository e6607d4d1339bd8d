"""A player's page: his tables and his record per ruleset, his net over time, rename."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import REGISTRY
from scorer.access import public_player_or_404
from scorer.language import by_language
from scorer.players import records
from scorer.present.chart import Series, chart_legend, line_chart
from scorer.text import TextRefused
from scorer.views import HtmxHttpRequest

__all__ = ["player", "rename"]


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
    tables = [
        {"url": reverse("scorer:session", args=[s.session.code]), "at": s.session.created_at,
         "ruleset": _ruleset_name(s.session.ruleset), "names": "、".join(s.session.players)}
        for s in p.seats.select_related("session").order_by("-session__created_at")
    ]  # fmt: skip
    chart = ""
    if timeline:
        series = [Series(p.name, (0, *(net for _, net in timeline)))]
        chart = mark_safe(  # noqa: S308 (escaped)
            line_chart(series, gettext("Net result over time"), labels=False) + chart_legend(series)
        )
    context = {"player": p, "rows": rows, "tables": tables, "chart": chart}
    return render(request, "scorer/player.html", context)


@require_POST
def rename(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A new name; his tables keep the names they were played with, his record stays his."""
    p = public_player_or_404(slug)
    try:
        p.rename(request.POST.get("name") or "")
    except TextRefused as e:
        messages.warning(request, e.message)
    except ValueError:
        messages.warning(request, gettext("That name is empty or another player's already."))
    else:
        messages.success(request, gettext("Renamed. The record stays the same."))
    return HttpResponseRedirect(reverse("scorer:player", args=[p.slug]))
