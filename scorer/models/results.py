"""Results kept at the close: one row per seat of every closed table (TableResult), the
league's and a player's page's only source, never the rounds.

The rows are written by `write_results` inside the transaction that closes the
table (GameSession.close, a match's last hand), and written again by whatever
changes what they say: a reopen and close, a take-in (an imported table enters the
books), a player merge (his seats move).  A reopened table keeps its last close's
rows, marked `reopened`, until it closes again, as the books keep its charges.

The ratings (scorer/league/ratings.py) live on the rows too: each row keeps its player's
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
from scorer.league.ratings import Skill, replay
from scorer.league.seat_results import TWELFTHS, Line, table_figures
from scorer.models.league import Season, league_changed
from scorer.models.roomlog import SEASON_TABLE_CHANGED, SEASON_TABLE_REOPENED
from scorer.money.fees import seat_fees


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

    # The table's rating change, kept in a narrow row of its own (TableRating): a
    # replay rewrites thousands of them, which on these wide rows took seconds.
    def _rating(self) -> TableRating | None:
        try:
            return self.rating
        except TableRating.DoesNotExist:
            return None

    @property
    def mu_before(self) -> float | None:
        r = self._rating()
        return r.mu_before if r is not None else None

    @property
    def sigma_before(self) -> float | None:
        r = self._rating()
        return r.sigma_before if r is not None else None

    @property
    def mu_after(self) -> float | None:
        r = self._rating()
        return r.mu_after if r is not None else None

    @property
    def sigma_after(self) -> float | None:
        r = self._rating()
        return r.sigma_after if r is not None else None

    @property
    def rating_change(self) -> int | None:
        r = self._rating()
        if r is None:
            return None
        return Skill(r.mu_after, r.sigma_after).shown - Skill(r.mu_before, r.sigma_before).shown


class TableRating(models.Model):
    """A counted seat's rating before and after its table, in its rating family (the
    replay of scorer/league/ratings.py writes them, in close order)."""

    result = models.OneToOneField(
        TableResult, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    def __str__(self) -> str:
        return f"{self.result_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"


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
    # (row id, player, place) by table, in close order: plain values, no model rows.
    tables: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for pk, sid, pid, place in later.order_by("closed_at", "session_id", "seat").values_list(
        "id", "session_id", "player_id", "place"
    ):
        tables[sid].append((pk, pid, place))
    players = {pid for rs in tables.values() for _pk, pid, _place in rs}
    start: dict[int, Skill] = {}
    if key is not None and players:
        before = rows.exclude(after_key(*key)).filter(player_id__in=players)
        for pid, mu, sigma in before.order_by("player_id", "-closed_at", "-session_id").values_list(
            "player_id", "rating__mu_after", "rating__sigma_after"
        ):
            if pid not in start and mu is not None and sigma is not None:
                start[pid] = Skill(mu, sigma)
    rated, _ = replay(
        [([pid for _pk, pid, _p in rs], [p for _pk, _pid, p in rs]) for rs in tables.values()],
        start,
    )
    changed = [
        (pk, b.mu, b.sigma, a.mu, a.sigma)
        for rs, seats in zip(tables.values(), rated, strict=True)
        for (pk, _pid, _place), (b, a) in zip(rs, seats, strict=True)
    ]
    _write_ratings(model, changed)
    return len(tables)


RATING_FIELDS = ("mu_before", "sigma_before", "mu_after", "sigma_after")


def _write_ratings(model: Any, rows: list[tuple[int, float, float, float, float]]) -> None:
    """The seats' ratings: (result id, mu_before, sigma_before, mu_after, sigma_after)
    each, written again as narrow TableRating rows.  On PostgreSQL one DELETE and one
    INSERT … SELECT FROM unnest() of five arrays, whatever the number of rows;
    elsewhere (SQLite) 500 rows a statement."""
    if not rows:
        return
    rating = model._meta.apps.get_model("scorer", "TableRating")
    table = rating._meta.db_table
    ids = [row[0] for row in rows]
    if connection.vendor == "postgresql":
        columns = [list(c) for c in zip(*rows, strict=True)]
        arrays = "%s::bigint[], " + ", ".join(["%s::double precision[]"] * 4)
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE result_id = ANY(%s)", [ids])
            cursor.execute(
                f"INSERT INTO {table} (result_id, {', '.join(RATING_FIELDS)}) "
                f"SELECT * FROM unnest({arrays})",
                columns,
            )
        return
    for first in range(0, len(rows), 500):
        rating.objects.filter(result_id__in=ids[first : first + 500]).delete()
    rating.objects.bulk_create(
        (rating(result_id=row[0], **dict(zip(RATING_FIELDS, row[1:], strict=True)))
         for row in rows),
        batch_size=500,
    )  # fmt: skip


__all__ = [
    "TableRating",
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
