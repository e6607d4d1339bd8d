"""A room's people on its admins' phones: its players (rename, merge two names that
are one person) and its admins (the owner invites one with a one-time link).
Merging and removing an admin ask for a second tap (scorer/views/confirm.py);
every change is in the room's log."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scorer.clean.parse import page_number
from scorer.clean.text import PLAYER_NAME, SEARCH, TextRefused, clean_text
from scorer.forms.room import DisplayNameForm, MergeForm, RoomNameForm
from scorer.models.invites import INVITE_DAYS, RoomInvite
from scorer.models.players import Player
from scorer.models.rooms import RoomMember
from scorer.services.access import (
    invite_or_404,
    owner_or_404,
    player_or_404,
    room_admin,
    room_member_or_404,
)
from scorer.views import HtmxHttpRequest
from scorer.views.accounts import invite_link
from scorer.views.confirm import Ask, ask, back, confirmation

__all__ = [
    "invite_new",
    "invite_withdraw",
    "member_name",
    "room_name",
    "member_remove",
    "members",
    "player_rename",
    "players",
    "players_merge",
]

PLAYERS_PAGE = 50


def _players_url(member: RoomMember) -> str:
    return reverse("scorer:manage_players", args=[member.room.slug])


def _members_url(member: RoomMember) -> str:
    return reverse("scorer:manage_members", args=[member.room.slug])


@room_admin
def players(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The room's players, most recent first, with how many tables each sat at; a
    search by name (a room's registry grows to hundreds)."""
    rows = (
        member.room.players.annotate(tables=Count("seats"))
        .prefetch_related("aliases")
        .order_by("-last_played", "pk")
    )
    try:
        q = clean_text(SEARCH, request.GET.get("q") or "")
    except TextRefused as e:  # no name holds it: nothing to look for
        messages.error(request, e.message)
        q, rows = "", rows.none()
    if q:
        # By his name or one he went by (an alias): the one the admin remembers.
        known = Player.objects.filter(room=member.room, aliases__name__icontains=q)
        rows = rows.filter(Q(name__icontains=q) | Q(pk__in=known.values("pk")))
    page = Paginator(rows, PLAYERS_PAGE).get_page(page_number(request.GET.get("page")))
    everyone = list(member.room.players.only("pk", "name"))
    context = {
        "member": member,
        "room": member.room,
        "page": page,
        "q": q,
        "merge": MergeForm(everyone),
        "nav": "players",
    }
    return render(request, "room/players.html", context)


@room_admin
@require_POST
def player_rename(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    """A new name for a player; one that looks like another player's (scorer/clean/lookalike.py)
    is first asked about: the same person (merge them), or kept on the answer "no"."""
    player = player_or_404(member, pk)
    old = player.name
    try:
        name = clean_text(PLAYER_NAME, request.POST.get("name") or "")
        other = Player.looking_like(member.room.pk, name, but_not=player.pk)
        # "No, someone else" confirms this very name, not whatever is sent next.  A name
        # taken meanwhile is still refused by rename, under the player's lock.
        if other is not None and confirmation(request) != name:
            return _same_person(request, member, player, name, other)
        player.rename(name, by=member)
    except TextRefused as e:
        messages.error(request, e.message)
    except ValueError:
        messages.error(
            request,
            gettext(
                "That name is empty or another player's already: if they are one person, merge them."
            ),
        )
    else:
        messages.success(
            request,
            gettext("%(old)s is now %(new)s; the record stays the same.")
            % {"old": old, "new": player.name},
        )
    return HttpResponseRedirect(_players_url(member))


def _same_person(
    request: HtmxHttpRequest, member: RoomMember, player: Player, name: str, other: Player
) -> HttpResponse:
    """'Looks like 老王: same person?': merge the two (the merge's own question follows),
    or rename anyway, or neither."""
    context = {
        "member": member,
        "room": member.room,
        "nav": "players",
        "player": player,
        "name": name,
        "other": other,
        "cancel": _players_url(member),
    }
    return render(request, "room/lookalike.html", context)


@room_admin
@require_POST
def players_merge(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """Two names that are one person: the seats of the first go to the second."""
    form = MergeForm(list(member.room.players.only("pk", "name")), request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return back(request, _players_url(member))
    gone = player_or_404(member, form.cleaned_data["gone"])
    keep = player_or_404(member, form.cleaned_data["keep"])
    if confirmation(request) is None and gone.pk != keep.pk:
        return ask(
            request,
            member,
            "players",
            Ask(
                title=gettext("Merge two names"),
                question=gettext("Merge %(gone)s into %(keep)s?")
                % {"gone": gone.name, "keep": keep.name},
                details=(
                    gettext(
                        "Every table of %(gone)s goes to %(keep)s, and the name %(gone)s"
                        " goes from the room's players. It cannot be undone."
                    )
                    % {"gone": gone.name, "keep": keep.name},
                ),
                button=gettext("Merge"),
                action=reverse("scorer:manage_players_merge", args=[member.room.slug]),
                cancel=_players_url(member),
                fields=(("gone", str(gone.pk)), ("keep", str(keep.pk))),
            ),
        )
    try:
        moved = gone.merge_into(keep, by=member)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
    except Player.DoesNotExist:
        messages.error(request, gettext("One of these names was merged meanwhile."))
    else:
        messages.success(
            request,
            gettext("%(gone)s is merged into %(keep)s: %(n)s tables moved.")
            % {"gone": gone.name, "keep": keep.name, "n": moved},
        )
    return back(request, _players_url(member))


@room_admin
def members(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The room's owner and admins; the owner's pending invitations, each with its link."""
    people = list(member.room.members.select_related("user"))
    people.sort(key=lambda m: (not m.is_owner, m.joined_at))
    invites = []
    if member.is_owner:
        invites = [
            {"invite": i, "link": invite_link(request, i)}
            for i in member.room.invites.filter(used_at__isnull=True).order_by("-created_at")
            if i.pending
        ]
    context = {
        "member": member,
        "room": member.room,
        "people": people,
        "invites": invites,
        "invite_days": INVITE_DAYS,
        "name_form": DisplayNameForm(initial={"display_name": member.shown_name}),
        "room_form": RoomNameForm(initial={"name": member.room.name}) if member.is_owner else None,
        "nav": "members",
    }
    return render(request, "room/members.html", context)


@room_admin
@require_POST
def invite_new(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    owner_or_404(member)
    RoomInvite.make(member.room, by=member)
    messages.success(
        request,
        gettext(
            "A new invitation: send its link to the new admin. It works once, for %(days)s days."
        )
        % {"days": INVITE_DAYS},
    )
    return HttpResponseRedirect(_members_url(member))


@room_admin
@require_POST
def invite_withdraw(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    owner_or_404(member)
    found = invite_or_404(member, pk)
    if found.withdraw(by=member):
        messages.success(request, gettext("Withdrawn: the link opens nothing now."))
    return HttpResponseRedirect(_members_url(member))


@room_admin
@require_POST
def member_remove(request: HtmxHttpRequest, member: RoomMember, pk: int) -> HttpResponse:
    """The owner takes an admin off the room, on the second tap (an owner is never
    removed here)."""
    owner_or_404(member)
    other = room_member_or_404(member, pk)
    if other.is_owner:
        messages.error(request, gettext("An owner cannot be removed here."))
        return back(request, _members_url(member))
    if confirmation(request) is None:
        name = other.shown_name
        return ask(
            request,
            member,
            "members",
            Ask(
                title=gettext("Remove %(name)s") % {"name": name},
                question=gettext("Remove %(name)s from the room's admins?") % {"name": name},
                details=(
                    gettext(
                        "%(name)s can no longer open the room's pages; the room's log keeps"
                        " what they did. You can invite them again later."
                    )
                    % {"name": name},
                ),
                button=gettext("Remove %(name)s") % {"name": name},
                action=reverse("scorer:manage_member_remove", args=[member.room.slug, other.pk]),
                cancel=_members_url(member),
            ),
        )
    if other.remove(by=member):
        messages.success(
            request, gettext("%(name)s no longer runs this room.") % {"name": other.shown_name}
        )
    return back(request, _members_url(member))


@room_admin
@require_POST
def member_name(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The name the room's history gives this admin ("老板")."""
    form = DisplayNameForm(request.POST)
    if member.pk is None:  # the site's staff, looking after a room they are no member of
        messages.error(request, gettext("You look after this room as the site's staff."))
    elif form.is_valid():
        member.set_name(form.cleaned_data["display_name"])
        messages.success(request, gettext("Saved."))
    else:
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
    return HttpResponseRedirect(_members_url(member))


@room_admin
@require_POST
def room_name(request: HtmxHttpRequest, member: RoomMember) -> HttpResponse:
    """The owner renames the room (the default install's is called 棋牌室); its
    address, its tables' QR codes and every link stay as they are."""
    owner_or_404(member)
    form = RoomNameForm(request.POST)
    if form.is_valid():
        member.room.rename(form.cleaned_data["name"], by=member)
        messages.success(request, gettext("Saved."))
    else:
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
    return HttpResponseRedirect(_members_url(member))
