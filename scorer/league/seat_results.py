"""What a closed table leaves each seat: place, points, 标准分, hands, wins, self-draws,
deal-ins, the biggest hand and the fans scored, read once from its standing rounds.

No model: the rounds come in as plain `Line`s (scorer/models/results.py reads them
off a table under its lock), so that the same figures are made by the close, by a
rewrite, by the data migration and by a test rebuilding them from scratch.

Places are a competition's ranks (two seats tied for first are both 1st and the next
is 3rd), and 标准分 is `settleup.standard_points`, shared on ties ("并列者平分"),
kept in twelfths of a point: a share of up to four places is a whole number of
twelfths, so sums stay exact in the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scorer.clean.parse import int_or_none
from scorer.money.settleup import standard_points

# 标准分 by place when the season says nothing else: the match tournaments' 4/2/1/0 for
# four seats, their top places for fewer (a table may seat two to four).
PLACE_POINTS: dict[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (4, 2, 0), 2: (4, 0)}
TWELFTHS = 12  # every share of up to four places' points is a whole number of these


def place_points(n_players: int) -> tuple[int, ...]:
    return PLACE_POINTS.get(n_players, tuple(range(n_players - 1, -1, -1)))


@dataclass(frozen=True)
class Line:
    """One standing round of a table, as stored (its current version)."""

    number: int
    kind: str  # win, draw, round (hands), fee, adjust, penalty (no hands)
    entry: Mapping[str, Any]
    result: Mapping[str, Any]
    deltas: Sequence[int]
    fees: Sequence[int] = ()  # what each seat paid the room in this round (台费, 抽水)

    @property
    def is_hand(self) -> bool:
        return self.kind in ("win", "draw", "round")


@dataclass
class SeatFigures:
    """One seat's figures over a table."""

    seat: int
    points: int = 0
    place: int = 0
    standard_12: int = 0  # 标准分 × 12
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    win_fans: int = 0  # the fans of his wins, summed (average fan = win_fans / wins)
    win_points: int = 0  # what his wins brought him, summed
    top_win: int | None = None  # the most one win brought him
    best_fans: int | None = None
    best_points: int | None = None
    best_round: int | None = None
    best_hand: dict[str, Any] = field(default_factory=dict)  # tiles and fans, to draw it
    fans: dict[str, list[Any]] = field(default_factory=dict)  # zh -> [en, count]
    fed: dict[str, int] = field(default_factory=dict)  # winner seat -> his deal-ins to him


@dataclass(frozen=True)
class Win:
    """One win of a round: its winner, discarder, fans, value and tiles."""

    winner: int
    discarder: int | None
    fans: list[Mapping[str, Any]]
    total: int | None
    amount: int
    hand: Mapping[str, Any]


def wins_of(line: Line) -> list[Win]:
    """Every win of one round: a round recorded whole is one win or a draw; a round of
    events has a win event per discard, and one discard several players won on
    (一炮多响) is a win for each of them."""
    entry, result = line.entry, line.result
    if entry.get("kind") == "win":
        w, d = entry.get("winner"), entry.get("discarder")
        if w in (None, ""):
            return []
        seat = int(w)
        fee = line.fees[seat] if seat < len(line.fees) else 0
        return [Win(seat, int(d) if d not in (None, "") else None, list(result.get("fans") or []),
                    _int(result.get("total")), int(line.deltas[seat]) + fee,
                    _tiles(entry))]  # fmt: skip
    out: list[Win] = []
    for ev, done in zip(entry.get("events") or [], result.get("events") or [], strict=False):
        if not (isinstance(done, Mapping) and done.get("type") == "win"):
            continue
        d = done.get("discarder")
        typed = {w.get("seat"): w for w in ev.get("winners") or [] if isinstance(w, Mapping)}
        ds = done.get("deltas") or []
        for w in done.get("winners") or []:
            if isinstance(w, Mapping) and isinstance(w.get("seat"), int):
                seat = w["seat"]
                got = int(ds[seat]) if seat < len(ds) else int(w.get("amount") or 0)
                out.append(Win(seat, d if isinstance(d, int) else None,
                               list(w.get("fans") or []), _int(w.get("total")), got,
                               _tiles(typed.get(seat) or {})))  # fmt: skip
    return out


def discards_of(line: Line) -> list[tuple[int, list[int]]]:
    """(discarder, its winners) once per discard won on: one discard several players
    won on (一炮多响) is one 点炮, as the players count it."""
    wins = wins_of(line)
    if line.entry.get("kind") == "win":
        return [(w.discarder, [w.winner]) for w in wins if w.discarder is not None]
    out: list[tuple[int, list[int]]] = []
    for done in line.result.get("events") or []:
        if isinstance(done, Mapping) and done.get("type") == "win" and done.get("winners"):
            d = done.get("discarder")
            if isinstance(d, int):
                seats = [w["seat"] for w in done["winners"] if isinstance(w, Mapping)
                         and isinstance(w.get("seat"), int)]  # fmt: skip
                out.append((d, seats))
    return out


def _int(raw: Any) -> int | None:
    """A stored result's whole number (a fan total), None for anything else."""
    return int_or_none(raw)


def _tiles(entry: Mapping[str, Any]) -> dict[str, Any]:
    hand = entry.get("hand") if isinstance(entry.get("hand"), Mapping) else None
    return dict(hand) if hand else {}


def places(points: Sequence[int]) -> list[int]:
    """Each seat's place, as a competition ranks: ties share the better place."""
    return [1 + sum(1 for q in points if q > p) for p in points]


def shared(points: Sequence[int], by_place: Sequence[int]) -> list[Fraction]:
    """Points by place shared on ties (`settleup.standard_points`)."""
    return standard_points(points, tuple(by_place))


def table_figures(lines: Sequence[Line], n_players: int, counts_fans: bool) -> list[SeatFigures]:
    """Each seat's figures over a table's standing rounds (oldest first).
    `counts_fans`: the ruleset counts fans (番), so a hand's size is its fans; else its points."""
    seats = [SeatFigures(seat=s) for s in range(n_players)]
    for line in lines:
        for s, d in enumerate(line.deltas[:n_players]):
            seats[s].points += int(d)
        if not line.is_hand:
            continue
        for fig in seats:
            fig.hands += 1
        for win in wins_of(line):
            if not 0 <= win.winner < n_players:
                continue
            _add_win(seats[win.winner], win, line.number, counts_fans)
        for discarder, winners in discards_of(line):
            if 0 <= discarder < n_players:
                seats[discarder].deal_ins += 1
                for w in winners:
                    seats[discarder].fed[str(w)] = seats[discarder].fed.get(str(w), 0) + 1
    totals = [f.points for f in seats]
    for fig, place, std in zip(
        seats, places(totals), shared(totals, place_points(n_players)), strict=True
    ):
        fig.place = place
        fig.standard_12 = int(std * TWELFTHS)
    return seats


def _add_win(fig: SeatFigures, win: Win, number: int, counts_fans: bool) -> None:
    fig.wins += 1
    fig.self_draws += win.discarder is None
    fig.win_fans += win.total or 0
    fig.win_points += win.amount
    fig.top_win = win.amount if fig.top_win is None else max(fig.top_win, win.amount)
    for fan in win.fans:
        zh = str(fan.get("name_zh") or fan.get("id"))
        count = int(fan.get("count") or 1)
        en_count = fig.fans.setdefault(zh, [str(fan.get("name_en") or zh), 0])
        en_count[1] += count
    size = (win.total or 0, win.amount) if counts_fans else (win.amount, win.total or 0)
    best = (
        (fig.best_fans or 0, fig.best_points or 0)
        if counts_fans
        else (fig.best_points or 0, fig.best_fans or 0)
    )
    if fig.best_round is None or size > best:
        fig.best_fans, fig.best_points, fig.best_round = win.total, win.amount, number
        fig.best_hand = {
            "tiles": win.hand,
            "fans": [
                [str(f.get("name_zh") or ""), str(f.get("name_en") or ""), f.get("points")]
                for f in win.fans
            ],  # fmt: skip
        }


__all__ = [
    "PLACE_POINTS",
    "TWELFTHS",
    "Line",
    "SeatFigures",
    "Win",
    "discards_of",
    "place_points",
    "places",
    "shared",
    "table_figures",
    "wins_of",
]
