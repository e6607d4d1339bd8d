"""Values from outside (a post, a URL, a header, a stored entry, an imported file),
read without trusting them: what does not parse, or parses to a value out of its
range, is None, and the caller says what None means.  Every number and day the app
reads from outside is read here, with its range, where it is read; nowhere else
calls `int()`, `float()` or `Decimal()` on outside text (tests/site/test_structure.py
looks for it).

One field reads one way.  A number is ASCII digits, with a sign only where the
field's range goes below zero, and for an amount a point and at most its places
(two for money: the 分).  Refused, whatever Python's own readers would take:
other scripts' digits (٢٠), superscripts and circled digits (², ①), underscores
(2_0), spaces inside or around (" 20"; a form strips its field first, as Django
does), exponents (1e3), NaN and infinities, and anything longer than a number of
its kind can be.  Full-width digits (２０, what a Chinese keyboard types in its
full-width mode) and the full-width point, minus and plus are read as their ASCII
selves before the check: a player who typed them meant the number (docs/security.md).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

# The days a table can be played on, as far as the app reads one: a report's day,
# an imported table's times.  Far inside what a date can hold, so that a day's
# bounds in local time and their UTC (scorer/services/day.py) never overflow (9999-12-31
# has no next day; 0001-01-01 00:00 in Shanghai is in year 0 in UTC).
FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2999, 12, 31)
# Money per point (GameSession.money_per_point: ten digits, two after the point).
MAX_RATE = Decimal("99999999.99")
# The decimals a ruleset's float parameter is typed with on the start form (0.125).
MAX_PARAM_PLACES = 6
# A seat at a table: 0 to 3 (a table seats 2 to 4).
MAX_SEAT = 3
# A round or version number a form may say (a table plays a few dozen rounds).
MAX_ROUND = 1_000_000
# A row's id in a URL or a form (a database's primary key: a bigint holds 2**63 - 1;
# past it, the lookup itself fails on PostgreSQL and SQLite alike).
MAX_ID = 2**63 - 1
# A version number on a stream (Last-Event-ID, ?v=): the table's own counter.
MAX_VERSION = 2**63 - 1
# The longest text a number is read from: 19 digits (MAX_ID) and a sign.  Longer
# text is refused before any conversion (Python's int() refuses 4,300 digits only).
MAX_DIGITS = 20

_FULL_WIDTH = str.maketrans("０１２３４５６７８９．－＋", "0123456789.-+")
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?[0-9]+(?:\.([0-9]+))?")


def ascii_number(raw: str) -> str:
    """`raw` with full-width digits, point and signs read as ASCII; the one mending."""
    return raw.translate(_FULL_WIDTH)


def _text_of(raw: Any) -> str | None:
    """The text a number is read from: a str, or bytes as ASCII (a header); None else."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(raw, str) or not 0 < len(raw) <= MAX_DIGITS:
        return None
    return ascii_number(raw)


def _in_range(v: Any, lo: Any, hi: Any) -> bool:
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def int_or_none(raw: Any, lo: int | None = None, hi: int | None = None) -> int | None:
    """The whole number `raw` holds, within [lo, hi] where given; None for anything else.

    `raw` is text (or header bytes) read as the module says, or an int a JSON reader
    gave (never a bool, never a float: 2.0 is not how a count is written).  A sign is
    taken only where `lo` lets the number be negative."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        v = raw
    else:
        text = _text_of(raw)
        if text is None or not _WHOLE.fullmatch(text):
            return None
        if text[0] in "+-" and (lo is not None and lo >= 0):
            return None
        v = int(text)
    return v if _in_range(v, lo, hi) else None


def decimal_or_none(
    raw: Any, places: int, lo: Decimal | int | None = None, hi: Decimal | int | None = None
) -> Decimal | None:
    """The number `raw` holds with at most `places` decimals (`12.5`, `12.50`), within
    [lo, hi]; None for anything else.  Text as the module says, or an int or Decimal
    the app or a JSON reader gave (never a float, a bool, NaN or an infinity)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = Decimal(raw)
    elif isinstance(raw, Decimal):
        if not raw.is_finite():
            return None
        value = raw
        if value != value.quantize(Decimal(1).scaleb(-places)):
            return None
    else:
        text = _text_of(raw)
        m = _DECIMAL.fullmatch(text) if text is not None else None
        if text is None or m is None or len(m.group(1) or "") > places:
            return None
        if text[0] in "+-" and (lo is not None and lo >= 0):
            return None
        value = Decimal(text)
    return value if _in_range(value, lo, hi) else None


def money_or_none(
    raw: Any, lo: Decimal | int | None = None, hi: Decimal | int | None = None
) -> Decimal | None:
    """An amount in 元 to the 分 (`12.50`, `12.5`, `12`), within [lo, hi], as a Decimal
    with two places; None for anything else."""
    value = decimal_or_none(raw, 2, lo, hi)
    return None if value is None else value.quantize(Decimal("0.01"))


def id_or_none(raw: Any) -> int | None:
    """A row's id from a URL or a form: 1 to MAX_ID, or None."""
    return int_or_none(raw, 1, MAX_ID)


def page_number(raw: Any) -> int:
    """A list's page (?page=3): 1 when it is none (Paginator.get_page then says the last
    page for one past it); Django's own reading would take ٣ for 3."""
    return int_or_none(raw, 1, MAX_ID) or 1


def preset_config_id(preset: Any) -> int | None:
    """The room configuration a table's `preset` label names ("room:12"), or None.
    A table made here says it so; an imported table's preset is another room's label,
    kept as it came and never read (scorer/services/export.py)."""
    if not isinstance(preset, str) or not preset.startswith("room:"):
        return None
    return id_or_none(preset.removeprefix("room:"))


def date_or_none(raw: Any, lo: dt.date = FIRST_DAY, hi: dt.date = LAST_DAY) -> dt.date | None:
    """The day `raw` says (2026-11-26, ASCII digits only), within [lo, hi]; None for
    anything else."""
    if not isinstance(raw, str) or not raw.isascii():
        return None
    try:
        day = dt.date.fromisoformat(raw)
    except ValueError:
        return None
    return day if lo <= day <= hi else None


def datetime_or_none(
    raw: Any, lo: dt.date = FIRST_DAY, hi: dt.date = LAST_DAY
) -> dt.datetime | None:
    """The instant `raw` says (ISO 8601, as the exports write it), on a day within
    [lo, hi] both where it was written and in UTC; one without its offset is in the
    site's time zone.  None for anything else."""
    if not isinstance(raw, str) or not raw.isascii():
        return None
    try:
        when = parse_datetime(raw)
    except ValueError:  # the shape of a time, not one ("2026-13-40T25:00")
        return None
    if when is None or not lo <= when.date() <= hi:
        return None
    if timezone.is_naive(when):
        when = timezone.make_aware(when)
    return when if lo <= when.astimezone(dt.UTC).date() <= hi else None


class NumberConverter:
    """The URLs' whole numbers (`<num:pk>`, a table's number, a round's): 0 to MAX_ID,
    read here.  Django's own `<int:>` takes any run of digits, and one past a bigint
    then fails in the database's lookup (a 500); here it is no such page (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int_or_none(value, 0, MAX_ID)
        if number is None:
            raise ValueError(value)  # Django: the pattern does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)
