"""Results kept at the close: one row per seat of every closed table (TableResult), the
league's and a player's page's only source, never the rounds.

The rows are written by `write_results` inside the transaction that closes the
table (GameSession.close, a match's last hand), and written again by whatever
changes what they say: a reopen and close, a take-in (an imported table enters the
books), a player merge (his seats move).  A reopened table keeps its last close's
rows, marked `reopened`, until it closes again, as the books keep its charges.

The ratings (scorer/ratings.py) live on the rows too: each row keeps its player's
skill before and after that table, per rating family, in close order.  A table
written again replays its family from itself on (`replay_ratings`), so the rows
always say what rating every table in order, from scratch, would say.

Below the sessions' module: it never imports GameSession (the table is passed in
and only read), so sessions.py calls it from its own methods.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.db import connection, models
from django.db.models import Q
from django.utils import timezone

from rules.registry import REGISTRY, rating_family
from scorer.fees import seat_fees
from scorer.models.league import Season, league_changed
from scorer.models.roomlog import SEASON_TABLE_CHANGED, SEASON_TABLE_REOPENED
from scorer.ratings import Skill, replay
from scorer.seat_results import TWELFTHS, Line, table_figures


class TableResult(models.Model):
    """One seat of one closed table, as its last close left it."""

    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="results"
    )
    seat = models.PositiveSmallIntegerField()
    # The registry's player (None: a seat left unnamed, whose table the league skips).
    player = models.ForeignKey(
        "scorer.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="results"
    )
    name = models.CharField(max_length=40)  # as the table typed it
    ruleset = models.CharField(max_length=32)
    preset = models.CharField(max_length=32, blank=True)
    family = models.CharField(max_length=32)  # the ratings' (rules/registry.py rating_family)
    n_players = models.PositiveSmallIntegerField()
    closed_at = models.DateTimeField()  # an import: its file's close
    day = models.DateField()  # the room's day of the close (its books' day)
    # In the room's books (played here, or taken in) with every seat a registry player:
    # the league counts the table.
    counted = models.BooleanField(default=False)
    reopened = models.BooleanField(default=False)  # reopened since: these are its last close's
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    standard_12 = models.IntegerField()  # 标准分 (4/2/1/0 shared on ties) × 12
    rate = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    net_yuan = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    hands = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    self_draws = models.PositiveIntegerField(default=0)
    deal_ins = models.PositiveIntegerField(default=0)  # one per discard won on
    win_fans = models.IntegerField(default=0)
    win_points = models.IntegerField(default=0)
    top_win = models.IntegerField(null=True, blank=True)  # the most one win brought
    counts_fans = models.BooleanField(default=True)  # the ruleset counts 番 (else points)
    best_fans = models.IntegerField(null=True, blank=True)
    best_points = models.IntegerField(null=True, blank=True)
    best_round = models.PositiveIntegerField(null=True, blank=True)  # its ledger line
    best_hand = models.JSONField(default=dict, blank=True)  # tiles and fans, to draw it
    fans = models.JSONField(default=dict, blank=True)  # 番种 zh -> [en, count]
    fed = models.JSONField(default=dict, blank=True)  # winner's seat -> deal-ins to him
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["closed_at", "session_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="one_result_per_seat")
        ]
        indexes = [
            models.Index(fields=["room", "counted", "day"], name="result_room_day"),
            models.Index(fields=["player", "family", "closed_at"], name="result_player_family"),
            models.Index(fields=["room", "family", "closed_at"], name="result_room_family"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}:{self.seat} {self.name} {self.points}"

    @property
    def standard(self) -> float:
        return self.standard_12 / TWELFTHS

    @property
    def rating_change(self) -> int | None:
        mu0, s0, mu1, s1 = self.mu_before, self.sigma_before, self.mu_after, self.sigma_after
        if mu0 is None or s0 is None or mu1 is None or s1 is None:
            return None
        return Skill(mu1, s1).shown - Skill(mu0, s0).shown


def room_day_of(day_ends_hour: int, when: dt.datetime) -> dt.date:
    """The room's day of an instant, as its books cut days (scorer/services/till.py)."""
    return (timezone.localtime(when) - dt.timedelta(hours=day_ends_hour)).date()


def counts_fans(ruleset_id: str) -> bool:
    """Whether the ruleset counts a hand in fans (番), else in points (分)."""
    rs = REGISTRY.get(ruleset_id)
    return rs is None or rs.table_spec.scoring.unit == "fan"


def lines_of(session: Any) -> list[Line]:
    """The table's standing rounds as the figures read them (one query)."""
    return lines_by_session(type(session).rounds.rel.related_model, [session])[session.pk]


def lines_by_session(round_model: Any, sessions: list[Any]) -> dict[int, list[Line]]:
    """The standing rounds of several tables at once, as Lines by table (one query).
    Reads only fields, so that the data migration's historical models do too."""
    n = {s.pk: len(s.players) for s in sessions}
    out: dict[int, list[Line]] = {s.pk: [] for s in sessions}
    rows = (
        round_model.objects.filter(session_id__in=list(n), status="active", current__isnull=False)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "current__kind", "current__entry",
                     "current__result", "current__deltas")
    )  # fmt: skip
    for sid, number, kind, entry, result, deltas in rows:
        entry = entry if isinstance(entry, dict) else {}
        result = result if isinstance(result, dict) else {}
        out[sid].append(Line(number, kind, entry, result, list(deltas), seat_fees(result, n[sid])))
    return out


def seats_by_session(seat_model: Any, sessions: list[Any]) -> dict[int, dict[int, int]]:
    """Each table's seat -> registry player (one query)."""
    out: dict[int, dict[int, int]] = {s.pk: {} for s in sessions}
    for sid, seat, pid in seat_model.objects.filter(session_id__in=list(out)).values_list(
        "session_id", "seat", "player_id"
    ):
        out[sid][seat] = pid
    return out


def build_results(
    session: Any,
    model: Any = None,
    lines: list[Line] | None = None,
    players: dict[int, int] | None = None,
) -> list[Any]:
    """The rows a closed table's rounds give, unsaved (ratings not set).  `model`: the
    row's class (the data migration's historical one; TableResult by default);
    `lines` and `players`: the table's rounds and seats when read already for many."""
    model = model or TableResult
    n = len(session.players)
    if players is None:
        players = dict(session.seats.values_list("seat", "player_id"))
    fans = counts_fans(session.ruleset)
    figures = table_figures(lines if lines is not None else lines_of(session), n, fans)
    in_books = session.imported_at is None or session.taken_in_at is not None
    counted = in_books and len(players) == n
    rate = session.money_per_point
    day = room_day_of(session.room.day_ends_hour, session.closed_at)
    return [
        model(
            room_id=session.room_id, session_id=session.pk, seat=f.seat,
            player_id=players.get(f.seat), name=str(session.players[f.seat])[:40],
            ruleset=session.ruleset, preset=session.preset,
            family=rating_family(session.ruleset), n_players=n,
            closed_at=session.closed_at, day=day, counted=counted, place=f.place,
            points=f.points, standard_12=f.standard_12, rate=rate,
            net_yuan=None if rate is None else f.points * rate,
            hands=f.hands, wins=f.wins, self_draws=f.self_draws, deal_ins=f.deal_ins,
            win_fans=f.win_fans, win_points=f.win_points, top_win=f.top_win, counts_fans=fans,
            best_fans=f.best_fans, best_points=f.best_points, best_round=f.best_round,
            best_hand=f.best_hand, fans=f.fans, fed=f.fed,
        )
        for f in figures
    ]  # fmt: skip


def write_results(session: Any) -> list[TableResult]:
    """Write the table's rows again from its rounds (inside the caller's transaction,
    under the table's lock): a closed table's rows as its rounds say; an open one's
    last rows kept, marked reopened.  Replays the ratings from the table on."""
    old = list(TableResult.objects.filter(session_id=session.pk))
    if session.closed_at is None:
        mark_reopened(session)
        return old
    new = build_results(session)
    TableResult.objects.filter(session_id=session.pk).delete()
    TableResult.objects.bulk_create(new)
    _after_change(session, old, new)
    league_changed(session.room_id)
    return new


def drop_results(session: Any) -> None:
    """The table leaves the league (a take-in undone: it is out of the books again):
    its rows go, and its family's ratings are replayed without it."""
    old = list(TableResult.objects.filter(session_id=session.pk))
    TableResult.objects.filter(session_id=session.pk).delete()
    _after_change(session, old, [])
    league_changed(session.room_id)


def mark_reopened(session: Any) -> None:
    """A reopened table keeps its last close's rows, marked so, until it closes again."""
    TableResult.objects.filter(session_id=session.pk).update(reopened=True)
    league_changed(session.room_id)
    old = list(TableResult.objects.filter(session_id=session.pk)[:1])
    if old and old[0].counted:
        _tell_closed_seasons(session.room, old[0].day, session, reopened=True)


def _after_change(session: Any, old: list[TableResult], new: list[TableResult]) -> None:
    """Replay the ratings from the earlier of the table's old and new place in close
    order, for each family it was or is counted in."""
    starts: dict[str, tuple[dt.datetime, int]] = {}
    for rows in (old, new):
        if rows and rows[0].counted:
            key = (rows[0].closed_at, session.pk)
            fam = rows[0].family
            starts[fam] = min(starts.get(fam, key), key)
    for fam, key in starts.items():
        replay_ratings(session.room_id, fam, key)
    if old and old[0].counted:
        _tell_closed_seasons(session.room, old[0].day, session, reopened=False)


def _tell_closed_seasons(room: Any, day: dt.date, session: Any, reopened: bool) -> None:
    """A table a closed season counted, changed since: the season's standings stay as
    they were closed, and the room's log says so."""
    for season in Season.objects.filter(
        room_id=room.pk, closed_at__isnull=False, first_day__lte=day, last_day__gte=day
    ):
        room.log_action(
            SEASON_TABLE_REOPENED if reopened else SEASON_TABLE_CHANGED,
            None,
            {**session.log_data(), "season": season.name},
        )


def after_key(at: dt.datetime, session_id: int) -> Q:
    return Q(closed_at__gt=at) | Q(closed_at=at, session_id__gte=session_id)


def replay_ratings(
    room_id: int,
    family: str,
    key: tuple[dt.datetime, int] | None = None,
    model: Any = None,
) -> int:
    """Rate the family's counted tables again from `key` (close time, table) on, in
    close order, from each player's skill before it; None: from the first.  Returns
    how many tables were rated.  Deterministic: the same rows give the same ratings."""
    model = model or TableResult
    rows = model.objects.filter(room_id=room_id, family=family, counted=True)
    later = rows if key is None else rows.filter(after_key(*key))
    tables: dict[int, list[Any]] = defaultdict(list)
    fields = ("id", "session_id", "seat", "player_id", "place", "closed_at")
    for r in later.only(*fields).order_by("closed_at", "session_id", "seat"):
        tables[r.session_id].append(r)
    players = {r.player_id for rs in tables.values() for r in rs}
    start: dict[int, Skill] = {}
    if key is not None and players:
        before = rows.exclude(after_key(*key)).filter(player_id__in=players)
        for pid, mu, sigma in before.order_by("player_id", "-closed_at", "-session_id").values_list(
            "player_id", "mu_after", "sigma_after"
        ):
            if pid not in start and mu is not None and sigma is not None:
                start[pid] = Skill(mu, sigma)
    rated, _ = replay(
        [([r.player_id for r in rs], [r.place for r in rs]) for rs in tables.values()],
        start,
    )
    changed: list[Any] = []
    for rs, seats in zip(tables.values(), rated, strict=True):
        for r, (b, a) in zip(rs, seats, strict=True):
            r.mu_before, r.sigma_before, r.mu_after, r.sigma_after = b.mu, b.sigma, a.mu, a.sigma
            changed.append(r)
    _write_ratings(model, changed)
    return len(tables)


def _write_ratings(model: Any, rows: list[Any], batch: int = 500) -> None:
    """The rows' four rating fields, `batch` rows a statement: one UPDATE … FROM a
    VALUES list (PostgreSQL, and SQLite since 3.33).  Written by hand because
    Django's bulk_update builds a CASE per field and row: 16 s for 2,000 rows where
    this takes a few milliseconds (benchmarks/league.py)."""
    table = model._meta.db_table
    fields = ("mu_before", "sigma_before", "mu_after", "sigma_after")
    one = "(CAST(%s AS BIGINT), " + ", ".join(["CAST(%s AS DOUBLE PRECISION)"] * 4) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            part = rows[start : start + batch]
            sql = (
                f"WITH v(id, {', '.join(fields)}) AS (VALUES {', '.join([one] * len(part))}) "
                f"UPDATE {table} SET {', '.join(f'{f} = v.{f}' for f in fields)} "
                f"FROM v WHERE {table}.id = v.id"
            )
            cursor.execute(sql, [x for r in part for x in (r.pk, *(getattr(r, f) for f in fields))])


__all__ = [
    "TableResult",
    "build_results",
    "counts_fans",
    "lines_by_session",
    "drop_results",
    "mark_reopened",
    "replay_ratings",
    "room_day_of",
    "seats_by_session",
    "write_results",
]
