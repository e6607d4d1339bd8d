"""The reader's language: which one is active, and the words every layer shows in it.

The bottom of scorer/: models, presenters, form states and views all name tiles,
seats and the engine's bilingual texts the same way, so they import these from
here (nothing here imports from the app).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language

from rules import RuleError
from rules.tiles import tile_en, tile_zh


def is_zh() -> bool:
    """Whether the reader reads Chinese (the active language is zh-*)."""
    return (get_language() or "").lower().startswith("zh")


def by_language(zh: Any, en: Any) -> str:
    """The engine's texts come in both languages: pick the active one ("" for none)."""
    return str((zh if is_zh() else en) or "")


def rule_error_text(e: RuleError) -> str:
    """The engine's message in the reader's language."""
    return e.message_zh if is_zh() else e.message


def seat_name(names: Sequence[str], seat: Any) -> str:
    """The player in that seat; "#seat" for anything that is not a seat (a bool is not)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def tile_name(t: int) -> str:
    """A tile as the reader calls it: 五万 / 5 Characters."""
    return tile_zh(t) if is_zh() else tile_en(t)
