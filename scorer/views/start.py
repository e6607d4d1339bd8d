"""Starting a table: a room's start page (or a fixed table's QR code) and the form that
creates the session (its live page: session.py).

Plain function views; the session and its seats are made by scorer/services/seating.py
(start_table, at a fixed table start_at).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from scorer.forms.start import ROOM, StartForm, chosen_config
from scorer.models.players import recent_names
from scorer.models.rooms import Room, RoomTable
from scorer.services import phone
from scorer.services.access import (
    REPLACED,
    RETIRED,
    room_or_404,
    room_table_by_code_or_404,
    table_gone,
)
from scorer.services.seating import TableRetired, open_session, start_at, start_table
from scorer.views import HtmxHttpRequest
from scorer.views.my_tables import tables_context
from scorer.web.htmx_answers import page_or_partial

__all__ = ["create", "home", "room_create", "room_home", "table"]


def _home(
    request: HtmxHttpRequest,
    room: Room,
    form: StartForm | None,
    status: int = 200,
    room_table: RoomTable | None = None,
    fields_only: bool = False,
) -> HttpResponse:
    """The start page, or (`fields_only`, another configuration chosen) only its
    form's own fields (players, parameters)."""
    return page_or_partial(
        request,
        "scorer/home.html",
        "#ruleset_fields",
        {"room": room, "form": form},
        status=status,
        asked=fields_only,
        page_only=lambda: {
            "room_table": room_table,
            "recent_names": recent_names(room.pk),
            # The room's league, linked when its owner made it public.
            "league_public": room.league_public,
            **tables_context(request, room),
        },
    )


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The site's landing page: the default room's start page (zero set-up: one room)."""
    return _start_page(request, room_or_404(None))


@require_safe
def room_home(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A room's start page: the form that starts a table from its configurations."""
    return _start_page(request, room_or_404(slug))


@require_safe
def table(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """A fixed table's QR code: its open session (this phone joins it, and its list of
    tables keeps it), else the room's start page for this table, its last players'
    names filled in."""
    room = room_or_404(slug)
    room_table = room_table_by_code_or_404(room, code)
    gone = table_gone(room_table, code)
    if gone is not None:
        return _gone(request, room, room_table, gone)
    session = open_session(room_table)
    if session is not None:
        phone.remember_table(request, session)
        return redirect("scorer:session", code=session.code)
    return _start_page(request, room, room_table)


def _gone(request: HtmxHttpRequest, room: Room, room_table: RoomTable, why: str) -> HttpResponse:
    """A retired table's code, or a code replaced by a new one: the room's own page
    saying so (410 Gone), not the 404 of a wrong link.  Nothing here leads to the
    table's games or its new code."""
    context = {"room": room, "room_table": room_table, "replaced": why == REPLACED}
    return render(request, "scorer/table_gone.html", context, status=410)


def _start_page(
    request: HtmxHttpRequest, room: Room, room_table: RoomTable | None = None
) -> HttpResponse:
    offered = room.offered_configs()
    chosen = chosen_config(offered, request.GET.get("config"), request.GET.get("ruleset"))
    if chosen is None and offered:
        chosen = offered[0]  # a link to rules no longer offered: the room's first
    own = room_table.time_fee if room_table is not None else None
    form = StartForm(offered, chosen, own_time_fee=own) if chosen is not None else None
    # Another configuration chosen (htmx): only its own fields (players, parameters).
    fields_only = bool(request.htmx) and "config" in request.GET and form is not None
    if form is not None and room_table is not None and not fields_only:
        _prefill_names(form, room_table.last_names())
    return _home(request, room, form, room_table=room_table, fields_only=fields_only)


def _prefill_names(form: StartForm, names: list[str]) -> None:
    """Last time's players at this table, in their seats (each field stays editable)."""
    for seat, name in enumerate(names[:4]):
        form.fields[f"name_{seat}"].initial = name
    players = form.fields["players"]
    if len(names) in form.rules.players:
        players.initial = len(names)


@require_POST
def create(request: HtmxHttpRequest) -> HttpResponse:
    return _create(request, room_or_404(None))


@require_POST
def room_create(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _create(request, room_or_404(slug))


def _create(request: HtmxHttpRequest, room: Room) -> HttpResponse:
    # Started from a fixed table's QR code: the table's code (not its number, which
    # anyone could guess and so join a table he never saw).
    code = request.POST.get("table")
    room_table = room_table_by_code_or_404(room, code) if code else None
    if room_table is not None and code and (gone := table_gone(room_table, code)) is not None:
        return _gone(request, room, room_table, gone)  # the form was opened before
    offered = room.offered_configs()
    chosen = chosen_config(
        offered,
        request.POST.get("config") or request.POST.get("preset"),
        request.POST.get("ruleset"),
    )
    if chosen is None:
        if not offered:
            return _home(request, room, None, status=400, room_table=room_table)
        form = StartForm(offered, offered[0], request.POST)
        form.is_valid()
        form.add_error("config", gettext("This room does not offer these rules."))
        return _home(request, room, form, status=400, room_table=room_table)
    form = StartForm(offered, chosen, request.POST)
    if not form.is_valid():
        return _home(request, room, form, status=400, room_table=room_table)
    data = form.cleaned_data
    rules = form.rules
    fields: dict[str, Any] = {
        "ruleset": rules.id,
        "preset": f"{ROOM}{chosen.pk}",
        # Every value, not only the changed ones: a later change of a default or of the
        # room's configuration never changes this session's rounds.
        "params": dict(rules.resolve_params(data["params"])),
        "players": data["names"],
        "first_dealer": data["first_dealer"],
        "money_per_point": data.get("money_per_point"),
        "fee": dict(chosen.fee or {}),  # the room's 台费 as it stands now, snapshotted
        # 计时: the fixed table's own price (包间A) over the configuration's, snapshotted.
        "time_fee": dict((room_table.time_fee if room_table else None) or chosen.time_fee or {}),
    }
    if room_table is None:
        session = start_table(room, **fields)
    else:
        try:
            session, started = start_at(room_table, **fields)
        except TableRetired:
            return _gone(request, room, room_table, RETIRED)
        if not started:
            messages.info(
                request,
                gettext(
                    "%(table)s was started on another phone a moment ago: "
                    "this phone joined it (the names and rules entered here were not used)."
                )
                % {"table": room_table.label},
            )
    phone.remember_table(request, session)
    return redirect("scorer:session", code=session.code)
