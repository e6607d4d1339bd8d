"""国标's 81 fans explained: an example hand for each and the names players use.

The meaning of each fan is its row's rule text (fans.py, `rule_zh` / `rule_en`);
here each fan gets an example hand that scores it (tests/rules/test_fan_help.py)
and its everyday names for the picker's search (碰碰胡, 七对子, self drawn).
Flags a fan needs beyond the tiles (自摸, 海底, 杠上开花, 抢杠, 和绝张, the winds,
flowers) are in the example's situation.
"""

from __future__ import annotations

from rules.fan_help import FanHelp
from rules.rulesets.mcr.fans import TABLE

# A hand with no fan of its own (无番和), on which the situational fans are shown.
CHICKEN = "34p55z [123m] [678s] [888m] +2p"
PLAIN = "123m456p789s234s5m +5m"  # four chows and a pair, concealed: 平和, 门前清, 单钓
SELF: dict[str, object] = {"self_drawn": True}

# id -> (example, situation, aliases)
_ROWS: dict[int, tuple[str, dict[str, object], tuple[str, ...]]] = {
    1: ("111z222z333z5m [444z] +5m", {}, ("四喜",)),
    2: ("555z666z777z123m9p +9p", {}, ("三元",)),
    3: ("234s234s666s888s6z +6z", {}, ("all green",)),
    4: ("1112345678999m +5m", {}, ("九莲", "nine gates")),
    5: ("5m [1111m] [2222p] [3333s] [4444z] +5m", {}, ("四杠子",)),
    6: ("1122334455667m +7m", {}, ("连七对子",)),
    7: ("19m19p19s1234567z +1m", {}, ("国士无双", "十三么", "13幺", "kokushi")),
    8: ("111m999m111p999p1s +1s", {}, ("清老头",)),
    9: ("111z222z333z4z123m +4z", {}, ()),
    10: ("555z666z7z123m456m +7z", {}, ()),
    11: ("111z222z333z555z6z +6z", {}, ("all honours",)),
    12: ("111m333p555s777m9s +9s", {}, ("四暗",)),
    13: ("123m123m789m789m5m +5m", {}, ("双龙会",)),
    14: ("123m123m123m123m5p +5p", {}, ("四同顺",)),
    15: ("5p [111m] [222m] [333m] [444m] +5p", {}, ("四节高",)),
    16: ("123m234m345m456m9p +9p", {}, ("四步高",)),
    17: ("45m99p [1111m] [2222p] [3333s] +6m", {}, ("三杠子",)),
    18: ("111m999p111z222z9s +9s", {}, ("混老头",)),
    19: ("1133m5577p2288s1z +1z", {}, ("七对子", "七小对", "小七对", "qdd")),
    20: ("1234567z147m25p3s +6s", {}, ("七星",)),
    21: ("222m444p666s888m2p +2p", {}, ("全双",)),
    22: ("123m345m567m789m1m +1m", {}, ("清一门", "full flush", "pure one suit")),
    23: ("456p9s [123m] [123m] [123m] +9s", {}, ("三同顺",)),
    24: ("456p9s [111m] [222m] [333m] +9s", {}, ("三节高",)),
    25: ("789m789p789s789s8m +8m", {}, ()),
    26: ("456m456p456s456s5m +5m", {}, ()),
    27: ("123m123p123s123s2m +2m", {}, ()),
    28: ("123m456m789m123p5p +5p", {}, ("一条龙", "青龙", "straight")),
    29: ("123m789m123p789p5s +5s", {}, ()),
    30: ("123m234m345m789p5s +5s", {}, ("三步高",)),
    31: ("345m456p567s555m5p +5p", {}, ("带五",)),
    32: ("456m9s [222m] [222p] [222s] +9s", {}, ()),
    33: ("222m444p666s456m9s +9s", {}, ("三暗",)),
    34: ("147m258p36s12345z +9s", {}, ("十三不靠", "十三烂")),
    35: ("147m258p369s123m3z +3z", {}, ("组龙",)),
    36: ("678m789p678s789s6m +6m", {}, ()),
    37: ("123m234p123s234s4m +4m", {}, ()),
    38: ("111z222z333z123m5p +5p", {}, ()),
    39: ("123m456p789s345m9p +9p", {}, ("杂龙", "mixed straight")),
    40: ("123p345p888s999s5z +5z", {}, ()),
    41: ("123m123p123s456m9p +9p", {}, ("三色同顺",)),
    42: ("456m9p [111m] [222p] [333s] +9p", {}, ()),
    43: (CHICKEN, {}, ("鸡和", "鸡胡", "屁胡", "chicken")),
    44: (CHICKEN, {"self_drawn": True, "last_tile": True}, ("海底自摸", "自摸海底")),
    45: (CHICKEN, {"last_tile": True}, ("海底", "海底炮")),
    46: (
        "34p55z [1111m] [678s] [888m] +2p",
        {"self_drawn": True, "after_kong": True},
        ("杠开", "杠上花"),
    ),
    47: (CHICKEN, {"robbing_kong": True}, ("抢杠胡", "抢杠")),
    48: ("222p333s555z9s [111m] +9s", {}, ("碰碰胡", "对对胡", "对对和", "大对子")),
    49: ("123m456m789m111z5m +5m", {}, ("混一门", "凑一色", "half flush")),
    50: ("123m234p345s789m5p +5p", {}, ()),
    51: ("123m456p789s111z5z +5z", {}, ("五门",)),
    52: ("5m [123m] [456p] [789s] [111z] +5m", {}, ("全求",)),
    53: ("456s789s5p {1111m} {2222p} +5p", {}, ()),
    54: ("555z666z123m456p9s +9s", {}, ()),
    55: ("123m789p123s111z9m +9m", {}, ("带幺", "带幺九")),
    56: (PLAIN, SELF, ("门清自摸", "门前清自摸")),
    57: ("456s789s5p [1111m] [2222p] +5p", {}, ()),
    58: (CHICKEN, {"fourth_tile": True}, ("胡绝张", "绝张")),
    59: ("555z123m456p789s9s +9s", {}, ("中发白",)),
    60: ("222z123m456p789s9s +9s", {"prevalent_wind": "S", "seat_wind": "W"}, ("圈风",)),
    61: ("222z123m456p789s9s +9s", {"prevalent_wind": "E", "seat_wind": "S"}, ("门风", "自风")),
    62: (PLAIN, {}, ("门清",)),
    63: (PLAIN, {}, ("平胡", "pinfu")),
    64: ("111m123m456p789s5s +5s", {}, ()),
    65: ("222m222p123s456s9s +9s", {}, ()),
    66: ("222m444p123s456s9s +9s", {}, ("两暗刻",)),
    67: ("123p456s789s5p {1111m} +5p", {}, ()),
    68: ("234m456p678s345s5m +5m", {}, ("断幺九", "断么", "tanyao")),
    69: ("123m123m456p789s5s +5s", {}, ("一般高顺",)),
    70: ("123m123p456s789s5m +5m", {}, ()),
    71: ("123m456m789p789s5s +5s", {}, ()),
    72: ("123m789m456p456s5s +5s", {}, ()),
    73: ("999m123p456s789s5p +5p", {}, ("幺九",)),
    74: ("123p456s789s5p [2222m] +5p", {}, ()),
    75: ("123m456m789p123p5p +5p", {}, ("缺门",)),
    76: ("123m456p678s222s5m +5m", {}, ()),
    77: ("12m456p789s234s55m +3m", {}, ("边张", "边卡")),
    78: ("13m456p789s234s55m +2m", {}, ("嵌张", "坎张", "卡张")),
    79: (PLAIN, {}, ("单钓", "钓将", "单骑")),
    80: ("123m456p222s5m [789s] +5m", SELF, ("自摸和", "self drawn", "self draw", "tsumo")),
    81: (PLAIN, {"flowers": 1}, ("补花",)),
    82: ("456s789s5p {1111m} [2222p] +5p", {}, ()),
}

# Parameters an example needs: 明暗杠 counts where the table turns it on.
_PARAMS = {82: {"mixed_kong_fan": True}}

HELP: dict[int, FanHelp] = {
    fid: FanHelp(example, situation, TABLE[fid].rule_zh, TABLE[fid].rule_en, aliases,
                 _PARAMS.get(fid, {}))
    for fid, (example, situation, aliases) in _ROWS.items()
}  # fmt: skip
