"""Error codes shared by every entry point (API, CLI, web).

Input errors travel as RuleError inside the engine and leave it as plain
error objects: `score()` and `waits()` never raise on bad input, so one bad
line in a batch or one bad tap on the picker cannot break anything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.results import ErrorResult, HandResult

# code -> what it means; the table the docs and the tests check against.
ERROR_CODES: dict[str, str] = {
    "bad_input": "the situation is not a JSON object or a field has the wrong type",
    "bad_tile": "an unknown tile",
    "too_many_copies": "more than 4 copies of a tile kind in one situation",
    "wrong_tile_count": "the tiles cannot form a hand of the needed size",
    "illegal_meld": "a declared meld is not a legal set",
    "not_a_win": "the tiles do not form a winning hand under the ruleset",
    "unknown_ruleset": "no ruleset with that id",
    "bad_param": "an unknown ruleset parameter or a value out of its range",
    "bad_table": "the table (players, dealer, winner, discarder) is inconsistent",
    "bad_event": "a round's event list is inconsistent (a player already out, an unknown event, "
    "an event after the round ended)",
    "too_many_wilds": "more wild tiles than the ruleset's table can hold, or than it can read "
    "in bounded time",
}


class RuleError(Exception):
    """An input problem with a stable code and a message in English and Chinese."""

    def __init__(
        self,
        code: str,
        message: str,
        message_zh: str | None = None,
        detail: HandResult | None = None,
    ) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_zh = message_zh or message
        # What was worked out before the refusal (a hand's fans below the
        # minimum): a preview shows it; the error object leaves it out.
        self.detail = detail

    def to_dict(self, sid: Any = None) -> ErrorResult:
        return {
            "id": sid,
            "ok": False,
            "error": {"code": self.code, "message": self.message, "message_zh": self.message_zh},
        }
