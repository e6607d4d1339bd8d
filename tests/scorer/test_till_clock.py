"""The table's clock: it runs from the start to the close, the
room's admins pause it (饭点, 休息) and start it again, a table closed later from
the dashboard ends when the admin says, and the pages show it.  Time is simulated
through the till's own clock (scorer/money/clock.py), never waited for."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules import RuleError
from scorer.models import GameSession
from scorer.models.roomlog import TABLE_PAUSED, TABLE_RESUMED
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from tests.factories import make_room, make_table, record

pytestmark = pytest.mark.django_db

T0 = timezone.make_aware(dt.datetime(2026, 11, 27, 19, 0))
HOUR_30 = {"mode": "hour", "price": "30", "unit": 30, "minimum": 120}


@pytest.fixture(autouse=True)
def till_clock() -> Iterator[None]:
    with clock.frozen(T0):
        yield


def at(minutes: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def boss_of(room: Room) -> RoomMember:
    return RoomMember.objects.get(room=room, role=RoomMember.OWNER)


def test_the_clock_runs_from_the_start_less_its_pauses(room: Room, boss: Client) -> None:
    s = make_table(room=room, time_fee=HOUR_30)
    member = boss_of(room)
    assert s.created_at == T0
    clock.set_now(at(60))
    assert s.billed_seconds() == 3600
    version = s.version
    assert s.pause(by=member)
    assert not s.pause(by=member)  # a second tap adds no pause
    assert s.version == version + 1  # the polled page refreshes
    assert s.paused
    clock.set_now(at(80))
    assert s.billed_seconds() == 3600  # the pause is not billed
    assert s.resume(by=member)
    assert not s.resume(by=member)
    clock.set_now(at(150))
    assert s.billed_seconds() == 130 * 60
    assert s.time_fee_due() == 75  # 2 h 10 min at 30 元 an hour per 30 minutes
    actions = list(room.log.values_list("action", flat=True))
    assert actions == [TABLE_RESUMED, TABLE_PAUSED]


def test_a_table_closed_later_ends_when_the_admin_says(room: Room, boss: Client) -> None:
    s = make_table(room=room, time_fee=HOUR_30)
    clock.set_now(at(10))
    record(s)
    clock.set_now(at(100))
    s.pause(by=boss_of(room))  # a pause still running when the players left
    clock.set_now(at(600))  # the next morning's admin
    with pytest.raises(RuleError):
        s.close(note="left", at=at(5))  # before its last round
    with pytest.raises(RuleError):
        s.close(note="left", at=at(700))  # in the future
    assert s.close(note="left", at=at(130), by=boss_of(room))
    s.refresh_from_db()
    assert s.closed_at == at(130)
    assert s.billed_seconds() == 100 * 60  # the running pause ended with the table
    clock.set_now(at(700))
    assert s.billed_seconds() == 100 * 60  # a closed table's clock stands
    # Reopened: the time it stood closed is not billed either.
    assert s.reopen(note="one more")
    clock.set_now(at(730))
    s.refresh_from_db()
    assert s.billed_seconds() == 130 * 60


def test_the_pages_show_the_clock_and_the_admins_pause_it(room: Room, boss: Client) -> None:
    table = room.add_tables(1, 2)[0]
    s = make_table(room=room, room_table=table, time_fee=HOUR_30)
    clock.set_now(at(70))
    page = boss.get(reverse("scorer:manage", args=[room.slug])).content.decode()
    assert 'class="clock-time">1:10<' in page
    assert 'class="clock-fee-value">60.00<' in page  # the 2-hour minimum
    url = reverse("scorer:manage_clock", args=[room.slug, s.code])
    boss.post(url, {"action": "pause"})
    s.refresh_from_db()
    assert s.paused
    page = boss.get(reverse("scorer:manage", args=[room.slug])).content.decode()
    assert 'value="resume"' in page and "is-paused" in page
    # The room's tables page: 1号桌 in use since 19:00 by its players, 2号桌 free.
    tables = boss.get(reverse("scorer:manage_tables", args=[room.slug])).content.decode()
    assert tables.count("is-busy") == 1 and tables.count("is-free") == 1
    assert "老王、小李、阿强、美玲" in tables and "19:00" in tables
    # The table's own page, for its players.
    own = Client().get(reverse("scorer:session", args=[s.code])).content.decode()
    assert 'class="clock-time">1:10<' in own and "data-clock=" in own
    # Closed from the dashboard at the time the admin gives.
    boss.post(url, {"action": "resume"})
    clock.set_now(at(200))
    close = reverse("scorer:manage_close", args=[room.slug, s.code])
    boss.post(close, {"note": "走了", "at": "bad"})
    s.refresh_from_db()
    assert s.closed_at is None
    boss.post(close, {"note": "走了", "at": timezone.localtime(at(180)).strftime("%H:%M")})
    s.refresh_from_db()
    assert s.closed_at == at(180)


def test_another_rooms_admin_cannot_pause(room: Room, boss: Client) -> None:
    other = make_table(room=make_room("other", "别家"))
    r = boss.post(reverse("scorer:manage_clock", args=[room.slug, other.code]), {"action": "pause"})
    assert r.status_code == 404
    other.refresh_from_db()
    assert other.pauses == []


def test_a_session_without_a_time_fee_has_no_clock_line(table: GameSession) -> None:
    page = Client().get(reverse("scorer:session", args=[table.code])).content.decode()
    assert "data-clock=" not in page


def test_the_result_page_says_the_time_fee_in_yuan(room: Room) -> None:
    s = make_table(room=room, time_fee=HOUR_30)
    record(s)
    clock.set_now(at(130))
    s.close()
    page = Client().get(reverse("scorer:final", args=[s.code])).content.decode()
    assert 'class="clock-fee-value">75.00<' in page
    assert page.count("<b>18.75 元</b>") == 4
