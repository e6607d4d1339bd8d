"""What a 日结 keeps of the room's day, and how a closed day shows it: the figures
of the day's books (scorer/services/books.py) as they were at the close, what
changed since, table by table ("日结后：+7.50 元 应收"), and the cash counted
against the cash expected (长短款).  Kept as text in `DayClose.figures` (JSON keeps
no Decimal), read back through scorer/clean/parse.py."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scorer.clean.parse import money_or_none
from scorer.models.money import METHODS, ZERO, DayClose
from scorer.services.books import Books


def kept_figures(b: Books) -> dict[str, Any]:
    """What a 日结 keeps of one day's books (text for money: JSON keeps no Decimal)."""
    total = b.total
    return {
        "charged": str(total.charged),
        "collected": str(total.collected),
        "later": str(total.later),
        "owed": str(total.owed),
        "point_money": str(total.point_money),
        "points": total.points,
        "taken": {m: str(v) for m, v in total.taken.items()},
        "by_admin": {a: str(v) for a, v in total.by_admin.items()},
        "tables": [
            {
                "session": r.session_id,
                "code": r.code,
                "label": r.label,
                "players": r.players,
                "charged": str(r.charged),
                "collected": str(r.collected),
                "owed": str(r.owed),
                "reopened": r.reopened is not None,
            }
            for r in b.rows
        ],
    }


@dataclass
class KeptRow:
    code: str
    label: str
    players: list[str]
    charged: Decimal
    collected: Decimal
    reopened: bool
    # What changed since the close: (charged, collected) differences.
    since_charged: Decimal = ZERO
    since_collected: Decimal = ZERO

    @property
    def owed(self) -> Decimal:
        return self.charged - self.collected


@dataclass
class Kept:
    """A closed day's kept figures, as its page shows them, and what changed since."""

    close: DayClose
    charged: Decimal
    collected: Decimal
    later: Decimal
    owed: Decimal
    taken: list[tuple[str, Decimal]]
    by_admin: list[tuple[str, Decimal]]
    cash: Decimal
    rows: list[KeptRow]
    since_taken: Decimal = ZERO

    @property
    def over_short(self) -> Decimal | None:
        """长短款: the cash counted less the cash expected (None: not counted)."""
        c = self.close.cash_counted
        return None if c is None else c - self.cash

    @property
    def changed(self) -> list[KeptRow]:
        return [r for r in self.rows if r.since_charged or r.since_collected]


def kept(close: DayClose, now: Books | None = None) -> Kept:
    """A closed day's kept figures; with the day's books as they are now, what changed
    since, table by table."""
    f = close.figures

    def d(v: Any) -> Decimal:  # a figure kept as text ("-7.50"), read by scorer/clean/parse.py
        return money_or_none(v) or ZERO

    taken = {m: d(v) for m, v in f.get("taken", {}).items()}
    rows = {
        t["session"]: KeptRow(
            t["code"],
            t["label"],
            t["players"],
            d(t["charged"]),
            d(t["collected"]),
            t.get("reopened", False),
        )
        for t in f.get("tables", [])
    }
    out = Kept(
        close=close,
        charged=d(f.get("charged", 0)),
        collected=d(f.get("collected", 0)),
        later=d(f.get("later", 0)),
        owed=d(f.get("owed", 0)),
        taken=[(str(METHODS[m]), taken[m]) for m in METHODS if m in taken],
        by_admin=[(a, d(v)) for a, v in f.get("by_admin", {}).items()],
        cash=taken.get("cash", ZERO),
        rows=list(rows.values()),
    )
    if now is not None:
        for r in now.rows:
            k = rows.get(r.session_id)
            if k is None:
                k = KeptRow(r.code, r.label, r.players, ZERO, ZERO, False)
                out.rows.append(k)
            k.since_charged = r.charged - k.charged
            k.since_collected = r.collected - k.collected
        present = {r.session_id for r in now.rows}
        for sid, k in rows.items():
            if sid not in present:
                k.since_charged, k.since_collected = -k.charged, -k.collected
        out.since_taken = now.total.taken_total - sum(taken.values(), ZERO)
    return out


__all__ = ["Kept", "KeptRow", "kept", "kept_figures"]
