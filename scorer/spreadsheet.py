"""Cells a spreadsheet reads as they are meant: the CSV exports' shared helpers
(the room's day report, a table's transfers).

Numbers are written bare (an ASCII minus, no "+", no thousands separator) so
Excel and WPS sum them; times in the site's local time (TIME_ZONE), as the pages
show them; the text starts with a BOM so that Excel opens the Chinese as UTF-8.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.utils import timezone

BOM = "\ufeff"


def local_time(t: dt.datetime | None) -> str:
    """A time as the pages show it, in the site's time zone: 2026-11-26 20:07 ("" for none)."""
    return "" if t is None else timezone.localtime(t).strftime("%Y-%m-%d %H:%M")


def amount(money: Decimal | None) -> str:
    """Money in a spreadsheet's terms: "12.50", an ASCII minus (the pages' "−" is not a number there)."""
    return "" if money is None else str(money.quantize(Decimal("0.01")))


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows as CSV text, BOM first."""
    out = io.StringIO()
    out.write(BOM)
    csv.writer(out).writerows(rows)
    return out.getvalue()


__all__ = ["BOM", "amount", "csv_text", "local_time"]
