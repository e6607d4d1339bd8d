"""Sessions (一场), their rounds (一局) and every version of every round.

Nothing recorded is ever deleted: undo marks a round undone (who, when), a
correction adds a revision and points the round at it, and totals are sums
over the current revisions of the rounds still standing.  Every change bumps
`GameSession.version`, which the session page's polling uses as its ETag.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import time
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import Max
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from rules import RuleError
from rules.params import ParamValues
from rules.registry import event_steps, get_ruleset, without_last_step
from rules.table import TableSpec, seat_wind_in
from rules.tiles import SEAT_WINDS
from scorer import clock
from scorer.broker import publish_on_commit, room_topic, table_topic
from scorer.fees import FEE_KIND, FeeRule, charged, close_entry
from scorer.invites import RoomInvite
from scorer.money import FEE, TIME, BalanceEntry, Collection, DayClose, TableCharge
from scorer.players import Player, PlayerAlias, Seat
from scorer.room_tables import RoomTable
from scorer.roomlog import (
    TABLE_CLOSED,
    TABLE_PAUSED,
    TABLE_RESUMED,
    TABLE_TAKEN_IN,
    Actor,
    RoomLogEntry,
)
from scorer.rooms import RoomConfig, RoomMember, default_room
from scorer.scoring import ADJUST as ADJUST_KIND
from scorer.scoring import PENALTY as PENALTY_KIND
from scorer.scoring import ScoredEntry, first_discarder, score_entry
from scorer.text import AUTHOR, NOTE, cut
from scorer.timefee import TimeFee, split


def new_code() -> str:
    """An unguessable session code: the link is the only key to the session."""
    return secrets.token_urlsafe(12)


def origin_of_code(code: str) -> str:
    """A table's lineage as its exports carry it: one-way, so that a shared file never
    gives away the table's link (its code is its key), yet the same for every export."""
    return hashlib.sha256(f"mahjong-table:{code}".encode()).hexdigest()


class GameSession(models.Model):
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
    # The table's clock starts here (scorer/clock.py: the till's clock, which tests set).
    created_at = models.DateTimeField(default=clock.now)
    # The last change (a round recorded, corrected, undone, restored): the home page
    # lists a phone's tables by it.
    updated_at = models.DateTimeField(default=clock.now)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: the polling ETag
    # Set by 结束本桌: a closed table is read-only until it is reopened (its history says so).
    closed_at = models.DateTimeField(null=True, blank=True)
    # How the room charges this table (台费), snapshotted from its configuration when the
    # table started, like every parameter: {} or {"mode": "none"} for no fee (scorer/fees.py).
    fee = models.JSONField(default=dict, blank=True)
    # Its 计时 fee in 元 (scorer/timefee.py), snapshotted when it started from its fixed
    # table's own rule (包间A) or else its configuration's: {} for none.
    time_fee = models.JSONField(default=dict, blank=True)
    # The clock's pauses (饭点, 休息), [[start, end|None], ...] (scorer/clock.py): not billed.
    pauses = models.JSONField(default=list, blank=True)
    # The table this one is (origin_of_code of its own code) or, imported, a copy of
    # (the file's origin): the JSON export carries it, and an import of a table
    # already here finds it by it (scorer/export.py) instead of doubling its statistics.
    origin = models.CharField(max_length=64, blank=True, db_index=True)
    # Made from an exported file (scorer/export.py): anyone may import into a room's
    # page, so such a table stays out of the room's books (its fees, day report and
    # dashboard, scorer/day.py) until the room's admins take it in (`take_in`).
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
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            if session.in_books:
                return False
            session.taken_in_at = timezone.now()
            session.taken_in_by = author[:80]
            session.save(update_fields=["taken_in_at", "taken_in_by"])
            if by is not None:
                session.room.log_action(TABLE_TAKEN_IN, by, session.log_data())
            self.taken_in_at, self.taken_in_by = session.taken_in_at, session.taken_in_by
            return True

    @property
    def stepwise(self) -> bool:
        """Whether this session records its rounds event by event (money moves
        before a round ends: a kong pays at once, the others play on after a win)."""
        return self.table().stepwise

    def table(self) -> TableSpec:
        """What this session's table offers, with the values it started with."""
        return get_ruleset(self.ruleset).table(self.resolved_params())

    def seat_winds(self, dealer: int, wind: str) -> list[str]:
        """Each seat's wind in a hand with this dealer and round wind (where a match
        has changed the players' places, round their order in that 圈)."""
        match = self.table().match
        order = None
        if match is not None and self.n_players == match.players and wind in SEAT_WINDS:
            order = match.order(wind, self.first_dealer)
        return [seat_wind_in(s, dealer, order, self.n_players) for s in range(self.n_players)]

    def finish_match(self) -> bool:
        """Close a match table once its last hand is recorded (called under the lock)."""
        match = self.table().match
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
        return True

    def resolved_params(self) -> ParamValues:
        """The values this session plays with: its own, checked.

        A parameter added to the ruleset after the session started takes its
        default (the ruleset's behaviour before it had one); one since removed is
        dropped.
        """
        rs = get_ruleset(self.ruleset)
        known = {p.name for p in rs.params}
        return rs.resolve_params({k: v for k, v in (self.params or {}).items() if k in known})

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

    def fee_rule(self) -> FeeRule:
        """How the room charges this table, as snapshotted when it started."""
        return FeeRule.of(self.fee)

    def next_position(self, rounds: list[Round] | None = None) -> tuple[int, str]:
        """(dealer, prevalent wind) proposed for the next round; the form may override it.

        The ruleset decides (连庄 or not, whether a 圈风 moves on).
        """
        rounds = rounds if rounds is not None else self.standing_rounds()
        # The fee charged at the close, an adjustment and a penalty are no hands: the
        # hand after the last one played (the dealer stays after a 逃跑).
        rounds = [r for r in rounds if r.is_hand]
        if not rounds or rounds[-1].current is None:
            return self.first_dealer, "E"
        last = rounds[-1].current
        return get_ruleset(self.ruleset).next_position(
            last.dealer,
            last.prevalent_wind,
            self.first_dealer,
            self.n_players,
            list(last.winners),
            self.resolved_params(),
            discarder=first_discarder(last.entry),
        )

    # -- changing ---------------------------------------------------------

    # -- the clock ---------------------------------------------------------

    def time_rule(self) -> TimeFee:
        """How this table's time is billed, as snapshotted when it started."""
        return TimeFee.of(self.time_fee)

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
        return self.time_rule().fee(self.billed_seconds(at))

    def clock_data(self, at: dt.datetime | None = None) -> dict[str, Any]:
        """What the page's ticking clock starts from (static/js/clock.js): the billed
        seconds now, whether it runs, and the fee's steps ahead (no rule in the script)."""
        seconds = self.billed_seconds(at)
        rule = self.time_rule()
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
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
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

    def refuse_if_closed(self) -> None:
        """Every change checks this under the session's row lock: a table closed on
        one phone takes no round from another that still shows it open."""
        if self.closed_at is not None:
            raise RuleError(
                "bad_event",
                "this table is closed: reopen it to change anything",
                "本桌已经结束：要改动请先重新打开",
            )

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
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            if session.closed_at is not None:
                return False
            if session.round_in_progress() is not None:
                raise RuleError(
                    "bad_event",
                    "a round is still in progress: finish it before closing the table",
                    "还有一局没打完：记完再结束本桌",
                )
            now = clock.now()
            if at is not None:
                last = session.rounds.aggregate(m=Max("created_at"))["m"]
                earliest = max(session.created_at, last or session.created_at)
                if not earliest <= at <= now:
                    raise RuleError(
                        "bad_input",
                        "the table ends between its last round and now",
                        "结束时间要在最后一局之后、现在之前",
                    )
            session.closed_at = at or now
            pauses = session.clock_pauses()
            if clock.running_pause(pauses) is not None:
                # A pause still running ends with the table (never after it).
                pauses[-1] = (pauses[-1][0], max(pauses[-1][0], session.closed_at))
                session.pauses = clock.pauses_json(pauses)
            session.save(update_fields=["closed_at", "pauses"])
            SessionChange.objects.create(
                session=session,
                action=SessionChange.CLOSE,
                author=cut(AUTHOR, author),
                note=cut(NOTE, note),
            )
            session.charge_at_close(author)
            session.charge_time()
            session.bump()
            if by is not None:
                session.room.log_action(
                    TABLE_CLOSED, by, {**session.log_data(), "note": note[:200]}
                )
            self.closed_at = session.closed_at
            return True

    def charge_at_close(self, author: str = "") -> Round | None:
        """The fee a closing table owes the room (AA, 大赢家付), recorded as a round of
        its own (kind "fee") after the last hand: the ledger shows it as a line, the
        room's dashboard counts it like any round's room_take, and reopening the table
        undoes it (closing again charges on the totals then).  Called under the
        session's row lock by whatever closes the table (结束本桌, a match's last hand)."""
        rule = self.fee_rule()
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
        odd 分 on the first seats), and its point mode set in 元 (scorer/fees.py
        money_at_close): rows of the table's money ledger, never points.
        Called under the session's row lock by whatever closes the table.  A table
        nobody played at owes nothing, as for the close-time point fees."""
        rule, fee = self.time_rule(), self.fee_rule()
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
        """What each seat owes the room in 元 as the table stands (its charges not undone)."""
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
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            if session.closed_at is None:
                return False
            # The time the table stood closed is not billed: a pause from its close.
            pauses = session.clock_pauses()
            pauses.append((session.closed_at, max(clock.now(), session.closed_at)))
            session.pauses = clock.pauses_json(pauses)
            session.closed_at = None
            session.save(update_fields=["closed_at", "pauses"])
            SessionChange.objects.create(
                session=session,
                action=SessionChange.REOPEN,
                author=cut(AUTHOR, author),
                note=cut(NOTE, note),
            )
            # The fee charged at the close goes with it (it stays in the ledger's
            # history, undone): the table owes it again, on its new totals, when it
            # closes again.
            for rnd in session.standing_rounds():
                if rnd.is_fee:
                    rnd.mark_undone(author)
            # So does its 计时 charge (kept, struck through); what was collected stays
            # collected: the next close shows the difference owed, or to refund.
            session.charges.filter(undone_at__isnull=True).update(undone_at=clock.now())
            session.bump()
            self.closed_at = None
            return True

    def next_number(self) -> int:
        """The number the next round recorded gets (undone rounds keep theirs)."""
        return (self.rounds.aggregate(n=Max("number"))["n"] or 0) + 1

    def next_hand_number(self) -> int:
        """The next hand's "第 N 局" (Round.hand_number): the standing hands plus one,
        whatever lines the adjustments, penalties and fees took in the ledger."""
        return self.rounds.filter(Round.hands_q(), status=Round.ACTIVE).count() + 1

    def record_round(
        self,
        token: uuid.UUID,
        entry: Mapping[str, Any],
        author: str = "",
        number: int | None = None,
    ) -> Round:
        """Score `entry` and record it as the next round, all or nothing.

        Raises RuleError (nothing saved) when the entry does not score.  A second
        call with the same token returns the round the first one recorded.
        `number`: the round the form was opened for.  Two phones entering the
        same hand would otherwise record it twice (the second with the dealer
        it had loaded); when another round has been recorded since, RoundTaken
        is raised instead, naming it, and the phone decides.
        """
        try:
            with transaction.atomic():
                # Row lock on the session: two phones confirming different rounds at
                # the same moment get consecutive numbers instead of one failing on
                # the (session, number) constraint.
                session = GameSession.objects.select_for_update().get(pk=self.pk)
                session.refuse_if_closed()
                done = session.rounds.filter(token=token).first()
                if done is not None:
                    return done  # the same form confirmed twice: already recorded
                # The cheap check first: no scoring for a round that cannot start.
                kind = entry.get("kind") if isinstance(entry, Mapping) else None
                if kind in RoundRevision.NOT_HANDS and session.round_in_progress() is not None:
                    # A line of its own numbered after a round still open would stand
                    # between that round and its next event (taking back the last event
                    # finds the last round); the open round is finished first.
                    raise RuleError(
                        "bad_event",
                        "a round is still in progress: finish it first (its kongs stay paid)",
                        "还有一局没打完：请先记完这一局（已付的杠钱不变）",
                    )
                starts_round = kind == "round"
                if starts_round and session.round_in_progress() is not None:
                    raise RuleError(
                        "bad_event",
                        "a round is still in progress: finish it first",
                        "还有一局没打完：请先记完这一局",
                    )
                next_number = session.next_number()
                if number is not None and number != next_number:
                    taken = (
                        session.rounds.filter(number__gte=number)
                        .select_related("current")
                        .order_by("-number")
                        .first()
                    )
                    raise RoundTaken(taken, next_number)
                if kind == RoundRevision.PENALTY and isinstance(entry, Mapping):
                    # The odd points of a split penalty start one seat further on with
                    # each penalty at the table (rules/round.py `_penalty`).
                    earlier = session.rounds.filter(
                        status=Round.ACTIVE, current__kind=RoundRevision.PENALTY
                    ).count()
                    entry = {"odd_from": earlier, **entry}
                scored = score_entry(session, entry)
                open_round = scored.kind == "round" and not scored.result.get("finished")
                rnd = Round.objects.create(
                    session=session, number=next_number, token=token, in_progress=open_round
                )
                rnd.add_revision(scored, author)
                session.finish_match()
                session.bump()
                return rnd
        except IntegrityError:
            # The (session, token) constraint: a concurrent confirm of the same form
            # won the race; it recorded the round, so this one returns it.
            return self.rounds.get(token=token)

    def undo_last(self, author: str = "", expected: int | None = None) -> Round | None:
        """Mark the last standing round undone; it stays in the ledger's history.

        `expected`: the round number the player saw as the last one.  Two phones
        tapping 撤销 on the same page would otherwise undo two rounds; under the
        session lock the second finds a different last round and does nothing.
        """
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            session.refuse_if_closed()
            last = session.rounds.filter(status=Round.ACTIVE).order_by("-number").first()
            if last is None or (expected is not None and last.number != expected):
                return None
            last.mark_undone(author)
            session.bump()
            return last

    # -- rounds recorded event by event (kongs pay at once, the others play on after a win) --

    def round_in_progress(self) -> Round | None:
        return (
            self.rounds.filter(status=Round.ACTIVE, in_progress=True)
            .select_related("current")
            .first()
        )

    def add_event(
        self,
        token: uuid.UUID,
        event: Mapping[str, Any],
        author: str = "",
        expected: int | None = None,
        join_last_win: bool = False,
        position: Mapping[str, Any] | None = None,
        number: int | None = None,
    ) -> Round:
        """Add one event (a kong, a win, the wall's end) to the round in progress, or
        start a round with it; the whole round is settled again, all or nothing.

        Raises RuleError (nothing saved) when the round with this event does not
        settle.  `expected` is how many events the phone saw in the round: two
        phones adding the same kong at once would record it twice, so under the
        session lock the second finds a different count and is refused.
        `join_last_win` adds the winners of `event` to the last win (一炮多响:
        several players win on one discard).  `position` (dealer, prevalent_wind,
        turned) is used when the event starts a new round; of a round in progress
        only a turned tile it does not have yet is taken.  `number`: the round the
        form was opened for; an event that would start a new round when that
        round has been recorded meanwhile raises RoundTaken (see record_round).
        """
        try:
            with transaction.atomic():
                session = GameSession.objects.select_for_update().get(pk=self.pk)
                session.refuse_if_closed()
                done = session.rounds.filter(revisions__token=token).first()
                if done is not None:
                    # The same form confirmed twice (double tap, retry): already added.
                    return done
                rnd = session.round_in_progress()
                events: list[Any] = []
                where: Mapping[str, Any] = position or {}
                if rnd is not None and rnd.current is not None:
                    events = list(rnd.current.entry.get("events") or [])
                    where = round_position(rnd.current)
                    if "turned" not in where and position and position.get("turned"):
                        # The round's first events needed no wild tiles: the first
                        # win brings the turned tile, and the round keeps it.
                        where["turned"] = position["turned"]
                # Counted in steps: a winner joining a win (一炮多响) is one too.
                if expected is not None and expected != event_steps(events):
                    raise RuleError(
                        "bad_event",
                        "the round changed on another phone meanwhile: look again, then add",
                        "这一局刚被别的手机改过了：请看一下最新情况再记",
                    )
                rs = get_ruleset(session.ruleset)
                events = rs.with_event(events, event, session.resolved_params(), join_last_win)
                scored = score_entry(session, {"kind": "round", **where, "events": events})
                if rnd is None:
                    next_number = session.next_number()
                    if number is not None and number != next_number:
                        taken = session.rounds.filter(number__gte=number).order_by("-number")
                        raise RoundTaken(taken.select_related("current").first(), next_number)
                    rnd = Round.objects.create(session=session, number=next_number, token=token)
                rnd.add_revision(scored, author, token=token)
                finished = bool(scored.result.get("finished"))
                if rnd.in_progress == finished:
                    rnd.in_progress = not finished
                    rnd.save(update_fields=["in_progress"])
                session.finish_match()
                session.bump()
                return rnd
        except IntegrityError:
            # (round, token): a concurrent confirm of the same form won the race.
            return self.rounds.get(revisions__token=token)

    def undo_last_event(
        self, author: str = "", expected: int | None = None, expected_round: int | None = None
    ) -> Round | None:
        """Take back the last step of the last round played as events: its last
        event, or the last winner who joined a win on its discard (一炮多响, stored
        in that one win event: the winners before him stay).

        The round keeps every earlier version (a new revision without the step);
        taking back its only step undoes the round.  A finished round whose last
        step is taken back is open again.  `expected`: the number of steps the
        phone saw (rules.registry.event_steps, and `expected_round` the round
        number), so two phones tapping at once take back one step, not two, and
        never one of another round.
        """
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            session.refuse_if_closed()
            last = (
                session.rounds.filter(status=Round.ACTIVE)
                .select_related("current")
                .order_by("-number")
                .first()
            )
            if last is None or last.current is None or last.current.kind != RoundRevision.ROUND:
                return None
            if expected_round is not None and last.number != expected_round:
                return None  # another phone finished or undid that round meanwhile
            events = list(last.current.entry.get("events") or [])
            if expected is not None and expected != event_steps(events):
                return None
            kept = without_last_step(events)
            if not kept:
                last.mark_undone(author)
            else:
                entry = {"kind": "round", **round_position(last.current), "events": kept}
                last.add_revision(score_entry(session, entry), author)
                if not last.in_progress:
                    last.in_progress = True
                    last.save(update_fields=["in_progress"])
            session.bump()
            return last

    def restore(self, number: int, author: str = "") -> Round | None:
        """Restore an undone round (redo): it counts again; its undo and this
        restore stay in the round's history.  None when it is not undone (another
        phone restored it first).  A round played as events that was still open
        reopens, unless another round is in progress (RuleError, nothing changed).
        """
        with transaction.atomic():
            # Row lock on the session: two phones restoring at once restore once.
            session = GameSession.objects.select_for_update().get(pk=self.pk)
            session.refuse_if_closed()
            rnd = (
                session.rounds.filter(number=number, status=Round.UNDONE)
                .select_related("current")
                .first()
            )
            if rnd is None:
                return None
            if rnd.is_fee:
                raise RuleError(
                    "bad_event",
                    "a table fee is charged when the table closes, not restored",
                    "台费在结束本桌时收取，不能恢复",
                )
            rev = rnd.current
            reopen = (
                rev is not None
                and rev.kind == RoundRevision.ROUND
                and not (rev.result or {}).get("finished")
            )
            if reopen and session.round_in_progress() is not None:
                raise RuleError(
                    "bad_event",
                    "another round is in progress: finish it before restoring this one",
                    "另一局还没打完：记完那一局再恢复这一局",
                )
            rnd.status = Round.ACTIVE
            rnd.in_progress = reopen
            rnd.save(update_fields=["status", "in_progress"])
            RoundChange.objects.create(
                round=rnd, action=RoundChange.RESTORE, author=cut(AUTHOR, author)
            )
            session.bump()
            return rnd

    def bump(self) -> None:
        """Move the table's version: the one place it moves (the tallies' ETag), so
        every change of the table calls this.  Once the change commits, the table's
        phones and its room's admin pages are told (scorer/broker.py); a change
        rolled back tells no one."""
        GameSession.objects.filter(pk=self.pk).update(
            version=models.F("version") + 1, updated_at=clock.now()
        )
        self.refresh_from_db(fields=["version", "updated_at"])
        publish_on_commit([table_topic(self.code), room_topic(self.room_id)], self.version)


def round_position(rev: RoundRevision) -> dict[str, Any]:
    """Where a round was played: its dealer, its wind and, where the table turns a
    tile up for the wild tiles, that tile (kept by every version of the round)."""
    where: dict[str, Any] = {"dealer": rev.dealer, "prevalent_wind": rev.prevalent_wind}
    turned = rev.entry.get("turned") if isinstance(rev.entry, Mapping) else None
    if turned:
        where["turned"] = turned
    return where


def _first_discarder(entry: Mapping[str, Any]) -> int | None:
    """Who dealt in the round's first winning discard (None: self-drawn, a draw)."""
    if entry.get("kind") == "win":
        d = entry.get("discarder")
        return d if isinstance(d, int) else None
    for ev in entry.get("events") or []:
        if isinstance(ev, Mapping) and ev.get("type") == "win":
            d = ev.get("discarder")
            return d if isinstance(d, int) else None
    return None


class Round(models.Model):
    ACTIVE, UNDONE = "active", "undone"

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    token = models.UUIDField()  # the one-time token of the form that recorded it
    status = models.CharField(
        max_length=8, default=ACTIVE, choices=[(ACTIVE, ACTIVE), (UNDONE, UNDONE)]
    )
    created_at = models.DateTimeField(default=clock.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=AUTHOR.max_length, blank=True)
    current = models.ForeignKey(
        "RoundRevision", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A round recorded event by event is open until its last win or the wall's end;
    # its kong and win money already counts in the tallies.
    in_progress = models.BooleanField(default=False)

    class Meta:
        ordering = ["number"]
        constraints = [
            # Two phones starting a round at once (each adding a first kong) would
            # otherwise open two rounds; the session lock orders them and this
            # constraint is the last word.
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(in_progress=True),
                name="one_round_in_progress_per_session",
            ),
            models.UniqueConstraint(
                fields=["session", "number"], name="round_number_once_per_session"
            ),
            # A double tap on 确认, or two phones confirming the same form, carry the
            # same token: the second insert fails here and records nothing.
            models.UniqueConstraint(
                fields=["session", "token"], name="round_recorded_once_per_form"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session.code} #{self.number}"

    @property
    def is_hand(self) -> bool:
        """A hand played (a win, a draw, a round of events): not the close's fee, an
        adjustment or a penalty, which move points but deal no hand."""
        return self.current is not None and self.current.kind in RoundRevision.HANDS

    @staticmethod
    def hands_q(prefix: str = "") -> models.Q:
        """`is_hand` as a query filter (`prefix`: "rounds__" from a session): every count
        of 局 (the table's header, the ledger, the dashboard, the day report, imports)
        counts hands only, never the lines an adjustment, a penalty or a fee adds."""
        return models.Q(**{f"{prefix}current__kind__in": RoundRevision.HANDS})

    def hand_number(self) -> int | None:
        """Which hand this is, "第 N 局": one more than the table's standing hands
        before it (None for a line that is no hand).  An undone hand keeps the place
        it had ("第 3 局已撤销", "恢复第 3 局").  `number` stays the line's number in
        the ledger (its URL and the CSV's 行): an adjustment, a penalty and a fee
        take a number but are no 局, so the two differ once one is recorded."""
        if not self.is_hand:
            return None
        return 1 + (
            Round.objects.filter(session_id=self.session_id, status=Round.ACTIVE,
                                 number__lt=self.number)
            .filter(Round.hands_q())
            .count()
        )  # fmt: skip

    @property
    def is_fee(self) -> bool:
        """The fee charged when the table closed (no hand: no dealer moves, no undo)."""
        return self.current is not None and self.current.kind == RoundRevision.FEE

    def mark_undone(self, author: str = "") -> None:
        """Undo this round: it stays in the ledger's history, struck through (who, when)."""
        self.status = Round.UNDONE
        self.in_progress = False
        self.undone_at = clock.now()
        self.undone_by = cut(AUTHOR, author)
        self.save(update_fields=["status", "in_progress", "undone_at", "undone_by"])
        RoundChange.objects.create(round=self, action=RoundChange.UNDO, author=cut(AUTHOR, author))

    def add_revision(
        self, scored: ScoredEntry, author: str = "", token: uuid.UUID | None = None
    ) -> RoundRevision:
        """A new version of this round becomes current; the old ones stay.

        The room's per-round fee (台费, 抽水) is taken here, from the table's snapshot
        of it, so every path that makes a version (a round recorded, an event added or
        taken back, a correction, an import) charges it the same way: the version's
        deltas are the players' net and its room_take the room's."""
        if scored.kind != RoundRevision.FEE:
            scored = charged(scored, FeeRule.of(self.session.fee))
        number = (self.revisions.aggregate(n=Max("number"))["n"] or 0) + 1
        rev = RoundRevision.objects.create(
            round=self,
            number=number,
            token=token,
            author=cut(AUTHOR, author),
            kind=scored.kind,
            dealer=scored.dealer,
            prevalent_wind=scored.prevalent_wind,
            winners=scored.winners,
            entry=scored.entry,
            result=scored.result,
            deltas=scored.deltas,
            room_take=scored.room_take,
        )
        Transfer.objects.bulk_create(
            Transfer(
                revision=rev,
                from_seat=p["from"],
                to_seat=p["to"],
                amount=p["amount"],
                reason=p.get("reason", ""),
            )
            for p in scored.payments
        )
        self.current = rev
        self.save(update_fields=["current"])
        return rev

    def revise(
        self, entry: Mapping[str, Any], author: str = "", base: int | None = None
    ) -> RoundRevision:
        """Correct this round: re-score `entry` and make it the current version.

        `base`: the revision the correction was made from.  Three phones correcting
        the same round at once would otherwise each write over the versions they did
        not see; checked under the session's row lock, every correction but the
        first is made from a revision no longer current and raises StaleRevision,
        as a correction made after another one was saved is (the phone shows the
        current version and the next confirm, made knowing it, goes through).
        """
        with transaction.atomic():
            # Row lock on the session, which every change takes first: the round's
            # current revision read below cannot change until this commits.
            session = GameSession.objects.select_for_update().get(pk=self.session_id)
            session.refuse_if_closed()
            rnd = Round.objects.select_related("current").get(pk=self.pk)
            if rnd.is_fee:
                raise RuleError(
                    "bad_event",
                    "the table fee is charged from the totals: correct the rounds instead",
                    "台费按总分收取：请改对应的牌局",
                )
            if base is not None and rnd.current is not None and rnd.current.number != base:
                raise StaleRevision(rnd.current)
            was = rnd.current.kind if rnd.current is not None else None
            now = entry.get("kind") if isinstance(entry, Mapping) else None
            if was in RoundRevision.NOT_HANDS and now != was:
                raise RuleError(
                    "bad_input",
                    "an adjustment or a penalty is corrected as one (undo it to drop it)",
                    "调整或罚分只能改成调整或罚分（不要了就撤销）",
                )
            if rnd.current is not None:
                # A correction keeps the round's own dealer, wind (and turned tile)
                # unless it changes them; a penalty keeps where its odd points start.
                entry = {**round_position(rnd.current), **entry}
                odd_from = rnd.current.entry.get("odd_from") if was == now else None
                if odd_from is not None:
                    entry = {"odd_from": odd_from, **entry}
            scored = score_entry(session, entry)
            rnd.session = session  # its fee snapshot, without another query
            rev = rnd.add_revision(scored, author)
            session.bump()
            self.current = rev
            return rev


class RoundRevision(models.Model):
    WIN, DRAW, ROUND, FEE = "win", "draw", "round", FEE_KIND
    # ADJUST: points moved between players by agreement, with a reason; PENALTY: a
    # penalty the ruleset declares (逃跑, 错和).  Neither is a hand (scorer/scoring.py).
    ADJUST, PENALTY = ADJUST_KIND, PENALTY_KIND
    HANDS = (WIN, DRAW, ROUND)
    NOT_HANDS = (ADJUST, PENALTY)

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    # The one-time token of the event form that made this version (rounds played as events).
    token = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=clock.now)
    author = models.CharField(max_length=AUTHOR.max_length, blank=True)
    # FEE: the table fee charged when the table closed (AA, 大赢家付; scorer/fees.py).
    kind = models.CharField(
        max_length=8,
        choices=[
            (WIN, WIN),
            (DRAW, DRAW),
            (ROUND, ROUND),
            (FEE, FEE),
            (ADJUST, ADJUST),
            (PENALTY, PENALTY),
        ],
    )
    dealer = models.PositiveSmallIntegerField()
    prevalent_wind = models.CharField(max_length=1, default="E")
    winners = models.JSONField(default=list)
    entry = models.JSONField()  # what was entered: the situation, or the fans picked
    result = models.JSONField()  # the engine's answer: fans, total, notes
    # Points per seat, the players' net: with what the room takes (台费) they sum to zero.
    deltas = models.JSONField()
    # What the room takes in this version of the round (a per-round 台费 / 抽水, or the
    # fee charged when the table closes): sum(deltas) + room_take == 0.  Never hidden
    # inside the players' deltas: the room is its own line.
    room_take = models.IntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="revision_number_once_per_round"
            ),
            # A double tap on an event's 确认 carries the same token: added once.
            models.UniqueConstraint(fields=["round", "token"], name="event_added_once_per_form"),
        ]

    def __str__(self) -> str:
        return f"{self.round} v{self.number}"


class RoundChange(models.Model):
    """One undo or restore of a round: who and when.  A round may be undone and
    restored several times; `Round.undone_at/by` only keep the last undo."""

    UNDO, RESTORE = "undo", "restore"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=8, choices=[(UNDO, UNDO), (RESTORE, RESTORE)])
    author = models.CharField(max_length=AUTHOR.max_length, blank=True)
    at = models.DateTimeField(default=clock.now)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.round} {self.action}"


class SessionChange(models.Model):
    """A table closed (结束本桌) or reopened: who, when, and a note on a reopening."""

    CLOSE, REOPEN = "close", "reopen"

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=8, choices=[(CLOSE, CLOSE), (REOPEN, REOPEN)])
    author = models.CharField(max_length=AUTHOR.max_length, blank=True)
    note = models.CharField(max_length=NOTE.max_length, blank=True)
    at = models.DateTimeField(default=clock.now)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.session.code} {self.action}"


class RoundTaken(Exception):
    """The round a form was opened for has been recorded meanwhile (by another phone)."""

    def __init__(self, taken: Round | None, next_number: int) -> None:
        super().__init__(f"round taken; next is {next_number}")
        self.taken = taken
        self.next_number = next_number


class StaleRevision(Exception):
    """A correction made from a revision that is no longer the round's current one."""

    def __init__(self, current: RoundRevision) -> None:
        super().__init__(f"made from an old revision; current is v{current.number}")
        self.current = current


class Transfer(models.Model):
    revision = models.ForeignKey(RoundRevision, on_delete=models.CASCADE, related_name="transfers")
    from_seat = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: paid to the room
    amount = models.IntegerField()
    reason = models.CharField(max_length=80, blank=True)

    def __str__(self) -> str:
        return f"{self.from_seat}->{self.to_seat} {self.amount}"


__all__ = [
    "GameSession",
    "Round",
    "RoundChange",
    "RoundRevision",
    "RoundTaken",
    "RuleError",
    "SessionChange",
    "StaleRevision",
    "Transfer",
]
# Rooms, players and invites live in modules of their own, below this one (they
# never name a session); imported above so that Django finds their models here.
__all__ += ["Player", "PlayerAlias", "RoomConfig", "RoomInvite", "RoomLogEntry", "Seat"]
__all__ += ["BalanceEntry", "Collection", "DayClose", "TableCharge"]


@receiver(post_save, sender=GameSession)
@receiver(post_save, sender=RoomTable)
def _room_changed(sender: type[models.Model], instance: Any, created: bool, **kwargs: Any) -> None:
    """A table started, or a physical table added, renamed, retired or given a new
    code: the room's admin pages are told once it commits (a round's change is told
    by `GameSession.bump`).  The version of a room is only a nudge: the time."""
    if sender is GameSession and not created:
        return
    publish_on_commit([room_topic(instance.room_id)], time.time_ns() // 1_000_000)
