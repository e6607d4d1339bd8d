"""The home page's "Your tables": this phone's list, each table's state, and hiding one.

The list is the phone's own (scorer/services/phone.py keeps it in its Django session):
hiding a table takes it off this list only; the table, its rounds and its link
are untouched, and opening the link lists it again.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from rules import REGISTRY
from scorer.language import by_language
from scorer.models import GameSession
from scorer.models.rooms import Room
from scorer.present.events import join_names
from scorer.services import phone
from scorer.services.access import session_or_404
from scorer.templatetags.scorer_format import signed_text
from scorer.views import HtmxHttpRequest


def tables_context(request: HtmxHttpRequest, room: Room) -> dict[str, Any]:
    """The list as `room`'s start page shows it, latest activity first (two queries
    whatever its length: the tables, then every standing round's payments).

    Only the room's own tables: a room's pages link nothing of another room (the
    phone's tables of another room are on that room's start page)."""
    opened, hidden = phone.tables_opened(request)
    sessions = [s for s in opened if s.room_id == room.pk]
    if hidden is not None and hidden.room_id != room.pk:
        hidden = None
    standings = GameSession.standings_of(sessions)
    return {
        "my_tables": [_row(s, *standings[s.pk]) for s in sessions],
        "hidden_table": None if hidden is None else _row(hidden, [], 0),
    }


def _row(s: GameSession, totals: list[int], rounds: int) -> dict[str, Any]:
    rs = REGISTRY.get(s.ruleset)
    return {
        "code": s.code,
        "url": reverse("scorer:session", args=[s.code]),
        "players": join_names([str(n) for n in s.players]),
        "ruleset": by_language(rs.name_zh, rs.name_en) if rs is not None else s.ruleset,
        "updated_at": s.updated_at,
        "closed": s.closed_at is not None,
        "label": s.room_table.label if s.room_table is not None else "",
        "standing": _standing(s, totals, rounds),
    }


def _standing(s: GameSession, totals: list[int], rounds: int) -> str:
    """Who leads, with his total ("大刘 领先 +40"); the players tied at the top
    all named; nothing recorded yet, or all square, said so."""
    if not rounds:
        return gettext("No rounds yet")
    best = max(totals, default=0)
    if not any(totals):
        return gettext("All square")
    leaders = [str(n) for n, t in zip(s.players, totals, strict=False) if t == best]
    names = join_names(leaders)
    if len(leaders) > 1:
        return gettext("%(names)s share the lead, %(total)s") % {
            "names": names,
            "total": signed_text(best),
        }
    if s.closed_at is not None:
        return gettext("%(names)s finished first, %(total)s") % {
            "names": names,
            "total": signed_text(best),
        }
    return gettext("%(names)s leads, %(total)s") % {"names": names, "total": signed_text(best)}


@require_POST
def hide(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Take an (accidental) table off this phone's list, or put it back ("show")."""
    session = session_or_404(code)
    if request.POST.get("show"):
        phone.remember_table(request, session)
    else:
        phone.hide_table(request, session.code)
    # Back to the page the list was on (the site's, a room's or a fixed table's home),
    # else the table's own room's start page (never another room's).
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("scorer:room", args=[session.room.slug])
    if request.htmx:  # only the list
        context = {**tables_context(request, session.room), "back": back}
        return render(request, "scorer/home.html#my_tables", context)
    return HttpResponseRedirect(back)
