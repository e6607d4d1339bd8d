"""What a fan means: the fan picker's "?" opens this (htmx loads the part into the
list when it is opened; without script it is a page of its own).

Rules only, nothing of a room or a table: the same answer for everyone, so it may
be cached.  The words and the example hand come from the ruleset's package
(rules/fan_help.py); the example is drawn with the picker's own tile faces.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from rules import REGISTRY
from rules.fan_help import FanHelp, example_groups
from rules.tiles import SEAT_WINDS, parse_tile
from scorer.language import by_language
from scorer.present.words import WIND_NAMES
from scorer.record.picker import FACES
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import page_or_partial

__all__ = ["fan_help"]


def _situation_words(help: FanHelp) -> list[str]:
    """What the example needs besides its tiles, in the reader's words."""
    flags = {
        "self_drawn": gettext("self-drawn"),
        "last_tile": gettext("the last tile"),
        "after_kong": gettext("after a kong"),
        "robbing_kong": gettext("robbing a kong"),
        "fourth_tile": gettext("the last copy of the tile"),
        "heavenly": gettext("the dealer's first tiles"),
        "earthly": gettext("on the first draw"),
    }
    out = [word for key, word in flags.items() if help.situation.get(key) is True]
    for key, label in (("prevalent_wind", gettext("round wind")),
                       ("seat_wind", gettext("seat wind"))):  # fmt: skip
        wind = help.situation.get(key)
        if wind in SEAT_WINDS:
            out.append(f"{label} {WIND_NAMES.get(wind, wind)}")
    flowers = help.situation.get("flowers")
    if isinstance(flowers, int) and flowers:
        out.append(gettext("%(n)s flower(s)") % {"n": flowers})
    return out


@require_safe
def fan_help(request: HtmxHttpRequest, ruleset: str, fid: int) -> HttpResponse:
    rs = REGISTRY.get(ruleset)
    help = rs.fan_help().get(fid) if rs is not None else None
    if rs is None or help is None:
        raise Http404
    name = next((f for f in rs.fan_catalog() if f["id"] == fid), None)
    groups: list[dict[str, Any]] = [
        {"kind": g["kind"], "faces": [FACES[parse_tile(t)] for t in g["tiles"]]}
        for g in example_groups(help.example)
    ]
    context = {
        "ruleset": by_language(rs.name_zh, rs.name_en),
        "name_zh": name["name_zh"] if name else "",
        "name_en": name["name_en"] if name else "",
        "meaning": by_language(help.meaning_zh, help.meaning_en),
        "groups": [] if help.picked else groups,
        "needs": _situation_words(help),
        "picked": help.picked,
        "aliases": help.aliases,
    }
    return page_or_partial(request, "scorer/fan_help.html", "#body", context)
