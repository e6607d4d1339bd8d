"""Turning what a player entered at the table into a scored round.

The web app never scores anything itself: every entry becomes a round of
events (a whole round is one win or one draw) and goes through the engine's
`settle()`, with the dealer, the wind, the turned tile and the session's own
parameter values filled in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext

from rules import RuleError
from rules.api import settle_or_raise
from rules.params import ParamValues
from rules.results import SettleResult
from rules.round import WINNER_KEYS
from rules.table import TableSpec
from rules.tiles import SEAT_WINDS
from rules.values import fan_counts, flower_count, whole_in
from scorer.clean.text import REASON, TextRefused, clean_text


class SeatedTable(Protocol):
    """What scoring reads of a table's session (scorer.models.GameSession is one):
    the models import this module, so it names the model only by what it needs."""

    ruleset: str
    players: Any
    first_dealer: int

    @property
    def n_players(self) -> int: ...

    @property
    def rules(self) -> TableRules: ...

    def next_position(self) -> tuple[int, str]: ...


class TableRules(Protocol):
    """What scoring reads of a table's rules (scorer.models.session_rules.SessionRules)."""

    @property
    def table(self) -> TableSpec: ...

    @property
    def params(self) -> ParamValues: ...


@dataclass(frozen=True)
class ScoredEntry:
    kind: str  # win / draw / round (a round played as events)
    dealer: int
    prevalent_wind: str
    winners: list[int]
    entry: dict[str, Any]  # normalized input, kept with the round
    result: dict[str, Any]  # the engine's result (fans, total, notes)
    deltas: list[int]  # the players' net: with room_take they sum to zero
    payments: list[dict[str, Any]]  # "to" None: paid to the room (台费)
    room_take: int = 0  # what the room takes (scorer/money/fees.py adds it; the engine never does)


def _seat(entry: Mapping[str, Any], key: str, players: int, required: bool) -> int | None:
    v = entry.get(key)
    if v in (None, ""):
        if required:
            raise RuleError("bad_table", f"'{key}' is missing", f"请选择{_SEAT_ZH.get(key, key)}")
        return None
    try:
        seat = int(v)
    except (TypeError, ValueError):
        raise RuleError(
            "bad_table", f"'{key}' must be a seat number", f"{_SEAT_ZH.get(key, key)}必须是座位号"
        ) from None
    if not 0 <= seat < players:
        raise RuleError(
            "bad_table",
            f"'{key}' must be a seat from 0 to {players - 1}",
            f"{_SEAT_ZH.get(key, key)}座位不存在",
        )
    return seat


_SEAT_ZH = {"winner": "和牌者", "discarder": "放炮者", "dealer": "庄家", "seat": "被罚的人"}


def position(session: SeatedTable, entry: Mapping[str, Any]) -> tuple[int, str]:
    """Dealer and wind: as entered (overriding the proposal) or as proposed.

    The proposal reads the session's rounds, so it is looked up only when the
    entry leaves something out (the record form always sends both).
    """
    dealer = _seat(entry, "dealer", session.n_players, False)
    wind = entry.get("prevalent_wind")
    if dealer is None or not wind:
        proposed_dealer, proposed_wind = session.next_position()
        dealer = proposed_dealer if dealer is None else dealer
        wind = wind or proposed_wind
    if wind not in SEAT_WINDS:
        raise RuleError("bad_input", "the round wind must be E, S, W or N", "圈风只能是东南西北")
    return dealer, wind


def _winner_discarder(entry: Mapping[str, Any], players: int) -> tuple[int, int | None]:
    winner = _seat(entry, "winner", players, True)
    discarder = _seat(entry, "discarder", players, False)
    assert winner is not None
    if discarder == winner:
        raise RuleError("bad_table", "the winner cannot be the discarder", "和牌者不能是放炮者")
    return winner, discarder


# "Self-drawn, or who discarded?": how a win's tile came, decided here for every
# place that asks it or reads it.


def how_won_missing(discarder: str) -> str:
    """The question a win's form asks until it says how the winning tile came; ""
    once it does.  `discarder` is the form's field: "self" (自摸) or a seat, "" while
    not chosen (scorer/entry).  One wording for the live hint, the refused confirm
    and the event form, which all stop at the same point."""
    if discarder:
        return ""
    return gettext("Self-drawn, or who discarded the winning tile?")


def first_discarder(entry: Mapping[str, Any]) -> int | None:
    """Who dealt in a stored round's first winning discard: a whole win's discarder,
    else that of the first win among its events; None when self-drawn or no win."""
    if entry.get("kind") == "win":
        d = entry.get("discarder")
        return d if isinstance(d, int) else None
    for ev in entry.get("events") or []:
        if isinstance(ev, Mapping) and ev.get("type") == "win":
            d = ev.get("discarder")
            return d if isinstance(d, int) else None
    return None


@dataclass(frozen=True)
class Evaluation:
    """The engine's answer for an entry, legal win or not: what the preview shows."""

    kind: str  # win / draw / round
    dealer: int
    prevalent_wind: str
    winners: list[int]
    entry: dict[str, Any]  # normalized input
    result: Mapping[str, Any]  # the engine's result, `win` possibly false


def refusal(result: Mapping[str, Any]) -> RuleError | None:
    """Why a scored win cannot be recorded (not a legal win, e.g. too few fans), or None."""
    if result.get("win"):
        return None
    notes = result.get("notes") or ["not a legal win"]
    notes_zh = result.get("notes_zh") or ["不能和牌"]
    return RuleError("not_a_win", notes[-1], notes_zh[-1])


def _turned(entry: Mapping[str, Any]) -> dict[str, Any]:
    turned = entry.get("turned")
    return {"turned": turned} if turned not in (None, "") else {}


def _settle(
    session: SeatedTable, dealer: int, wind: str, events: list[Any], turned: Mapping[str, Any]
) -> SettleResult:
    """The engine's settlement of a round given as its events: the one path
    every entry takes (a whole round is a round of one event).  The round's wind
    goes with it: 圈风刻 and the like are scored from it."""
    return settle_or_raise(
        {
            "ruleset": session.ruleset,
            "params": dict(session.rules.params),
            "players": session.n_players,
            "dealer": dealer,
            "prevalent_wind": wind,
            "events": events,
            **turned,
            **seating(session, wind),
        }
    )


def seating(session: SeatedTable, wind: str) -> dict[str, Any]:
    """The seats in play order where a match has changed them (国标比赛's 换位)."""
    match = session.rules.table.match
    if match is None or session.n_players != match.players or wind not in SEAT_WINDS:
        return {}
    return {"seating": list(match.order(wind, session.first_dealer))}


def evaluate(session: SeatedTable, entry: Mapping[str, Any]) -> Evaluation:
    """Score an entry for this session without judging it: RuleError only when it cannot be scored.

    A hand below the minimum comes back with `win` false and its fans, so the
    record page can show what is missing; score_entry refuses it.
    """
    if not isinstance(entry, Mapping):
        raise RuleError("bad_input", "the round must be an object", "这一局的内容无法读取")
    n = session.n_players
    dealer, wind = position(session, entry)
    kind = entry.get("kind")
    turned = _turned(entry)
    where = {"dealer": dealer, "prevalent_wind": wind, **turned}
    if kind == "draw":
        draw: dict[str, Any] = {"type": "draw"}
        normalized_draw: dict[str, Any] = {"kind": "draw", **where}
        if entry.get("seat_inputs"):
            # Counts paid at every round's end (吉安's 精) are asked on a draw too.
            draw["seat_inputs"] = normalized_draw["seat_inputs"] = entry["seat_inputs"]
        res = _settle(session, dealer, wind, [draw], turned)
        report = res["events"][0]
        end = report.get("round_end") or {}
        return Evaluation("draw", dealer, wind, [], normalized_draw,
                          {"win": False, "fans": [], "total": 0,
                           "notes": [*report["notes"], *end.get("notes", [])],
                           "notes_zh": [*report["notes_zh"], *end.get("notes_zh", [])],
                           "deltas": list(res["deltas"]), "payments": _payments(res)})  # fmt: skip
    if kind == "round":
        return _evaluate_events(session, entry.get("events"), dealer, wind, turned)
    if kind != "win":
        raise RuleError("bad_input", "a round is a win or a draw", "每一局要么和牌，要么荒庄")
    winner, discarder = _winner_discarder(entry, n)
    mode = entry.get("mode", "tiles")
    if mode == "quick":
        # An imported table's entries are input too: read as the engine reads them.
        fans = fan_counts(entry.get("fans") or {})
        flowers = flower_count(entry.get("flowers"))
        who: dict[str, Any] = {"seat": winner, "fans": {str(k): v for k, v in fans.items()},
                               "flowers": flowers}  # fmt: skip
        normalized = {"kind": "win", "mode": "quick", "winner": winner, "discarder": discarder,
                      **where, "fans": {str(k): v for k, v in fans.items() if v},
                      "flowers": flowers}  # fmt: skip
    elif mode == "tiles":
        hand = entry.get("hand")
        if not isinstance(hand, Mapping):
            raise RuleError("bad_input", "the winning hand is missing", "请先选好和牌的牌")
        who = {"seat": winner, "hand": dict(hand)}
        normalized = {"kind": "win", "mode": "tiles", "winner": winner, "discarder": discarder,
                      **where, "hand": dict(hand)}  # fmt: skip
    else:
        raise RuleError("bad_input", f"unknown entry mode {mode!r}", "未知的录入方式")
    event: dict[str, Any] = {"type": "win", "discarder": discarder, "winners": [who]}
    if entry.get("seat_inputs"):
        event["seat_inputs"] = entry["seat_inputs"]
        normalized["seat_inputs"] = entry["seat_inputs"]
    try:
        res = _settle(session, dealer, wind, [event], turned)
    except RuleError as e:
        if e.code != "not_a_win" or e.detail is None:
            raise
        # Not a legal win (too few fans): its reading still shows what is missing.
        return Evaluation("win", dealer, wind, [winner], normalized, dict(e.detail))
    return Evaluation("win", dealer, wind, [winner], normalized, _win_result(res))


def _payments(res: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"from": t["from"], "to": t["to"], "amount": t["amount"], "reason": t["reason"]}
            for t in res["transfers"]]  # fmt: skip


def _win_result(res: Mapping[str, Any]) -> dict[str, Any]:
    """A round of one win as a hand's result: the winner's fans and notes, the payments
    (those made at the round's end, 吉安's 精, included, with their notes)."""
    event = res["events"][0]
    won = event["winners"][0]
    out = {"win": True, **{k: won[k] for k in WINNER_KEYS if k in won},
           "deltas": list(res["deltas"]), "payments": _payments(res)}  # fmt: skip
    end = event.get("round_end")
    if end:
        out["notes"] = [*out.get("notes", []), *end.get("notes", [])]
        out["notes_zh"] = [*out.get("notes_zh", []), *end.get("notes_zh", [])]
        out["round_end"] = end
    return out


def _evaluate_events(
    session: SeatedTable,
    events: Any,
    dealer: int,
    wind: str,
    turned: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Settle a round recorded event by event: RuleError when it cannot be.

    An unfinished round (more to come) settles too: the money of its events has
    already moved at the table.
    """
    if not isinstance(events, list):
        raise RuleError("bad_input", "'events' must be a list", "事件列表格式不对")
    turned = dict(turned or {})
    result = _settle(session, dealer, wind, events, turned)
    normalized = {
        "kind": "round",
        "dealer": dealer,
        "prevalent_wind": wind,
        **turned,
        "events": events,
    }
    return Evaluation("round", dealer, wind, list(result["out"]), normalized, result)


ADJUST, PENALTY = "adjust", "penalty"
MAX_LINES = 12  # an adjustment's lines: more is a typo, not a dispute
MAX_POINTS = 100_000


def adjustment(session: SeatedTable, entry: Mapping[str, Any]) -> ScoredEntry:
    """An adjustment (调整): points moved between named players with a reason, for what
    the engine does not model (a dispute settled by agreement, a rule of the room).  Never
    scored by the engine: each line is one transfer, so it is zero-sum by construction;
    RuleError (both languages) on anything unsound, nothing recorded."""
    n = session.n_players
    dealer, wind = position(session, entry)
    reason = entry.get("reason")
    try:
        reason = clean_text(REASON, reason) if isinstance(reason, str) else ""
    except TextRefused as e:
        raise e.rule_error("the reason: ", "原因：") from None
    if not reason:
        raise RuleError("bad_input", "say why the points move (the reason)", "请写明调整的原因")
    raw = entry.get("lines")
    if not isinstance(raw, list) or not raw:
        raise RuleError("bad_input", "an adjustment needs at least one line", "调整至少要有一行")
    if len(raw) > MAX_LINES:
        raise RuleError("bad_input", f"at most {MAX_LINES} lines", f"调整最多 {MAX_LINES} 行")
    lines: list[dict[str, int]] = []
    deltas = [0] * n
    for k, line in enumerate(raw, 1):
        if not isinstance(line, Mapping):
            raise RuleError("bad_input", f"line {k} must be an object", f"第 {k} 行格式不对")
        frm, to, amount = line.get("from"), line.get("to"), line.get("amount")
        if not whole_in(frm, 0, n - 1) or not whole_in(to, 0, n - 1):
            raise RuleError(
                "bad_input", f"line {k}: choose who pays and who receives",
                f"第 {k} 行：请选择谁给、给谁",
            )  # fmt: skip
        if frm == to:
            raise RuleError(
                "bad_input", f"line {k}: a player cannot pay himself", f"第 {k} 行：不能自己给自己"
            )
        if not whole_in(amount, 1, MAX_POINTS):
            raise RuleError(
                "bad_input",
                f"line {k}: the points are a whole number from 1 to {MAX_POINTS}",
                f"第 {k} 行：分数要是 1 到 {MAX_POINTS} 的整数",
            )
        assert isinstance(frm, int) and isinstance(to, int) and isinstance(amount, int)
        lines.append({"from": frm, "to": to, "amount": amount})
        deltas[frm] -= amount
        deltas[to] += amount
    normalized = {"kind": ADJUST, "dealer": dealer, "prevalent_wind": wind, "reason": reason,
                  "lines": lines}  # fmt: skip
    result = {"reason": reason, "lines": lines, "total": sum(x["amount"] for x in lines),
              "notes": [f"Adjustment: {reason}"], "notes_zh": [f"调整：{reason}"]}  # fmt: skip
    payments = [{**x, "reason": ADJUST} for x in lines]
    return ScoredEntry(ADJUST, dealer, wind, [], normalized, result, deltas, payments)


def penalty(session: SeatedTable, entry: Mapping[str, Any]) -> ScoredEntry:
    """A penalty the ruleset declares (逃跑, 错和), settled by the engine as a round of
    one `penalty` event: the amount is the ruleset's, who receives it the table's
    parameter (the others, or the room: `room_take`)."""
    dealer, wind = position(session, entry)
    seat = _seat(entry, "seat", session.n_players, True)
    event: dict[str, Any] = {"type": "penalty", "penalty": entry.get("penalty"), "seat": seat}
    if entry.get("seat_inputs"):
        event["seat_inputs"] = entry["seat_inputs"]
    if entry.get("odd_from") is not None:
        event["odd_from"] = entry["odd_from"]  # where the odd points start (the engine checks)
    res = _settle(session, dealer, wind, [event], {})
    report = res["events"][0]
    normalized = {"kind": PENALTY, "dealer": dealer, "prevalent_wind": wind,
                  **{k: v for k, v in event.items() if k != "type"}}  # fmt: skip
    result = {k: report[k] for k in ("penalty", "seat", "amount", "to", "notes", "notes_zh")}
    result["total"] = report["amount"]
    return ScoredEntry(
        PENALTY, dealer, wind, [], normalized, result, list(res["deltas"]), _payments(res),
        room_take=int(res.get("room_take") or 0),
    )  # fmt: skip


def score_entry(session: SeatedTable, entry: Mapping[str, Any]) -> ScoredEntry:
    """Score one round's entry for this session; RuleError when it does not score."""
    kind = entry.get("kind") if isinstance(entry, Mapping) else None
    if kind == ADJUST:
        return adjustment(session, entry)
    if kind == PENALTY:
        return penalty(session, entry)
    ev = evaluate(session, entry)
    n = session.n_players
    if ev.kind == "draw":
        kept_draw = {k: ev.result[k] for k in ("fans", "total", "notes", "notes_zh")}
        return ScoredEntry(
            "draw", ev.dealer, ev.prevalent_wind, [], ev.entry, kept_draw,
            list(ev.result["deltas"]), list(ev.result["payments"]),
        )  # fmt: skip
    if ev.kind == "round":
        res = ev.result
        kept_round = {
            k: res[k] for k in ("events", "transfers", "out", "finished", "notes", "notes_zh")
        }
        transfers = [
            {"from": t["from"], "to": t["to"], "amount": t["amount"], "reason": t["reason"]}
            for t in res["transfers"]
        ]
        return ScoredEntry(
            "round", ev.dealer, ev.prevalent_wind, ev.winners, ev.entry, kept_round,
            list(res["deltas"]), transfers, room_take=int(res.get("room_take") or 0),
        )  # fmt: skip
    result = ev.result
    err = refusal(result)
    if err is not None:
        raise err
    deltas = list(result.get("deltas") or [0] * n)
    payments = [{"reason": "win", **p} for p in result.get("payments", [])]
    assert sum(deltas) == 0, deltas
    # The working is kept with the fans: the round page and the ledger print it as the
    # preview did (its terms; its words, which the notes need not repeat).
    kept: dict[str, Any] = {
        k: result[k]
        for k in ("fans", "total", "notes", "notes_zh", "terms", "working", "working_zh")
        if k in result
    }
    return ScoredEntry(
        "win", ev.dealer, ev.prevalent_wind, ev.winners, ev.entry, kept, deltas, payments
    )
