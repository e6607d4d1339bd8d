"""A round as its ordered events, settled: the one path every table ruleset records through.

    {"ruleset": "<id>", "params": {...}, "players": 4, "dealer": 0,
     "prevalent_wind": "E", "turned": "5m",
     "events": [
       {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2, "tile": "7p"},
       {"type": "win", "discarder": 0, "after_kong": false, ...,
        "winners": [{"seat": 2, "hand": {"concealed": "...", "win_tile": "...", ...}}]},
       {"type": "draw"}
     ]}

A ruleset whose money moves only at the win has rounds of one event (a win or
a draw); one whose kongs pay at once has kong events before it.  Each event
moves money at once; the result lists every transfer with its event and
reason, the deltas per event and in all, who is out and whether the round is
over.  What differs between rulesets is asked of them through hooks (the
`Ruleset` protocol below): the money of a kong, of the wall's end, of the
round's end, of a penalty; and where a ruleset reads and reports its kongs
and wins in a form of its own, those events whole (`settle_kong`,
`settle_win`, on this module's state and ledger), its words and its checks
over the whole round.  Every table ruleset settles here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

from rules.errors import RuleError
from rules.hand import FLAGS, Hand, Table, parse_situation
from rules.params import ParamValues
from rules.results import (
    EventReport,
    Handover,
    HandResult,
    RoundBody,
    Transfer,
    WinnerReport,
)
from rules.seat_inputs import read_seat_inputs, wild_order, with_winner
from rules.table import KONG_KINDS, TableSpec, seat_wind_in
from rules.tiles import N_KINDS, SEAT_WINDS, parse_tile, tile_en, tile_str, tile_zh
from rules.values import fan_counts, flower_count, is_whole, one_of, whole_in


class Ruleset(Protocol):
    """What settling a round asks of a ruleset (rules.registry.Ruleset is one; the
    registry imports this module for its default `settle_round`, so it is named
    here only by what is used)."""

    @property
    def players(self) -> tuple[int, ...]: ...

    def table(self, params: ParamValues | None = None) -> TableSpec: ...

    def score_hand(self, hand: Hand, params: ParamValues) -> HandResult: ...

    def seat_inputs_from_hand(self, hand: Hand, params: ParamValues) -> Mapping[str, int]: ...

    def quick_score(
        self, fans: Mapping[int, int], flowers: int, table: Table, self_drawn: bool,
        params: ParamValues, flags: AbstractSet[str] = frozenset(),
    ) -> HandResult: ...  # fmt: skip

    def kong_payments(
        self, kind: str, player: int, discarder: int | None, in_play: Sequence[int],
        params: ParamValues,
    ) -> list[tuple[int, int]]: ...  # fmt: skip

    def round_end_payments(
        self, seat_inputs: Mapping[str, list[int]], players: int, dealer: int,
        params: ParamValues,
    ) -> RoundEnd | None: ...  # fmt: skip

    def wall_end(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport: ...

    def kong_handover(self, params: ParamValues) -> bool: ...

    @property
    def round_players(self) -> tuple[int, ...]: ...

    @property
    def unfinished_words(self) -> tuple[str, str]: ...

    def unknown_event(self, spec: TableSpec, etype: Any, i: int) -> RuleError: ...

    def settle_kong(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport: ...

    def settle_win(self, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport: ...

    def round_checked(self, state: RoundState) -> None: ...

    def penalty_amount(
        self, penalty: str, seat: int, seat_inputs: Mapping[str, list[int]], players: int,
        params: ParamValues,
    ) -> Penalty: ...  # fmt: skip


@dataclass(frozen=True)
class RoundEnd:
    """Money that moves when a round ends, winner or not (吉安's 精分): each
    transfer as (from, to, amount, reason), and what it was, in both languages."""

    transfers: tuple[tuple[int, int, int, str], ...]
    notes: tuple[str, ...] = ()
    notes_zh: tuple[str, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Penalty:
    """What a declared penalty charges one player, and its working in both languages."""

    amount: int
    notes: tuple[str, ...] = ()
    notes_zh: tuple[str, ...] = ()


DRAW_NOTES = (["drawn hand: nobody pays"], ["荒庄：不计分"])
UNFINISHED = ("the round is not over yet: add the next event", "这一局还没结束：继续记下一件事")


# What a winner's report keeps of the hand's result (score_hand / quick_score).
WINNER_KEYS = (
    "fans",
    "total",
    "multiplier",
    "value",
    "notes",
    "notes_zh",
    "working",  # how the amounts came, as the table counts (rules.table.Scoring)
    "working_zh",
    "terms",  # the working as numbers, per payer (rules/working.py)
    "flags_dropped",  # flags the tiles contradict, with why
    "excluded",  # quick entry: fans another picked fan excludes (不计)
    "losers",  # what each loser pays and why, where losers pay differently (武汉)
    "contractor",  # the player who pays for all (承包), or None
)


def winner_report(seat: int, result: HandResult) -> WinnerReport:
    """A winner's report: his seat and what his hand's result has of WINNER_KEYS, in
    that order.  (Each of WINNER_KEYS is a key of both HandResult and WinnerReport
    with the same type: tests/rules/test_results.py holds it, so the cast is sound.)"""
    got: Mapping[str, object] = result
    return cast("WinnerReport", {"seat": seat, **{k: got[k] for k in WINNER_KEYS if k in got}})


def seat_wind(seat: int, dealer: int, players: int, seating: tuple[int, ...] | None = None) -> str:
    """The dealer sits East; the others follow in play order (`seating`: the seats in
    play order where the players have changed places, 国标比赛's 换位)."""
    return seat_wind_in(seat, dealer, seating, players)


def event_error(message: str, message_zh: str) -> RuleError:
    """An event that does not fit the round (bad_event)."""
    return RuleError("bad_event", message, message_zh)


def event_where(i: int) -> tuple[str, str]:
    """How a message names the event it comes from, en and zh."""
    return f"event {i + 1}", f"第 {i + 1} 个事件"


def event_seat(
    raw: Any, players: int, what: str, what_zh: str, i: int, required: bool = True,
    code: str = "bad_table",
) -> Any:  # fmt: skip
    """A seat an event names, checked (None where it may be left out)."""
    where, where_zh = event_where(i)
    if raw is None and not required:
        return None
    if not whole_in(raw, 0, players - 1):
        raise RuleError(
            code,
            f"{where}: '{what}' must be a seat from 0 to {players - 1}, not {raw!r}",
            f"{where_zh}：{what_zh}必须是 0 到 {players - 1} 的座位号",
        )
    return raw


@dataclass
class Ledger:
    """Every transfer of a round, in order, with the event it belongs to and why."""

    players: int
    reasons: Mapping[str, tuple[str, str]]
    transfers: list[Transfer] = field(default_factory=list)

    def pay(
        self, frm: int, to: int | None, amount: int, reason: str, event: int,
        fans: int | None = None, kong_event: int | None = None,
    ) -> None:  # fmt: skip
        """`to` None: paid to the room (台费's account), outside the players' zero-sum.
        `fans`, `kong_event`: what a ruleset's transfers may say besides (the win's
        fans; the kong whose money is handed over or refunded)."""
        if amount <= 0 or frm == to:
            return
        zh, en = self.reasons.get(reason, (reason, reason))
        t: Transfer = {"event": event, "from": frm, "to": to, "amount": amount, "reason": reason,
                       "reason_zh": zh, "reason_en": en}  # fmt: skip
        if fans is not None:
            t["fans"] = fans
        if kong_event is not None:
            t["kong_event"] = kong_event
        self.transfers.append(t)

    def deltas(self, first: int = 0) -> list[int]:
        d = [0] * self.players
        for t in self.transfers[first:]:
            d[t["from"]] -= t["amount"]
            if t["to"] is not None:
                d[t["to"]] += t["amount"]
        return d

    def room_take(self) -> int:
        """What the round's transfers paid the room: with the deltas, zero."""
        return sum(t["amount"] for t in self.transfers if t["to"] is None)


@dataclass
class RoundState:
    """What the events of one round have done so far."""

    rs: Ruleset
    params: ParamValues
    spec: TableSpec
    players: int
    dealer: int
    prevalent_wind: str
    turned: Any  # the round's turned tile (where the table takes its wild tiles from one)
    ledger: Ledger
    wild: tuple[int, ...] | None = None  # the round's wild kinds given outright (no turned tile)
    seat_inputs: dict[str, list[int]] = field(default_factory=dict)  # the finishing event's
    out: list[int] = field(default_factory=list)  # seats that have won, in order
    shown: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    robbed: frozenset[int] = frozenset()  # kong events robbed (抢杠): they never happened
    last_kong: tuple[int, int] | None = None  # (event, player) of the latest kong
    seating: tuple[int, ...] | None = None  # the seats in play order, where they changed

    @property
    def in_play(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]


def settle_events(rs: Ruleset, rnd: Mapping[str, Any], params: ParamValues) -> RoundBody:
    """Replay a round's events; RuleError on the first bad one (nothing is half-settled)."""
    players, dealer, wind = round_seats(rnd, rs.round_players)
    events = rnd.get("events")
    if not isinstance(events, list) or not events:
        raise event_error(
            "a round needs a non-empty list 'events'", "这一局还没有任何事件（events）"
        )
    spec = rs.table(params)
    state = RoundState(
        rs, params, spec, players, dealer, wind, rnd.get("turned"),
        Ledger(players, spec.reasons), _round_wild(spec, rnd.get("wild")),
        robbed=robbed_kongs(events), seating=_seating(rnd.get("seating"), players),
    )  # fmt: skip
    kinds = spec.event_ids + (("penalty",) if spec.penalties else ())
    reports: list[EventReport] = []
    finished = False
    for i, ev in enumerate(events):
        where, where_zh = event_where(i)
        if not isinstance(ev, Mapping):
            raise event_error(f"{where} must be an object", f"{where_zh}格式不对")
        etype = ev.get("type")
        if etype not in kinds:
            raise rs.unknown_event(spec, etype, i)
        if finished:
            raise event_error(
                f"{where}: the round is already over", f"{where_zh}：这一局已经结束，不能再记事件"
            )
        first = len(state.ledger.transfers)
        if etype == "win":
            report = rs.settle_win(state, ev, i)
            finished = not spec.continues_after_win or len(state.out) >= players - 1
        elif etype == "kong":
            report = rs.settle_kong(state, ev, i)
        elif etype == "penalty":
            report, ends = _penalty(state, ev, i)
            finished = ends
        elif etype == "wall_end":  # the standing hands are checked (查大叫) by the ruleset
            report = state.rs.wall_end(state, ev, i)
            finished = True
        else:  # draw: nobody wins, nothing shown
            report = {"type": etype, "index": i, "notes": DRAW_NOTES[0], "notes_zh": DRAW_NOTES[1]}
            # Checked even where a drawn round asks nothing: anything given is refused.
            state.seat_inputs = read_seat_inputs(
                spec, ev.get("seat_inputs"), players, on_draw=True, where=event_where(i)
            )[0]
            finished = True
        if finished:
            _round_end(state, report, i)
        report["deltas"] = state.ledger.deltas(first)
        reports.append(report)
    rs.round_checked(state)
    return round_result(
        players, reports, state.ledger.transfers, state.ledger.deltas(), state.out, finished,
        rs.unfinished_words, state.ledger.room_take(),
    )  # fmt: skip


def unknown_event(spec: TableSpec, etype: Any, i: int) -> RuleError:
    """An event of a type the table does not have, its own listed."""
    where, where_zh = event_where(i)
    kinds = spec.event_ids + (("penalty",) if spec.penalties else ())
    return event_error(
        f"{where}: unknown type {etype!r} ({', '.join(kinds)})",
        f"{where_zh}：这种规则没有这类事件（{'、'.join(e.zh for e in spec.events)}"
        f"{'、罚分' if spec.penalties else ''}）",
    )


def round_seats(rnd: Mapping[str, Any], allowed: Sequence[int]) -> tuple[int, int, str]:
    """A round's `players`, `dealer` and `prevalent_wind`, checked (defaults 4, 0, E):
    whole numbers only, since 4.0 == 4 would pass `in` and break every list of seats."""
    players = rnd.get("players", 4)
    if not one_of(players, tuple(allowed)):
        raise RuleError(
            "bad_table",
            f"'players' must be one of {', '.join(str(n) for n in allowed)}",
            f"人数必须是 {'、'.join(str(n) for n in allowed)}",
        )
    dealer = rnd.get("dealer", 0)
    if not whole_in(dealer, 0, players - 1):
        raise RuleError("bad_table", "'dealer' must be a seat number", "庄家必须是座位号")
    wind = rnd.get("prevalent_wind", "E")
    if not isinstance(wind, str) or wind not in SEAT_WINDS:
        raise RuleError("bad_input", "the round wind must be E, S, W or N", "圈风只能是东南西北")
    return players, dealer, wind


def round_result(
    players: int,
    reports: list[EventReport],
    transfers: list[Transfer],
    deltas: list[int],
    out: list[int],
    finished: bool,
    unfinished: tuple[str, str],
    room_take: int = 0,
) -> RoundBody:
    """A settled round in the one form every ruleset answers with (`unfinished`: what
    to say, en and zh, while the round is not over).  `room_take`: what a penalty paid
    the room (transfers `to` null): the players' deltas and it sum to zero."""
    assert sum(deltas) + room_take == 0, (deltas, room_take)
    return {
        "players": players,
        "events": reports,
        "transfers": transfers,
        "deltas": deltas,
        "out": out,
        "finished": finished,
        "notes": [] if finished else [unfinished[0]],
        "notes_zh": [] if finished else [unfinished[1]],
        "room_take": room_take,
    }


def _round_wild(spec: TableSpec, raw: Any) -> tuple[int, ...] | None:
    """A round's wild kinds given outright (`"wild": ["5m", "6m"]`, in the table's
    order: 吉安's 正精 then 副精) instead of the turned tile they follow from."""
    if raw in (None, "", []):
        return None
    if spec.wilds.mode != "turned":
        raise RuleError(
            "bad_input", "this table's wild tiles are not chosen per round", "这桌不用每局定癞子"
        )
    items = raw.split() if isinstance(raw, str) else raw
    if not isinstance(items, list) or len(items) != spec.wilds.count:
        raise RuleError(
            "bad_input",
            f"'wild' lists the round's {spec.wilds.count} wild kinds",
            f"“wild”要列出这一局的 {spec.wilds.count} 种癞子",
        )
    kinds = tuple(parse_tile(t) for t in items)
    if any(t >= N_KINDS or t not in spec.tiles for t in kinds) or len(set(kinds)) != len(kinds):
        raise RuleError(
            "bad_tile", "the wild kinds must be different tiles of this table",
            "癞子必须是这桌牌里不同的牌",
        )  # fmt: skip
    return kinds


def _seating(raw: Any, players: int) -> tuple[int, ...] | None:
    """The round's seats in play order (`"seating": [1, 0, 3, 2]`), where the players
    have changed places; None for the seats' own order."""
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or not all(map(is_whole, raw))
        or sorted(raw) != list(range(players))
    ):
        raise RuleError(
            "bad_table",
            f"'seating' lists every seat from 0 to {players - 1} once, in play order",
            f"座次（seating）要按出牌顺序把 0 到 {players - 1} 每个座位列一次",
        )
    return tuple(raw)


def robbed_kongs(events: Sequence[Any]) -> frozenset[int]:
    """抢杠: an added kong robbed by a win on its tile was never made and pays
    nothing ("他家可以搶杠而胡,刮風下雨無效", seed 002).  The indexes of the added
    kongs recorded just before a robbing win whose discarder is their player."""
    robbed: set[int] = set()
    for i, ev in enumerate(events):
        if i == 0 or not isinstance(ev, Mapping) or not isinstance(events[i - 1], Mapping):
            continue
        before = events[i - 1]
        if (
            ev.get("type") == "win"
            and ev.get("robbing_kong") is True
            and before.get("type") == "kong"
            and before.get("kong") == "added"
            and before.get("player") == ev.get("discarder")
        ):
            robbed.add(i - 1)
    return frozenset(robbed)


def round_wild(state: RoundState) -> tuple[int, ...]:
    """The round's wild kinds: given outright, or from the turned tile."""
    if state.wild is not None:
        return state.wild
    return state.spec.wilds.kinds(state.turned)


def _round_end(state: RoundState, report: EventReport, i: int) -> None:
    """Money the ruleset moves when the round ends (精分), into the last event."""
    end = state.rs.round_end_payments(state.seat_inputs, state.players, state.dealer, state.params)
    if end is None:
        return
    for frm, to, amount, reason in end.transfers:
        state.ledger.pay(frm, to, amount, reason, i)
    report["round_end"] = {
        "notes": list(end.notes), "notes_zh": list(end.notes_zh), **dict(end.detail),
    }  # fmt: skip


def _penalty(state: RoundState, ev: Mapping[str, Any], i: int) -> tuple[EventReport, bool]:
    """A declared penalty (逃跑, 错和): the ruleset says how much the player is charged,
    the table's parameter who receives it: split among the others (in play order
    from the player's right) or paid to the room.  The odd points of a split go one
    each to the others in turn, starting `odd_from` places along (the table's count
    of earlier penalties: scorer/models.py), so that they do not fall on the same
    seats every time (500 three ways: 167, 167, 166, then 166, 167, 167 …)."""
    where, where_zh = event_where(i)
    kind = state.spec.penalty(ev.get("penalty"))
    if kind is None:
        known = ", ".join(p.id for p in state.spec.penalties)
        raise event_error(
            f"{where}: unknown penalty {ev.get('penalty')!r} ({known})",
            f"{where_zh}：这种规则没有这种罚分（{'、'.join(p.zh for p in state.spec.penalties)}）",
        )
    seat = event_seat(ev.get("seat"), state.players, "seat", "被罚的人", i)
    if seat in state.out:
        raise event_error(
            f"{where}: seat {seat} has already won", f"{where_zh}：这位玩家已经和牌了"
        )
    asked = replace(state.spec, seat_inputs=tuple(
        s for s in state.spec.seat_inputs if s.id in kind.inputs))  # fmt: skip
    inputs = read_seat_inputs(asked, ev.get("seat_inputs"), state.players, where=event_where(i))[0]
    charge = state.rs.penalty_amount(kind.id, seat, inputs, state.players, state.params)
    to = state.params.get(kind.to_param, "others")
    reason = f"penalty_{kind.id}"
    if to == "room":
        state.ledger.pay(seat, None, charge.amount, reason, i)
        to_zh, to_en = "交给房间", "paid to the room"
    else:
        n = state.players
        others = [(seat + k) % n for k in range(1, n)]
        if state.seating is not None:  # play order where the players changed places
            at = state.seating.index(seat)
            others = [state.seating[(at + k) % n] for k in range(1, n)]
        share, odd = divmod(charge.amount, len(others))
        start = _odd_from(ev, where, where_zh) % len(others)
        for k, s in enumerate(others):
            state.ledger.pay(seat, s, share + (1 if (k - start) % len(others) < odd else 0),
                             reason, i)  # fmt: skip
        to_zh, to_en = "其他玩家平分", "split among the others"
    report: EventReport = {
        "type": "penalty", "index": i, "penalty": kind.id, "seat": seat,
        "amount": charge.amount, "to": "room" if to == "room" else "others",
        "notes": [*charge.notes, f"{kind.en}: {charge.amount}, {to_en}"],
        "notes_zh": [*charge.notes_zh, f"{kind.zh}：扣 {charge.amount}，{to_zh}"],
    }  # fmt: skip
    if inputs:
        report["seat_inputs"] = inputs
    return report, kind.ends_round


def _odd_from(ev: Mapping[str, Any], where: str, where_zh: str) -> int:
    raw = ev.get("odd_from", 0)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 100_000:
        raise event_error(
            f"{where}: 'odd_from' must be a whole number from 0",
            f"{where_zh}：odd_from 必须是不小于 0 的整数",
        )
    return raw


def settle_kong(state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
    """A kong event: checked, reported, paid at once (`Ruleset.kong_payments`)."""
    where, where_zh = event_where(i)
    player = event_seat(ev.get("player"), state.players, "player", "杠牌的人", i)
    kind = ev.get("kong")
    if kind not in KONG_KINDS:
        raise event_error(
            f"{where}: 'kong' must be exposed, added or concealed", f"{where_zh}：杠的种类不对"
        )
    if player in state.out:
        raise event_error(
            f"{where}: seat {player} has already won", f"{where_zh}：这位玩家已经和牌了"
        )
    discarder = None
    if kind == "exposed":
        discarder = event_seat(ev.get("discarder"), state.players, "discarder", "放杠的人", i)
        if discarder == player:
            raise event_error(
                f"{where}: a kong is not made on one's own discard", f"{where_zh}：不能杠自己打的牌"
            )
    report: EventReport = {"type": "kong", "index": i, "player": player, "kong": kind}
    if discarder is not None:
        report["discarder"] = discarder
    if ev.get("tile") not in (None, ""):
        t = parse_tile(ev["tile"])
        if t not in state.spec.tiles:
            raise RuleError(
                "bad_tile",
                f"{where}: this table has no {tile_en(t)}",
                f"{where_zh}：这桌牌里没有{tile_zh(t)}",
            )
        report["tile"] = tile_str(t)
    state.last_kong = (i, player)
    if i in state.robbed:
        if kind != "added":  # (robbed_kongs picks added kongs only)
            raise AssertionError(kind)
        report["void"] = True
        report["notes"] = ["robbed (抢杠): the kong was never made and pays nothing"]
        report["notes_zh"] = ["被抢杠：这个杠不算，不收钱"]
        return report
    pay_kong(state, kind, player, discarder, i)
    return report


def pay_kong(state: RoundState, kind: str, player: int, discarder: int | None, i: int) -> None:
    """A kong's money, paid at its event by those `Ruleset.kong_payments` names."""
    in_play = state.in_play
    for payer, amount in state.rs.kong_payments(kind, player, discarder, in_play, state.params):
        state.ledger.pay(payer, player, amount, f"kong_{kind}", i)


def _flags(ev: Mapping[str, Any], hand: Mapping[str, Any]) -> dict[str, bool]:
    """The win's flags: set on the event (one for every winner) or in the hand."""
    return {f: True for f in FLAGS if ev.get(f) is True or hand.get(f) is True}


def settle_win(state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
    """A win event: each winner scored (tiles or picked fans) and paid."""
    where, where_zh = event_where(i)
    n = state.players
    discarder = event_seat(ev.get("discarder"), n, "discarder", "放炮者", i, required=False)
    winners = ev.get("winners")
    if not isinstance(winners, list) or not winners:
        raise event_error(
            f"{where}: a win needs 'winners'", f"{where_zh}：和牌要有和牌者（winners）"
        )
    if len(winners) > 1 and (discarder is None or not state.spec.multi_win):
        raise event_error(
            f"{where}: only one player wins here",
            f"{where_zh}：{'自摸只能一家和' if discarder is None else '这种规则一炮只能一家和'}",
        )
    if discarder is not None and discarder in state.out:
        raise event_error(
            f"{where}: the discarder has already won", f"{where_zh}：放炮的人已经和牌了"
        )
    self_drawn = discarder is None
    seat_inputs, given = read_seat_inputs(
        state.spec, ev.get("seat_inputs"), n, where=event_where(i)
    )
    state.seat_inputs = seat_inputs
    seen_win_tiles: set[int] = set()
    reports: list[WinnerReport] = []
    for w in winners:
        if not isinstance(w, Mapping):
            raise event_error(
                f"{where}: each winner must be an object", f"{where_zh}：和牌者格式不对"
            )
        seat = event_seat(w.get("seat"), n, "seat", "和牌者", i)
        if seat == discarder:
            raise RuleError("bad_table", "the winner cannot be the discarder", "和牌者不能是放炮者")
        if seat in state.out:
            raise event_error(
                f"{where}: seat {seat} has already won", f"{where_zh}：这位玩家已经和牌了"
            )
        table = Table(n, state.dealer, seat, discarder)
        if "fans" in w:
            result = _quick(state, w, table, self_drawn, frozenset(_flags(ev, w)))
        else:
            result = _scored(state, ev, w, seat, table, self_drawn, seen_win_tiles, given, i)
        if not result.get("win"):
            notes = result.get("notes") or ["not a legal win"]
            notes_zh = result.get("notes_zh") or ["不能和牌"]
            raise RuleError("not_a_win", notes[-1], notes_zh[-1], detail=result)
        reason = "win"
        for p in result.get("payments") or []:
            state.ledger.pay(p["from"], p["to"], p["amount"], p.get("reason") or reason, i)
        state.out.append(seat)
        reports.append(winner_report(seat, result))
    report: EventReport = {"type": "win", "index": i, "discarder": discarder, "winners": reports}
    if discarder is not None and state.rs.kong_handover(state.params) and _after_kong(ev, winners):
        report["handover"] = _hand_over(state, discarder, [r["seat"] for r in reports], i)
    return report


def _after_kong(ev: Mapping[str, Any], winners: Sequence[Any]) -> bool:
    return ev.get("after_kong") is True or any(
        isinstance(w, Mapping) and isinstance(w.get("hand"), Mapping)
        and w["hand"].get("after_kong") is True for w in winners
    )  # fmt: skip


def _hand_over(state: RoundState, discarder: int, seats: Sequence[int], i: int) -> Handover:
    """杠上炮 where the table hands the kong's money to the winner (each winner, on
    一炮多响): the kong is the event just before, declared by the discarder."""
    where, where_zh = event_where(i)
    got = sum(
        t["amount"] for t in state.ledger.transfers
        if t["event"] == i - 1 and t["to"] == discarder and t["reason"].startswith("kong_")
    )  # fmt: skip
    if state.last_kong != (i - 1, discarder):
        raise event_error(
            f"{where}: winning on a kong's discard needs the discarder's kong right before it",
            f"{where_zh}：杠上炮要放炮者刚杠过牌，可是上一个事件不是他的杠",
        )
    for s in seats:
        state.ledger.pay(discarder, s, got, "kong_handover", i)
    return {"kong_event": i - 1, "amount": got}


def _quick(
    state: RoundState, w: Mapping[str, Any], table: Table, self_drawn: bool,
    flags: AbstractSet[str],
) -> HandResult:  # fmt: skip
    fans = fan_counts(w.get("fans") or {})
    flowers = flower_count(w.get("flowers"))
    return state.rs.quick_score(fans, flowers, table, self_drawn, state.params, flags)


def _scored(
    state: RoundState,
    ev: Mapping[str, Any],
    w: Mapping[str, Any],
    seat: int,
    table: Table,
    self_drawn: bool,
    seen_win_tiles: set[int],
    given: frozenset[str],
    i: int,
) -> HandResult:
    hand = w.get("hand")
    if not isinstance(hand, Mapping):
        raise RuleError("bad_input", "the winning hand is missing", "请先选好和牌的牌")
    sit: dict[str, Any] = {
        **hand,
        **_flags(ev, hand),
        "self_drawn": self_drawn,
        "seat_wind": seat_wind(seat, state.dealer, state.players, state.seating),
        "prevalent_wind": state.prevalent_wind,
        "table": {"players": table.players, "dealer": table.dealer, "winner": seat,
                  "discarder": table.discarder},
    }  # fmt: skip
    if "seat_inputs" in hand:
        where, where_zh = event_where(i)
        raise RuleError(
            "bad_input",
            f"{where}: 'seat_inputs' belong to the win event, not to a winner's hand",
            f"{where_zh}：每位玩家的输入项（seat_inputs）要写在和牌事件上，不要写在和牌的手牌里",
        )
    # The wild kinds are needed by a hand only: a round's kongs come before any
    # tile is turned up at some tables' first win.
    wild = round_wild(state)
    if wild and "wild" not in hand:
        sit["wild"] = tiles_codes(wild)
    parsed = parse_situation(sit, need_win_tile=True)
    count_shown(state, parsed.held, parsed.win_tile, seen_win_tiles)
    if state.spec.seat_inputs:
        # The counts entered for each player (开口, 炮子 …), the winner's as his hand
        # shows them: the ruleset reads them from the hand's `extra`, and the
        # round's end (吉安's 精分, 北京's 四张混) from the state.
        order = wild if wild and "wild" not in hand else wild_order(hand.get("wild"))
        state.seat_inputs = with_winner(
            state.spec, state.seat_inputs, given, parsed, seat, order,
            lambda h: state.rs.seat_inputs_from_hand(h, state.params), event_where(i),
        )  # fmt: skip
        parsed = parsed._replace(extra={**parsed.extra, "seat_inputs": state.seat_inputs})
    return state.rs.score_hand(parsed, state.params)


def count_shown(
    state: RoundState, held: bytes, win_tile: int | None, seen_win_tiles: set[int]
) -> None:
    """No tile kind shows more than four copies over the round's hands (the discard
    several players win on is one tile, counted once)."""
    for t in range(N_KINDS):
        extra = held[t]
        if t == win_tile and t in seen_win_tiles:
            extra -= 1
        state.shown[t] += extra
        if state.shown[t] > 4:
            raise RuleError(
                "too_many_copies",
                f"the hands of this round show more than four {tile_en(t)}",
                f"这一局的牌里{tile_zh(t)}超过了四张",
            )
    if win_tile is not None:
        seen_win_tiles.add(win_tile)


def tiles_codes(tiles: Sequence[int]) -> list[str]:
    return [tile_str(t) for t in tiles]


__all__ = [
    "DRAW_NOTES",
    "UNFINISHED",
    "WINNER_KEYS",
    "Ledger",
    "Penalty",
    "RoundEnd",
    "RoundState",
    "count_shown",
    "event_error",
    "event_seat",
    "event_where",
    "pay_kong",
    "robbed_kongs",
    "round_result",
    "round_seats",
    "round_wild",
    "seat_wind",
    "settle_events",
    "settle_kong",
    "settle_win",
    "unknown_event",
]
