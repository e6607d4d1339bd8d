"""A round picked whole corrected (scorer/views/record_edit.py): the record form
prefilled from the round's current version (a round of events is corrected a step at
a time: event_edit.py)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from rules import RuleError
from rules.tiles import parse_tile, parse_tiles
from scorer.clean.parse import int_or_none
from scorer.entry.melds import MELD_FROM, meld_of
from scorer.entry.pick import Pick
from scorer.models import Round

__all__ = ["pick_of_entry"]


def pick_of_entry(entry: Mapping[str, Any], rnd: Round) -> Pick:
    """Prefill from a recorded entry (a round's current revision), for a correction."""
    rev = rnd.current
    assert rev is not None
    p = Pick(token=str(uuid.uuid4()), dealer=rev.dealer, wind=rev.prevalent_wind)
    p.spec = rnd.session.rules.table
    p.base = rev.number
    turned = entry.get("turned")
    if turned:
        try:
            p.turned = parse_tile(turned)
        except RuleError:
            p.turned = None
    if entry.get("kind") == "draw":
        p.kind = "draw"
        return p
    p.winner = entry.get("winner")
    d = entry.get("discarder")
    p.discarder = "self" if d is None else str(d)
    if entry.get("mode") == "quick":
        p.mode = "quick"
        raw = entry.get("fans") or {}
        p.fans = {int(k): int(v) for k, v in raw.items() if int(v)}
        p.flowers = int(entry.get("flowers") or 0)
        return p
    hand = entry.get("hand") or {}
    try:
        p.concealed = sorted(parse_tiles(hand.get("concealed", [])))
        w = hand.get("win_tile")
        p.win_tile = parse_tile(w) if w else None
        for m in hand.get("melds") or []:
            read = meld_of(m)
            if read is not None and read[0] in p.spec.melds:
                p.melds.append(read)
                frm = m.get("claimed_from") or ""
                p.meld_from.append(frm if frm in MELD_FROM else "")
    except (RuleError, AttributeError, TypeError):
        pass  # an entry this page cannot show: the picker starts from what it read
    p.flags = {f for f in p.flag_ids if hand.get(f) is True}
    given = entry.get("seat_inputs") or {}
    for si in p.spec.seat_inputs:
        values = given.get(si.id) if isinstance(given, Mapping) else None
        if isinstance(values, list) and all(isinstance(v, int) for v in values):
            p.seat_values[si.id] = list(values)
    p.flowers = int_or_none(hand.get("flowers", 0), 0, p.spec.flowers) or 0
    return p
