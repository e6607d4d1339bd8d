"""The mahjong rule engine: pure Python, no Django.

    from rules import score, waits, settle
    score({"ruleset": "generic", "concealed": "123m456p789s1122z", "win_tile": "2z"})
    settle({"ruleset": "<id>", "events": [...]})      # a whole round, event by event

The core (tiles, hands, shapes, decompositions, waits, fans, the registry, the
API and the CLI) names no ruleset; each ruleset is a package under
`rules/rulesets/`, found and registered when this package is imported.
"""

from rules.api import is_win, score, settle, waits
from rules.errors import ERROR_CODES, RuleError
from rules.registry import REGISTRY, get_ruleset
from rules.rulesets import load_all

load_all()

__all__ = [
    "ERROR_CODES",
    "REGISTRY",
    "RuleError",
    "get_ruleset",
    "is_win",
    "score",
    "settle",
    "waits",
]
