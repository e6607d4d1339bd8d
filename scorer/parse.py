"""Values from outside (a post, a stored entry), read without trusting them: what does
not parse is None, and the caller says what None means."""

from __future__ import annotations

from typing import Any


def int_or_none(raw: Any, lo: int | None = None, hi: int | None = None) -> int | None:
    """The whole number `raw` holds, within [lo, hi] where given; None for anything else."""
    try:
        v = int(raw)
    except (TypeError, ValueError):
        return None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return None
    return v
