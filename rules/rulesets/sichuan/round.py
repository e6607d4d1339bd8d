"""四川麻将 round settlement: the events of one whole 血战 round, as the core replays them.

A Sichuan round is not one win: kongs pay at once (刮风下雨), several players
win one after the other (血战到底) or on one discard (一炮多响), and a round
that reaches the end of the wall with two or more players still in is checked
(查花猪, 查大叫) from the hands they show.  Each event moves money at once and
only between players still in, so the order of events matters.

The core (rules/round.py `settle_events`) replays the events: the round's seats,
the event loop, the state (who is out, the latest kong, the tiles shown), the
ledger and the result's form are its.  This module gives it the hooks the
ruleset's class (`SichuanRuleset`) answers with: each kong and win settled
(`settle_kong`, `settle_win`), the wall's end checked (`wall_end`), the tiles
shown counted over the whole round (`round_checked`).  The kongs and wins are
settled here, not by the core's own `settle_kong`/`settle_win`, because their
reports are 四川's documented form (docs/rules/sichuan.md, "The result"): every
win says its flags, each winner its `mode`, `amount` and `payers`, a win's
transfers carry its `fans` and a hand-over or refund its `kong_event`, a robbed
kong is void with a `note`; the checks and their words are the doc's too (a
kong by a player already out, a discarder already out, flags that must be
true or false, `robbed` on the kong).  The core's kongs and wins answer every
other table in their own form and cannot take this one without changing those
answers.

The JSON form (docs/rules/sichuan.md, "Round settlement"):

    {"ruleset": "sichuan", "params": {...}, "players": 4,
     "events": [
       {"type": "kong", "player": 1, "kong": "exposed", "discarder": 2},
       {"type": "kong", "player": 3, "kong": "concealed"},
       {"type": "win", "discarder": 0, "winners": [{"seat": 2, "hand": {...}}]},
       {"type": "win", "discarder": null, "winners": [{"seat": 1, "fans": {"3": 1}}]},
       {"type": "wall_end", "hands": [{"seat": 0, "concealed": "...", "melds": []}, ...]}
     ]}

Seed sentences each rule rests on are quoted beside the code and in the doc.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RuleError
from rules.hand import Hand, parse_situation
from rules.params import ParamValues
from rules.results import EventReport, Standing, Transfer, WinnerReport
from rules.round import RoundState, event_error, event_seat, event_where, pay_kong
from rules.rulesets.sichuan.scoring import Sichuan
from rules.seat_inputs import read_seat_inputs
from rules.table import KONG_KINDS
from rules.tiles import parse_tile, tile_en, tile_str, tile_zh
from rules.wall import located, standings

# reason -> (zh, en): what the ledger prints beside a transfer.
REASONS: dict[str, tuple[str, str]] = {
    # One language each: a page shows the reader's, the other on demand (中/EN).
    "kong_exposed": ("刮风（直杠）", "Exposed kong"),
    "kong_added": ("刮风（面下杠）", "Added kong"),
    "kong_concealed": ("下雨（暗杠）", "Concealed kong"),
    "win_discard": ("点炮", "Won on a discard"),
    "win_self_drawn": ("自摸", "Self-drawn"),
    "kong_handover": ("杠上炮转杠钱", "Kong money handed over (won on the kong's discard)"),
    "pig": ("查花猪", "Flower pig"),
    "not_ready": ("查大叫", "Not ready"),
    "kong_refund": ("退杠钱（没听牌）", "Kong money returned (not ready)"),
}
KONG_REASONS = tuple(f"kong_{k}" for k in KONG_KINDS)  # a kong's own money, paid at its event
# The words of a round that differ from the core's (en, zh).
UNFINISHED = ("the round is not over yet: add the next win or the wall's end",
              "这一局还没结束：继续记和牌，或记流局")  # fmt: skip


def unknown_event(etype: Any, i: int) -> RuleError:
    where, where_zh = event_where(i)
    return event_error(
        f"{where}: unknown type {etype!r} (kong, win or wall_end)",
        f"{where_zh}：未知的事件类型（只能是杠、和牌或流局）",
    )


def _bool(ev: Mapping[str, Any], key: str, where: str, where_zh: str) -> bool:
    v = ev.get(key, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise event_error(
            f"{where}: '{key}' must be true or false", f"{where_zh}：{key} 必须是 true 或 false"
        )
    return v


def _show(state: RoundState, held: bytes) -> None:
    """A hand shown as tiles, counted with the round's others (checked at the end)."""
    for t, n in enumerate(held[:27]):
        state.shown[t] += n


def round_checked(state: RoundState) -> None:
    """No tile kind more than four times across every hand shown in the round.

    Winners' hands and the hands shown at the wall's end are different physical
    tiles, except the one discard several players win on (一炮多响), counted once.
    """
    for t, n in enumerate(state.shown[:27]):
        if n > 4:
            raise RuleError(
                "too_many_copies",
                f"the hands of this round hold {n} copies of {tile_en(t)}; a set has only 4",
                f"这一局各家的牌里{tile_zh(t)}共有 {n} 张，一副牌只有 4 张",
            )


def _hand_situation(hand: Any, where: str, where_zh: str) -> dict[str, Any]:
    """A shown hand as a situation; its own ruleset, params and table don't apply."""
    if not isinstance(hand, Mapping):
        raise event_error(f"{where}: the hand must be an object", f"{where_zh}：手牌格式不对")
    if "seat_inputs" in hand:
        raise RuleError(
            "bad_input",
            f"{where}: this table asks no per-seat inputs ('seat_inputs')",
            f"{where_zh}：这桌没有每位玩家的输入项（seat_inputs）",
        )
    return {k: v for k, v in hand.items() if k not in ("ruleset", "params", "table")}


# -- 刮风下雨 ---------------------------------------------------------------------


def settle_kong(state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
    where, where_zh = event_where(i)
    in_play = state.in_play
    p = event_seat(ev.get("player"), state.players, "player", "杠牌者", i, code="bad_event")
    if p not in in_play:
        raise event_error(
            f"{where}: seat {p} has already won and cannot declare a kong",
            f"{where_zh}：{p} 号位已经和牌出局，不能再杠",
        )
    kind = ev.get("kong")
    if kind not in KONG_KINDS:
        raise event_error(
            f"{where}: 'kong' must be exposed, added or concealed",
            f"{where_zh}：杠的种类只能是直杠（exposed）、面下杠（added）或暗杠（concealed）",
        )
    tile = ev.get("tile")
    report: EventReport = {"index": i, "type": "kong", "player": p, "kong": kind}
    if tile not in (None, ""):
        t = parse_tile(tile)
        if t >= 27:
            raise RuleError(
                "bad_tile",
                f"{where}: Sichuan has no {tile_en(t)}",
                f"{where_zh}：四川麻将没有这张牌",
            )
        report["tile"] = tile_str(t)
    if _bool(ev, "robbed", where, where_zh) or i in state.robbed:
        if kind != "added":
            raise event_error(
                f"{where}: only an added kong can be robbed",
                f"{where_zh}：只有面下杠可以被抢杠",
            )
        report["void"] = True
        report["note"] = "robbed (抢杠): the kong pays nothing"
        report["note_zh"] = "被抢杠：刮风下雨无效"
        return report
    d: int | None = None
    if kind == "exposed":
        # "直杠,立刻收取引杠者1倍點數" (seed 002).
        d = event_seat(
            ev.get("discarder"), state.players, "discarder", "引杠者", i, code="bad_event"
        )
        if d == p:
            raise event_error(
                f"{where}: an exposed kong is claimed from another player's discard",
                f"{where_zh}：直杠的第四张牌必须是别人打出的",
            )
        if d not in in_play:
            raise event_error(
                f"{where}: seat {d} has already won and discards nothing",
                f"{where_zh}：{d} 号位已经和牌出局，不会再打牌",
            )
        report["discarder"] = d
    # Paid at once (Sichuan.kong_payments); a win right after it may hand it over.
    state.last_kong = (i, p)
    pay_kong(state, kind, p, d, i)
    return report


# -- wins ---------------------------------------------------------------------------


def settle_win(rs: Sichuan, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
    where, where_zh = event_where(i)
    # This table asks no per-seat inputs: any given are refused, as everywhere.
    read_seat_inputs(state.spec, ev.get("seat_inputs"), state.players, where=event_where(i))
    params, in_play = state.params, state.in_play
    raw_d = ev.get("discarder")
    self_drawn = raw_d is None
    d = (
        None
        if self_drawn
        else event_seat(raw_d, state.players, "discarder", "放炮者", i, code="bad_event")
    )
    after_kong = _bool(ev, "after_kong", where, where_zh)
    robbing = _bool(ev, "robbing_kong", where, where_zh)
    last_tile = _bool(ev, "last_tile", where, where_zh)
    if robbing and self_drawn:
        raise event_error(
            f"{where}: robbing a kong is a win on the konging player's tile: "
            "give him as 'discarder'",
            f"{where_zh}：抢杠要写明被抢杠的人（放炮者）",
        )
    if d is not None and d not in in_play:
        raise event_error(
            f"{where}: seat {d} has already won and discards nothing",
            f"{where_zh}：{d} 号位已经和牌出局，不会再打牌",
        )
    raw_winners = ev.get("winners")
    if not isinstance(raw_winners, list) or not raw_winners:
        raise event_error(f"{where}: a win needs a list 'winners'", f"{where_zh}：请选择和牌者")
    if self_drawn and len(raw_winners) > 1:
        raise event_error(
            f"{where}: only one player can win on his own draw",
            f"{where_zh}：自摸只能有一个和牌者",
        )
    seats: list[int] = []
    for w in raw_winners:
        if not isinstance(w, Mapping):
            raise event_error(
                f"{where}: each winner must be an object", f"{where_zh}：和牌者格式不对"
            )
        s = event_seat(w.get("seat"), state.players, "seat", "和牌者", i, code="bad_event")
        if s in seats:
            raise event_error(f"{where}: seat {s} is listed twice", f"{where_zh}：{s} 号位重复了")
        if s not in in_play:
            raise event_error(
                f"{where}: seat {s} has already won",
                f"{where_zh}：{s} 号位已经和过牌出局了",
            )
        if s == d:
            raise event_error(
                f"{where}: the discarder cannot win on his own discard",
                f"{where_zh}：放炮者不能和自己打的牌",
            )
        seats.append(s)
    results: list[WinnerReport] = []
    win_tile: int | None = None  # the one discard (or draw) every tiles winner won on
    for w, s in zip(raw_winners, seats, strict=True):
        we, wz = f"{where} (seat {s})", f"{where_zh}（{s} 号位）"
        if "hand" in w and w["hand"] is not None:
            sit = _hand_situation(w["hand"], we, wz)
            sit["self_drawn"] = self_drawn
            for flag, on in (("after_kong", after_kong), ("robbing_kong", robbing),
                             ("last_tile", last_tile)):  # fmt: skip
                if on:
                    sit[flag] = True
            with located(we, wz):
                hand = parse_situation(sit, need_win_tile=True)
                res = rs.score_hand(hand, params)
            mode = "tiles"
            _show(state, hand.held)
            if win_tile is None:
                win_tile = hand.win_tile
            elif hand.win_tile != win_tile:
                # Named: the player sees which tile to make the win tile.
                raise event_error(
                    f"{we}: players winning on one discard win on the same tile, "
                    f"{tile_en(win_tile)}",
                    f"{wz}：一炮多响时各家和的是同一张牌，{tile_zh(win_tile)}",
                )
            else:
                state.shown[win_tile] -= 1  # one physical tile, already counted
        elif "fans" in w:
            with located(we, wz):
                res = rs.quick_result(w["fans"], params, self_drawn, after_kong, robbing, last_tile)
            mode = "quick"
        else:
            raise event_error(
                f"{we}: give the winning 'hand' or the 'fans'",
                f"{wz}：请填和牌的牌，或直接选番",
            )
        value = int(res["value"])
        if self_drawn:
            amount = rs.self_drawn_amount(int(res["total"]), value, params)
            payers = [p for p in in_play if p != s]
            reason = "win_self_drawn"
        else:
            assert d is not None
            amount, payers, reason = value, [d], "win_discard"
        for p in payers:
            state.ledger.pay(p, s, amount, reason, i, fans=res["total"])
        terms = rs.win_terms(payers, s, self_drawn, int(res["total"]), params)
        results.append({"seat": s, "mode": mode, "amount": amount, "payers": payers,
                        "fans": res["fans"], "total": res["total"], "multiplier": res["multiplier"],
                        "value": res["value"], "notes": res["notes"], "notes_zh": res["notes_zh"],
                        "terms": terms})  # fmt: skip
    report: EventReport = {
        "index": i,
        "type": "win",
        "discarder": d,
        "self_drawn": self_drawn,
        "after_kong": after_kong,
        "robbing_kong": robbing,
        "last_tile": last_tile,
        "winners": results,
    }
    # 杠上炮: "如果為杠上炮,還要將剛才所杠牌所得,轉給胡牌家(如果1炮多響則胡家給多份)" (seed 002).
    if after_kong and not self_drawn and params.flag("kong_handover"):
        assert d is not None
        # "剛才所杠牌": the kong is the event right before this win, declared by the
        # discarder; an older kong (or one already handed over) is not 杠上炮.
        if state.last_kong != (i - 1, d):
            raise event_error(
                f"{where}: winning on a kong's discard (after a kong) needs the discarder's kong "
                f"right before it, but the event before it is not a kong by seat {d}",
                f"{where_zh}：杠上炮要放炮者刚杠过牌，可是上一个事件不是 {d} 号位的杠",
            )
        got = sum(t["amount"] for t in _kong_money(state) if t["event"] == i - 1)
        for s in seats:
            state.ledger.pay(d, s, got, "kong_handover", i, kong_event=i - 1)
        report["handover"] = {"kong_event": i - 1, "amount": got}
    state.out.extend(seats)
    return report


# -- 流局: 查花猪, 查大叫 --------------------------------------------------------------


def wall_end(rs: Sichuan, state: RoundState, ev: Mapping[str, Any], i: int) -> EventReport:
    params, in_play = state.params, state.in_play

    def shown(hand: Hand, sit: Mapping[str, Any]) -> Standing:
        rs.check(hand)
        _show(state, hand.held)
        if len(rs.suits(hand)) == 3:
            return {"status": "pig", "waits": [], "claim": 0}
        ws = rs.wait_tiles(hand, params)
        if not ws:
            return {"status": "not_ready", "waits": [], "claim": 0}
        # "賠給聽牌的玩家最大的可能番(大叫)" (seed 002): the most this hand could
        # win on a discard, over all its waits.
        best: tuple[tuple[int, int], int] | None = None
        for t in ws:
            won = parse_situation({**sit, "win_tile": tile_str(t)}, need_win_tile=True)
            r = rs.score_hand(won, params)
            key = (int(r["value"]), int(r["total"]))
            if best is None or key > best[0]:
                best = (key, t)
        assert best is not None
        (claim, fans), tile = best
        return {"status": "ready", "waits": [tile_str(t) for t in ws], "claim": claim,
                "claim_fans": fans, "claim_tile": tile_str(tile)}  # fmt: skip

    def told(h: Mapping[str, Any]) -> Standing:
        return _told(rs, params, h)

    checks = standings(ev, i, in_play, state.players, state.spec.wall_statuses, shown, told)
    pigs = [s for s in in_play if checks[s]["status"] == "pig"]
    not_pigs = [s for s in in_play if checks[s]["status"] != "pig"]
    ready = [s for s in in_play if checks[s]["status"] == "ready"]
    unready = [s for s in in_play if checks[s]["status"] == "not_ready"]
    # Step 1, 查花猪: "花豬賠給非花豬玩家16倍點數" (seed 002).
    pig_amount = params.whole("base") * params.whole("pig_multiplier")
    for p in pigs:
        for s in not_pigs:
            state.ledger.pay(p, s, pig_amount, "pig", i)
    # Step 2, 查大叫: "沒聽牌的玩家(花豬不用)賠給聽牌的玩家最大的可能番(大叫)" (seed 002).
    for p in unready:
        for s in ready:
            state.ledger.pay(p, s, checks[s]["claim"], "not_ready", i)
    # "並退回所有刮風下雨所得" / "如果流局的時候玩家還沒有叫牌,則必須退回全部刮風下雨所得":
    # every player without a 叫 (a 花猪 has none) returns his kong money to whoever paid it.
    # A kong handed over by 杠上炮 is his no longer: not returned.
    if params.flag("refund_kongs"):
        handed = {t["kong_event"] for t in state.ledger.transfers if t["reason"] == "kong_handover"}
        for t in _kong_money(state):
            if t["to"] in pigs + unready and t["event"] not in handed:
                state.ledger.pay(
                    t["to"], t["from"], t["amount"], "kong_refund", i, kong_event=t["event"]
                )
    return {"index": i, "type": "wall_end", "checks": [checks[s] for s in in_play]}


def _told(rs: Sichuan, params: ParamValues, h: Mapping[str, Any]) -> Standing:
    """A player's standing at the wall's end as the table tells it, without the tiles.

    Entering 13 tiles for every player still in is 30-40 taps; the table
    usually knows who is a 花猪, who has no 叫, and what the best wait of a
    ready hand is worth.  The claim of a ready hand is valued here from the
    fans picked (the same catalog and cap as a win entered by its fans, on
    a discard): a money figure is never taken from the client.  Tiles stay
    the way to let the engine work the waits out; the two may be mixed.
    """
    if h["status"] == "pig":
        return {"status": "pig", "waits": [], "claim": 0}
    if h["status"] == "not_ready":
        return {"status": "not_ready", "waits": [], "claim": 0}
    fans = h.get("fans")
    if not isinstance(fans, Mapping):
        raise event_error(
            "a ready hand told by its status needs the fans of its best wait ('fans')",
            "听牌要选出最大那一叫的番种",
        )
    r = rs.quick_result(fans, params, self_drawn=False)
    return {
        "status": "ready",
        "waits": [],
        "claim": int(r["value"]),
        "claim_fans": int(r["total"]),
        "fans": r["fans"],
    }


def _kong_money(state: RoundState) -> list[Transfer]:
    """The transfers each kong received at its event, in the order they were paid."""
    return [t for t in state.ledger.transfers if t["reason"] in KONG_REASONS]


__all__ = [
    "REASONS",
    "UNFINISHED",
    "round_checked",
    "settle_kong",
    "settle_win",
    "unknown_event",
    "wall_end",
]
