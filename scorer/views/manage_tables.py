"""A room's fixed tables, managed on a phone: add them, number and name them, print
the sheet of their QR codes (stuck on the tables once: a table's code, in its URL,
stays the same when it is renumbered or renamed), give one a new code when its
code leaked, retire one and bring it back.  Retiring and a new code ask for a
second tap (scorer/views/confirm.py); every change is in the room's log."""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorer.forms.tables import AddTablesForm, TableForm
from scorer.models import GameSession
from scorer.models.rooms import Room, RoomMember, RoomTable
from scorer.money.timefee import TimeFee
from scorer.present.events import join_names
from scorer.present.fee import clock_view
from scorer.services.access import room_admin, table_or_404
from scorer.views import HtmxHttpRequest
from scorer.views.confirm import Ask, ask, back, confirmation
from scorer.web.share import Share, qr_svg, qr_svg_inline, share_link

__all__ = [
    "manage_table",
    "manage_table_bring_back",
    "manage_table_new_code",
    "manage_table_qr",
    "manage_table_qr_versioned",
    "manage_table_retire",
    "manage_tables",
    "qr_sheet",
]

# Said where a change lost a race: the one who won it may be this admin himself, in
# another tab or on another phone, as well as another admin.
_JUST_ADDED = gettext_noop(
    "That table was just added, in another tab or by another admin: look again."
)


def _table_url(request: HttpRequest, t: RoomTable, room: Room) -> Share:
    return share_link(request, reverse("scorer:table", args=[room.slug, t.code]))


def _page(
    request: HttpRequest,
    member: RoomMember,
    add: AddTablesForm | None = None,
    editing: TableForm | None = None,
    status: int = 200,
) -> HttpResponse:
    room = member.room
    tables = list(room.tables.all())
    # Which tables are played now (one query): since when, who, the clock.
    playing: dict[int, GameSession] = {}
    for s in room.sessions.filter(closed_at__isnull=True, room_table__isnull=False).order_by(
        "updated_at", "pk"
    ):
        if s.room_table_id is not None:
            playing[s.room_table_id] = s  # the latest activity wins, as open_session says
    rows = [
        {
            "table": t,
            "session": playing.get(t.pk),
            "players": "、".join(str(n) for n in playing[t.pk].players) if t.pk in playing else "",
            "clock": clock_view(playing[t.pk]) if t.pk in playing else None,
            "url": _table_url(request, t, room).url,
            "qr": _qr_url(member, t),
            "form": editing if editing is not None and editing.instance.pk == t.pk else None,
            # Its own price (包间A dearer than the hall), in words; none: its rules' price.
            "price": TimeFee.of(t.time_fee).words() if t.time_fee else "",
        }
        for t in tables
        if t.in_use
    ]
    retired = [t for t in tables if not t.in_use]
    if add is None:
        add = AddTablesForm(initial={"number": room.next_table_number(), "count": 1})
    context = {
        "member": member,
        "room": room,
        "rows": rows,
        "retired": retired,
        "add": add,
        "nav": "tables",
    }
    return render(request, "room/tables.html", context, status=status)


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def manage_tables(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """The room's tables; POST adds one or several."""
    if request.method != "POST":
        return _page(request, member)
    form = AddTablesForm(request.POST)
    if not form.is_valid():
        return _page(request, member, add=form, status=400)
    data = form.cleaned_data
    try:
        made = member.room.add_tables(data["number"], data["count"], data["name"] or "", by=member)
    except ValueError as e:
        taken = e.args[0]
        form.add_error(
            "number",
            ngettext(
                "The room has table %(numbers)s already.",
                "The room has tables %(numbers)s already.",
                len(taken),
            )
            % {"numbers": join_names([str(n) for n in taken])},
        )
        if member.room.tables.filter(number__in=taken, retired_at__isnull=False).exists():
            form.add_error(
                "number", gettext("A retired table keeps its number: bring it back below.")
            )
        return _page(request, member, add=form, status=400)
    except IntegrityError:  # added at this very moment (another tab, or another admin)
        form.add_error("number", gettext(_JUST_ADDED))
        return _page(request, member, add=form, status=409)
    messages.success(
        request,
        ngettext("Added %(labels)s.", "Added %(count)s tables: %(labels)s.", len(made))
        % {"count": len(made), "labels": join_names([t.label for t in made])},
    )
    return HttpResponseRedirect(reverse("scorer:manage_tables", args=[member.room.slug]))


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def manage_table(request: HttpRequest, member: RoomMember, number: int) -> HttpResponse:
    """Renumber or rename one table (its QR code stays the same)."""
    t = table_or_404(member.room, number)
    if request.method != "POST":
        return _page(request, member, editing=TableForm(instance=t))
    form = TableForm(request.POST, instance=t)
    if not form.is_valid():
        return _page(request, member, editing=form, status=400)
    try:
        data = form.cleaned_data
        t.edit(data["number"], data["name"] or "", by=member, time_fee=data["time_fee"])
    except IntegrityError:  # that number taken meanwhile (another tab, or another admin)
        form.add_error("number", gettext(_JUST_ADDED))
        return _page(request, member, editing=form, status=409)
    messages.success(
        request,
        gettext("Saved %(label)s. Its QR code has not changed.") % {"label": t.label},
    )
    return HttpResponseRedirect(reverse("scorer:manage_tables", args=[member.room.slug]))


def _tables_url(member: RoomMember) -> str:
    return reverse("scorer:manage_tables", args=[member.room.slug])


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def manage_table_retire(request: HtmxHttpRequest, member: RoomMember, number: int) -> HttpResponse:
    """Retire a table, on the second tap: off the sheet, its code opens nothing."""
    t = table_or_404(member.room, number)
    if confirmation(request) is None:
        return ask(
            request,
            member,
            "tables",
            Ask(
                title=gettext("Retire %(table)s") % {"table": t.label},
                question=gettext("Retire %(table)s?") % {"table": t.label},
                details=(
                    gettext(
                        "Its QR code will open nothing: a phone that scans it reads that the"
                        " table is no longer in use. It leaves the sheet of QR codes."
                    ),
                    gettext(
                        "A game open at it goes on by its own link until it is closed; games"
                        " played at it keep their links. You can bring it back later."
                    ),
                ),
                button=gettext("Retire %(table)s") % {"table": t.label},
                action=reverse("scorer:manage_table_retire", args=[member.room.slug, number]),
                cancel=_tables_url(member),
            ),
        )
    if t.retire(by=member):
        messages.success(request, gettext("%(table)s is retired.") % {"table": t.label})
    else:
        messages.info(request, gettext("%(table)s was retired already.") % {"table": t.label})
    return back(request, _tables_url(member))


@room_admin
@require_POST
def manage_table_bring_back(
    request: HtmxHttpRequest, member: RoomMember, number: int
) -> HttpResponse:
    """A retired table in use again, with its code (nothing is lost: one tap)."""
    t = table_or_404(member.room, number)
    if t.bring_back(by=member):
        messages.success(
            request,
            gettext("%(table)s is in use again, with the QR code it had.") % {"table": t.label},
        )
    return HttpResponseRedirect(_tables_url(member))


@room_admin
@require_http_methods(["GET", "HEAD", "POST"])
def manage_table_new_code(
    request: HtmxHttpRequest, member: RoomMember, number: int
) -> HttpResponse:
    """A new QR code for a table whose code leaked, on the second tap, which carries
    the code it confirms replacing (two admins confirming at once replace it once)."""
    t = table_or_404(member.room, number)
    if not t.in_use:
        messages.error(request, gettext("A retired table gets no new code: bring it back first."))
        return back(request, _tables_url(member))
    seen = confirmation(request)
    if seen is None:
        return ask(
            request,
            member,
            "tables",
            Ask(
                title=gettext("A new QR code for %(table)s") % {"table": t.label},
                question=gettext("Give %(table)s a new QR code?") % {"table": t.label},
                details=(
                    gettext(
                        "The code on the table stops working at once: print the new one"
                        " and stick it over the old one."
                    ),
                    gettext(
                        "A game open at it goes on by its own link; games played at it"
                        " keep their links."
                    ),
                ),
                button=gettext("New QR code"),
                action=reverse("scorer:manage_table_new_code", args=[member.room.slug, number]),
                cancel=_tables_url(member),
                value=t.qr_version,
            ),
        )
    try:
        replaced = t.replace_code(by=member, seen=seen)
    except ValueError:  # retired meanwhile
        replaced = False
    if replaced:
        messages.success(
            request,
            gettext("%(table)s has a new QR code: print it; the old one opens nothing now.")
            % {"table": t.label},
        )
    else:
        messages.info(
            request,
            gettext(
                "This table was changed meanwhile, in another tab or by another admin: look again."
            ),
        )
    return back(request, _tables_url(member))


def _qr_url(member: RoomMember, t: RoomTable) -> str:
    """The table's QR image at a URL of its own code's: a new code, a new URL."""
    return reverse(
        "scorer:manage_table_qr_versioned", args=[member.room.slug, t.number, t.qr_version]
    )


def _qr_image(request: HttpRequest, member: RoomMember, t: RoomTable) -> HttpResponse:
    return HttpResponse(
        qr_svg(_table_url(request, t, member.room).url), content_type="image/svg+xml"
    )


@room_admin
@require_safe
def manage_table_qr(request: HttpRequest, member: RoomMember, number: int) -> HttpResponse:
    """One table's QR code (SVG) at its plain URL: never kept in a cache, as every
    admin page (scorer/web/caching.py; the same URL shows a new code the moment there
    is one)."""
    t = table_or_404(member.room, number)
    return _qr_image(request, member, t)


@room_admin
def manage_table_qr_versioned(
    request: HttpRequest, member: RoomMember, number: int, version: str
) -> HttpResponse:
    """One table's QR code at the URL the tables page links: its code's version in
    the URL, so no page can show an image of an old code (a new code is a new URL);
    an old version is no image (404). Like every answer to a signed-in admin it is
    kept in no cache (scorer/web/caching.py)."""
    t = table_or_404(member.room, number)
    if version != t.qr_version:
        raise Http404("an old QR code")
    if request.method not in ("GET", "HEAD"):  # (after the lookup: another key is a 404)
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return _qr_image(request, member, t)


@room_admin
@require_safe
def qr_sheet(request: HttpRequest, member: RoomMember) -> HttpResponse:
    """Every table's QR code on A4 (the print stylesheet lays out 3 x 4 a page), with
    its label and the room's name: printed once, cut up and stuck on the tables.
    Tables in use only, each with its code as it is now (drawn into the page)."""
    room = member.room
    cards = []
    loopback = False
    for t in room.tables.filter(retired_at__isnull=True):
        share = _table_url(request, t, room)
        loopback = loopback or share.loopback_only
        cards.append(
            {"table": t, "url": share.url, "svg": mark_safe(qr_svg_inline(share.url))}  # noqa: S308
        )
    context = {"member": member, "room": room, "cards": cards, "loopback": loopback}
    return render(request, "room/qr_sheet.html", context)
