"""A player's record (his page, /p/<slug>/): his figures per ruleset over the tables
he sat at, and his net after each table, read from the tables' standing rounds.
No model: it reads Player, Seat and the sessions (scorer/models/).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.fees import seat_fees
from scorer.models.players import Player


@dataclass
class Record:
    """One player's figures over the tables given (one ruleset, or all)."""

    tables: int = 0
    rounds: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0  # wins on his discard
    net: int = 0
    hands: list[int] = field(default_factory=list)  # what each of his wins brought him

    @property
    def average_hand(self) -> float | None:
        return sum(self.hands) / len(self.hands) if self.hands else None

    @property
    def biggest_hand(self) -> int | None:
        return max(self.hands) if self.hands else None


def wins_of(entry: Mapping[str, Any], result: Mapping[str, Any]) -> list[tuple[int, int | None]]:
    """(winner, discarder) of every win in one round version: a round recorded whole
    is one win or a draw; a round of events has a win event per discard (一炮多响:
    each winner on it counts a win; the discarder's 点炮 is counted by discards_of)."""
    if entry.get("kind") == "win":
        w, d = entry.get("winner"), entry.get("discarder")
        return [(int(w), int(d) if d not in (None, "") else None)] if w not in (None, "") else []
    out: list[tuple[int, int | None]] = []
    for ev in result.get("events") or []:
        if isinstance(ev, Mapping) and ev.get("type") == "win":
            d = ev.get("discarder")
            for w in ev.get("winners") or []:
                if isinstance(w, Mapping) and isinstance(w.get("seat"), int):
                    out.append((w["seat"], d if isinstance(d, int) else None))
    return out


def discards_of(entry: Mapping[str, Any], result: Mapping[str, Any]) -> list[int]:
    """Who dealt in, once per discard won on: one discard several players won on
    (一炮多响) is one 点炮, as the players count it, not one per winner."""
    if entry.get("kind") == "win":
        return [d for _, d in wins_of(entry, result) if d is not None]
    return [
        ev["discarder"]
        for ev in result.get("events") or []
        if isinstance(ev, Mapping) and ev.get("type") == "win" and ev.get("winners")
        and isinstance(ev.get("discarder"), int)
    ]  # fmt: skip


def won_amount(result: Mapping[str, Any], deltas: Sequence[int], seat: int, entry: Mapping[str, Any]
               ) -> int:  # fmt: skip
    """What a win brought its winner: his delta for a round recorded whole; in a round
    of events, what the win events paid him."""
    if entry.get("kind") == "win":
        return int(deltas[seat])
    got = 0
    for ev in result.get("events") or []:
        if isinstance(ev, Mapping) and ev.get("type") == "win":
            ds = ev.get("deltas") or []
            if any(
                isinstance(w, Mapping) and w.get("seat") == seat for w in ev.get("winners") or []
            ):
                got += int(ds[seat]) if seat < len(ds) else 0
    return got


def records(player: Player) -> tuple[dict[str, Record], list[tuple[Any, int]]]:
    """Per ruleset (and "" for all): his figures; and his net after each table, in time order."""
    by: dict[str, Record] = defaultdict(Record)
    timeline: list[tuple[Any, int]] = []
    running = 0
    seats = player.seats.select_related("session").order_by("session__created_at")
    for s in seats:
        session = s.session
        table_net = 0
        rounds = session.standing_rounds()
        for key in ("", session.ruleset):
            by[key].tables += 1
        for r in rounds:
            rev = r.current
            if rev is None:
                continue
            entry = rev.entry if isinstance(rev.entry, Mapping) else {}
            result = rev.result if isinstance(rev.result, Mapping) else {}
            # His net is what he took home, after the room's fee (as the table's
            # final page and settle-up say); the fee charged at the close, an adjustment
            # and a penalty are no hands (they count in his net only).
            table_net += int(rev.deltas[s.seat])
            if not r.is_hand:
                continue
            # What he paid the room for this round (台费, 抽水): a win counts at its full
            # value in his average and biggest hand, not as the fee made it smaller.
            fee = seat_fees(result, len(rev.deltas))[s.seat]
            for key in ("", session.ruleset):
                rec = by[key]
                rec.rounds += 1
                for w, d in wins_of(entry, result):
                    if w == s.seat:
                        rec.wins += 1
                        rec.self_draws += d is None
                rec.dealt_in += discards_of(entry, result).count(s.seat)
                if s.seat in [w for w, _ in wins_of(entry, result)]:
                    # (A round of events says each win's own payments: gross already.)
                    gross = fee if entry.get("kind") == "win" else 0
                    rec.hands.append(won_amount(result, rev.deltas, s.seat, entry) + gross)
        for key in ("", session.ruleset):
            by[key].net += table_net
        running += table_net
        timeline.append((session.created_at, running))
    return dict(by), timeline
