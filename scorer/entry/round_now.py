"""The round in progress as the event form sees it (`RoundNow`): its events, who is
out, the kongs each player has recorded, the tiles already shown.

Read once per request from the round's current version; the form (`EventPick`)
checks what it is sent against it rather than trusting the post.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from rules import RuleError
from rules.registry import event_steps
from rules.tiles import N_KINDS, parse_tile, parse_tiles
from scorer.entry.pick import next_position_of
from scorer.models import GameSession, Round

# A kong event's kind as the picker's meld (its tool).
KONG_MELDS = {"exposed": "kong", "added": "added_kong", "concealed": "concealed_kong"}


@dataclass(frozen=True)
class RoundNow:
    """The round in progress as the event form sees it, or the round an event would start."""

    rnd: Round | None
    number: int  # its line in the ledger (what the form sends back)
    events: list[Any]
    out: tuple[int, ...]  # seats that have won, in the order they won
    dealer: int
    wind: str
    turned: str = ""  # the round's turned tile (wild tiles derived from it), "" if none
    hand: int = 1  # its "第 N 局" (Round.hand_number): the page says this, not the line

    @property
    def count(self) -> int:
        """The round's steps (a winner joining a win is one): what the form sends as
        `expected`, checked under the session lock (GameSession.add_event)."""
        return event_steps(self.events)

    @property
    def n_events(self) -> int:
        """The round's events as the page lists them (winners joined to one win: one)."""
        return len(self.events)

    def kongs_of(self, seat: int | None) -> list[tuple[str, int | None]]:
        """The kongs recorded for a player in this round: (meld type, tile or None).

        An added kong robbed by the win right after it (抢杠) was never made.
        """
        out: list[tuple[str, int | None]] = []
        for i, ev in enumerate(self.events):
            if not isinstance(ev, Mapping) or ev.get("type") != "kong" or ev.get("player") != seat:
                continue
            after = self.events[i + 1] if i + 1 < len(self.events) else None
            if isinstance(after, Mapping) and after.get("robbing_kong"):
                continue
            try:
                tile = parse_tile(ev["tile"]) if ev.get("tile") else None
            except RuleError:
                tile = None
            out.append((KONG_MELDS.get(str(ev.get("kong")), "kong"), tile))
        return out

    def last_discard_win(self) -> Mapping[str, Any] | None:
        """The last event when it is a win on a discard: more winners may join it."""
        last = self.events[-1] if self.events else None
        if isinstance(last, Mapping) and last.get("type") == "win":
            d = last.get("discarder")
            if isinstance(d, int) and not isinstance(d, bool):
                return last
        return None


def round_now_of(session: GameSession) -> RoundNow:
    """The session's round in progress, or the round an event would start now."""
    rnd = session.round_in_progress()
    if rnd is not None and rnd.current is not None:
        rev = rnd.current
        events = list(rev.entry.get("events") or [])
        out = tuple(int(s) for s in rev.result.get("out") or [])
        turned = str(rev.entry.get("turned") or "")
        hand = rnd.hand_number() or rnd.number
        return RoundNow(rnd, rnd.number, events, out, rev.dealer, rev.prevalent_wind, turned, hand)
    dealer, wind = next_position_of(session)
    number = (session.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    return RoundNow(None, number, [], (), dealer, wind, hand=session.next_hand_number())


def _hand_tiles(hand: Mapping[str, Any]) -> tuple[list[int], int | None]:
    """A winner's hand as an event stores it: (its tiles but the win tile, the win tile)."""
    tiles = list(parse_tiles(hand.get("concealed") or ""))
    for m in hand.get("melds") or []:
        if isinstance(m, Mapping):
            tiles += parse_tiles(m.get("tiles") or "")
    w = hand.get("win_tile")
    return tiles, parse_tile(w) if w else None


def shown_in_round(events: list[Any]) -> tuple[tuple[int, ...], int | None]:
    """Copies of each tile kind in the hands of the round's winners so far, and
    the tile of the last win on a discard (None if there is none).

    Every winner's hand is tiles of its own, melds included, except the discard
    several players win on (一炮多响): one tile, counted once, as the engine
    counts it.  A winner entered by his fans alone shows no tiles.
    """
    seen = [0] * N_KINDS
    shared: int | None = None
    for i, ev in enumerate(events):
        if not isinstance(ev, Mapping) or ev.get("type") != "win":
            continue
        win_tiles: set[int] = set()
        for w in ev.get("winners") or []:
            hand = w.get("hand") if isinstance(w, Mapping) else None
            if not isinstance(hand, Mapping):
                continue
            try:
                tiles, win = _hand_tiles(hand)
            except (RuleError, TypeError):
                continue  # a hand this page cannot read: the engine still checks it
            for t in tiles:
                if t < N_KINDS:
                    seen[t] += 1
            if win is not None and win < N_KINDS:
                win_tiles.add(win)
        for t in win_tiles:
            seen[t] += 1
        discarder = ev.get("discarder")
        if i == len(events) - 1 and isinstance(discarder, int) and len(win_tiles) == 1:
            shared = next(iter(win_tiles))
    return tuple(seen), shared
