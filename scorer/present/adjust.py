"""The adjustment and penalty form (scorer/views/adjust.py) as it reads and shows:
the entry a post says, a recorded entry as the form's values (a correction starts
from it), and what the template lays out.  One small form, no tile picker: its
state is its fields, read here without trusting them (the model checks the entry).
"""

from __future__ import annotations

from typing import Any

from scorer.clean.parse import int_or_none
from scorer.language import by_language
from scorer.models import GameSession, RoundRevision
from scorer.scoring import MAX_POINTS

__all__ = ["LINES", "adjust_data", "adjust_entry", "adjust_form"]

LINES = 4  # line rows the form shows; blank ones are ignored


def adjust_entry(post: Any, session: GameSession) -> dict[str, Any]:
    """The entry the form says (checked by the model: nothing is trusted here)."""
    n = session.n_players
    if post.get("kind") == RoundRevision.PENALTY:
        entry: dict[str, Any] = {"kind": "penalty", "penalty": post.get("penalty", ""),
                                 "seat": int_or_none(post.get("seat"), 0, n - 1)}  # fmt: skip
        table = session.rules.table
        kind = table.penalty(entry["penalty"])
        ranges = {si.id: (si.min, si.max) for si in table.seat_inputs}
        inputs = {}
        for sid in kind.inputs if kind is not None else ():
            lo, hi = ranges.get(sid, (None, None))
            values = [int_or_none(post.get(f"{sid}_{s}", "0") or "0", lo, hi) for s in range(n)]
            inputs[sid] = values
        if inputs:
            entry["seat_inputs"] = inputs
        return entry
    lines = []
    for k in range(LINES):
        frm, to, amount = (post.get(f"{x}_{k}", "").strip() for x in ("from", "to", "amount"))
        if frm == to == amount == "" or (amount == "" and "" in (frm, to)):
            continue  # a blank row (or one with nothing to move)
        lines.append(
            {
                "from": int_or_none(frm, 0, n - 1),
                "to": int_or_none(to, 0, n - 1),
                "amount": int_or_none(amount, 1, MAX_POINTS),
            }  # fmt: skip
        )
    return {"kind": "adjust", "reason": post.get("reason", ""), "lines": lines}


def adjust_form(session: GameSession, data: dict[str, Any]) -> dict[str, Any]:
    """What the template shows: the players, the declared penalties, the rows."""
    table = session.rules.table
    names = list(session.players)
    penalties = [
        {
            "id": p.id,
            "label": by_language(p.zh, p.en),
            # Its sentence ends in the page's language: "（口口翻 500）。这桌…", not ". 这桌".
            "help": by_language(f"{p.help_zh.rstrip('。.')}。", f"{p.help_en.rstrip('.')}. "),
            "inputs": [
                {
                    "id": si.id,
                    "label": by_language(si.zh, si.en),
                    "min": si.min,
                    "max": si.max,
                    "seats": [
                        {"seat": s, "name": names[s], "value": data.get(f"{si.id}_{s}", si.default)}
                        for s in range(len(names))
                    ],
                }
                for si in table.seat_inputs
                if si.id in p.inputs
            ],  # fmt: skip
            "to": session.rules.params.get(p.to_param, "others"),
        }
        for p in table.penalties
    ]
    rows = [
        {k: data.get(f"{k}_{i}", "") for k in ("from", "to", "amount")} | {"i": i}
        for i in range(LINES)
    ]
    return {"names": list(enumerate(names)), "penalties": penalties, "rows": rows}


def adjust_data(entry: dict[str, Any] | None) -> dict[str, Any]:
    """A recorded entry as the form's values (a correction starts from it)."""
    if not entry:
        return {}
    if entry.get("kind") == RoundRevision.PENALTY:
        data = {"kind": "penalty", "penalty": entry.get("penalty"), "seat": entry.get("seat")}
        for sid, values in (entry.get("seat_inputs") or {}).items():
            for s, v in enumerate(values):
                data[f"{sid}_{s}"] = v
        return data
    data = {"kind": "adjust", "reason": entry.get("reason", "")}
    for i, line in enumerate(entry.get("lines") or []):
        for k in ("from", "to", "amount"):
            data[f"{k}_{i}"] = line.get(k)
    return data
