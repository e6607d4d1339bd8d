"""Cells a spreadsheet reads as they are meant, and only as data: the one CSV writer
of every export (a table's transfers, the room's day report, and every CSV after).

Numbers are written bare (an ASCII minus, no "+", no thousands separator) so
Excel and WPS sum them; times in the site's local time (TIME_ZONE), as the pages
show them; the text starts with a BOM so that Excel opens the Chinese as UTF-8.

A text cell is never a formula.  Names and reasons come from anyone at a table
or in an imported file, and a spreadsheet runs a cell that starts with "=", "+",
"-" or "@" (a tab or a carriage return before one hides it): =HYPERLINK(...)
sends the room's books to a stranger.  So every text cell that starts with one of
these gets a leading "'" (OWASP's advice), which the spreadsheet shows as text.
What is a number and what is text is said by the cell's type, never guessed from
its look: the number -42 is written bare, a player named "-42" is neutralised.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.utils import timezone

BOM = "\ufeff"
# What makes a spreadsheet read a cell as a formula (or hides the character that does).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def local_time(t: dt.datetime | None) -> str:
    """A time as the pages show it, in the site's time zone: 2026-11-26 20:07 ("" for none)."""
    return "" if t is None else timezone.localtime(t).strftime("%Y-%m-%d %H:%M")


def amount(money: Decimal | None) -> Decimal | str:
    """Money in a spreadsheet's terms: a number to the 分 ("12.50", an ASCII minus: the
    pages' "−" is not a number there); "" for none."""
    return "" if money is None else money.quantize(Decimal("0.01"))


def cell(value: object) -> object:
    """One cell as it is written: an int or a Decimal bare (a number), anything else as
    text, neutralised when a spreadsheet would evaluate it."""
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_START) else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows as CSV text, BOM first, each cell through `cell`."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return out.getvalue()


__all__ = ["BOM", "FORMULA_START", "amount", "cell", "csv_text", "local_time"]
