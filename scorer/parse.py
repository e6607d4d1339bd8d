"""Values from outside (a post, a URL, a stored entry, an imported file), read without
trusting them: what does not parse, or parses to a value out of its range, is None,
and the caller says what None means.  Every number and day the app reads from
outside is read here, with its range, where it is read."""

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
# A round or version number a form may say (a table plays a few dozen rounds).
MAX_ROUND = 1_000_000


def int_or_none(raw: Any, lo: int | None = None, hi: int | None = None) -> int | None:
    """The whole number `raw` holds, within [lo, hi] where given; None for anything else."""
    try:
        v = int(raw)
    except (TypeError, ValueError):
        return None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return None
    return v


def date_or_none(raw: Any, lo: dt.date = FIRST_DAY, hi: dt.date = LAST_DAY) -> dt.date | None:
    """The day `raw` says (2026-11-26), within [lo, hi]; None for anything else."""
    if not isinstance(raw, str):
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
    if not isinstance(raw, str):
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


# (issue 44's stand-in until issue 43's reader lands on main: same name, same answer.)
def money_or_none(raw: Any, lo: Decimal | None = None, hi: Decimal | None = None) -> Decimal | None:
    """An amount in 元 `raw` holds (ASCII digits, full-width ones converted, an optional
    sign, at most two decimals), within [lo, hi] where given; None for anything else."""
    if not isinstance(raw, str):
        return None
    text = raw.strip().translate({0xFF10 + i: 0x30 + i for i in range(10)} | {0xFF0E: 0x2E})
    if not re.fullmatch(r"[+-]?[0-9]{1,12}(\.[0-9]{1,2})?", text):
        return None
    v = Decimal(text).quantize(Decimal("0.01"))
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return None
    return v
