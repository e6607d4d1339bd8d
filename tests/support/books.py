"""Random evenings at a room's till (tables opened, played, closed, reopened, paid,
refunded, days closed), checking after every step that the books hold still."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal

from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import event
from hypothesis import strategies as st

from scorer.models.money import ALIPAY, CASH, METHODS, WECHAT, Collection, DayClose
from scorer.models.rooms import Room, RoomMember
from scorer.money import clock
from scorer.services import books as book
from scorer.services import calendar, till
from scorer.services.kept import kept as kept_view
from tests.factories import SHORT_NAMES, make_member, make_table, member_client, record

T0 = dt.datetime(2026, 11, 27, 11, 0, tzinfo=dt.UTC)  # 19:00 in Shanghai


HOURLY = {"mode": "hour", "price": "30", "unit": 30, "minimum": 60}


# Weighted by repeats: a table played, closed, paid, reopened and closed again is
# what the books must hold through; "back" closes it at its last round (lower fee).
OPS = ["open", *["play"] * 2, "close", *["back"] * 2, *["reopen"] * 3, *["collect"] * 2]
OPS += [*["refund"] * 2, *["wait"] * 2, "long", *["dayclose"] * 2]


HAND = [CASH, WECHAT, ALIPAY]


# Every evening starts with a table played two hours and paid in part: what follows
# (reopens, refunds, 日结, more tables) is random.
PAID = [("open", 0, 1), ("play", 0, 1), ("wait", 0, 120), ("close", 0, 1), ("collect", 0, 5)]


steps = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(0, 3), st.integers(1, 240)),
    min_size=8,
    max_size=32,
)


def local_day(room: Room, at: dt.datetime) -> dt.date:
    """The test's own day of an instant: the end hour, or a closed day's kept bounds."""
    for c in DayClose.objects.filter(room=room):
        if c.start <= at < c.end:
            return c.day
    return (timezone.localtime(at) - dt.timedelta(hours=room.day_ends_hour)).date()


def taken_by_rows(room: Room, day: dt.date) -> dict[str, Decimal]:
    out: dict[str, Decimal] = {}
    for c in Collection.objects.filter(room=room):
        if local_day(room, c.at) == day:
            out[c.method] = out.get(c.method, Decimal(0)) + c.amount
    return out


def evening(room: Room, history: list[tuple[str, int, int]]) -> None:
    member = make_member(room, "boss", RoomMember.OWNER, "老板")
    staff = make_member(room, "xiaomei", RoomMember.ADMIN, "小美")
    tables = []
    kept: dict[int, dict[str, object]] = {}
    first = calendar.today(room)
    for op, which, n in history:
        t = tables[which % min(len(tables), 2)] if tables else None
        if op == "open" or t is None:
            t = make_table(room=room, players=SHORT_NAMES, time_fee=HOURLY, seated=True)
            tables.append(t)
        elif op == "play" and t.closed_at is None:
            record(t)
        elif op == "close":
            t.close()
        elif op == "back" and t.closed_at is None:
            last = t.rounds.aggregate(m=Max("created_at"))["m"]
            t.close(at=last or t.created_at)
        elif op == "reopen":
            days = [calendar.today(room) - dt.timedelta(days=k) for k in range(3)]
            before = {d: book.books(room, d).total.taken for d in days}
            paid = t.collections.exists()
            if t.reopen(author="a player's phone"):
                event("a paid table reopened" if paid else "a table reopened")
                after = {d: book.books(room, d).total.taken for d in days}
                assert after == before  # money taken never leaves its day
        elif op in ("collect", "refund") and t.closed_at is not None:
            who = member if n % 2 else staff
            choices = {seat: HAND[(seat + n) % 3] for seat in range(4)}
            parts = {seat: Decimal(n) / 9 for seat in range(4)} if n % 3 == 0 else None
            parts = {k: v.quantize(Decimal("0.01")) for k, v in parts.items()} if parts else None
            if any(c.amount < 0 for c in till.collect(t, choices, who, amounts=parts)):
                event("a refund")
        elif op == "wait":
            clock.set_now(clock.now() + dt.timedelta(minutes=n))
        elif op == "long":
            clock.set_now(clock.now() + dt.timedelta(hours=n % 30))
        elif op == "dayclose":
            day = calendar.today(room) - dt.timedelta(days=which // 3)  # mostly today
            counted = Decimal(n) if n % 2 else None
            try:
                made = till.close_day(room, day, member, counted)
            except till.DayRefused:
                assert DayClose.objects.filter(room=room, day=day).exists() or day < first
            else:
                kept[made.pk] = dict(made.figures)
                event("a day closed")
        check(room, tables, kept)
    check_pages(room, member)


def check(room: Room, tables: list, kept: dict[int, dict[str, object]]) -> None:
    for t in tables:
        money = till.table_money(t)
        assert money.charged == money.collected + money.owed
    for close in DayClose.objects.filter(room=room):
        assert close.figures == kept[close.pk]  # never changes
        shown = kept_view(close, book.books(room, close.day))
        if shown.changed:
            event("a change after a close-out")
        assert str(shown.charged) == close.figures["charged"]
        assert shown.charged == shown.collected + shown.owed
    today = calendar.today(room)
    for day in (today - dt.timedelta(days=1), today):
        b = book.books(room, day)
        assert b.total.taken == {m: v for m, v in taken_by_rows(room, day).items()}
        assert b.total.charged == b.total.collected + b.total.owed
        for r in b.rows:
            assert r.charged == r.collected + r.owed and r.day == day


def figure(page: str, name: str) -> Decimal:
    m = re.search(rf'id="day-figures".*?data-figure="{name}">([^<]*) 元<', page, re.S)
    assert m is not None, name
    return Decimal(m[1].replace("\u2212", "-"))


def check_pages(room: Room, member: RoomMember) -> None:
    """今天, 收银, the day CSV and the month report: the same totals for every day."""
    boss: Client = member_client(room, "boss2", RoomMember.ADMIN, "二老板")
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    slug = room.slug
    today = calendar.today(room)
    days = sorted({today - dt.timedelta(days=k) for k in range(4)})
    month: dict[str, list[str]] = {}
    for first in {d.replace(day=1) for d in days}:
        r = boss.get(
            reverse("scorer:manage_till_report", args=[slug]),
            {"period": "month", "day": first.isoformat(), "format": "csv"},
            **zh,
        )
        for row in csv.reader(io.StringIO(r.content.decode("utf-8-sig"))):
            if row[0] == "日期" and row[1][:2] == "20":
                month[row[1]] = row
    for day in days:
        b = book.books(room, day)
        page = boss.get(
            reverse("scorer:manage_till", args=[slug]), {"day": day.isoformat()}, **zh
        ).content.decode()
        assert figure(page, "charged") == b.total.charged
        assert figure(page, "collected") == b.total.collected
        assert figure(page, "owed") == b.total.owed
        r = boss.get(reverse("scorer:manage_report", args=[slug]), {"day": day.isoformat()}, **zh)
        rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
        head, foot = rows[0], rows[-1]
        total = dict(zip(head, foot, strict=True))
        assert Decimal(total["应收（元）"]) == b.total.charged
        assert Decimal(total["已收（元）"]) == b.total.collected
        if b.rows or b.total.taken:
            row = dict(zip(MONTH_HEAD, month[day.isoformat()], strict=False))
            assert Decimal(row["charged"]) == b.total.charged
            assert Decimal(row["collected"]) == b.total.collected
            for i, m in enumerate(METHODS):
                cell = month[day.isoformat()][11 + i]
                assert Decimal(cell or "0") == b.total.taken.get(m, Decimal(0))
    dashboard = boss.get(reverse("scorer:manage", args=[slug]), **zh).content.decode()
    b = book.books(room, today)
    if b.rows:
        m = re.search(r'id="fees-total">([^<]*)<', dashboard)
        assert m is not None and Decimal(m[1].replace("\u2212", "-")) == b.total.charged


MONTH_HEAD = ["what", "day", "", "", "", "charged", "collected", "later", "owed"]
