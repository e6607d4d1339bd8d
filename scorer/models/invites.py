"""A room's owner invites admins with a one-time link (/invite/<token>).

The link is the key, like a table's: whoever opens it first, signed in or after
making an account, becomes an admin of the room; then it is used up, and after
its expiry it opens nothing.  The token is kept as it is (not hashed) so that the
owner can copy a pending link again from the members page; a leaked database
would give away only the pending links, which the owner can withdraw.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorer.clean.text import MEMBER_NAME, cut
from scorer.models.locking import lock_objects
from scorer.models.roomlog import INVITE_MADE, INVITE_WITHDRAWN, MEMBER_JOINED, Actor
from scorer.models.rooms import Room, RoomMember

# How long a link opens the room: long enough to be sent on WeChat and opened the
# next evening, short enough that a forgotten one in a chat history goes stale.
INVITE_DAYS = 7


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


def invite_expiry() -> object:
    return timezone.now() + timedelta(days=INVITE_DAYS)


class InviteRefused(ValidationError):
    """The link cannot be used (used already, expired, or the user is a member)."""


class RoomInvite(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=40, default=new_invite_token, editable=False)
    role = models.CharField(
        max_length=8, choices=RoomMember._meta.get_field("role").choices, default=RoomMember.ADMIN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=invite_expiry)
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["token"], name="invite_token_unique")]

    def __str__(self) -> str:
        return f"invite to {self.room} ({self.role})"

    @classmethod
    def make(cls, room: Room, by: Actor) -> RoomInvite:
        """A new link to the room, made by its owner (the room's log says so; the
        token itself is never logged)."""
        with transaction.atomic():
            invite = cls.objects.create(room=room, created_by=by.user)
            room.log_action(INVITE_MADE, by, {"expires_at": invite.expires_at.isoformat()})
        return invite

    def withdraw(self, by: Actor) -> bool:
        """The owner takes a pending link back: it opens nothing from now on.  False
        when it was used or withdrawn meanwhile (the one who opened it is an admin
        now, and is removed as one)."""
        try:
            with lock_objects(self) as (invite,):
                if not invite.pending:
                    return False
                invite.delete()
                self.room.log_action(
                    INVITE_WITHDRAWN, by, {"made_at": invite.created_at.isoformat()}
                )
                return True
        except RoomInvite.DoesNotExist:  # withdrawn meanwhile
            return False

    @property
    def used(self) -> bool:
        return self.used_at is not None

    @property
    def expired(self) -> bool:
        return not self.used and self.expires_at <= timezone.now()

    @property
    def pending(self) -> bool:
        return not self.used and not self.expired

    def accept_new(self, new_user: Callable[[], User], display_name: str = "") -> RoomMember:
        """`accept` for someone signing up on the link: the account (`new_user` makes
        it, a sign-up form's save) and its membership together, all or nothing, so a
        link used up meanwhile leaves no account behind."""
        with transaction.atomic():
            return self.accept(new_user(), display_name)

    def accept(self, user: User, display_name: str = "") -> RoomMember:
        """Make `user` a member with the invite's role, and use the link up.

        InviteRefused (nothing changed) when it is used or expired, or the user is a
        member of the room already (the link then stays good for someone else)."""
        # The invite's row lock: two people opening the same link at once would
        # both become admins of a link meant for one; the second finds it used.
        with lock_objects(self) as (invite,):
            if invite.used:
                raise InviteRefused(_("This invitation has been used already."), code="used")
            if invite.expired:
                raise InviteRefused(_("This invitation has expired."), code="expired")
            if RoomMember.objects.filter(room_id=invite.room_id, user=user).exists():
                raise InviteRefused(_("You are a member of this room already."), code="member")
            member = RoomMember.objects.create(
                room_id=invite.room_id,
                user=user,
                role=invite.role,
                display_name=cut(MEMBER_NAME, display_name),
            )
            invite.used_at = timezone.now()
            invite.used_by = user
            invite.save(update_fields=["used_at", "used_by"])
            invite.room.log_action(MEMBER_JOINED, member, {"role": member.role})
            self.used_at, self.used_by_id = invite.used_at, invite.used_by_id
        return member


__all__ = ["INVITE_DAYS", "InviteRefused", "RoomInvite"]
