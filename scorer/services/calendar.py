"""The room's days, cut at its end hour: the one calendar the books, the till and the
reports read a day's instants from.

**The room's day** is cut at its end hour (`Room.day_ends_hour`, 06:00 by default):
an instant before it counts on the evening before.  A day closed by 日结 keeps the
first and last instants it was closed with (`DayClose.start/end`); a new end hour
applies to the days not closed, whose boundaries meet the closed days' (`Calendar`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Case, IntegerField, Value, When
from django.utils import timezone

from scorer.models.money import DayClose
from scorer.models.rooms import Room
from scorer.money import clock


class Calendar:
    """The room's days: each day's [start, end) instants, a closed day's as it was
    closed with, the others at the room's end hour, meeting the closed days'."""

    def __init__(self, room: Room, closes: Iterable[DayClose]) -> None:
        self.hour = room.day_ends_hour
        self.closed: dict[dt.date, tuple[dt.datetime, dt.datetime]] = {
            c.day: (c.start, c.end) for c in closes if c.start is not None and c.end is not None
        }
        self.tz = timezone.get_current_timezone()
        # Each day's bounds, once: a month's books ask a day of thousands of instants.
        self._bounds: dict[dt.date, tuple[dt.datetime, dt.datetime]] = {}

    @classmethod
    def of(cls, room: Room, first: dt.date, last: dt.date) -> Calendar:
        """The calendar around first..last (the closes next to it decide its edges): 1 query."""
        near = DayClose.objects.filter(
            room=room, day__gte=first - dt.timedelta(days=2), day__lte=last + dt.timedelta(days=2)
        )
        return cls(room, near)

    def _at_hour(self, day: dt.date) -> dt.datetime:
        return timezone.make_aware(dt.datetime.combine(day, dt.time(self.hour)), self.tz)

    def start(self, day: dt.date) -> dt.datetime:
        if day in self.closed:
            return self.closed[day][0]
        before = self.closed.get(day - dt.timedelta(days=1))
        return before[1] if before else self._at_hour(day)

    def end(self, day: dt.date) -> dt.datetime:
        if day in self.closed:
            return self.closed[day][1]
        after = self.closed.get(day + dt.timedelta(days=1))
        return after[0] if after else self._at_hour(day + dt.timedelta(days=1))

    def range(self, first: dt.date, last: dt.date | None = None) -> tuple[dt.datetime, dt.datetime]:
        return self.start(first), self.end(last or first)

    def day_sql(self, column: str, first: dt.date, last: dt.date) -> Case:
        """day_of in SQL for first..last: the day's ordinal a timestamp column falls on
        (0: another day)."""
        days = [first + dt.timedelta(days=k) for k in range((last - first).days + 1)]
        bounds = [{f"{column}__gte": self.start(d), f"{column}__lt": self.end(d)} for d in days]
        whens = [When(**b, then=Value(d.toordinal())) for d, b in zip(days, bounds, strict=True)]
        return Case(*whens, default=Value(0), output_field=IntegerField())

    def day_of(self, when: dt.datetime) -> dt.date:
        """The room's day an instant falls on."""
        guess = (when.astimezone(self.tz) - dt.timedelta(hours=self.hour)).date()
        for day in (guess, guess - dt.timedelta(days=1), guess + dt.timedelta(days=1)):
            bounds = self._bounds.get(day)
            if bounds is None:
                bounds = self._bounds[day] = (self.start(day), self.end(day))
            if bounds[0] <= when < bounds[1]:
                return day
        return guess


def room_day(room: Room, when: dt.datetime) -> dt.date:
    """The room's day an instant falls on (2 queries at most)."""
    local = timezone.localtime(when).date()
    return Calendar.of(room, local - dt.timedelta(days=1), local).day_of(when)


def day_range(
    room: Room, first: dt.date, last: dt.date | None = None
) -> tuple[dt.datetime, dt.datetime]:
    """The room's days first..last (included) as [start, end) instants."""
    return Calendar.of(room, first, last or first).range(first, last)


def today(room: Room) -> dt.date:
    return room_day(room, clock.now())


__all__ = ["Calendar", "day_range", "room_day", "today"]
