"""Rounds recorded event by event (kongs paid at once, wins, the wall's end), in plain words.

A round played as events keeps the engine's settlement in its current
revision's `result`: one report per event (a kong, a win, the wall's end) and
every transfer with the index of its event and its reason in both languages.
The session page, the ledger and a round's page show them from here; nothing
is computed but words: the amounts are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from rules import RuleError
from rules.table import Scoring
from rules.tiles import parse_tile
from scorer.language import by_language, is_zh, seat_name, tile_name
from scorer.present.scoring import total_text, working_lines
from scorer.templatetags.scorer_format import sign_class

# Transfers whose reason the event's own line already says (甲 暗杠, 丙 自摸):
# the session page shows them without a label; the others (杠上炮转杠钱,
# 查花猪, 查大叫, 退杠钱) carry theirs.
SUM = Scoring()  # a table that adds its fans up (the declaration's default)

SELF_EXPLAINED = frozenset(
    {"kong_exposed", "kong_added", "kong_concealed", "win", "win_discard", "win_self_drawn"}
)


def join_names(items: Sequence[str]) -> str:
    """乙、丙、丁 / 乙, 丙, 丁."""
    return ("、" if is_zh() else ", ").join(items)


def _tile(raw: Any) -> str:
    try:
        t = parse_tile(raw)
    except RuleError:
        return str(raw)
    return tile_name(t)


def fans_text(total: Any) -> str:
    n = total if isinstance(total, int) and not isinstance(total, bool) else 0
    return ngettext("%(n)s fan", "%(n)s fans", n) % {"n": n}


def winner_fans(winner: Mapping[str, Any], scoring: Scoring = SUM) -> str:
    """清七对 根 ×2 7番: the fans a winner was paid for, and their total in the table's
    unit; no total where every shape is worth the same (the working says the amounts)."""
    parts = []
    for f in winner.get("fans") or []:
        if not isinstance(f, Mapping):
            continue
        name = by_language(f.get("name_zh"), f.get("name_en"))
        count = f.get("count", 1)
        parts.append(f"{name} ×{count}" if isinstance(count, int) and count > 1 else name)
    if scoring.compose != "flat":
        parts.append(total_text(winner.get("total"), scoring))
    return " ".join(p for p in parts if p)


def fans_other(report: Mapping[str, Any]) -> dict[str, str] | None:
    """A win's fan names in the reader's other language, shown on demand (中/EN).

    The event's line names the fans in the page's language; a player at the
    same table reading the other one (or the rule book, in Chinese) asks for
    these.  {"lang", "class", "text"}, or None when the event names no fan.
    """
    names = []
    for w in _winners(report):
        for f in w.get("fans") or []:
            if isinstance(f, Mapping):
                name = f.get("name_en") if is_zh() else f.get("name_zh")
                if name and name not in names:
                    names.append(str(name))
    if not names:
        return None
    if is_zh():
        return {"lang": "en", "class": "pk-en", "text": ", ".join(names)}
    return {"lang": "zh-hans", "class": "pk-zh", "text": "、".join(names)}


def _winners(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [w for w in report.get("winners") or [] if isinstance(w, Mapping)]


def headline(report: Mapping[str, Any], names: Sequence[str], scoring: Scoring = SUM) -> str:
    """One event in a line: 甲 暗杠 · 五万 / 丙 和牌，甲 放炮 清七对 5番 / 流局."""
    kind = report.get("type")
    if kind == "kong":
        player = seat_name(names, report.get("player"))
        how = report.get("kong")
        if how == "exposed":
            text = gettext("%(player)s: exposed kong on %(discarder)s's discard") % {
                "player": player,
                "discarder": seat_name(names, report.get("discarder")),
            }
        elif how == "added":
            text = gettext("%(player)s: added kong") % {"player": player}
        else:
            text = gettext("%(player)s: concealed kong") % {"player": player}
        if report.get("tile"):
            text += " · " + _tile(report["tile"])
        if report.get("void"):
            text += " · " + gettext("robbed, so it pays nothing")
        return text
    if kind == "win":
        winners = _winners(report)
        who = join_names([seat_name(names, w.get("seat")) for w in winners])
        discarder = report.get("discarder")
        if discarder is None:
            text = gettext("%(winner)s wins, self-drawn") % {"winner": who}
        elif len(winners) > 1:
            text = gettext("%(winners)s win on %(discarder)s's discard (several winners)") % {
                "winners": who,
                "discarder": seat_name(names, discarder),
            }
        else:
            text = gettext("%(winner)s wins on %(discarder)s's discard") % {
                "winner": who,
                "discarder": seat_name(names, discarder),
            }
        if len(winners) == 1:
            text += " · " + winner_fans(winners[0], scoring)
        return text
    if kind == "wall_end":
        return gettext("The wall has run out")
    return str(kind or "?")


def _details(report: Mapping[str, Any], names: Sequence[str], scoring: Scoring = SUM) -> list[str]:
    """What one line cannot hold: each winner's fans when several won, the working
    where the table counts otherwise than a sum, who is ready at the wall's end."""
    lines: list[str] = []
    if report.get("type") == "win":
        winners = _winners(report)
        for w in winners:
            # Several winners: each one's fans, then how his payers' amounts came.
            if len(winners) > 1:
                lines.append(f"{seat_name(names, w.get('seat'))} {winner_fans(w, scoring)}")
            lines += working_lines(w, names)
    elif report.get("type") == "wall_end":
        for check in report.get("checks") or []:
            if not isinstance(check, Mapping):
                continue
            player = seat_name(names, check.get("seat"))
            status = check.get("status")
            if status == "pig":
                lines.append(
                    gettext("%(player)s: flower pig (still holds three suits)") % {"player": player}
                )
            elif status == "ready":
                lines.append(
                    gettext("%(player)s: ready (best wait %(tile)s, %(fans)s)")
                    % {
                        "player": player,
                        "tile": _tile(check.get("claim_tile")),
                        "fans": fans_text(check.get("claim_fans")),
                    }
                )
            else:
                lines.append(gettext("%(player)s: not ready") % {"player": player})
    return lines


def _actor(report: Mapping[str, Any]) -> Any:
    """Who the event's own payments go to: the konging player, the one winner."""
    if report.get("type") == "kong":
        return report.get("player")
    winners = _winners(report)
    if report.get("type") == "win" and len(winners) == 1:
        return winners[0].get("seat")
    return None


def reason_labels(
    t: Mapping[str, Any], reasons: Mapping[str, tuple[str, str]] | None = None
) -> tuple[str, str]:
    """A transfer's reason in Chinese and English, as the pages say it.

    The table's current wording by reason code (`reasons`, from the ruleset's
    declaration), so a round stored before a label changed reads like the
    others; the stored words for unknown codes."""
    key = str(t.get("reason") or "")
    stored = (t.get("reason_zh") or key, t.get("reason_en") or key)
    zh, en = (reasons or {}).get(key, stored)
    return str(zh), str(en)


def payment_lines(
    transfers: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    actor: Any = None,
    reasons: Mapping[str, tuple[str, str]] | None = None,
) -> list[dict[str, str]]:
    """One event's transfers, grouped as they are said at the table.

    "乙、丙、丁 各付 12" (three pay the konging player the same), "甲 → 丙 96",
    "甲 → 乙、丙、丁 各 12" (one returns his kong money to three).  Each line
    has its reason's label unless the event's own line says it already.
    """
    # (reason, payee, amount) -> payers, in the engine's order.
    to_one: dict[tuple[str, Any, Any], list[Any]] = {}
    for t in transfers:
        to_one.setdefault((str(t.get("reason", "")), t.get("to"), t.get("amount")), []).append(
            t.get("from")
        )
    # Single payers paying several payees the same: (reason, payer, amount) -> payees.
    groups: list[tuple[str, list[Any], list[Any], Any]] = []
    from_one: dict[tuple[str, Any, Any], list[Any]] = {}
    for (reason, payee, amount), payers in to_one.items():
        if len(payers) == 1:
            key = (reason, payers[0], amount)
            if key in from_one:
                from_one[key].append(payee)
                continue
            from_one[key] = [payee]
            groups.append((reason, payers, from_one[key], amount))
        else:
            groups.append((reason, payers, [payee], amount))
    labels = {str(t.get("reason", "")): reason_labels(t, reasons) for t in transfers}
    lines = []
    for reason, payers, payees, amount in groups:
        who = join_names([seat_name(names, s) for s in payers])
        whom = join_names([seat_name(names, s) for s in payees])
        if len(payers) == 1 and len(payees) == 1:
            text = f"{who} → {whom} {amount}"
        elif len(payees) == 1 and payees[0] == actor:
            text = gettext("%(payers)s pay %(amount)s each") % {"payers": who, "amount": amount}
        else:
            text = gettext("%(payers)s → %(payees)s, %(amount)s each") % {
                "payers": who,
                "payees": whom,
                "amount": amount,
            }
        zh, en = labels.get(reason, ("", ""))
        label = "" if reason in SELF_EXPLAINED else by_language(zh, en)
        lines.append({"reason": label, "text": text})
    return lines


def _transfer(
    t: Mapping[str, Any], names: Sequence[str], reasons: Mapping[str, tuple[str, str]]
) -> dict[str, Any]:
    """One transfer as the ledger and the round's page list it: who, whom, how much, why."""
    zh, en = reason_labels(t, reasons)
    return {
        "from": seat_name(names, t.get("from")),
        "to": seat_name(names, t.get("to")),
        "amount": t.get("amount"),
        "reason_zh": zh,
        "reason_en": en,
    }


def describe(
    result: Any,
    names: Sequence[str],
    reasons: Mapping[str, tuple[str, str]] | None = None,
    scoring: Scoring = SUM,
) -> list[dict[str, Any]]:
    """Every event of a round played as events, in order, ready to show.

    Each: number (from 1), type, text (one line), fans_other (a win's fan names in
    the other language, on demand), lines (details), payments
    (grouped, for the session page), transfers (each one, with its reason in
    both languages, for the ledger and the round's page), void (a robbed kong),
    running (each seat's points in the round so far, after this event).
    """
    if not isinstance(result, Mapping):
        return []
    reports = [r for r in result.get("events") or [] if isinstance(r, Mapping)]
    by_event: dict[Any, list[Mapping[str, Any]]] = {}
    for t in result.get("transfers") or []:
        if isinstance(t, Mapping):
            by_event.setdefault(t.get("event"), []).append(t)
    out = []
    running = [0] * len(names)
    for i, report in enumerate(reports):
        index = report.get("index", i)
        transfers = by_event.get(index, [])
        deltas = report.get("deltas")
        if isinstance(deltas, list) and len(deltas) == len(running):
            running = [a + int(b) for a, b in zip(running, deltas, strict=True)]
        out.append(
            {
                "number": index + 1 if isinstance(index, int) else i + 1,
                "type": report.get("type"),
                "text": headline(report, names, scoring),
                "fans_other": fans_other(report) if report.get("type") == "win" else None,
                "lines": _details(report, names, scoring),
                "payments": payment_lines(transfers, names, _actor(report), reasons),
                "transfers": [_transfer(t, names, reasons or {}) for t in transfers],
                "void": bool(report.get("void")),
                # Each seat's points in this round once this event is paid.
                "running": [
                    {"name": seat_name(names, seat), "value": v, "sign": sign_class(v)}
                    for seat, v in enumerate(running)
                ],
            }
        )
    return out


def change(
    before: Any,
    after: Any,
    old_events: Sequence[Mapping[str, Any]],
    new_events: Sequence[Mapping[str, Any]],
) -> str:
    """What one version of a round changed from the one before it, in a line.

    `before`/`after`: the two versions' event lists (entries); `old_events`/
    `new_events`: the same versions as `describe` gave them.  The words of an
    event come from the version that has it.  An event added or taken back at
    the end (the event form, 撤销) or anywhere (a correction) is named; an event
    changed is said before → after.
    """
    old = list(before) if isinstance(before, list) else []
    new = list(after) if isinstance(after, list) else []
    if new == old:
        return ""
    # The events both versions share at the start and at the end; what lies
    # between is what changed.
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while (
        tail < min(len(old), len(new)) - head
        and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]
    ):
        tail += 1

    def texts(said: Sequence[Mapping[str, Any]], stop: int) -> str:
        return "; ".join(str(e["text"]) for e in said[head:stop])

    removed = texts(old_events, len(old) - tail)
    added = texts(new_events, len(new) - tail)
    if added and not removed:
        return gettext("Added: %(event)s") % {"event": added}
    if removed and not added:
        return gettext("Taken back: %(event)s") % {"event": removed}
    return gettext("Changed: %(before)s → %(after)s") % {"before": removed, "after": added}


__all__ = [
    "SUM",
    "change",
    "describe",
    "fans_other",
    "fans_text",
    "headline",
    "join_names",
    "payment_lines",
    "reason_labels",
]
