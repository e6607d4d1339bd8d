"""The JSON API: score one situation (docs/situation.md), settle one round of events
(rules/round.py and each ruleset's doc) and read a session's totals."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from rules import is_win
from rules import score as score_situation
from rules import settle as settle_round
from scorer.models import Round, RoundRevision
from scorer.services.access import session_or_404
from scorer.views.api_input import answer, json_object, methods, refusal

CENT = Decimal("0.01")


def _one_situation(
    request: HttpRequest, engine: Callable[[Any], Mapping[str, Any]]
) -> JsonResponse:
    """A situation read from the body and answered by `engine`: 200 when it is ok, 400
    with the error otherwise (and api_input's statuses for a body that is not JSON)."""
    situation = json_object(request, "one situation: a JSON object", "一个局面（JSON 对象）")
    if isinstance(situation, JsonResponse):
        return situation
    result = engine(situation)
    return answer(result, status=200 if result.get("ok") else 400)


@csrf_exempt  # a JSON endpoint for scripts and other apps: no cookies, no session involved
@methods("POST")
def score(request: HttpRequest) -> JsonResponse:
    """One situation in, one result out: 200 when it scored, 400 with the error otherwise
    (and the statuses of scorer/views/api_input.py for a body that is not JSON)."""
    return _one_situation(request, score_situation)


@csrf_exempt  # like /api/score: for scripts and other apps, no cookies involved
@methods("POST")
def win(request: HttpRequest) -> JsonResponse:
    """Is this situation a win? `rules.is_win` over HTTP: the cheap answer a picker
    needs on every tap, without the fans or decompositions of a whole score."""
    return _one_situation(request, is_win)


@csrf_exempt  # like /api/score: for scripts and other apps, no cookies involved
@methods("POST")
def settle(request: HttpRequest) -> JsonResponse:
    """One round (its ordered events) in, every transfer out: 200 when it settled,
    400 with the error otherwise (bad JSON, or the engine's error for the round)."""
    rnd = json_object(
        request,
        "one round: a JSON object with 'events'",
        "一局（带 events 的 JSON 对象）",
    )
    if isinstance(rnd, JsonResponse):
        return rnd
    result = settle_round(rnd)
    return answer(result, status=200 if result.get("ok") else 400)


def _round_in_progress(rnd: Round, rev: RoundRevision) -> dict[str, Any]:
    """The round being played as the API shows it: `rev` is its current version."""
    result = rev.result if isinstance(rev.result, dict) else {}
    entry = rev.entry if isinstance(rev.entry, dict) else {}
    return {
        "number": rnd.number,
        "dealer": rev.dealer,
        "prevalent_wind": rev.prevalent_wind,
        "events": len(entry.get("events") or []),
        "out": list(result.get("out") or []),
        "finished": False,  # a round in progress is never finished (the field stays for clients)
        "deltas": list(rev.deltas),
    }


@methods("GET", "HEAD")
def session(request: HttpRequest, code: str) -> JsonResponse:
    """A session's standing: players, totals (and money), rounds, the next hand;
    for rulesets played as events also the round in progress."""
    try:
        s = session_or_404(code)
    except Http404:
        return refusal(404, "no session with this code", "没有这个牌局", code="not_found")
    rounds = s.standing_rounds()
    totals = s.tallies(rounds)
    dealer, wind = s.next_position(rounds)
    per_point = s.money_per_point
    take = s.room_take(rounds)
    timed = s.rules.time_fee
    body: dict[str, Any] = {
        "code": s.code,
        "ruleset": s.ruleset,
        "players": list(s.players),
        "totals": totals,
        # Strings ("12.50"): exact decimals, not floats.
        "money": None
        if per_point is None
        else [str((t * per_point).quantize(CENT)) for t in totals],
        # The room's take (台费): the players' totals are their net, and with it they sum
        # to zero; the fee as the table was started with it ({}: none).
        "room_take": take,
        "room_money": None if per_point is None else str((take * per_point).quantize(CENT)),
        "fee": s.rules.fee.to_json(),
        # The table's money ledger in 元, apart from the points (docs/fees.md): its 计时
        # rule, its clock (billed seconds, pauses left out), the time fee so far, and
        # what each seat owes the room once the table is closed.
        "time_fee": timed.to_json(),
        "clock": {"seconds": s.billed_seconds(), "paused": s.paused} if timed.charges else None,
        "time_fee_so_far": str(s.time_fee_due()) if timed.charges else None,
        "money_charged": [str(m) for m in s.money_charged()],
        "rounds": sum(1 for r in rounds if r.is_hand),
        "version": s.version,
        "next": {"dealer": dealer, "prevalent_wind": wind},
    }
    if s.stepwise:
        # A round recorded event by event: the round being played (its money is already in the totals), or null.
        live = next(((r, r.current) for r in rounds if r.in_progress and r.current), None)
        body["round_in_progress"] = None if live is None else _round_in_progress(*live)
    return answer(body)
