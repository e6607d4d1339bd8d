"""The event form's state (`EventState`, read and recorded as `EventPick`: event_pick.py):
one kong, win, draw or wall's end of the round in progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from rules import RuleError
from rules.registry import Ruleset
from rules.results import CatalogFan
from rules.tiles import parse_tile, parse_tiles, tile_str, tiles_str
from scorer.clean.parse import int_or_none
from scorer.entry.event_kongs import Meld, contradictions, with_kongs, without_kongs
from scorer.entry.melds import HAND_SIZE, MELD_TYPES, meld_dict, meld_tiles
from scorer.entry.pick import Pick
from scorer.entry.round_now import RoundNow, shown_in_round
from scorer.language import rule_error_text, tile_name
from scorer.models import GameSession
from scorer.present.events import join_names
from scorer.present.words import meld_labels
from scorer.scoring import how_won_missing

# ================================================================ rounds played as events
#
# A table whose money moves before a round ends (kongs pay at once, the others play on
# after a win) is recorded one event at a time: this page then adds ONE event (a
# kong, a win, the wall's end) to the round in progress, or starts a round with
# it.  The state travels the same way (hidden inputs, one tap per post), without
# `wind` (a table without a 圈风 stores every round "E"); besides the fields above
# it has:
#
#     kind        "win" | "kong" | "wall_end"
#     expected    how many events the round had when the form was opened
#     join        "1": these winners join the last win (一炮多响, same discarder)
#     player      kong: who declared it; discarder: from whom (直杠 only)
#     kong        "exposed" 直杠 | "added" 面下杠 | "concealed" 暗杠
#     kong_tile   kong: the tile, optional
#     seat        wall end: whose standing hand the picker shows (its tiles
#                 travel in hand / melds, the other hands in wall_<seat> as
#                 "123m55p pung:7s", tiles then melds)
#     ws_<seat>   wall end: a standing told instead of shown: "pig" 花猪,
#                 "not_ready" 没听牌, "ready:<fan id>:<count>,..." 听牌 with the
#                 fans of its best wait (taps "wstatus:<status|tiles>" and
#                 "wfan:<id>:+|-" act on the seat the switcher shows)
#
# Every number shown comes from the engine: the round's events plus this one,
# settled whole (scoring.evaluate), and this event's own transfers.  The
# picker counts the tiles of the hands already shown in the round (the earlier
# winners', see shown_in_round) as the engine does, so it offers no fifth copy.

KONG_KINDS = ("exposed", "added", "concealed")
STANDING_SIZE = HAND_SIZE - 1  # a hand shown at the wall's end: no win tile


def hand_code(concealed: list[int], melds: list[tuple[str, int]]) -> str:
    parts = [tiles_str(concealed)] if concealed else []
    return " ".join([*parts, *(f"{m}:{tile_str(t)}" for m, t in melds)])


def read_hand(raw: str, usable: set[int]) -> tuple[list[int], list[tuple[str, int]]]:
    """A hand as hand_code writes it; what cannot be read is left out."""
    concealed: list[int] = []
    melds: list[tuple[str, int]] = []
    for token in raw.split():
        mtype, sep, code = token.partition(":")
        try:
            if sep:
                t = parse_tile(code)
                if mtype in MELD_TYPES and t in usable:
                    melds.append((mtype, t))
            else:
                concealed += [t for t in parse_tiles(token) if t in usable]
        except RuleError:
            continue
    return sorted(concealed), melds[:4]


@dataclass
class EventState(Pick):
    """The event form's state: Pick's hand and seats, plus the event's own fields."""

    expected: int = 0
    join: bool = False
    player: int | None = None
    kong: str = ""
    kong_tile: int | None = None
    seat: int | None = None
    wall: dict[int, tuple[list[int], list[tuple[str, int]]]] = field(default_factory=dict)
    # Wall end: standings told, not shown (seat -> pig / not_ready / ready), and
    # the fans of a ready seat's best wait.
    wall_status: dict[int, str] = field(default_factory=dict)
    wall_fans: dict[int, dict[int, int]] = field(default_factory=dict)
    # From the round in progress, not from the form:
    names: tuple[str, ...] = ()
    out: tuple[int, ...] = ()
    join_from: int | None = None  # the last win's discarder, when more winners may join it
    in_progress: bool = False
    round_turned: bool = False  # the round in progress has its turned tile already
    catalog: list[CatalogFan] = field(default_factory=list)  # the fans quick entry offers
    fan_max: dict[int, int] = field(default_factory=dict)
    # Copies of each tile kind in the hands of this round's earlier winners, and
    # the last win's discard when more winners may join it (see shown_in_round).
    shown: tuple[int, ...] = ()
    shared_tile: int | None = None
    # The kongs each player has recorded in this round (meld type, tile or None).
    kongs: dict[int, list[tuple[str, int | None]]] = field(default_factory=dict)
    # The round in progress as the form was read against it (EventPick.read / fresh).
    now: RoundNow | None = field(default=None, repr=False, compare=False)

    def _read_fans(self, raw: str) -> dict[int, int]:
        """ "1:1,15:2" -> {1: 1, 15: 2}, within the catalog's limits."""
        out: dict[int, int] = {}
        for item in raw.split(","):
            fid, _, count = item.partition(":")
            f, c = int_or_none(fid, 0, 10_000), int_or_none(count, 1, 99)
            if f is not None and c is not None and f in self.fan_max:
                out[f] = min(c, self.fan_max[f])
        return out

    def told(self, seat: int | None) -> str:
        """The standing told for a seat at the wall's end ("" when its hand is shown)."""
        return self.wall_status.get(seat, "") if seat is not None else ""

    def _know(self, session: GameSession, rs: Ruleset, now: RoundNow) -> None:
        """What the form takes from the round in progress rather than from the post."""
        self.now = now
        self.names = tuple(session.players)
        self.kongs = {s: k for s in range(session.n_players) if (k := now.kongs_of(s))}
        self.out = now.out
        self.in_progress = now.rnd is not None
        if self.in_progress:
            self.dealer, self.wind = now.dealer, now.wind
        last = now.last_discard_win()
        self.join_from = None if last is None else int(last["discarder"])
        self.shown, self.shared_tile = shown_in_round(now.events)
        if now.rnd is not None and now.turned:
            self.turned = parse_tile(now.turned)  # the round's own, asked once
            self.round_turned = True
        self.catalog = rs.fan_catalog(session.rules.params)
        self.fan_max = {f["id"]: f.get("max", 1) for f in self.catalog}

    # -- derived ---------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return STANDING_SIZE if self.kind == "wall_end" else HAND_SIZE

    @property
    def uses_win_tile(self) -> bool:
        return self.kind != "wall_end"

    @property
    def fixed_win(self) -> int | None:
        """The winning tile of a player joining the last win (一炮多响): its discard,
        fixed (None when the last win was entered by fans: no tile is known then).
        The page does not ask for it and takes no other (`_fix_win_tile`); the
        server refuses another (rules.registry `with_event`)."""
        if self.join and self.kind == "win" and self.mode == "tiles":
            return self.shared_tile
        return None

    @property
    def win_fixed(self) -> bool:
        return self.fixed_win is not None

    def tools(self) -> tuple[str, ...]:
        melds = self.spec.melds
        turned = ("turned",) if self.asks_turned else ()
        if self.kind == "wall_end" or self.fixed_win is not None:
            return (*melds, *turned)
        return (*melds, "win", *turned)

    @property
    def asks_turned(self) -> bool:
        """Whether this form asks for the turned tile: once a round (the round keeps it)."""
        return self.spec.wilds.mode == "turned" and not self.round_turned

    def in_play(self) -> list[int]:
        return [s for s in range(len(self.names)) if s not in self.out]

    def first_in_play(self) -> int | None:
        return next(iter(self.in_play()), None)

    def hand_of(self, seat: int) -> tuple[list[int], list[tuple[str, int]]]:
        """A standing hand at the wall's end: the picker's for the seat it shows."""
        if seat == self.seat:
            return self.concealed, self.melds
        return self.wall.get(seat, ([], []))

    def held(self, t: int) -> int:
        """Copies of t already shown: in this hand, in the round's earlier winners'
        hands and, at the wall's end, in every hand laid down.

        A winner joining the last win (一炮多响) wins on the very tile its winners
        won on: that one discard is his own win tile, not another copy.
        """
        n = super().held(t)
        if self.kind == "kong":
            return n
        if 0 <= t < len(self.shown):
            n += self.shown[t]
            if self.join and t == self.shared_tile:
                n -= 1
        if self.kind == "wall_end":
            for s, (concealed, melds) in self.wall.items():
                if s != self.seat and s not in self.wall_status:  # a told hand shows no tiles
                    n += concealed.count(t)
                    n += sum((meld_tiles(m, low) or []).count(t) for m, low in melds)
        return n

    def _all_four(self, t: int, adding: int = 1) -> str:
        if Pick.held(self, t) + adding > 4:  # this hand alone has no room for them
            return super()._all_four(t, adding)
        return gettext(
            "There are only four %(tile)s: the others are in hands already shown in this round."
        ) % {"tile": tile_name(t)}

    def round_entry(self, events: list[Any]) -> dict[str, Any]:
        """The round of `events` as scoring.evaluate settles it: this form's dealer,
        wind and turned tile."""
        turned = {"turned": tile_str(self.turned)} if self.turned is not None else {}
        where = {"dealer": self.dealer, "prevalent_wind": self.wind, **turned}
        return {"kind": "round", **where, "events": events}

    def event_flags(self) -> set[str]:
        """The flags that apply: those set among the ones offered."""
        return {f for f in self.offered_flags() if f in self.flags}

    def event(self) -> tuple[dict[str, Any] | None, str]:
        """The event this form adds, or None and what is still missing."""
        if self.kind == "kong":
            if self.player is None:
                return None, gettext("Who declared the kong?")
            if not self.kong:
                return None, gettext("Which kong: exposed, added or concealed?")
            ev: dict[str, Any] = {"type": "kong", "player": self.player, "kong": self.kong}
            if self.kong == "exposed":
                if not self.discarder:
                    return None, gettext("Whose discard made the exposed kong?")
                ev["discarder"] = int(self.discarder)
            if self.kong_tile is not None:
                ev["tile"] = tile_str(self.kong_tile)
            return ev, ""
        if self.kind == "draw":
            return {"type": "draw"}, ""
        if self.kind == "wall_end":
            hands: list[dict[str, Any]] = []
            missing: list[str] = []
            for s in self.in_play():
                if s in self.wall_status:
                    told: dict[str, Any] = {"seat": s, "status": self.wall_status[s]}
                    if self.wall_status[s] == "ready":
                        picked = self.wall_fans.get(s, {})
                        told["fans"] = {str(k): v for k, v in sorted(picked.items())}
                    hands.append(told)
                    continue
                concealed, melds = self.hand_of(s)
                if len(concealed) + 3 * len(melds) != STANDING_SIZE:
                    missing.append(self.names[s])
                    continue
                h: dict[str, Any] = {"seat": s, "concealed": tiles_str(concealed)}
                if melds:
                    h["melds"] = [meld_dict(m, t) for m, t in melds]
                hands.append(h)
            if missing:
                return None, gettext(
                    "Enter the hand of every player still in (13 tiles each): %(names)s."
                ) % {"names": join_names(missing)}
            return {"type": "wall_end", "hands": hands}, ""
        if self.winner is None:
            return None, gettext("Who won? Choose the winner.")
        if question := how_won_missing(self.discarder):
            return None, question
        if self.mode == "quick":
            if not self.fans:
                return None, gettext("Pick the fans of the hand.")
            winner: dict[str, Any] = {
                "seat": self.winner,
                "fans": {str(k): v for k, v in sorted(self.fans.items())},
            }
        else:
            winner = {"seat": self.winner, "hand": self._tiles_hand()}
        if self.join:
            return {"type": "win", "discarder": self.join_from, "winners": [winner]}, ""
        counts = {"seat_inputs": dict(self.seat_values)} if self.seat_values else {}
        flags = self.event_flags()
        return {
            "type": "win",
            "discarder": None if self.self_drawn else int(self.discarder),
            **{f: f in flags for f in self.flag_ids},
            "winners": [winner],
            **counts,
        }, ""

    def _prefill_kongs(self, before: int | None, after: int | None) -> None:
        """The winner's kongs recorded in this round start in the hand as melds (those
        whose tile was given); the previous winner's go when the winner changes, so
        picking a winner again never adds a kong twice."""
        if before is not None:
            without_kongs(self.melds, self.kongs.get(before, []))
        if after is not None:
            room = self.hand_size - self.n_tiles
            with_kongs(self.melds, self.kongs.get(after, []), room, lambda t: self.held(t) == 0)

    def _prefill_wall(self) -> None:
        """At the wall's end, each standing hand not begun yet starts with its player's
        recorded kongs (once, when the form turns to the wall's end: a kong taken out
        of a hand stays out)."""

        def free(t: int) -> bool:
            # No copy in the round's earlier winners' hands nor in any standing hand.
            n = self.shown[t] if 0 <= t < len(self.shown) else 0
            for concealed, melds in self.wall.values():
                n += concealed.count(t) + sum(
                    (meld_tiles(m, low) or []).count(t) for m, low in melds
                )
            return n == 0

        for s in self.in_play():
            if s in self.kongs and s not in self.wall:
                melds: list[Meld] = []
                with_kongs(melds, self.kongs[s], HAND_SIZE - 1, free)
                if melds:
                    self.wall[s] = ([], melds)

    def kong_warnings(self) -> list[str]:
        """Where a hand shown contradicts the kongs recorded for its player (said, not
        fixed): the winning hand, or at the wall's end each standing hand shown as tiles
        (the one on the picker, and the others once they have tiles; a told standing
        shows none)."""
        labels = meld_labels(self.spec)
        if self.kind == "win" and self.mode == "tiles" and self.winner is not None:
            name = self.names[self.winner] if self.winner < len(self.names) else ""
            return contradictions(
                name, self.kongs.get(self.winner, []), self.melds, labels, named=False
            )
        out: list[str] = []
        if self.kind == "wall_end":
            for s in self.in_play():
                concealed, melds = self.hand_of(s)
                if s in self.wall_status or (s != self.seat and not concealed and not melds):
                    continue
                out += contradictions(
                    self.names[s], self.kongs.get(s, []), melds, labels, named=True
                )
        return out

    def hidden(self) -> dict[str, str]:
        h = super().hidden()
        del h["flowers"], h["base"]
        h.update(
            {
                "kind": self.kind,
                "expected": str(self.expected),
                "join": "1" if self.join else "",
                "player": "" if self.player is None else str(self.player),
                "kong": self.kong,
                "kong_tile": "" if self.kong_tile is None else tile_str(self.kong_tile),
                "seat": "" if self.seat is None else str(self.seat),
            }
        )
        if self.in_progress:
            h["dealer"] = str(self.dealer)  # the round's own; else the select sends it
        for s in self.in_play():
            if s != self.seat and s in self.wall:
                h[f"wall_{s}"] = hand_code(*self.wall[s])
            if s in self.wall_status:
                fans = ",".join(f"{k}:{v}" for k, v in sorted(self.wall_fans.get(s, {}).items()))
                h[f"ws_{s}"] = self.wall_status[s] + (f":{fans}" if fans else "")
        return h

    # -- taps ------------------------------------------------------------

    def _switch_seat(self, seat: int | None) -> None:
        if self.seat is not None:
            self.wall[self.seat] = (self.concealed, self.melds)
        self.seat = seat
        self.concealed, self.melds = self.wall.pop(seat, ([], [])) if seat is not None else ([], [])
        self.win_tile, self.tool = None, ""

    def apply(self, tap: str, n_players: int, rs: Ruleset) -> str:
        """Apply one tap; a winner joining the last win (一炮多响) wins on its tile."""
        if tap == "hand:win" and self.fixed_win is not None:
            return gettext("He wins on the same discard, %(tile)s: it stays his winning tile.") % {
                "tile": tile_name(self.fixed_win)
            }
        message = self._apply_tap(tap, n_players, rs)
        return self._fix_win_tile() or message

    def _fix_win_tile(self) -> str:
        """A player joining the last win wins on its discard: that tile is his winning
        tile from the moment he joins, whatever he taps.  Every tile he taps is one
        of his other tiles (the discard tapped among them becomes the winning tile,
        in whatever order it came); the player never picks the winning tile, and
        can pick no other (the issue: 八条 tapped from the waits made a 平胡 of his
        对对胡 on 七条)."""
        fixed = self.fixed_win
        if fixed is None or self.win_tile == fixed:
            return ""
        other = self.win_tile
        if other is not None:
            self.concealed = sorted((*self.concealed, other))
        self.win_tile = None
        if fixed in self.concealed:
            self.concealed.remove(fixed)
        elif self.n_tiles >= self.hand_size and other is not None:
            self.concealed.remove(other)  # no room for the discard: the other tile goes
            self.win_tile = fixed
            return gettext(
                "He wins on the same discard, %(tile)s: %(other)s was taken out of the hand."
            ) % {"tile": tile_name(fixed), "other": tile_name(other)}
        self.win_tile = fixed
        return ""

    def _apply_tap(self, tap: str, n_players: int, rs: Ruleset) -> str:
        verb, _, arg = tap.partition(":")
        seat = int_or_none(arg, 0, n_players - 1)
        if verb == "kind":
            if arg in self.spec.event_ids and arg != self.kind:
                self.kind = arg
                self.concealed, self.win_tile, self.melds, self.tool = [], None, [], ""
                self.wall, self.seat = {}, None
                if arg == "wall_end":
                    self._prefill_wall()
                    self._switch_seat(self.first_in_play())
                if arg == "win":
                    self._prefill_kongs(None, self.winner)
                if arg == "kong" and self.discarder == "self":
                    self.discarder = ""
            return ""
        if seat is not None and seat in self.out and verb in ("winner", "player", "seat", "from"):
            return gettext("%(name)s has already won and is out of this round.") % {
                "name": self.names[seat]
            }
        if verb == "player" and seat is not None:
            self.player = seat
            if self.discarder == str(seat):
                self.discarder = ""
            return ""
        if verb == "kong" and arg in KONG_KINDS:
            self.kong = arg
            return ""
        if verb == "from" and self.kind == "kong":
            if seat is None:
                return ""
            if seat == self.player:
                return gettext("An exposed kong is made with another player's discard.")
            self.discarder = str(seat)
            return ""
        if verb == "tile" and self.kind == "kong":
            try:
                t = parse_tile(arg)
            except RuleError as e:
                return rule_error_text(e)
            if t not in self.spec.tiles:
                return gettext("This ruleset does not use %(tile)s.") % {"tile": tile_name(t)}
            self.kong_tile = None if self.kong_tile == t else t
            return ""
        if verb == "wstatus" and self.kind == "wall_end" and self.seat is not None:
            if arg in self.spec.wall_statuses:
                self.wall_status[self.seat] = arg
                if arg == "ready":
                    self.wall_fans.setdefault(self.seat, {})
            elif arg == "tiles":
                self.wall_status.pop(self.seat, None)
                self.wall_fans.pop(self.seat, None)
            return ""
        if verb == "wfan" and self.told(self.seat) == "ready":
            assert self.seat is not None
            fid, _, sign = arg.partition(":")
            f = int_or_none(fid, 0, 10_000)
            if f is None or f not in self.fan_max or sign not in ("+", "-"):
                return ""
            fans = self.wall_fans.setdefault(self.seat, {})
            # (Two patterns that do not add up are refused by the engine, with why.)
            count = min(self.fan_max[f], fans.get(f, 0) + (1 if sign == "+" else -1))
            if count > 0:
                fans[f] = count
            else:
                fans.pop(f, None)
            return ""
        if verb == "seat" and seat is not None:
            if self.kind == "wall_end" and seat != self.seat:
                self._switch_seat(seat)
            return ""
        if verb == "join":
            if arg == "on" and self.join_from is not None:
                self.join, self.discarder, self.flags = True, str(self.join_from), set()
                if self.winner == self.join_from:
                    self.winner = None
            elif arg == "off":
                self.join = False
            return ""
        if verb == "winner" and seat is not None and self.join and seat == self.join_from:
            return gettext("The winner cannot also be the discarder.")
        if verb == "winner" and seat is not None and self.kind == "win":
            before = self.winner
            message = super().apply(tap, n_players, rs)
            if not message and before != self.winner:
                self._prefill_kongs(before, self.winner)
            return message
        if verb == "from" and self.join and arg != str(self.join_from):
            self.join = False  # another discarder: not the last win's discard after all
        if verb == "flag":
            if arg in self.flag_ids and not self.join:
                self.flags ^= {arg}
            return ""
        if verb == "tool":
            if arg in self.tools():
                self.tool = "" if self.tool == arg else arg
            return ""
        if verb == "fan":
            fid, _, sign = arg.partition(":")
            f = int_or_none(fid, 0, 10_000)
            if f in self.fan_max and sign in ("+", "-"):
                assert f is not None
                count = min(self.fan_max[f], self.fans.get(f, 0) + (1 if sign == "+" else -1))
                if count > 0:
                    self.fans[f] = count
                else:
                    self.fans.pop(f, None)
            return ""
        if verb == "flowers":
            return ""
        return super().apply(tap, n_players, rs)
