"""四川's fans explained: an example hand for each and the names players use.

The meaning is each row's rule text (scoring.py, `FANS`); a 血战 table counts one
pattern, the largest, so each example holds its fan as the largest.  金钩钓 is a
成都 fan (its example plays at that table); 天胡, 地胡 and the flag fans carry
their flags.
"""

from __future__ import annotations

from rules.fan_help import FanHelp
from rules.rulesets.sichuan.scoring import FANS

PLAIN = "123m456m789p234p5p +5p"
CHENGDU: dict[str, object] = {"fan_table": "chengdu"}

# id -> (example, situation, aliases, params)
_ROWS: dict[int, tuple[str, dict[str, object], tuple[str, ...], dict[str, object]]] = {
    1: (PLAIN, {}, ("屁胡", "鸡胡", "小胡"), {}),
    2: ("111m222m333p555p9p +9p", {}, ("碰碰胡", "大对子", "对子胡", "对对和"), {}),
    3: ("123m456m789m234m5m +5m", {}, ("清一门", "full flush"), {}),
    4: ("123m789m123p789p9p +9p", {}, ("全带幺", "幺九"), {}),
    5: ("1133m5577p2288p9p +9p", {}, ("七对子", "暗七对", "小七对", "qdd"), {}),
    6: ("111m333m555m777m9m +9m", {}, ("清碰", "清大对"), {}),
    7: ("222m555m888p222p5p +5p", {}, ("将碰",), {}),
    8: ("1111m3355p7799p2p +2p", {}, ("龙七对子", "豪华七对"), {}),
    9: ("1133557799m224m +4m", {}, (), {}),
    10: ("123m789m123m789m9m +9m", {}, (), {}),
    11: (PLAIN, {"heavenly": True, "self_drawn": True}, (), {}),
    12: (PLAIN, {"earthly": True, "self_drawn": True}, (), {}),
    13: ("1111335577m99m8m +8m", {}, ("清豪华七对",), {}),
    14: ("5m [111m] [222m] [333p] [444p] +5m", {}, ("金钩胡", "单吊", "大单吊"), CHENGDU),
    15: ("111m123m456p789p5p +5p", {}, ("一根", "gen"), {}),
    16: (
        "123m456m789p5p [2222p] +5p",
        {"self_drawn": True, "after_kong": True},
        ("杠开", "杠上开花"),
        {},
    ),
    17: (PLAIN, {"after_kong": True}, ("杠炮",), {}),
    18: (PLAIN, {"robbing_kong": True}, ("抢杠胡",), {}),
    19: (
        PLAIN,
        {"self_drawn": True, "last_tile": True},
        ("海底捞月", "海底"),
        {"last_tile_fan": True},
    ),
}

HELP: dict[int, FanHelp] = {
    fid: FanHelp(example, situation, FANS[fid].rule_zh, FANS[fid].rule_en, aliases, params)
    for fid, (example, situation, aliases, params) in _ROWS.items()
}
