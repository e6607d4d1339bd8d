"""The words players read, on every page of a table, in Chinese and in English.

A seat is said by its player's name, never by the engine's 0-based number
("2 号位", "seat 1"); a tile by its name (一万 / 1 Character), never by its
code ("1m", "chow 7z"); and a page speaks one language: fan names and payment
reasons in the page's own, the other one only on demand (the hidden spans the
header's 中/EN shows), so an English page has no Chinese glosses ("Concealed
kong (下雨)") and a Chinese page no English reasons.

The pages are the ones a table goes through: the session page (a round just
over and one in progress), the record page (a win with its fans and payments,
a drawn hand, a correction, a hand that is no win), the 四川 event forms (kong,
win, the wall's end, with their previews), each round's page and the ledger
with a round opened in place.  What is checked is the text a phone shows: tags
dropped, the hidden other-language spans, the tile faces (pictures of the
tiles; their labels are names), the language switch and the players' own
names left out.
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import score
from scorer.models import GameSession
from scorer.models.rooms import Room
from tests.factories import DRAW, by_fans, by_tiles, event, make_table, play, record
from tests.pages import html
from tests.support.phone import Phone as EventPhone
from tests.support.phone import Phone as RoundPhone

pytestmark = pytest.mark.django_db

# Latin names on purpose: a Chinese page must not read as English because of them,
# nor an English page as Chinese (they are taken out of the text checked).
NAMES = ["Alice", "Bob", "Carol", "Dave"]
HAND = {"concealed": "111222333m456p7z", "win_tile": "7z"}  # 一色三节高 … on a discard
PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}  # 四川 对对胡
WALL_END = [
    {"seat": 0, "concealed": "123m456p789s1239m"},  # three suits: 花猪
    {"seat": 1, "concealed": "123456789m1234m"},  # ready
    {"seat": 2, "concealed": "12345678p13579s"},  # not ready
]

# The engine's seat numbers and tile codes, which no player should read.
SEAT_NUMBER = re.compile(r"\d+ ?号位|\bseats? \d+\b|#\d+\b")
TILE_CODE = re.compile(r"(?<![A-Za-z0-9])[1-9]+[mpsz](?![A-Za-z])")
CJK = re.compile(r"[\u3400-\u9fff]+")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# The other language's spans, shown only when the reader asks (中/EN).
OTHER = {"en": "pk-zh", "zh-hans": "pk-en"}


def shown_text(page: str, language: str) -> str:
    """The words the phone shows in `language`, without what a reader does not read as text."""
    page = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<form class="lang-switch".*?</form>', " ", page, flags=re.S)
    page = re.sub(r'<button[^>]*class="bi-toggle".*?</button>', " ", page, flags=re.S)
    page = re.sub(r'<span class="pk-face">(?:<span[^>]*>[^<]*</span>)*</span>', " ", page)
    page = re.sub(
        rf'<span[^>]*class="[^"]*\b{OTHER[language]}\b[^"]*"[^>]*>[^<]*</span>', " ", page
    )
    text = htmllib.unescape(re.sub(r"<[^>]+>", " ", page))
    text = re.sub(r"https?://\S+", " ", text)
    # Names are what their owners typed, in any script: the players' and the rooms'.
    for name in [*NAMES, *Room.objects.values_list("name", flat=True)]:
        text = text.replace(name, " ")
    return " ".join(text.split())


def check(text: str, language: str, what: str) -> None:
    assert not SEAT_NUMBER.search(text), (what, SEAT_NUMBER.search(text), text)
    assert not TILE_CODE.search(text), (what, TILE_CODE.search(text), text)
    if language == "en":
        assert not CJK.search(text), (what, CJK.findall(text), text)
    else:
        assert not LATIN_WORD.search(text), (what, LATIN_WORD.findall(text), text)


def table(ruleset: str, **params: Any) -> GameSession:
    s = make_table(ruleset, NAMES)
    s.params = {**dict(s.rules.params), **params}
    s.save()
    return s


def rounds_and_pages(client: Client) -> Iterator[tuple[str, str]]:
    """(what, page) for every page a table shows, its rounds recorded first."""
    mcr = table("mcr")
    play(mcr, [by_tiles(0, 1, HAND), by_fans({"24": 1}, 2, None, flowers=1), DRAW])
    house = table("house", wild="red_dragon", points=2)  # wild tiles in the notes
    record(house, by_tiles(2, None, {"concealed": "111222333m45p7z7z", "win_tile": "7z"}))
    sichuan = table("sichuan")
    for ev in (
        {"type": "kong", "player": 0, "kong": "concealed"},  # 下雨, refunded: 甲 turns out a pig
        {"type": "kong", "player": 2, "kong": "exposed", "discarder": 1},  # 刮风
        {"type": "kong", "player": 1, "kong": "concealed"},
        # 杠上炮: Bob discards right after his kong and hands its money over.
        {
            "type": "win",
            "discarder": 1,
            "after_kong": True,
            "winners": [{"seat": 3, "hand": PUNGS}],
        },  # fmt: skip
        {"type": "wall_end", "hands": WALL_END},  # 查花猪, 查大叫, 退杠钱
        {"type": "kong", "player": 1, "kong": "added"},  # round 2, in progress
    ):
        event(sichuan, ev)

    def get(url: str, **query: str) -> str:
        response = client.get(url, query)
        assert response.status_code == 200, url
        return html(response)

    for s, rounds in ((mcr, 3), (house, 1), (sichuan, 2)):
        code = s.code
        yield f"{s.ruleset} table", get(reverse("scorer:session", args=[code]))
        yield f"{s.ruleset} ledger", get(reverse("scorer:ledger", args=[code]))
        yield f"{s.ruleset} result", get(reverse("scorer:final", args=[code]))
        for n in range(1, rounds + 1):
            url = reverse("scorer:round", args=[code, n])
            yield f"{s.ruleset} round {n}", get(url)
            yield f"{s.ruleset} round {n} opened in the ledger", get(url, part="current")
    yield "home", get(reverse("scorer:home"))

    # The record page: a win with its fans and payments, a hand that is no win, a draw.
    phone = RoundPhone(client, mcr)
    phone.tap("winner:1", "from:2")
    yield "record: a win", phone.tiles(HAND["concealed"] + HAND["win_tile"])
    phone.tap("clear")
    yield "record: no win", phone.tiles("111222333m457p7z7z")  # "This hand is not a winning hand"
    yield "record: quick entry", phone.tap("mode:quick", "fan:24:+")
    yield "record: a drawn hand", RoundPhone(client, mcr).tap("kind:draw")
    yield "correct round 1", RoundPhone(client, mcr, number=1).page
    yield "house record", EventPhone(client, house, kind="win").tap("winner:0", "from:self")
    # 四川, event by event: a kong and a win with their payments, the wall's end.
    kong = EventPhone(client, sichuan, kind="kong")
    yield "sichuan kong", kong.page
    yield "sichuan exposed kong", kong.tap("player:0", "kong:exposed", "from:2")
    win = EventPhone(client, sichuan, kind="win")
    win.tap("winner:3", "from:0")
    yield "sichuan win", win.tiles(PUNGS["concealed"] + PUNGS["win_tile"])
    yield "sichuan wall end", EventPhone(client, sichuan, kind="wall_end").page


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_pages_say_names_tile_names_and_one_language(language: str) -> None:
    client = Client()
    client.cookies["django_language"] = language
    seen = 0
    for what, page in rounds_and_pages(client):
        check(shown_text(page, language), language, what)
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_other_language_is_there_on_demand(language: str) -> None:
    """Fan names and reasons come in both languages, the page's shown, the other's hidden."""
    client = Client()
    client.cookies["django_language"] = language
    pages = dict(rounds_and_pages(client))
    for what in ("mcr round 1", "sichuan round 1", "record: a win"):
        page = pages[what]
        zh = re.findall(r'<span[^>]*class="pk-zh"[^>]*>([^<]+)</span>', page)
        en = re.findall(r'<span[^>]*class="pk-en"[^>]*>([^<]+)</span>', page)
        assert zh and len(zh) == len(en), what
        assert all(CJK.search(z) for z in zh) and not any(CJK.search(e) for e in en), what
    # A 四川 win's line names its fans in the page's language; the other's under it.
    # (Bob's 杠上炮 win, as the engine scores that hand alone.)
    fans = score({"ruleset": "sichuan", **PUNGS, "after_kong": True})["fans"]
    other, said = (
        ("pk-en", ", ".join(f["name_en"] for f in fans))
        if language == "zh-hans"
        else ("pk-zh", "、".join(f["name_zh"] for f in fans))
    )
    # The session page too, the round still being played (blood battle: the others play on).
    live = table("sichuan")
    event(live, {"type": "kong", "player": 1, "kong": "concealed"})
    winners = [{"seat": 3, "hand": PUNGS}]
    event(live, {"type": "win", "discarder": 1, "after_kong": True, "winners": winners})
    pages["sichuan table"] = html(client.get(reverse("scorer:session", args=[live.code])))
    for what in ("sichuan round 1", "sichuan table", "sichuan round 1 opened in the ledger"):
        fans = re.search(rf'<span class="ev-fans {other}" lang="[^"]+">([^<]+)</span>', pages[what])
        assert fans and fans.group(1) == said, what


def test_the_checks_catch_what_they_look_for() -> None:
    """The patterns above find what they look for: seat numbers, tile codes, words of the
    other language (so a passing test means something)."""
    for bad in ("第 1 个事件（2 号位）", "event 2 (seat 1)", "#4 wins"):
        assert SEAT_NUMBER.search(bad), bad
    for bad in ("read as chow 1m, pung 7z", "copies of 5p", "123m456p"):
        assert TILE_CODE.search(bad), bad
    assert CJK.search("Concealed kong (下雨)")
    assert LATIN_WORD.search("下雨（暗杠） Concealed kong")
    # and the hidden other-language span is not read as shown:
    page = '<td><span lang="zh-hans" class="pk-zh">下雨（暗杠）</span> <span lang="en" class="pk-en">Concealed kong</span></td>'
    assert shown_text(page, "en") == "Concealed kong"
    assert shown_text(page, "zh-hans") == "下雨（暗杠）"
