"""python -m benchmarks.league: the room's league at a big room's size, on PostgreSQL.

A room of 200 regulars plays closed tables of 20 hands of 国标 each (four regulars
drawn at random a table, each hand won by a random seat, on a discard or
self-drawn), bulk-inserted over 60 days; a season covers them all (标准分, at
least 3 tables).  The tables' kept results are then written by the data
migration's own function (scorer/migrations/0023_league.py `fill_results`, on the
historical models), timed.  Measured at 500 tables and again at 5,000 (by
default), through the Django test client:

* the league page (/r/<slug>/league/) and a player's page (his season, ratings,
  stats, head to head): the number of queries (equal at both sizes) and the median
  server time (target <= 50 ms each), as a phone gets them (the season's standings
  cached until the league next changes) and computed afresh (the cache emptied
  before each request: the first view after a table closes); the room's start page
  is the baseline measured in the same process;
* a full rating replay of the room's 国标 family (target <= 2 s);
* the results' migration on the room.

Prints figures, never asserts.

    createdb -h 127.0.0.1 -U postgres bench47
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench47 python -m benchmarks.league --reset
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
import uuid
from typing import Any

from benchmarks.rooms import median_ms, reset, setup, template_revision

PLAYERS, HANDS, BATCH, SEED = 200, 20, 5000, 47


def room_of_regulars() -> Any:
    from scorer.models import Player, Room, Season

    room = Room.open("联赛棋牌室", "league")
    Player.objects.bulk_create(
        Player(room=room, name=f"常客{i:03d}", slug=uuid.uuid4().hex[:20]) for i in range(PLAYERS)
    )
    today = dt.date.today()
    season = Season.objects.create(room=room, name="大赛季", first_day=today - dt.timedelta(days=90),
                                   last_day=today + dt.timedelta(days=1), min_tables=3)  # fmt: skip
    season.configs.set(room.configs.filter(ruleset="mcr"))
    room.league_public = True
    room.save(update_fields=["league_public"])
    return room


def add_tables(room: Any, n: int, template: dict[str, Any], rng: random.Random) -> None:
    """`n` more closed tables of HANDS hands, over the 60 days before today."""
    from django.db import connection, transaction
    from django.utils import timezone

    from scorer.models import GameSession, Player, Round, RoundRevision, Seat

    players = list(Player.objects.filter(room=room).order_by("pk"))
    win, pay, each = template["deltas"][1], template["deltas"][2], template["deltas"][0]
    now = timezone.now()
    for start in range(0, n, 500):
        count = min(500, n - start)
        with transaction.atomic():
            seated = [rng.sample(players, 4) for _ in range(count)]
            when = [now - dt.timedelta(minutes=rng.randrange(60 * 24 * 60)) for _ in range(count)]
            sessions = GameSession.objects.bulk_create(
                GameSession(room=room, ruleset="mcr", players=[p.name for p in four],
                            code=uuid.uuid4().hex[:24], origin=uuid.uuid4().hex,
                            created_at=t - dt.timedelta(hours=3), updated_at=t, closed_at=t)
                for four, t in zip(seated, when, strict=True)
            )  # fmt: skip
            Seat.objects.bulk_create(
                Seat(session=s, seat=i, player=p)
                for s, four in zip(sessions, seated, strict=True)
                for i, p in enumerate(four)
            )
            hands = [[(rng.randrange(4), rng.randrange(4)) for _ in range(HANDS)] for _ in sessions]
            rounds = Round.objects.bulk_create(
                (Round(session=s, number=k + 1, token=uuid.uuid4(), created_at=s.created_at)
                 for s in sessions for k in range(HANDS)),
                batch_size=BATCH,
            )  # fmt: skip
            revisions = []
            for r, (w, d) in zip(rounds, (h for hs in hands for h in hs), strict=True):
                discarder = None if d == w else d
                if discarder is None:  # self-drawn: each of the others pays what a discarder would
                    deltas = [pay] * 4
                    deltas[w] = -3 * pay
                else:
                    deltas = [each] * 4
                    deltas[w], deltas[discarder] = win, pay
                entry = {**template["entry"], "winner": w, "discarder": discarder}
                revisions.append(RoundRevision(
                    round=r, number=1, kind="win", dealer=0, winners=[w], entry=entry,
                    result=template["result"], deltas=deltas, room_take=0, created_at=r.created_at,
                ))  # fmt: skip
            RoundRevision.objects.bulk_create(revisions, batch_size=BATCH)
            with connection.cursor() as c:
                c.execute(
                    "UPDATE scorer_round r SET current_id = v.id FROM scorer_roundrevision v"
                    " WHERE v.round_id = r.id AND r.current_id IS NULL AND r.id >= %s",
                    [rounds[0].pk],
                )
    with connection.cursor() as c:
        c.execute("ANALYZE")


def fill_results() -> float:
    """The data migration's own function on the historical models: seconds."""
    from django.db import connection, transaction
    from django.db.migrations.loader import MigrationLoader

    from scorer.models import TableResult

    module = MigrationLoader(connection).get_migration("scorer", "0023_league")
    apps = MigrationLoader(connection).project_state(("scorer", "0023_league")).apps
    fill = sys.modules[type(module).__module__].fill_results
    with transaction.atomic():
        TableResult.objects.all().delete()
        t0 = time.perf_counter()
        fill(apps, None)
        took = time.perf_counter() - t0
    with connection.cursor() as c:
        c.execute("ANALYZE scorer_tableresult")
    return took


def measure(room: Any, runs: int) -> dict[str, tuple[int, float, float]]:
    """(queries, median ms with the standings cached, median ms computed afresh) of
    each page; the room's start page is the baseline in the same process."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from scorer.models import Player

    phone = Client(HTTP_HOST="localhost")
    regular = Player.objects.filter(room=room).order_by("pk").first()
    assert regular is not None
    pages = {
        "start page (baseline)": reverse("scorer:room", args=[room.slug]),
        "league page": reverse("scorer:league", args=[room.slug]),
        "player's season page": reverse("scorer:player", args=[regular.slug]),
    }
    out = {}
    for name, url in pages.items():

        def get(url: str = url) -> Any:
            response = phone.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        def cold(url: str = url) -> Any:
            cache.clear()  # every change of the league: the standings computed again
            return get(url)

        get()
        with CaptureQueriesContext(connection) as ctx:
            get()
        out[name] = (len(ctx.captured_queries), median_ms(get, runs), median_ms(cold, runs))
    return out


def replay_seconds(room: Any, runs: int = 3) -> tuple[float, int]:
    from django.db import transaction

    from scorer.models.results import replay_ratings

    samples, n = [], 0
    for _ in range(runs):
        with transaction.atomic():
            t0 = time.perf_counter()
            n = replay_ratings(room.pk, "mcr")
            samples.append(time.perf_counter() - t0)
    return sorted(samples)[len(samples) // 2], n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=5000, help="tables at the end (5000)")
    parser.add_argument("--small", type=int, default=500, help="tables at the start (500)")
    parser.add_argument("--runs", type=int, default=30, help="requests per median (30)")
    parser.add_argument("--reset", action="store_true", help="empty the database first")
    args = parser.parse_args(argv)
    setup("benchmarks.league")
    from scorer.models import Room

    if args.reset:
        reset()
    elif Room.objects.filter(slug="league").exists():
        sys.exit("the database has the league's room already: --reset empties it")
    rng = random.Random(SEED)
    template = template_revision()
    room = room_of_regulars()
    have = 0
    for size in (args.small, args.tables):
        t0 = time.perf_counter()
        add_tables(room, size - have, template, rng)
        have = size
        print(f"{size} tables inserted ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        migration = fill_results()
        pages = measure(room, args.runs)
        replay, rated = replay_seconds(room)
        print(f"\n{size} closed tables of {HANDS} hands, {PLAYERS} regulars:")
        print(f"  the results' migration: {migration:.2f} s")
        base = pages["start page (baseline)"][1]
        for name, (queries, warm, cold) in pages.items():
            print(f"  {name:<22} {queries:>3} queries  median {warm:6.1f} ms ({warm / base:.1f}x"
                  f" the start page); computed afresh {cold:6.1f} ms")  # fmt: skip
        print(f"  full rating replay ({rated} tables): median {replay:.2f} s")


if __name__ == "__main__":
    main()
