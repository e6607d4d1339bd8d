"""Every row of the project's models, to show that a refused request changed nothing."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth.models import User


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model the app stores (and the accounts), in full."""
    models = [*apps.get_app_config("scorer").get_models(), User]
    return {
        m._meta.label: [repr(row) for row in m._default_manager.order_by("pk").values_list()]
        for m in models
    }
