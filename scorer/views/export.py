"""Export a table (CSV, JSON) and import an exported JSON as a new table."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from rules import REGISTRY, RuleError, json_input
from scorer.language import by_language, rule_error_text
from scorer.models import GameSession, Round
from scorer.models.rooms import Room
from scorer.services import phone
from scorer.services.access import held, room_or_404, session_or_404
from scorer.services.export import AlreadyHere, import_table, table_csv, table_json
from scorer.views import HtmxHttpRequest, csv_download

__all__ = ["export", "import_view", "room_import"]

MAX_IMPORT = 5 * 1024 * 1024  # an evening's table is a few hundred kB at most


@require_safe
def export(request: HtmxHttpRequest, code: str, fmt: str) -> HttpResponse:
    session = session_or_404(code)
    name = f"mahjong-{session.created_at:%Y%m%d}-{session.code}"
    if fmt == "json":
        response: HttpResponse = JsonResponse(
            table_json(session), json_dumps_params={"ensure_ascii": False, "indent": 1}
        )
    elif fmt == "csv":  # in the page's language and local time (scorer/clean/spreadsheet.py)
        return csv_download(table_csv(session), name)
    else:
        raise Http404("no such format")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


@require_POST
def import_view(request: HtmxHttpRequest) -> HttpResponse:
    """The site's start page's import: into the default room."""
    return _import(request, room_or_404(None), reverse("scorer:home"), reverse("scorer:import"))


@require_POST
def room_import(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A room's start page's import: into that room."""
    room = room_or_404(slug)
    return _import(
        request,
        room,
        reverse("scorer:room", args=[room.slug]),
        reverse("scorer:room_import", args=[room.slug]),
    )


def _import(request: HtmxHttpRequest, room: Room, back: str, again: str) -> HttpResponse:
    """A table exported as JSON becomes a new table of `room` (new link), re-scored
    round by round, marked imported: out of the room's books until its admins take
    it in (anyone can import on a room's page).

    A table already in the room is not imported again: the page says so, links the
    copies this phone already holds (an export file never gives away a live table's
    link: whoever holds the file holds no table by it) and offers a second copy,
    made only when the file is sent again with `copy_of` (the file cannot travel in
    a form field: browsers never refill a file input, and 5 MB is over a form
    field's limit)."""
    upload = request.FILES.get("file")
    if upload is None or upload.size is None or upload.size > MAX_IMPORT:
        messages.warning(request, gettext("Choose an exported table (a .json file under 5 MB)."))
        return HttpResponseRedirect(back)
    try:
        # Strict JSON (rules/json_input.py): NaN or a lone surrogate would reach the database.
        data = json_input.loads(upload.read())
    except RuleError:
        messages.warning(request, gettext("This file is not an exported table (not JSON)."))
        return HttpResponseRedirect(back)
    try:
        session = import_table(data, copy_of=request.POST.get("copy_of", ""), room=room)
    except AlreadyHere as e:
        mine = held(request, room, e.tables)
        context = {
            "room": room,  # (its start page is the page's home: templatetags/room_links.py)
            "tables": [_described(t) for t in mine],
            "found": len(e.tables),
            "not_held": len(e.tables) - len(mine),
            "origin": e.origin,
            "again": again,
        }
        return render(request, "scorer/import_again.html", context)
    except RuleError as e:
        messages.warning(request, rule_error_text(e))
        return HttpResponseRedirect(back)
    phone.remember_table(request, session)
    messages.success(request, gettext("Table imported: the same rounds, the same totals."))
    return redirect("scorer:session", code=session.code)


def _described(t: GameSession) -> dict[str, Any]:
    """A table as the question lists it: enough to tell it from another copy."""
    rs = REGISTRY.get(t.ruleset)
    return {
        "code": t.code,
        "ruleset": by_language(rs.name_zh, rs.name_en) if rs is not None else t.ruleset,
        "names": by_language("、", ", ").join(str(n) for n in t.players),
        "started": t.created_at,
        "rounds": t.rounds.filter(Round.hands_q(), status=Round.ACTIVE).count(),  # 局: hands
        "closed": t.closed_at is not None,
    }
