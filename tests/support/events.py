"""Rounds played as events (四川 血战): the hands, the events, a table played from
them, and the phone that corrects a round from the ledger.

A corrected table is compared with one recorded right from the start (same_table).
"""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from rules.tiles import parse_tiles, tiles_str
from scorer.models import GameSession, Round
from tests.factories import event, make_table
from tests.pages import html
from tests.support.htmx import HTMX
from tests.support.phone import NAMES
from tests.support.state import state_of

# 对对胡 in 筒/条: 2 番 → 12 on a discard.
PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}


# 清七对 in 万: 5 番 → 96 on a discard.
PURE_PAIRS = {"concealed": "1122334466778m", "win_tile": "8m"}


def win_event(seat: int, discarder: int | None, hand: dict[str, Any]) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, "winners": [{"seat": seat, "hand": hand}]}


def kong_event(player: int, kind: str, discarder: int | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind}
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


# 对对胡 in 筒/条, 777p 888p 999p 666s 77s: 2 番.
PUNGS_TOO = {"concealed": "777888999p666s7s", "win_tile": "7s"}


def sichuan() -> GameSession:
    return make_table("sichuan", NAMES, first_dealer=0)


def played(events: list[dict[str, Any]], joins: tuple[int, ...] = ()) -> GameSession:
    """A table whose first round is `events`, added one by one (index in `joins`: that
    event's winner joins the win before it, 一炮多响)."""
    s = sichuan()
    for i, ev in enumerate(events):
        event(s, ev, join_last_win=i in joins)
    return s


def first_round(s: GameSession) -> Round:
    rnd = s.rounds.select_related("current").get(number=1)
    assert rnd.current is not None
    return rnd


def norm(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the engine reads them: the form writes every flag (False ones too)
    and a hand's tiles in one run ("111222p3334455s"); the factories write fewer."""

    def hand(h: dict[str, Any]) -> dict[str, Any]:
        return {**h, "concealed": tiles_str(sorted(parse_tiles(h["concealed"])))}

    out = []
    for ev in events:
        ev = {k: v for k, v in ev.items() if v is not False}
        if "winners" in ev:
            ev["winners"] = [{**w, "hand": hand(w["hand"])} if "hand" in w else w
                             for w in ev["winners"]]  # fmt: skip
        out.append(ev)
    return out


def same_table(corrected: GameSession, right: GameSession) -> None:
    """The corrected table equals the one recorded right: events, money, totals."""
    a, b = first_round(corrected).current, first_round(right).current
    assert a is not None and b is not None
    assert norm(a.entry["events"]) == norm(b.entry["events"])
    assert a.deltas == b.deltas and a.result["transfers"] == b.result["transfers"]
    assert a.result["finished"] == b.result["finished"]
    assert corrected.tallies() == right.tallies()


class Corrector:
    """One phone correcting round `number` as a player would, from the ledger."""

    def __init__(self, client: Client, session: GameSession, number: int = 1) -> None:
        self.client, self.session = client, session
        self.url = reverse("scorer:edit", args=[session.code, number])
        self.preview = reverse("scorer:preview", args=[session.code])
        self.page = self.open_list()

    def open_list(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200
        self.page = html(response)
        return self.page

    def step(self, which: int | str, *taps: str) -> str:
        """Open step `which` on the event form (or "add"), tap, and confirm it into
        the correction (nothing saved yet); the page it lands on."""
        response = self.client.get(f"{self.url}?step={which}")
        assert response.status_code == 200
        state = state_of(html(response))
        for t in taps:
            response = self.client.post(self.preview, {**state, "tap": t}, **HTMX)
            assert response.status_code == 200
            state = state_of(html(response))
        response = self.client.post(self.url, {**state, "confirm": "1"})
        self.status = response.status_code
        if response.status_code == 302:
            return self.open_list()
        return html(response)

    def remove(self, i: int) -> str:
        response = self.client.post(self.url, {"remove": str(i)})
        assert response.status_code == 302
        return self.open_list()

    def save(self) -> Any:
        return self.client.post(self.url, {"save": "1"})
