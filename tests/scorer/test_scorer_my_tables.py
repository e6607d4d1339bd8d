"""The home page's "Your tables": each table's state (open or closed, who leads with
his total, the fixed table it was started from) in a fixed number of queries, and
hiding an accidental table from this phone only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorer.models import GameSession
from scorer.models.rooms import RoomTable
from scorer.templatetags.scorer_format import signed_text
from tests.factories import DRAW, by_tiles, make_table, record
from tests.pages import html, text, text_of
from tests.support.htmx import HTMX
from tests.support.phone import ENTRY

pytestmark = pytest.mark.django_db

HOME = "/"
# The home page: the phone's session, the room, its configurations, the recent names,
# and the list's two: its tables (with their fixed tables), then their rounds.
HOME_QUERIES = 6


def table(names: list[str], client: Client) -> GameSession:
    s = make_table("mcr", names)
    client.get(reverse("scorer:session", args=[s.code]))  # this phone opens it
    return s


def items(page: str) -> list[str]:
    """Each listed table's text, in the page's order."""
    return [text_of(li) for li in re.findall(r'<li class="table-item.*?</li>', page, re.S)]


def item_of(page: str, name: str) -> str:
    return next(li for li in items(page) if name in li)


def test_each_table_says_whether_it_is_open_who_leads_and_its_fixed_table() -> None:
    phone = Client()
    won = table(["甲一", "乙一", "丙一", "丁一"], phone)
    record(won, ENTRY)  # seat 0 wins on seat 1's discard
    lead = signed_text(won.tallies()[0])
    fresh = table(["甲二", "乙二", "丙二", "丁二"], phone)
    fresh.room_table = RoomTable.objects.create(room=fresh.room, number=7, name="包间A")
    fresh.save()
    done = table(["甲三", "乙三", "丙三", "丁三"], phone)
    record(done, by_tiles(winner=2, discarder=3))
    assert done.close()
    square = table(["甲四", "乙四", "丙四", "丁四"], phone)
    record(square, DRAW)

    with translation.override("zh-hans"):
        page = html(phone.get(HOME, HTTP_ACCEPT_LANGUAGE="zh-hans"))
    assert f"进行中 · 甲一 领先 {lead}" in item_of(page, "甲一")
    assert "进行中 · 包间A · 还没有开打" in item_of(page, "甲二")
    assert f"已结束 · 丙三 第一 {signed_text(done.tallies()[2])}" in item_of(page, "甲三")
    assert "进行中 · 打平" in item_of(page, "甲四")

    page = html(phone.get(HOME, HTTP_ACCEPT_LANGUAGE="en"))
    assert f"Open · 甲一 leads, {lead}" in item_of(page, "甲一")
    assert "Open · 包间A · No rounds yet" in item_of(page, "甲二")
    assert "Closed · 丙三 finished first" in item_of(page, "甲三")
    assert "Open · All square" in item_of(page, "甲四")


def test_players_tied_at_the_top_are_all_named() -> None:
    phone = Client()
    s = table(["甲", "乙", "丙", "丁"], phone)
    record(s, DRAW)
    tie = GameSession.standings_of([s])
    assert tie == {s.pk: ([0, 0, 0, 0], 1)}
    record(s, by_tiles(winner=0, discarder=2))
    record(s, by_tiles(winner=1, discarder=3))
    top = s.tallies()[0]
    assert s.tallies()[1] == top
    page = html(phone.get(HOME, HTTP_ACCEPT_LANGUAGE="en"))
    assert f"甲, 乙 share the lead, {signed_text(top)}" in item_of(page, "甲")


@pytest.mark.parametrize("tables", [1, 6])
def test_the_list_costs_the_same_queries_whatever_its_length(
    django_assert_num_queries: Any, tables: int
) -> None:
    phone = Client()
    for k in range(tables):
        s = table([f"甲{k}", f"乙{k}", f"丙{k}", f"丁{k}"], phone)
        s.room_table = RoomTable.objects.create(room=s.room, number=k + 1)
        s.save()
        record(s, ENTRY)
        record(s, DRAW)
    phone.get(HOME)  # warm: the session's row, the default room
    # The same count for one table as for six: the tables, then their rounds.
    with django_assert_num_queries(HOME_QUERIES):
        page = html(phone.get(HOME))
    assert len(items(page)) == tables


def test_hiding_a_table_takes_it_off_this_phone_only_and_it_comes_back() -> None:
    phone, other = Client(), Client()
    keep = table(["留甲", "留乙", "留丙", "留丁"], phone)
    oops = table(["错甲", "错乙", "错丙", "错丁"], phone)
    record(oops, ENTRY)
    other.get(reverse("scorer:session", args=[oops.code]))
    rounds = oops.rounds.count()

    # Without JavaScript: a form's POST, then back to the page it was on.
    room_home = reverse("scorer:room", args=[oops.room.slug])
    response = phone.post(reverse("scorer:hide_table", args=[oops.code]), {"next": room_home})
    assert response.status_code == 302 and response["Location"] == room_home
    page = html(phone.get(room_home))
    assert [("留甲" in li) for li in items(page)] == [True]
    assert "Hidden from this phone" in text_of(page) or "已从这部手机隐藏" in text_of(page)
    # Offered back once; the next visit has forgotten it.
    assert "错甲" not in text(phone.get(HOME))
    # The table itself is untouched: its rounds, the other phone's list, its link.
    assert oops.rounds.count() == rounds
    assert "错甲" in text(other.get(HOME))
    assert phone.get(reverse("scorer:session", args=[oops.code])).status_code == 200
    assert "错甲" in text(phone.get(HOME))  # opened again: listed again

    # With htmx: only the list comes back, with the way back.
    response = phone.post(reverse("scorer:hide_table", args=[oops.code]), {"next": HOME}, **HTMX)
    part = html(response)
    assert response.status_code == 200 and part.lstrip().startswith('<div id="my-tables">')
    assert "<h1" not in part and len(items(part)) == 1 and keep.code in part
    shown = phone.post(
        reverse("scorer:hide_table", args=[oops.code]), {"next": HOME, "show": "1"}, **HTMX
    )
    assert len(items(html(shown))) == 2
    assert keep.rounds.count() == 0 and GameSession.objects.count() == 2


def test_hiding_goes_back_only_to_this_site() -> None:
    phone = Client()
    s = table(["甲", "乙", "丙", "丁"], phone)
    url = reverse("scorer:hide_table", args=[s.code])
    response = phone.post(url, {"next": "https://evil.example/"})
    # (Then to the start page of the table's own room: a room's pages stay in the room.)
    assert response["Location"] == reverse("scorer:room", args=[s.room.slug])
    assert phone.get(url).status_code == 405
    assert phone.post(reverse("scorer:hide_table", args=["nosuchcode"])).status_code == 404
