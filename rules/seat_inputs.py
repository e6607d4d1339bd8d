"""Per-seat inputs (开口, 炮子, 混儿 held …): judged by one function from the table's declaration.

Every verb that takes them (`score`, `is_win`, `waits`, `settle`'s win and draw
events), through every door (Python, CLI, HTTP, the pages), reads them here, so
a value cannot be refused by one and taken by another: `1.7`, `"1"`, `-1`, a
number above the declared range, a list of the wrong length and a key the
table does not declare (a misspelt `"opening"`) are each `bad_input`, never
truncated, defaulted or ignored.

Two checks need more than the declaration's ranges:

* relations between a seat's inputs (`SeatInput.at_least`): 武汉's 明杠 is a
  冲杠 (an opening itself) or a 蓄杠 (whose 碰 was one), so a player's openings
  are never below his 明杠.  A value given below is refused; one not given at
  all starts there.
* the seats together (`SeatInput.total_max`): a count of tiles of one kind
  (吉安's 正精, 北京's 混儿, 武汉's 红中) adds up to at most four over the table.
* what the winner's hand shows (`with_winner`): a count of wild tiles held
  (`counts_wild`: 北京's 混儿, 吉安's 精) is at least the copies in his hand —
  not given, it is that many; given below, refused — and a count read from the
  hand (`winner_from_hand`: 武汉's openings and kongs, the ×2 cards' kongs) is
  the hand's, whatever was typed for his seat (the table does not ask it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.errors import RuleError
from rules.hand import Hand
from rules.table import SeatInput, TableSpec
from rules.tiles import parse_tiles, tile_en, tile_zh
from rules.values import whole_in

SeatValues = dict[str, list[int]]
_ZH_NUMBER = {4: "四", 8: "八"}
Where = tuple[str, str]  # (en, zh) prefix of a message: "event 2", "第 2 个事件"


def _prefix(where: Where) -> Where:
    return (f"{where[0]}: " if where[0] else "", f"{where[1]}：" if where[1] else "")


def declared(spec: TableSpec, on_draw: bool = False) -> tuple[SeatInput, ...]:
    """The inputs a win asks (every declared one), or a drawn round (`on_draw` ones)."""
    return tuple(s for s in spec.seat_inputs if s.on_draw or not on_draw)


def read_seat_inputs(
    spec: TableSpec, raw: Any, players: int, on_draw: bool = False, where: Where = ("", "")
) -> tuple[SeatValues, frozenset[str]]:
    """The checked values of every input the event asks (the declared default where
    not given), and the ids that were given; RuleError `bad_input` otherwise."""
    en, zh = _prefix(where)
    asked = {s.id: s for s in declared(spec, on_draw)}
    if raw is None:
        raw = {}
    known = ", ".join(asked) or "none"
    known_zh = "、".join(f"{s.zh}（{s.id}）" for s in asked.values()) or "无"
    if not isinstance(raw, Mapping):
        raise RuleError(
            "bad_input",
            f"{en}'seat_inputs' must be an object with the table's inputs ({known})",
            f"{zh}每位玩家的输入项（seat_inputs）必须是一个对象（可用：{known_zh}）",
        )
    unknown = [k for k in raw if k not in asked]
    if unknown:
        k = unknown[0]
        what = "a drawn round asks" if on_draw else "the table asks"
        what_zh = "荒庄时这桌要填的" if on_draw else "这桌要填的"
        raise RuleError(
            "bad_input",
            f"{en}'seat_inputs' has {k!r}, which is not among the inputs {what} ({known})",
            f"{zh}每位玩家的输入项里有“{k}”，不是{what_zh}项目（可用：{known_zh}）",
        )
    out: SeatValues = {}
    for sid, si in asked.items():
        values = raw.get(sid, [si.default] * players)
        if (
            not isinstance(values, list)
            or len(values) != players
            or not all(whole_in(v, si.min, si.max) for v in values)
        ):
            raise RuleError(
                "bad_input",
                f"{en}'{sid}' ({si.en}) needs one whole number from {si.min} to {si.max} "
                f"for each of the {players} seats, not {values!r}",
                f"{zh}“{si.zh}”（{sid}）要给 {players} 位玩家各填一个 {si.min} 到 {si.max} 的整数",
            )
        out[sid] = list(values)
    given = frozenset(raw)
    _relate(asked, out, given, range(players), where)
    _totals(asked, out, where)
    return out, given


def _totals(asked: Mapping[str, SeatInput], values: SeatValues, where: Where) -> None:
    """`total_max`: the seats together hold no more tiles of a kind than there are."""
    en, zh = _prefix(where)
    for sid, si in asked.items():
        total = sum(values[sid])
        if si.total_max is not None and total > si.total_max:
            most = _ZH_NUMBER.get(si.total_max, str(si.total_max))
            raise RuleError(
                "bad_input",
                f"{en}'{sid}': there are only {si.total_max} {si.tiles_en or si.en} in all, "
                f"not {total}",
                f"{zh}{si.tiles_zh or si.zh}一共只有{most}张，这里填了 {total} 张",
            )


def _relate(
    asked: Mapping[str, SeatInput], values: SeatValues, given: frozenset[str],
    seats: Sequence[int] | range, where: Where,
) -> None:  # fmt: skip
    """`at_least`: a value not given starts at the other's; one given below it is refused."""
    en, zh = _prefix(where)
    for sid, si in asked.items():
        other = asked.get(si.at_least or "")
        if other is None:
            continue
        for s in seats:
            floor = values[other.id][s]
            if values[sid][s] >= floor:
                continue
            if sid not in given:
                values[sid][s] = floor
                continue
            raise RuleError(
                "bad_input",
                f"{en}seat {s}: {si.en} ({values[sid][s]}) cannot be fewer than {other.en} "
                f"({floor}): {si.why_en}",
                f"{zh}{s} 号位：“{si.zh}”（{values[sid][s]}）不能少于“{other.zh}”（{floor}）："
                f"{si.why_zh}",
            )


def with_winner(
    spec: TableSpec,
    values: SeatValues,
    given: frozenset[str],
    hand: Hand,
    winner: int,
    wild_order: Sequence[int],
    from_hand: Callable[[Hand], Mapping[str, int]],
    where: Where = ("", ""),
) -> SeatValues:
    """`values` with the winner's entries as his hand shows them (a new dict).

    `wild_order`: the round's wild kinds in the table's order (吉安: 正精, 副精), as
    `counts_wild` indexes them; `from_hand`: the ruleset's counts read from a hand."""
    en, zh = _prefix(where)
    out = {k: list(v) for k, v in values.items()}
    asked = {s.id: s for s in spec.seat_inputs if s.id in out}
    read = from_hand(hand) if any(s.winner_from_hand for s in asked.values()) else {}
    for sid, si in asked.items():
        if si.winner_from_hand and sid in read:
            out[sid][winner] = read[sid]
        if si.counts_wild is None or si.counts_wild >= len(wild_order):
            continue
        kind = wild_order[si.counts_wild]
        held = hand.held[kind]
        if held > si.max:  # a hand cannot hold more than four of a kind: never
            held = si.max
        if out[sid][winner] >= held:
            continue
        if sid not in given:
            out[sid][winner] = max(held, si.min)
            continue
        raise RuleError(
            "bad_input",
            f"{en}seat {winner}: {si.en} ({out[sid][winner]}) cannot be fewer than the "
            f"{held} {tile_en(kind)} the winning hand shows",
            f"{zh}{winner} 号位：“{si.zh}”（{out[sid][winner]}）不能少于和牌的手里的 "
            f"{held} 张{tile_zh(kind)}",
        )
    _relate(asked, out, given, (winner,), where)
    _totals(asked, out, where)
    return out


def checked_hand(
    spec: TableSpec,
    hand: Hand,
    players: int,
    wild_raw: Any,
    from_hand: Callable[[Hand], Mapping[str, int]],
    winner_part: bool = True,
) -> Hand:
    """A situation's hand with its `seat_inputs` checked and completed (score, is_win;
    `waits` without the winner's part: its hand is one tile short).  A hand given
    none is returned as it is: nothing to check, and a ruleset reads the defaults."""
    raw = hand.extra.get("seat_inputs") if hand.extra else None
    if raw is None:
        return hand
    values, given = read_seat_inputs(spec, raw, players)
    t = hand.table
    if winner_part and t is not None and t.winner is not None:
        values = with_winner(spec, values, given, hand, t.winner, wild_order(wild_raw), from_hand)
    return hand._replace(extra={**hand.extra, "seat_inputs": values})


def wild_order(raw: Any) -> tuple[int, ...]:
    """A situation's `wild` kinds in the order given (吉安: 正精 then 副精), once each.
    Called after the situation was read, so the tiles are known good."""
    if not raw:
        return ()
    out: list[int] = []
    for t in parse_tiles(raw):
        if t not in out:
            out.append(t)
    return tuple(out)


__all__ = [
    "SeatValues",
    "checked_hand",
    "declared",
    "read_seat_inputs",
    "wild_order",
    "with_winner",
]
