"""The working's terms (rules/working.py) against the amounts, for every table ruleset.

Over the contract test's hands (test_table_contract.CANDIDATES): every preset of
every table ruleset, and each of its choices and switches flipped one at a time
(a rule that changes who pays or how: 自摸加底 or 加番, 包三家, 杠随胡 …), won on a
discard and self-drawn, by the dealer and by another.  The terms a result carries,
evaluated from their numbers alone, make each payer pay each receiver exactly
what the payments say: in `score()` and in a settled round's winner reports
alike.  The printed line is made from the same numbers (`term_text` ends with
the amount), so what the pages print is held too (test_table_contract).

Engine only (no database): one score and one settle per case.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from rules import REGISTRY, score, settle
from rules.tiles import parse_tiles, tile_str
from rules.working import by_payment, evaluate, seat_words, term_text
from tests.support.contract import CANDIDATES, TABLE_PRESETS, melds_of

WINNER, DISCARDER = 1, 2


def _variants(rs_id: str, preset: str) -> Iterator[dict[str, Any]]:
    """The preset's values, then each choice and switch of the ruleset changed alone."""
    rs = REGISTRY[rs_id]
    chosen = rs.preset(preset)
    base = {**rs.defaults, **(chosen.params if chosen else {})}
    yield base
    for p in rs.params:
        others: list[Any] = []
        if p.type == "choice":
            others = [c for c in p.choices if c != base[p.name]]
        elif p.type == "bool":
            others = [not base[p.name]]
        for v in others:
            yield {**base, p.name: v}


def _wild(rs_id: str, params: Mapping[str, Any]) -> tuple[str | None, list[str]]:
    """A turned tile none of the candidates' tiles follows from, and its wild kinds."""
    spec = REGISTRY[rs_id].table(REGISTRY[rs_id].resolve_params(dict(params)))
    if spec.wilds.mode == "none":
        return None, []
    turned = ("1z" if spec.has_honors else "9s") if spec.wilds.mode == "turned" else None
    return turned, [tile_str(t) for t in spec.wilds.kinds(turned)]


def _hands(rs_id: str, params: Mapping[str, Any], wild: list[str]) -> Iterator[dict[str, Any]]:
    spec = REGISTRY[rs_id].table(REGISTRY[rs_id].resolve_params(dict(params)))
    for candidate in CANDIDATES:
        tiles, _, pungs_raw = candidate.partition("|")
        ts = parse_tiles(tiles)
        every = [*ts, *parse_tiles(pungs_raw or "")]
        if any(tile_str(t) in wild or t not in spec.tiles for t in every):
            continue
        pungs = [tile_str(t) for t in parse_tiles(pungs_raw)][::3] if pungs_raw else []
        yield {
            "concealed": "".join(tile_str(t) for t in ts[:-1]),
            "win_tile": tile_str(ts[-1]),
            "melds": melds_of(pungs),
        }


def _paid(payments: list[Mapping[str, Any]]) -> dict[tuple[int, int | None], int]:
    out: dict[tuple[int, int | None], int] = {}
    for p in payments:
        out[p["from"], p["to"]] = out.get((p["from"], p["to"]), 0) + p["amount"]
    return {k: v for k, v in out.items() if v}


def _printed(terms: list[Mapping[str, Any]]) -> None:
    """Each line, in both languages, ends with the amount its payers pay (or says it
    on its own: "底分 8"), and each term's stated amount is its value."""
    for t in terms:
        assert evaluate(t) == t["amount"], t
        for zh in (True, False):
            line = term_text(t, zh, seat_words(zh))
            numbers = re.findall(r"\d+(?:\.\d+)?", re.sub(r"[（(][^）)]*[）)]$", "", line))
            assert numbers and numbers[-1] == str(t["amount"]), (line, t)


@pytest.mark.parametrize(("rs_id", "preset"), TABLE_PRESETS)
def test_terms_make_every_payment(rs_id: str, preset: str) -> None:
    checked = 0
    for params in _variants(rs_id, preset):
        turned, wild = _wild(rs_id, params)
        for hand in _hands(rs_id, params, wild):
            for dealer in (0, WINNER):
                for self_drawn in (False, True):
                    discarder = None if self_drawn else DISCARDER
                    r = score({
                        "ruleset": rs_id, "params": params, **hand, "wild": wild,
                        "self_drawn": self_drawn,
                        "table": {"players": 4, "dealer": dealer, "winner": WINNER,
                                  "discarder": discarder},
                    })  # fmt: skip
                    if not (r["ok"] and r["win"]):
                        continue
                    assert by_payment(r["terms"]) == _paid(r["payments"]), (params, hand, r)
                    _printed(r["terms"])
                    rnd: dict[str, Any] = {
                        "ruleset": rs_id, "params": params, "players": 4, "dealer": dealer,
                        "events": [{"type": "win", "discarder": discarder,
                                    "winners": [{"seat": WINNER, "hand": hand}]}],
                    }  # fmt: skip
                    if turned:
                        rnd["turned"] = turned
                    settled = settle(rnd)
                    assert settled["ok"], settled
                    winners = settled["events"][0]["winners"]
                    terms = [t for w in winners for t in w["terms"]]
                    moved = [t for t in settled["transfers"] if t["event"] == 0]
                    assert by_payment(terms) == _paid(moved), (params, hand, settled)
                    checked += 1
    assert checked, f"no candidate hand wins under {rs_id} {preset}"
