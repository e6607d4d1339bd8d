"""Rounds played as events (四川 刮风下雨, 血战): `{% load scorer_events %}`.

`plays_events(ruleset)`: whether a ruleset's rounds are recorded event by event
(a kong, a win, the wall's end, each moving money at once) rather than whole.
The ruleset may say so itself (`plays_events`); otherwise a ruleset that
settles whole rounds (overrides `Ruleset.settle_round`) does.

`{% if session|plays_events %}`: the same for a session (or a ruleset id), so
that the pages shared by every session (the navigation, the actions) can
offer 记杠 / 记和牌 / 流局 instead of one "record a round".
"""

from __future__ import annotations

from typing import Any

from django import template

from rules import REGISTRY
from rules.registry import Ruleset

register = template.Library()


def ruleset_plays_events(rs: Ruleset | None) -> bool:
    if rs is None:
        return False
    declared = getattr(rs, "plays_events", None)
    if isinstance(declared, bool):
        return declared
    return type(rs).settle_round is not Ruleset.settle_round


@register.filter
def plays_events(value: Any) -> bool:
    """A session, a ruleset or a ruleset id -> whether its rounds are played as events."""
    if isinstance(value, Ruleset):
        return ruleset_plays_events(value)
    ruleset_id = getattr(value, "ruleset", value)
    return ruleset_plays_events(REGISTRY.get(ruleset_id) if isinstance(ruleset_id, str) else None)
