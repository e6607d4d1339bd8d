"""What players tripped on: the record page after this phone's own undo, and "record
it as round N" after another phone took the round."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.tiles import parse_tiles, tile_str
from scorer.models import Round
from tests.factories import SHORT_NAMES, event, make_table, record
from tests.pages import html, text_of
from tests.support.events import PUNGS
from tests.support.htmx import HTMX
from tests.support.phone import ENTRY, seven_pairs_phone
from tests.support.phone import Phone as EventPhone
from tests.support.state import state_of, taken_panel

pytestmark = pytest.mark.django_db


def parse_tiles_codes(tiles: str) -> list[str]:
    return [tile_str(t) for t in parse_tiles(tiles)]


def test_a_draft_made_stale_by_this_phones_own_undo_is_dropped(client: Client) -> None:
    """四川: two kongs recorded, 记和牌 opened and tapped, the last kong taken back on
    this phone; 记和牌 again opens on the round as it is, with no "another phone"
    warning, and the first 确认 records."""
    session = make_table("sichuan", SHORT_NAMES)
    for player, tile in ((0, "5m"), (1, "9m")):
        kong = EventPhone(client, session, kind="kong")
        kong.tap(f"player:{player}", "kong:concealed", f"tile:{tile}")
        assert kong.confirm().status_code == 302
    win = EventPhone(client, session, kind="win")
    win.tap("winner:2")  # this phone's entry in progress, on 2 events
    assert win.state["expected"] == "2"
    response = client.post(
        reverse("scorer:undo_event", args=[session.code]), {"round": "1", "events": "2"}
    )
    assert response.status_code == 302
    again = EventPhone(client, session, kind="win")
    assert "ev-stale" not in again.page
    assert again.state["expected"] == "1"
    again.tap("winner:2", "from:3")
    again.tiles(PUNGS["concealed"] + PUNGS["win_tile"])
    assert "ev-stale" not in again.page
    assert again.confirm().status_code == 302  # the first 确认 records
    rnd = Round.objects.get()
    assert rnd.current is not None and len(rnd.current.entry["events"]) == 2


def test_record_it_as_the_next_round_records(client: Client) -> None:
    """Two phones, one round: the second phone's "记为第 N 局" records its hand as
    round N at once (it posts to the confirm), with the dealer after round N−1."""
    session = make_table("mcr", SHORT_NAMES)
    record(session, ENTRY)
    a, b = seven_pairs_phone(Client(), session), seven_pairs_phone(client, session)
    assert a.confirm().status_code == 302
    response = b.confirm(htmx=True)
    page = html(response)
    assert "第 2 局刚被记录" in taken_panel(page)
    button = re.search(r'<button[^>]*value="taken:next"[^>]*>', page, re.S)
    assert button is not None
    url = htmllib.unescape(re.search(r'hx-post="([^"]+)"', button.group(0)).group(1))  # type: ignore[union-attr]
    assert url == reverse("scorer:confirm", args=[session.code])
    assert f'formaction="{url}"' in button.group(0)  # without JavaScript too
    response = client.post(url, {**state_of(page), "tap": "taken:next"}, **HTMX)
    assert response["HX-Redirect"] == reverse("scorer:session", args=[session.code])
    assert list(session.rounds.values_list("number", flat=True)) == [1, 2, 3]
    third = session.rounds.get(number=3)
    second = session.rounds.get(number=2)
    assert third.current is not None and third.current.entry["hand"]["concealed"]
    session.refresh_from_db()
    assert third.current.dealer == session.next_position([second])[0]


def test_a_joining_winner_wins_on_the_shared_tile_and_a_refusal_names_it(
    client: Client,
) -> None:
    """一炮多响: the last win's tile is the joining winner's win tile from the moment
    he joins (not asked, nor another accepted); he taps his other
    tiles, and the engine refuses a hand on another tile, naming the discard."""
    session = make_table("sichuan", SHORT_NAMES)
    first = {"concealed": "111222333p4499m", "win_tile": "9m"}
    event(session, {"type": "win", "discarder": 0, "winners": [{"seat": 3, "hand": first}]})
    phone = EventPhone(client, session)
    phone.tap("join:on", "winner:2")
    assert phone.state["win_tile"] == "9m" and phone.state["hand"] == ""
    phone.tiles("123456789p1178m")
    assert phone.state["win_tile"] == "9m" and phone.state["hand"] == "1178m123456789p"
    phone.tap("tile:6m")  # a 15th tile: the hand is complete
    assert phone.state["hand"] == "1178m123456789p" and "6m" not in phone.state["win_tile"]
    assert phone.confirm().status_code == 302
    rnd = Round.objects.get()
    assert rnd.current is not None
    assert rnd.current.entry["events"][0]["winners"][1]["hand"]["win_tile"] == "9m"

    other = make_table("sichuan", SHORT_NAMES)
    event(other, {"type": "win", "discarder": 0, "winners": [{"seat": 3, "hand": first}]})
    phone = EventPhone(client, other)
    phone.tap("join:on", "winner:2")
    phone.tiles("123456789p1178m")
    r = phone.confirm(win_tile="6m")  # posted by hand: another tile is refused
    assert r.status_code == 400 and "九万" in htmllib.unescape(html(r))
    assert len(Round.objects.get(session=other).current.entry["events"][0]["winners"]) == 1  # type: ignore[union-attr]


def test_jian_says_the_winners_jing_are_counted_already(client: Client) -> None:
    """吉安: the winner's 正精 starts at those his hand shows; the page says
    they are counted, instead of a hint that made a player add them twice."""
    from rules.registry import get_ruleset

    jian = get_ruleset("jian")
    session = make_table("jian", SHORT_NAMES, params=dict(jian.defaults))
    url = reverse("scorer:record", args=[session.code])
    state = state_of(html(client.get(url)))
    preview = reverse("scorer:preview", args=[session.code])
    taps = ["tool:turned", "tile:7p", "winner:1", "from:self"]
    taps += [f"tile:{t}" for t in parse_tiles_codes("123456m789s12s11z8p")]
    page = html(client.post(preview, {**state, "tap": taps}, **HTMX))
    text = text_of(page)
    assert state_of(page)["si_zheng_jing"] == "0,1,0,0"
    assert "也算" not in text
    assert "和牌的人手牌里的已经自动算上了，不要再加" in text
    assert "乙：手牌里的 1 个正精已经算上了" in text
