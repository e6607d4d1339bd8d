"""吉安's 翻 explained: an example hand for each and the names players use.

The examples turn up 东 (正精 南, 副精 西) where a 精 is needed (精调, 扛调) and
hold no 精 otherwise (德国: no 精 stands for another tile).  点炮 and 庄家 are
what a payer adds, not what a hand shows: they have no example.
"""

from __future__ import annotations

from rules.fan_help import FanHelp
from rules.rulesets.jian.hands import FANS

PLAIN = "123m456p789s234s5m +5m"
JING: dict[str, object] = {"wild": ["2z", "3z"]}

# id -> (example, situation, aliases)
_ROWS: dict[int, tuple[str, dict[str, object], tuple[str, ...]]] = {
    1: (PLAIN, {}, ("屁胡",)),
    2: ("1133m5577p2288s1z +1z", {}, ("七对", "小七对", "七对子", "qdd")),
    3: ("147m258p369s1234z +5z", {}, ("十三不靠", "全不靠")),
    4: ("222m333p555s777z9s +9s", {}, ("对对胡", "碰碰胡", "大七对")),
    5: ("147m25p3s1234567z +6s", {}, ("七星", "七星不靠")),
    6: (PLAIN, {}, ("无精", "碧精")),
    7: (PLAIN, {"self_drawn": True}, ("自摸和",)),
    8: (
        "234m567m678p5s [9999s] +5s",
        {"self_drawn": True, "after_kong": True},
        ("杠开", "杠上开花"),
    ),
    9: ("123m456p789s234s2z +7p", {**JING, "self_drawn": True}, ("精钓",)),
    10: ("123m456p789s2z [2222s] +7p", {**JING, "self_drawn": True, "after_kong": True}, ("杠钓",)),
}

HELP: dict[int, FanHelp] = {
    fid: FanHelp(example, situation, FANS[fid].rule_zh or FANS[fid].zh,
                 FANS[fid].rule_en or FANS[fid].en, aliases)
    for fid, (example, situation, aliases) in _ROWS.items()
}  # fmt: skip
