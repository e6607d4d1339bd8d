"""芜湖's 嘴子 explained: an example hand for each and the names players use.

A win needs eight tiles (支) of one suit; 杠开 carries its flag and a kong.  Two
嘴 make a 全交, whose notes name them.
"""

from __future__ import annotations

from rules.fan_help import FanHelp
from rules.rulesets.wuhu.hands import ZUI

# id -> (example, situation, aliases)
_ROWS: dict[int, tuple[str, dict[str, object], tuple[str, ...]]] = {
    1: ("111m123m456m789p5p +5p", {}, ("四归一",)),
    2: ("123m456m789m123p5p +5p", {}, ("一条龙", "清龙")),
    3: ("111m333m555m777p9p +9p", {}, ("碰碰胡", "大对子")),
    4: (
        "234m567m88m5p5p [9999m] +8m",
        {"self_drawn": True, "after_kong": True},
        ("杠上开花", "杠上花"),
    ),
    5: ("123m345m678m111z9m +9m", {}, ("混一门", "凑一色")),
    6: ("123m345m567m789m1m +1m", {}, ("清一门",)),
    7: ("123m456m5m [2222p] [3333p] +5m", {}, ("两门八支",)),
}

# Two 嘴 are a 全交 (清一色 and 双八支 count two): the result's one row is 全交, its
# notes name the 嘴子 (`folded`).
HELP: dict[int, FanHelp] = {
    fid: FanHelp(example, situation, ZUI[fid].rule_zh, ZUI[fid].rule_en, aliases,
                 folded=ZUI[fid].zh if ZUI[fid].points >= 2 else "")
    for fid, (example, situation, aliases) in _ROWS.items()
}  # fmt: skip
