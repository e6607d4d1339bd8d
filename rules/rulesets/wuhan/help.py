"""武汉's hand types explained: an example hand for each and the names players use.

A win needs an opening (a meld) and no 红中 in hand; the examples use no 癞子, so
each is 硬胡.  海底捞, 杠上花 and 抢杠 carry their flags.
"""

from __future__ import annotations

from rules.fan_help import FanHelp
from rules.rulesets.wuhan.hands import TYPES

SMALL = "234m567m678p5s [999s] +5s"

# id -> (example, situation, aliases)
_ROWS: dict[int, tuple[str, dict[str, object], tuple[str, ...]]] = {
    0: (SMALL, {}, ("屁胡", "平胡", "鸡胡")),
    1: ("222m333p5s [777s] [999m] +5s", {}, ("对对胡", "碰碰和", "大对子")),
    2: ("5m [123p] [777s] [999s] [345s] +5m", {}, ("全求", "单吊")),
    3: ("234s9s [123s] [555s] [777s] +9s", {}, ("清一门",)),
    4: ("2258m258p258s [888m] +8s", {}, ("乱将", "将将胡")),
    5: ("1122334455z [666z] +6z", {}, ("乱风",)),
    6: (SMALL, {"self_drawn": True, "last_tile": True}, ("海底", "海底捞月")),
    7: (
        "234m567m678p5s [9999s] +5s",
        {"self_drawn": True, "after_kong": True},
        ("杠开", "杠上开花"),
    ),
    8: (SMALL, {"robbing_kong": True}, ("抢杠胡", "抢杠和")),
}

HELP: dict[int, FanHelp] = {
    fid: FanHelp(example, situation, TYPES[fid].rule_zh, TYPES[fid].rule_en, aliases)
    for fid, (example, situation, aliases) in _ROWS.items()
}
