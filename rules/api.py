"""score() and waits(): the one code path behind the CLI, the web app and the tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import plain_reader
from rules.decompose import Forms
from rules.errors import RuleError
from rules.hand import Hand, parse_situation
from rules.params import ParamValues
from rules.registry import REGISTRY, Ruleset, get_ruleset
from rules.results import (
    ErrorResult,
    NextPosition,
    RoundBody,
    ScoreResult,
    SettleResult,
    WaitsResult,
    WinResult,
)
from rules.seat_inputs import checked_hand
from rules.tiles import TILE_STRS
from rules.values import whole_in


def _ruleset_id(situation: Any, ruleset: str | None) -> Any:
    if not isinstance(situation, dict):
        raise RuleError(
            "bad_input", "a situation must be a JSON object", "局面必须是一个 JSON 对象"
        )
    if ruleset is not None:
        return ruleset
    return situation.get("ruleset")


def _sid(situation: Any) -> Any:
    return situation.get("id") if isinstance(situation, dict) else None


def score(situation: Any, ruleset: str | None = None) -> ScoreResult | ErrorResult:
    """Score one situation (see the situation spec); never raises on bad input.

    A plain dict naming a known ruleset (every tap) finds its id and ruleset
    here in a few look-ups; anything else is read by _sid, _ruleset_id and
    get_ruleset, which say what is wrong."""
    rs: Ruleset | None = None
    if situation.__class__ is dict:
        sid = situation.get("id")
        rid = situation.get("ruleset") if ruleset is None else ruleset
        if rid.__class__ is str:
            rs = REGISTRY.get(rid)
    else:
        sid = _sid(situation)
    try:
        if rs is None:
            rs = get_ruleset(_ruleset_id(situation, ruleset))
        # (a situation that reaches here is a dict: _ruleset_id refuses the rest)
        params = rs.resolve_params(situation.get("params"))
        hand = parse_situation(situation, need_win_tile=True)
        if hand.extra:
            hand = _seat_inputs(rs, params, hand, situation)
        body = rs.score_hand(hand, params)
    except RuleError as e:
        return e.to_dict(sid)
    return {"id": sid, "ok": True, "ruleset": rs.id, **body}


def waits(situation: Any, ruleset: str | None = None) -> WaitsResult | ErrorResult:
    """The tile kinds that complete a hand one tile short; never raises on bad input.

    A plain situation at a ruleset whose waits are a plain shape's
    (`Ruleset.plain_reader_forms`) is answered by rules/plain_reader.py, as is_win is."""
    plain = _plain(situation, ruleset)
    if plain is not None:
        found = plain_reader.wait_codes(situation, plain[1])
        if found is not None:
            return {"id": situation.get("id"), "ok": True, "ruleset": plain[0], "waits": found}
    sid = _sid(situation)
    try:
        rs = get_ruleset(_ruleset_id(situation, ruleset))
        params = rs.resolve_params(situation.get("params") if isinstance(situation, dict) else None)
        # the plain reader, unless it was tried above on these very forms
        forms = rs.plain_reader_forms(params) if plain is None else None
        tiles = plain_reader.waits(situation, forms) if forms is not None else None
        if tiles is None:
            hand = parse_situation(situation, need_win_tile=False)
            if hand.extra:
                hand = _seat_inputs(rs, params, hand, situation, winner_part=False)
            tiles = rs.wait_tiles(hand, params)
    except RuleError as e:
        return e.to_dict(sid)
    return {"id": sid, "ok": True, "ruleset": rs.id, "waits": [TILE_STRS[t] for t in tiles]}


def is_win(situation: Any, ruleset: str | None = None) -> WinResult | ErrorResult:
    """Whether a situation is a legal win: `{"id", "ok", "ruleset", "win"}`; never raises.

    The answer is score()'s `win` (a hand score() refuses as `not_a_win` is
    `"win": false`), with the same errors for bad input, without the rest of
    the result: for `generic` the per-suit table look-ups alone, no
    decomposition counted or listed.  A tile tap that asks "is this a win?"
    pays for that only: a plain situation at a ruleset whose win is a plain
    shape (`Ruleset.plain_reader_forms`) on its default parameters is read by
    rules/plain_reader.py straight into the tables, with no Hand built."""
    plain = _plain(situation, ruleset)
    if plain is not None:
        win = plain_reader.is_win(situation, plain[1])
        if win is not None:
            return {"id": situation.get("id"), "ok": True, "ruleset": plain[0], "win": win}
    sid = _sid(situation)
    try:
        rs = get_ruleset(_ruleset_id(situation, ruleset))
        params = rs.resolve_params(situation.get("params"))
        # the plain reader, unless it was tried above on these very forms
        forms = rs.plain_reader_forms(params) if plain is None else None
        win = plain_reader.is_win(situation, forms) if forms is not None else None
        if win is None:
            hand = parse_situation(situation, need_win_tile=True)
            if hand.extra:
                hand = _seat_inputs(rs, params, hand, situation)
            win = rs.is_win(hand, params)
    except RuleError as e:
        return e.to_dict(sid)
    return {"id": sid, "ok": True, "ruleset": rs.id, "win": win}


def _seat_inputs(
    rs: Ruleset, params: ParamValues, hand: Hand, situation: Mapping[str, Any],
    winner_part: bool = True,
) -> Hand:  # fmt: skip
    """The hand with its `seat_inputs` checked as a round's win checks them
    (rules/seat_inputs.py): the same values are taken and refused by every verb."""
    t = hand.table
    return checked_hand(
        rs.table(params), hand, t.players if t is not None else max(rs.players),
        situation.get("wild"), lambda h: rs.seat_inputs_from_hand(h, params), winner_part,
    )  # fmt: skip


# ruleset id -> its plain_reader_forms on its default parameters (None: none), worked
# out on first use, so that a plain situation without `params` costs one dict
# hit before the tables.
_DEFAULT_FORMS: dict[str, Forms | None] = {}


def _plain(situation: Any, ruleset: str | None) -> tuple[str, Forms] | None:
    """(ruleset id, its quick forms) for a dict without `params` at a ruleset
    that gives quick forms on its defaults; None for the careful path."""
    if situation.__class__ is not dict or "params" in situation or "seat_inputs" in situation:
        return None
    rid = situation.get("ruleset") if ruleset is None else ruleset
    if rid.__class__ is not str:
        return None
    forms = _DEFAULT_FORMS.get(rid)
    if forms is None:
        if rid in _DEFAULT_FORMS:
            return None
        rs = REGISTRY.get(rid)
        if rs is None:
            return None
        forms = _DEFAULT_FORMS[rid] = rs.plain_reader_forms(rs.defaults)
        if forms is None:
            return None
    return rid, forms


def settle(rnd: Any, ruleset: str | None = None) -> SettleResult | ErrorResult:
    """Settle one whole round given as ordered events; never raises on bad input.

    The round form: rules/round.py (and each ruleset's doc where it adds to it).
    The result has every transfer with its reason and the deltas.
    """
    try:
        return settle_or_raise(rnd, ruleset)
    except RuleError as e:
        return e.to_dict(_sid(rnd))


def settle_or_raise(rnd: Any, ruleset: str | None = None) -> SettleResult:
    """`settle()` for callers that handle the RuleError themselves (the web app
    shows a refused hand's fans, which the error carries as `detail`)."""
    rs = get_ruleset(_ruleset_id(rnd, ruleset))
    params = rs.resolve_params(rnd.get("params"))
    body = rs.settle_round(rnd, params)
    return {"id": _sid(rnd), "ok": True, "ruleset": rs.id, **body, **_next(rs, rnd, params, body)}


def _next(
    rs: Ruleset, rnd: Mapping[str, Any], params: ParamValues, body: RoundBody
) -> NextPosition:
    """Who deals the next round and its prevalent wind, as the ruleset decides
    (连庄, 点炮者坐庄 …; a match's own order), so that a client of the API or the
    command line can carry a table on; both null while the round goes on.  The
    wind moves on when the deal comes back to `first_dealer` (default 0)."""
    players, dealer = rnd.get("players", 4), rnd.get("dealer", 0)  # (checked by the round)
    first = rnd.get("first_dealer", 0)
    if not whole_in(first, 0, players - 1):
        raise RuleError("bad_table", "'first_dealer' must be a seat number", "首位庄家必须是座位号")
    if not body["finished"]:
        return {"next_dealer": None, "next_prevalent_wind": None}
    discarder = next((e.get("discarder") for e in body["events"] if e["type"] == "win"), None)
    dealer, wind = rs.next_position(
        dealer, rnd.get("prevalent_wind", "E"), first, players, list(body["out"]),
        params, discarder=discarder,
    )  # fmt: skip
    return {"next_dealer": dealer, "next_prevalent_wind": wind}
