"""A room's configurations on its admins' phones: the list (offer or not, move, copy),
a new one, the edit form with its inline checks, and each one's history.

Every row is reached through the member's room (scorer.services.access); every change is a
model method under its lock (scorer.models.rooms)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scorer.clean.parse import page_number
from scorer.forms.room import ConfigForm, NewConfigForm, free_name
from scorer.forms.start import config_label
from scorer.language import by_language
from scorer.models.rooms import EditConflict, RoomConfig, RoomMember
from scorer.money.fees import FeeRule
from scorer.money.timefee import TimeFee
from scorer.present.history import config_history, value_text
from scorer.services.access import config_or_404, room_admin
from scorer.views import HtmxHttpRequest
from scorer.web.htmx_answers import page_or_partial

__all__ = ["config_action", "config_edit", "config_history_page", "config_new", "configs"]

HISTORY_PAGE = 50


# The parameter a ruleset calls its 底分 by, where it has one: a configuration's line
# in the list says it, as the room's players tell their tables apart by it.
STAKE = "base"


def stake_text(config: RoomConfig) -> str:
    """ "底分 10": the configuration's stake in its ruleset's words; "" for a ruleset
    without one."""
    rs = config.rules
    p = next((p for p in rs.params if p.name == STAKE), None) if rs is not None else None
    if p is None:
        return ""
    label = by_language(p.label_zh, p.label_en)
    return f"{label} {value_text(p, (config.params or {}).get(p.name, p.default))}"


def _rows(configs: list[RoomConfig]) -> list[dict[str, object]]:
    """The lines of one part of the list (offered, or not), each with its stake and
    its fee, first and last within that part (a move goes past one of its kind)."""
    rows = []
    for i, c in enumerate(configs):
        rs = c.rules
        rows.append(
            {
                "config": c,
                "label": config_label(c),
                "ruleset": by_language(rs.name_zh, rs.name_en) if rs else c.ruleset,
                "stake": stake_text(c),
                # "No table fee" for none; its sentence's stop left out: the line joins with " · ".
                "fee": FeeRule.of(c.fee).describe().rstrip("。."),
                "time_fee": TimeFee.of(c.time_fee).words() if c.time_fee else "",
                "first": i == 0,
                "last": i == len(configs) - 1,
            }
        )
    return rows


def _list(
    request: HtmxHttpRequest, member: RoomMember, status: int = 200, show_off: bool = False
) -> HttpResponse:
    """The list: the offered configurations in the start page's order, then those not
    offered, folded (a room has dozens of them; `show_off` unfolds them, after a tap
    on one of them)."""
    configs = list(member.room.configs.order_by("order", "pk"))
    context = {
        "member": member,
        "room": member.room,
        "rows": _rows([c for c in configs if c.enabled]),
        "off_rows": _rows([c for c in configs if not c.enabled]),
        "show_off": show_off or request.GET.get("off") == "1",
        "nav": "configs",
    }
    return page_or_partial(request, "room/configs.html", "#config_list", context, status=status)


@room_admin
def configs(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    return _list(request, member)


ACTIONS = ("offer", "withdraw", "up", "down", "top", "copy")


@room_admin
@require_POST
def config_action(
    request: HtmxHttpRequest, member: RoomMember, pk: int, action: str
) -> HttpResponse:
    """One tap in the list; with htmx the answer is the list alone, else back to it."""
    if action not in ACTIONS:
        raise Http404("no such action")
    config = config_or_404(member, pk)
    try:
        if action in ("offer", "withdraw"):
            config.set_offered(action == "offer", by=member)
        elif action in ("up", "down", "top"):
            step = -1 if action == "up" else 1
            member.room.move_config(config.pk, step, by=member, to_top=action == "top")
        else:
            copy = config.clone(
                free_name(
                    member.room, config.ruleset, gettext("%(name)s (copy)") % {"name": config.name}
                ),
                by=member,
            )
            messages.success(
                request,
                gettext("Copied as %(name)s: not offered until you offer it.")
                % {"name": copy.name},
            )
    except ValidationError as e:
        # Refused, nothing changed: said above the list (with htmx the list is the
        # answer, swapped in as a 200 so the message shows; htmx drops a 4xx's body).
        messages.error(request, " ".join(e.messages))
    # A tap on one not offered (or a copy, which is not) keeps that part unfolded.
    config.refresh_from_db(fields=["enabled"])
    show_off = action == "copy" or not config.enabled
    if request.htmx:
        return _list(request, member, show_off=show_off)
    url = reverse("scorer:manage_configs", args=[member.room.slug])
    return HttpResponseRedirect(f"{url}?off=1#config-{config.pk}" if show_off else url)


@room_admin
def config_new(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """A new configuration from a code preset or a copy of one of the room's; it opens
    in the edit form, not offered until the admin offers it."""
    form = NewConfigForm(member.room, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            config = form.create(by=member)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(
                request, gettext("Made. It is not offered until you offer it in the list.")
            )
            return HttpResponseRedirect(
                reverse("scorer:manage_config", args=[member.room.slug, config.pk])
            )
    status = 400 if request.method == "POST" else 200
    context = {"member": member, "room": member.room, "form": form, "nav": "configs"}
    return render(request, "room/config_new.html", context, status=status)


def _conflict_said(member: RoomMember, current: RoomConfig) -> str:
    """Who saved the configuration since the form was opened: this admin himself (in
    another tab, on another phone), or another admin, by the name the room gives him."""
    last = current.history.order_by("-history_date", "-history_id").first()
    by = last.history_user if last is not None else None
    if by is not None and by.pk == member.user_id:
        return gettext(
            "You changed this configuration in another tab or on another phone meanwhile."
            " Nothing was saved from this one: here it is as it is now; make your change"
            " again."
        )
    if by is None:
        return gettext(
            "This configuration was changed meanwhile. Nothing was saved: here it is as it"
            " is now; make your change again."
        )
    return gettext(
        "%(name)s changed this configuration meanwhile. Nothing was saved: here it is as"
        " it is now; make your change again."
    ) % {"name": member.room.name_of(by)}


@room_admin
def config_edit(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    config = config_or_404(member, pk)
    form = ConfigForm(config, request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                config.edit(
                    data["name"],
                    data["params"],
                    data["fee"],
                    seen=data["seen"] or None,
                    by=member,
                    locked=data["locked"],
                    time_fee=data["time_fee"],
                )
            except EditConflict as e:
                # Shown again at the values saved meanwhile, with the admin's lost
                # change said in the message: nothing of this form was saved.
                messages.error(request, _conflict_said(member, e.current))
                config = e.current
                form = ConfigForm(config)
                status = 409
            else:
                messages.success(request, gettext("Saved. Tables started from now on use it."))
                return HttpResponseRedirect(
                    reverse("scorer:manage_configs", args=[member.room.slug])
                )
        else:
            status = 400
    rs = config.rules
    context = {
        "member": member,
        "room": member.room,
        "config": config,
        "form": form,
        "ruleset": by_language(rs.name_zh, rs.name_en) if rs else config.ruleset,
        "nav": "configs",
    }
    return render(request, "room/config_edit.html", context, status=status)


@room_admin
def config_history_page(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    config: RoomConfig = config_or_404(member, pk)
    names = {m.user_id: m.shown_name for m in member.room.members.select_related("user").all()}
    page = Paginator(config_history(config, names), HISTORY_PAGE).get_page(
        page_number(request.GET.get("page"))
    )
    context = {
        "member": member,
        "room": member.room,
        "config": config,
        "label": config_label(config),
        "page": page,
        "nav": "configs",
    }
    return render(request, "room/config_history.html", context)
