"""国标麻将 (MCR, Chinese Official Mahjong): the 81 fans with their 不计 exclusions.

`fans.py` is the fan table as data, each fan's row with its condition;
`context.py` is the hand context the conditions read (tiles, sets, `Ctx`);
`scoring.py` reads a hand and scores it (every reading: the definition);
`lean.py` scores the common hand, one regular reading, in one pass;
`ruleset.py` is the ruleset (parameters, presets, table) and tries lean, then scoring;
docs/rules/mcr.md has every decision with the seed text it rests on.
"""

from rules.rulesets.mcr.ruleset import Mcr

RULESET = Mcr()
