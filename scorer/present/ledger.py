"""The ledger and a round's page as they show them: every line's deltas and running
sums, and each version of a round ready to read (its fans, tiles, payments, events,
the notes the working does not already say).  scorer/views/ledger.py answers with
these; the templates only lay them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Count, Prefetch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from rules import REGISTRY, RuleError
from rules.table import Scoring, TableSpec, Wilds
from rules.tiles import parse_tiles, tile_en, tile_zh
from scorer.language import by_language, is_zh, seat_name, tile_name
from scorer.models import GameSession, Round, RoundRevision, Transfer
from scorer.money.fees import seat_fees
from scorer.present.events import SUM, change, describe, join_names
from scorer.present.fee import room_line
from scorer.present.scoring import fan_rows, total_text, working_lines
from scorer.present.words import (
    MELD_NAMES,
    WIND_NAMES,
    author_label,
    line_label,
    money_text,
    name_seats,
)
from scorer.scoring import first_discarder
from scorer.templatetags.scorer_format import sign_class

__all__ = [
    "current_revision",
    "event_hands",
    "events_revision",
    "hand_tiles",
    "ledger",
    "meld_name",
    "revision",
    "round_page",
    "tiles_marked",
    "tiles_text",
    "wild_tiles",
]


_SUITS_EN = ("Characters", "Dots", "Bamboo")


def tiles_text(value: Any) -> str:
    """Tiles the compact way players write them, in the reader's language, never as codes.

    "111222333m456p77z" -> "111222333万 456筒 中中" / "111222333 Characters · 456 Dots ·
    Red Red": suited tiles are digits grouped under their suit, honors and
    flowers by name.  Tiles that do not read (an old or hand-made entry) are
    shown as they were stored.
    """
    raw = "".join(map(str, value)) if isinstance(value, list) else str(value or "")
    try:
        tiles = sorted(parse_tiles(raw))
    except RuleError:
        return raw
    zh = is_zh()
    groups = []
    for suit in range(3):  # 万 筒 条: the suit's character, as in 一万 五筒 九条
        digits = "".join(str(t % 9 + 1) for t in tiles if t < 27 and t // 9 == suit)
        if digits and zh:
            groups.append(digits + tile_zh(9 * suit)[-1])
        elif digits:  # "1 Character" alone, as tile_en says it
            groups.append(tile_en(9 * suit) if digits == "1" else f"{digits} {_SUITS_EN[suit]}")
    honors = [t for t in tiles if t >= 27]
    if honors and zh:
        groups.append("".join(tile_zh(t) for t in honors))
    elif honors:
        groups.append(" ".join(tile_en(t) for t in honors))
    return (" " if zh else " · ").join(groups)


def tiles_marked(value: Any, wild: frozenset[int], label: str) -> str | SafeString:
    """`tiles_text`, each tile played as wild marked (its digit or name in a
    `wild-tile` span that says `label`, 癞子 / 精 …): "3<癞>4</癞>9筒" shows which of
    "349筒" counted as wild.  Without wild tiles, the plain text."""
    text = tiles_text(value)
    raw = "".join(map(str, value)) if isinstance(value, list) else str(value or "")
    try:
        tiles = sorted(parse_tiles(raw))
    except RuleError:
        return text
    if not wild or not wild & set(tiles):
        return text
    zh = is_zh()

    def one(t: int, shown: str) -> SafeString:
        if t not in wild:
            return format_html("{}", shown)
        return format_html(
            '<span class="wild-tile" title="{}">{}<span class="visually-hidden">（{}）</span></span>',
            label, shown, label,
        )  # fmt: skip

    groups: list[SafeString] = []
    for suit in range(3):
        suited = [t for t in tiles if t < 27 and t // 9 == suit]
        if not suited:
            continue
        if zh:
            digits = SafeString("".join(one(t, str(t % 9 + 1)) for t in suited))
            groups.append(format_html("{}{}", digits, tile_zh(9 * suit)[-1]))
        else:
            groups.append(SafeString(" ".join(one(t, tile_en(t)) for t in suited)))
    honors = [t for t in tiles if t >= 27]
    if honors:
        sep = "" if zh else " "
        groups.append(
            SafeString(sep.join(one(t, tile_zh(t) if zh else tile_en(t)) for t in honors))
        )
    return SafeString((" " if zh else " · ").join(groups))


def meld_name(meld: dict[str, Any]) -> str:
    """A meld's kind as the reader says it (暗杠, 加杠...), from its stored entry."""
    kind = str(meld.get("type", ""))
    if kind == "kong":
        kind = "concealed_kong" if meld.get("exposed") is False else kind
        kind = "added_kong" if meld.get("added") else kind
    return str(MELD_NAMES.get(kind, kind))


def hand_tiles(
    hand: dict[str, Any] | None, wild: frozenset[int] = frozenset(), label: str = ""
) -> dict[str, Any] | None:
    """The tiles as entered, for a player: standing tiles, melds by name, the winning
    tile; each tile of a `wild` kind marked as played wild (`tiles_marked`)."""
    if not hand:
        return None
    melds = [
        {"name": meld_name(m), "tiles": tiles_marked(m.get("tiles"), wild, label)}
        for m in hand.get("melds") or []
        if isinstance(m, dict)
    ]
    win = hand.get("win_tile")
    return {
        "concealed": tiles_marked(hand.get("concealed"), wild, label),
        "melds": melds,
        "win": tiles_marked(win, wild, label) if win else "",
    }


def wild_tiles(wilds: Wilds, entry: Mapping[str, Any], labels: Mapping[str, Any]) -> dict[str, Any]:
    """What a round's wild tiles were, as its table declares them (`TableSpec.wilds`,
    never the ruleset's name): the tile turned up (where one is), the wild kinds, and
    the word the table uses for them (its meld label "wild": 精, else 癞子/Wild)."""
    turned = entry.get("turned") if wilds.mode == "turned" else None
    try:
        kinds = frozenset(wilds.kinds(turned))
    except RuleError:  # an old entry without its turned tile: nothing to mark
        kinds = frozenset()
    label = by_language(*labels["wild"]) if "wild" in labels else gettext("Wild")
    try:
        turned_name = tile_name(parse_tiles(str(turned))[0]) if turned else ""
    except (RuleError, IndexError):
        turned_name = ""
    return {
        "kinds": kinds,
        "label": label,
        "turned": turned_name,
        "names": "、".join(tile_name(t) for t in sorted(kinds))
        if is_zh()
        else ", ".join(tile_name(t) for t in sorted(kinds)),
    }


def revision(
    rev: RoundRevision,
    names: Sequence[str],
    number: int,
    winds: bool = True,
    reasons: Mapping[str, tuple[str, str]] | None = None,
    scoring: Scoring = SUM,
    ruleset: str = "",
    table: TableSpec | None = None,
) -> dict[str, Any]:
    """One version of a round, ready to show (its transfers must be prefetched).

    `number`: the round's "第 N 局" (Round.hand_number; said only where the table
    has no 圈风), not its line; `winds`: False for a ruleset played as events (a table
    no 圈风), whose rounds are said by number and dealer.
    """
    entry = rev.entry if isinstance(rev.entry, dict) else {}
    result = rev.result if isinstance(rev.result, dict) else {}
    # What every version says, whole round or events.
    common = {
        "pk": rev.pk,
        "number": rev.number,
        "author": author_label(rev.author),
        "created_at": rev.created_at,
        "round": number,
        "dealer": seat_name(names, rev.dealer),
        "wind": WIND_NAMES.get(rev.prevalent_wind, rev.prevalent_wind) if winds else "",
        "winners": [seat_name(names, w) for w in rev.winners],
        # The notes the working (shown with the fans) does not already say.
        "notes": [
            name_seats(n, names)
            for n in result.get("notes_zh" if is_zh() else "notes") or []
            if not any(
                n.startswith(w) for w in result.get("working_zh" if is_zh() else "working") or []
            )
        ],
        "deltas": [
            {"name": seat_name(names, seat), "value": d, "sign": sign_class(d)}
            for seat, d in enumerate(rev.deltas)
        ],
        # What the room took in this version (台费): said apart from the players' payments.
        "room_take": rev.room_take,
        "room_fees": [
            {"name": seat_name(names, seat), "amount": f}
            for seat, f in enumerate(seat_fees(result, len(names)))
            if f
        ],
        "fee": rev.kind == RoundRevision.FEE,
        # Points moved by agreement (调整) or a declared penalty (逃跑, 错和): no hand.
        "adjust": rev.kind == RoundRevision.ADJUST,
        "penalty": rev.kind == RoundRevision.PENALTY,
        "reason": str(result.get("reason") or ""),
        "lines": [
            {
                "from": seat_name(names, x.get("from")),
                "to": seat_name(names, x.get("to")),
                "amount": x.get("amount"),
            }
            for x in result.get("lines") or []
            if isinstance(x, dict)
        ],  # fmt: skip
        "penalized": seat_name(names, result.get("seat")) if "seat" in result else "",
    }
    if rev.kind in RoundRevision.NOT_HANDS:
        return common
    if rev.kind == RoundRevision.ROUND:
        return {**common, **events_revision(rev, names, entry, result, reasons or {}, scoring)}
    discarder = first_discarder(entry)
    win = rev.kind == RoundRevision.WIN
    rs = REGISTRY.get(ruleset)
    helped = rs.fan_help() if rs is not None else {}
    help_base = reverse("scorer:fan_help", args=[ruleset, 0]).removesuffix("0/") if helped else ""
    fans = [
        {
            # What the fan means, where the ruleset explains it (its own page).
            "help_url": help_base and f.get("id") in helped and f"{help_base}{f['id']}/",
            "name_zh": f.get("name_zh", ""),
            "name_en": f.get("name_en", ""),
            "points": f.get("points", 0),
            "count": f.get("count", 1),
            "subtotal": f.get("points", 0) * f.get("count", 1),
            "shown": f["shown"],
        }
        for f in fan_rows(result.get("fans") or [], scoring)
    ]
    hand = entry.get("hand") if isinstance(entry.get("hand"), dict) else None
    wild = (
        wild_tiles(table.wilds, entry, table.meld_labels)
        if table is not None and table.wilds.mode != "none"
        else None
    )
    return {
        **common,
        "win": win,
        # The turned tile and the wild kinds of the round; each wild tile marked in the hand.
        "wild": wild,
        "discarder": None if discarder is None else seat_name(names, discarder),
        "self_drawn": win and discarder is None,
        "quick": entry.get("mode") == "quick",
        "hand": hand_tiles(hand, wild["kinds"], wild["label"]) if wild else hand_tiles(hand),
        "fans": fans,
        "total": result.get("total", 0),
        # Where the fans do not add up (×2 each, one value for every shape): the working.
        "compose": scoring.compose,
        "total_text": total_text(_won(result, scoring), scoring),
        "working": working_lines(result, names),
        "transfers": [
            {
                "from": seat_name(names, t.from_seat),
                "to": seat_name(names, t.to_seat),
                "amount": t.amount,
            }
            for t in rev.transfers.all()
            if t.to_seat is not None  # the room's: room_fees above
        ],
    }


def _won(result: Mapping[str, Any], scoring: Scoring) -> Any:
    """A result's total as the table says it: where the amounts are a base times each
    payer's factors (compose "factors"), what the win made, the sum of its terms (the
    working above it says each multiplication); else the result's total."""
    terms = [t for t in result.get("terms") or [] if isinstance(t, Mapping)]
    if scoring.compose == "factors" and terms:
        return sum(int(t.get("amount") or 0) for t in terms)
    return result.get("total", 0)


def event_hands(event: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The hands an event was entered with, whose each: a win's winners (by tiles),
    the hands laid down at the wall's end; none for fans picked by hand."""
    if event.get("type") == "win":
        held = [(w.get("seat"), w.get("hand")) for w in event.get("winners") or []
                if isinstance(w, dict)]  # fmt: skip
    elif event.get("type") == "wall_end":
        held = [(h.get("seat"), {"concealed": h["concealed"]}) for h in event.get("hands") or []
                if isinstance(h, dict) and h.get("concealed")]  # fmt: skip
    else:
        return []
    return [
        {"name": seat_name(names, seat), "hand": hand_tiles(hand)}
        for seat, hand in held
        if isinstance(hand, dict) and hand.get("concealed")
    ]


def events_revision(
    rev: RoundRevision,
    names: Sequence[str],
    entry: dict[str, Any],
    result: dict[str, Any],
    reasons: Mapping[str, tuple[str, str]],
    scoring: Scoring = SUM,
) -> dict[str, Any]:
    """What a version of a round played as events adds: every event with its transfers and reasons."""
    events = describe(result, names, reasons, scoring)
    entered = [e for e in entry.get("events") or [] if isinstance(e, dict)]
    for ev in events:
        # The tiles as entered with the event (a win's hands, the hands at the wall's
        # end): a 四川 round's page showed none.
        i = ev["number"] - 1
        ev["hands"] = event_hands(entered[i], names) if 0 <= i < len(entered) else []
    return {
        "events_round": True,
        "win": False,
        "winner_names": join_names([seat_name(names, w) for w in rev.winners]),
        "finished": bool(result.get("finished")),
        "events": events,
        "event_list": entry.get("events") or [],
        # Each event lists its own transfers (with reasons): none listed apart.
        "transfers": [],
    }


# The columns a ledger row reads, as plain tuples: no model instances, and the
# current version's big JSON (entry, result) stays in the database.
LEDGER_COLUMNS = (
    "number",
    "status",
    "undone_by",
    "undone_at",
    "current_id",
    "current__deltas",
    "n_revisions",
    "in_progress",
    "current__kind",
    "current__room_take",
)


def ledger(session: GameSession, show_undone: bool) -> dict[str, Any]:
    """The ledger page: every round's deltas and running sums, undone rounds struck
    through (`show_undone`) or only counted (one query beyond the session's).

    Only the numbers: a round's fans and payments load when its row is opened
    (`current_revision`), so a long game's ledger stays light.
    """
    names = list(session.players)
    n = len(names)
    lines = (
        session.rounds.annotate(n_revisions=Count("revisions"))
        .order_by("number")
        .values_list(*LEDGER_COLUMNS)
    )
    # Each row links to its round: this plus its number, one reverse() for the page.
    round_base = reverse("scorer:round", args=[session.code, 0]).removesuffix("0/")
    running = [0] * n
    room_take = 0
    rows = []
    # Undone hands ("已撤销 2 局") and the other lines undone, told apart: no 局.
    undone_count = undone_lines = 0
    # Each hand is labelled "第 N 局" as Round.hand_number counts: one more than the
    # standing hands before it, so a hand undone and recorded again takes its number
    # back (the rows read 1-10, not 1-6, 8, 9, 10); the URL keeps the line's number.
    hands_before = 0
    for line in lines:
        status, current_id, deltas, kind, take = line[1], line[4], line[5], line[8], line[9]
        standing = status == Round.ACTIVE
        hand = hands_before + 1 if kind in RoundRevision.HANDS else None
        if standing and hand is not None:
            hands_before += 1
        if not standing:
            if kind in RoundRevision.HANDS:
                undone_count += 1
            else:
                undone_lines += 1
            if not show_undone:
                continue
        deltas = list(deltas) if current_id is not None and deltas else [0] * n
        if standing:
            running = [a + b for a, b in zip(running, deltas, strict=False)]
            room_take += take or 0
        cells = list(zip(deltas, running, strict=False))
        rows.append(_ledger_row(line, hand, standing, cells, round_base, session.code))
    return {
        "session": session,
        "names": names,
        "rows": rows,
        "totals": _ledger_totals(session, running),
        "room_fee": room_line(session, room_take),
        "show_undone": show_undone,
        "undone_count": undone_count,
        "undone_lines": undone_lines,
        "any_standing": any(row["standing"] for row in rows),
    }


def _ledger_row(
    line: tuple[Any, ...],
    hand: int | None,
    standing: bool,
    cells: list[tuple[int, int]],
    round_base: str,
    code: str,
) -> dict[str, Any]:
    """One line of the ledger (`line`: its LEDGER_COLUMNS; `hand`: its "第 N 局", None
    for a line that is no hand); `cells`: (points, running total) per seat, which
    {% ledger_cells %} shows."""
    number, _, undone_by, undone_at, current_id, _, n_revisions, live, kind, take = line
    return {
        "number": str(number),
        "hand": hand,
        "url": f"{round_base}{number}/",
        # 改, one tap from the opened row: the same steps as the round's page.
        "edit_url": _edit_url(kind, standing, code, number),
        "standing": standing,
        "undone_by": author_label(undone_by),
        "undone_at": undone_at,
        # A round played as events has a version per event: not a correction.
        "revised": n_revisions > 1 and kind != RoundRevision.ROUND,
        "in_progress": live and standing,
        "has_detail": current_id is not None,
        # The fee charged at the close (台费): a line of its own, not a hand.
        "fee": kind == RoundRevision.FEE,
        "adjust": kind == RoundRevision.ADJUST,
        "penalty": kind == RoundRevision.PENALTY,
        "room_take": take or 0,
        "cells": cells,
    }


def _edit_url(kind: str | None, standing: bool, code: str, number: int) -> str:
    """Where 改 goes for a standing line: an adjustment's or a penalty's own form, a
    hand's record form prefilled (a round of events: its steps, each on the event
    form); none for the close's fee."""
    if not standing:
        return ""
    if kind in RoundRevision.NOT_HANDS:
        return reverse("scorer:adjust_edit", args=[code, number])
    if kind in RoundRevision.HANDS:
        return reverse("scorer:edit", args=[code, number])
    return ""


def _ledger_totals(session: GameSession, running: list[int]) -> list[dict[str, Any]]:
    """The ledger's last row: each seat's total, and its money where points are paid."""
    totals: list[dict[str, Any]] = [{"value": t, "sign": sign_class(t)} for t in running]
    if session.money_per_point is not None:
        for cell, t in zip(totals, running, strict=True):
            cell["money"] = money_text(t * session.money_per_point, session.money_per_point)
    return totals


# --------------------------------------------------------------------------- one round


def current_revision(session: GameSession, rnd: Round) -> dict[str, Any] | None:
    """The round's current version, as the ledger loads it into a row when it is
    opened (3 queries); None for a round with none."""
    if rnd.current is None:
        return None
    table = session.rules.table
    winds = table.prevalent_wind
    # A hand is said by its number only where the table has no 圈风 (one query).
    hand = rnd.hand_number() if not winds else None
    return {
        "rev": revision(
            rnd.current,
            list(session.players),
            hand or rnd.number,
            winds,
            table.reasons,
            table.scoring,
            session.ruleset,
            table,
        ),
        "standing": rnd.status == Round.ACTIVE,
    }


def round_page(session: GameSession, rnd: Round) -> dict[str, Any]:
    """One round: the current version in full and every earlier version, each undo
    and restore, and the links to the rounds either side."""
    names = list(session.players)
    table = session.rules.table
    kind = rnd.current.kind if rnd.current is not None else None
    # A version played as events lists its own transfers (from its result): only
    # the others read the Transfer rows.
    transfers = Prefetch(
        "transfers", queryset=Transfer.objects.exclude(revision__kind=RoundRevision.ROUND)
    )
    hand = rnd.hand_number()
    revisions = [
        revision(rev, names, hand or rnd.number, table.prevalent_wind, table.reasons,
                 table.scoring, session.ruleset, table)
        for rev in rnd.revisions.prefetch_related(transfers).order_by("-number")
    ]  # fmt: skip
    # A round played as events: each version says which event it added or took back.
    for newer, older in zip(revisions, [*revisions[1:], None], strict=True):
        if newer.get("events_round"):
            was = older if older and older.get("events_round") else None
            newer["change"] = change(
                was["event_list"] if was else [],
                newer["event_list"],
                was["events"] if was else [],
                newer["events"],
            )
    current = next((r for r in revisions if r["pk"] == rnd.current_id), None)
    number = rnd.number
    numbers = set(
        session.rounds.filter(number__in=[number - 1, number + 1]).values_list("number", flat=True)
    )
    return {
        "session": session,
        "round": rnd,
        # Its title: "第 3 局" for a hand, "第 4 行：调整" for another line (its
        # URL keeps the line's number).
        "label": line_label(kind, rnd.number, hand),
        "hand": hand is not None,
        "undone_by": author_label(rnd.undone_by),
        "standing": rnd.status == Round.ACTIVE,
        # Each undo and restore of the round, oldest first: who and when.
        "changes": [
            {"action": c.action, "author": author_label(c.author), "at": c.at}
            for c in rnd.changes.all()
        ],
        "current": current,
        "revisions": revisions,
        "revision_count": len(revisions),
        "previous": number - 1 if number - 1 in numbers else None,
        "next": number + 1 if number + 1 in numbers else None,
    }
