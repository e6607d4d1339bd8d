"""The live result under the record form (`Outcome`): what the entry scores and pays,
or what it still lacks; computed on every tap, never saved.

Both flows give the same shape: `round_outcome` for a round picked whole (a win
or a draw), `event_outcome` for one event added to a round recorded event by
event (its own payments only).  Every number comes from the engine through
scorer.scoring, the path recording takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from django.utils.translation import gettext, ngettext

from rules import RuleError, waits
from rules.registry import get_ruleset
from rules.table import Scoring
from rules.tiles import parse_tile, tile_str, tiles_str
from scorer.entry.event_pick import STANDING_SIZE, EventPick
from scorer.entry.melds import HAND_SIZE
from scorer.entry.pick import Pick
from scorer.entry.round_now import RoundNow
from scorer.language import by_language, is_zh, rule_error_text, tile_name
from scorer.models import GameSession
from scorer.present.events import reason_labels
from scorer.present.scoring import fan_rows, total_text, working_lines
from scorer.present.words import name_seats
from scorer.record.picker import FACES, Face, seat_rows
from scorer.scoring import evaluate, how_won_missing, refusal

# "from" is a keyword: these rows are typed dicts, read by the template as x.from.
PaymentRow = TypedDict("PaymentRow", {"from": str, "to": str, "amount": int, "why": str})
TransferRow = TypedDict("TransferRow", {"from": str, "to": str, "amount": int, "reason": str})


@dataclass(frozen=True)
class Outcome:
    """The live result: fans, total, payments, waits, or what is still missing."""

    message: str = ""  # why it cannot be (the engine's refusal), in the reader's language
    hint: str = ""  # what to do next
    shape: str = ""  # the ruleset's line under the hand as it is tapped (芜湖: 支 and 押)
    fans: Sequence[Mapping[str, Any]] = ()
    total: Any = None
    total_text: str = ""  # the bar's total in the table's unit
    win: bool = False
    refused: bool = False  # its fans are shown, never as a score
    seats: Sequence[Mapping[str, Any]] = ()  # each seat's gain or loss
    payments: Sequence[PaymentRow] = ()  # a round's payments
    transfers: Sequence[TransferRow] = ()  # an event's own payments
    waits: Sequence[Face] | None = None  # one tile short: the tiles that complete the hand
    waits_tap: bool = True  # the waits are buttons (a winning hand) or just shown
    flag_notes: Mapping[str, str] = field(default_factory=dict)  # flags the tiles contradict
    end_notes: Sequence[str] = ()
    working: Sequence[str] = ()  # the working the way the table counts (P × 2 × 2 = 20)
    amount: int | None = None  # an event's win: what it brings
    checks: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)  # a wall's end, per seat
    kong_warnings: Sequence[str] = ()
    stale: bool = False  # another phone added an event since the form was opened
    can_confirm: bool = False


# ---------------------------------------------------------------- the bar's total

# The payments of a win itself (not a kong's money, nor a 精's or a 冲关's).
WIN_REASONS = frozenset({"win", "win_discard", "win_self_drawn"})


def bar_text(total: Any, gain: int | None, scoring: Scoring) -> str:
    """The bar's total, beside 确认: the fans where the table counts fans ("3 番"), and
    what the win brings its winner, the points that move ("赢 24 分").  A table that
    counts points says only what the win brings: its result's total is a base (武汉's
    1) or what one payer pays (山东's 20), and "1 分" beside a win of 112 misled."""
    won = (
        ngettext("wins %(n)s point", "wins %(n)s points", gain) % {"n": gain}
        if gain is not None and gain > 0
        else ""
    )
    if scoring.unit == "point":
        return won or total_text(total, scoring)
    return " · ".join(part for part in (total_text(total, scoring), won) if part)


def win_gain(payments: Sequence[Mapping[str, Any]], winner: int | None) -> int | None:
    """What a win brings its winner: the win's own payments to him."""
    if winner is None:
        return None
    return sum(
        int(x.get("amount", 0))
        for x in payments
        if x.get("to") == winner and x.get("reason", "win") in WIN_REASONS
    )


# ---------------------------------------------------------------- an unfinished hand


def unfinished_hand(session: GameSession, p: Pick, out: Outcome) -> Outcome | None:
    """`out` with what the winning hand still lacks (tiles, the win tile, its waits
    when one tile short), or None when the hand is complete."""
    fixed = p.fixed_win
    if fixed is not None and p.n_tiles < HAND_SIZE:
        # 一炮多响: his winning tile is the discard, there already; no waits to pick from.
        n = HAND_SIZE - p.n_tiles
        hint = ngettext(
            "Tap his other tiles: %(n)s more. He wins on the same discard, %(tile)s.",
            "Tap his other tiles: %(n)s more. He wins on the same discard, %(tile)s.",
            n,
        ) % {"n": n, "tile": tile_name(fixed)}
        return replace(out, hint=hint)
    if p.n_tiles < HAND_SIZE - 1:
        n = HAND_SIZE - p.n_tiles
        hint = ngettext(
            "Tap the tiles of the winning hand: %(n)s more.",
            "Tap the tiles of the winning hand: %(n)s more.",
            n,
        ) % {"n": n}
        return replace(out, hint=hint)
    if p.n_tiles == HAND_SIZE - 1:
        return with_waits(session, p, out)
    if p.win_tile is None:
        return replace(out, hint=gettext("Choose the winning tile."))
    return None


def with_waits(session: GameSession, p: Pick, out: Outcome) -> Outcome:
    """One tile short: `out` with the engine's waits, shown as tiles to tap."""
    tiles = sorted((*p.concealed, *([p.win_tile] if p.win_tile is not None else [])))
    sit = {"ruleset": session.ruleset, "params": dict(session.rules.params),
           "concealed": tiles_str(tiles), "melds": p.hand().get("melds", []),
           "wild": [tile_str(t) for t in p.wild_kinds()]}  # fmt: skip
    w = waits(sit)
    if not w["ok"]:
        e = w["error"]
        return replace(out, message=e["message_zh"] if is_zh() else e["message"])
    faces = [FACES[parse_tile(c)] for c in w["waits"]]
    hint = (
        gettext("One tile short: tap the winning tile.")
        if faces
        else gettext("No tile completes this hand.")
    )
    return replace(out, waits=faces, hint=hint)


# ---------------------------------------------------------------- a round picked whole


def outcome(session: GameSession, p: Pick, taken: bool) -> Outcome:
    """The live result under the form, whichever its flow: a round picked whole
    scored as it stands, or the event added to the round in progress (its own
    payments, fans, checks).  `taken`: the round this form was for is recorded
    meanwhile, and the player decides first (the hand's line stays under the hand)."""
    return p.by_flow(
        lambda whole: replace(
            Outcome() if taken else round_outcome(session, whole),
            shape=hand_shape(session, whole),
        ),
        lambda event: Outcome() if taken else event_outcome(session, event),
    )


def round_outcome(session: GameSession, p: Pick) -> Outcome:
    """The live result of a round picked whole."""
    out = Outcome()
    if p.kind == "win":
        if p.mode == "tiles":
            unfinished = unfinished_hand(session, p, out)
            if unfinished is not None:
                return unfinished
        elif not p.fans:
            return replace(out, hint=gettext("Pick the fans of the hand."))
        if p.winner is None:
            return replace(out, hint=gettext("Who won? Choose the winner."))
        if question := how_won_missing(p.discarder):
            return replace(out, hint=question)
    try:
        ev = evaluate(session, p.entry())
    except RuleError as e:
        return replace(out, message=rule_error_text(e))
    result = ev.result
    scoring = p.spec.scoring
    hint, message, refused, can_confirm = "", "", False, False
    end_notes: list[str] = []
    if ev.kind == "draw":
        notes = result.get("notes_zh" if is_zh() else "notes") or [""]
        hint, end_notes, can_confirm = notes[0], notes[1:], True
    elif (err := refusal(result)) is not None:
        message, refused = rule_error_text(err), True
    else:
        can_confirm = True
    names = list(session.players)
    deltas = result.get("deltas") or [0] * session.n_players
    reasons = p.spec.reasons
    payments: list[PaymentRow] = [
        {"from": names[x["from"]], "to": names[x["to"]], "amount": x["amount"],
         # Said beside a payment that is not the win itself (吉安's 精, 冲关).
         "why": by_language(*reasons.get(x["reason"], ("", "")))
         if x.get("reason", "win") != "win" else ""}
        for x in result.get("payments", [])
    ]  # fmt: skip
    notes_key = "notes_zh" if is_zh() else "notes"
    if end := result.get("round_end") or {}:
        end_notes = [name_seats(n, names) for n in end.get(notes_key, [])]
    elif result.get("losers"):
        # Losers who pay differently (武汉): what each factor was (the working below
        # says how each amount came from them).
        said = result.get("working_zh" if is_zh() else "working") or []
        end_notes = [name_seats(n, names) for n in result.get(notes_key, []) if n not in said]
    working = working_lines(result, names)
    gain = win_gain(result.get("payments", []), p.winner) if can_confirm else None
    return Outcome(
        message=message,
        hint=hint,
        fans=fan_rows(result.get("fans", []), scoring),
        total=result.get("total"),
        total_text=bar_text(result.get("total"), gain, scoring),
        win=bool(result.get("win")),
        refused=refused,
        # Flags the tiles contradict count for nothing: said next to the flag.
        flag_notes={
            d["flag"]: by_language(d.get("reason_zh"), d.get("reason"))
            for d in result.get("flags_dropped") or []
        },
        seats=seat_rows(names, deltas),
        payments=payments,
        end_notes=end_notes,
        # The working, payer by payer (44 番 + 底分 8 = 52; 1 × 8 × 8 = 64; 6 × 2² = 24).
        working=working if result.get("terms") or not end_notes else (),
        can_confirm=can_confirm,
    )


def hand_shape(session: GameSession, p: Pick) -> str:
    """The ruleset's line under the hand as it is tapped (芜湖: 支 and 押), if any."""
    if p.kind != "win" or p.mode != "tiles" or not (p.concealed or p.melds or p.win_tile):
        return ""
    rs = get_ruleset(session.ruleset)
    try:
        hint = rs.hand_hint(
            tuple(p.concealed), tuple(p.melds), p.win_tile, p.wild_kinds(),
            session.rules.params,
        )  # fmt: skip
    except RuleError:
        return ""
    return by_language(*hint) if hint else ""


# ---------------------------------------------------------------- one event of a round


def event_outcome(session: GameSession, p: EventPick) -> Outcome:
    """The live result of adding this event to the round it was read against: its own
    payments, fans, checks."""
    now = p.now
    assert now is not None
    out = Outcome(stale=p.expected != now.count)
    if p.asks_turned and p.turned is None and p.kind == "win":
        return replace(out, hint=gettext("First turn up the tile that decides the wild tiles."))
    out = replace(out, kong_warnings=p.kong_warnings())
    if p.kind == "win" and p.mode == "tiles":
        unfinished = unfinished_hand(session, p, out)
        if unfinished is not None:
            return unfinished
    event, missing = p.event()
    if event is None:
        if p.kind == "wall_end" and p.told(p.seat):
            pass  # this seat's standing is told, not shown: nothing to count or wait on
        elif p.kind == "wall_end" and p.n_tiles == STANDING_SIZE:
            # The shown hand is complete but others are not: its waits, not to tap.
            return replace(with_waits(session, p, out), hint=missing, waits_tap=False)
        elif p.kind == "wall_end":
            n = STANDING_SIZE - p.n_tiles
            missing = ngettext(
                "Tap the tiles of %(name)s's hand: %(n)s more.",
                "Tap the tiles of %(name)s's hand: %(n)s more.",
                n,
            ) % {"n": n, "name": p.names[p.seat] if p.seat is not None else ""}
        return replace(out, hint=missing)
    try:
        # The list add_event would settle: the same merge for 一炮多响.
        rs = get_ruleset(session.ruleset)
        events = rs.with_event(list(now.events), event, session.rules.params, p.join)
        result = evaluate(session, p.round_entry(events)).result
    except RuleError as e:
        return replace(out, message=rule_error_text(e))
    i = len(events) - 1
    report = result["events"][i]
    mine = [t for t in result["transfers"]
            if t["event"] == i and (not p.join or t["to"] == p.winner)]  # fmt: skip
    names = list(session.players)
    deltas = [0] * session.n_players
    for t in mine:
        deltas[t["from"]] -= t["amount"]
        deltas[t["to"]] += t["amount"]
    lang = 0 if is_zh() else 1
    reasons = session.rules.table.reasons
    transfers: list[TransferRow] = [
        {"from": names[t["from"]], "to": names[t["to"]], "amount": t["amount"],
         "reason": reason_labels(t, reasons)[lang]}
        for t in mine
    ]  # fmt: skip
    out = replace(out, seats=seat_rows(names, deltas), transfers=transfers, can_confirm=True)
    if report["type"] == "win":
        won = next(w for w in report["winners"] if w["seat"] == p.winner)
        scoring = p.spec.scoring
        amount = won.get("amount", sum(t["amount"] for t in mine))
        gain = sum(t["amount"] for t in mine
                   if t["to"] == p.winner and t.get("reason") in WIN_REASONS)  # fmt: skip
        return replace(
            out,
            fans=fan_rows(won.get("fans", []), scoring),
            total=won.get("total"),
            amount=amount,
            total_text=bar_text(won.get("total"), gain, scoring),
            working=working_lines(won, names),
        )
    if report["type"] == "wall_end":
        checks = {
            c["seat"]: {**c, "waits": [FACES[parse_tile(w)] for w in c["waits"]]}
            for c in report["checks"]
        }
        return replace(out, checks=checks)
    return out


@dataclass(frozen=True)
class ToldClaim:
    """A told 听牌's claim (its amount and fans), or why its fans cannot be."""

    amount: int | None = None
    fans: int | None = None
    message: str = ""


def told_claim(session: GameSession, p: EventPick, now: RoundNow) -> ToldClaim:
    """A told 听牌's claim as soon as its fans are picked, before every hand is in.

    Settled the way confirm will settle it: the round so far and a wall's end
    where this seat is ready with these fans and the others are not (which
    does not change a claim), so the table's cap and base apply exactly; or why
    those fans cannot be (two patterns).
    """
    assert p.seat is not None
    fans = {str(k): v for k, v in sorted(p.wall_fans.get(p.seat, {}).items())}
    hands = [{"seat": s, "status": "ready", "fans": fans} if s == p.seat
             else {"seat": s, "status": "not_ready"} for s in p.in_play()]  # fmt: skip
    try:
        events = [*now.events, {"type": "wall_end", "hands": hands}]
        result = evaluate(session, p.round_entry(events)).result
    except RuleError as e:
        return ToldClaim(message=rule_error_text(e))
    check = next(c for c in result["events"][-1]["checks"] if c["seat"] == p.seat)
    return ToldClaim(amount=check["claim"], fans=check["claim_fans"])
