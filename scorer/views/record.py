"""Record a round, and correct one: the event, the tile picker or quick entry, a live preview.

The whole page is one form.  Its state lives in hidden inputs (see `Pick`),
and every tap is a `<button name="tap" value="...">`: with htmx the form posts
to `preview`, which applies the tap and answers with the form's inside again
(fans, total, payments, waits, messages); without JavaScript the same buttons
post the form to the record (or edit) page, which does the same and renders
the whole page.  A tap made while the previous answer is still on its way is
queued in the browser (static/js/taps.js) and sent with the state that answer
brings, so quick taps on a slow network are not lost; taps are values
("tile:5m"), read against the state they arrive with.  Nothing is scored here:
every number on the page comes from
the engine through scorer.scoring (`evaluate`, `situation_for`), the same
path `GameSession.record_round` and `Round.revise` take, and nothing is saved
before 确认.

State format (hidden inputs, all plain strings):

    token       one-time form token (uuid4), minted when the page is opened
    kind        "win" | "draw"
    winner      seat number, or empty while not chosen
    discarder   "self" (自摸), a seat number, or empty while not chosen
    dealer      seat number; wind  E/S/W/N (both prefilled from next_position)
    mode        "tiles" (选牌) | "quick" (选番)
    hand        concealed tiles without the win tile, compact mpsz: "123m55p"
    win_tile    one tile code, e.g. "7z" (the last tile added unless chosen)
    melds       space separated type:lowest-tile, e.g. "chi:1m pung:7z kong:3s"
                (types: chi, pung, kong 明杠, concealed_kong 暗杠, added_kong 加杠)
    tool        "" | a meld type (the next tile tap adds that meld) | "win"
                (the next tap on a tile of the hand makes it the win tile)
    flags       comma separated: after_kong, robbing_kong, last_tile, fourth_tile
    flowers     0..8
    fans        quick entry: "id:count,...", e.g. "48:1,59:2"
    author      who records (kept in a cookie for next time)
    base        edit only: the revision number the form was opened on

A session whose table moves money before a round ends records one event at a time
(a kong, a win, the wall's end) on the same page and URLs: see "rounds played
as events" below for its extra state.  `GET record?kind=win|kong|wall_end`
opens the form on that event.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from django.contrib import messages
from django.db.models import Max
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from rules import RuleError, waits
from rules.registry import Ruleset, get_ruleset
from rules.round import seat_wind
from rules.table import TableSpec
from rules.tiles import N_KINDS, parse_tile, parse_tiles, tile_en, tile_str, tile_zh, tiles_str
from scorer.access import round_or_404, session_or_404
from scorer.models import GameSession, Round, RoundRevision
from scorer.scoring import WINDS, evaluate, evaluate_events, refusal
from scorer.views import HtmxHttpRequest, author_of, by_language, is_zh, tile_name
from scorer.views.events import join_names, reason_labels

HAND_SIZE = 14  # a kong counts 3 here, as in the situation format
MELD_TYPES = ("chi", "pung", "kong", "concealed_kong", "added_kong")
TOOLS = (*MELD_TYPES, "win", "turned")
# Quick entry lists the everyday fan groups (up to 8 points, a common minimum) open,
# cheapest first; the rarer, bigger groups are folded under their points.
QUICK_OPEN_MAX = 8
AUTHOR_COOKIE = "mj_author"
AUTHOR_MAX = 40

_NUM_ZH = "一二三四五六七八九"
_SUIT_ZH = "万筒条"


def _wind_name(w: str) -> str:
    t = 27 + WINDS.index(w)
    return tile_zh(t) if is_zh() else tile_en(t)


def _error_text(e: RuleError) -> str:
    """The engine's message in the reader's language."""
    return e.message_zh if is_zh() else e.message


# ---------------------------------------------------------------- tile faces


@dataclass(frozen=True)
class Face:
    """How one tile kind is drawn: 五 over 筒, or one honor character."""

    tile: int
    code: str
    top: str
    bottom: str
    css: str  # suit class: pk-m pk-p pk-s pk-z, plus pk-z5/6/7 for the dragons' colours
    zh: str
    en: str

    @property
    def name(self) -> str:
        return self.zh if is_zh() else self.en


def _face(t: int) -> Face:
    if t < 27:
        suit = "mps"[t // 9]
        css = f"pk-{suit}"
        return Face(t, tile_str(t), _NUM_ZH[t % 9], _SUIT_ZH[t // 9], css, tile_zh(t), tile_en(t))
    return Face(t, tile_str(t), tile_zh(t), "", f"pk-z pk-z{t - 26}", tile_zh(t), tile_en(t))


FACES = tuple(_face(t) for t in range(N_KINDS))


# ---------------------------------------------------------------- the form's state


def _next_position(session: GameSession) -> tuple[int, str]:
    """session.next_position() reading only the last standing round (all it looks at)."""
    last = (
        session.rounds.filter(status=Round.ACTIVE).select_related("current").order_by("-number")[:1]
    )
    return session.next_position(list(last))


def _int(raw: Any, lo: int, hi: int) -> int | None:
    try:
        v = int(raw)
    except (TypeError, ValueError):
        return None
    return v if lo <= v <= hi else None


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
    tool: str = ""
    flags: set[str] = field(default_factory=set)
    flowers: int = 0
    fans: dict[int, int] = field(default_factory=dict)
    author: str = ""
    base: int | None = None
    # The tile turned up for the round's wild tiles, where the table derives them from one.
    turned: int | None = None
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

    @classmethod
    def fresh(cls, session: GameSession) -> Pick:
        dealer, wind = _next_position(session)
        return cls(token=str(uuid.uuid4()), dealer=dealer, wind=wind, spec=session.table())

    @classmethod
    def from_post(cls, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Pick:
        """The state the form sent; anything unreadable falls back to empty, never an error."""
        n = session.n_players
        spec = session.table()
        dealer = _int(data.get("dealer"), 0, n - 1)
        # A table without a 圈风 neither shows nor carries one: every round is "E".
        wind = data.get("wind", "") if spec.prevalent_wind else "E"
        if dealer is None or wind not in WINDS:
            proposed = _next_position(session)
            dealer = proposed[0] if dealer is None else dealer
            wind = wind if wind in WINDS else proposed[1]
        p = cls(token=data.get("token", ""), dealer=dealer, wind=wind, spec=spec)
        p.kind = "draw" if data.get("kind") == "draw" else "win"
        p.winner = _int(data.get("winner"), 0, n - 1)
        d = data.get("discarder", "")
        seat = _int(d, 0, n - 1)
        p.discarder = "self" if d == "self" else ("" if seat is None else str(seat))
        if p.winner is not None and p.discarder == str(p.winner):
            p.discarder = ""
        quick = data.get("mode") == "quick" and rs.fan_catalog(session.resolved_params())
        p.mode = "quick" if quick else "tiles"
        usable = set(spec.tiles)
        try:
            p.concealed = sorted(t for t in parse_tiles(data.get("hand", "")) if t in usable)
        except RuleError:
            p.concealed = []
        try:
            w = data.get("win_tile", "")
            p.win_tile = parse_tile(w) if w else None
        except RuleError:
            p.win_tile = None
        if p.win_tile is not None and p.win_tile not in usable:
            p.win_tile = None
        for token in data.get("melds", "").split():
            mtype, _, code = token.partition(":")
            try:
                t = parse_tile(code)
            except RuleError:
                continue
            if mtype in spec.melds and t in usable and _meld_tiles(mtype, t) is not None:
                p.melds.append((mtype, t))
        p.tool = data.get("tool", "") if data.get("tool", "") in TOOLS else ""
        p.flags = {f for f in data.get("flags", "").split(",") if f in p.flag_ids}
        p.flowers = _int(data.get("flowers"), 0, spec.flowers) or 0
        if spec.wilds.mode == "turned":
            try:
                raw = data.get("turned", "")
                p.turned = parse_tile(raw) if raw else None
            except RuleError:
                p.turned = None
            if p.turned is not None and p.turned not in usable:
                p.turned = None
        for item in data.get("fans", "").split(","):
            fid, _, count = item.partition(":")
            f, c = _int(fid, 0, 10_000), _int(count, 1, 99)
            if f is not None and c is not None:
                p.fans[f] = c
        p.author = data.get("author", "").strip()[:AUTHOR_MAX]
        p.base = _int(data.get("base"), 1, 1_000_000)
        return p

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any], rnd: Round) -> Pick:
        """Prefill from a recorded entry (a round's current revision), for a correction."""
        rev = rnd.current
        assert rev is not None
        p = cls(token=str(uuid.uuid4()), dealer=rev.dealer, wind=rev.prevalent_wind)
        p.spec = rnd.session.table()
        p.base = rev.number
        turned = entry.get("turned")
        if turned:
            try:
                p.turned = parse_tile(turned)
            except RuleError:
                p.turned = None
        if entry.get("kind") == "draw":
            p.kind = "draw"
            return p
        p.winner = entry.get("winner")
        d = entry.get("discarder")
        p.discarder = "self" if d is None else str(d)
        if entry.get("mode") == "quick":
            p.mode = "quick"
            raw = entry.get("fans") or {}
            p.fans = {int(k): int(v) for k, v in raw.items() if int(v)}
            p.flowers = int(entry.get("flowers") or 0)
            return p
        hand = entry.get("hand") or {}
        try:
            p.concealed = sorted(parse_tiles(hand.get("concealed", [])))
            w = hand.get("win_tile")
            p.win_tile = parse_tile(w) if w else None
            for m in hand.get("melds") or []:
                tiles = parse_tiles(m.get("tiles", []))
                mtype = m.get("type")
                if mtype == "kong" and m.get("exposed", True) is False:
                    mtype = "concealed_kong"
                elif mtype == "kong" and m.get("added"):
                    mtype = "added_kong"
                if mtype in p.spec.melds and tiles:
                    p.melds.append((mtype, min(tiles)))
        except (RuleError, AttributeError, TypeError):
            pass  # an entry this page cannot show: the picker starts from what it read
        p.flags = {f for f in p.flag_ids if hand.get(f) is True}
        p.flowers = _int(hand.get("flowers", 0), 0, p.spec.flowers) or 0
        return p

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
    def n_tiles(self) -> int:
        return len(self.concealed) + (self.win_tile is not None) + 3 * len(self.melds)

    def held(self, t: int) -> int:
        """Copies of tile kind t in the hand: standing, win tile and melds."""
        n = self.concealed.count(t) + (self.win_tile == t)
        for mtype, low in self.melds:
            n += (_meld_tiles(mtype, low) or []).count(t)
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
            h["melds"] = [_meld_dict(mtype, low) for mtype, low in self.melds]
        return h

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
            return {"kind": "draw", **where}
        e: dict[str, Any] = {
            "kind": "win",
            "mode": self.mode,
            "winner": self.winner,
            "discarder": None if self.discarder in ("self", "") else int(self.discarder),
            **where,
        }
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
            "melds": " ".join(f"{m}:{tile_str(t)}" for m, t in self.melds),
            "tool": self.tool,
            "flags": ",".join(f for f in self.flag_ids if f in self.flags),
            "turned": "" if self.turned is None else tile_str(self.turned),
            "flowers": str(self.flowers),
            "fans": ",".join(f"{k}:{v}" for k, v in sorted(self.fans.items())),
            "base": "" if self.base is None else str(self.base),
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
        elif verb == "winner" and (seat := _int(arg, 0, n_players - 1)) is not None:
            self.winner = seat
            if self.discarder == str(seat):
                self.discarder = ""
        elif verb == "from" and arg == "self":
            self.discarder = "self"
        elif verb == "from" and (seat := _int(arg, 0, n_players - 1)) is not None:
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
        elif verb == "meld" and (i := _int(arg, 0, len(self.melds) - 1)) is not None:
            del self.melds[i]
        elif verb == "flag" and arg in self.flag_ids:
            self.flags ^= {arg}
        elif verb == "flowers" and arg in ("+", "-"):
            self.flowers = max(0, min(self.spec.flowers, self.flowers + (1 if arg == "+" else -1)))
        elif verb == "fan":
            fid, _, sign = arg.partition(":")
            f = _int(fid, 0, 10_000)
            if f is not None and sign in ("+", "-"):
                count = self.fans.get(f, 0) + (1 if sign == "+" else -1)
                if count > 0:
                    self.fans[f] = count
                else:
                    self.fans.pop(f, None)
        elif verb == "clear":
            self.concealed, self.win_tile, self.melds, self.tool = [], None, [], ""
        return ""

    def _tap_tile(self, code: str, rs: Ruleset) -> str:
        try:
            t = parse_tile(code)
        except RuleError as e:
            return _error_text(e)
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
            return _error_text(e)
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
        tiles = _meld_tiles(mtype, t)
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
        return ""

    def _all_four(self, t: int, adding: int = 1) -> str:
        """Why `adding` more copies of t do not fit: the hand holds them all already."""
        return gettext("There are only four %(tile)s: all of them are in the hand already.") % {
            "tile": tile_name(t)
        }


def _meld_tiles(mtype: str, t: int) -> list[int] | None:
    """The tiles of a meld given its lowest tile; None when there is no such meld (chi on 8m)."""
    if mtype == "chi":
        return [t, t + 1, t + 2] if t < 27 and t % 9 <= 6 else None
    return [t] * (3 if mtype == "pung" else 4)


def _meld_dict(mtype: str, t: int) -> dict[str, Any]:
    tiles = tiles_str(_meld_tiles(mtype, t) or [])
    if mtype == "concealed_kong":
        return {"type": "kong", "tiles": tiles, "exposed": False}
    if mtype == "added_kong":
        return {"type": "kong", "tiles": tiles, "exposed": True, "added": True}
    return {"type": mtype, "tiles": tiles, "exposed": True}


# ---------------------------------------------------------------- what the page shows


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def _seat_rows(names: list[str], deltas: list[int]) -> list[dict[str, Any]]:
    """Each seat's name and what it wins or pays, signed."""
    return [
        {"name": names[s], "delta": _signed(d), "sign": (d > 0) - (d < 0)}
        for s, d in enumerate(deltas)
    ]


def _unfinished_hand(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any] | None:
    """`out` with what the winning hand still lacks (tiles, the win tile, its waits
    when one tile short), or None when the hand is complete."""
    if p.n_tiles < HAND_SIZE - 1:
        n = HAND_SIZE - p.n_tiles
        out["hint"] = ngettext(
            "Tap the tiles of the winning hand: %(n)s more.",
            "Tap the tiles of the winning hand: %(n)s more.",
            n,
        ) % {"n": n}
        return out
    if p.n_tiles == HAND_SIZE - 1:
        return _waits(session, p, out)
    if p.win_tile is None:
        out["hint"] = gettext("Choose the winning tile.")
        return out
    return None


def _outcome(session: GameSession, p: Pick) -> dict[str, Any]:
    """The live result: fans, total, payments, waits, or what is still missing; never saves."""
    out: dict[str, Any] = {"message": "", "hint": "", "fans": [], "total": None, "win": False,
                           "seats": [], "payments": [], "waits": None, "can_confirm": False}  # fmt: skip
    if p.kind == "win":
        if p.mode == "tiles":
            unfinished = _unfinished_hand(session, p, out)
            if unfinished is not None:
                return unfinished
        elif not p.fans:
            out["hint"] = gettext("Pick the fans of the hand.")
            return out
        if p.winner is None:
            out["hint"] = gettext("Who won? Choose the winner.")
            return out
        if not p.discarder:
            out["hint"] = gettext("Self-drawn, or who discarded the winning tile?")
            return out
    try:
        ev = evaluate(session, p.entry())
    except RuleError as e:
        out["message"] = _error_text(e)
        return out
    result = ev.result
    out["fans"] = result.get("fans", [])
    out["total"] = result.get("total")
    out["win"] = bool(result.get("win"))
    if ev.kind == "draw":
        notes = result.get("notes_zh" if is_zh() else "notes") or [""]
        out["hint"] = notes[-1]
        out["can_confirm"] = True
    elif (err := refusal(result)) is not None:
        out["message"] = _error_text(err)
    else:
        out["can_confirm"] = True
    names = session.players
    deltas = result.get("deltas") or [0] * session.n_players
    out["seats"] = _seat_rows(names, deltas)
    out["payments"] = [
        {"from": names[x["from"]], "to": names[x["to"]], "amount": x["amount"]}
        for x in result.get("payments", [])
    ]
    return out


def _waits(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any]:
    """One tile short: the engine's waits, shown as tiles to tap."""
    hand = p._tiles_hand()
    tiles = sorted((*p.concealed, *([p.win_tile] if p.win_tile is not None else [])))
    sit = {"ruleset": session.ruleset, "params": dict(session.resolved_params()),
           "concealed": tiles_str(tiles), "melds": hand.get("melds", []),
           "wild": [tile_str(t) for t in p.wild_kinds()]}  # fmt: skip
    w = waits(sit)
    if not w["ok"]:
        e = w["error"]
        out["message"] = e["message_zh"] if is_zh() else e["message"]
        return out
    out["waits"] = [FACES[parse_tile(c)] for c in w["waits"]]
    out["hint"] = (
        gettext("One tile short: tap the winning tile.")
        if out["waits"]
        else gettext("No tile completes this hand.")
    )
    return out


# How the meld tools are called where the table does not name them otherwise.
MELD_LABELS = {
    "chi": gettext_lazy("Chi"),
    "pung": gettext_lazy("Pung"),
    "kong": gettext_lazy("Kong"),
    "concealed_kong": gettext_lazy("Concealed kong"),
    "added_kong": gettext_lazy("Added kong"),
}


def meld_labels(spec: TableSpec) -> dict[str, str]:
    """Each meld tool's name in the reader's language: the table's own word, else ours."""
    return {
        tool: by_language(*spec.meld_labels[tool]) if tool in spec.meld_labels else str(label)
        for tool, label in MELD_LABELS.items()
    }


def flag_rows(p: Pick, live: set[str]) -> list[tuple[str, bool, str]]:
    """(flag, on, label) for each flag the win can carry, named as the table names it."""
    rows = []
    for fid in p.offered_flags():
        flag = p.spec.flag(fid)
        assert flag is not None
        rows.append((fid, fid in live, by_language(*flag.label(p.how_won))))
    return rows


def _hand_view(p: Pick) -> dict[str, Any]:
    """The hand as the page shows it: its tiles, its melds and its empty places."""
    standing = sorted((*p.concealed, *([] if p.win_tile is None else [p.win_tile])))
    complete = p.n_tiles == p.hand_size
    labels = meld_labels(p.spec)
    melds = [
        {"i": i, "type": mtype, "name": labels[mtype],
         "tiles": [FACES[t] for t in _meld_tiles(mtype, low) or []]}
        for i, (mtype, low) in enumerate(p.melds)
    ]  # fmt: skip
    return {
        # The win tile stands apart once the hand is complete; before, it is just the last tile.
        "hand_tiles": [FACES[t] for t in (p.concealed if complete else standing)],
        "win_face": FACES[p.win_tile] if complete and p.win_tile is not None else None,
        "melds": melds,
        "n_tiles": p.n_tiles,
        "hand_slots": range(max(0, p.hand_size - p.n_tiles)),  # the hand's empty places
        "hand_size": p.hand_size,
        "wild": set(p.wild_kinds()),
        "wild_faces": [FACES[t] for t in sorted(p.wild_kinds())],
        "meld_tools": [{"tool": t, "label": labels[t]} for t in p.spec.melds],
        "turned_face": FACES[p.turned] if p.turned is not None else None,
        "asks_turned": p.spec.wilds.mode == "turned",
    }


def _context(
    request: HtmxHttpRequest,
    session: GameSession,
    p: Pick,
    message: str = "",
    editing: Round | None = None,
) -> dict[str, Any]:
    rs = get_ruleset(session.ruleset)
    n = session.n_players
    live = p.live_flags()
    seats = [
        {"seat": s, "name": name, "wind": _wind_name(seat_wind(s, p.dealer, n)),
         "dealer": s == p.dealer, "winner": s == p.winner, "discarder": p.discarder == str(s)}
        for s, name in enumerate(session.players)
    ]  # fmt: skip
    rows: list[list[dict[str, Any]]] = [[], [], [], []]
    wild = set(p.wild_kinds())
    for t in p.spec.tiles:
        if t < N_KINDS:
            held = p.held(t)
            rows[min(t // 9, 3)].append(
                {"face": FACES[t], "held": held, "wild": t in wild, "on": t == p.turned and p.tool == "turned",
                 "dim": held >= 4 or (p.tool == "chi" and (t >= 27 or t % 9 > 6))}
            )  # fmt: skip
    params = session.resolved_params()
    catalog = rs.fan_catalog(params) if p.mode == "quick" else []
    groups: dict[int, list[dict[str, Any]]] = {}
    for fan in catalog:
        groups.setdefault(fan["points"], []).append({**fan, "count": p.fans.get(fan["id"], 0)})
    # Folded parts of the page are re-rendered on every tap: keep open what was just used.
    tap = request.POST.get("tap") if request.method == "POST" else None
    verb, _, arg = (tap or "").partition(":")
    tapped_fan = _int(arg.partition(":")[0], 0, 10_000) if verb == "fan" else None
    fan_groups = [
        {"points": points, "fans": fans, "fold": points > QUICK_OPEN_MAX,
         "open": any(f["count"] or f["id"] == tapped_fan for f in fans)}
        for points, fans in sorted(groups.items())
    ]  # fmt: skip
    if editing is not None:
        post_url = reverse("scorer:edit", args=[session.code, editing.number])
        confirm_url = post_url
    else:
        post_url = reverse("scorer:record", args=[session.code])
        confirm_url = reverse("scorer:confirm", args=[session.code])
    return {
        "session": session,
        "ruleset": rs,
        "state": p,
        "hidden": p.hidden(),
        "editing": editing,
        "post_url": post_url,
        "confirm_url": confirm_url,
        "tap_message": message,
        "seats": seats,
        "others": [s for s in seats if not s["winner"]],
        "winds": [(w, _wind_name(w)) for w in WINDS],
        "seat_wind": _wind_name(seat_wind(p.winner, p.dealer, n)) if p.winner is not None else "",
        "round_wind": _wind_name(p.wind),
        "dealer_name": session.players[p.dealer],
        # A select changed (htmx posts the form with no tap): keep dealer and wind open.
        "where_open": request.method == "POST" and tap is None and "confirm" not in request.POST,
        "grid": [r for r in rows if r],
        **_hand_view(p),
        "flags": flag_rows(p, live),
        "event_kinds": [{"id": e.id, "label": by_language(e.zh, e.en)} for e in p.spec.events],
        "uses_flowers": p.spec.flowers > 0,
        "quick_available": bool(rs.fan_catalog(params)),
        "fan_groups": fan_groups,
        "result": _outcome(session, p),
        "default_author": author_of(request),
        "events_mode": False,
    }


def _render(
    request: HtmxHttpRequest,
    session: GameSession,
    p: Pick,
    message: str = "",
    editing: Round | None = None,
    status: int = 200,
) -> HttpResponse:
    """The form's inside for htmx, else the whole page."""
    template = "scorer/record.html#form" if request.htmx else "scorer/record.html"
    ctx = _context(request, session, p, message, editing)
    return render(request, template, ctx, status=status)


# ---------------------------------------------------------------- author


def _remembered(request: HtmxHttpRequest) -> str:
    """The name this phone recorded with last time (percent-encoded: cookies are ASCII)."""
    return unquote(request.COOKIES.get(AUTHOR_COOKIE, "")).strip()[:AUTHOR_MAX]


def _author(request: HtmxHttpRequest, p: Pick) -> str:
    return p.author or _remembered(request) or author_of(request)


def _done(request: HtmxHttpRequest, url: str, p: Pick) -> HttpResponse:
    response: HttpResponse = (
        HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    )
    if p.author:
        response.set_cookie(
            AUTHOR_COOKIE, quote(p.author), max_age=365 * 24 * 3600, samesite="Lax", httponly=True
        )
    return response


# ---------------------------------------------------------------- views


def _posted(request: HtmxHttpRequest, session: GameSession) -> tuple[Pick, str]:
    """The form's state with its tap applied, and the tap's message if it could not be done."""
    rs = get_ruleset(session.ruleset)
    p = Pick.from_post(request.POST, session, rs)
    if not p.author:
        p.author = _remembered(request)
    message = p.apply(request.POST.get("tap", ""), session.n_players, rs)
    return p, message


def _editing(request: HtmxHttpRequest, session: GameSession) -> Round | None:
    number = _int(request.POST.get("round"), 1, 1_000_000)
    return round_or_404(session, number) if number is not None else None


@require_http_methods(["GET", "POST"])
def record(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The record page; a POST is a tap from a browser without JavaScript."""
    session = session_or_404(code)
    rs = get_ruleset(session.ruleset)
    if session.stepwise:
        return _record_event(request, session, rs)
    if request.method == "POST":
        p, message = _posted(request, session)
        return _render(request, session, p, message)
    p = Pick.fresh(session)
    p.author = _remembered(request)
    return _render(request, session, p)


@require_POST
def preview(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Apply one tap and show the live result (htmx: the form's inside). Saves nothing."""
    session = session_or_404(code)
    rs = get_ruleset(session.ruleset)
    if session.stepwise and "round" not in request.POST:
        return _preview_event(request, session, rs)
    editing = _editing(request, session)
    p, message = _posted(request, session)
    response = _render(request, session, p, message, editing)
    completed = request.POST.get("tap", "").startswith("tile:") and p.n_tiles == HAND_SIZE
    if completed and p.mode == "tiles" and not message:
        # The tile that completes the hand: its fans and payments appear under the
        # hand, above the grid the finger is on; bring the hand to the top of the
        # screen so that the hand and its result are seen together.
        response["HX-Reswap"] = "innerHTML show:.pk-live:top"
    return response


@require_POST
def confirm(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Record the round the form shows, once."""
    session = session_or_404(code)
    rs = get_ruleset(session.ruleset)
    if session.stepwise:
        return _confirm_event(request, session, rs)
    p = Pick.from_post(request.POST, session, rs)
    # htmx swaps only 2xx answers, so a refusal it must show comes back as 200.
    refused = 200 if request.htmx else 400
    try:
        token = uuid.UUID(p.token)
    except ValueError:
        p.token = str(uuid.uuid4())
        msg = gettext("This form had expired. Check the round and confirm again.")
        return _render(request, session, p, msg, status=refused)
    if p.kind == "win" and p.winner is not None and not p.discarder:
        msg = gettext("Self-drawn, or who discarded the winning tile?")
        return _render(request, session, p, msg, status=refused)
    try:
        # The token makes confirming idempotent.  A double tap on 确认, a retry
        # after a lost answer, or two phones confirming the same form all carry
        # the same token: record_round returns the round the first one recorded,
        # and if two requests race past that check at the same moment, the
        # (session, token) unique constraint lets only one insert through.
        rnd = session.record_round(token, p.entry(), _author(request, p))
    except RuleError as e:
        return _render(request, session, p, _error_text(e), status=refused)
    messages.success(request, gettext("Round %(number)s recorded.") % {"number": rnd.number})
    return _done(request, reverse("scorer:session", args=[session.code]), p)


@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """Correct a past round: the record form prefilled; confirming adds a revision."""
    session = session_or_404(code)
    rnd = round_or_404(session, number)
    if rnd.current is None:
        raise Http404("this round has no version to correct")
    if rnd.current.kind == RoundRevision.ROUND:
        # A round played as events is changed an event at a time (take back the
        # last one on the table page, add it again), never re-entered whole here.
        messages.info(
            request,
            gettext(
                "Round %(number)s was recorded event by event and cannot be corrected as a "
                "whole. To change its last event, take it back on this page and add it again."
            )
            % {"number": rnd.number},
        )
        url = reverse("scorer:session", args=[session.code])
        return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    if request.method == "GET":
        p = Pick.from_entry(rnd.current.entry, rnd)
        p.author = _remembered(request)
        return _render(request, session, p, editing=rnd)
    if "confirm" not in request.POST:
        p, message = _posted(request, session)
        return _render(request, session, p, message, editing=rnd)
    rs = get_ruleset(session.ruleset)
    p = Pick.from_post(request.POST, session, rs)
    refused = 200 if request.htmx else 400
    if p.kind == "win" and p.winner is not None and not p.discarder:
        msg = gettext("Self-drawn, or who discarded the winning tile?")
        return _render(request, session, p, msg, rnd, status=refused)
    done = reverse("scorer:round", args=[session.code, rnd.number])
    entry = p.entry()
    current = rnd.current
    if Pick.from_entry(current.entry, rnd).entry() == entry:
        # Nothing to correct: unchanged, or a double tap whose first tap saved it.
        return _done(request, done, p)
    if p.base is not None and p.base != current.number:
        # Someone else corrected the round since this form was opened: show it
        # before replacing their version (the next confirm does, deliberately).
        p.base = current.number
        msg = gettext(
            "This round was corrected on another phone meanwhile. "
            "Check it and confirm again to replace that correction."
        )
        return _render(request, session, p, msg, rnd, status=200 if request.htmx else 409)
    try:
        rnd.revise(entry, _author(request, p))
    except RuleError as e:
        return _render(request, session, p, _error_text(e), rnd, status=refused)
    return _done(request, done, p)


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
#
# Every number shown comes from the engine: the round's events plus this one,
# settled whole (scoring.evaluate_events), and this event's own transfers.  The
# picker counts the tiles of the hands already shown in the round (the earlier
# winners', see shown_in_round) as the engine does, so it offers no fifth copy.

KONG_KINDS = ("exposed", "added", "concealed")
STANDING_SIZE = HAND_SIZE - 1  # a hand shown at the wall's end: no win tile


@dataclass(frozen=True)
class RoundNow:
    """The round in progress as the event form sees it, or the round an event would start."""

    rnd: Round | None
    number: int
    events: list[Any]
    out: tuple[int, ...]  # seats that have won, in the order they won
    dealer: int
    wind: str
    turned: str = ""  # the round's turned tile (wild tiles derived from it), "" if none

    @property
    def count(self) -> int:
        return len(self.events)

    @property
    def turned_entry(self) -> dict[str, Any]:
        return {"turned": self.turned} if self.turned else {}

    def last_discard_win(self) -> Mapping[str, Any] | None:
        """The last event when it is a win on a discard: more winners may join it."""
        last = self.events[-1] if self.events else None
        if isinstance(last, Mapping) and last.get("type") == "win":
            d = last.get("discarder")
            if isinstance(d, int) and not isinstance(d, bool):
                return last
        return None


def _round_now(session: GameSession) -> RoundNow:
    rnd = session.round_in_progress()
    if rnd is not None and rnd.current is not None:
        rev = rnd.current
        events = list(rev.entry.get("events") or [])
        out = tuple(int(s) for s in rev.result.get("out") or [])
        turned = str(rev.entry.get("turned") or "")
        return RoundNow(rnd, rnd.number, events, out, rev.dealer, rev.prevalent_wind, turned)
    dealer, wind = _next_position(session)
    number = (session.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    return RoundNow(None, number, [], (), dealer, wind)


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


def _hand_code(concealed: list[int], melds: list[tuple[str, int]]) -> str:
    parts = [tiles_str(concealed)] if concealed else []
    return " ".join([*parts, *(f"{m}:{tile_str(t)}" for m, t in melds)])


def _read_hand(raw: str, usable: set[int]) -> tuple[list[int], list[tuple[str, int]]]:
    """A hand as _hand_code writes it; what cannot be read is left out."""
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
class EventPick(Pick):
    """The event form's state: Pick's hand and seats, plus the event's own fields."""

    expected: int = 0
    join: bool = False
    player: int | None = None
    kong: str = ""
    kong_tile: int | None = None
    seat: int | None = None
    wall: dict[int, tuple[list[int], list[tuple[str, int]]]] = field(default_factory=dict)
    # From the round in progress, not from the form:
    names: tuple[str, ...] = ()
    out: tuple[int, ...] = ()
    join_from: int | None = None  # the last win's discarder, when more winners may join it
    in_progress: bool = False
    round_turned: bool = False  # the round in progress has its turned tile already
    catalog: list[dict[str, Any]] = field(default_factory=list)  # the fans quick entry offers
    fan_max: dict[int, int] = field(default_factory=dict)
    # Copies of each tile kind in the hands of this round's earlier winners, and
    # the last win's discard when more winners may join it (see shown_in_round).
    shown: tuple[int, ...] = ()
    shared_tile: int | None = None

    # -- reading ---------------------------------------------------------

    @classmethod
    def fresh_event(cls, session: GameSession, rs: Ruleset, now: RoundNow, kind: str) -> EventPick:
        spec = session.table()
        wind = now.wind if spec.prevalent_wind else "E"
        p = cls(token=str(uuid.uuid4()), dealer=now.dealer, wind=wind, spec=spec)
        p._know(session, rs, now)
        p.kind = kind if kind in spec.event_ids else "win"
        p.expected = now.count
        if p.kind == "wall_end":
            p._switch_seat(p.first_in_play())
        return p

    @classmethod
    def read(
        cls, data: Mapping[str, str], session: GameSession, rs: Ruleset, now: RoundNow
    ) -> EventPick:
        """The state the form sent, checked against the round as it is now."""
        p = cls.from_post(data, session, rs)
        assert isinstance(p, EventPick)
        p._know(session, rs, now)
        n = session.n_players
        usable = set(p.spec.tiles)
        kind = data.get("kind", "")
        p.kind = kind if kind in p.spec.event_ids else "win"
        if p.tool not in p.tools():
            p.tool = ""
        p.fans = {f: min(c, p.fan_max[f]) for f, c in p.fans.items() if f in p.fan_max}
        p.flowers = 0
        p.expected = _int(data.get("expected"), 0, 10_000) or 0
        p.player = _int(data.get("player"), 0, n - 1)
        p.kong = data.get("kong", "") if data.get("kong", "") in KONG_KINDS else ""
        try:
            code = data.get("kong_tile", "")
            p.kong_tile = parse_tile(code) if code else None
        except RuleError:
            p.kong_tile = None
        if p.kong_tile not in usable:
            p.kong_tile = None
        p.join = data.get("join") == "1" and p.join_from is not None
        if p.join:
            p.discarder, p.flags = str(p.join_from), set()
        if p.kind == "kong":
            # The kong's discarder, whoever the (unused) winner field still names.
            d = _int(data.get("discarder"), 0, n - 1)
            p.discarder = "" if d is None or d == p.player else str(d)
        for s in range(n):
            raw = data.get(f"wall_{s}")
            if raw and s not in p.out:
                p.wall[s] = _read_hand(raw, usable)
        if p.kind == "wall_end":
            if p.win_tile is not None:
                p.concealed, p.win_tile = sorted((*p.concealed, p.win_tile)), None
            p.seat = _int(data.get("seat"), 0, n - 1)
            if p.seat is None or p.seat in p.out:
                p._switch_seat(p.first_in_play())
            else:
                p.wall.pop(p.seat, None)  # its tiles came in hand / melds
        return p

    def _know(self, session: GameSession, rs: Ruleset, now: RoundNow) -> None:
        """What the form takes from the round in progress rather than from the post."""
        self.names = tuple(session.players)
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
        self.catalog = rs.fan_catalog(session.resolved_params())
        self.fan_max = {f["id"]: int(f.get("max", 1)) for f in self.catalog}

    # -- derived ---------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return STANDING_SIZE if self.kind == "wall_end" else HAND_SIZE

    @property
    def uses_win_tile(self) -> bool:
        return self.kind != "wall_end"

    def tools(self) -> tuple[str, ...]:
        melds = self.spec.melds
        turned = ("turned",) if self.asks_turned else ()
        return (*melds, *turned) if self.kind == "wall_end" else (*melds, "win", *turned)

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
                if s != self.seat:
                    n += concealed.count(t)
                    n += sum((_meld_tiles(m, low) or []).count(t) for m, low in melds)
        return n

    def _all_four(self, t: int, adding: int = 1) -> str:
        if Pick.held(self, t) + adding > 4:  # this hand alone has no room for them
            return super()._all_four(t, adding)
        return gettext(
            "There are only four %(tile)s: the others are in hands already shown in this round."
        ) % {"tile": tile_name(t)}

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
                concealed, melds = self.hand_of(s)
                if len(concealed) + 3 * len(melds) != STANDING_SIZE:
                    missing.append(self.names[s])
                    continue
                h: dict[str, Any] = {"seat": s, "concealed": tiles_str(concealed)}
                if melds:
                    h["melds"] = [_meld_dict(m, t) for m, t in melds]
                hands.append(h)
            if missing:
                return None, gettext(
                    "Enter the hand of every player still in (13 tiles each): %(names)s."
                ) % {"names": join_names(missing)}
            return {"type": "wall_end", "hands": hands}, ""
        if self.winner is None:
            return None, gettext("Who won? Choose the winner.")
        if not self.discarder:
            return None, gettext("Self-drawn, or who discarded the winning tile?")
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
        flags = self.event_flags()
        return {
            "type": "win",
            "discarder": None if self.self_drawn else int(self.discarder),
            **{f: f in flags for f in self.flag_ids},
            "winners": [winner],
        }, ""

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
                h[f"wall_{s}"] = _hand_code(*self.wall[s])
        return h

    # -- taps ------------------------------------------------------------

    def _switch_seat(self, seat: int | None) -> None:
        if self.seat is not None:
            self.wall[self.seat] = (self.concealed, self.melds)
        self.seat = seat
        self.concealed, self.melds = self.wall.pop(seat, ([], [])) if seat is not None else ([], [])
        self.win_tile, self.tool = None, ""

    def apply(self, tap: str, n_players: int, rs: Ruleset) -> str:
        verb, _, arg = tap.partition(":")
        seat = _int(arg, 0, n_players - 1)
        if verb == "kind":
            if arg in self.spec.event_ids and arg != self.kind:
                self.kind = arg
                self.concealed, self.win_tile, self.melds, self.tool = [], None, [], ""
                self.wall, self.seat = {}, None
                if arg == "wall_end":
                    self._switch_seat(self.first_in_play())
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
                return _error_text(e)
            if t not in self.spec.tiles:
                return gettext("This ruleset does not use %(tile)s.") % {"tile": tile_name(t)}
            self.kong_tile = None if self.kong_tile == t else t
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
            f = _int(fid, 0, 10_000)
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


# ---------------------------------------------------------------- the event's preview


def _transfer_rows(
    names: list[str],
    transfers: list[Mapping[str, Any]],
    reasons: Mapping[str, tuple[str, str]],
) -> list[dict[str, Any]]:
    i = 0 if is_zh() else 1
    return [
        {"from": names[t["from"]], "to": names[t["to"]], "amount": t["amount"],
         "reason": reason_labels(t, reasons)[i]}
        for t in transfers
    ]  # fmt: skip


def _event_outcome(session: GameSession, p: EventPick, now: RoundNow) -> dict[str, Any]:
    """The live result of adding this event: its own payments, fans, checks; never saves."""
    out: dict[str, Any] = {"message": "", "hint": "", "fans": [], "total": None, "amount": None,
                           "seats": [], "transfers": [], "checks": {}, "waits": None,
                           "waits_tap": True, "can_confirm": False,
                           "stale": p.expected != now.count}  # fmt: skip
    if p.kind == "win" and p.mode == "tiles":
        unfinished = _unfinished_hand(session, p, out)
        if unfinished is not None:
            return unfinished
    if p.asks_turned and p.turned is None and p.kind != "kong":
        out["hint"] = gettext("First turn up the tile that decides the wild tiles.")
        return out
    event, missing = p.event()
    if event is None:
        out["hint"] = missing
        if p.kind == "wall_end" and p.n_tiles == STANDING_SIZE:
            # The shown hand is complete but others are not: its waits, not to tap.
            _waits(session, p, out)
            out["hint"], out["waits_tap"] = missing, False
        elif p.kind == "wall_end":
            n = STANDING_SIZE - p.n_tiles
            out["hint"] = ngettext(
                "Tap the tiles of %(name)s's hand: %(n)s more.",
                "Tap the tiles of %(name)s's hand: %(n)s more.",
                n,
            ) % {"n": n, "name": p.names[p.seat] if p.seat is not None else ""}
        return out
    try:
        # The list add_event would settle: the same merge for 一炮多响.
        rs = get_ruleset(session.ruleset)
        events = rs.with_event(list(now.events), event, session.resolved_params(), p.join)
        turned = {"turned": tile_str(p.turned)} if p.turned is not None else {}
        result = evaluate_events(session, events, p.dealer, p.wind, turned).result
    except RuleError as e:
        out["message"] = _error_text(e)
        return out
    i = len(events) - 1
    report = result["events"][i]
    mine = [t for t in result["transfers"]
            if t["event"] == i and (not p.join or t["to"] == p.winner)]  # fmt: skip
    names = list(session.players)
    deltas = [0] * session.n_players
    for t in mine:
        deltas[t["from"]] -= t["amount"]
        deltas[t["to"]] += t["amount"]
    out["seats"] = _seat_rows(names, deltas)
    out["transfers"] = _transfer_rows(names, mine, session.table().reasons)
    if report["type"] == "win":
        won = next(w for w in report["winners"] if w["seat"] == p.winner)
        out["fans"], out["total"] = won.get("fans", []), won.get("total")
        out["amount"] = won.get("amount", sum(t["amount"] for t in mine))
    elif report["type"] == "wall_end":
        out["checks"] = {
            c["seat"]: {**c, "waits": [FACES[parse_tile(w)] for w in c["waits"]]}
            for c in report["checks"]
        }
    out["can_confirm"] = True
    return out


def _event_context(
    request: HtmxHttpRequest, session: GameSession, p: EventPick, now: RoundNow, message: str = ""
) -> dict[str, Any]:
    rs = get_ruleset(session.ruleset)
    result = _event_outcome(session, p, now)
    seats = [
        {"seat": s, "name": name, "dealer": s == p.dealer, "out": s in p.out,
         "winner": s == p.winner, "discarder": p.discarder == str(s), "player": s == p.player}
        for s, name in enumerate(session.players)
    ]  # fmt: skip
    rows: list[list[dict[str, Any]]] = [[], [], [], []]
    wild = set(p.wild_kinds())
    for t in p.spec.tiles:
        row = rows[min(t // 9, 3)]
        if p.kind == "kong":
            row.append({"face": FACES[t], "held": 0, "dim": False, "wild": False,
                        "on": t == p.kong_tile})  # fmt: skip
        else:
            here = Pick.held(p, t)  # the badge: copies in the hand shown
            row.append({"face": FACES[t], "held": here, "dim": p.held(t) >= 4, "wild": t in wild,
                        "on": t == p.turned and p.tool == "turned"})  # fmt: skip
    catalog = p.catalog if p.mode == "quick" else []
    patterns = [
        {**f, "count": p.fans.get(f["id"], 0)} for f in catalog if f.get("group") != "extra"
    ]
    extras = [{**f, "count": p.fans.get(f["id"], 0)} for f in catalog if f.get("group") == "extra"]
    patterns.sort(key=lambda f: (f["points"], f["id"]))
    live = p.event_flags()
    wall_seats = []
    for s in range(session.n_players):
        concealed, wall_melds = p.hand_of(s)
        size = len(concealed) + 3 * len(wall_melds)
        check = result["checks"].get(s)
        wall_seats.append({"seat": s, "name": session.players[s], "out": s in p.out,
                           "active": s == p.seat, "n": size, "complete": size == STANDING_SIZE,
                           "check": check})  # fmt: skip
    checks = [
        {**result["checks"][s], "name": session.players[s]}
        for s in p.in_play()
        if s in result["checks"]
    ]
    last = now.last_discard_win()
    join_offer = None
    if p.kind == "win" and last is not None and p.join_from is not None:
        join_offer = {
            "from": session.players[p.join_from],
            "winners": join_names([session.players[w["seat"]] for w in last.get("winners") or []
                                   if isinstance(w, Mapping) and isinstance(w.get("seat"), int)
                                   and 0 <= w["seat"] < session.n_players]),
        }  # fmt: skip
    tap = request.POST.get("tap") if request.method == "POST" else None
    picking = (p.kind == "win" and p.mode == "tiles") or p.kind == "wall_end"
    picking = picking or (p.asks_turned and p.tool == "turned")
    return {
        "session": session,
        "ruleset": rs,
        "events_mode": True,
        "state": p,
        "hidden": p.hidden(),
        "editing": None,
        "post_url": reverse("scorer:record", args=[session.code]),
        "confirm_url": reverse("scorer:confirm", args=[session.code]),
        "tap_message": message,
        "now": now,
        "seats": seats,
        "others": [s for s in seats if not s["winner"]],
        "kong_from": [s for s in seats if not s["player"]],
        "wall_seats": wall_seats,
        "dealer_name": session.players[p.dealer],
        "where_open": request.method == "POST" and tap is None and "confirm" not in request.POST,
        "grid": [r for r in rows if r],
        "picking": picking,
        **_hand_view(p),
        "event_flags": flag_rows(p, live),
        "asks_turned": p.asks_turned,
        "event_kinds": [{"id": e.id, "label": by_language(e.zh, e.en)} for e in p.spec.events],
        "kong_kinds": [
            {"id": k, "label": meld_labels(p.spec)[tool]}
            for k, tool in (
                ("exposed", "kong"),
                ("added", "added_kong"),
                ("concealed", "concealed_kong"),
            )
        ],  # fmt: skip
        "quick_available": bool(p.catalog),
        "patterns": patterns,
        "extras": extras,
        "checks": checks,
        "join_offer": join_offer,
        "result": result,
        "default_author": author_of(request),
    }


def _render_event(
    request: HtmxHttpRequest,
    session: GameSession,
    p: EventPick,
    now: RoundNow,
    message: str = "",
    status: int = 200,
) -> HttpResponse:
    template = "scorer/record.html#form" if request.htmx else "scorer/record.html"
    ctx = _event_context(request, session, p, now, message)
    if message and message == ctx["result"]["message"]:
        ctx["tap_message"] = ""  # a refused confirm: the preview says it already
    return render(request, template, ctx, status=status)


def _posted_event(
    request: HtmxHttpRequest, session: GameSession, rs: Ruleset, now: RoundNow
) -> tuple[EventPick, str]:
    p = EventPick.read(request.POST, session, rs, now)
    if not p.author:
        p.author = _remembered(request)
    message = p.apply(request.POST.get("tap", ""), session.n_players, rs)
    return p, message


def _record_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    now = _round_now(session)
    if request.method == "POST":
        p, message = _posted_event(request, session, rs, now)
        return _render_event(request, session, p, now, message)
    p = EventPick.fresh_event(session, rs, now, request.GET.get("kind", ""))
    p.author = _remembered(request)
    return _render_event(request, session, p, now)


def _preview_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    now = _round_now(session)
    p, message = _posted_event(request, session, rs, now)
    response = _render_event(request, session, p, now, message)
    completed = request.POST.get("tap", "").startswith("tile:") and p.n_tiles == p.hand_size
    if (
        completed
        and not message
        and p.kind != "kong"
        and (p.kind == "wall_end" or p.mode == "tiles")
    ):
        response["HX-Reswap"] = "innerHTML show:.pk-live:top"
    return response


def _confirm_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    """Add the event the form shows to the round in progress (or start one with it), once."""
    refused = 200 if request.htmx else 400
    done = reverse("scorer:session", args=[session.code])
    now = _round_now(session)
    p = EventPick.read(request.POST, session, rs, now)
    try:
        token = uuid.UUID(p.token)
    except ValueError:
        p.token = str(uuid.uuid4())
        msg = gettext("This form had expired. Check the round and confirm again.")
        return _render_event(request, session, p, now, msg, status=refused)
    if RoundRevision.objects.filter(round__session=session, token=token).exists():
        # A double tap, or a retry after a lost answer: the event is already in.
        return _done(request, done, p)
    event, missing = p.event()
    if event is None:
        return _render_event(request, session, p, now, missing, status=refused)
    position: dict[str, Any] = {"dealer": p.dealer, "prevalent_wind": p.wind}
    if p.turned is not None and p.asks_turned:
        position["turned"] = tile_str(p.turned)  # a round in progress keeps its dealer
    try:
        rnd = session.add_event(
            token,
            event,
            _author(request, p),
            expected=p.expected,
            join_last_win=p.join,
            position=position,
        )
    except RuleError as e:
        now = _round_now(session)
        if p.expected != now.count:
            # Another phone added an event meanwhile: show the round as it is now;
            # the next confirm, made knowing it, goes through.
            p = EventPick.read(
                {**request.POST.dict(), "expected": str(now.count)}, session, rs, now
            )
        return _render_event(request, session, p, now, _error_text(e), status=refused)
    if rnd.in_progress:
        msg = gettext("Added to round %(number)s.") % {"number": rnd.number}
    else:
        msg = gettext("Round %(number)s is over.") % {"number": rnd.number}
    messages.success(request, msg)
    return _done(request, done, p)
