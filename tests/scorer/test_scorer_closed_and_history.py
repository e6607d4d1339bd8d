"""A closed table deals no next hand, and the round's history does not print "· ? ·"
for a version (or an undo) whose phone never said who it is."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from tests.factories import by_tiles, make_table, record
from tests.pages import html, text, text_of

pytestmark = pytest.mark.django_db


def table() -> GameSession:
    s = make_table("mcr", ["大刘", "小王", "老张", "阿李"])
    s.params = dict(s.rules.params)
    s.save()
    return s


def test_a_closed_table_shows_no_next_hand(client: Client) -> None:
    s = table()
    record(s, by_tiles(0, None))
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    assert "下一局" in page  # open: the next hand is said
    s.close()
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    assert "本桌已结束" in page or "closed-note" in page
    assert "下一局" not in page and "next-hand" not in page


def test_the_history_leaves_out_who_when_no_phone_said_it(client: Client) -> None:
    s = table()
    record(s, by_tiles(0, None))
    s.undo_last()
    s.restore(1)
    page = html(client.get(reverse("scorer:round", args=[s.code, 1])))
    words = text_of(page)
    assert "?" not in words.replace("?part", "")
    assert "撤销，" in words and "恢复，" in words
    s.undo_last()
    for url in (
        reverse("scorer:round", args=[s.code, 1]),
        reverse("scorer:ledger", args=[s.code]) + "?undone=1",
    ):
        words = text(client.get(url))
        assert "由 ? " not in words and "撤销，不计分" in words
