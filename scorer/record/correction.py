"""The correction page of a round played as events (scorer/views/record_edit_events.py):
its steps as this phone has changed them, each with 改 and 删, and what the round
comes to once they are settled again by the engine, beside what it is now.

Nothing here is saved: the page shows the phone's working copy; its 确认 makes one
new version of the round (`Round.revise`, under the table's lock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from rules import RuleError
from scorer.entry.event_edit import Step, events_of
from scorer.language import rule_error_text, seat_name
from scorer.models import GameSession, Round, errors
from scorer.money.fees import FeeRule, charged
from scorer.present.events import describe
from scorer.present.words import name_seats
from scorer.scoring import score_entry
from scorer.templatetags.scorer_format import sign_class


@dataclass(frozen=True)
class StepRow:
    index: int  # its place among the steps (what 改 and 删 send)
    text: str
    joined: bool  # a winner who joined the win before it (一炮多响)


@dataclass(frozen=True)
class CorrectionPage:
    session: GameSession
    round: Round
    hand: int  # "第 N 局"
    steps: Sequence[StepRow]
    # Each player's points in this round, now and once corrected ("" when it cannot be).
    seats: Sequence[Mapping[str, Any]] = field(default_factory=list)
    changed: bool = False  # the steps differ from the round as recorded
    problem: str = ""  # why the corrected round cannot be saved, in the players' words
    message: str = ""  # the answer to the last 确认, when it saved nothing


def _step_texts(
    steps: Sequence[Step], said: Sequence[Mapping[str, Any]], names: list[str]
) -> list[str]:
    """One line per step: the event's own line for the first step of each event (the
    engine's words), and the joining winner's name for the others."""
    out: list[str] = []
    event = -1
    for step in steps:
        ev = step["event"]
        if step["join"]:
            w = (ev.get("winners") or [{}])[0]
            out.append(
                gettext("%(name)s also won on the same discard")
                % {"name": seat_name(names, w.get("seat"))}
            )
            continue
        event += 1
        out.append(str(said[event]["text"]) if event < len(said) else _plain(ev, names))
    return out


def _plain(ev: Mapping[str, Any], names: list[str]) -> str:
    """An event said without the engine (the round as corrected does not settle)."""
    kind = ev.get("type")
    if kind == "kong":
        return gettext("Kong: %(name)s") % {"name": seat_name(names, ev.get("player"))}
    if kind == "win":
        w = (ev.get("winners") or [{}])[0]
        return gettext("Win: %(name)s") % {"name": seat_name(names, w.get("seat"))}
    if kind == "wall_end":
        return gettext("The wall's end")
    return str(kind)


def correction_page(
    session: GameSession,
    rnd: Round,
    steps: Sequence[Step],
    original: Sequence[Step],
    message: str = "",
) -> CorrectionPage:
    rev = rnd.current
    assert rev is not None
    names = list(session.players)
    table = session.rules.table
    before = [int(d) for d in rev.deltas]
    after: list[int | None] = [None] * len(names)
    said: list[dict[str, Any]] = []
    problem = ""
    try:
        events = events_of(steps, session)
        if not events:
            raise errors.ROUND_EMPTY.error()
        entry = {"kind": "round", "dealer": rev.dealer, "prevalent_wind": rev.prevalent_wind,
                 **({"turned": rev.entry["turned"]} if rev.entry.get("turned") else {}),
                 "events": events}  # fmt: skip
        scored = score_entry(session, entry)
        said = describe(scored.result, names, table.reasons, table.scoring)
        if not scored.result.get("finished") and not rnd.in_progress:
            raise errors.ROUND_END_KEPT.error()
        after = [int(d) for d in charged(scored, FeeRule.of(session.fee)).deltas]
    except RuleError as e:
        problem = name_seats(rule_error_text(e), names)
    texts = _step_texts(steps, said, names)
    rows = [
        StepRow(i, t, bool(s["join"])) for i, (s, t) in enumerate(zip(steps, texts, strict=True))
    ]
    seats = [
        {"name": name, "before": b, "after": a, "sign": sign_class(a if a is not None else b),
         "moved": a is not None and a != b}
        for name, b, a in zip(names, before, after, strict=True)
    ]  # fmt: skip
    return CorrectionPage(
        session=session,
        round=rnd,
        hand=rnd.hand_number() or rnd.number,
        steps=rows,
        seats=seats,
        changed=list(steps) != list(original),
        problem=problem,
        message=message,
    )


__all__ = ["CorrectionPage", "StepRow", "correction_page"]
