"""python -m benchmarks.sichuan_dump [OUT] [--against FILE]: every answer of 四川's entry points on a fixed set.

A change to the round engine must leave every 四川 answer byte for byte the
same, the refusals included.  This writes one JSON line per case (keys in the
answer's own order): `rules.settle(round)` for rounds of events and
`rules.score(situation)` for single hands, about 40,000 in all:

* legal rounds generated from the table's declared events (直杠/面下杠/暗杠 with
  抢杠, 杠上炮 and 杠上花 after them, 点炮 with 一炮多响, 自摸, the wall's end with
  hands shown or told: 花猪, 没听牌, 听牌), on 2, 3 and 4 players, each with one
  parameter set of a cycle that gives every parameter each of its values (and
  both presets), winners as tiles or as picked fans;
* the same rounds broken by one to three random edits (a field replaced by a
  wrong value or dropped, events swapped, repeated, cut or added after the end,
  per-seat inputs where the table asks none, tiles added or taken away);
* rounds with one hand shown as tiles made no win or given another hand's
  tiles (too many copies);
* broken rounds as a whole (players, dealer, wind, params, events, ruleset);
* the spec's rounds (tests/fixtures/spec/sichuan-rounds.jsonl) and the JSON
  examples of docs/rules/sichuan.md;
* single hands scored with `score()` under the same parameter cycle.

Run it on the commit before a change and after it, then compare the files
(`--against` does it and names the first differing line).  Without OUT it
writes to standard output.  It measures nothing.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules import REGISTRY, score, settle

ROOT = Path(__file__).resolve().parent.parent
SIZE = {"legal": 22_000, "broken": 12_000, "hands_edited": 2_000, "whole": 2_000, "hands": 2_000}

# Values a broken field takes: wrong types, seats out of range, other events' words.
JUNK: tuple[Any, ...] = (
    None, True, False, -1, 0, 1, 2, 3, 4, 5, 1.0, 2.5, "x", "", "1", [], {}, [1], {"a": 1},
    "exposed", "added", "concealed", "big", "kong", "win", "wall_end", "draw", "penalty",
    "pig", "ready", "not_ready", "1m", "5p", "9s", "5z", "123m", {"2": 1}, {"3": 1, "2": 1},
    {"15": 5}, {"99": 1}, [3],
)  # fmt: skip


# 13 tiles that are no win with any one more (a winner given one has no win).
NO_WINS = ("1357m2468m13579p", "123m456p789s1235p", "1122m3344p5566s7s", "19m19p19s12345m67p")


def param_sets() -> list[dict[str, Any]]:
    """Every parameter at each of its values (ints at their ends and a few between),
    both presets, and the defaults; the order is fixed."""
    rs = REGISTRY["sichuan"]
    out: list[dict[str, Any]] = [{}]
    for p in rs.params:
        if p.type == "bool":
            values: list[Any] = [not p.default]
        elif p.type == "choice":
            values = [c for c in p.choices if c != p.default]
        else:
            lo, hi = int(p.min or 0), int(p.max or 0)
            values = sorted(
                {lo, min(lo + 1, hi), min(lo + 2, hi), (lo + hi) // 2, hi} - {p.default}
            )
        out += [{p.name: v} for v in values]
    for preset in rs.presets:
        out.append(dict(preset.params))
    chengdu = dict(rs.preset("chengdu").params)  # type: ignore[union-attr]
    out += [{**chengdu, "cap_fans": 3}, {**chengdu, "self_draw": "add_fan", "blood_battle": False}]
    return out


def mixed_params(rng: random.Random) -> dict[str, Any]:
    """Several parameters at once, each at a random value of its range."""
    out: dict[str, Any] = {}
    for p in REGISTRY["sichuan"].params:
        if rng.random() < 0.5:
            continue
        if p.type == "bool":
            out[p.name] = rng.random() < 0.5
        elif p.type == "choice":
            out[p.name] = rng.choice(p.choices)
        else:
            out[p.name] = rng.choice([int(p.min or 0), 1, 2, 3, 5, 6, 16, int(p.max or 0)])
            out[p.name] = max(int(p.min or 0), min(int(p.max or 0), out[p.name]))
    return out


class Builder:
    """One legal round, built event by event from a shared wall of 108 tiles."""

    def __init__(self, rng: random.Random, players: int, params: dict[str, Any]) -> None:
        self.rng = rng
        self.players = players
        self.params = params
        self.resolved = REGISTRY["sichuan"].resolve_params(params)
        self.pool = [4] * 27
        self.out: list[int] = []
        self.events: list[dict[str, Any]] = []
        self.finished = False

    def live(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def quick(self, seat: int) -> dict[str, Any]:
        rng = self.rng
        catalog = REGISTRY["sichuan"].fan_catalog(self.resolved)
        patterns = [str(f["id"]) for f in catalog if f["group"] == "pattern"]
        fans: dict[str, int] = {}
        if rng.random() < 0.7:
            fans[rng.choice(patterns)] = 1
        if self.resolved["fan_table"] == "chengdu" and rng.random() < 0.3:
            fans["3"] = 1
        roots = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
        if roots:
            fans["15"] = roots
        return {"seat": seat, "fans": fans}

    def tiles_winner(self, seat: int) -> dict[str, Any] | None:
        from tests.rules.sichuan_hands import compact, tile, win_hand

        got = win_hand(self.rng, self.pool)
        if got is None:
            return None
        concealed, melds = got
        win = self.rng.choice(concealed)
        concealed.remove(win)
        return {"seat": seat, "hand": {"concealed": compact(concealed), "win_tile": tile(win),
                                       "melds": melds}}  # fmt: skip

    def winner(self, seat: int, tiles_ok: bool) -> dict[str, Any]:
        if tiles_ok and self.rng.random() < 0.5:
            w = self.tiles_winner(seat)
            if w is not None:
                return w
        return self.quick(seat)

    def win(self, discarder: int | None, **flags: bool) -> None:
        rng, live = self.rng, self.live()
        if discarder is None:
            seats = [rng.choice(live)]
            if rng.random() < 0.3:
                flags["last_tile"] = True
        else:
            cands = [s for s in live if s != discarder]
            rng.shuffle(cands)
            seats = cands[: rng.choice([1, 1, 1, 2, len(cands)])]
        # Winners on one discard given as tiles would need one shared win tile: one only.
        winners = [self.winner(s, tiles_ok=k == 0) for k, s in enumerate(seats)]
        ev: dict[str, Any] = {"type": "win", "discarder": discarder, "winners": winners}
        ev.update({k: v for k, v in flags.items() if v})
        self.events.append(ev)
        self.out += seats
        if not self.resolved["blood_battle"] or len(self.out) >= self.players - 1:
            self.finished = True

    def kong(self) -> None:
        rng, live = self.rng, self.live()
        p = rng.choice(live)
        kind = rng.choice(["exposed", "added", "concealed"])
        ev: dict[str, Any] = {"type": "kong", "player": p, "kong": kind}
        if kind == "exposed":
            ev["discarder"] = rng.choice([s for s in live if s != p])
        if rng.random() < 0.4:
            ev["tile"] = f"{rng.randrange(1, 10)}{rng.choice('mps')}"
        self.events.append(ev)
        follow = rng.choice(["", "", "pao", "flower"] + (["rob"] if kind == "added" else []))
        if follow == "rob":
            if rng.random() < 0.5:
                ev["robbed"] = True
            self.win(p, robbing_kong=True)
        elif follow == "pao" and len(live) > 1:
            self.win(p, after_kong=True)
        elif follow == "flower":
            ev2 = {"type": "win", "discarder": None, "winners": [self.winner(p, True)],
                   "after_kong": True}  # fmt: skip
            self.events.append(ev2)
            self.out.append(p)
            if not self.resolved["blood_battle"] or len(self.out) >= self.players - 1:
                self.finished = True

    def wall_end(self) -> None:
        from tests.rules.sichuan_hands import compact, loose_hand, win_hand

        rng = self.rng
        hands: list[dict[str, Any]] = []
        for s in self.live():
            kind = rng.choice(["pig", "ready", "ready", "loose", "told"])
            if kind == "told":
                status = rng.choice(["pig", "not_ready", "ready"])
                h: dict[str, Any] = {"seat": s, "status": status}
                if status == "ready":
                    h["fans"] = self.quick(s)["fans"]
                hands.append(h)
                continue
            tiles: list[int] | None = None
            melds: list[dict[str, Any]] = []
            if kind == "ready":
                got = win_hand(rng, self.pool)
                if got is not None:
                    tiles, melds = got
                    drop = rng.choice(tiles)
                    tiles.remove(drop)
                    self.pool[drop] += 1
            if tiles is None:
                tiles = loose_hand(rng, self.pool, 13, three_suits=kind == "pig")
            if tiles is None:
                hands.append({"seat": s, "status": "not_ready"})
                continue
            hands.append({"seat": s, "concealed": compact(tiles), "melds": melds})
        self.events.append({"type": "wall_end", "hands": hands})
        self.finished = True

    def build(self, n_events: int) -> dict[str, Any]:
        rng = self.rng
        for _ in range(n_events):
            if self.finished:
                break
            what = rng.choice(["kong", "kong", "win", "win", "wall_end"])
            if what == "kong":
                self.kong()
            elif what == "win":
                live = self.live()
                self.win(None if rng.random() < 0.5 else rng.choice(live))
            elif len(self.live()) >= 2:
                self.wall_end()
        rnd: dict[str, Any] = {"ruleset": "sichuan", "players": self.players,
                               "events": self.events}  # fmt: skip
        if self.params:
            rnd["params"] = self.params
        if rng.random() < 0.3:
            rnd["dealer"] = rng.randrange(self.players)
        if rng.random() < 0.1:
            rnd["prevalent_wind"] = rng.choice("ESWN")
        if rng.random() < 0.1:
            rnd["id"] = f"r{rng.randrange(1000)}"
        return rnd


def legal(rng: random.Random, params: dict[str, Any]) -> dict[str, Any]:
    players = rng.choice([4, 4, 4, 3, 2])
    return Builder(rng, players, params).build(rng.randrange(1, 10))


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key or index inside a round, as a path from the top."""
    out: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((*path, k))
            out += _places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((*path, i))
            out += _places(v, (*path, i))
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        node = node[k]
    return node


def _tiles_edit(rng: random.Random, text: str) -> str:
    """A tile string with one tile taken away, one added, or an honour slipped in."""
    tiles = re.findall(r"\d+[mpsz]", text)
    if not tiles:
        return text + "1m"
    k = rng.randrange(len(tiles))
    digits, suit = tiles[k][:-1], tiles[k][-1]
    what = rng.random()
    if what < 0.35 and len(digits) > 1:
        digits = digits[:-1]
    elif what < 0.7:
        digits += str(rng.randrange(1, 10))
    else:
        digits, suit = "5", "z"
    tiles[k] = digits + suit
    return "".join(tiles)


def broken(rng: random.Random, rnd: dict[str, Any]) -> dict[str, Any]:
    """The round with one to three random edits."""
    rnd = copy.deepcopy(rnd)
    for _ in range(rng.choice([1, 1, 2, 3])):
        events = rnd["events"]
        what = rng.random()
        places = [p for p in _places(rnd) if p[0] == "events" and len(p) > 2]
        if what < 0.35 and places:  # a field gets a wrong value
            path = rng.choice(places)
            _at(rnd, path[:-1])[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        elif what < 0.5 and places:  # a field is dropped
            path = rng.choice(places)
            parent = _at(rnd, path[:-1])
            del parent[path[-1]]
        elif what < 0.6 and places:  # tiles edited
            strings = [p for p in places if p[-1] in ("concealed", "win_tile", "tiles")]
            if strings:
                path = rng.choice(strings)
                parent = _at(rnd, path[:-1])
                if isinstance(parent[path[-1]], str):
                    parent[path[-1]] = _tiles_edit(rng, parent[path[-1]])
        elif what < 0.67 and len(events) > 1:  # two events swapped
            i, j = rng.sample(range(len(events)), 2)
            events[i], events[j] = events[j], events[i]
        elif what < 0.74 and events:  # an event repeated
            i = rng.randrange(len(events))
            events.insert(i, copy.deepcopy(events[i]))
        elif what < 0.79 and len(events) > 1:  # cut short
            del events[rng.randrange(len(events)) :]
        elif what < 0.86:  # an event added somewhere (after the end too)
            kind = rng.choice(["kong", "win", "wall_end", "draw", "penalty"])
            extra: dict[str, Any] = {"type": kind}
            if kind == "kong":
                extra.update(player=rng.randrange(5), kong=rng.choice(["added", "concealed"]))
            elif kind == "win":
                extra.update(discarder=None, winners=[{"seat": rng.randrange(4), "fans": {}}])
            elif kind == "wall_end":
                extra["hands"] = [{"seat": s, "status": "not_ready"} for s in range(4)]
            events.insert(rng.randrange(len(events) + 1), extra)
        elif what < 0.9 and events:  # per-seat inputs, which this table does not ask
            target = rng.choice(events)
            winners = target.get("winners") if isinstance(target, dict) else None
            if isinstance(winners, list) and winners and rng.random() < 0.5:
                w = rng.choice(winners)
                if isinstance(w, dict):
                    target = w["hand"] if isinstance(w.get("hand"), dict) else w
            if isinstance(target, dict):
                target["seat_inputs"] = rng.choice([{}, {"x": [1, 2, 3, 4]}, [1], None])
        elif what < 0.92:  # a hand that is no win, or one hand's tiles given twice
            hand_edit(rng, rnd)
        elif what < 0.95 and events:  # a flag set where it may not belong
            ev = rng.choice(events)
            flag = rng.choice(["after_kong", "robbing_kong", "last_tile", "robbed"])
            if isinstance(ev, dict):
                ev[flag] = rng.choice([True, True, False, None, "yes", 1])
        else:  # a hand's own keys the round ignores or refuses
            hands = [p for p in places if p[-1] == "hand" or p[-2:-1] == ("hands",)]
            if hands:
                target = _at(rnd, rng.choice(hands))
                if isinstance(target, dict):
                    key = rng.choice(["ruleset", "params", "table", "self_drawn", "wild", "seat"])
                    target[key] = copy.deepcopy(rng.choice(JUNK))
    return rnd


def hand_edit(rng: random.Random, rnd: dict[str, Any]) -> dict[str, Any]:
    """The round with one hand shown as tiles made no win, or given another's tiles."""
    hands = [p for p in _places(rnd) if p[-1] == "hand" or p[-2:-1] == ("hands",)]
    if hands:
        target = _at(rnd, rng.choice(hands))
        other = _at(rnd, rng.choice(hands))
        if isinstance(target, dict) and isinstance(other, dict):
            if rng.random() < 0.5:
                target["concealed"] = rng.choice(NO_WINS)
            else:
                for key in ("concealed", "melds"):
                    if key in other:
                        target[key] = copy.deepcopy(other[key])
    return rnd


def whole(rng: random.Random, rnd: dict[str, Any]) -> Any:
    """The round broken as a whole (or not at all, now and then)."""
    rnd = copy.deepcopy(rnd)
    what = rng.randrange(9)
    if what == 0:
        rnd["players"] = rng.choice([1, 5, 4.0, "4", True, None, 0, -1, 3, 2])
    elif what == 1:
        rnd["dealer"] = rng.choice([4, -1, 1.0, "0", None, True, 3, 2])
    elif what == 2:
        rnd["prevalent_wind"] = rng.choice(["X", "", None, 1, "east", "e", "N", "S"])
    elif what == 3:
        name = rng.choice([p.name for p in REGISTRY["sichuan"].params] + ["nope"])
        rnd["params"] = {name: copy.deepcopy(rng.choice(JUNK))}
    elif what == 4:
        rnd["events"] = rng.choice([[], None, "x", {}, [None], [[]], 3])
    elif what == 5:
        del rnd["events"]
    elif what == 6:
        rnd["first_dealer"] = rng.choice([0, 1, 3, 4, -1, "0", None])
    elif what == 7:
        rnd["params"] = rng.choice([[], "x", 3, None, {}])
    else:
        return rnd["events"]  # a list given where a round belongs
    return rnd


def doc_rounds() -> list[dict[str, Any]]:
    """The spec's rounds and the doc's JSON examples that are rounds."""
    out: list[dict[str, Any]] = []
    spec = ROOT / "tests" / "fixtures" / "spec" / "sichuan-rounds.jsonl"
    for line in spec.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            r.pop("expect", None)
            r.pop("why", None)
            out.append(r)
    doc = (ROOT / "docs" / "rules" / "sichuan.md").read_text(encoding="utf-8")
    for block in re.findall(r"```json\n(.*?)```", doc, re.S):
        try:
            r = json.loads(block)
        except ValueError:
            continue
        if isinstance(r, dict) and "events" in r and "ok" not in r:
            out.append(r)
    return out


def single_hand(rng: random.Random, params: dict[str, Any]) -> dict[str, Any]:
    """A situation for score(): a winning hand of the generator, flags and a table."""
    b = Builder(rng, 4, params)
    w = b.tiles_winner(rng.randrange(4)) or {"hand": {"concealed": "123456789m1235p",
                                                     "win_tile": "5p"}}  # fmt: skip
    sit: dict[str, Any] = {"ruleset": "sichuan", **w["hand"]}
    if params:
        sit["params"] = params
    for flag in ("self_drawn", "after_kong", "robbing_kong", "last_tile"):
        if rng.random() < 0.25:
            sit[flag] = True
    if rng.random() < 0.4:
        sit["table"] = {"players": 4, "dealer": 0, "winner": 1,
                        "discarder": None if sit.get("self_drawn") else 2}  # fmt: skip
    if rng.random() < 0.1:
        sit["concealed"] = _tiles_edit(rng, sit["concealed"])
    return sit


def cases() -> list[tuple[str, Any]]:
    """The fixed set, always the same (seeded): ("settle" | "score", input)."""
    rng = random.Random(29)
    sets = param_sets()
    out: list[tuple[str, Any]] = [("settle", r) for r in doc_rounds()]
    rounds: list[dict[str, Any]] = []
    for i in range(SIZE["legal"]):
        params = sets[i % len(sets)] if i % 4 else mixed_params(rng)
        rounds.append(legal(rng, params))
    out += [("settle", r) for r in rounds]
    out += [("settle", broken(rng, rng.choice(rounds))) for _ in range(SIZE["broken"])]
    shown = [r for r in rounds if '"concealed"' in json.dumps(r)]
    edited = [hand_edit(rng, copy.deepcopy(rng.choice(shown))) for _ in range(SIZE["hands_edited"])]
    out += [("settle", r) for r in edited]
    out += [("settle", whole(rng, rng.choice(rounds))) for _ in range(SIZE["whole"])]
    out += [("score", single_hand(rng, sets[i % len(sets)])) for i in range(SIZE["hands"])]
    return out


def answers() -> list[str]:
    lines: list[str] = []
    for kind, case in cases():
        answer = settle(copy.deepcopy(case)) if kind == "settle" else score(copy.deepcopy(case))
        lines.append(json.dumps(answer, ensure_ascii=False))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.sichuan_dump")
    ap.add_argument("out", nargs="?", help="where to write the answers (default: standard output)")
    ap.add_argument("--against", help="an earlier dump: report the first answer that differs")
    args = ap.parse_args(argv)
    lines = answers()
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(lines)} answers written to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.against:
        before = Path(args.against).read_text(encoding="utf-8").splitlines()
        for i, (x, y) in enumerate(zip(lines, before, strict=False), 1):
            if x != y:
                print(f"answer {i} differs:\n  before {y}\n  after  {x}", file=sys.stderr)
                return 1
        if len(lines) != len(before):
            print(f"{len(before)} answers before, {len(lines)} now", file=sys.stderr)
            return 1
        print(f"identical to {args.against} ({len(lines)} answers)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
