"""What the start form posts: a table started from the home page or a room's table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from rules.params import Param
from rules.registry import Ruleset
from scorer.models import RoomConfig
from scorer.models.rooms import RoomTable


def form_data(config: RoomConfig, names: list[str], **extra: str) -> dict[str, str]:
    """What the start form posts for this configuration unchanged (a box left unticked
    is a False, so the true ones are sent ticked, as the page shows them)."""
    rules = get_ruleset(config.ruleset)
    data = {"config": str(config.pk), "players": str(len(names)), "first_dealer": "0"}
    for i, name in enumerate(names):
        data[f"name_{i}"] = name
    data.update(param_fields(rules, lambda p: config.params.get(p.name, p.default)))
    return {**data, **extra}


def param_fields(rules: Ruleset, value_of: Callable[[Param], Any]) -> dict[str, str]:
    """A ruleset's parameters as a form posts them: param_<name>, a true box ticked ("on"),
    a false one left out, any other value as its text."""
    data: dict[str, str] = {}
    for p in rules.params:
        value = value_of(p)
        if p.type == "bool":
            if value:
                data[f"param_{p.name}"] = "on"
        else:
            data[f"param_{p.name}"] = str(value)
    return data


def start(client: Client, t: RoomTable, names: list[str], config: RoomConfig | None = None) -> Any:
    config = config or t.room.offered_configs()[0]
    data = form_data(config, names, table=t.code)
    return client.post(reverse("scorer:room_create", args=[t.room.slug]), data)


def start_data(**overrides: str) -> dict[str, str]:
    """What the start form posts when nothing is changed (checkboxes of true defaults ticked)."""
    data = {
        "ruleset": "mcr",
        "players": "4",
        "name_0": "老王",
        "name_1": "小李",
        "name_2": "阿强",
        "name_3": "美玲",
        "first_dealer": "0",
        "money_per_point": "",
        "param_min_fans": "8",
        "param_mixed_kong_fan": "on",
        "param_knitted_wait_fans": "on",
        "param_flower_points": "1",
        "param_dealer_repeat": "never",
        "param_base": "8",
    }
    data.update(overrides)
    return data
