"""Importing a table's own JSON export: the import says the table is already here and
offers to open it, rather than make a second copy without a word (its rounds counted
twice in the players' statistics); a second copy only on an explicit choice (the
file sent again with `copy_of`); nothing is created until then."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError
from scorer.models import GameSession
from scorer.models.players import Player
from scorer.services.export import AlreadyHere, import_table, origin_of, table_json
from scorer.services.player_records import records
from scorer.services.seating import seat_players
from tests.factories import DRAW, by_tiles, make_table, play

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def played() -> GameSession:
    s = make_table("mcr", NAMES)
    play(s, [by_tiles(1, 0), DRAW])
    seat_players(s)
    s.close()  # a player's record counts the closed tables (their kept results)
    return s


def send(client: Client, data: dict[str, Any], lang: dict[str, str], **form: str) -> Any:
    upload = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    upload.name = "table.json"
    return client.post(reverse("scorer:import"), {"file": upload, **form}, **lang)


def tables_of(name: str) -> int:
    return records(Player.objects.get(name=name))[0][""].tables


def test_a_tables_own_export_is_already_here(client: Client) -> None:
    s = played()
    data = table_json(s)
    assert s.code not in json.dumps(data)  # the file names its table, never its key
    # The answer links only a table this phone holds: it has opened this one.
    client.get(reverse("scorer:session", args=[s.code]))
    before = GameSession.objects.count()
    r = send(client, data, ZH)
    page = html.unescape(r.content.decode())
    assert r.status_code == 200 and "这一桌已经在这里了" in page and "这次没有导入" in page
    assert f'href="{reverse("scorer:session", args=[s.code])}"' in page and "打开它" in page
    assert f'name="copy_of" value="{s.origin}"' in page and "仍要再导入一桌" in page
    assert GameSession.objects.count() == before and tables_of("乙") == 1

    # The explicit choice: the same file sent again with the confirmation.
    r = send(client, data, ZH, copy_of=s.origin)
    assert r.status_code == 302
    copy = GameSession.objects.get(code=r["Location"].rstrip("/").rsplit("/", 1)[-1])
    assert copy.pk != s.pk and copy.tallies() == s.tallies() and copy.origin == s.origin
    assert tables_of("乙") == 2

    # A third time, from the copy's own export: both are listed, nothing is made.
    r = send(client, table_json(copy), ZH)
    page = r.content.decode()
    assert r.status_code == 200 and GameSession.objects.count() == before + 1
    assert all(reverse("scorer:session", args=[t.code]) in page for t in (s, copy))


def test_the_confirmation_is_for_that_table_only() -> None:
    s, other = played(), played()
    data = table_json(s)
    before = GameSession.objects.count()
    with pytest.raises(AlreadyHere) as e:
        import_table(data, copy_of=other.origin)  # confirmed for another table
    assert [t.pk for t in e.value.tables] == [s.pk] and GameSession.objects.count() == before
    assert import_table(data, copy_of=s.origin).tallies() == s.tallies()


def test_an_old_export_still_imports_once_then_is_recognised(client: Client) -> None:
    s = played()
    data = table_json(s)
    del data["origin"]  # exported before files carried their table's origin
    # Played on another site (an old file's origin is its content's, no table's here).
    assert not GameSession.objects.filter(origin=origin_of(data)).exists()
    r = send(client, data, EN)
    assert r.status_code == 302
    first = GameSession.objects.latest("pk")
    assert first.tallies() == data["tallies"] and first.origin == origin_of(data)
    r = send(client, data, EN)
    page = html.unescape(r.content.decode())
    assert r.status_code == 200 and "This table is already here" in page and "Open it" in page
    assert reverse("scorer:session", args=[first.code]) in page
    assert GameSession.objects.filter(origin=first.origin).count() == 1
    # The copy's new export carries that origin: recognised too.
    with pytest.raises(AlreadyHere):
        import_table(table_json(first))


def test_a_bad_origin_is_refused_naming_the_field(client: Client) -> None:
    data = table_json(played())
    data["origin"] = "not a fingerprint"
    with pytest.raises(RuleError) as e:
        import_table(data)
    assert "origin" in e.value.message and "指纹" in e.value.message_zh
    r = send(client, data, ZH)
    assert r.status_code == 302 and r["Location"] == reverse("scorer:home")


def test_a_refused_file_is_refused_even_when_its_table_is_here() -> None:
    s = played()
    data = table_json(s)
    data["rounds"][0]["revisions"][0]["deltas"] = [100, -100, 0, 0]
    with pytest.raises(RuleError):  # the file's fault is said first, not "already here"
        import_table(data)
    assert re.fullmatch(r"[0-9a-f]{64}", s.origin)
