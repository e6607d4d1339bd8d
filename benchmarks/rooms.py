"""python -m benchmarks.rooms: a room's pages as the site grows to many rooms.

On PostgreSQL (DATABASE_URL, a database of its own: the benchmark fills it), rooms
of 20 fixed tables, each with an open table (session) of 30 rounds recorded today,
are bulk-inserted; a room's start page, its dashboard (20 open tables) and its day
report are then measured through the Django test client: the number of queries
(CaptureQueriesContext) and the median server time, first with 10 rooms, then with
1,000 (by default).  The query counts must not grow with the rooms; target: the
dashboard <= 50 ms median.  Prints figures, never asserts.

The till (scorer/services/till.py): the first 10 rooms get 30 days of closed tables (20 a
day, each charged its 计时 fee in 元, three seats of four collected), the 990 more
one day; the room's month report and its day's close-out (日结) are measured too.
Query counts equal at 10 and 1,000 rooms; target: median <= 100 ms.

    createdb -h 127.0.0.1 -U postgres bench25
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench25 python -m benchmarks.rooms --reset
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

TABLES = 20
ROUNDS = 30
BATCH = 5000


def setup(name: str = "benchmarks.rooms") -> None:
    """Django on the PostgreSQL database DATABASE_URL names (the benchmark `name`
    measures nothing else), migrated."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit(f"{name} measures PostgreSQL: set DATABASE_URL=postgres://…/<own db>")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")
    os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def reset() -> None:
    from django.db import connection

    with connection.cursor() as c:
        c.execute(
            "TRUNCATE scorer_room, scorer_gamesession, scorer_player, auth_user,"
            " scorer_historicalroomconfig RESTART IDENTITY CASCADE"
        )


def template_revision() -> dict[str, Any]:
    """A real round's stored entry and result (as wide as the rows a room keeps)."""
    from django.db import transaction

    from scorer.models import GameSession

    with transaction.atomic():
        s = GameSession.objects.create(ruleset="mcr", players=["甲", "乙", "丙", "丁"])
        entry = {"kind": "win", "mode": "tiles", "winner": 1, "discarder": 2,
                 "hand": {"concealed": "111m222m333m456p7z", "win_tile": "7z"}}  # fmt: skip
        rev = s.record_round(uuid.uuid4(), entry).current
        assert rev is not None
        out = {"entry": rev.entry, "result": rev.result, "deltas": rev.deltas,
               "winners": rev.winners, "kind": rev.kind}  # fmt: skip
        transaction.set_rollback(True)
    return out


def grow(to: int, template: dict[str, Any], till_days: int = 1) -> None:
    """Add rooms until there are `to`, each with its configurations (copies of the first
    room's), 20 tables, 4 players and 20 open sessions of 30 rounds recorded today, and
    `till_days` days of closed tables in the till."""
    from django.db import connection, transaction
    from django.utils import timezone

    from scorer.models import GameSession, Round, RoundRevision
    from scorer.models.players import Player
    from scorer.models.rooms import Room, RoomConfig, RoomTable

    have = Room.objects.count()
    if have >= to:
        return
    first = Room.objects.order_by("pk").first()
    if first is None:
        first = Room.open("Room 0", "room-0")
        have = 1
    configs = list(first.configs.all())
    now = timezone.now()
    names = ["老王", "小李", "阿强", "美玲"]
    deltas = template["deltas"]
    t0 = time.perf_counter()
    for start in range(have, to, 50):
        stop = min(start + 50, to)
        with transaction.atomic():
            rooms = Room.objects.bulk_create(
                Room(name=f"Room {i}", slug=f"room-{i}") for i in range(start, stop)
            )
            RoomConfig.objects.bulk_create(
                RoomConfig(
                    room=r,
                    ruleset=c.ruleset,
                    name=c.name,
                    params=c.params,
                    order=c.order,
                    preset=c.preset,
                )  # fmt: skip
                for r in rooms
                for c in configs
            )
            Player.objects.bulk_create(
                Player(room=r, name=n, slug=uuid.uuid4().hex[:20]) for r in rooms for n in names
            )
            tables = RoomTable.objects.bulk_create(
                RoomTable(room=r, number=n, code=uuid.uuid4().hex[:20])
                for r in rooms
                for n in range(1, TABLES + 1)
            )
            sessions = GameSession.objects.bulk_create(
                GameSession(
                    room_id=t.room_id,
                    room_table=t,
                    ruleset="mcr",
                    players=names,
                    code=uuid.uuid4().hex[:24],
                    preset=f"room:{configs[0].pk}",
                    created_at=now,
                    updated_at=now,
                )  # fmt: skip
                for t in tables
            )
            rounds = Round.objects.bulk_create(
                (
                    Round(session=s, number=n, token=uuid.uuid4(), created_at=now)
                    for s in sessions
                    for n in range(1, ROUNDS + 1)
                ),
                batch_size=BATCH,
            )
            RoundRevision.objects.bulk_create(
                (
                    RoundRevision(
                        round=r,
                        number=1,
                        kind=template["kind"],
                        dealer=0,
                        winners=template["winners"],
                        entry=template["entry"],
                        result=template["result"],
                        deltas=deltas,
                        room_take=0,
                        created_at=now,
                    )  # fmt: skip
                    for r in rounds
                ),
                batch_size=BATCH,
            )
            with connection.cursor() as c:
                c.execute(
                    "UPDATE scorer_round r SET current_id = v.id FROM scorer_roundrevision v"
                    " WHERE v.round_id = r.id AND r.current_id IS NULL AND r.id >= %s",
                    [rounds[0].pk],
                )
            _till(tables, now, till_days, names)
        print(f"  {stop} rooms ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    with connection.cursor() as c:
        c.execute("ANALYZE")


def _till(tables: list[Any], now: Any, days: int, names: list[str]) -> None:
    """`days` days back from today of closed tables at every fixed table: played 20:00 to
    23:00 (3 h at 30 元 an hour: 90 元, 22.50 a seat), three seats collected (cash,
    WeChat, Alipay), the fourth owed.  Bulk-inserted: the rows a real evening leaves."""
    import datetime as dt
    from decimal import Decimal

    from django.utils import timezone

    from scorer.models import Collection, GameSession, TableCharge

    rule = {"mode": "hour", "price": "30.00", "unit": 30, "minimum": 0}
    today = timezone.localtime(now).date()
    closed = GameSession.objects.bulk_create(
        (
            GameSession(
                room_id=t.room_id,
                room_table=t,
                ruleset="mcr",
                players=names,
                code=uuid.uuid4().hex[:24],
                time_fee=rule,
                created_at=start,
                updated_at=start + dt.timedelta(hours=3),
                closed_at=start + dt.timedelta(hours=3),
            )
            for d in range(days)
            for start in [
                timezone.make_aware(
                    dt.datetime.combine(today - dt.timedelta(days=d + 1), dt.time(20))
                )
            ]
            for t in tables
        ),
        batch_size=BATCH,
    )
    share = Decimal("22.50")
    TableCharge.objects.bulk_create(
        (
            TableCharge(room_id=s.room_id, session=s, seat=seat, amount=share, at=s.updated_at)
            for s in closed
            for seat in range(4)
        ),
        batch_size=BATCH,
    )
    Collection.objects.bulk_create(
        (
            Collection(
                room_id=s.room_id,
                session=s,
                seat=seat,
                amount=share,
                method=method,
                at=s.updated_at,  # (its close)
            )  # fmt: skip
            for s in closed
            for seat, method in enumerate(("cash", "wechat", "alipay"))
        ),
        batch_size=BATCH,
    )


def measure(slug: str, runs: int) -> dict[str, tuple[int, float]]:
    """(queries, median ms) of the room's start page, dashboard, day report, close-out
    and month report."""
    import datetime as dt

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from scorer.models.rooms import Room, RoomMember

    room = Room.objects.get(slug=slug)
    yesterday = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    user, _ = User.objects.get_or_create(username=f"boss-{slug}")
    RoomMember.objects.get_or_create(room=room, user=user, defaults={"role": RoomMember.OWNER})
    admin = Client(HTTP_HOST="localhost")
    admin.force_login(user)
    phone = Client(HTTP_HOST="localhost")
    pages: dict[str, tuple[Client, str]] = {
        "start page": (phone, reverse("scorer:room", args=[slug])),
        "dashboard": (admin, reverse("scorer:manage", args=[slug])),
        "day report": (admin, reverse("scorer:manage_report", args=[slug])),
        # The till: yesterday's close-out (日结) and the month around it.
        "close-out": (admin, reverse("scorer:manage_till", args=[slug]) + f"?day={yesterday}"),
        "month report": (
            admin,
            reverse("scorer:manage_till_report", args=[slug]) + f"?period=month&day={yesterday}",
        ),
    }
    out = {}
    for name, (client, url) in pages.items():

        def get(client: Client = client, url: str = url) -> Any:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        get()
        with CaptureQueriesContext(connection) as ctx:
            get()
        out[name] = (len(ctx.captured_queries), median_ms(get, runs))
    return out


def median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rooms", type=int, default=1000, help="rooms at the end (1000)")
    parser.add_argument("--small", type=int, default=10, help="rooms at the start (10)")
    parser.add_argument("--runs", type=int, default=40, help="requests per median (40)")
    parser.add_argument(
        "--reset", action="store_true", help="empty the database's rooms and tables first"
    )
    parser.add_argument(
        "--again",
        action="store_true",
        help="measure the rooms already in the database again (no insert)",
    )
    args = parser.parse_args(argv)
    setup()
    from scorer.models.rooms import Room

    if args.again:
        n = Room.objects.count()
        show({n: measure(f"room-{args.small // 2}", args.runs)})
        return
    if args.reset:
        reset()
    elif Room.objects.exists():
        sys.exit("the database has rooms already: --reset empties it (its own database only)")
    template = template_revision()
    results = {}
    for size in (args.small, args.rooms):
        # The small rooms get a month of the till; the many more, one day.
        grow(size, template, till_days=30 if size == args.small else 1)
        slug = f"room-{args.small // 2}"  # the same room, measured among 10 then 1,000
        results[size] = measure(slug, args.runs)
    show(results)


def show(results: dict[int, dict[str, tuple[int, float]]]) -> None:
    from scorer.models import Round

    print(f"{TABLES} open tables x {ROUNDS} rounds a room; {Round.objects.count():,} rounds")
    print(f"{'page':<12}" + "".join(f"{f'{n:,} rooms':>24}" for n in results))
    for page in next(iter(results.values())):
        cells = "".join(
            f"{f'{q} queries {ms:7.1f} ms':>24}" for q, ms in (r[page] for r in results.values())
        )
        print(f"{page:<12}{cells}")


if __name__ == "__main__":
    main()
