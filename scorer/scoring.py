"""Turning what a player entered at the table into a scored round.

The web app never scores anything itself: every entry goes through the rule
engine (`rules.score` for tiles, the ruleset's `quick_score` for fans picked
from the list) with the seat, dealer and wind filled in from the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import RuleError, score, settle
from rules.hand import Table
from rules.registry import get_ruleset

if TYPE_CHECKING:
    from scorer.models import GameSession

WINDS = ("E", "S", "W", "N")


@dataclass(frozen=True)
class ScoredEntry:
    kind: str  # win / draw / round (a round played as events)
    dealer: int
    prevalent_wind: str
    winners: list[int]
    entry: dict[str, Any]  # normalized input, kept with the round
    result: dict[str, Any]  # the engine's result (fans, total, notes)
    deltas: list[int]
    payments: list[dict[str, Any]]


def seat_wind(seat: int, dealer: int, players: int) -> str:
    """The dealer sits East; the others follow in play order."""
    return WINDS[(seat - dealer) % players]


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


_SEAT_ZH = {"winner": "和牌者", "discarder": "放炮者", "dealer": "庄家"}


def position(session: GameSession, entry: Mapping[str, Any]) -> tuple[int, str]:
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
    if wind not in WINDS:
        raise RuleError("bad_input", "the round wind must be E, S, W or N", "圈风只能是东南西北")
    return dealer, wind


def _winner_discarder(entry: Mapping[str, Any], players: int) -> tuple[int, int | None]:
    winner = _seat(entry, "winner", players, True)
    discarder = _seat(entry, "discarder", players, False)
    assert winner is not None
    if discarder == winner:
        raise RuleError("bad_table", "the winner cannot be the discarder", "和牌者不能是放炮者")
    return winner, discarder


def situation_for(session: GameSession, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The situation the engine scores for a tiles entry (RuleError when the table is wrong).

    The entry's `hand` (tiles, melds, flags, flowers) with the session's ruleset
    and parameters, the seat wind worked out from winner and dealer, the round
    wind and the table.  Recording (score_entry) and the record page's live
    preview both go through here, so what is previewed is what is recorded.
    """
    n = session.n_players
    dealer, wind = position(session, entry)
    winner, discarder = _winner_discarder(entry, n)
    hand = entry.get("hand")
    if not isinstance(hand, Mapping):
        raise RuleError("bad_input", "the winning hand is missing", "请先选好和牌的牌")
    return {
        **hand,
        "ruleset": session.ruleset,
        "params": dict(session.params),
        "self_drawn": discarder is None,
        "seat_wind": seat_wind(winner, dealer, n),
        "prevalent_wind": wind,
        "table": {"players": n, "dealer": dealer, "winner": winner, "discarder": discarder},
    }


@dataclass(frozen=True)
class Evaluation:
    """The engine's answer for an entry, legal win or not: what the preview shows."""

    kind: str  # win / draw / round
    dealer: int
    prevalent_wind: str
    winners: list[int]
    entry: dict[str, Any]  # normalized input
    result: dict[str, Any]  # the engine's result, `win` possibly false


def refusal(result: Mapping[str, Any]) -> RuleError | None:
    """Why a scored win cannot be recorded (not a legal win, e.g. too few fans), or None."""
    if result.get("win"):
        return None
    notes = result.get("notes") or ["not a legal win"]
    notes_zh = result.get("notes_zh") or ["不能和牌"]
    return RuleError("not_a_win", notes[-1], notes_zh[-1])


def evaluate(session: GameSession, entry: Mapping[str, Any]) -> Evaluation:
    """Score an entry for this session without judging it: RuleError only when it cannot be scored.

    A hand below the minimum comes back with `win` false and its fans, so the
    record page can show what is missing; score_entry refuses it.
    """
    if not isinstance(entry, Mapping):
        raise RuleError("bad_input", "the round must be an object", "这一局的内容无法读取")
    n = session.n_players
    dealer, wind = position(session, entry)
    kind = entry.get("kind")
    if kind == "draw":
        return Evaluation("draw", dealer, wind, [], {"kind": "draw", "dealer": dealer, "prevalent_wind": wind},
                          {"win": False, "fans": [], "total": 0, "notes": ["drawn hand: nobody pays"],
                           "notes_zh": ["荒庄：不计分"], "deltas": [0] * n, "payments": []})  # fmt: skip
    if kind == "round":
        return evaluate_events(session, entry.get("events"), dealer, wind)
    if kind != "win":
        raise RuleError("bad_input", "a round is a win or a draw", "每一局要么和牌，要么荒庄")
    winner, discarder = _winner_discarder(entry, n)
    self_drawn = discarder is None
    mode = entry.get("mode", "tiles")
    if mode == "quick":
        rs = get_ruleset(session.ruleset)
        raw = entry.get("fans") or {}
        if not isinstance(raw, Mapping):
            raise RuleError("bad_input", "fans must be an object", "番种格式不对")
        try:
            fans = {int(k): int(v) for k, v in raw.items()}
            flowers = int(entry.get("flowers") or 0)
        except (TypeError, ValueError):
            raise RuleError(
                "bad_input", "fan counts must be whole numbers", "番数必须是整数"
            ) from None
        result = rs.quick_score(
            fans,
            flowers,
            Table(n, dealer, winner, discarder),
            self_drawn,
            session.resolved_params(),
        )
        normalized = {"kind": "win", "mode": "quick", "winner": winner, "discarder": discarder,
                      "dealer": dealer, "prevalent_wind": wind, "fans": {str(k): v for k, v in fans.items() if v},
                      "flowers": flowers}  # fmt: skip
    elif mode == "tiles":
        situation = situation_for(session, entry)
        result = score(situation)
        if not result["ok"]:
            err = result["error"]
            raise RuleError(err["code"], err["message"], err.get("message_zh"))
        normalized = {"kind": "win", "mode": "tiles", "winner": winner, "discarder": discarder,
                      "dealer": dealer, "prevalent_wind": wind, "hand": dict(entry["hand"])}  # fmt: skip
    else:
        raise RuleError("bad_input", f"unknown entry mode {mode!r}", "未知的录入方式")
    return Evaluation("win", dealer, wind, [winner], normalized, result)


def evaluate_events(session: GameSession, events: Any, dealer: int, wind: str) -> Evaluation:
    """Settle a round played as events (四川 刮风下雨, 血战): RuleError when it cannot be.

    An unfinished round (the wall not yet ended, fewer than three winners)
    settles too: the money of its kongs and wins has already moved at the table.
    """
    if not isinstance(events, list):
        raise RuleError("bad_input", "'events' must be a list", "事件列表格式不对")
    result = settle(
        {
            "ruleset": session.ruleset,
            "params": dict(session.params),
            "players": session.n_players,
            "dealer": dealer,
            "events": events,
        }
    )
    if not result["ok"]:
        err = result["error"]
        raise RuleError(err["code"], err["message"], err.get("message_zh"))
    normalized = {"kind": "round", "dealer": dealer, "prevalent_wind": wind, "events": events}
    return Evaluation("round", dealer, wind, list(result["out"]), normalized, result)


def score_entry(session: GameSession, entry: Mapping[str, Any]) -> ScoredEntry:
    """Score one round's entry for this session; RuleError when it does not score."""
    ev = evaluate(session, entry)
    n = session.n_players
    if ev.kind == "draw":
        kept_draw = {k: ev.result[k] for k in ("fans", "total", "notes", "notes_zh")}
        return ScoredEntry(
            "draw", ev.dealer, ev.prevalent_wind, [], ev.entry, kept_draw, [0] * n, []
        )
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
            list(res["deltas"]), transfers,
        )  # fmt: skip
    result = ev.result
    err = refusal(result)
    if err is not None:
        raise err
    deltas = list(result.get("deltas") or [0] * n)
    payments = [dict(p, reason="win") for p in result.get("payments", [])]
    assert sum(deltas) == 0, deltas
    kept: dict[str, Any] = {
        k: result[k] for k in ("fans", "total", "notes", "notes_zh") if k in result
    }
    return ScoredEntry(
        "win", ev.dealer, ev.prevalent_wind, ev.winners, ev.entry, kept, deltas, payments
    )
