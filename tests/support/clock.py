"""The app's clock (scorer/clock.py) held at one instant, and let go after."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from scorer import clock


@contextmanager
def clock_at(at: dt.datetime) -> Iterator[None]:
    """scorer.clock.now() is `at` inside (a test moves it on with clock.set_now);
    the real time again after, whatever happened."""
    clock.set_now(at)
    try:
        yield
    finally:
        clock.set_now(None)
