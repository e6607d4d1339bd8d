"""The shapes of the engine's answers, as docs/situation.md documents them.

Each is a TypedDict: a plain dict at run time, so what `score()`, `settle()` and
the others return serializes to the very JSON the contract shows, while mypy
checks every key a ruleset writes and every key read through these types (the
web app's scorer/scoring.py hands results on as mappings it reads defensively:
rounds stored earlier come back in their older shapes).
tests/rules/test_results.py holds these shapes to the JSON examples of the
docs (docs/situation.md, docs/rules/*.md), so the types and the contract
cannot drift apart.

A key only some rulesets give is `NotRequired` here, with the ruleset's doc
saying what it means; a ruleset's own extras (芜湖's 支 and 押 …) are declared
by a TypedDict in its own package that extends `HandResult`.
"""

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from rules.working import Term


class FanName(TypedDict):
    """A fan by its id and names (a told standing hand's fans at 云南)."""

    id: int
    name_zh: str
    name_en: str


class Fan(FanName):
    """One scoring element of a hand: `points` per occurrence, `count` occurrences."""

    points: int
    count: int


class CatalogFan(FanName):
    """A fan a player can pick in quick entry (`fan_catalog`): its points, how often
    it can be picked (`max`), its group, what it excludes (不计) and its place among
    the common fans, where the ruleset says."""

    points: int
    max: NotRequired[int]
    group: NotRequired[str]
    excludes: NotRequired[list[int]]
    common: NotRequired[int]


class ExcludedFan(Fan):
    """A fan picked by hand that another picked fan excludes (不计), and which one."""

    by: int
    by_zh: str
    by_en: str


class DroppedFlag(TypedDict):
    """A flag given that the tiles contradict, so it counts for nothing."""

    flag: str
    reason: str
    reason_zh: str


# Money one event moves from one player to another (`to` None: to the room).
Payment = TypedDict(
    "Payment",
    {"from": int, "to": int | None, "amount": int, "reason": NotRequired[str]},
)


class Payments(TypedDict):
    """A hand's money when its table is given: the payments and each seat's net."""

    payments: list[Payment]
    deltas: list[int]
    terms: NotRequired[list[Term]]


class Loser(TypedDict):
    """What one loser pays and why, where losers pay differently (武汉, 陕西)."""

    seat: int
    pays: int
    factor: NotRequired[int | float]
    raw: NotRequired[int | float]
    capped: NotRequired[int | None]
    why_zh: NotRequired[str]
    why_en: NotRequired[str]
    dealer: NotRequired[int]
    paozi: NotRequired[int]


class DecompositionReading(TypedDict):
    """One way the tiles form a winning shape (generic, house): its form, its
    groups as [kind, lowest tile] and what the wild tiles stand for."""

    form: str
    groups: list[list[str]]
    wild_as: list[str]


class HandScore(TypedDict):
    """What a hand's score says, in a `score()` result and in a settled round's
    winner report alike."""

    fans: NotRequired[list[Fan]]
    total: NotRequired[int]
    multiplier: NotRequired[int]
    value: NotRequired[int]
    notes: NotRequired[list[str]]
    notes_zh: NotRequired[list[str]]
    working: NotRequired[list[str]]
    working_zh: NotRequired[list[str]]
    terms: NotRequired[list[Term]]  # the working as numbers, per payer (rules/working.py)
    flags_dropped: NotRequired[list[DroppedFlag]]
    excluded: NotRequired[list[ExcludedFan]]
    losers: NotRequired[list[Loser]]
    contractor: NotRequired[int | None]


class HandResult(HandScore):
    """What a ruleset answers for one hand (`score_hand`, `quick_score`): the body
    of a `score()` result, and of a settled round's winner report."""

    win: bool
    wild_as: NotRequired[list[str]]
    doublings: NotRequired[int]  # the ×2 items counted (rules/doubling.py)
    decompositions: NotRequired[list[DecompositionReading]]
    decomposition_count: NotRequired[int]
    payments: NotRequired[list[Payment]]
    deltas: NotRequired[list[int]]


class ErrorBody(TypedDict):
    code: str
    message: str
    message_zh: str


class ErrorResult(TypedDict):
    """Every refusal, from every verb: a stable `code` and the words for it."""

    id: Any
    ok: Literal[False]
    error: ErrorBody


class ScoreResult(HandResult):
    """`score()`: the situation's `id` echoed, and the ruleset's answer."""

    id: Any
    ok: Literal[True]
    ruleset: str


class WaitsResult(TypedDict):
    id: Any
    ok: Literal[True]
    ruleset: str
    waits: list[str]


class WinResult(TypedDict):
    id: Any
    ok: Literal[True]
    ruleset: str
    win: bool


# One transfer of a settled round, with the event it belongs to and why.
Transfer = TypedDict(
    "Transfer",
    {
        "event": int,
        "from": int,
        "to": int | None,
        "amount": int,
        "reason": str,
        "reason_zh": str,
        "reason_en": str,
        "fans": NotRequired[int],
        "kong_event": NotRequired[int],
    },
)


class WinnerReport(HandScore):
    """A winner of a round's win event: his seat and what his hand's result keeps
    (rules.round.WINNER_KEYS); a round of the ruleset's own adds how he was paid."""

    seat: int
    mode: NotRequired[str]
    amount: NotRequired[int]
    payers: NotRequired[list[int]]


class Handover(TypedDict):
    """杠上炮 where the kong's money goes on to the winner."""

    kong_event: int
    amount: int


class Standing(TypedDict):
    """How one hand stands at the wall's end, as the ruleset reads it (rules/wall.py):
    its status (ready, not_ready, pig), its waits and what it claims (查大叫)."""

    status: str
    waits: list[str]
    claim: int
    claim_fans: NotRequired[int]
    claim_tile: NotRequired[str]
    fans: NotRequired[Sequence[FanName]]


class WallCheck(Standing):
    """One standing hand checked at the wall's end (查花猪, 查大叫): its seat, and
    `told` where it was told rather than shown."""

    seat: int
    told: NotRequired[bool]


class EventReport(TypedDict):
    """One event of a settled round as it was settled; which keys it has turns on
    its `type` (win, kong, draw, penalty, wall_end)."""

    type: str
    index: int
    deltas: NotRequired[list[int]]  # set once the event is settled: always in the answer
    notes: NotRequired[list[str]]
    notes_zh: NotRequired[list[str]]
    # win
    discarder: NotRequired[int | None]
    winners: NotRequired[list[WinnerReport]]
    self_drawn: NotRequired[bool]
    after_kong: NotRequired[bool]
    robbing_kong: NotRequired[bool]
    last_tile: NotRequired[bool]
    handover: NotRequired[Handover]
    round_end: NotRequired[dict[str, Any]]  # notes, notes_zh and the ruleset's detail
    # kong
    player: NotRequired[int]
    kong: NotRequired[str]
    tile: NotRequired[str]
    void: NotRequired[bool]
    note: NotRequired[str]
    note_zh: NotRequired[str]
    # penalty
    penalty: NotRequired[str]
    seat: NotRequired[int]
    amount: NotRequired[int]
    to: NotRequired[str]
    seat_inputs: NotRequired[dict[str, list[int]]]
    # wall_end
    checks: NotRequired[list[WallCheck]]


class RoundBody(TypedDict):
    """A ruleset's settlement of one whole round (`settle_round`)."""

    players: int
    events: list[EventReport]
    transfers: list[Transfer]
    deltas: list[int]
    out: list[int]
    finished: bool
    notes: list[str]
    notes_zh: list[str]
    room_take: int


class NextPosition(TypedDict):
    """Who deals the next round and its wind; both None while the round goes on."""

    next_dealer: int | None
    next_prevalent_wind: str | None


class SettleResult(RoundBody, NextPosition):
    """`settle()`: the round's `id` echoed, its settlement and who deals next."""

    id: Any
    ok: Literal[True]
    ruleset: str
