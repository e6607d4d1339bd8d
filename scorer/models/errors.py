"""The refusals a table's changes answer with, each a named constant.

A change the table cannot take (a closed table, a round still open, a phone that
saw an older round) is refused with a RuleError the pages show in the reader's
language.  Each refusal is named here once, with its code and its two messages,
so that the models raise it by name and a test checks that the one raised is
the one named (tests/scorer/test_models_locked.py); the messages are the
strings the pages and their tests read, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import RuleError


@dataclass(frozen=True)
class Refusal:
    """A refusal's code (rules.errors.ERROR_CODES) and its messages, English and Chinese."""

    code: str
    message: str
    message_zh: str

    def error(self) -> RuleError:
        """A fresh RuleError to raise (an exception instance is never raised twice:
        it would carry the first raise's traceback along)."""
        return RuleError(self.code, self.message, self.message_zh)

    def is_raised_as(self, error: RuleError) -> bool:
        """Whether `error` is this refusal (what a test asks of a raised error)."""
        return (error.code, error.message, error.message_zh) == (
            self.code,
            self.message,
            self.message_zh,
        )


# Every change of a table checks this under the table's lock (sessions.locked).
TABLE_CLOSED = Refusal(
    "bad_event",
    "this table is closed: reopen it to change anything",
    "本桌已经结束：要改动请先重新打开",
)
# 结束本桌 while a round played as events is open.
CLOSE_WITH_ROUND_OPEN = Refusal(
    "bad_event",
    "a round is still in progress: finish it before closing the table",
    "还有一局没打完：记完再结束本桌",
)
# 结束本桌 at a time the admin gives: between the last round and now.
CLOSE_TIME_OUT_OF_RANGE = Refusal(
    "bad_input",
    "the table ends between its last round and now",
    "结束时间要在最后一局之后、现在之前",
)
# An adjustment or a penalty recorded while a round played as events is open.
LINE_WITH_ROUND_OPEN = Refusal(
    "bad_event",
    "a round is still in progress: finish it first (its kongs stay paid)",
    "还有一局没打完：请先记完这一局（已付的杠钱不变）",
)
# A round played as events started while another one is open.
ROUND_OPEN = Refusal(
    "bad_event",
    "a round is still in progress: finish it first",
    "还有一局没打完：请先记完这一局",
)
# An event added by a phone that saw fewer or more steps than the round has.
ROUND_CHANGED = Refusal(
    "bad_event",
    "the round changed on another phone meanwhile: look again, then add",
    "这一局刚被别的手机改过了：请看一下最新情况再记",
)
# The close's fee is charged again at the next close, never restored.
FEE_NOT_RESTORED = Refusal(
    "bad_event",
    "a table fee is charged when the table closes, not restored",
    "台费在结束本桌时收取，不能恢复",
)
# An undone round played as events restored while another one is open.
RESTORE_WITH_ROUND_OPEN = Refusal(
    "bad_event",
    "another round is in progress: finish it before restoring this one",
    "另一局还没打完：记完那一局再恢复这一局",
)
# The close's fee follows the totals: the rounds are corrected, not the fee.
FEE_NOT_CORRECTED = Refusal(
    "bad_event",
    "the table fee is charged from the totals: correct the rounds instead",
    "台费按总分收取：请改对应的牌局",
)
# An adjustment stays an adjustment and a penalty a penalty when corrected.
LINE_KIND_KEPT = Refusal(
    "bad_input",
    "an adjustment or a penalty is corrected as one (undo it to drop it)",
    "调整或罚分只能改成调整或罚分（不要了就撤销）",
)
# A round played as events that had ended (its last win, the wall's end), corrected
# so that it would be open again: its correction must end it too.
ROUND_END_KEPT = Refusal(
    "bad_event",
    "this round had ended: the correction must end it too (add its last win or the wall's end)",
    "这一局已经打完：改完也要打完（请加上最后的和牌或流局）",
)
# A round played as events corrected to no event at all: undone instead.
ROUND_EMPTY = Refusal(
    "bad_event",
    "a round needs at least one event: to drop the whole round, undo it",
    "一局至少要有一个事件：整局不要就撤销",
)

REFUSALS: tuple[Refusal, ...] = (
    TABLE_CLOSED,
    CLOSE_WITH_ROUND_OPEN,
    CLOSE_TIME_OUT_OF_RANGE,
    LINE_WITH_ROUND_OPEN,
    ROUND_OPEN,
    ROUND_CHANGED,
    FEE_NOT_RESTORED,
    RESTORE_WITH_ROUND_OPEN,
    FEE_NOT_CORRECTED,
    LINE_KIND_KEPT,
    ROUND_END_KEPT,
    ROUND_EMPTY,
)
