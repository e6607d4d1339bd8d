"""自定义规则 (house rules): fixed points per win, kong money, wild tiles as parameters.

The first ruleset built only on the one-folder structure: see ruleset.py and
docs/rules/house.md.
"""

from rules.rulesets.house.ruleset import House

RULESET = House()
