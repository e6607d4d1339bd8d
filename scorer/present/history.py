"""A configuration's history as readable lines: "底分 8 → 10 · 老板 · 11-26 20:31".

django-simple-history keeps every saved version of a configuration with who saved
it and when; its diff between consecutive versions names the fields that changed.
Here each change is said in the reader's language: a parameter by its ruleset's
label, a choice by its label, a yes/no as 是/否; the author by the name the room
gives its admin; the time in the site's local time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from rules import REGISTRY
from rules.params import Param
from scorer.language import by_language
from scorer.models.rooms import RoomConfig
from scorer.money.fees import FeeRule
from scorer.money.timefee import time_fee_words

FIELDS = ["name", "params", "fee", "time_fee", "locked", "enabled", "order"]
ARROW = " → "


@dataclass(frozen=True)
class HistoryLine:
    changes: tuple[str, ...]
    who: str
    at: datetime  # local time
    reason: str = ""

    @property
    def when(self) -> str:
        """ "11-26 20:31"; the year too when it is not this one."""
        fmt = "%m-%d %H:%M" if self.at.year == timezone.localtime().year else "%Y-%m-%d %H:%M"
        return self.at.strftime(fmt)

    @property
    def text(self) -> str:
        sep = "；" if by_language("zh", "") else "; "
        return " · ".join(
            p for p in (sep.join(self.changes), self.reason, self.who, self.when) if p
        )


def yes_no(value: Any) -> str:
    return gettext("yes") if value else gettext("no")


def value_text(p: Param | None, value: Any) -> str:
    """A parameter's value as the form shows it."""
    if value is None:
        return "–"
    if p is None:
        return str(value)
    if p.type == "bool":
        return yes_no(value)
    if p.type == "choice":
        return by_language(*p.choice_label(str(value)))
    if p.type == "float" and isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def param_changes(ruleset: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """One "label old → new" per parameter whose value differs, in the ruleset's order."""
    rs = REGISTRY.get(ruleset)
    declared = {p.name: p for p in rs.params} if rs is not None else {}
    names = [n for n in declared if n in old or n in new]
    names += sorted(n for n in {*old, *new} if n not in declared)
    out = []
    for name in names:
        if old.get(name) == new.get(name):
            continue
        p = declared.get(name)
        label = by_language(p.label_zh, p.label_en) if p is not None else name
        out.append(f"{label} {value_text(p, old.get(name))}{ARROW}{value_text(p, new.get(name))}")
    return out


def change_words(ruleset: str, field: str, old: Any, new: Any) -> list[str]:
    if field == "params":
        return param_changes(ruleset, old or {}, new or {})
    if field == "name":
        return [f"{gettext('Name')} {old}{ARROW}{new}"]
    if field == "locked":
        return [
            gettext("values locked: players cannot change them")
            if new
            else gettext("values no longer locked")
        ]
    if field == "enabled":
        return [gettext("offered on the start page") if new else gettext("no longer offered")]
    if field == "order":
        return [gettext("moved up") if (new or 0) < (old or 0) else gettext("moved down")]
    if field == "fee":
        return [f"{FeeRule.of(old or {}).describe()}{ARROW}{FeeRule.of(new or {}).describe()}"]
    if field == "time_fee":
        return [f"{time_fee_words(old)}{ARROW}{time_fee_words(new)}"]
    return [f"{field} {old}{ARROW}{new}"]


def config_history(config: RoomConfig, names: Mapping[int, str]) -> list[HistoryLine]:
    """Every saved version of the configuration, newest first, as lines (one query).
    `names`: user id -> the name the room gives that admin."""
    records = list(
        config.history.select_related("history_user").order_by("history_date", "history_id")
    )
    lines: list[HistoryLine] = []
    previous = None
    for record in records:
        user = record.history_user
        # No user: made by the site itself (a room opened, its presets copied).
        who = gettext("set-up") if user is None else names.get(user.pk) or user.get_username()
        if record.history_type == "+" or previous is None:
            changes = [gettext("created: %(name)s") % {"name": record.name}]
        elif record.history_type == "-":
            changes = [gettext("deleted")]
        else:
            delta = record.diff_against(previous, included_fields=FIELDS)
            # In the order a reader looks for them: name, values, fee, offered, place.
            ordered = sorted(delta.changes, key=lambda c: FIELDS.index(c.field))
            changes = [
                words
                for change in ordered
                for words in change_words(config.ruleset, change.field, change.old, change.new)
            ]
        previous = record
        if not changes:
            continue  # saved without a change (the same form sent twice)
        lines.append(
            HistoryLine(
                changes=tuple(changes),
                who=who,
                at=timezone.localtime(record.history_date),
                reason=record.history_change_reason or "",
            )
        )
    lines.reverse()
    return lines
