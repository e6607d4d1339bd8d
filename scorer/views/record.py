"""Record a round, and correct one: the event, the tile picker or quick entry, a live preview.

The whole page is one form.  Its state lives in hidden inputs (see `Pick`),
and every tap is a `<button name="tap" value="...">`: with htmx the form posts
to `preview`, which applies the tap and answers with the form's inside again
(fans, total, payments, waits, messages); without JavaScript the same buttons
post the form to the record (or edit) page, which does the same and renders
the whole page.  Nothing is scored here: every number on the page comes from
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
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from rules import RuleError, waits
from rules.registry import Ruleset, get_ruleset
from rules.tiles import N_KINDS, parse_tile, parse_tiles, tile_en, tile_str, tile_zh, tiles_str
from scorer.access import round_or_404, session_or_404
from scorer.models import GameSession, Round
from scorer.scoring import WINDS, evaluate, refusal, seat_wind
from scorer.views import HtmxHttpRequest, author_of

HAND_SIZE = 14  # a kong counts 3 here, as in the situation format
MELD_TYPES = ("chi", "pung", "kong", "concealed_kong", "added_kong")
TOOLS = (*MELD_TYPES, "win")
FLAGS = ("after_kong", "robbing_kong", "last_tile", "fourth_tile")
MAX_FLOWERS = 8
# Quick entry lists the everyday fan groups (up to 8 points, the MCR minimum) open,
# cheapest first; the rarer, bigger groups are folded under their points.
QUICK_OPEN_MAX = 8
AUTHOR_COOKIE = "mj_author"
AUTHOR_MAX = 40

_NUM_ZH = "一二三四五六七八九"
_SUIT_ZH = "万筒条"


def _is_zh() -> bool:
    return (get_language() or "").startswith("zh")


def _tile_name(t: int) -> str:
    return tile_zh(t) if _is_zh() else tile_en(t)


def _wind_name(w: str) -> str:
    t = 27 + WINDS.index(w)
    return tile_zh(t) if _is_zh() else tile_en(t)


def _error_text(e: RuleError) -> str:
    """The engine's message in the reader's language."""
    return e.message_zh if _is_zh() else e.message


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
        return self.zh if _is_zh() else self.en


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

    # -- reading ---------------------------------------------------------

    @classmethod
    def fresh(cls, session: GameSession) -> Pick:
        dealer, wind = _next_position(session)
        return cls(token=str(uuid.uuid4()), dealer=dealer, wind=wind)

    @classmethod
    def from_post(cls, data: Mapping[str, str], session: GameSession, rs: Ruleset) -> Pick:
        """The state the form sent; anything unreadable falls back to empty, never an error."""
        n = session.n_players
        dealer = _int(data.get("dealer"), 0, n - 1)
        wind = data.get("wind", "")
        if dealer is None or wind not in WINDS:
            proposed = _next_position(session)
            dealer = proposed[0] if dealer is None else dealer
            wind = wind if wind in WINDS else proposed[1]
        p = cls(token=data.get("token", ""), dealer=dealer, wind=wind)
        p.kind = "draw" if data.get("kind") == "draw" else "win"
        p.winner = _int(data.get("winner"), 0, n - 1)
        d = data.get("discarder", "")
        seat = _int(d, 0, n - 1)
        p.discarder = "self" if d == "self" else ("" if seat is None else str(seat))
        if p.winner is not None and p.discarder == str(p.winner):
            p.discarder = ""
        p.mode = "quick" if data.get("mode") == "quick" and rs.fan_catalog() else "tiles"
        usable = set(rs.tiles)
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
            if mtype in MELD_TYPES and t in usable and _meld_tiles(mtype, t) is not None:
                p.melds.append((mtype, t))
        p.tool = data.get("tool", "") if data.get("tool", "") in TOOLS else ""
        p.flags = {f for f in data.get("flags", "").split(",") if f in FLAGS}
        p.flowers = _int(data.get("flowers"), 0, MAX_FLOWERS) or 0
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
        p.base = rev.number
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
                if mtype in MELD_TYPES and tiles:
                    p.melds.append((mtype, min(tiles)))
        except (RuleError, AttributeError, TypeError):
            pass  # an entry this page cannot show: the picker starts from what it read
        p.flags = {f for f in FLAGS if hand.get(f) is True}
        p.flowers = _int(hand.get("flowers", 0), 0, MAX_FLOWERS) or 0
        return p

    # -- derived ---------------------------------------------------------

    @property
    def self_drawn(self) -> bool:
        return self.discarder == "self"

    @property
    def n_tiles(self) -> int:
        return len(self.concealed) + (self.win_tile is not None) + 3 * len(self.melds)

    def held(self, t: int) -> int:
        """Copies of tile kind t in the hand: standing, win tile and melds."""
        n = self.concealed.count(t) + (self.win_tile == t)
        for mtype, low in self.melds:
            n += (_meld_tiles(mtype, low) or []).count(t)
        return n

    def live_flags(self) -> set[str]:
        """The flags that apply: 杠上开花 only self-drawn, 抢杠和 only on a discard."""
        flags = set(self.flags)
        if self.discarder == "self":
            flags.discard("robbing_kong")
        elif self.discarder:
            flags.discard("after_kong")
        return flags

    def hand(self) -> dict[str, Any]:
        """The `hand` of a tiles entry: the situation's tile fields (see docs/situation.md)."""
        h: dict[str, Any] = {"concealed": tiles_str(self.concealed)}
        if self.win_tile is not None:
            h["win_tile"] = tile_str(self.win_tile)
        if self.melds:
            h["melds"] = [_meld_dict(mtype, low) for mtype, low in self.melds]
        for f in FLAGS:
            if f in self.live_flags():
                h[f] = True
        if self.flowers:
            h["flowers"] = self.flowers
        return h

    def entry(self) -> dict[str, Any]:
        """The entry for scorer.scoring / record_round / revise."""
        where = {"dealer": self.dealer, "prevalent_wind": self.wind}
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
            "flags": ",".join(f for f in FLAGS if f in self.flags),
            "flowers": str(self.flowers),
            "fans": ",".join(f"{k}:{v}" for k, v in sorted(self.fans.items())),
            "base": "" if self.base is None else str(self.base),
        }

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
        elif verb == "tool" and arg in TOOLS:
            self.tool = "" if self.tool == arg else arg
        elif verb == "tile":
            return self._tap_tile(arg, rs)
        elif verb == "hand":
            return self._tap_hand(arg)
        elif verb == "meld" and (i := _int(arg, 0, len(self.melds) - 1)) is not None:
            del self.melds[i]
        elif verb == "flag" and arg in FLAGS:
            self.flags ^= {arg}
        elif verb == "flowers" and arg in ("+", "-"):
            self.flowers = max(0, min(MAX_FLOWERS, self.flowers + (1 if arg == "+" else -1)))
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
        if t not in rs.tiles or t >= N_KINDS:
            return gettext("This ruleset does not use %(tile)s.") % {"tile": _tile_name(t)}
        tool, self.tool = self.tool, ""  # a tool acts on one tap
        if tool == "win":
            return self._make_win_tile(t)
        if tool in MELD_TYPES:
            return self._add_meld(tool, t)
        if self.n_tiles >= HAND_SIZE:
            return gettext("The hand is complete: tap a tile of the hand to take it back first.")
        if self.held(t) >= 4:
            return _all_four(t)
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
            return gettext("%(tile)s is not in the hand.") % {"tile": _tile_name(t)}
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
            ) % {"tile": _tile_name(t)}
        if len(self.melds) >= 4:
            return gettext("A hand has at most four melds.")
        if self.n_tiles + 3 > HAND_SIZE:
            return gettext("No room for another meld: take tiles back first.")
        for k in sorted(set(tiles)):
            if self.held(k) + tiles.count(k) > 4:
                return _all_four(k)
        self.melds.append((mtype, t))
        return ""


def _all_four(t: int) -> str:
    return gettext("There are only four %(tile)s: all of them are in the hand already.") % {
        "tile": _tile_name(t)
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


def _outcome(session: GameSession, p: Pick) -> dict[str, Any]:
    """The live result: fans, total, payments, waits, or what is still missing; never saves."""
    out: dict[str, Any] = {"message": "", "hint": "", "fans": [], "total": None, "win": False,
                           "seats": [], "payments": [], "waits": None, "can_confirm": False}  # fmt: skip
    if p.kind == "win":
        if p.mode == "tiles":
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
        notes = result.get("notes_zh" if _is_zh() else "notes") or [""]
        out["hint"] = notes[-1]
        out["can_confirm"] = True
    elif (err := refusal(result)) is not None:
        out["message"] = _error_text(err)
    else:
        out["can_confirm"] = True
    names = session.players
    deltas = result.get("deltas") or [0] * session.n_players
    out["seats"] = [
        {"name": names[s], "delta": _signed(d), "sign": (d > 0) - (d < 0)}
        for s, d in enumerate(deltas)
    ]
    out["payments"] = [
        {"from": names[x["from"]], "to": names[x["to"]], "amount": x["amount"]}
        for x in result.get("payments", [])
    ]
    return out


def _waits(session: GameSession, p: Pick, out: dict[str, Any]) -> dict[str, Any]:
    """One tile short: the engine's waits, shown as tiles to tap."""
    hand = p.hand()
    tiles = sorted((*p.concealed, *([p.win_tile] if p.win_tile is not None else [])))
    sit = {"ruleset": session.ruleset, "params": dict(session.params),
           "concealed": tiles_str(tiles), "melds": hand.get("melds", [])}  # fmt: skip
    w = waits(sit)
    if not w["ok"]:
        e = w["error"]
        out["message"] = e["message_zh"] if _is_zh() else e["message"]
        return out
    out["waits"] = [FACES[parse_tile(c)] for c in w["waits"]]
    out["hint"] = (
        gettext("One tile short: tap the winning tile.")
        if out["waits"]
        else gettext("No tile completes this hand.")
    )
    return out


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
    for t in rs.tiles:
        if t < N_KINDS:
            held = p.held(t)
            rows[min(t // 9, 3)].append(
                {"face": FACES[t], "held": held, "dim": held >= 4 or (p.tool == "chi" and (t >= 27 or t % 9 > 6))}
            )  # fmt: skip
    melds = [
        {"i": i, "type": mtype, "tiles": [FACES[t] for t in _meld_tiles(mtype, low) or []]}
        for i, (mtype, low) in enumerate(p.melds)
    ]
    standing = sorted((*p.concealed, *([] if p.win_tile is None else [p.win_tile])))
    complete = p.n_tiles == HAND_SIZE
    catalog = rs.fan_catalog() if p.mode == "quick" else []
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
    flags = [f for f in FLAGS if not ((f == "after_kong" and p.discarder and not p.self_drawn)
                                      or (f == "robbing_kong" and p.self_drawn))]  # fmt: skip
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
        # The win tile stands apart once the hand is complete; before, it is just the last tile.
        "hand_tiles": [FACES[t] for t in (p.concealed if complete else standing)],
        "win_face": FACES[p.win_tile] if complete and p.win_tile is not None else None,
        "melds": melds,
        "n_tiles": p.n_tiles,
        "hand_slots": range(max(0, HAND_SIZE - p.n_tiles)),  # the hand's empty places
        "hand_size": HAND_SIZE,
        "flags": [(f, f in live) for f in flags],
        "uses_flowers": "flower_points" in rs.defaults,
        "quick_available": bool(rs.fan_catalog()),
        "fan_groups": fan_groups,
        "result": _outcome(session, p),
        "default_author": author_of(request),
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
    # Imported here to keep this change to confirm's own lines; may move to the top.

    messages.success(request, gettext("Round %(number)s recorded.") % {"number": rnd.number})
    return _done(request, reverse("scorer:session", args=[session.code]), p)


@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """Correct a past round: the record form prefilled; confirming adds a revision."""
    session = session_or_404(code)
    rnd = round_or_404(session, number)
    if rnd.current is None:
        raise Http404("this round has no version to correct")
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
