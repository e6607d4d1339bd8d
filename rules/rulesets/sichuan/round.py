"""四川麻将 round settlement: the money of one whole 血战 round, event by event.

A Sichuan round is not one win: kongs pay at once (刮风下雨), several players
win one after the other (血战到底) or on one discard (一炮多响), and a round
that reaches the end of the wall with two or more players still in is checked
(查花猪, 查大叫) from the hands they show.  Each event moves money at once and
only between players still in, so the order of events matters: the function
below replays them in order and returns every transfer with its reason.

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
from dataclasses import dataclass, field
from typing import Any, cast

from rules.errors import RuleError
from rules.hand import Hand, parse_situation
from rules.params import ParamValues
from rules.results import EventReport, RoundBody, Standing, Transfer, WinnerReport
from rules.round import robbed_kongs, round_result, round_seats
from rules.rulesets.sichuan.scoring import Sichuan
from rules.seat_inputs import read_seat_inputs
from rules.tiles import parse_tile, tile_en, tile_str, tile_zh
from rules.values import whole_in
from rules.wall import located, standings

KONG_KINDS = ("exposed", "added", "concealed")
EVENT_TYPES = ("kong", "win", "wall_end")
WALL_STATUSES = ("pig", "not_ready", "ready")

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
KONG_ZH = {"exposed": "直杠", "added": "面下杠", "concealed": "暗杠"}


def _err(message: str, message_zh: str) -> RuleError:
    return RuleError("bad_event", message, message_zh)


@dataclass
class _Kong:
    event: int
    player: int
    kind: str
    received: list[tuple[int, int]] = field(default_factory=list)  # (payer, amount)
    handed_over: bool = False


@dataclass
class _Ledger:
    players: int
    transfers: list[dict[str, Any]] = field(default_factory=list)

    def pay(
        self, event: int, payer: int, payee: int, amount: int, reason: str, **extra: Any
    ) -> None:
        if amount <= 0 or payer == payee:
            return
        zh, en = REASONS[reason]
        self.transfers.append(
            {
                "event": event,
                "from": payer,
                "to": payee,
                "amount": amount,
                "reason": reason,
                "reason_zh": zh,
                "reason_en": en,
                **extra,
            }
        )

    def deltas(self, first: int = 0) -> list[int]:
        """Money per seat from the transfers made since transfer number `first`."""
        d = [0] * self.players
        for t in self.transfers[first:]:
            d[t["from"]] -= t["amount"]
            d[t["to"]] += t["amount"]
        return d


def _seat(raw: Any, what_en: str, what_zh: str, players: int, where: str, where_zh: str) -> int:
    if not whole_in(raw, 0, players - 1):
        raise _err(
            f"{where}: '{what_en}' must be a seat from 0 to {players - 1}, not {raw!r}",
            f"{where_zh}：{what_zh}必须是 0 到 {players - 1} 的座位号",
        )
    return raw


def _bool(ev: Mapping[str, Any], key: str, where: str, where_zh: str) -> bool:
    v = ev.get(key, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise _err(
            f"{where}: '{key}' must be true or false", f"{where_zh}：{key} 必须是 true 或 false"
        )
    return v


def settle_round(rs: Sichuan, rnd: Mapping[str, Any], params: ParamValues) -> RoundBody:
    """Replay one round's events and return every transfer; RuleError on a bad round.

    Nothing is half-settled: the first bad event raises and the caller gets
    no transfers at all, so a round is recorded whole or not at all.
    """
    # 血战 is played three-handed and two-handed too; the dealer and the round's
    # wind change nothing here but are checked like any round's.
    players, _dealer, _wind = round_seats(rnd, (2, 3, 4))
    events = rnd.get("events")
    if not isinstance(events, list) or not events:
        raise _err("a round needs a non-empty list 'events'", "这一局还没有任何事件（events）")
    state = _Round(rs, params, _Ledger(players), robbed_kongs(events))
    reports: list[EventReport] = []
    finished = False
    for i, ev in enumerate(events):
        where, where_zh = _where(i)
        if not isinstance(ev, Mapping):
            raise _err(f"{where} must be an object", f"{where_zh}格式不对")
        etype = ev.get("type")
        if etype not in EVENT_TYPES:
            raise _err(
                f"{where}: unknown type {etype!r} (kong, win or wall_end)",
                f"{where_zh}：未知的事件类型（只能是杠、和牌或流局）",
            )
        if finished:
            raise _err(
                f"{where}: the round is already over",
                f"{where_zh}：这一局已经结束，不能再记事件",
            )
        first_transfer = len(state.ledger.transfers)
        if etype == "kong":
            report = state.kong(ev, i)
        elif etype == "win":
            # This table asks no per-seat inputs: any given are refused, as everywhere.
            read_seat_inputs(rs.table(params), ev.get("seat_inputs"), players, where=_where(i))
            report = state.win(ev, i)
            finished = not params["blood_battle"] or len(state.out) >= players - 1
        else:
            report = state.wall_end(ev, i)
            finished = True
        report["deltas"] = state.ledger.deltas(first_transfer)
        reports.append(report)

    state.check_copies()
    # (this ledger's transfers are Transfers, built untyped with their extra keys)
    transfers = cast("list[Transfer]", state.ledger.transfers)
    return round_result(
        players, reports, transfers, state.ledger.deltas(), state.out, finished,
        ("the round is not over yet: add the next win or the wall's end",
         "这一局还没结束：继续记和牌，或记流局"),
    )  # fmt: skip


def _where(i: int) -> tuple[str, str]:
    return f"event {i + 1}", f"第 {i + 1} 个事件"


def _hand_situation(hand: Any, where: str, where_zh: str) -> dict[str, Any]:
    """A shown hand as a situation; its own ruleset, params and table don't apply."""
    if not isinstance(hand, Mapping):
        raise _err(f"{where}: the hand must be an object", f"{where_zh}：手牌格式不对")
    if "seat_inputs" in hand:
        raise RuleError(
            "bad_input",
            f"{where}: this table asks no per-seat inputs ('seat_inputs')",
            f"{where_zh}：这桌没有每位玩家的输入项（seat_inputs）",
        )
    return {k: v for k, v in hand.items() if k not in ("ruleset", "params", "table")}


@dataclass
class _Round:
    """What the replay knows after each event: money moved, who is out, the kongs
    that may be handed over or returned, and the tiles shown so far."""

    rs: Sichuan
    params: ParamValues
    ledger: _Ledger
    robbed: frozenset[int]
    out: list[int] = field(default_factory=list)  # winners in the order they won
    kongs: list[_Kong] = field(default_factory=list)
    seen: list[int] = field(default_factory=lambda: [0] * 27)  # tiles of every hand shown

    @property
    def players(self) -> int:
        return self.ledger.players

    @property
    def base(self) -> int:
        return int(self.params["base"])

    @property
    def in_play(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def seat(self, raw: Any, what_en: str, what_zh: str, i: int) -> int:
        return _seat(raw, what_en, what_zh, self.players, *_where(i))

    def show(self, held: bytes) -> None:
        for t, n in enumerate(held[:27]):
            self.seen[t] += n

    def check_copies(self) -> None:
        """No tile kind more than four times across every hand shown in the round.

        Winners' hands and the hands shown at the wall's end are different physical
        tiles, except the one discard several players win on (一炮多响), counted once.
        """
        for t, n in enumerate(self.seen):
            if n > 4:
                raise RuleError(
                    "too_many_copies",
                    f"the hands of this round hold {n} copies of {tile_en(t)}; a set has only 4",
                    f"这一局各家的牌里{tile_zh(t)}共有 {n} 张，一副牌只有 4 张",
                )

    # -- 刮风下雨 ---------------------------------------------------------------------

    def kong(self, ev: Mapping[str, Any], i: int) -> EventReport:
        where, where_zh = _where(i)
        in_play = self.in_play
        p = self.seat(ev.get("player"), "player", "杠牌者", i)
        if p not in in_play:
            raise _err(
                f"{where}: seat {p} has already won and cannot declare a kong",
                f"{where_zh}：{p} 号位已经和牌出局，不能再杠",
            )
        kind = ev.get("kong")
        if kind not in KONG_KINDS:
            raise _err(
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
        if _bool(ev, "robbed", where, where_zh) or i in self.robbed:
            if kind != "added":
                raise _err(
                    f"{where}: only an added kong can be robbed",
                    f"{where_zh}：只有面下杠可以被抢杠",
                )
            report["void"] = True
            report["note"] = "robbed (抢杠): the kong pays nothing"
            report["note_zh"] = "被抢杠：刮风下雨无效"
            return report
        record = _Kong(i, p, kind)
        if kind == "exposed":
            # "直杠,立刻收取引杠者1倍點數" (seed 002).
            d = self.seat(ev.get("discarder"), "discarder", "引杠者", i)
            if d == p:
                raise _err(
                    f"{where}: an exposed kong is claimed from another player's discard",
                    f"{where_zh}：直杠的第四张牌必须是别人打出的",
                )
            if d not in in_play:
                raise _err(
                    f"{where}: seat {d} has already won and discards nothing",
                    f"{where_zh}：{d} 号位已经和牌出局，不会再打牌",
                )
            payers = [d]
            amount = self.base * int(self.params["kong_exposed"])
            report["discarder"] = d
        else:
            # "面下杠,立刻收取其他未胡者1倍點數"; "下雨立刻收取其他未胡者2倍點數" (seed 002).
            payers = [s for s in in_play if s != p]
            key = "kong_added" if kind == "added" else "kong_concealed"
            amount = self.base * int(self.params[key])
        for s in payers:
            self.ledger.pay(i, s, p, amount, f"kong_{kind}")
            if amount > 0:
                record.received.append((s, amount))
        self.kongs.append(record)
        return report

    # -- wins ---------------------------------------------------------------------------

    def win(self, ev: Mapping[str, Any], i: int) -> EventReport:
        where, where_zh = _where(i)
        rs, params, in_play = self.rs, self.params, self.in_play
        raw_d = ev.get("discarder")
        self_drawn = raw_d is None
        d = None if self_drawn else self.seat(raw_d, "discarder", "放炮者", i)
        after_kong = _bool(ev, "after_kong", where, where_zh)
        robbing = _bool(ev, "robbing_kong", where, where_zh)
        last_tile = _bool(ev, "last_tile", where, where_zh)
        if robbing and self_drawn:
            raise _err(
                f"{where}: robbing a kong is a win on the konging player's tile: "
                "give him as 'discarder'",
                f"{where_zh}：抢杠要写明被抢杠的人（放炮者）",
            )
        if d is not None and d not in in_play:
            raise _err(
                f"{where}: seat {d} has already won and discards nothing",
                f"{where_zh}：{d} 号位已经和牌出局，不会再打牌",
            )
        raw_winners = ev.get("winners")
        if not isinstance(raw_winners, list) or not raw_winners:
            raise _err(f"{where}: a win needs a list 'winners'", f"{where_zh}：请选择和牌者")
        if self_drawn and len(raw_winners) > 1:
            raise _err(
                f"{where}: only one player can win on his own draw",
                f"{where_zh}：自摸只能有一个和牌者",
            )
        seats: list[int] = []
        for w in raw_winners:
            if not isinstance(w, Mapping):
                raise _err(f"{where}: each winner must be an object", f"{where_zh}：和牌者格式不对")
            s = self.seat(w.get("seat"), "seat", "和牌者", i)
            if s in seats:
                raise _err(f"{where}: seat {s} is listed twice", f"{where_zh}：{s} 号位重复了")
            if s not in in_play:
                raise _err(
                    f"{where}: seat {s} has already won",
                    f"{where_zh}：{s} 号位已经和过牌出局了",
                )
            if s == d:
                raise _err(
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
                self.show(hand.held)
                if win_tile is None:
                    win_tile = hand.win_tile
                elif hand.win_tile != win_tile:
                    # Named: the player sees which tile to make the win tile.
                    raise _err(
                        f"{we}: players winning on one discard win on the same tile, "
                        f"{tile_en(win_tile)}",
                        f"{wz}：一炮多响时各家和的是同一张牌，{tile_zh(win_tile)}",
                    )
                else:
                    self.seen[win_tile] -= 1  # one physical tile, already counted
            elif "fans" in w:
                with located(we, wz):
                    res = rs.quick_result(
                        w["fans"], params, self_drawn, after_kong, robbing, last_tile
                    )
                mode = "quick"
            else:
                raise _err(
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
                self.ledger.pay(i, p, s, amount, reason, fans=res["total"])
            results.append({
                "seat": s, "mode": mode, "amount": amount, "payers": payers,
                "fans": res["fans"], "total": res["total"], "multiplier": res["multiplier"],
                "value": res["value"], "notes": res["notes"], "notes_zh": res["notes_zh"],
            })  # fmt: skip
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
        if after_kong and not self_drawn and params["kong_handover"]:
            assert d is not None
            # "剛才所杠牌": the kong is the event right before this win, declared by the
            # discarder; an older kong (or one already handed over) is not 杠上炮.
            kong = self.kongs[-1] if self.kongs and self.kongs[-1].event == i - 1 else None
            if kong is None or kong.player != d:
                raise _err(
                    f"{where}: winning on a kong's discard (after a kong) needs the discarder's kong "
                    f"right before it, but the event before it is not a kong by seat {d}",
                    f"{where_zh}：杠上炮要放炮者刚杠过牌，可是上一个事件不是 {d} 号位的杠",
                )
            got = sum(a for _, a in kong.received)
            for s in seats:
                self.ledger.pay(i, d, s, got, "kong_handover", kong_event=kong.event)
            kong.handed_over = True
            report["handover"] = {"kong_event": kong.event, "amount": got}
        self.out.extend(seats)
        return report

    # -- 流局: 查花猪, 查大叫 --------------------------------------------------------------

    def wall_end(self, ev: Mapping[str, Any], i: int) -> EventReport:
        rs, params, in_play = self.rs, self.params, self.in_play

        def shown(hand: Hand, sit: Mapping[str, Any]) -> Standing:
            rs.check(hand)
            self.show(hand.held)
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

        checks = standings(ev, i, in_play, self.players, WALL_STATUSES, shown, self._told)
        pigs = [s for s in in_play if checks[s]["status"] == "pig"]
        not_pigs = [s for s in in_play if checks[s]["status"] != "pig"]
        ready = [s for s in in_play if checks[s]["status"] == "ready"]
        unready = [s for s in in_play if checks[s]["status"] == "not_ready"]
        # Step 1, 查花猪: "花豬賠給非花豬玩家16倍點數" (seed 002).
        pig_amount = self.base * int(params["pig_multiplier"])
        for p in pigs:
            for s in not_pigs:
                self.ledger.pay(i, p, s, pig_amount, "pig")
        # Step 2, 查大叫: "沒聽牌的玩家(花豬不用)賠給聽牌的玩家最大的可能番(大叫)" (seed 002).
        for p in unready:
            for s in ready:
                self.ledger.pay(i, p, s, checks[s]["claim"], "not_ready")
        # "並退回所有刮風下雨所得" / "如果流局的時候玩家還沒有叫牌,則必須退回全部刮風下雨所得":
        # every player without a 叫 (a 花猪 has none) returns his kong money to whoever paid it.
        if params["refund_kongs"]:
            for k in self.kongs:
                if k.player in pigs + unready and not k.handed_over:
                    for payer, amount in k.received:
                        self.ledger.pay(
                            i, k.player, payer, amount, "kong_refund", kong_event=k.event
                        )
        return {"index": i, "type": "wall_end", "checks": [checks[s] for s in in_play]}

    def _told(self, h: Mapping[str, Any]) -> Standing:
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
            raise _err(
                "a ready hand told by its status needs the fans of its best wait ('fans')",
                "听牌要选出最大那一叫的番种",
            )
        r = self.rs.quick_result(fans, self.params, self_drawn=False)
        return {
            "status": "ready",
            "waits": [],
            "claim": int(r["value"]),
            "claim_fans": int(r["total"]),
            "fans": r["fans"],
        }


__all__ = ["EVENT_TYPES", "KONG_KINDS", "REASONS", "settle_round"]
