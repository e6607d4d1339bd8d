"""The changes of a table's rounds: recorded, added to event by event, undone,
restored, corrected.  A part of GameSession (its mixin), each under the table's
one lock (`locked`, scorer/models/locking.py) and each answering a change it
cannot take with a named refusal (scorer/models/errors.py).

The module lies below the sessions': it names no GameSession, only what a change
reads of one (declared below for the type checker).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from django.db import IntegrityError
from django.db.models import Max, Q

from rules.registry import event_steps, without_last_step
from scorer.clean.text import AUTHOR, cut
from scorer.models import errors
from scorer.models.locking import locked
from scorer.models.rounds import (
    Round,
    RoundChange,
    RoundRevision,
    RoundTaken,
    StaleRevision,
    round_position,
)
from scorer.scoring import score_entry

if TYPE_CHECKING:
    import datetime as dt

    from scorer.models.session_rules import SessionRules


class RoundChanges:
    """GameSession's changes of its rounds, and the reads they need."""

    if TYPE_CHECKING:  # what the session is (GameSession declares and defines them)
        pk: Any
        ruleset: str
        players: Any
        first_dealer: int
        closed_at: dt.datetime | None
        rounds: Any  # its RelatedManager of Round

        @property
        def n_players(self) -> int: ...

        @property
        def rules(self) -> SessionRules: ...

        def next_position(self) -> tuple[int, str]: ...

        def finish_match(self) -> bool: ...

        def bump(self) -> None: ...

    def next_number(self) -> int:
        """The number the next round recorded gets (undone rounds keep theirs)."""
        return (self.rounds.aggregate(n=Max("number"))["n"] or 0) + 1

    def next_hand_number(self) -> int:
        """The next hand's "第 N 局" (Round.hand_number): the standing hands plus one,
        whatever lines the adjustments, penalties and fees took in the ledger."""
        return self.rounds.filter(Round.hands_q(), status=Round.ACTIVE).count() + 1

    def recorded(self, token: uuid.UUID) -> Round | None:
        """The round a 确认 with this form token recorded, or added an event to: the
        one place that tells a second 确认 of the same form (a double tap, a retry after
        a lost answer, two phones posting the same form) from a new one.  Asked by the
        record view first and again under the lock by `record_round` and `add_event`."""
        return self.rounds.filter(Q(token=token) | Q(revisions__token=token)).first()

    def _recorded_meanwhile(self, token: uuid.UUID) -> Round:
        """The round a concurrent 确认 of the same form recorded: it won the race on the
        (session, token) or (round, token) constraint."""
        rnd = self.recorded(token)
        assert rnd is not None
        return rnd

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
            # Under the lock, two phones confirming different rounds at the same moment
            # get consecutive numbers instead of one failing on (session, number).
            with locked(self) as session:
                done = session.recorded(token)
                if done is not None:
                    return done  # the same form confirmed twice: already recorded
                # The cheap check first: no scoring for a round that cannot start.
                kind = entry.get("kind") if isinstance(entry, Mapping) else None
                if kind in RoundRevision.NOT_HANDS and session.round_in_progress() is not None:
                    # A line of its own numbered after a round still open would stand
                    # between that round and its next event (taking back the last event
                    # finds the last round); the open round is finished first.
                    raise errors.LINE_WITH_ROUND_OPEN.error()
                starts_round = kind == "round"
                if starts_round and session.round_in_progress() is not None:
                    raise errors.ROUND_OPEN.error()
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
                rnd = session.rounds.create(number=next_number, token=token, in_progress=open_round)
                rnd.add_revision(scored, author)
                session.finish_match()
                session.bump()
                return rnd
        except IntegrityError:
            # The (session, token) constraint: a concurrent confirm of the same form
            # won the race; it recorded the round, so this one returns it.
            return self._recorded_meanwhile(token)

    def undo_last(
        self,
        author: str = "",
        expected: int | None = None,
        step: bool = False,
        steps: int | None = None,
    ) -> Round | None:
        """Undo the last standing round (it stays in the ledger's history), or with
        `step` take back only the last step of that round played as events: its last
        event, or the last winner who joined a win on its discard (一炮多响, stored in
        that one win event: the winners before him stay).

        A step taken back makes a new version of the round without it (every earlier
        version is kept); taking back its only step undoes the round, and a finished
        round whose last step is taken back is open again.

        `expected`: the round number the player saw as the last one, and `steps` the
        steps he saw in it (rules.registry.event_steps).  Two phones tapping 撤销 on
        the same page would otherwise undo two rounds (or steps, or one of another
        round); under the session lock the second finds a different last round (or
        count) and does nothing: None.
        """
        with locked(self) as session:
            last = (
                session.rounds.filter(status=Round.ACTIVE)
                .select_related("current")
                .order_by("-number")
                .first()
            )
            if last is None or (expected is not None and last.number != expected):
                return None
            if not step:
                last.mark_undone(author)
            elif not session._take_back_step(last, author, steps):
                return None
            session.bump()
            return last

    def _take_back_step(self, last: Round, author: str, steps: int | None) -> bool:
        """undo_last's `step` on the last standing round, under the lock: False when it
        is no round of events, or has another count of steps than `steps`."""
        if last.current is None or last.current.kind != RoundRevision.ROUND:
            return False
        events = list(last.current.entry.get("events") or [])
        if steps is not None and steps != event_steps(events):
            return False
        kept = without_last_step(events)
        if not kept:
            last.mark_undone(author)
            return True
        entry = {"kind": "round", **round_position(last.current), "events": kept}
        last.add_revision(score_entry(self, entry), author)
        if not last.in_progress:
            last.in_progress = True
            last.save(update_fields=["in_progress"])
        return True

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
            with locked(self) as session:
                done = session.recorded(token)
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
                    raise errors.ROUND_CHANGED.error()
                rules = session.rules
                events = rules.ruleset.with_event(events, event, rules.params, join_last_win)
                scored = score_entry(session, {"kind": "round", **where, "events": events})
                if rnd is None:
                    next_number = session.next_number()
                    if number is not None and number != next_number:
                        taken = session.rounds.filter(number__gte=number).order_by("-number")
                        raise RoundTaken(taken.select_related("current").first(), next_number)
                    rnd = session.rounds.create(number=next_number, token=token)
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
            return self._recorded_meanwhile(token)

    def restore(self, number: int, author: str = "") -> Round | None:
        """Restore an undone round (redo): it counts again; its undo and this
        restore stay in the round's history.  None when it is not undone (another
        phone restored it first).  A round played as events that was still open
        reopens, unless another round is in progress (RuleError, nothing changed).
        """
        # Under the lock, two phones restoring at once restore once.
        with locked(self) as session:
            rnd = (
                session.rounds.filter(number=number, status=Round.UNDONE)
                .select_related("current")
                .first()
            )
            if rnd is None:
                return None
            if rnd.is_fee:
                raise errors.FEE_NOT_RESTORED.error()
            rev = rnd.current
            reopen = (
                rev is not None
                and rev.kind == RoundRevision.ROUND
                and not (rev.result or {}).get("finished")
            )
            if reopen and session.round_in_progress() is not None:
                raise errors.RESTORE_WITH_ROUND_OPEN.error()
            rnd.status = Round.ACTIVE
            rnd.in_progress = reopen
            rnd.save(update_fields=["status", "in_progress"])
            RoundChange.objects.create(
                round=rnd, action=RoundChange.RESTORE, author=cut(AUTHOR, author)
            )
            session.bump()
            return rnd

    def revise_round(
        self,
        round_: Round,
        entry: Mapping[str, Any],
        author: str = "",
        base: int | None = None,
    ) -> RoundRevision:
        """Correct a round of this table (Round.revise): re-score `entry` and make it
        the round's current version.

        `base`: the revision the correction was made from.  Three phones correcting
        the same round at once would otherwise each write over the versions they did
        not see; checked under the table's lock, every correction but the first is
        made from a revision no longer current and raises StaleRevision, as a
        correction made after another one was saved is (the phone shows the current
        version and the next confirm, made knowing it, goes through).
        """
        # Under the lock, the round's current revision read here cannot change.
        with locked(self) as session:
            rnd = Round.objects.select_related("current").get(pk=round_.pk)
            if rnd.is_fee:
                raise errors.FEE_NOT_CORRECTED.error()
            if base is not None and rnd.current is not None and rnd.current.number != base:
                raise StaleRevision(rnd.current)
            was = rnd.current.kind if rnd.current is not None else None
            now = entry.get("kind") if isinstance(entry, Mapping) else None
            if was in RoundRevision.NOT_HANDS and now != was:
                raise errors.LINE_KIND_KEPT.error()
            if rnd.current is not None:
                # A correction keeps the round's own dealer, wind (and turned tile)
                # unless it changes them; a penalty keeps where its odd points start.
                entry = {**round_position(rnd.current), **entry}
                odd_from = rnd.current.entry.get("odd_from") if was == now else None
                if odd_from is not None:
                    entry = {"odd_from": odd_from, **entry}
            ended = False
            if now == RoundRevision.ROUND and not entry.get("events"):
                raise errors.ROUND_EMPTY.error()
            scored = score_entry(session, entry)
            if scored.kind == RoundRevision.ROUND:
                # A round of events: a finished one stays finished (the rounds after it
                # were dealt from its end); the one in progress may end with it.
                finished = bool(scored.result.get("finished"))
                if not finished and not rnd.in_progress:
                    raise errors.ROUND_END_KEPT.error()
                if rnd.in_progress and finished:
                    rnd.in_progress = False
                    rnd.save(update_fields=["in_progress"])
                    ended = True
            # Its fee snapshot, without another query (the row is a GameSession).
            rnd.session = cast(Any, session)
            rev = rnd.add_revision(scored, author)
            if ended:
                session.finish_match()  # as the event that ends a round does (add_event)
            session.bump()
            return rev
