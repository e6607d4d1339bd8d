"""日结 and the till's settings refuse what they must, and change nothing then: a day
that has not begun, a day closed already, figures changed between the two taps,
an action nobody's form sends, the end hour set by an admin who is not the owner.
And what they do do: a closed day keeps its figures and boundaries, a new end hour
applies to the days not closed, the room's log says it in words."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.money import CASH, DayClose
from scorer.models.roomlog import TILL_DAY_END_SET, RoomLogEntry
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.present.room_log import log_line
from scorer.services import books as book
from scorer.services import calendar, till
from scorer.services.kept import kept
from tests.factories import make_table, record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("till_evening")]

T0 = dt.datetime(2026, 11, 27, 19, 0)  # local (Asia/Shanghai)
HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 60}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def url(room: Room) -> str:
    return reverse("scorer:manage_till", args=[room.slug])


def owner(room: Room) -> RoomMember:
    return RoomMember.objects.get(room=room, role=RoomMember.OWNER)


def a_paid_table(room: Room, minutes: int = 120) -> object:
    s = make_table(room=room, time_fee=HOURLY, seated=True)
    record(s)
    clock.set_now(clock.now() + dt.timedelta(minutes=minutes))
    assert s.close()
    till.collect(s, dict.fromkeys(range(4), CASH), owner(room))
    return s


def messages_of(response: object) -> str:
    return " ".join(str(m) for m in response.context["messages"])  # type: ignore[attr-defined]


def test_a_day_that_has_not_begun_is_refused(room: Room, boss: Client) -> None:
    tomorrow = (T0 + dt.timedelta(days=1)).date().isoformat()
    r = boss.post(url(room), {"day": tomorrow, "action": "close"}, follow=True, **ZH)
    assert r.status_code == 200 and "还没开始" in messages_of(r)
    assert not DayClose.objects.exists()
    with pytest.raises(till.DayRefused):
        till.close_day(room, dt.date(2026, 12, 27), owner(room))
    assert not DayClose.objects.exists()


def test_a_day_closed_already_is_refused_and_keeps_its_figures(room: Room, boss: Client) -> None:
    a_paid_table(room)
    day = "2026-11-27"
    assert boss.post(url(room), {"day": day, "action": "close"}).status_code == 302
    (closed,) = DayClose.objects.all()
    kept = dict(closed.figures)
    a_paid_table(room)  # another table, after the close
    r = boss.post(url(room), {"day": day, "action": "close", "counted": "1"}, **ZH)
    assert "已经日结" in messages_of(r)
    (again,) = DayClose.objects.all()
    assert again.figures == kept and again.cash_counted is None
    page = boss.get(url(room), {"day": day}, **ZH).content.decode()
    assert 'id="kept-figures"' in page and "日结后" in page


def test_an_unknown_action_is_refused(room: Room, boss: Client) -> None:
    a_paid_table(room)
    for action in ("nothing", "", "CLOSE"):
        r = boss.post(url(room), {"day": "2026-11-27", "action": action})
        assert r.status_code == 400
    assert not DayClose.objects.exists()
    assert room.log.count() == 4  # the four collections, nothing else


def test_figures_changed_between_the_taps_are_shown_again(room: Room, boss: Client) -> None:
    a_paid_table(room)
    review = boss.post(url(room), {"day": "2026-11-27", "action": "review"}, **ZH)
    seen = re.search(r'name="seen" value="(\w+)"', review.content.decode())
    assert seen is not None
    a_paid_table(room)  # a table closes between the two taps
    r = boss.post(url(room), {"day": "2026-11-27", "action": "close", "seen": seen[1]}, **ZH)
    assert r.status_code == 200 and not DayClose.objects.exists()
    assert 'id="close-review"' in r.content.decode()


def test_the_end_hour_is_the_owners(room: Room, boss: Client, admin: Client) -> None:
    r = admin.post(url(room), {"action": "hour", "hour": "11"})
    assert r.status_code == 403
    room.refresh_from_db()
    assert room.day_ends_hour == 6 and not room.log.filter(action=TILL_DAY_END_SET).exists()
    for bad in ("13", "-1", "x", "6.5", ""):
        boss.post(url(room), {"action": "hour", "hour": bad})
        room.refresh_from_db()
        assert room.day_ends_hour == 6
    assert boss.post(url(room), {"action": "hour", "hour": "1"}).status_code == 302
    room.refresh_from_db()
    assert room.day_ends_hour == 1
    (entry,) = RoomLogEntry.objects.filter(room=room, action=TILL_DAY_END_SET)
    from django.utils import translation

    with translation.override("zh-hans"):
        said = log_line(entry).sentence
    assert "1:00" in said and "6:00" in said and "{" not in said


def test_a_new_end_hour_spares_the_closed_days(room: Room, boss: Client) -> None:
    """The issue's 11-28 closed at 06:00, then the hour set to 1:00: the closed day
    keeps its figures and its boundaries, the next day starts where it ended."""
    s = a_paid_table(room, minutes=390)  # closes 01:30 on the 28th: the 27th's evening
    day = dt.date(2026, 11, 27)
    clock.set_now(dt.datetime(2026, 11, 28, 2, 0))
    made = till.close_day(room, day, owner(room), counted=Decimal("40"))
    assert made.start is not None and made.end is not None
    assert book.books(room, day).total.charged == 195
    till.set_day_end(room, 1, owner(room))
    assert book.books(room, day).total.charged == 195  # not 0: its bounds stay
    assert calendar.room_day(room, s.closed_at) == day
    assert calendar.day_range(room, day + dt.timedelta(days=1))[0] == made.end
    shown = kept(made, book.books(room, day))
    assert shown.over_short == Decimal("-155.00") and not shown.changed
