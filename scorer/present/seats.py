"""How a row of seat buttons (winner, discarder, kong) lays out its names at 360 px.

A name on a seat button shows on two lines at most, then an ellipsis.  Four
buttons on a line leave each about 2.7 em (in English, whose row label is wider;
five buttons where 自摸 joins four seats): enough for most names, not for two
players alike at the start ("欧阳长风" / "欧阳长云" showed "欧阳…" twice).  So
each name needs what tells it from the others (its shortest prefix no other name
shares, with the ellipsis when cut), and the row puts fewer seats on a line when
that does not fit: two, else one (16 characters, the longest name, fit there).

Own code, no library: the widths are an estimate of the system font's (a CJK
character is 1 em, a Latin one 0.6, a capital or m/w more), checked by the
browser test tests/browser/test_long_names.py, which reads what each button
really shows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from os.path import commonprefix

# A seat button's line, in em of its 15-px text, by seats on a line (narrowest case).
LINE_EM = {4: 2.7, 2: 7.5}
ELLIPSIS_EM = 1.0


def _em(c: str) -> float:
    if unicodedata.east_asian_width(c) in ("W", "F"):
        return 1.0
    if c in "mwMW@%":
        return 0.95
    return 0.75 if c.isupper() else 0.6


def telling_part(name: str, names: Sequence[str]) -> str:
    """The shortest start of `name` that no other name at the table begins with."""
    shared = max((len(commonprefix([name, other])) for other in names if other != name), default=0)
    return name[: shared + 1]


def _fits(name: str, names: Sequence[str], line_em: float) -> bool:
    part = telling_part(name, names)
    widths = [_em(c) for c in part] + ([ELLIPSIS_EM] if len(part) < len(name) else [])
    lines, used = 1, 0.0
    for w in widths:
        if used + w > line_em:
            lines, used = lines + 1, 0.0
        used += w
    return lines <= 2


def seat_columns(names: Sequence[str]) -> int | None:
    """Seats on a line in a row of name buttons: None (all of them), 2 or 1."""
    names = [str(n) for n in names]
    for cols in (4, 2):
        if all(_fits(n, names, LINE_EM[cols]) for n in names):
            return None if cols == 4 else cols
    return 1
