"""The table's clock: one place that says what time it is, and the arithmetic of a
table's time (its start, its pauses for a meal or a rest, its close).

`now()` is the app's clock for everything the till bills by time.  Tests (and the
browser test) set it (`set_now`, `frozen`) to simulate an evening in a few
milliseconds instead of waiting; in production it is `django.utils.timezone.now`.

A table's pauses are kept as a list of [start, end] instants (ISO text, end None
while the pause runs) on the table itself: the time billed is the time from the
start to the end minus the pauses' overlap with it, so a table closed later from
the dashboard "at 23:40" bills to 23:40 even if a pause was still running then.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.utils import timezone

_now: dt.datetime | None = None


def now() -> dt.datetime:
    """What time it is for the till (aware); the set time when a test has set one."""
    return _now if _now is not None else timezone.now()


def set_now(when: dt.datetime | None) -> None:
    """Set the till's clock (None: back to the real time).  For tests and benchmarks."""
    global _now
    if when is not None and timezone.is_naive(when):
        when = timezone.make_aware(when)
    _now = when


@contextmanager
def frozen(when: dt.datetime) -> Iterator[None]:
    """The till's clock at `when` inside the block (a test's evening)."""
    before = _now
    set_now(when)
    try:
        yield
    finally:
        set_now(before)


def parse(text: Any) -> dt.datetime | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return timezone.make_aware(when) if timezone.is_naive(when) else when


Pause = tuple[dt.datetime, dt.datetime | None]


def pauses_of(raw: Any) -> list[Pause]:
    """A table's stored pauses, read ([[start, end|None], ...]; anything unreadable dropped)."""
    out: list[Pause] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, list) and len(item) == 2:
            start = parse(item[0])
            if start is not None:
                out.append((start, parse(item[1])))
    return out


def pauses_json(pauses: Sequence[Pause]) -> list[list[str | None]]:
    return [[a.isoformat(), b.isoformat() if b is not None else None] for a, b in pauses]


def paused_seconds(pauses: Sequence[Pause], start: dt.datetime, end: dt.datetime) -> int:
    """How much of [start, end] the pauses cover (a running pause runs to `end`)."""
    total = 0.0
    for a, b in pauses:
        lo, hi = max(a, start), min(b if b is not None else end, end)
        if hi > lo:
            total += (hi - lo).total_seconds()
    return int(total)


def billed_seconds(start: dt.datetime, end: dt.datetime, pauses: Sequence[Pause]) -> int:
    """The table's time as billed: start to end, less its pauses (never negative)."""
    if end <= start:
        return 0
    return max(0, int((end - start).total_seconds()) - paused_seconds(pauses, start, end))


def running_pause(pauses: Sequence[Pause]) -> dt.datetime | None:
    """When the pause still running began (None: the clock runs)."""
    return pauses[-1][0] if pauses and pauses[-1][1] is None else None


def duration_text(seconds: int) -> str:
    """2:10 for two hours ten minutes (what the ticking clock shows before its script runs)."""
    minutes = max(0, seconds) // 60
    return f"{minutes // 60}:{minutes % 60:02d}"


__all__ = [
    "Pause",
    "billed_seconds",
    "duration_text",
    "frozen",
    "now",
    "parse",
    "paused_seconds",
    "pauses_json",
    "pauses_of",
    "running_pause",
    "set_now",
]
