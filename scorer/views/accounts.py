"""Signing in and out (the app's own pages, Django's auth views; django-axes still
throttles failed sign-ins), a user's rooms, and an invitation's link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from scorer.forms.room import DisplayNameForm, SignUpForm
from scorer.models.invites import InviteRefused, RoomInvite
from scorer.models.rooms import Room
from scorer.services.access import invite_by_token_or_404
from scorer.web.share import share_link
from scorer.web.signin import SignOut

__all__ = ["invite", "room_landing", "sign_in", "sign_out", "my_rooms"]

# Django's own views (a maintained library's, with its redirect checks and CSRF),
# on the app's templates.
sign_in = auth_views.LoginView.as_view(template_name="accounts/login.html")
# Signing out keeps the phone's tables (Django's would empty its whole session).
sign_out = SignOut.as_view()

# Where a signed-in admin lands: the room's day (open tables, today's fees).
ROOM_LANDING = "scorer:manage"


def room_landing(room: Room) -> str:
    """Where an admin of this room goes first."""
    return reverse(ROOM_LANDING, args=[room.slug])


def _rooms_of(request: HttpRequest) -> list[Room]:
    user = request.user
    if user.is_superuser:  # the site's staff look after every room (scorer.services.access)
        return list(Room.objects.order_by("name", "pk"))
    assert user.pk is not None  # signed in (login_required)
    return list(Room.objects.filter(members__user_id=user.pk).order_by("name", "pk"))


@login_required
def my_rooms(request: HttpRequest) -> HttpResponse:
    """After signing in: the one room's pages, or the list to choose from."""
    rooms = _rooms_of(request)
    if len(rooms) == 1:
        return HttpResponseRedirect(room_landing(rooms[0]))
    rows = [{"room": r, "url": room_landing(r)} for r in rooms]
    return render(request, "accounts/rooms.html", {"rows": rows})


def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link: who opens it becomes an admin of the room, signed in as
    they are or with a new account made here; a used or expired link says so."""
    found = invite_by_token_or_404(token)
    context: dict[str, object] = {"invite": found, "room": found.room}
    if not found.pending:
        return render(request, "accounts/invite.html", context, status=410)
    user = request.user
    if user.is_authenticated:
        form: DisplayNameForm | SignUpForm = DisplayNameForm(
            request.POST or None, initial={"display_name": user.get_username()}
        )
    else:
        form = SignUpForm(request.POST or None)
    context["form"] = form
    if request.method != "POST":
        return render(request, "accounts/invite.html", context)
    if not form.is_valid():
        return render(request, "accounts/invite.html", context, status=400)
    name = form.cleaned_data.get("display_name") or ""
    try:
        if user.is_authenticated:
            found.accept(user, name)
        else:
            assert isinstance(form, SignUpForm)
            user = found.accept_new(form.save, name).user
    except InviteRefused as e:
        messages.error(request, " ".join(e.messages))
        return render(request, "accounts/invite.html", context, status=409)
    if not request.user.is_authenticated:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request, gettext("Welcome: you now run %(room)s with its owner.") % {"room": found.room}
    )
    return HttpResponseRedirect(room_landing(found.room))


def invite_link(request: HttpRequest, invitation: RoomInvite) -> str:
    """The link the owner sends (the address other phones can open: scorer.web.share)."""
    return share_link(request, reverse("scorer:invite", args=[invitation.token])).url
