"""The ledger numbers its rows as the hands were played (Round.hand_number), not by
the lines recorded: a hand undone and recorded again takes its number back, and an
adjustment's line is labelled by its kind.  URLs keep the line's own number; 改 is
one tap from an opened row."""

from __future__ import annotations

import html as htmllib
import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.rooms import RoomTable
from tests.factories import by_tiles, make_room, make_table, record
from tests.pages import html
from tests.support.adjust import ZH, post_adjust

pytestmark = pytest.mark.django_db

ROW = re.compile(
    r'<details class="ledger-round([^"]*)" id="round-(\d+)".*?<span class="num">(.*?)'
    r'<span class="opens"',
    re.S,
)


def rows(page: str) -> list[tuple[str, str, str]]:
    """(line number, label, classes) of every row, in order."""
    return [(line, re.sub(r"<[^>]+>", "", label), cls) for cls, line, label in ROW.findall(page)]


def hands(s_seats: int = 4) -> list[dict[str, object]]:
    return [by_tiles(winner=i % s_seats, discarder=(i + 1) % s_seats) for i in range(10)]


def test_undo_hand_7_and_record_it_again_the_rows_read_1_to_10() -> None:
    s = make_table("mcr")
    entries = hands()
    for entry in entries[:7]:
        record(s, entry)
    assert s.undo_last(expected=7) is not None  # hand 7 undone ...
    for entry in entries[6:]:  # ... recorded again, then hands 8-10
        record(s, entry)
    c = Client()
    page = html(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    shown = rows(page)
    assert [label for _, label, _ in shown] == [str(n) for n in range(1, 11)]
    # The URLs keep the lines' numbers: hand 7 is line 8, hand 10 line 11.
    assert [line for line, _, _ in shown] == ["1", "2", "3", "4", "5", "6", "8", "9", "10", "11"]
    assert f'href="{reverse("scorer:round", args=[s.code, 11])}"' in page
    # 改 one tap from the opened row: the record form of that line.
    assert f'href="{reverse("scorer:edit", args=[s.code, 8])}"' in page
    # The undone rows shown: the undone hand keeps the place it had, 7.
    page = html(c.get(reverse("scorer:ledger", args=[s.code]) + "?undone=1", **ZH))
    shown = rows(page)
    assert [label for _, label, _ in shown] == [str(n) for n in range(1, 7)] + [
        "7",
        "7",
        "8",
        "9",
        "10",
    ]
    assert "is-undone" in shown[6][2] and "is-undone" not in shown[7][2]


def test_an_adjustment_line_is_labelled_by_its_kind_and_the_hands_count_on() -> None:
    s = make_table("mcr")
    record(s, by_tiles(winner=1, discarder=2))
    c = Client()
    assert post_adjust(c, s, str(uuid.uuid4())).status_code == 302
    record(s, by_tiles(winner=3, discarder=0))
    page = html(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert [(line, label) for line, label, _ in rows(page)] == [
        ("1", "1"),
        ("2", "调整"),
        ("3", "2"),
    ]
    # The adjustment's 改 is its own form, one tap from the row.
    assert f'href="{reverse("scorer:adjust_edit", args=[s.code, 2])}"' in page
    assert "改这一行" in page and "改这一局" in page
    # A closed table offers no 改.
    s.close("甲")
    page = html(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert "改这一局" not in page and reverse("scorer:edit", args=[s.code, 1]) not in page


# --------------------------------------------------------------------------- live pages

LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live-page"}


@pytest.mark.parametrize("name", ["final", "ledger", "round", "picture"])
def test_a_table_page_answers_its_live_region_alone_etagged_by_the_table(name: str) -> None:
    """结算, the ledger, a round's page and the result's picture: the whole page holds the region (with its
    stream and the version it shows); the region's own fetch is answered with it
    alone (and the table's navigation, out of band), 304 until the table changes."""
    s = make_table("mcr")
    record(s, by_tiles(winner=1, discarder=2))
    args = [s.code, 1] if name == "round" else [s.code]
    url = reverse(f"scorer:{name}", args=args)
    c = Client()
    s.refresh_from_db()
    page = html(c.get(url, **ZH))
    assert f'sse-connect="/s/{s.code}/events?v={s.version}"' in page
    assert 'id="live-page"' in page and f'data-live-version="{s.version}"' in page
    # The ETag the region sends back, as JSON htmx reads (quotes escaped in the attribute).
    sent = re.search(r'id="live-page"[^>]*hx-headers="([^"]*)"', page)
    assert sent and json.loads(htmllib.unescape(sent[1])) == {
        "If-None-Match": f'"{s.version}-zh-hans"'
    }
    assert "hx-swap-oob" not in page
    part = c.get(url, **ZH, **LIVE)
    body = html(part)
    assert part.status_code == 200 and "<html" not in body and 'id="live-page"' in body
    assert 'id="session-nav"' in body and 'hx-swap-oob="true"' in body
    etag = part["ETag"]
    # A table's page may differ for a signed-in admin: nothing keeps it (scorer/web/caching.py);
    # its region's 304 is the page's own, against the ETag the page sends back.
    assert part["Cache-Control"] == "private, no-store"
    assert c.get(url, **ZH, **LIVE, HTTP_IF_NONE_MATCH=etag).status_code == 304
    s.close("东")  # another phone closes the table
    s.refresh_from_db()
    fresh = c.get(url, **ZH, **LIVE, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and f'data-live-version="{s.version}"' in html(fresh)
    # The closed table's navigation has no 记一局.
    assert reverse("scorer:record", args=[s.code]) not in html(fresh)


# --------------------------------------------------------------------------- small trips


def test_every_page_of_a_table_names_its_table() -> None:
    """The room's name and the table's ("老街棋牌室 · 包间A") on every page of a table
    started at a fixed table, in its title and its header; the room's alone for one
    started from the room's page."""
    room = make_room("laojie", "老街棋牌室")
    at_table = make_table(
        "mcr", room=room, room_table=RoomTable.objects.create(room=room, number=1, name="包间A")
    )
    from_room = make_table("mcr", room=room)
    for s, place in ((at_table, "老街棋牌室 · 包间A"), (from_room, "老街棋牌室")):
        record(s, by_tiles(winner=1, discarder=2))
        c = Client()
        for name, args in (("ledger", [s.code]), ("final", [s.code]), ("round", [s.code, 1]),
                           ("record", [s.code]), ("adjust", [s.code]), ("edit", [s.code, 1])):  # fmt: skip
            page = html(c.get(reverse(f"scorer:{name}", args=args), **ZH))
            title = re.search(r"<title>(.*?)</title>", page, re.S)
            assert title and title[1].strip().endswith(place), (name, title)
            line = re.search(r'<p class="nav-place">(.*?)</p>', page, re.S)
            assert line and line[1].strip() == place, (name, line)


def test_a_fans_page_has_a_way_back() -> None:
    page = html(Client().get(reverse("scorer:fan_help", args=["mcr", 48]), **ZH))
    assert re.search(r'<a class="button" href="/" data-back>← 返回</a>', page), page[-800:]


# --------------------------------------------------------------------------- wild tiles

WUHAN_D03 = {
    "kind": "win", "mode": "tiles", "winner": 1, "discarder": 2, "turned": "5m",
    "hand": {"concealed": "346m8p567s", "win_tile": "8p", "melds": [
        {"type": "chi", "tiles": "234p", "exposed": True, "claimed_from": "left"},
        {"type": "kong", "tiles": "9999m", "exposed": True, "added": True}]},
    "seat_inputs": {"openings": [0, 0, 1, 0], "ming_gang": [0, 0, 0, 0], "an_gang": [1, 0, 0, 0],
                    "hz_gang": [0, 0, 0, 1], "lz_gang": [0, 0, 0, 0]},
}  # fmt: skip


def test_a_turned_tile_and_the_wild_tiles_played_show_as_they_counted() -> None:
    """武汉 (a turned tile, 癞子 the next kind; amounts a base times each payer's
    factors): its round page and the ledger's opened row show the turned tile, the
    wild kind, each wild tile of the hand marked, and the multiplication's total, not
    "合计 1 分".  Driven by the table's declared wilds and scoring."""
    from rules import get_ruleset

    s = make_table("wuhan", params=dict(get_ruleset("wuhan").defaults))
    rnd = record(s, WUHAN_D03)
    won = rnd.current.deltas[1]  # type: ignore[union-attr]
    c = Client()
    for url in (reverse("scorer:round", args=[s.code, 1]),
                reverse("scorer:round", args=[s.code, 1]) + "?part=current"):  # fmt: skip
        page = html(c.get(url, **ZH))
        assert "翻牌：五万 · 癞子：六万" in page, url
        # 346万: the 6 is the 癞子 (it counts as the 5).
        assert re.search(
            r'34<span class="wild-tile" title="癞子">6<span class="visually-hidden">（癞子）</span></span>万',
            page,
        ), url
        assert f"<strong>{won} 分</strong>" in page and "<strong>1 分</strong>" not in page, url
    en = html(c.get(reverse("scorer:round", args=[s.code, 1]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Turned up: 5 Characters" in en or "Turned up: 5 Character" in en, en[
        en.find("Turned") :
    ][:80]


def test_a_table_without_wild_tiles_says_none() -> None:
    s = make_table("mcr")
    record(s, by_tiles(winner=1, discarder=2))
    page = html(Client().get(reverse("scorer:round", args=[s.code, 1]), **ZH))
    assert "wild-line" not in page and "wild-tile" not in page
