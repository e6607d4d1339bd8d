"""What the screen says: the bar beside 确认 says what
the win brings, the 吃's "上家打的" is said not greyed, an undo says where the round
went, a 四川 round's page shows the tiles, and the saved picture says when, under
which rules, in which room and at which table."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from rules.table import Scoring
from scorer.models import GameSession
from scorer.record.result import bar_text, win_gain
from scorer.scoring import evaluate
from tests.factories import SHORT_NAMES, by_tiles, event, make_room, make_table, record
from tests.pages import html, text, text_of
from tests.support.phone import Phone
from tests.support.tables import WUHAN_ENTRY
from tests.support.tables import table as wuhan_table

pytestmark = pytest.mark.django_db

PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}  # 四川 对对胡


def test_the_bar_says_what_the_win_brings_not_the_base() -> None:
    # 武汉's result total is its base (1): the bar said "1 分" while 112 moved to 乙
    # (the worked example of docs/rules/wuhan.md, as the record page scores it).
    session = wuhan_table()
    result = evaluate(session, WUHAN_ENTRY).result
    assert result["total"] == 1 and result["deltas"][1] == 112
    scoring = session.rules.table.scoring
    assert bar_text(result["total"], win_gain(result["payments"], 1), scoring) == "赢 112 分"
    # A table counting fans says them too, and never a gain of nothing.
    assert bar_text(8, 32, Scoring()) == "8 番 · 赢 32 分"
    assert bar_text(8, None, Scoring()) == "8 番"
    # In English (the record page's bar itself: the flows of tests/browser and
    # tests/scorer/test_scorer_shown_as_counted.py).
    with translation.override("en"):
        assert bar_text(1, 112, scoring) == "wins 112 points"


def test_a_chi_says_its_discarder_as_a_chip_not_a_greyed_button(client: Client) -> None:
    session = wuhan_table()
    page = Phone(client, session).tap("tool:turned", "tile:5m", "winner:1", "from:2",
                                      "tool:chi", "tile:2p", "tool:pung", "tile:3s")  # fmt: skip
    assert '<span class="pk-meld-from pk-meld-from-fixed">上家打的</span>' in page
    assert not re.search(r"<button[^>]*pk-meld-from[^>]*disabled", page)
    # The pung's discarder is still asked: a button.
    assert re.search(r'<button type="submit" name="tap" value="meldfrom:1"', page)


def test_an_undo_says_where_the_round_is_and_the_ledger_agrees(client: Client) -> None:
    session = make_table("mcr", SHORT_NAMES)
    record(session, by_tiles())
    url = reverse("scorer:session", args=[session.code])
    assert "账本里点“显示已撤销的局”可以看到它" in text(client.get(url))
    page = text(client.post(reverse("scorer:undo", args=[session.code]), {"round": "1"},
                            follow=True))  # fmt: skip
    assert "已撤销第 1 局，不再计分。账本里点“显示已撤销的局”可以看到它（划掉显示）。" in page
    # The ledger: behind that link, struck through.
    ledger = reverse("scorer:ledger", args=[session.code])
    assert 'id="round-1"' not in html(client.get(ledger))
    assert "显示已撤销的局" in text(client.get(ledger))
    shown = html(client.get(ledger, {"undone": "1"}))
    assert '<details class="ledger-round is-undone" id="round-1"' in shown and "<del" in shown


def test_a_sichuan_round_page_shows_the_tiles(client: Client) -> None:
    session = make_table("sichuan", SHORT_NAMES)
    session.params = dict(session.rules.params)
    session.save()
    event(session, {"type": "kong", "player": 0, "kong": "concealed"})
    event(session, {"type": "win", "discarder": 1, "winners": [{"seat": 3, "hand": PUNGS}]})
    for url in (
        reverse("scorer:round", args=[session.code, 1]),
        reverse("scorer:round", args=[session.code, 1]) + "?part=current",  # the ledger's row
    ):
        page = html(client.get(url))
        hands = re.findall(r'<p class="hand">(.*?)</p>', page, re.S)
        assert hands, url
        words = text_of(hands[0])
        assert words.startswith("丁") and "111222筒 3334455条 + 和牌张 5条" in words


def test_the_picture_says_the_day_the_rules_the_room_and_the_table(client: Client) -> None:
    room = make_room("laoli", "老李棋牌室")
    (fixed,) = room.add_tables(1)
    session = make_table("mcr", SHORT_NAMES, room=room, room_table=fixed)
    record(session, by_tiles())
    svg = html(client.get(reverse("scorer:final_svg", args=[session.code])))
    meta = re.findall(r'<text class="meta"[^>]*>([^<]*)</text>', svg)
    assert meta == [f"{timezone.localdate().isoformat()} · 国标麻将", "老李棋牌室 · 1号桌"]
    # Never the table's code: it is the key to the table, and the picture goes to a chat.
    assert session.code not in svg
    # A table at no fixed table: the room alone.
    loose: GameSession = make_table("mcr", SHORT_NAMES, room=room)
    svg = html(client.get(reverse("scorer:final_svg", args=[loose.code])))
    assert re.findall(r'<text class="meta"[^>]*>([^<]*)</text>', svg)[1] == "老李棋牌室"
