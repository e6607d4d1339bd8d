"""The rulesets: one package each, found here without being listed anywhere.

A ruleset is a package `rules/rulesets/<id>/` whose `__init__` exposes
`RULESET`, an instance of a `rules.registry.Ruleset` subclass.  `load_all()`
imports every such package and registers its ruleset, so adding one is adding
its folder: the core never names a ruleset (docs/engine.md, "Adding a ruleset").
"""

from __future__ import annotations

import importlib
import pkgutil

from rules.registry import REGISTRY, Ruleset, register


def load_all() -> None:
    """Import and register every ruleset package (once; later calls do nothing)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        rs = getattr(module, "RULESET", None)
        if not isinstance(rs, Ruleset):
            raise TypeError(f"rules/rulesets/{info.name} has no RULESET (a Ruleset instance)")
        if rs.id != info.name:
            raise ValueError(
                f"rules/rulesets/{info.name}: RULESET.id is {rs.id!r}, not the folder name"
            )
        if REGISTRY.get(rs.id) is not rs:
            register(rs)
