"""The mahjong rule engine: pure Python, no Django.

    from rules import score, waits
    score({"ruleset": "generic", "concealed": "123m456p789s1122z", "win_tile": "2z"})
    settle({"ruleset": "sichuan", "events": [...]})   # a whole 四川 round

Rulesets register themselves on import; importing this package loads all.
"""

from rules import generic, mcr, sichuan  # noqa: F401  (importing registers the rulesets)
from rules.api import score, settle, waits
from rules.errors import ERROR_CODES, RuleError
from rules.registry import REGISTRY, get_ruleset

__all__ = ["ERROR_CODES", "REGISTRY", "RuleError", "get_ruleset", "score", "settle", "waits"]
