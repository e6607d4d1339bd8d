"""Sessions (一场): a table's rules, its reads, and every change of it, under its lock.

Nothing recorded is ever deleted: undo marks a round undone (who, when), a
correction adds a revision and points the round at it, and totals are sums
over the current revisions of the rounds still standing.  Every change bumps
`GameSession.version`, which the session page's polling uses as its ETag.

The one lock every change of a table takes is `locked` (scorer/models/locking.py,
which says what is locked, in what order, and why); the changes of a table's
rounds are RoundChanges' (scorer/models/round_changes.py), a part of GameSession.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import time
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Max
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from scorer.clean.parse import preset_config_id
from scorer.clean.text import AUTHOR, NOTE, cut
from scorer.live.broker import publish_on_commit, room_topic, table_topic
from scorer.models import errors
from scorer.models.locking import locked
from scorer.models.money import FEE, TIME, TableCharge
from scorer.models.players import Player, players_merged
from scorer.models.results import write_results
from scorer.models.roomlog import (
    TABLE_CLOSED,
    TABLE_PAUSED,
    TABLE_RESUMED,
    TABLE_TAKEN_IN,
    Actor,
)
from scorer.models.rooms import RoomMember, default_room
from scorer.models.round_changes import RoundChanges
from scorer.models.rounds import (
    Round,
    RoundRevision,
    SessionChange,
)
from scorer.models.session_rules import SessionRules
from scorer.models.tables import RoomTable
from scorer.money import clock
from scorer.money.fees import close_entry
from scorer.money.timefee import split


def new_code() -> str:
    """An unguessable session code: the link is the only key to the session."""
    return secrets.token_urlsafe(12)


def origin_of_code(code: str) -> str:
    """A table's lineage as its exports carry it: one-way, so that a shared file never
    gives away the table's link (its code is its key), yet the same for every export."""
    return hashlib.sha256(f"mahjong-table:{code}".encode()).hexdigest()


class GameSession(RoundChanges, models.Model):
    code = models.CharField(max_length=32, unique=True, default=new_code, editable=False)
    # The room it was played in (its players' statistics, its admins' dashboard).
    room = models.ForeignKey("scorer.Room", on_delete=models.CASCADE, related_name="sessions")
    # The room's physical table it was started from (its QR code), if any.
    room_table = models.ForeignKey(
        "scorer.RoomTable",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sessions",
    )
    ruleset = models.CharField(max_length=32)
    preset = models.CharField(max_length=32, blank=True)  # the preset the values started from
    # Every parameter's value, resolved when the session started: a later change of
    # a default or of a room's configuration never changes a recorded round.
    params = models.JSONField(default=dict, blank=True)
    players = models.JSONField()  # seat -> name, seats in play order
    first_dealer = models.PositiveSmallIntegerField(default=0)
    money_per_point = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    # The table's clock starts here (scorer/money/clock.py: the till's clock, which tests set).
    created_at = models.DateTimeField(default=clock.now)
    # The last change (a round recorded, corrected, undone, restored): the home page
    # lists a phone's tables by it.
    updated_at = models.DateTimeField(default=clock.now)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: the polling ETag
    # Set by 结束本桌: a closed table is read-only until it is reopened (its history says so).
    closed_at = models.DateTimeField(null=True, blank=True)
    # How the room charges this table (台费), snapshotted from its configuration when the
    # table started, like every parameter: {} or {"mode": "none"} for no fee (scorer/money/fees.py).
    fee = models.JSONField(default=dict, blank=True)
    # Its 计时 fee in 元 (scorer/money/timefee.py), snapshotted when it started from its fixed
    # table's own rule (包间A) or else its configuration's: {} for none.
    time_fee = models.JSONField(default=dict, blank=True)
    # The clock's pauses (饭点, 休息), [[start, end|None], ...] (scorer/money/clock.py): not billed.
    pauses = models.JSONField(default=list, blank=True)
    # The table this one is (origin_of_code of its own code) or, imported, a copy of
    # (the file's origin): the JSON export carries it, and an import of a table
    # already here finds it by it (scorer/services/export.py) instead of doubling its statistics.
    origin = models.CharField(max_length=64, blank=True, db_index=True)
    # Made from an exported file (scorer/services/export.py): anyone may import into a room's
    # page, so such a table stays out of the room's books (its fees, day report and
    # dashboard, scorer/services/day.py) until the room's admins take it in (`take_in`).
    imported_at = models.DateTimeField(null=True, blank=True)
    taken_in_at = models.DateTimeField(null=True, blank=True)
    taken_in_by = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["room", "closed_at"], name="session_room_open")]

    def __str__(self) -> str:
        return f"{self.code} ({self.ruleset})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.room_id is None:  # the embedded default: one room, which `/` serves
            self.room = default_room()
        if not self.origin:
            self.origin = origin_of_code(self.code)
        super().save(*args, **kwargs)

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def in_books(self) -> bool:
        """Whether the room's books count this table: played here, or imported and
        taken in by the room's admins."""
        return self.imported_at is None or self.taken_in_at is not None

    @staticmethod
    def in_books_q(prefix: str = "") -> models.Q:
        """`in_books` as a query filter (`prefix`: "session__" from a round)."""
        return models.Q(**{f"{prefix}imported_at__isnull": True}) | models.Q(
            **{f"{prefix}taken_in_at__isnull": False}
        )

    @staticmethod
    def config_id_of(preset: str, imported_at: dt.datetime | None) -> int | None:
        """The room configuration a table was started from ("room:12"), for its label in
        the books.  An imported table's preset is the label its own room gave it (another
        room's configuration, or any text the file says): kept as it came, never read."""
        return None if imported_at is not None else preset_config_id(preset)

    def log_data(self) -> dict[str, Any]:
        """What the room's log keeps of this table: its fixed table (or its players)
        and its link, which the log (read by the room's admins only) opens."""
        table = self.room_table
        return {
            "table": table.log_data() if table is not None else None,
            "players": [str(n) for n in self.players],
            "session": self.code,
        }

    def take_in(self, author: str = "", by: Actor | None = None) -> bool:
        """The room's admins count an imported table in the room's books from now on
        (its rounds on the days they were played); the room's log says who did, when
        `by` is given.  False when there was nothing to do: played here, or taken in
        already (two admins tapping at once take it in once, under the row lock)."""
        with locked(self, closed_ok=True) as session:
            if session.in_books:
                return False
            session.taken_in_at = timezone.now()
            session.taken_in_by = author[:80]
            session.save(update_fields=["taken_in_at", "taken_in_by"])
            write_results(session)  # the league counts it from now on
            if by is not None:
                session.room.log_action(TABLE_TAKEN_IN, by, session.log_data())
            session.bump()  # the room's pages (and the table's) hear of it
            self.taken_in_at, self.taken_in_by = session.taken_in_at, session.taken_in_by
            return True

    @property
    def rules(self) -> SessionRules:
        """What this table plays by (its spec, values, winds, next dealer, fees), read
        once per session object and read again when the fields it comes from change."""
        key = SessionRules.key_of(self)
        cached: SessionRules | None = self.__dict__.get("_rules")
        if cached is None or cached.key != key:
            cached = SessionRules(self)
            self.__dict__["_rules"] = cached
        return cached

    @property
    def stepwise(self) -> bool:
        """Whether this session records its rounds event by event (the page asks)."""
        return self.rules.stepwise

    def finish_match(self) -> bool:
        """Close a match table once its last hand is recorded (called under the lock)."""
        match = self.rules.table.match
        if match is None or self.n_players != match.players or self.closed_at is not None:
            return False
        done = (
            self.rounds.filter(status=Round.ACTIVE, in_progress=False)
            .filter(current__kind__in=RoundRevision.HANDS)
            .count()
        )
        if done < match.hands:
            return False
        self.closed_at = clock.now()
        self.save(update_fields=["closed_at"])
        SessionChange.objects.create(
            session=self, action=SessionChange.CLOSE, note=f"比赛结束：{match.hands} 盘打完"
        )
        self.charge_at_close()
        self.charge_time()
        write_results(self)
        return True

    # -- reading ----------------------------------------------------------

    def standing_rounds(self) -> list[Round]:
        """The rounds that count, oldest first, each with its current revision (one query)."""
        return list(
            self.rounds.filter(status=Round.ACTIVE).select_related("current").order_by("number")
        )

    def tallies(self, rounds: list[Round] | None = None) -> list[int]:
        """Each player's total: his net, after what he paid the room (room_take)."""
        totals = [0] * self.n_players
        for r in rounds if rounds is not None else self.standing_rounds():
            if r.current is not None:
                for seat, d in enumerate(r.current.deltas):
                    totals[seat] += d
        return totals

    @staticmethod
    def standings_of(sessions: Sequence[GameSession]) -> dict[int, tuple[list[int], int]]:
        """Each session's totals and its number of standing hands, by pk (one query
        for them all: a phone's list of tables shows who leads at each)."""
        out: dict[int, tuple[list[int], int]] = {s.pk: ([0] * s.n_players, 0) for s in sessions}
        rows = Round.objects.filter(
            session__in=[s.pk for s in sessions], status=Round.ACTIVE, current__isnull=False
        ).values_list("session_id", "current__deltas", "current__kind")
        for pk, deltas, kind in rows:
            totals, n = out[pk]
            for seat, d in enumerate(deltas[: len(totals)]):
                totals[seat] += d
            out[pk] = (totals, n + (kind in RoundRevision.HANDS))  # hands only: 局
        return out

    def room_take(self, rounds: list[Round] | None = None) -> int:
        """What the room has taken from this table (台费): with the tallies, zero."""
        rounds = rounds if rounds is not None else self.standing_rounds()
        return sum(r.current.room_take for r in rounds if r.current is not None)

    def next_position(self, rounds: list[Round] | None = None) -> tuple[int, str]:
        """(dealer, prevalent wind) proposed for the next round; the form may override it.

        The ruleset decides (连庄 or not, whether a 圈风 moves on).
        """
        rounds = rounds if rounds is not None else self.standing_rounds()
        # The fee charged at the close, an adjustment and a penalty are no hands: the
        # hand after the last one played (the dealer stays after a 逃跑).
        rounds = [r for r in rounds if r.is_hand]
        last = rounds[-1].current if rounds else None
        return self.rules.next_position_after(last)

    # -- changing ---------------------------------------------------------

    # -- the clock ---------------------------------------------------------

    def clock_pauses(self) -> list[clock.Pause]:
        return clock.pauses_of(self.pauses)

    @property
    def paused(self) -> bool:
        return self.closed_at is None and clock.running_pause(self.clock_pauses()) is not None

    def billed_seconds(self, at: dt.datetime | None = None) -> int:
        """The table's time so far (or at its close), less its pauses."""
        end = self.closed_at or at or clock.now()
        return clock.billed_seconds(self.created_at, end, self.clock_pauses())

    def time_fee_due(self, at: dt.datetime | None = None) -> Decimal:
        """The 计时 fee of the table's time so far (at its close: what it owes), in 元."""
        return self.rules.time_fee.fee(self.billed_seconds(at))

    def clock_data(self, at: dt.datetime | None = None) -> dict[str, Any]:
        """What the page's ticking clock starts from (static/js/clock.js): the billed
        seconds now, whether it runs, and the fee's steps ahead (no rule in the script)."""
        seconds = self.billed_seconds(at)
        rule = self.rules.time_fee
        return {
            "seconds": seconds,
            "running": self.closed_at is None and not self.paused,
            "steps": rule.steps(seconds) if rule.charges else [],
        }

    def pause(self, by: Actor | None = None, author: str = "") -> bool:
        """A room's admin stops the table's clock (饭点, 休息): the time until `resume`
        is not billed.  False when it was paused already or the table is closed.

        Race: two admins tapping 暂停 at once; under the row lock the second finds
        the pause running and adds none."""
        return self._set_clock(pausing=True, by=by)

    def resume(self, by: Actor | None = None, author: str = "") -> bool:
        """The table's clock runs again; False when it was not paused."""
        return self._set_clock(pausing=False, by=by)

    def _set_clock(self, pausing: bool, by: Actor | None) -> bool:
        with locked(self, closed_ok=True) as session:
            if session.closed_at is not None:
                return False
            pauses = session.clock_pauses()
            running = clock.running_pause(pauses) is not None
            if running == pausing:
                return False
            now = clock.now()
            if pausing:
                pauses.append((now, None))
            else:
                pauses[-1] = (pauses[-1][0], now)
            session.pauses = self.pauses = clock.pauses_json(pauses)
            session.save(update_fields=["pauses"])
            # A pause moves the version: a page polled since shows the clock stopped.
            session.bump()
            self.version = session.version
            if by is not None:
                session.room.log_action(
                    TABLE_PAUSED if pausing else TABLE_RESUMED, by, session.log_data()
                )
            return True

    def close(
        self,
        author: str = "",
        note: str = "",
        by: RoomMember | None = None,
        at: dt.datetime | None = None,
    ) -> bool:
        """结束本桌: the table becomes read-only.  False when it was closed already
        (two phones tapping at once close it once) or a round is still being played.
        `note`: why, when the room's admins close a table its players left open;
        `by`: that admin, whose close the room's log keeps too (the table's own
        history, which travels in its export, keeps it as every close).  `at`: when
        the players left, as the admin says (the clock stops then, not at the tap):
        not before the table's start nor its last change, not in the future."""
        with locked(self, closed_ok=True) as session:
            if session.closed_at is not None:
                return False
            if session.round_in_progress() is not None:
                raise errors.CLOSE_WITH_ROUND_OPEN.error()
            now = clock.now()
            if at is not None:
                last = session.rounds.aggregate(m=Max("created_at"))["m"]
                earliest = max(session.created_at, last or session.created_at)
                if not earliest <= at <= now:
                    raise errors.CLOSE_TIME_OUT_OF_RANGE.error()
            session.closed_at = at or now
            pauses = session.clock_pauses()
            if clock.running_pause(pauses) is not None:
                # A pause still running ends with the table (never after it).
                pauses[-1] = (pauses[-1][0], max(pauses[-1][0], session.closed_at))
                session.pauses = clock.pauses_json(pauses)
            session.save(update_fields=["closed_at", "pauses"])
            session.log_change(SessionChange.CLOSE, author, note)
            session.charge_at_close(author)
            # The last close's money charge, kept in the books while the table stood
            # reopened, gives way to this close's (kept, struck through at this close):
            # the difference counts on this close's day (scorer/services/books.py).
            session.charges.filter(undone_at__isnull=True).update(undone_at=session.closed_at)
            session.charge_time()
            # The results kept at the close (the league's, a player's page's), in the
            # close's own transaction: written again by the next close after a reopen.
            write_results(session)
            session.bump()
            if by is not None:
                session.room.log_action(
                    TABLE_CLOSED, by, {**session.log_data(), "note": note[:200]}
                )
            self.closed_at = session.closed_at
            return True

    def log_change(self, action: str, author: str, note: str) -> None:
        """A close or a reopening in the table's history (called under the table's row
        lock, inside the action's transaction): its author and note cut to their fields."""
        SessionChange.objects.create(
            session=self, action=action, author=cut(AUTHOR, author), note=cut(NOTE, note)
        )

    def charge_at_close(self, author: str = "") -> Round | None:
        """The fee a closing table owes the room (AA, 大赢家付), recorded as a round of
        its own (kind "fee") after the last hand: the ledger shows it as a line, the
        room's dashboard counts it like any round's room_take, and reopening the table
        undoes it (closing again charges on the totals then).  Called under the
        session's row lock by whatever closes the table (结束本桌, a match's last hand)."""
        rule = self.rules.fee
        rounds = [r for r in self.standing_rounds() if not r.is_fee]
        if not rounds:
            return None  # a table nobody played at owes nothing
        last = rounds[-1].current
        assert last is not None
        scored = close_entry(rule, self.tallies(rounds), last.dealer, last.prevalent_wind)
        if scored is None:
            return None
        rnd = Round.objects.create(session=self, number=self.next_number(), token=uuid.uuid4())
        rnd.add_revision(scored, author)
        return rnd

    def charge_time(self) -> list[TableCharge]:
        """The 计时 fee a closing table owes the room, in 元, shared AA by its seats (the
        odd 分 on the first seats), and its point mode set in 元 (scorer/money/fees.py
        money_at_close): rows of the table's money ledger, never points.
        Called under the session's row lock by whatever closes the table.  A table
        nobody played at owes nothing, as for the close-time point fees."""
        rule, fee = self.rules.time_fee, self.rules.fee
        if not (rule.charges or fee.yuan) or self.closed_at is None:
            return []
        rounds = [r for r in self.standing_rounds() if not r.is_fee]
        if not rounds:
            return []
        shares: list[tuple[str, list[Decimal]]] = []
        if rule.charges:
            shares.append((TIME, split(rule.fee(self.billed_seconds()), self.n_players)))
        if fee.yuan:
            # A point mode set in 元 (AA, 大赢家付, 每把, 抽水): money, never points.
            wins = [(r.current.deltas, r.current.winners) for r in rounds if r.current]
            owed = fee.money_at_close(self.tallies(rounds), wins, self.money_per_point)
            shares.append((FEE, owed))
        return TableCharge.objects.bulk_create(
            TableCharge(
                room_id=self.room_id,
                session=self,
                seat=seat,
                kind=kind,
                amount=amount,
                at=self.closed_at,
            )
            for kind, amounts in shares
            for seat, amount in enumerate(amounts)
            if amount
        )

    def money_charged(self) -> list[Decimal]:
        """What each seat owes the room in 元 as the table stands closed (its charges not
        undone; an open table's are its last close's, kept for the books only)."""
        out = [Decimal("0.00")] * self.n_players
        if self.closed_at is None:
            return out  # an open table's charges are all undone (none read)
        for seat, amount in self.charges.filter(undone_at__isnull=True).values_list(
            "seat", "amount"
        ):
            if seat < len(out):
                out[seat] += amount
        return out

    def reopen(self, author: str = "", note: str = "") -> bool:
        """Open a closed table again; its history keeps the close and this reopening."""
        with locked(self, closed_ok=True) as session:
            if session.closed_at is None:
                return False
            # The time the table stood closed is not billed: a pause from its close.
            pauses = session.clock_pauses()
            pauses.append((session.closed_at, max(clock.now(), session.closed_at)))
            session.pauses = clock.pauses_json(pauses)
            session.closed_at = None
            session.save(update_fields=["closed_at", "pauses"])
            session.log_change(SessionChange.REOPEN, author, note)
            # The fee charged at the close goes with it (it stays in the ledger's
            # history, undone): the table owes it again, on its new totals, when it
            # closes again.
            for rnd in session.standing_rounds():
                if rnd.is_fee:
                    rnd.mark_undone(author)
            # Its money charge (计时, fees in 元) stays in the room's books, marked
            # reopened, until the table closes again: the next close replaces it and the
            # difference is owed, or to refund, on that close's day.  What was collected
            # stays collected, on the day it was taken.
            # Its results stay, marked reopened, until it closes again (as the books).
            write_results(session)
            session.bump()
            self.closed_at = None
            return True

    def bump(self) -> None:
        """Move the table's version: the one place it moves (the tallies' ETag), so
        every change of the table calls this.  Once the change commits, the table's
        phones and its room's admin pages are told (scorer/live/broker.py); a change
        rolled back tells no one."""
        GameSession.objects.filter(pk=self.pk).update(
            version=models.F("version") + 1, updated_at=clock.now()
        )
        self.refresh_from_db(fields=["version", "updated_at"])
        publish_on_commit([table_topic(self.code), room_topic(self.room_id)], self.version)


def nudge_room(room_id: int) -> None:
    """Tell the room's admin pages, once the change commits, that its tables changed
    (a table started, a fixed table added or edited; a round's change is told by
    `GameSession.bump`).  The version of a room is only a nudge: the time."""
    publish_on_commit([room_topic(room_id)], time.time_ns() // 1_000_000)


@receiver(post_save, sender=GameSession)
def _table_started(
    sender: type[GameSession], instance: GameSession, created: bool, **kwargs: Any
) -> None:
    """A table started, however it is made (start_table, a test's factory, the admin):
    the room's admin pages are told once it commits."""
    if created:
        nudge_room(instance.room_id)


@receiver(players_merged, sender=Player)
def _players_merged(sender: type[Player], keep: Player, sessions: list[int], **kwargs: Any) -> None:
    """Two names merged into one player: the results of the tables whose seats moved
    are written again (his rows, and his ratings replayed from the first of them)."""
    rewrite_results(GameSession.objects.filter(pk__in=sessions, closed_at__isnull=False))


def rewrite_results(sessions: Any) -> int:
    """Write the kept results of these closed tables again, in close order (each
    under its lock, inside the caller's transaction); how many were written."""
    n = 0
    for session in sessions.order_by("closed_at", "pk"):
        with locked(session, closed_ok=True) as s:
            write_results(s)
        n += 1
    return n


@receiver(post_save, sender=RoomTable)
def _room_table_changed(sender: type[RoomTable], instance: RoomTable, **kwargs: Any) -> None:
    """A physical table added, renamed, retired or given a new code: the room's admin
    pages are told once it commits."""
    nudge_room(instance.room_id)
