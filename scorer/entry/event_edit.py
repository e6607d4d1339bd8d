"""A round played as events, corrected: its steps, each one re-entered on the event
form (`EventPick`) prefilled, removed, or a step added; the round is then settled
again whole and saved as one new version (`Round.revise`).

A step is one event, or one winner who joined the win before it on its discard
(一炮多响), as `rules.registry.event_steps` counts them: the form adds one at a
time, so it corrects one at a time.  The steps are joined back into the round's
events by the ruleset's own `with_event`, the same merge `GameSession.add_event`
makes, so a corrected round is stored exactly as one recorded right would be.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from rules.registry import Ruleset
from rules.tiles import tile_str
from scorer.entry.event_pick import EventPick
from scorer.entry.melds import meld_of
from scorer.entry.round_now import RoundNow
from scorer.models import GameSession, Round

Step = dict[str, Any]  # {"event": the event as the form adds it, "join": joins the last win}


def steps_of(events: Sequence[Any]) -> list[Step]:
    """The round's events as the steps they were added in."""
    steps: list[Step] = []
    for ev in events:
        if not isinstance(ev, Mapping):
            continue
        winners = ev.get("winners")
        if ev.get("type") == "win" and isinstance(winners, list) and len(winners) > 1:
            steps.append({"event": {**ev, "winners": winners[:1]}, "join": False})
            for w in winners[1:]:
                joined = {"type": "win", "discarder": ev.get("discarder"), "winners": [w]}
                steps.append({"event": joined, "join": True})
        else:
            steps.append({"event": dict(ev), "join": False})
    return steps


def events_of(steps: Sequence[Step], session: GameSession) -> list[Any]:
    """The steps joined back into the round's events; RuleError where one cannot
    join the win before it (it is no longer a win on the same discard)."""
    rules = session.rules
    events: list[Any] = []
    for step in steps:
        events = rules.ruleset.with_event(events, step["event"], rules.params, bool(step["join"]))
    return events


def now_before(session: GameSession, rnd: Round, steps: Sequence[Step], i: int) -> RoundNow:
    """The round as it stood before step `i`: what the event form checks that step
    against (who is out, the kongs made, the tiles already shown)."""
    rev = rnd.current
    assert rev is not None
    events = events_of(steps[:i], session)
    out: list[int] = []
    for ev in events:
        if isinstance(ev, Mapping) and ev.get("type") == "win":
            out += [int(w["seat"]) for w in ev.get("winners") or [] if isinstance(w, Mapping)]
    turned = str(rev.entry.get("turned") or "")
    hand = rnd.hand_number() or rnd.number
    return RoundNow(rnd, rnd.number, events, tuple(out), rev.dealer, rev.prevalent_wind,
                    turned, hand)  # fmt: skip


def _hand_fields(hand: Mapping[str, Any]) -> tuple[str, str, str]:
    """A stored hand as the form's hand, win_tile and melds fields."""
    melds = []
    for m in hand.get("melds") or []:
        read = meld_of(m) if isinstance(m, Mapping) else None
        if read is not None:
            melds.append(f"{read[0]}:{tile_str(read[1])}")
    return str(hand.get("concealed") or ""), str(hand.get("win_tile") or ""), " ".join(melds)


def _fans_field(fans: Any) -> str:
    return ",".join(f"{k}:{v}" for k, v in fans.items()) if isinstance(fans, Mapping) else ""


def form_of(step: Step) -> dict[str, str]:
    """The event form's fields (scorer/entry/event_pick.py) for a step as stored."""
    ev = step["event"]
    kind = str(ev.get("type"))
    data: dict[str, str] = {"token": str(uuid.uuid4()), "kind": kind, "mode": "tiles"}
    if kind == "kong":
        d = ev.get("discarder")
        data |= {"player": str(ev.get("player")), "kong": str(ev.get("kong") or ""),
                 "discarder": "" if d is None else str(d),
                 "kong_tile": str(ev.get("tile") or "")}  # fmt: skip
    elif kind == "win":
        w = (ev.get("winners") or [{}])[0]
        d = ev.get("discarder")
        data |= {"winner": str(w.get("seat")), "discarder": "self" if d is None else str(d),
                 "join": "1" if step["join"] else "",
                 "flags": ",".join(k for k, v in ev.items() if v is True)}  # fmt: skip
        if isinstance(w.get("fans"), Mapping):
            data |= {"mode": "quick", "fans": _fans_field(w["fans"])}
        elif isinstance(w.get("hand"), Mapping):
            data["hand"], data["win_tile"], data["melds"] = _hand_fields(w["hand"])
        counts = ev.get("seat_inputs")
        if isinstance(counts, Mapping):
            for k, v in counts.items():
                data[f"si_{k}"] = ",".join(map(str, v)) if isinstance(v, list) else ""
    elif kind == "wall_end":
        hands = [h for h in ev.get("hands") or [] if isinstance(h, Mapping)]
        shown = [h for h in hands if "status" not in h]
        for h in hands:
            s = h.get("seat")
            if "status" in h:
                fans = _fans_field(h.get("fans"))
                data[f"ws_{s}"] = str(h["status"]) + (f":{fans}" if fans else "")
            elif h is shown[0]:
                data["seat"] = str(s)
                data["hand"], _, data["melds"] = _hand_fields(h)
            else:
                concealed, _, melds = _hand_fields(h)
                data[f"wall_{s}"] = f"{concealed} {melds}".strip()
        if not shown and hands:
            data["seat"] = str(hands[0].get("seat"))
    return data


def step_pick(session: GameSession, rs: Ruleset, now: RoundNow, step: Step | None) -> EventPick:
    """The event form for a step, prefilled (`step` None: a step to add at the end)."""
    if step is None:
        p = EventPick.fresh(session, rs, "win", now=now)
    else:
        p = EventPick.read(form_of(step), session, rs, now)
    p.for_round, p.expected = now.number, now.count
    return p


__all__ = ["Step", "events_of", "form_of", "now_before", "step_pick", "steps_of"]
