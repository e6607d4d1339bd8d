"""Sessions (一场), their rounds (一局) and every version of every round.

Nothing recorded is ever deleted: undo marks a round undone (who, when), a
correction adds a revision and points the round at it, and totals are sums
over the current revisions of the rounds still standing.  Every change bumps
`GameSession.version`, which the session page's polling uses as its ETag.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import Max
from django.utils import timezone

from rules import RuleError
from rules.registry import get_ruleset
from scorer.scoring import ScoredEntry, score_entry

WINDS = ("E", "S", "W", "N")


def new_code() -> str:
    """An unguessable session code: the link is the only key to the session."""
    return secrets.token_urlsafe(12)


class GameSession(models.Model):
    code = models.CharField(max_length=32, unique=True, default=new_code, editable=False)
    ruleset = models.CharField(max_length=32)
    preset = models.CharField(max_length=32, blank=True)  # the preset the values started from
    params = models.JSONField(default=dict, blank=True)  # overrides of the ruleset's defaults
    players = models.JSONField()  # seat -> name, seats in play order
    first_dealer = models.PositiveSmallIntegerField(default=0)
    money_per_point = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: the polling ETag

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.code} ({self.ruleset})"

    @property
    def n_players(self) -> int:
        return len(self.players)

    def resolved_params(self) -> Mapping[str, Any]:
        return get_ruleset(self.ruleset).resolve_params(self.params)

    # -- reading ----------------------------------------------------------

    def standing_rounds(self) -> list[Round]:
        """The rounds that count, oldest first, each with its current revision (one query)."""
        return list(
            self.rounds.filter(status=Round.ACTIVE).select_related("current").order_by("number")
        )

    def tallies(self, rounds: list[Round] | None = None) -> list[int]:
        totals = [0] * self.n_players
        for r in rounds if rounds is not None else self.standing_rounds():
            if r.current is not None:
                for seat, d in enumerate(r.current.deltas):
                    totals[seat] += d
        return totals

    def next_position(self, rounds: list[Round] | None = None) -> tuple[int, str]:
        """(dealer, prevalent wind) proposed for the next round; the form may override it.

        The dealer follows the ruleset (连庄 or not); the wind moves on when the
        deal comes back round the table to the first dealer.
        """
        rounds = rounds if rounds is not None else self.standing_rounds()
        if not rounds or rounds[-1].current is None:
            return self.first_dealer, "E"
        last = rounds[-1].current
        rs = get_ruleset(self.ruleset)
        dealer = rs.next_dealer(
            last.dealer, self.n_players, list(last.winners), self.resolved_params()
        )
        wind = last.prevalent_wind
        if dealer != last.dealer and dealer == self.first_dealer:
            wind = WINDS[(WINDS.index(wind) + 1) % 4]
        return dealer, wind

    # -- changing ---------------------------------------------------------

    def record_round(self, token: uuid.UUID, entry: Mapping[str, Any], author: str = "") -> Round:
        """Score `entry` and record it as the next round, all or nothing.

        Raises RuleError (nothing saved) when the entry does not score.  A second
        call with the same token returns the round the first one recorded.
        """
        try:
            with transaction.atomic():
                # Row lock on the session: two phones confirming different rounds at
                # the same moment get consecutive numbers instead of one failing on
                # the (session, number) constraint.
                session = GameSession.objects.select_for_update().get(pk=self.pk)
                done = session.rounds.filter(token=token).first()
                if done is not None:
                    return done  # the same form confirmed twice: already recorded
                scored = score_entry(session, entry)
                number = (session.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
                rnd = Round.objects.create(session=session, number=number, token=token)
                rnd.add_revision(scored, author)
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
            last = session.rounds.filter(status=Round.ACTIVE).order_by("-number").first()
            if last is None or (expected is not None and last.number != expected):
                return None
            last.status = Round.UNDONE
            last.undone_at = timezone.now()
            last.undone_by = author[:80]
            last.save(update_fields=["status", "undone_at", "undone_by"])
            session.bump()
            return last

    def bump(self) -> None:
        GameSession.objects.filter(pk=self.pk).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["version"])


class Round(models.Model):
    ACTIVE, UNDONE = "active", "undone"

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    token = models.UUIDField()  # the one-time token of the form that recorded it
    status = models.CharField(
        max_length=8, default=ACTIVE, choices=[(ACTIVE, ACTIVE), (UNDONE, UNDONE)]
    )
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=80, blank=True)
    current = models.ForeignKey(
        "RoundRevision", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
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

    def add_revision(self, scored: ScoredEntry, author: str = "") -> RoundRevision:
        """A new version of this round becomes current; the old ones stay."""
        number = (self.revisions.aggregate(n=Max("number"))["n"] or 0) + 1
        rev = RoundRevision.objects.create(
            round=self,
            number=number,
            author=author[:80],
            kind=scored.kind,
            dealer=scored.dealer,
            prevalent_wind=scored.prevalent_wind,
            winners=scored.winners,
            entry=scored.entry,
            result=scored.result,
            deltas=scored.deltas,
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

    def revise(self, entry: Mapping[str, Any], author: str = "") -> RoundRevision:
        """Correct this round: re-score `entry` and make it the current version."""
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=self.session_id)
            rnd = Round.objects.select_related("current").get(pk=self.pk)
            if rnd.current is not None:
                # A correction keeps the round's own dealer and wind unless it changes them.
                entry = {
                    "dealer": rnd.current.dealer,
                    "prevalent_wind": rnd.current.prevalent_wind,
                    **entry,
                }
            scored = score_entry(session, entry)
            rev = rnd.add_revision(scored, author)
            session.bump()
            self.current = rev
            return rev


class RoundRevision(models.Model):
    WIN, DRAW = "win", "draw"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    author = models.CharField(max_length=80, blank=True)
    kind = models.CharField(max_length=8, choices=[(WIN, WIN), (DRAW, DRAW)])
    dealer = models.PositiveSmallIntegerField()
    prevalent_wind = models.CharField(max_length=1, default="E")
    winners = models.JSONField(default=list)
    entry = models.JSONField()  # what was entered: the situation, or the fans picked
    result = models.JSONField()  # the engine's answer: fans, total, notes
    deltas = models.JSONField()  # points per seat, summing to zero

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="revision_number_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} v{self.number}"


class Transfer(models.Model):
    revision = models.ForeignKey(RoundRevision, on_delete=models.CASCADE, related_name="transfers")
    from_seat = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    amount = models.IntegerField()
    reason = models.CharField(max_length=80, blank=True)

    def __str__(self) -> str:
        return f"{self.from_seat}->{self.to_seat} {self.amount}"


__all__ = ["GameSession", "Round", "RoundRevision", "RuleError", "Transfer", "WINDS"]
