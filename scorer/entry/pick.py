"""The whole-round record form's state (`Pick`): hidden inputs in, one tap applied, hidden inputs out.

The wire format is in scorer/views/record.py's docstring.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self, TypeVar

from django.utils.translation import gettext

from rules import RuleError
from rules.registry import Ruleset
from rules.table import SeatInput, TableSpec
from rules.tiles import N_KINDS, SEAT_WINDS, parse_tile, parse_tiles, tile_str, tiles_str
from scorer.clean.parse import MAX_ROUND, int_or_none
from scorer.entry.melds import (
    HAND_SIZE,
    MELD_FROM,
    MELD_TYPES,
    meld_dict,
    meld_tiles,
    posted_tile,
)
from scorer.language import rule_error_text, tile_name
from scorer.models import GameSession, Round
from scorer.present.words import recorded_message
from scorer.scoring import how_won_missing

T = TypeVar("T")
TOOLS = (*MELD_TYPES, "win", "turned")
AUTHOR_MAX = 40
# Taps one request may carry (static/js/taps.js sends those queued behind an answer
# together): far more than a hand has tiles, few enough that a request stays small.
MAX_TAPS = 64


def tile_of_tap(p: Pick, tap: str) -> set[int]:
    """The tile kind a tile tap (grid "tile:5m", hand "hand:5m" or "hand:win") acts on,
    read against the state before the tap; empty for any other tap.  Those are the
    grid buttons a batch of plain tile taps changes (scorer/views/record.py)."""
    verb, _, code = tap.partition(":")
    if verb == "hand" and code == "win":
        return set() if p.win_tile is None else {p.win_tile}
    if verb not in ("tile", "hand") or not code:
        return set()
    try:
        return {parse_tile(code)}
    except RuleError:
        return set()


# ---------------------------------------------------------------- the form's state


def next_position_of(session: GameSession) -> tuple[int, str]:
    """session.next_position() reading only the last standing round (all it looks at)."""
    last = (
        session.rounds.filter(status=Round.ACTIVE).select_related("current").order_by("-number")[:1]
    )
    return session.next_position(list(last))


@dataclass
class Pick:
    """What the form holds between taps (see the module docstring for the wire format)."""

    token: str
    dealer: int
    wind: str
    kind: str = "win"
    winner: int | None = None
    discarder: str = ""  # "" not chosen yet, "self" 自摸, else the discarder's seat
    mode: str = "tiles"
    concealed: list[int] = field(default_factory=list)  # sorted, without the win tile
    win_tile: int | None = None
    melds: list[tuple[str, int]] = field(default_factory=list)  # (type, lowest tile)
    # Who each meld was claimed from ("left" 上家, "across", "right"; "" not said), in
    # step with `melds`, where the table asks it (武汉's 承包 of a 清一色).
    meld_from: list[str] = field(default_factory=list)
    tool: str = ""
    flags: set[str] = field(default_factory=set)
    flowers: int = 0
    fans: dict[int, int] = field(default_factory=dict)
    author: str = ""
    base: int | None = None
    # The number of the round this form was opened for: a confirm after another
    # phone recorded that round is stopped and asked (see GameSession.record_round).
    for_round: int | None = None
    # The tile turned up for the round's wild tiles, where the table derives them from one.
    turned: int | None = None
    # The counts the table asks for each player (开口, 炮子 …): input id -> one per seat.
    seat_values: dict[str, list[int]] = field(default_factory=dict)
    # What the table offers (the ruleset's declaration with the session's values).
    spec: TableSpec = field(default_factory=TableSpec, repr=False)

    @property
    def flag_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.spec.flags)

    def wild_kinds(self) -> tuple[int, ...]:
        """The round's wild kinds, as far as they are known (none before the turned tile)."""
        w = self.spec.wilds
        if w.mode == "turned" and self.turned is None:
            return ()
        return w.kinds(tile_str(self.turned) if self.turned is not None else None)

    # -- reading ---------------------------------------------------------

    def seat_floor(self, si: SeatInput, n: int) -> list[int]:
        """The least each seat may enter, as the engine checks it (rules/seat_inputs.py):
        the winner's count not below the copies of the wild kind it counts that his
        hand shows (吉安's 精, 北京's 混儿), and a count tied to another never below
        it (武汉: openings ≥ 明杠).  Only shown here: the engine judges."""
        floor = [si.min] * n
        wild = self.wild_kinds()
        if si.counts_wild is not None and self.winner is not None and si.counts_wild < len(wild):
            floor[self.winner] = max(si.min, self.held(wild[si.counts_wild]))
        if si.at_least is not None:
            other = self.seat_values.get(si.at_least) or []
            for s, v in enumerate(other[:n]):
                if not (si.winner_from_hand and s == self.winner):
                    floor[s] = max(floor[s], v)
        return floor

    def seat_inputs_now(self, n: int) -> dict[str, list[int]]:
        """Every per-seat count as it stands, raised to its floor."""
        out = {}
        for si in self.spec.seat_inputs:
            values = self.seat_values.get(si.id) or [si.default] * n
            floor = self.seat_floor(si, n)
            out[si.id] = [max(v, f) for v, f in zip(values, floor, strict=False)]
        return out

    def _seat_values_now(self) -> dict[str, list[int]]:
        if not self.seat_values:
            return {}
        return self.seat_inputs_now(len(next(iter(self.seat_values.values()))))

    def default_seat_values(self, n: int) -> dict[str, list[int]]:
        """The declared starting count of every per-seat input, for each of n seats."""
        return {si.id: [si.default] * n for si in self.spec.seat_inputs}

    @classmethod
    def read(cls, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Self:
        """The state the form sent; anything unreadable falls back to empty, never an error."""
        # The model is read once: its rules (the spec and the values) and its seats;
        # the proposed position only when the form sent none.
        rules, n = session.rules, session.n_players
        spec = rules.table
        dealer = int_or_none(data.get("dealer"), 0, n - 1)
        # A table without a 圈风 neither shows nor carries one: every round is "E".
        wind = data.get("wind", "") if spec.prevalent_wind else "E"
        if dealer is None or wind not in SEAT_WINDS:
            proposed = next_position_of(session)
            dealer = proposed[0] if dealer is None else dealer
            wind = wind if wind in SEAT_WINDS else proposed[1]
        p = cls(token=data.get("token", ""), dealer=dealer, wind=wind, spec=spec)
        p.kind = "draw" if data.get("kind") == "draw" else "win"
        p.winner = int_or_none(data.get("winner"), 0, n - 1)
        d = data.get("discarder", "")
        seat = int_or_none(d, 0, n - 1)
        p.discarder = "self" if d == "self" else ("" if seat is None else str(seat))
        if p.winner is not None and p.discarder == str(p.winner):
            p.discarder = ""
        quick = data.get("mode") == "quick" and rs.fan_catalog(rules.params)
        p.mode = "quick" if quick else "tiles"
        usable = set(spec.tiles)
        try:
            p.concealed = sorted(t for t in parse_tiles(data.get("hand", "")) if t in usable)
        except RuleError:
            p.concealed = []
        p.win_tile = posted_tile(data.get("win_tile", ""), usable)
        for token in data.get("melds", "").split():
            mtype, _, rest = token.partition(":")
            code, _, frm = rest.partition(":")
            try:
                t = parse_tile(code)
            except RuleError:
                continue
            if mtype in spec.melds and t in usable and meld_tiles(mtype, t) is not None:
                p.melds.append((mtype, t))
                p.meld_from.append(frm if frm in MELD_FROM else "")
        p.tool = data.get("tool", "") if data.get("tool", "") in TOOLS else ""
        p.flags = {f for f in data.get("flags", "").split(",") if f in p.flag_ids}
        p.flowers = int_or_none(data.get("flowers"), 0, spec.flowers) or 0
        for si in spec.seat_inputs:
            counts = [
                int_or_none(x, si.min, si.max) for x in data.get(f"si_{si.id}", "").split(",")
            ]
            read = [v for v in counts if v is not None]
            p.seat_values[si.id] = read if len(read) == len(counts) == n else [si.default] * n
        if spec.wilds.mode == "turned":
            p.turned = posted_tile(data.get("turned", ""), usable)
        for item in data.get("fans", "").split(","):
            fid, _, count = item.partition(":")
            f, c = int_or_none(fid, 0, 10_000), int_or_none(count, 1, 99)
            if f is not None and c is not None:
                p.fans[f] = c
        p.author = data.get("author", "").strip()[:AUTHOR_MAX]
        p.base = int_or_none(data.get("base"), 1, MAX_ROUND)
        p.for_round = int_or_none(data.get("for_round"), 1, MAX_ROUND)
        return p

    # -- the record flow (scorer/entry/protocol.py `RecordPick`) --------------

    @classmethod
    def fresh(cls, session: GameSession, rs: Ruleset, kind: str = "", mode: str = "tiles") -> Self:
        """A new form for the next round: the dealer and wind after the last round;
        quick entry (`mode`, the phone's last) where the table offers it.  A round
        picked whole opens on a win whatever `kind` asks."""
        dealer, wind = next_position_of(session)
        p = cls(token=str(uuid.uuid4()), dealer=dealer, wind=wind, spec=session.rules.table)
        p.seat_values = p.default_seat_values(session.n_players)
        p.for_round = session.next_number()
        if mode == "quick" and rs.fan_catalog(session.rules.params):
            p.mode = "quick"
        return p

    def next_round(self, session: GameSession, rs: Ruleset) -> None:
        """ "Record it as the next round" (tap taken:next) after another phone recorded
        this form's round: its number, and the dealer and wind after the round just
        recorded (the ones the form had loaded are stale)."""
        self.for_round = session.next_number()
        self.dealer, self.wind = next_position_of(session)

    @property
    def open_number(self) -> int | None:
        """The round in progress this form adds to (none: a round picked whole is new)."""
        return None

    def missing(self) -> str:
        """What 确认 still needs chosen ("" when nothing)."""
        if self.kind == "win" and self.winner is not None:
            return how_won_missing(self.discarder) or ""
        return ""

    def save(self, session: GameSession, token: uuid.UUID, author: str) -> Round:
        """Record the round (GameSession.record_round: under the table's lock, once per
        token).  Raises RoundTaken or RuleError, nothing saved."""
        return session.record_round(token, self.entry(), author, number=self.for_round)

    def done_message(self, rnd: Round, again: bool) -> str:
        """What the table says once it is recorded (`again`: by an earlier 确认)."""
        return recorded_message(rnd)

    def after_refusal(self, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Self:
        """The form to show after the engine refused its 确认: as it was."""
        return self

    @property
    def takes_delta(self) -> bool:
        """Whether a plain tile tap may be answered with only what it changed."""
        return True

    def completes(self, tap: str) -> bool:
        """Whether `tap` completed the hand tapped on the picker (the page brings the
        hand and its result to the top of the screen)."""
        return tap.startswith("tile:") and self.n_tiles == self.hand_size and self.mode == "tiles"

    def by_flow(self, whole: Callable[[Pick], T], events: Callable[[Any], T]) -> T:
        """`whole(self)`: what the page shows of a round picked whole (an event's
        form answers `events(self)`)."""
        return whole(self)

    # -- derived ---------------------------------------------------------

    @property
    def self_drawn(self) -> bool:
        return self.discarder == "self"

    @property
    def hand_size(self) -> int:
        """Tiles in a complete hand, a kong counting 3 (a standing hand shown at the
        wall's end has one fewer and no win tile)."""
        return HAND_SIZE

    @property
    def uses_win_tile(self) -> bool:
        return True

    @property
    def win_fixed(self) -> bool:
        """Whether the winning tile is given, not picked (一炮多响's second winner)."""
        return self.fixed_win is not None

    @property
    def fixed_win(self) -> int | None:
        """The winning tile when it is given, not picked (an event's: EventPick)."""
        return None

    @property
    def choosing_tile(self) -> bool:
        """Whether the grid chooses one tile (an event's kong) rather than adds tiles."""
        return False

    @property
    def chosen_tile(self) -> int | None:
        """The tile the grid shows chosen: the turned tile while it is being picked."""
        return self.turned if self.tool == "turned" else None

    @property
    def n_tiles(self) -> int:
        return len(self.concealed) + (self.win_tile is not None) + 3 * len(self.melds)

    def held(self, t: int) -> int:
        """Copies of tile kind t in the hand: standing, win tile and melds."""
        n = self.concealed.count(t) + (self.win_tile == t)
        for mtype, low in self.melds:
            n += (meld_tiles(mtype, low) or []).count(t)
        return n

    @property
    def how_won(self) -> bool | None:
        """True self-drawn, False on a discard, None not chosen yet."""
        return True if self.discarder == "self" else (False if self.discarder else None)

    def offered_flags(self) -> list[str]:
        """The flags that can apply to this win, as the table declares them
        (e.g. 杠上开花 only self-drawn, 抢杠和 only on a discard)."""
        return [f.id for f in self.spec.flags if f.applies(self.how_won)]

    def live_flags(self) -> set[str]:
        """The flags that apply: those set among the ones offered."""
        return set(self.offered_flags()) & self.flags

    def _tiles_hand(self) -> dict[str, Any]:
        """The hand's tiles as the situation has them: concealed, win tile, melds."""
        h: dict[str, Any] = {"concealed": tiles_str(self.concealed)}
        if self.win_tile is not None:
            h["win_tile"] = tile_str(self.win_tile)
        if self.melds:
            h["melds"] = [meld_dict(mtype, low) for mtype, low in self.melds]
            for m, frm in zip(h["melds"], self.meld_from, strict=False):
                if frm and self.spec.meld_sources:
                    m["claimed_from"] = frm
        return h

    def melds_from(self) -> list[str]:
        """`meld_from` in step with `melds` (a chi is from 上家)."""
        out = [*self.meld_from[: len(self.melds)]]
        out += [""] * (len(self.melds) - len(out))
        return ["left" if m[0] == "chi" else f for m, f in zip(self.melds, out, strict=True)]

    def hand(self) -> dict[str, Any]:
        """The `hand` of a tiles entry: the situation's tile fields (see docs/situation.md)."""
        h = self._tiles_hand()
        live = self.live_flags()
        for f in self.flag_ids:
            if f in live:
                h[f] = True
        if self.flowers:
            h["flowers"] = self.flowers
        return h

    def entry(self) -> dict[str, Any]:
        """The entry for scorer.scoring / record_round / revise."""
        where: dict[str, Any] = {"dealer": self.dealer, "prevalent_wind": self.wind}
        if self.turned is not None:
            where["turned"] = tile_str(self.turned)
        if self.kind == "draw":
            draw: dict[str, Any] = {"kind": "draw", **where}
            if any(si.on_draw for si in self.spec.seat_inputs) and self.seat_values:
                n = len(next(iter(self.seat_values.values())))
                now = self.seat_inputs_now(n)
                draw["seat_inputs"] = {
                    si.id: now[si.id] for si in self.spec.seat_inputs if si.on_draw
                }
            return draw
        e: dict[str, Any] = {
            "kind": "win",
            "mode": self.mode,
            "winner": self.winner,
            "discarder": None if self.discarder in ("self", "") else int(self.discarder),
            **where,
        }
        if self.seat_values:
            n = len(next(iter(self.seat_values.values())))
            e["seat_inputs"] = self.seat_inputs_now(n)
        if self.mode == "quick":
            e["fans"] = {str(k): v for k, v in sorted(self.fans.items())}
            e["flowers"] = self.flowers
        else:
            e["hand"] = self.hand()
        return e

    def hidden(self) -> dict[str, str]:
        """The hidden inputs that carry this state to the next tap."""
        return {
            "token": self.token,
            "kind": self.kind,
            "winner": "" if self.winner is None else str(self.winner),
            "discarder": self.discarder,
            "mode": self.mode,
            "hand": tiles_str(self.concealed),
            "win_tile": "" if self.win_tile is None else tile_str(self.win_tile),
            "melds": " ".join(
                f"{m}:{tile_str(t)}" + (f":{frm}" if frm and self.spec.meld_sources else "")
                for (m, t), frm in zip(self.melds, self.melds_from(), strict=True)
            ),
            "tool": self.tool,
            "flags": ",".join(f for f in self.flag_ids if f in self.flags),
            "turned": "" if self.turned is None else tile_str(self.turned),
            **{f"si_{k}": ",".join(map(str, v)) for k, v in self._seat_values_now().items()},
            "flowers": str(self.flowers),
            "fans": ",".join(f"{k}:{v}" for k, v in sorted(self.fans.items())),
            "base": "" if self.base is None else str(self.base),
            "for_round": "" if self.for_round is None else str(self.for_round),
        }

    def tools(self) -> tuple[str, ...]:
        """The tools a tap can pick: the table's melds, the winning tile, the turned tile."""
        out: tuple[str, ...] = (*self.spec.melds, "win")
        return (*out, "turned") if self.spec.wilds.mode == "turned" else out

    # -- taps ------------------------------------------------------------

    def apply(self, tap: str, n_players: int, rs: Ruleset) -> str:
        """Apply one tap; the message to show when it cannot be done (state unchanged)."""
        verb, _, arg = tap.partition(":")
        if verb == "kind" and arg in ("win", "draw"):
            self.kind = arg
        elif verb == "winner" and (seat := int_or_none(arg, 0, n_players - 1)) is not None:
            self.winner = seat
            if self.discarder == str(seat):
                self.discarder = ""
        elif verb == "from" and arg == "self":
            self.discarder = "self"
        elif verb == "from" and (seat := int_or_none(arg, 0, n_players - 1)) is not None:
            if seat == self.winner:
                return gettext("The winner cannot also be the discarder.")
            self.discarder = str(seat)
        elif verb == "mode" and arg in ("tiles", "quick"):
            self.mode = arg
        elif verb == "tool" and arg in self.tools():
            self.tool = "" if self.tool == arg else arg
        elif verb == "tile":
            return self._tap_tile(arg, rs)
        elif verb == "hand":
            return self._tap_hand(arg)
        elif verb == "meld" and (i := int_or_none(arg, 0, len(self.melds) - 1)) is not None:
            self.meld_from = self.melds_from()
            del self.melds[i]
            del self.meld_from[i]
        elif verb == "meldfrom" and (i := int_or_none(arg, 0, len(self.melds) - 1)) is not None:
            # 上家 → 对家 → 下家 → not said; a chi only ever comes from 上家.
            self.meld_from = self.melds_from()
            if self.melds[i][0] != "chi":
                order = ["", *MELD_FROM]
                self.meld_from[i] = order[(order.index(self.meld_from[i]) + 1) % len(order)]
        elif verb == "flag" and arg in self.flag_ids:
            self.flags ^= {arg}
        elif verb == "flowers" and arg in ("+", "-"):
            self.flowers = max(0, min(self.spec.flowers, self.flowers + (1 if arg == "+" else -1)))
        elif verb == "seat_input":
            self._tap_seat_input(arg, n_players)
        elif verb == "fan":
            fid, _, sign = arg.partition(":")
            f = int_or_none(fid, 0, 10_000)
            if f is not None and sign in ("+", "-"):
                count = self.fans.get(f, 0) + (1 if sign == "+" else -1)
                if count > 0:
                    self.fans[f] = count
                else:
                    self.fans.pop(f, None)
        elif verb == "clear":
            self.concealed, self.win_tile, self.melds, self.tool = [], None, [], ""
            self.meld_from = []
        return ""

    def _tap_seat_input(self, arg: str, n_players: int) -> None:
        """ "kaikou:2:+": one more (or fewer) for that seat, within the declared range."""
        sid, _, rest = arg.partition(":")
        seat_raw, _, sign = rest.partition(":")
        si = next((x for x in self.spec.seat_inputs if x.id == sid), None)
        seat = int_or_none(seat_raw, 0, n_players - 1)
        if si is None or seat is None or sign not in ("+", "-"):
            return
        values = self.seat_values.setdefault(sid, [si.default] * n_players)
        floor = self.seat_floor(si, n_players)[seat]
        now = max(values[seat], floor)
        values[seat] = max(floor, min(si.max, now + (1 if sign == "+" else -1)))

    def _tap_tile(self, code: str, rs: Ruleset) -> str:
        try:
            t = parse_tile(code)
        except RuleError as e:
            return rule_error_text(e)
        if t not in self.spec.tiles or t >= N_KINDS:
            return gettext("This ruleset does not use %(tile)s.") % {"tile": tile_name(t)}
        tool, self.tool = self.tool, ""  # a tool acts on one tap
        if tool == "turned":
            self.turned = t
            return ""
        if tool == "win" and self.uses_win_tile:
            return self._make_win_tile(t)
        if tool in self.spec.melds:
            return self._add_meld(tool, t)
        if self.n_tiles >= self.hand_size:
            return gettext("The hand is complete: tap a tile of the hand to take it back first.")
        if self.held(t) >= 4:
            return self._all_four(t)
        if not self.uses_win_tile:
            self.concealed = sorted((*self.concealed, t))
            return ""
        if self.win_tile is not None:
            self.concealed = sorted((*self.concealed, self.win_tile))
        self.win_tile = t  # the last tile added is the win tile
        return ""

    def _tap_hand(self, code: str) -> str:
        if code == "win":
            self.win_tile, self.tool = None, ""
            return ""
        try:
            t = parse_tile(code)
        except RuleError as e:
            return rule_error_text(e)
        if self.tool == "win":
            self.tool = ""
            return self._make_win_tile(t)
        if t in self.concealed:
            self.concealed.remove(t)
        elif self.win_tile == t:
            self.win_tile = None
        return ""

    def _make_win_tile(self, t: int) -> str:
        if self.win_tile == t:
            return ""
        if t not in self.concealed:
            return gettext("%(tile)s is not in the hand.") % {"tile": tile_name(t)}
        self.concealed.remove(t)
        if self.win_tile is not None:
            self.concealed = sorted((*self.concealed, self.win_tile))
        self.win_tile = t
        return ""

    def _add_meld(self, mtype: str, t: int) -> str:
        tiles = meld_tiles(mtype, t)
        if tiles is None:
            return gettext(
                "%(tile)s cannot start a chi: tap the lowest of three tiles in a row of one suit, "
                "1 to 7."
            ) % {"tile": tile_name(t)}
        if len(self.melds) >= 4:
            return gettext("A hand has at most four melds.")
        if self.n_tiles + 3 > self.hand_size:
            return gettext("No room for another meld: take tiles back first.")
        for k in sorted(set(tiles)):
            if self.held(k) + tiles.count(k) > 4:
                return self._all_four(k, tiles.count(k))
        self.melds.append((mtype, t))
        self.meld_from = [*self.melds_from()[:-1], "left" if mtype == "chi" else ""]
        return ""

    def _all_four(self, t: int, adding: int = 1) -> str:
        """Why `adding` more copies of t do not fit: the hand holds them all already."""
        return gettext("There are only four %(tile)s: all of them are in the hand already.") % {
            "tile": tile_name(t)
        }
