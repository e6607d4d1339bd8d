"""One contract, every table ruleset: what a table must do whatever its rules.

Parametrized over the registry, so a ruleset gets these tests by being
registered.  Each test drives the app like a phone: the home page's form
starts the session, the record page's taps enter a win (the turned tile
first, where the table derives its wild tiles from one), confirm records it,
the correction and the undo go through the pages too.  The amounts asked for
come from the engine's `settle()` of the same round, and what the pages show
must agree with it: this is the app's contract with the engine, not a check of
any ruleset's scoring (each ruleset's own tests do that).
"""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules import REGISTRY, score, settle
from rules.registry import Ruleset
from rules.table import TableSpec
from rules.tiles import parse_tiles, tile_str
from scorer.models import GameSession, Round
from scorer.models.rooms import default_room
from tests.factories import by_tiles, event, make_table, record
from tests.pages import html
from tests.support.contract import CANDIDATES, TABLE_PRESETS, TABLE_RULESETS, melds_of
from tests.support.phone import NAMES, Phone
from tests.support.state import state_of

pytestmark = pytest.mark.django_db

WINNER, DISCARDER = 1, 2


def form_of(page: str) -> dict[str, str]:
    """The home page's start form as a browser would send it untouched."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if kind and kind.group(1) == "checkbox":
            if "checked" in tag:
                data[name.group(1)] = "on"
        else:
            data[name.group(1)] = htmllib.unescape(value.group(1)) if value else ""
    data.update(state_of(page))
    return data


def start(client: Client, rs: Ruleset, preset: str = "") -> GameSession:
    config = default_room().configs.get(ruleset=rs.id, preset=preset)
    url = reverse("scorer:home") + f"?config={config.pk}"
    form = form_of(html(client.get(url)))
    assert form["config"] == str(config.pk)
    form.update({f"name_{i}": name for i, name in enumerate(NAMES)})
    form["players"] = "4"
    response = client.post(reverse("scorer:create"), form)
    assert response.status_code == 302, html(response)[:2000]
    session = GameSession.objects.get(code=response["Location"].split("/")[-2])
    assert session.ruleset == rs.id
    return session


def spec_of(session: GameSession) -> TableSpec:
    return REGISTRY[session.ruleset].table(session.rules.params)


def turned_tile(spec: TableSpec) -> str | None:
    """A tile to turn up, whose wild kind none of the candidate hands holds (1z → 2z)."""
    if spec.wilds.mode != "turned":
        return None
    return "1z" if spec.has_honors else "9s"


def winning_hand(session: GameSession, self_drawn: bool) -> tuple[str, str, list[str]]:
    """(concealed, win tile, pungs declared): the first candidate this table scores as a win."""
    spec = spec_of(session)
    turned = turned_tile(spec)
    wild = [tile_str(t) for t in spec.wilds.kinds(turned)] if spec.wilds.mode != "none" else []
    for candidate in CANDIDATES:
        tiles, _, pungs_raw = candidate.partition("|")
        pungs = [tile_str(t) for t in parse_tiles(pungs_raw)][::3] if pungs_raw else []
        ts = parse_tiles(tiles)
        if any(tile_str(t) in wild for t in [*ts, *parse_tiles(pungs_raw or "")]):
            continue
        if any(t not in spec.tiles for t in [*ts, *parse_tiles(pungs_raw or "")]):
            continue
        concealed, win = ts[:-1], tile_str(ts[-1])
        r = score(
            {
                "ruleset": session.ruleset,
                "params": session.rules.params,
                "concealed": "".join(tile_str(t) for t in concealed),
                "win_tile": win,
                "melds": melds_of(pungs),
                "self_drawn": self_drawn,
                "wild": wild,
            }
        )
        if r["ok"] and r["win"]:
            return "".join(tile_str(t) for t in concealed), win, pungs
    raise AssertionError(f"no candidate hand wins under {session.ruleset}")


def enter_win(client: Client, session: GameSession, discarder: int | None, url: str) -> Phone:
    """Open the record (or edit) page and enter WINNER's win, as a phone does."""
    spec = spec_of(session)
    phone = Phone(client, session, url=url)
    turned = turned_tile(spec)
    if turned and phone.state.get("turned", "") == "":
        phone.tap("tool:turned", f"tile:{turned}")
        assert phone.state["turned"] == turned
    concealed, win, pungs = winning_hand(session, discarder is None)
    if phone.state.get("hand") or phone.state.get("win_tile") or phone.state.get("melds"):
        phone.tap("clear")
    phone.tap(f"winner:{WINNER}", "from:self" if discarder is None else f"from:{discarder}")
    for p in pungs:
        phone.tap("tool:pung", f"tile:{p}")
    phone.tap(*(f"tile:{tile_str(t)}" for t in parse_tiles(concealed)), f"tile:{win}")
    return phone


def settle_round_of(session: GameSession, discarder: int | None) -> Any:
    """The engine's settlement of the same win: the round as its one event."""
    spec = spec_of(session)
    concealed, win, pungs = winning_hand(session, discarder is None)
    rnd: dict[str, Any] = {
        "ruleset": session.ruleset,
        "params": session.rules.params,
        "players": 4,
        "dealer": session.first_dealer,
        "events": [
            {
                "type": "win",
                "discarder": discarder,
                "winners": [
                    {
                        "seat": WINNER,
                        "hand": {"concealed": concealed, "win_tile": win, "melds": melds_of(pungs)},
                    }
                ],
            }
        ],
    }
    turned = turned_tile(spec)
    if turned:
        rnd["turned"] = turned
    result = settle(rnd)
    assert result["ok"], result
    return result


def engine_deltas(session: GameSession, discarder: int | None) -> list[int]:
    """What the engine settles for the same win: the round as its one event."""
    return list(settle_round_of(session, discarder)["deltas"])


# A line of the working as the pages print it (rules/working.py, term_text): the
# payers, then how their amount came; a preview's and a round page's rows, and a
# round played as events' lines.
_WORKING = re.compile(
    r'<tr class="(?:pk-)?working"><td colspan="\d">(.*?)</td></tr>|<span class="ev-line">(.*?)</span>'
)


def printed_amounts(page: str) -> dict[str, int]:
    """What each player pays by the working a page prints: {name: amount} (lines
    naming the same payer add up).  The amount is the line's last number, before a
    note in brackets."""
    out: dict[str, int] = {}
    for a, b in _WORKING.findall(page):
        line = htmllib.unescape(a or b)
        m = re.match(r"^(.+?)(?: 各| each)?(?:：|: )(.*)$", line)
        assert m, line
        payers = re.split(r"、|, ", m.group(1))
        if not set(payers) <= set(NAMES):
            continue  # a line that is no payer's (a wall's end, several winners' fans)
        numbers = re.findall(r"\d+(?:\.\d+)?", re.sub(r"[（(][^（(]*[）)]$", "", m.group(2)))
        for name in payers:
            out[name] = out.get(name, 0) + int(numbers[-1])
    return out


def engine_paid(session: GameSession, discarder: int | None) -> dict[str, int]:
    """What each player pays for the win, as the engine settles it: {name: amount}."""
    rnd = settle_round_of(session, discarder)
    out: dict[str, int] = {}
    for t in rnd["transfers"]:
        if t["event"] == 0:
            out[NAMES[t["from"]]] = out.get(NAMES[t["from"]], 0) + t["amount"]
    return out


def undo_events(client: Client, session: GameSession, rnd: Round) -> None:
    """Take back every event of a round played as events, as the session page does."""
    events = len(rnd.current.entry["events"])  # type: ignore[union-attr]
    client.post(
        reverse("scorer:undo_event", args=[session.code]),
        {"round": str(rnd.number), "events": str(events)},
    )


def record_url(session: GameSession) -> str:
    url = reverse("scorer:record", args=[session.code])
    return url + "?kind=win" if spec_of(session).stepwise else url


def last_round(session: GameSession) -> Round:
    return session.rounds.order_by("-number").select_related("current").first()  # type: ignore[return-value]


@pytest.mark.parametrize(("ruleset_id", "preset"), TABLE_PRESETS)
def test_start_record_correct_undo(client: Client, ruleset_id: str, preset: str) -> None:
    rs = REGISTRY[ruleset_id]
    session = start(client, rs, preset)
    # The session keeps every value it started with, not only the changed ones.
    assert set(session.params) == {p.name for p in rs.params}
    chosen = rs.preset(preset)
    assert chosen is None or all(session.params[k] == v for k, v in chosen.params.items())

    # Record: a win on a discard.
    phone = enter_win(client, session, DISCARDER, record_url(session))
    # The working the preview prints makes what each player pays.
    paid = engine_paid(session, DISCARDER)
    assert printed_amounts(phone.page) == paid
    response = phone.confirm(url=reverse("scorer:confirm", args=[session.code]))
    assert response.status_code == 302
    expected = engine_deltas(session, DISCARDER)
    assert session.tallies() == expected and sum(expected) == 0 and expected[WINNER] > 0
    # And the round page and the ledger's row print it the same.
    number = last_round(session).number
    round_page = html(client.get(reverse("scorer:round", args=[session.code, number])))
    round_page = round_page.split('<section class="history">')[0]  # the current version
    ledger_row = html(
        client.get(reverse("scorer:round", args=[session.code, number]) + "?part=current")
    )
    assert printed_amounts(round_page) == paid == printed_amounts(ledger_row)
    page = html(client.get(reverse("scorer:session", args=[session.code])))
    for name in NAMES:
        assert name in page

    # Correct it: the same winner, self-drawn this time.
    rnd = last_round(session)
    if spec_of(session).stepwise:
        # A round played as events is corrected an event at a time: take the win
        # back, add it again.
        undo_events(client, session, rnd)
        phone = enter_win(client, session, None, record_url(session))
        response = phone.confirm(url=reverse("scorer:confirm", args=[session.code]))
    else:
        edit = reverse("scorer:edit", args=[session.code, rnd.number])
        phone = enter_win(client, session, None, edit)
        response = phone.confirm(url=edit)
    assert response.status_code == 302
    expected = engine_deltas(session, None)
    assert session.tallies() == expected and sum(expected) == 0

    # Undo the round: the tallies are back to nothing, the round stays in the ledger.
    rnd = last_round(session)
    if spec_of(session).stepwise:
        undo_events(client, session, rnd)
    else:
        client.post(reverse("scorer:undo", args=[session.code]), {"round": str(rnd.number)})
    assert session.tallies() == [0, 0, 0, 0]
    assert session.rounds.filter(status=Round.UNDONE).exists()
    ledger = client.get(reverse("scorer:ledger", args=[session.code]) + "?undone=1")
    assert ledger.status_code == 200


def _record_many(session: GameSession, n: int) -> None:
    """n rounds of one win each (a round that goes on after a win is ended at the wall)."""
    spec = spec_of(session)
    concealed, win, pungs = winning_hand(session, False)
    hand = {"concealed": concealed, "win_tile": win, "melds": melds_of(pungs)}
    turned = turned_tile(spec)
    for _ in range(n):
        if not spec.stepwise:
            entry = by_tiles(WINNER, DISCARDER, hand)
            if turned:
                entry["turned"] = turned
            record(session, entry)
            continue
        position: dict[str, Any] = {"dealer": session.first_dealer, "prevalent_wind": "E"}
        if turned:
            position["turned"] = turned
        won = {"type": "win", "discarder": DISCARDER, "winners": [{"seat": WINNER, "hand": hand}]}
        rnd = event(session, won, position=position)
        if rnd.in_progress:
            # The others play on: the wall runs out, the players still in show
            # 13 tiles each (no kind past its four copies with the winner's hand).
            if "wall_end" in spec.event_ids:
                still_in = [s for s in range(4) if s != WINNER]
                end: dict[str, Any] = {
                    "type": "wall_end",
                    "hands": [{"seat": s, "concealed": "123m456m789m123p9s"} for s in still_in],
                }
            else:
                end = {"type": "draw"}
            rnd = event(session, end)
        assert not rnd.in_progress


@pytest.mark.parametrize("ruleset_id", TABLE_RULESETS)
def test_pages_cost_the_same_queries_however_many_rounds(client: Client, ruleset_id: str) -> None:
    counts = []
    for n in (1, 6):
        session = make_table(ruleset_id, NAMES, params=dict(REGISTRY[ruleset_id].defaults))
        _record_many(session, n)
        assert sum(session.tallies()) == 0
        per_page = []
        for name in ("scorer:session", "scorer:ledger"):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(reverse(name, args=[session.code])).status_code == 200
            per_page.append(len(ctx))
        counts.append(per_page)
    assert counts[0] == counts[1], counts
