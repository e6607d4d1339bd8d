"""A table's rounds (一局), every version of every round, and the table's trails.

Nothing recorded is ever deleted: undo marks a round undone (who, when), a
correction adds a revision and points the round at it.  The trails of a table
are its rows here: a round's undo and restore (RoundChange), the table's close
and reopening (SessionChange); the room's one trail is its log (roomlog.py).

This module lies below the sessions' (scorer/models/sessions.py): it never
imports GameSession (its foreign keys name it as "scorer.GameSession"), and a
change that needs the table's lock is the session's (`Round.revise` asks its
session, which holds it).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import models
from django.db.models import Max

from scorer.clean.text import AUTHOR, NOTE, cut
from scorer.money import clock
from scorer.money.fees import FEE_KIND, FeeRule, charged
from scorer.scoring import ADJUST as ADJUST_KIND
from scorer.scoring import PENALTY as PENALTY_KIND
from scorer.scoring import ScoredEntry


def round_position(rev: RoundRevision) -> dict[str, Any]:
    """Where a round was played: its dealer, its wind and, where the table turns a
    tile up for the wild tiles, that tile (kept by every version of the round)."""
    where: dict[str, Any] = {"dealer": rev.dealer, "prevalent_wind": rev.prevalent_wind}
    turned = rev.entry.get("turned") if isinstance(rev.entry, Mapping) else None
    if turned:
        where["turned"] = turned
    return where


class Round(models.Model):
    ACTIVE, UNDONE = "active", "undone"

    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="rounds"
    )
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

        `base`: the revision the correction was made from (StaleRevision when it is
        no longer current).  The change is the session's (GameSession.revise_round,
        under the table's lock), as every change of a table is."""
        rev = self.session.revise_round(self, entry, author, base)
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
    # FEE: the table fee charged when the table closed (AA, 大赢家付; scorer/money/fees.py).
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


class Change(models.Model):
    """A line of a round's or a table's history: who (the author as typed or the
    phone's label) and when, oldest first.  Abstract: each history is its own table."""

    author = models.CharField(max_length=AUTHOR.max_length, blank=True)
    at = models.DateTimeField(default=clock.now)

    class Meta:
        abstract = True
        ordering = ["at", "pk"]


class RoundChange(Change):
    """One undo or restore of a round: who and when.  A round may be undone and
    restored several times; `Round.undone_at/by` only keep the last undo."""

    UNDO, RESTORE = "undo", "restore"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=8, choices=[(UNDO, UNDO), (RESTORE, RESTORE)])

    def __str__(self) -> str:
        return f"{self.round} {self.action}"


class SessionChange(Change):
    """A table closed (结束本桌) or reopened: who, when, and a note on a reopening."""

    CLOSE, REOPEN = "close", "reopen"

    session = models.ForeignKey(
        "scorer.GameSession", on_delete=models.CASCADE, related_name="changes"
    )
    action = models.CharField(max_length=8, choices=[(CLOSE, CLOSE), (REOPEN, REOPEN)])
    note = models.CharField(max_length=NOTE.max_length, blank=True)

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
