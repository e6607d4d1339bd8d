"""An imported table in the room's books, and back out of them (送回).

Anyone may import a table on a room's page; it counts in the room's books once an
admin takes it in (GameSession.take_in).  A take-in made by mistake (the wrong
file, a table already counted on paper) is undone here: the table goes back to
the imported tables waiting on the dashboard, as if never taken in, and the
room's log says who sent it back.

What the books already closed stays closed: a table whose money was collected, or
that counts on a day the room has closed (日结), is not sent back.  The days it
counts on are every room day any of its times falls on (its start, its rounds, its
close, its charges): more than the books read, so that no closed day can change.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext

from scorer.models import GameSession, RoundRevision
from scorer.models.locking import locked
from scorer.models.money import Collection, DayClose, TableCharge
from scorer.models.results import write_results
from scorer.models.roomlog import TABLE_SENT_BACK
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services.calendar import Calendar

# How long a taken-in table is offered to be sent back on the dashboard.
OFFERED_FOR = dt.timedelta(days=14)


class Refused(Exception):
    """Why a table cannot be sent back, in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def days_counted(session: GameSession) -> set[dt.date]:
    """Every room day one of the table's times falls on."""
    times = [session.created_at, session.closed_at, session.taken_in_at]
    times += list(
        RoundRevision.objects.filter(round__session=session).values_list("created_at", flat=True)
    )
    times += list(TableCharge.objects.filter(session=session).values_list("at", flat=True))
    known = [t for t in times if t is not None]
    if not known:
        return set()
    # One calendar for all of them (a closed day's own boundaries, the hour for the rest).
    local = [timezone.localtime(t).date() for t in known]
    calendar = Calendar.of(session.room, min(local) - dt.timedelta(days=1), max(local))
    return {calendar.day_of(t) for t in known}


def send_back(session: GameSession, by: RoomMember) -> bool:
    """送回: the imported table `session` out of the room's books again, logged.  False
    when there was nothing to do (not imported, or not in the books: two admins
    tapping at once send it back once, under the table's lock); Refused when the
    books already hold it fast (money collected for it, a closed day)."""
    with locked(session, closed_ok=True) as row:
        if row.imported_at is None or row.taken_in_at is None:
            return False
        if Collection.objects.filter(session=row).exists():
            raise Refused(
                gettext(
                    "Money was collected for this table: refund it on the till first, "
                    "then send the table back."
                )
            )
        closed = sorted(
            DayClose.objects.filter(room=row.room, day__in=days_counted(row)).values_list(
                "day", flat=True
            )
        )
        if closed:
            raise Refused(
                gettext("This table counts on %(day)s, a day already closed: it stays.")
                % {"day": closed[0].isoformat()}
            )
        row.taken_in_at, row.taken_in_by = None, ""
        row.save(update_fields=["taken_in_at", "taken_in_by"])
        # Its kept results stay, no longer counted by the league (ratings replayed).
        write_results(row)
        row.room.log_action(TABLE_SENT_BACK, by, row.log_data())
        row.bump()
    session.taken_in_at, session.taken_in_by = None, ""
    return True


def taken_in_lately(room: Room, now: dt.datetime | None = None) -> list[GameSession]:
    """The room's imported tables taken into its books in the last OFFERED_FOR, newest
    first: the dashboard offers to send them back."""
    since = (now or clock.now()) - OFFERED_FOR
    return list(
        room.sessions.filter(imported_at__isnull=False, taken_in_at__gte=since)
        .select_related("room_table")
        .order_by("-taken_in_at", "-pk")
    )


__all__ = ["OFFERED_FOR", "Refused", "days_counted", "send_back", "taken_in_lately"]
