"""What a table offers, declared by the ruleset: the web app renders it and names no ruleset.

A ruleset's `table(params)` answers with one `TableSpec`: the tiles in play,
whether chi is allowed and the prevalent wind counts, the wild tiles (none,
fixed kinds, or derived from a tile turned up at the start of the round), the
flags a win may carry, the kinds of event a round is made of, the counts
entered for each player, and the words for all of them in Chinese and English.
Pages and forms are built from this alone, so a new ruleset needs no view,
template or form of its own (docs/engine.md, "Adding a ruleset").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules.errors import RuleError
from rules.tiles import N_KINDS, SEAT_WINDS, parse_tile, tile_str

ALL_TILES = tuple(range(N_KINDS))
SUITED_TILES = tuple(range(27))
MELD_TOOLS = ("chi", "pung", "kong", "concealed_kong", "added_kong")
EVENT_KINDS = ("win", "draw", "kong", "wall_end")
KONG_KINDS = ("exposed", "added", "concealed")
# Who receives a penalty: split among the other players, or paid to the room (台费 account).
PENALTY_TO = ("others", "room")


def _frozen(d: Mapping[str, tuple[str, str]]) -> Mapping[str, tuple[str, str]]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class WinFlag:
    """A flag a win may carry (the situation's flag of the same name).

    `when`: the wins it can apply to ("any", "self_drawn", "discard").  The
    label may depend on how the win came: `self_drawn` / `discard` are
    (zh, en) pairs used then (杠上开花 / 杠上炮 for one `after_kong`).
    """

    id: str
    zh: str
    en: str
    when: str = "any"
    self_drawn: tuple[str, str] | None = None
    discard: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        assert self.when in ("any", "self_drawn", "discard"), self.when

    def applies(self, self_drawn: bool | None) -> bool:
        """Whether the flag can apply to this win (None: not known yet)."""
        if self_drawn is None or self.when == "any":
            return True
        return self.when == ("self_drawn" if self_drawn else "discard")

    def label(self, self_drawn: bool | None) -> tuple[str, str]:
        if self_drawn is True and self.self_drawn:
            return self.self_drawn
        if self_drawn is False and self.discard:
            return self.discard
        return self.zh, self.en


@dataclass(frozen=True)
class EventKind:
    """A kind of event a round is made of: win, draw (nobody wins, nothing
    shown), kong (paid at once) or wall_end (the wall runs out and the players
    still in show their standing hands)."""

    id: str
    zh: str
    en: str

    def __post_init__(self) -> None:
        assert self.id in EVENT_KINDS, self.id


@dataclass(frozen=True)
class SeatInput:
    """A whole number entered for each player with a win (开口 count, 炮子, 精 held …).

    The round's win event carries them as `"seat_inputs": {"<id>": [n0, n1, …]}`.
    """

    id: str
    zh: str
    en: str
    min: int = 0
    max: int = 9
    default: int = 0
    help_zh: str = ""
    help_en: str = ""
    # Also asked when nobody wins (吉安's 精 are counted at every round's end).
    on_draw: bool = False
    # The count includes the winner's copies of the round's wild kind with this
    # index (吉安: 0 正精, 1 副精): the table starts the winner there and not below.
    counts_wild: int | None = None
    # The winner's value is read from his hand (武汉: his openings and kongs are
    # its melds): the table shows it as such and asks only the others.
    winner_from_hand: bool = False
    # Never below this other input of the same seat (武汉: openings ≥ 明杠, since a
    # 明杠 is a 冲杠 or a 蓄杠 whose 碰 opened), and why, in words a player reads.
    at_least: str | None = None
    why_zh: str = ""
    why_en: str = ""
    # The seats' values together never above this: they count tiles of one kind
    # (吉安's 正精, 北京's 混儿, 武汉's 红中: four in all).
    total_max: int | None = None
    # What those tiles are called where it is not the input's name (武汉: 红中, not 红中杠).
    tiles_zh: str = ""
    tiles_en: str = ""


@dataclass(frozen=True)
class Wilds:
    """The wild tiles (癞子 / 百搭 / 精 / 混儿) of a table.

    mode "none"; "fixed": `tiles` are wild in every round; "turned": a tile is
    turned up at the start of each round and the kind `turned_rule` names is
    wild: "next" (the next kind: 9 → 1 in a suit, round each of `cycles` for
    the honors) or "same" (the turned kind itself).  `count` kinds in a row
    are wild from there (吉安: 正精 and 副精), listed in that order.
    """

    mode: str = "none"
    tiles: tuple[int, ...] = ()
    turned_rule: str = "next"
    count: int = 1
    # The honors' order for "next": 东南西北 round, and 白发中 round by default.
    cycles: tuple[tuple[int, ...], ...] = ((27, 28, 29, 30), (31, 32, 33))
    # An honor left out of every cycle is never wild; turned up, it gives the kind
    # paired with it here (武汉: 中 is skipped, and a turned 中 gives 发).
    outside: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        assert self.mode in ("none", "fixed", "turned"), self.mode
        assert self.turned_rule in ("next", "same"), self.turned_rule
        assert self.count >= 1
        kinds = sorted([*(t for c in self.cycles for t in c), *(a for a, _ in self.outside)])
        assert kinds == list(range(27, 34)), (self.cycles, self.outside)

    def kinds(self, turned: Any = None) -> tuple[int, ...]:
        """The wild kinds of one round; RuleError when the turned tile is needed and bad."""
        if self.mode == "none":
            return ()
        if self.mode == "fixed":
            return self.tiles
        if turned in (None, ""):
            raise RuleError(
                "bad_input",
                "turn up the tile that decides the wild tiles first ('turned')",
                "请先选翻出的牌（定癞子）",
            )
        t = parse_tile(turned)
        if t >= N_KINDS:
            raise RuleError(
                "bad_tile", "a flower cannot decide the wild tiles", "花牌不能用来定癞子"
            )
        first = next_kind(t, self.cycles, self.outside) if self.turned_rule == "next" else t
        out = [first]
        while len(out) < self.count:
            out.append(next_kind(out[-1], self.cycles, self.outside))
        return tuple(out)


def next_kind(
    t: int,
    cycles: tuple[tuple[int, ...], ...] = Wilds.cycles,
    outside: tuple[tuple[int, int], ...] = (),
) -> int:
    """The kind after t: 9 → 1 within a suit; an honor moves on round its cycle
    (by default 东 → 南 → 西 → 北 → 东 and 白 → 发 → 中 → 白); one left out of the
    cycles gives the kind `outside` pairs it with."""
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    for c in cycles:
        if t in c:
            return c[(c.index(t) + 1) % len(c)]
    for a, b in outside:
        if a == t:
            return b
    raise ValueError(t)


@dataclass(frozen=True)
class Match:
    """A match of a fixed number of hands: four 圈 of one deal per player (国标比赛:
    16 hands, no 连庄), the players changing seats between 圈, rank points at the end.

    `seatings[q]` is the play order in 圈 q (E, S, W, N of its first hand) as offsets
    from the first dealer: the competition rules' 换位 — after the East round East
    and South change places and West and North do; after the South round the East
    player moves to West, West to South, South to North and North to East; after the
    West round East and South, and West and North, change again.  Every player
    deals once in each 圈 and starts each 圈 in a different seat.
    """

    rounds: int = 4
    seatings: tuple[tuple[int, ...], ...] = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))
    rank_points: tuple[int, ...] = (4, 2, 1, 0)

    @property
    def players(self) -> int:
        return len(self.seatings[0])

    @property
    def hands(self) -> int:
        return self.rounds * self.players

    def order(self, wind: str, first: int) -> tuple[int, ...]:
        """The seats in play order during the 圈 of that wind."""
        q = SEAT_WINDS.index(wind) % len(self.seatings)
        return tuple((first + o) % self.players for o in self.seatings[q])

    def hand(self, k: int, first: int) -> tuple[int, str]:
        """(dealer, round wind) of the match's hand k (0-based)."""
        q, i = divmod(k, self.players)
        wind = SEAT_WINDS[q % 4]
        return self.order(wind, first)[i], wind

    def index(self, dealer: int, wind: str, first: int) -> int | None:
        """Which hand of the match a (dealer, wind) is; None when it is none of them."""
        if wind not in SEAT_WINDS or SEAT_WINDS.index(wind) >= self.rounds:
            return None
        order = self.order(wind, first)
        if dealer not in order:
            return None
        return SEAT_WINDS.index(wind) * self.players + order.index(dealer)


def seat_wind_in(seat: int, dealer: int, order: tuple[int, ...] | None, players: int) -> str:
    """A seat's wind with the dealer East: round the play order (the seats' own order
    when the players have not changed places)."""
    if order is None:
        return SEAT_WINDS[(seat - dealer) % players]
    return SEAT_WINDS[(order.index(seat) - order.index(dealer)) % players]


UNITS = ("fan", "point")
COMPOSES = ("sum", "double", "flat", "factors")


@dataclass(frozen=True)
class Scoring:
    """How a table counts a win, so that a page shows the working the way the
    ruleset counts rather than as a sum of fans.

    `unit`: "fan" (番) or "point" (分), the word after a result's total.
    `compose`: "sum" (the fans add up to the total); "double" (a flat value ×2
    per item: each fan is a ×2); "flat" (every shape is worth the same: the
    fan names the shape, the amounts come from the working); "factors" (a base
    times each player's factors).  Where it is not "sum" the result carries
    `working` / `working_zh`: the lines that make the amounts ("5 × 2 × 2 = 20").
    """

    unit: str = "fan"
    compose: str = "sum"

    def __post_init__(self) -> None:
        assert self.unit in UNITS, self.unit
        assert self.compose in COMPOSES, self.compose


@dataclass(frozen=True)
class PenaltyKind:
    """A penalty a ruleset declares (武汉's and 陕西's 逃跑, 国标's 错和): a round event
    `{"type": "penalty", "penalty": id, "seat": s}` charging one player.  How much is
    the ruleset's `penalty_amount`; who receives it is the value of the parameter
    `to_param` (one of PENALTY_TO), so a room decides without the core naming a ruleset.

    `inputs`: the table's per-seat inputs the amount reads (陕西's 炮子), given on the
    event as `seat_inputs`.  `ends_round`: the round is over with it (逃跑: 游戏结束);
    otherwise the hand plays on (错和)."""

    id: str
    zh: str
    en: str
    help_zh: str
    help_en: str
    to_param: str
    inputs: tuple[str, ...] = ()
    ends_round: bool = True


@dataclass(frozen=True)
class TableSpec:
    """Everything a table needs to know of a ruleset besides scoring."""

    tiles: tuple[int, ...] = ALL_TILES
    chi: bool = True
    prevalent_wind: bool = True  # a 圈风 moves round the table
    flowers: int = 0  # the most flowers a hand may show (0: no flowers)
    wilds: Wilds = Wilds()
    flags: tuple[WinFlag, ...] = ()
    events: tuple[EventKind, ...] = (
        EventKind("win", "和牌", "Win"),
        EventKind("draw", "荒庄", "Drawn hand"),
    )
    multi_win: bool = False  # 一炮多响: several players may win on one discard
    # How a standing hand may be told at the wall's end instead of shown (花猪 is
    # a 缺一门 table's; one without it offers only 没听牌 / 听牌).
    wall_statuses: tuple[str, ...] = ("pig", "not_ready", "ready")
    continues_after_win: bool = False  # 血战: the others play on after a win
    seat_inputs: tuple[SeatInput, ...] = ()
    # The table asks who each meld of a winning hand was claimed from (the
    # situation's `claimed_from`; 武汉's 承包 of a 清一色 turns on it).
    meld_sources: bool = False
    # (zh, en) labels of the meld tools (and "turned", the turned-tile button, and
    # "wild", its wild tiles' name) where the ruleset calls them otherwise.
    meld_labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # Transfer reason code -> (zh, en), as the ledger prints it.
    reasons: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # A match of fixed length with seat changes and rank points (国标比赛), or None.
    match: Match | None = None
    # Penalties the ruleset declares (a `penalty` event charges one of them).
    penalties: tuple[PenaltyKind, ...] = ()
    # Its unit and how a result is composed (see Scoring).
    scoring: Scoring = Scoring()

    def __post_init__(self) -> None:
        ids = [e.id for e in self.events]
        assert "win" in ids, "every table has wins"
        object.__setattr__(self, "meld_labels", _frozen(self.meld_labels))
        penalties = {f"penalty_{p.id}": (p.zh, p.en) for p in self.penalties}
        object.__setattr__(
            self, "reasons", _frozen({**DEFAULT_REASONS, **penalties, **self.reasons})
        )

    @property
    def event_ids(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.events)

    @property
    def stepwise(self) -> bool:
        """Whether money moves before a round ends (a kong pays at once, 血战 goes
        on after a win): the table then records a round event by event."""
        return self.continues_after_win or any(e.id in ("kong", "wall_end") for e in self.events)

    @property
    def melds(self) -> tuple[str, ...]:
        return MELD_TOOLS if self.chi else MELD_TOOLS[1:]

    @property
    def has_honors(self) -> bool:
        return any(t >= 27 for t in self.tiles)

    def event(self, kind: str) -> EventKind | None:
        return next((e for e in self.events if e.id == kind), None)

    def penalty(self, penalty_id: Any) -> PenaltyKind | None:
        return next((p for p in self.penalties if p.id == penalty_id), None)

    def flag(self, flag_id: str) -> WinFlag | None:
        return next((f for f in self.flags if f.id == flag_id), None)

    def reason(self, code: str) -> tuple[str, str]:
        return self.reasons.get(code, (code, code))


DEFAULT_REASONS = {
    "win": ("和牌", "Win"),
    "win_discard": ("点炮", "Won on a discard"),
    "win_self_drawn": ("自摸", "Self-drawn"),
    "kong_exposed": ("明杠", "Exposed kong"),
    "kong_added": ("加杠", "Added kong"),
    "kong_concealed": ("暗杠", "Concealed kong"),
}


def describe_table(spec: TableSpec) -> dict[str, Any]:
    """The declaration as JSON (CLI `rulesets`, the API)."""
    return {
        "tiles": [tile_str(t) for t in spec.tiles],
        "chi": spec.chi,
        "prevalent_wind": spec.prevalent_wind,
        "flowers": spec.flowers,
        "wilds": {
            "mode": spec.wilds.mode,
            "tiles": [tile_str(t) for t in spec.wilds.tiles],
            "turned_rule": spec.wilds.turned_rule,
            "count": spec.wilds.count,
        },
        "flags": [{"id": f.id, "zh": f.zh, "en": f.en, "when": f.when} for f in spec.flags],
        "events": [{"id": e.id, "zh": e.zh, "en": e.en} for e in spec.events],
        "multi_win": spec.multi_win,
        "wall_statuses": list(spec.wall_statuses),
        "match": None
        if spec.match is None
        else {
            "hands": spec.match.hands,
            "seatings": [list(s) for s in spec.match.seatings],
            "rank_points": list(spec.match.rank_points),
        },
        "continues_after_win": spec.continues_after_win,
        "scoring": {"unit": spec.scoring.unit, "compose": spec.scoring.compose},
        "seat_inputs": [
            {
                "id": s.id,
                "zh": s.zh,
                "en": s.en,
                "min": s.min,
                "max": s.max,
                "on_draw": s.on_draw,
                "default": s.default,
                "counts_wild": s.counts_wild,
                "winner_from_hand": s.winner_from_hand,
                "at_least": s.at_least,
            }
            for s in spec.seat_inputs
        ],
        "reasons": {k: list(v) for k, v in spec.reasons.items()},
        "penalties": [
            {
                "id": p.id,
                "zh": p.zh,
                "en": p.en,
                "to_param": p.to_param,
                "inputs": list(p.inputs),
                "ends_round": p.ends_round,
            }
            for p in spec.penalties
        ],  # fmt: skip
    }


__all__ = [
    "EventKind",
    "KONG_KINDS",
    "Match",
    "PENALTY_TO",
    "PenaltyKind",
    "seat_wind_in",
    "SeatInput",
    "Scoring",
    "TableSpec",
    "Wilds",
    "WinFlag",
    "describe_table",
    "next_kind",
]
