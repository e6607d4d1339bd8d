"""Record one event of a round recorded event by event: its form, its live preview, its confirm."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from rules import RuleError
from rules.registry import Ruleset, get_ruleset
from rules.tiles import parse_tile, tile_str
from scorer import phone
from scorer.entry.event_pick import STANDING_SIZE, EventPick
from scorer.entry.pick import Pick
from scorer.entry.round_now import RoundNow, round_now_of
from scorer.language import by_language, is_zh, rule_error_text
from scorer.models import GameSession, RoundRevision, RoundTaken
from scorer.present.events import join_names, reason_labels
from scorer.present.picker import (
    FACES,
    flag_rows,
    hand_view,
    seat_input_grid,
    seat_input_rows,
    seat_rows,
)
from scorer.present.scoring import fan_rows, total_text, working_lines
from scorer.present.seats import seat_columns
from scorer.present.words import meld_labels, name_seats
from scorer.scoring import evaluate_events
from scorer.views import HtmxHttpRequest
from scorer.views.recording import (
    _author,
    _done,
    _tapped_seat,
    _unfinished_hand,
    _waits,
    taken_round,
    taps_of,
    who_records,
)

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


def _event_outcome(
    session: GameSession, p: EventPick, now: RoundNow, taken: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The live result of adding this event: its own payments, fans, checks; never saves."""
    out: dict[str, Any] = {"message": "", "hint": "", "fans": [], "total": None, "amount": None,
                           "seats": [], "transfers": [], "checks": {}, "waits": None,
                           "waits_tap": True, "can_confirm": False,
                           "stale": p.expected != now.count}  # fmt: skip
    if taken is not None:
        # The new round this form was for is recorded: the player decides first.
        out["stale"] = False
        return out
    if p.asks_turned and p.turned is None and p.kind == "win":
        out["hint"] = gettext("First turn up the tile that decides the wild tiles.")
        return out
    out["kong_warnings"] = p.kong_warnings()
    if p.kind == "win" and p.mode == "tiles":
        unfinished = _unfinished_hand(session, p, out)
        if unfinished is not None:
            return unfinished
    event, missing = p.event()
    if event is None:
        out["hint"] = missing
        if p.kind == "wall_end" and p.told(p.seat):
            pass  # this seat's standing is told, not shown: nothing to count or wait on
        elif p.kind == "wall_end" and p.n_tiles == STANDING_SIZE:
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
        out["message"] = rule_error_text(e)
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
    out["seats"] = seat_rows(names, deltas)
    out["transfers"] = _transfer_rows(names, mine, session.table().reasons)
    if report["type"] == "win":
        won = next(w for w in report["winners"] if w["seat"] == p.winner)
        scoring = p.spec.scoring
        out["fans"], out["total"] = fan_rows(won.get("fans", []), scoring), won.get("total")
        out["amount"] = won.get("amount", sum(t["amount"] for t in mine))
        # Every shape worth the same (陕西): the bar says what the win brings, not the shape.
        shown = out["amount"] if scoring.compose == "flat" else out["total"]
        out["total_text"] = total_text(shown, scoring)
        out["working"] = working_lines(won, names)
    elif report["type"] == "wall_end":
        out["checks"] = {
            c["seat"]: {**c, "waits": [FACES[parse_tile(w)] for w in c["waits"]]}
            for c in report["checks"]
        }
    out["can_confirm"] = True
    return out


def _told_claim(session: GameSession, p: EventPick, now: RoundNow) -> dict[str, Any]:
    """A told 听牌's claim as soon as its fans are picked, before every hand is in.

    Settled the way confirm will settle it: the round so far and a wall's end
    where this seat is ready with these fans and the others are not (which
    does not change a claim), so the table's cap and base apply exactly; or why
    those fans cannot be (two patterns).
    """
    assert p.seat is not None
    fans = {str(k): v for k, v in sorted(p.wall_fans.get(p.seat, {}).items())}
    hands = [{"seat": s, "status": "ready", "fans": fans} if s == p.seat
             else {"seat": s, "status": "not_ready"} for s in p.in_play()]  # fmt: skip
    turned = {"turned": tile_str(p.turned)} if p.turned is not None else {}
    try:
        events = [*now.events, {"type": "wall_end", "hands": hands}]
        result = evaluate_events(session, events, p.dealer, p.wind, turned).result
    except RuleError as e:
        return {"message": rule_error_text(e)}
    check = next(c for c in result["events"][-1]["checks"] if c["seat"] == p.seat)
    return {"amount": check["claim"], "fans": check["claim_fans"]}


def _event_context(
    request: HtmxHttpRequest, session: GameSession, p: EventPick, now: RoundNow, message: str = ""
) -> dict[str, Any]:
    rs = get_ruleset(session.ruleset)
    taken = taken_round(session, p, now.rnd.number if now.rnd is not None else None)
    result = _event_outcome(session, p, now, taken)
    for key in ("message", "hint"):
        result[key] = name_seats(result[key], list(session.players))
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
        if check is None and p.told(s):
            check = {"status": p.told(s)}  # told: its word on the switcher, not "0/13"
        wall_seats.append({"seat": s, "name": session.players[s], "out": s in p.out,
                           "active": s == p.seat, "n": size, "complete": size == STANDING_SIZE,
                           "check": check})  # fmt: skip
    told = p.told(p.seat) if p.kind == "wall_end" else ""
    told_fans = p.wall_fans.get(p.seat, {}) if told == "ready" and p.seat is not None else {}
    # A ready hand's claim counts its patterns, never what only a win brings
    # (a catalog's "flag" group: 杠上花, 抢杠 …).
    told_patterns = [{**f, "count": told_fans.get(f["id"], 0)} for f in p.catalog
                     if f.get("group") not in ("extra", "flag")]  # fmt: skip
    told_extras = [{**f, "count": told_fans.get(f["id"], 0)} for f in p.catalog
                   if f.get("group") == "extra"]  # fmt: skip
    told_claim = _told_claim(session, p, now) if told == "ready" else None
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
        "tap_message": name_seats(message, list(session.players)),
        "now": now,
        "seats": seats,
        # Names alike at the start: fewer seats on a line, each name told apart.
        "seat_cols": seat_columns(session.players),
        "others": [s for s in seats if not s["winner"]],
        "kong_from": [s for s in seats if not s["player"]],
        "wall_seats": wall_seats,
        "dealer_name": session.players[p.dealer],
        "where_open": request.method == "POST" and tap is None and "confirm" not in request.POST,
        "grid": [r for r in rows if r],
        "picking": picking,
        **hand_view(p),
        "event_flags": flag_rows(p, live),
        "seat_inputs": (si_rows := seat_input_rows(p, list(session.players))),
        "seat_input_grid": seat_input_grid(si_rows, _tapped_seat(request)),
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
        "told": told,
        "told_patterns": sorted(told_patterns, key=lambda f: (f["points"], f["id"])),
        "told_extras": told_extras,
        "told_claim": told_claim,
        "join_offer": join_offer,
        "result": result,
        "taken": taken,
        "me_seat": phone.my_seat(request, session),
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
    """The event's state with its taps applied in order (several when taps made while
    an answer was on its way come together: static/js/taps.js), and the message of
    the last tap that could not be done."""
    p = EventPick.read(request.POST, session, rs, now)
    who_records(request, session, p)
    message = ""
    for tap in taps_of(request):
        if tap == "taken:next":
            # Start the next round instead: its number, its dealer, the events so far.
            fresh = EventPick.fresh_event(session, rs, now, p.kind)
            p.for_round, p.dealer, p.expected = fresh.for_round, fresh.dealer, fresh.expected
            continue
        message = p.apply(tap, session.n_players, rs) or message
        if tap.startswith("mode:"):
            phone.set_last_mode(request, p.mode)
    return p, message


def _dropped_event(request: HtmxHttpRequest, session: GameSession) -> HttpResponse:
    messages.info(request, gettext("Your entry was dropped; nothing was recorded from it."))
    return _done(request, session, reverse("scorer:session", args=[session.code]))


def _record_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    now = round_now_of(session)
    if request.method == "POST":
        if "taken:discard" in taps_of(request):
            return _dropped_event(request, session)
        p, message = _posted_event(request, session, rs, now)
        phone.save_draft(request, session, p.hidden())
        return _render_event(request, session, p, now, message)
    kind = request.GET.get("kind", "")
    draft = phone.load_draft(request, session)
    if draft and kind in ("", draft.get("kind")):
        # The phone's entry in progress (a reload, or back to the page): as it was.
        p = EventPick.read(draft, session, rs, now)
    else:
        p = EventPick.fresh_event(session, rs, now, kind)
        if phone.last_mode(request) == "quick" and p.catalog:
            p.mode = "quick"
    p.author = phone.my_name(request, session)
    return _render_event(request, session, p, now)


def _preview_event(request: HtmxHttpRequest, session: GameSession, rs: Ruleset) -> HttpResponse:
    now = round_now_of(session)
    if "taken:discard" in taps_of(request):
        return _dropped_event(request, session)
    p, message = _posted_event(request, session, rs, now)
    phone.save_draft(request, session, p.hidden())
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
    now = round_now_of(session)
    p = EventPick.read(request.POST, session, rs, now)
    who_records(request, session, p)
    if "taken:next" in taps_of(request):
        # "Record it as round N": a confirm (issue 27), starting the next round.
        fresh = EventPick.fresh_event(session, rs, now, p.kind)
        p.for_round, p.dealer, p.expected = fresh.for_round, fresh.dealer, fresh.expected
    try:
        token = uuid.UUID(p.token)
    except ValueError:
        p.token = str(uuid.uuid4())
        msg = gettext("This form had expired. Check the round and confirm again.")
        return _render_event(request, session, p, now, msg, status=refused)
    if RoundRevision.objects.filter(round__session=session, token=token).exists():
        # A double tap, or a retry after a lost answer: the event is already in.
        return _done(request, session, done)
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
            _author(request, session, p),
            expected=p.expected,
            join_last_win=p.join,
            position=position,
            number=p.for_round,
        )
    except RoundTaken:
        # The form shows the round recorded meanwhile and asks what to do with this event.
        return _render_event(request, session, p, now, status=200 if request.htmx else 409)
    except RuleError as e:
        now = round_now_of(session)
        if p.expected != now.count:
            # Another phone added an event meanwhile: show the round as it is now;
            # the next confirm, made knowing it, goes through.
            p = EventPick.read(
                {**request.POST.dict(), "expected": str(now.count)}, session, rs, now
            )
        return _render_event(request, session, p, now, rule_error_text(e), status=refused)
    if rnd.in_progress:
        msg = gettext("Added to round %(number)s.") % {"number": rnd.number}
    else:
        msg = gettext("Round %(number)s is over.") % {"number": rnd.number}
    messages.success(request, msg)
    return _done(request, session, done)
