"""The record page as the template shows it (`RecordPage`), for both flows: a round
picked whole (`Pick`, a win or a draw) and one event of a round recorded event by
event (`EventPick`, 四川-style tables).

`record_page` is the one path from a form's state to the page: the seats, the
tile grid, the hand, the per-seat counts, the live result (scorer/record/result.py)
and the part only its flow has (`WholeRound` or `Events`).  The template reads the
model's attributes by name (`RecordPage.context`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from rules.registry import Ruleset, get_ruleset
from rules.tiles import N_KINDS, SEAT_WINDS
from scorer.clean.parse import MAX_SEAT, int_or_none
from scorer.entry.event_pick import STANDING_SIZE, EventPick
from scorer.entry.pick import Pick
from scorer.entry.round_now import RoundNow
from scorer.language import by_language, seat_name
from scorer.models import GameSession, Round
from scorer.present.events import join_names
from scorer.present.fan_list import fan_groups
from scorer.present.seats import seat_columns
from scorer.present.words import author_label, name_seats, refusal_words, round_label
from scorer.record.picker import (
    FACES,
    Face,
    flag_rows,
    hand_view,
    meld_labels,
    seat_input_grid,
    seat_input_rows,
    wind_name,
)
from scorer.record.result import Outcome, ToldClaim, outcome, told_claim
from scorer.templatetags.scorer_format import sign_class


@dataclass(frozen=True)
class Asked:
    """What of the request the page shows beyond the form's state."""

    tap: str | None  # the request's (last) tap; None on a GET or when a select changed
    where_open: bool  # a select changed: dealer and wind stay open
    me_seat: int | None  # who this phone is at the table


@dataclass(frozen=True)
class SeatButton:
    """A seat as the winner, discarder, dealer and kong rows offer it."""

    seat: int
    name: str
    dealer: bool
    winner: bool
    discarder: bool
    wind: str = ""  # its seat wind (a round picked whole)
    out: bool = False  # won already in this round (events): not to pick
    player: bool = False  # the kong's player (events)


@dataclass(frozen=True)
class GridTile:
    """One button of the tile grid."""

    face: Face
    held: int  # the badge: copies in the hand shown
    dim: bool  # no more copies to add (or none the tool can take)
    wild: bool
    on: bool  # the tile chosen (the turned tile, the kong's tile)


@dataclass(frozen=True)
class RoundSummary:
    """A round's current version as the form shows it beside the entry: who recorded
    it, its result, each seat's points (a round taken meanwhile, or the correction
    another phone made)."""

    number: int
    version: int
    author: str
    undone: bool
    winners: Sequence[str]
    total: Any
    draw: bool
    deltas: Sequence[Mapping[str, Any]]
    url: str
    label: str = ""  # what the page calls it: "第 3 局", "第 4 行：调整" (words.line_label)
    next: int | None = None  # a round taken meanwhile: the "第 N 局" the entry would be


@dataclass(frozen=True)
class FlagButton:
    id: str
    on: bool
    label: str
    note: str  # why the tiles make it count for nothing


@dataclass(frozen=True)
class WholeRound:
    """What only a round picked whole shows."""

    winds: Sequence[tuple[str, str]]
    seat_wind: str
    round_wind: str
    flags: Sequence[FlagButton]
    uses_flowers: bool
    fan_groups: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class WallSeat:
    """A seat on the wall's end switcher: how far its hand is, or how it stands."""

    seat: int
    name: str
    out: bool
    active: bool
    n: int
    complete: bool
    check: Mapping[str, Any] | None


@dataclass(frozen=True)
class Events:
    """What only an event of a round recorded event by event shows."""

    now: RoundNow
    kong_from: Sequence[SeatButton]
    wall_seats: Sequence[WallSeat]
    picking: bool  # tiles are tapped on the picker
    event_flags: Sequence[tuple[str, bool, str]]
    kong_kinds: Sequence[Mapping[str, str]]
    patterns: Sequence[Mapping[str, Any]]
    extras: Sequence[Mapping[str, Any]]
    checks: Sequence[Mapping[str, Any]]
    told: str
    told_patterns: Sequence[Mapping[str, Any]]
    told_extras: Sequence[Mapping[str, Any]]
    told_claim: ToldClaim | None
    join_offer: Mapping[str, str] | None


@dataclass(frozen=True)
class RecordPage:
    """The record page (or its form's inside) for one state of the form."""

    session: GameSession
    ruleset: Ruleset
    state: Pick
    hidden: Mapping[str, str]
    editing: Round | None
    post_url: str
    confirm_url: str
    tap_message: str
    seats: Sequence[SeatButton]
    seat_cols: int | None
    others: Sequence[SeatButton]
    dealer_name: str
    where_open: bool
    grid: Sequence[Sequence[GridTile]]
    hand: Mapping[str, Any]  # the hand as shown (scorer/record/picker.py)
    asks_turned: bool
    seat_inputs: Sequence[Mapping[str, Any]]
    seat_input_grid: Sequence[Mapping[str, Any]]
    event_kinds: Sequence[Mapping[str, str]]
    quick_available: bool
    result: Outcome
    taken: RoundSummary | None
    me_seat: int | None
    flow: WholeRound | Events
    stale: RoundSummary | None = None  # a correction made from an older version
    changed_tiles: frozenset[int] = frozenset()  # a plain tile tap's answer: the buttons to swap
    # A 确认 the server did not record, and why: said next to 确认 (never silent).
    refused: str = ""
    # A step of a round of events being corrected (scorer/views/record_edit_events.py):
    # its place among the round's steps; its 确认 goes back to the correction's list.
    step: int | None = None

    def with_step(self, i: int) -> RecordPage:
        """This page as the form of step `i` of the round it corrects."""
        return replace(self, step=i, hidden={**self.hidden, "step": str(i)})

    @property
    def events_mode(self) -> bool:
        return isinstance(self.flow, Events)

    def context(self) -> dict[str, Any]:
        """The template's names: the hand's, the page's and its flow's attributes."""
        own = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("hand", "flow")
        }
        flow = {f.name: getattr(self.flow, f.name) for f in fields(self.flow)}
        return {**self.hand, **own, **flow, "events_mode": self.events_mode}


def tile_grid(p: Pick) -> list[list[GridTile]]:
    """The picker's grid, a row per suit and one of honors.  An event's kong tile is
    only chosen; otherwise each tile says how many the hand shows and whether more
    can be added (an event counts the other shown hands' copies as well)."""
    rows: list[list[GridTile]] = [[], [], [], []]
    wild = set(p.wild_kinds())
    chosen = p.chosen_tile
    for t in p.spec.tiles:
        if t >= N_KINDS:
            continue
        if p.choosing_tile:
            tile = GridTile(FACES[t], held=0, dim=False, wild=False, on=t == chosen)
        else:
            dim = p.held(t) >= 4 or (p.tool == "chi" and (t >= 27 or t % 9 > 6))
            tile = GridTile(FACES[t], held=Pick.held(p, t), dim=dim, wild=t in wild,
                            on=t == chosen)  # fmt: skip
        rows[min(t // 9, 3)].append(tile)
    return [r for r in rows if r]


@dataclass(frozen=True)
class FlowPart:
    """What record_page takes from the form's own flow: the live result, the seats,
    the part of the page only that flow has."""

    result: Outcome
    seats: list[SeatButton]
    flow: WholeRound | Events
    quick_available: bool
    asks_turned: bool


def record_page(
    session: GameSession,
    p: Pick,
    asked: Asked,
    message: str = "",
    editing: Round | None = None,
) -> RecordPage:
    """The page for this state of the form (`editing`: the round it corrects)."""
    rs = get_ruleset(session.ruleset)
    names = list(session.players)
    taken = taken_round(session, p, p.open_number) if editing is None else None
    part = p.by_flow(
        lambda whole: _whole_part(session, rs, whole, asked, taken is not None),
        lambda event: _event_part(session, event, taken is not None),
    )
    result, seats = part.result, part.seats
    result = replace(result, message=refusal_words(result.message, names),
                     hint=name_seats(result.hint, names))  # fmt: skip
    if editing is not None:
        post_url = confirm_url = reverse("scorer:edit", args=[session.code, editing.number])
    else:
        post_url = reverse("scorer:record", args=[session.code])
        confirm_url = reverse("scorer:confirm", args=[session.code])
    seat_inputs = seat_input_rows(p, names)
    return RecordPage(
        session=session,
        ruleset=rs,
        state=p,
        hidden=p.hidden(),
        editing=editing,
        post_url=post_url,
        confirm_url=confirm_url,
        tap_message=refusal_words(message, names),
        seats=seats,
        # Names alike at the start: fewer seats on a line, each name told apart.
        seat_cols=seat_columns(session.players),
        others=[s for s in seats if not s.winner],
        dealer_name=names[p.dealer],
        where_open=asked.where_open,
        grid=tile_grid(p),
        hand=hand_view(p),
        asks_turned=part.asks_turned,
        seat_inputs=seat_inputs,
        seat_input_grid=seat_input_grid(seat_inputs, tapped_seat(asked.tap)),
        event_kinds=[{"id": e.id, "label": by_language(e.zh, e.en)} for e in p.spec.events],
        quick_available=part.quick_available,
        result=result,
        taken=taken,
        me_seat=asked.me_seat,
        flow=part.flow,
    )


def _whole_part(session: GameSession, rs: Ruleset, p: Pick, asked: Asked, taken: bool) -> FlowPart:
    """A round picked whole: its result, the seats with their winds, its flags and fans."""
    result = outcome(session, p, taken)
    winds = session.rules.seat_winds(p.dealer, p.wind)
    seats = [
        SeatButton(s, name, dealer=s == p.dealer, winner=s == p.winner,
                   discarder=p.discarder == str(s), wind=wind_name(winds[s]))
        for s, name in enumerate(session.players)
    ]  # fmt: skip
    flow = _whole_round(session, rs, p, result, asked, winds)
    quick = bool(rs.fan_catalog(session.rules.params))
    return FlowPart(result, seats, flow, quick, p.spec.wilds.mode == "turned")


def _event_part(session: GameSession, p: EventPick, taken: bool) -> FlowPart:
    """An event of the round in progress: its result, the seats (who is out, the
    kong's player), its kinds, kongs, wall's end and joining."""
    assert p.now is not None  # read or made fresh against the round
    result = outcome(session, p, taken)
    seats = [
        SeatButton(s, name, dealer=s == p.dealer, winner=s == p.winner,
                   discarder=p.discarder == str(s), out=s in p.out, player=s == p.player)
        for s, name in enumerate(session.players)
    ]  # fmt: skip
    flow = _events(session, p, p.now, result, seats)
    return FlowPart(result, seats, flow, bool(p.catalog), p.asks_turned)


def tapped_seat(tap: str | None) -> int | None:
    """The seat whose per-seat count was just tapped: its fold stays open."""
    verb, _, rest = (tap or "").partition(":")
    if verb != "seat_input":
        return None
    seat = rest.split(":")[1] if rest.count(":") >= 2 else ""
    return int_or_none(seat, 0, MAX_SEAT)


def _whole_round(
    session: GameSession,
    rs: Ruleset,
    p: Pick,
    result: Outcome,
    asked: Asked,
    winds: Sequence[str],
) -> WholeRound:
    catalog = rs.fan_catalog(session.rules.params) if p.mode == "quick" else []
    # Folded parts of the page are re-rendered on every tap: keep open what was just used.
    verb, _, arg = (asked.tap or "").partition(":")
    tapped_fan = int_or_none(arg.partition(":")[0], 0, 10_000) if verb == "fan" else None
    picked = (
        fan_groups(catalog, p.fans, {"fans": result.fans}, tapped_fan, rs.fan_help())
        if catalog
        else []
    )
    return WholeRound(
        winds=[(w, wind_name(w)) for w in SEAT_WINDS],
        seat_wind=wind_name(winds[p.winner]) if p.winner is not None else "",
        round_wind=wind_name(p.wind),
        flags=[
            FlagButton(fid, on, label, result.flag_notes.get(fid, "") if on else "")
            for fid, on, label in flag_rows(p, p.live_flags())
        ],
        uses_flowers=p.spec.flowers > 0,
        fan_groups=picked,
    )


def _events(
    session: GameSession,
    p: EventPick,
    now: RoundNow,
    result: Outcome,
    seats: list[SeatButton],
) -> Events:
    names = list(session.players)
    catalog = p.catalog if p.mode == "quick" else []
    helped = get_ruleset(session.ruleset).fan_help()
    patterns = [
        {**f, "count": p.fans.get(f["id"], 0), "help": f["id"] in helped}
        for f in catalog
        if f.get("group") != "extra"
    ]
    extras = [{**f, "count": p.fans.get(f["id"], 0)} for f in catalog if f.get("group") == "extra"]
    wall_seats = []
    for s in range(session.n_players):
        concealed, wall_melds = p.hand_of(s)
        size = len(concealed) + 3 * len(wall_melds)
        check = result.checks.get(s)
        if check is None and p.told(s):
            check = {"status": p.told(s)}  # told: its word on the switcher, not "0/13"
        wall_seats.append(WallSeat(s, names[s], out=s in p.out, active=s == p.seat, n=size,
                                   complete=size == STANDING_SIZE, check=check))  # fmt: skip
    told = p.told(p.seat) if p.kind == "wall_end" else ""
    told_fans = p.wall_fans.get(p.seat, {}) if told == "ready" and p.seat is not None else {}
    # A ready hand's claim counts its patterns, never what only a win brings
    # (a catalog's "flag" group: 杠上花, 抢杠 …).
    told_patterns = [{**f, "count": told_fans.get(f["id"], 0)} for f in p.catalog
                     if f.get("group") not in ("extra", "flag")]  # fmt: skip
    told_extras = [{**f, "count": told_fans.get(f["id"], 0)} for f in p.catalog
                   if f.get("group") == "extra"]  # fmt: skip
    last = now.last_discard_win()
    join_offer = None
    if p.kind == "win" and last is not None and p.join_from is not None:
        join_offer = {
            "from": names[p.join_from],
            "winners": join_names([names[w["seat"]] for w in last.get("winners") or []
                                   if isinstance(w, Mapping) and isinstance(w.get("seat"), int)
                                   and 0 <= w["seat"] < session.n_players]),
        }  # fmt: skip
    picking = (p.kind == "win" and p.mode == "tiles") or p.kind == "wall_end"
    labels = meld_labels(p.spec)
    return Events(
        now=now,
        kong_from=[s for s in seats if not s.player],
        wall_seats=wall_seats,
        picking=picking or (p.asks_turned and p.tool == "turned"),
        event_flags=flag_rows(p, p.event_flags()),
        kong_kinds=[
            {"id": k, "label": labels[tool]}
            for k, tool in (
                ("exposed", "kong"),
                ("added", "added_kong"),
                ("concealed", "concealed_kong"),
            )
        ],  # fmt: skip
        patterns=sorted(patterns, key=lambda f: (f["points"], f["id"])),
        extras=extras,
        checks=[{**result.checks[s], "name": names[s]} for s in p.in_play() if s in result.checks],
        told=told,
        told_patterns=sorted(told_patterns, key=lambda f: (f["points"], f["id"])),
        told_extras=told_extras,
        told_claim=told_claim(session, p, now) if told == "ready" else None,
        join_offer=join_offer,
    )


# ---------------------------------------------------------------- a round recorded meanwhile


def taken_round(
    session: GameSession, p: Pick, open_number: int | None = None
) -> RoundSummary | None:
    """The round another phone recorded after this form was opened for it, as the
    form shows it (who recorded it, its result); None while the form is current.

    `open_number`: the round in progress this form adds events to, which is the
    round it was opened for, not one taken from it.
    """
    if p.for_round is None or p.for_round == open_number:
        return None
    next_number = session.next_number()
    if p.for_round >= next_number:
        return None
    rnd = (
        session.rounds.filter(number__gte=p.for_round)
        .select_related("current")
        .order_by("-number")
        .first()
    )
    if rnd is None or rnd.current is None:
        return None
    return replace(round_summary(session, rnd), next=session.next_hand_number())


def round_summary(session: GameSession, rnd: Round) -> RoundSummary:
    """A round's current version as the form shows it beside the entry."""
    rev = rnd.current
    assert rev is not None
    names = list(session.players)
    result = rev.result if isinstance(rev.result, dict) else {}
    return RoundSummary(
        number=rnd.number,
        version=rev.number,
        author=author_label(rev.author),
        undone=rnd.status != Round.ACTIVE,
        winners=[seat_name(names, w) for w in rev.winners or []],
        total=result.get("total") if rev.kind == "win" else None,
        draw=rev.kind == "draw",
        deltas=[
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
        url=reverse("scorer:round", args=[session.code, rnd.number]),
        label=round_label(rnd),
    )


def refusal(page: RecordPage, message: str) -> RecordPage:
    """The page answering a 确认 that recorded nothing: the bar says "not recorded"
    and why, whatever the reason (the engine's, a missing choice, another phone's
    round or correction shown above).  A tap on 确认 is always answered."""
    why = refusal_words(message, list(page.session.players)) or page.result.message
    if not why and page.taken is not None:
        why = gettext("another phone has recorded this round meanwhile (shown above).")
    if not why:
        why = page.result.hint or gettext("check the entry, then confirm again.")
    return replace(page, refused=why)
