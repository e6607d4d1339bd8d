"""The wall's end (流局): the standing hands of the players still in, read once.

A ruleset that checks them (查大叫, 查花猪) needs the same things every time: one
hand per player still in, shown as tiles or told as a status, the seats and tile
copies checked, errors said with the event and seat they come from.  This module
does that and hands each hand to the ruleset, which says what it is worth.

    {"type": "wall_end", "hands": [
       {"seat": 0, "concealed": "1112345678999m"},          shown: the engine finds the waits
       {"seat": 1, "status": "not_ready"},                   told
       {"seat": 2, "status": "ready", "fans": {"2": 1}},     told, with its best wait's fans
       {"seat": 3, "status": "ready"}]}                      told: a plain hand
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rules.errors import RuleError
from rules.hand import Hand, parse_situation
from rules.results import Standing, WallCheck
from rules.round import RoundState, count_shown, event_error, event_where


@contextmanager
def located(where: str, where_zh: str) -> Iterator[None]:
    """Errors from a hand carry the event and seat they come from."""
    try:
        yield
    except RuleError as e:
        raise RuleError(e.code, f"{where}: {e.message}", f"{where_zh}：{e.message_zh}") from None


def standings(
    ev: Mapping[str, Any],
    i: int,
    in_play: Sequence[int],
    players: int,
    statuses: Sequence[str],
    shown: Callable[[Hand, Mapping[str, Any]], Standing],
    told: Callable[[Mapping[str, Any]], Standing],
) -> dict[int, WallCheck]:
    """Each player still in -> what the ruleset makes of his standing hand.

    `shown(hand, situation)` gets a parsed 13-tile hand (no win tile) and its
    situation; `told(h)` a hand given by its `status`, one of `statuses` (the
    table's `wall_statuses`).  Each returns at least `status` and `claim`; the
    seat is added here, and an error either raises says the event and seat.
    """
    where, where_zh = event_where(i)
    raw = ev.get("hands")
    if not isinstance(raw, list):
        raise event_error(
            f"{where}: the wall's end needs the hands of the players still in ('hands')",
            f"{where_zh}：流局要填还没和牌的玩家的手牌",
        )
    hands: dict[int, Mapping[str, Any]] = {}
    for h in raw:
        if not isinstance(h, Mapping):
            raise event_error(f"{where}: each hand must be an object", f"{where_zh}：手牌格式不对")
        s = h.get("seat")
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
            raise event_error(
                f"{where}: 'seat' must be a seat from 0 to {players - 1}",
                f"{where_zh}：座位号必须是 0 到 {players - 1}",
            )
        if s not in in_play:
            raise event_error(
                f"{where}: seat {s} has already won; only players still in show their hands",
                f"{where_zh}：{s} 号位已经和牌出局，不用查叫",
            )
        if s in hands:
            raise event_error(f"{where}: seat {s} is listed twice", f"{where_zh}：{s} 号位重复了")
        hands[s] = h
    missing = [s for s in in_play if s not in hands]
    if missing:
        raise event_error(
            f"{where}: the hands of seat(s) {', '.join(map(str, missing))} are missing",
            f"{where_zh}：还缺 {'、'.join(f'{s} 号位' for s in missing)}的手牌",
        )
    allowed = tuple(statuses)
    checks: dict[int, WallCheck] = {}
    for s in in_play:
        h = hands[s]
        we, wz = f"{where} (seat {s})", f"{where_zh}（{s} 号位）"
        if "status" in h:
            if any(k in h for k in ("concealed", "melds", "hand")):
                raise event_error(
                    f"{we}: give the hand's tiles or its status, not both",
                    f"{wz}：手牌和状态只能填一个",
                )
            if h.get("status") not in allowed:
                raise event_error(
                    f"{we}: status must be one of {', '.join(allowed)}",
                    f"{wz}：状态只能是{'、'.join(STATUS_ZH[a] for a in allowed)}",
                )
            with located(we, wz):
                check = told(h)
            checks[s] = {"seat": s, **check, "told": True}
            continue
        sit = {k: v for k, v in h.items() if k not in ("ruleset", "params", "table", "seat")}
        with located(we, wz):
            hand = parse_situation(sit, need_win_tile=False)
            check = shown(hand, sit)
        checks[s] = {"seat": s, **check}
    return checks


def round_standings(
    state: RoundState,
    ev: Mapping[str, Any],
    i: int,
    shown: Callable[[Hand, Mapping[str, Any]], Standing],
    told: Callable[[Mapping[str, Any]], Standing],
) -> dict[int, WallCheck]:
    """`standings` of a round settled by the core: its players, the table's
    statuses, and each hand shown counted with the round's other tiles."""

    def counted(hand: Hand, sit: Mapping[str, Any]) -> Standing:
        count_shown(state, hand.held, None, set())
        return shown(hand, sit)

    return standings(ev, i, state.in_play, state.players, state.spec.wall_statuses, counted, told)


STATUS_ZH = {"pig": "花猪", "not_ready": "没听牌", "ready": "听牌"}

__all__ = ["STATUS_ZH", "located", "round_standings", "standings"]
