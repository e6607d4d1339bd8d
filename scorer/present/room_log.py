"""The room's log as its page reads it: each entry a sentence in the reader's
language ("老板 把 3号桌 停用了" / "老板 retired Table 3"), what it changed field by
field ("底分 8 → 10"), and when, in local time.

An entry's data is what was true when it was written (names, numbers, values);
only the words around them are said at reading time, in the page's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from scorer.models.money import METHODS
from scorer.models.roomlog import LISTS_CHANGES, SENTENCES, RoomLogEntry
from scorer.present.events import join_names
from scorer.present.history import ARROW, change_words

__all__ = ["LogLine", "log_line", "table_label", "tables_text"]

# The config fields said by the configuration history's own words (names, values by
# their labels, the fee), in the order a reader looks for them.
CONFIG_FIELDS = ("name", "params", "fee", "time_fee", "locked", "enabled", "order")


class _Blanks(dict[str, str]):
    """A sentence's placeholders: one the data lacks reads "?", never an error."""

    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True)
class LogLine:
    sentence: str
    changes: tuple[str, ...]
    at: datetime  # local time
    session: str = ""  # a game the entry is about (an admin's close): the page links it

    @property
    def when(self) -> str:
        return self.at.strftime("%Y-%m-%d %H:%M")


def table_label(data: Any) -> str:
    """What the room called a table when the entry was written: its name, else its
    number said in the reader's language ("3号桌" / "Table 3")."""
    if not isinstance(data, Mapping):
        return "?"
    name = data.get("name")
    if name:
        return str(name)
    return gettext("Table %(n)s") % {"n": data.get("number", "?")}


def tables_text(items: Any) -> str:
    """Several tables at once: "1–20号桌" when they are a run of numbered tables,
    else each one's label."""
    tables = [t for t in items if isinstance(t, Mapping)] if isinstance(items, Sequence) else []
    numbers = [n for t in tables if isinstance(n := t.get("number"), int)]
    if (
        len(tables) > 2
        and len(numbers) == len(tables)
        and not any(t.get("name") for t in tables)
        and numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    ):
        return gettext("Tables %(first)s–%(last)s") % {"first": numbers[0], "last": numbers[-1]}
    return join_names([table_label(t) for t in tables])


def _placeholders(entry: RoomLogEntry, data: Mapping[str, Any]) -> _Blanks:
    out = _Blanks()
    for key, value in data.items():
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            out[key] = str(value)
    out["who"] = entry.user_name or gettext("someone")
    table = data.get("table")
    if isinstance(table, Mapping):
        out["table"] = table_label(table)
    elif "table" in data:  # a game started without a fixed table: by its players
        players = data.get("players")
        names = join_names([str(n) for n in players]) if isinstance(players, list) else "?"
        out["table"] = gettext("the table of %(players)s") % {"players": names}
    if "tables" in data:
        out["tables"] = tables_text(data["tables"])
    method = data.get("method")
    if isinstance(method, str) and method in METHODS:
        out["method"] = str(METHODS[method])
    return out


def _value(value: Any) -> str:
    return "–" if value in (None, "") else str(value)


# Fields of a table (or anything else not a configuration) as the log says them.
def _field_word(key: str) -> str:
    return {"number": gettext("Number"), "name": gettext("Name")}.get(key, key)


def change_lines(data: Mapping[str, Any]) -> list[str]:
    """ "label before → after" for each field the entry's before/after differ in."""
    before, after = data.get("before"), data.get("after")
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return []
    keys = [k for k in CONFIG_FIELDS if k in before or k in after]
    keys += sorted(k for k in {*before, *after} if k not in keys)
    ruleset = str(data.get("ruleset") or "")
    lines: list[str] = []
    for key in keys:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if (ruleset and key in CONFIG_FIELDS) or key == "time_fee":
            lines += change_words(ruleset, key, old, new)
        else:
            lines.append(f"{_field_word(key)} {_value(old)}{ARROW}{_value(new)}")
    return lines


def log_line(entry: RoomLogEntry) -> LogLine:
    """One entry as the page shows it."""
    data: Mapping[str, Any] = entry.data if isinstance(entry.data, Mapping) else {}
    fill = _placeholders(entry, data)
    template = SENTENCES.get(entry.action)
    try:
        sentence = str(template) % fill if template is not None else ""
    except (TypeError, ValueError):  # a translation that does not fit its data
        sentence = ""
    if not sentence:
        sentence = f"{fill['who']}: {entry.action}"
    changes = change_lines(data) if entry.action in LISTS_CHANGES else []
    session = data.get("session")
    return LogLine(
        sentence=sentence,
        changes=tuple(changes),
        at=timezone.localtime(entry.at),
        session=session if isinstance(session, str) else "",
    )
