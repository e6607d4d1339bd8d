"""The end of the evening through the pages: close (read-only, refused changes),
reopen with a note, the result page's settle-up and chart, the picture, and the
export: CSV sums reconcile to the tallies, JSON re-imports into a new table with
the same tallies (re-scored; a tampered file changes nothing) — on generated tables."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError
from scorer.models import GameSession, Round, SessionChange
from scorer.money.settleup import settle_up
from scorer.services.export import import_table, origin_of, table_json
from tests.factories import DRAW, event, make_table, record
from tests.pages import html
from tests.scorer.csv_export import ROOM, read_export
from tests.support.tables import generated_table

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]


@pytest.mark.parametrize("seed", range(6))
def test_json_round_trip_keeps_the_tallies_and_the_history(seed: int) -> None:
    s = generated_table(seed)
    data = json.loads(json.dumps(table_json(s), ensure_ascii=False))
    t = import_table(data, copy_of=origin_of(data))  # a second copy, chosen
    assert t.code != s.code and t.tallies() == s.tallies()
    assert sum(t.tallies()) == 0
    got = [(r.number, r.status, r.revisions.count(), r.current.number if r.current else None)
           for r in t.rounds.order_by("number")]  # fmt: skip
    want = [(r.number, r.status, r.revisions.count(), r.current.number if r.current else None)
            for r in s.rounds.order_by("number")]  # fmt: skip
    assert got == want
    assert t.money_per_point == s.money_per_point and list(t.players) == NAMES


@pytest.mark.parametrize("seed", range(6))
def test_csv_sums_reconcile_to_the_tallies(client: Client, seed: int) -> None:
    s = generated_table(seed)
    r = client.get(reverse("scorer:export", args=[s.code, "csv"]))
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    got = read_export(r.content.decode("utf-8"), NAMES)
    assert [got.net[n] for n in NAMES] == s.tallies()
    assert [got.totals[n] for n in NAMES] == s.tallies()
    assert got.totals.get(ROOM, 0) == s.room_take() == 0
    # The history is kept: every version of every round, undone ones too.
    versions = {(r.number, v.number) for r in s.rounds.all() for v in r.revisions.all()
                if v.transfers.exists()}  # fmt: skip
    assert {(int(x["行"]), int(x["版本"])) for x in got.body} == versions


def test_a_tampered_file_is_refused_whole() -> None:
    s = generated_table(1)
    data = table_json(s)
    data["rounds"][0]["revisions"][0]["deltas"] = [100, -100, 0, 0]
    before = GameSession.objects.count()
    with pytest.raises(RuleError):
        import_table(data)
    assert GameSession.objects.count() == before
    with pytest.raises(RuleError):
        import_table({"format": "something else"})


def test_import_through_the_home_page(client: Client) -> None:
    s = generated_table(2)
    body = json.dumps(table_json(s), ensure_ascii=False).encode()
    upload = io.BytesIO(body)
    upload.name = "table.json"
    r = client.post(reverse("scorer:import"), {"file": upload, "copy_of": origin_of(table_json(s))})
    assert r.status_code == 302
    code = r["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert GameSession.objects.get(code=code).tallies() == s.tallies()
    bad = io.BytesIO(b"not json")
    bad.name = "x.json"
    r = client.post(reverse("scorer:import"), {"file": bad}, follow=True)
    assert "不是导出的牌桌" in html(r)


@pytest.mark.parametrize("seed", range(4))
def test_result_page_settles_in_the_fewest_payments(client: Client, seed: int) -> None:
    s = generated_table(seed, rate="2")
    page = html(client.get(reverse("scorer:final", args=[s.code])))
    pays = re.findall(r'<li class="settle-pay">', page)
    assert len(pays) == len(settle_up(s.tallies()))
    for payer, payee, amount in settle_up(s.tallies()):
        assert f"{NAMES[payer]} → {NAMES[payee]}</span> <b>{amount * 2}</b>" in page
    assert page.count('class="chart-line"') == 4


def test_close_makes_the_table_read_only_and_reopen_keeps_a_note(client: Client) -> None:
    s = generated_table(3)
    tallies = s.tallies()
    r = client.post(reverse("scorer:close", args=[s.code]))
    assert r.status_code == 302 and r["Location"].endswith(f"/s/{s.code}/final")
    s.refresh_from_db()
    assert s.closed_at is not None
    # Every way to change it is refused, and changes nothing.
    with pytest.raises(RuleError):
        record(s, DRAW)
    with pytest.raises(RuleError):
        s.undo_last()
    r = client.get(reverse("scorer:record", args=[s.code]))
    assert r.status_code == 302 and r["Location"].endswith("/final")
    last = s.rounds.filter(status=Round.ACTIVE).last()
    assert last is not None
    r = client.post(reverse("scorer:undo", args=[s.code]), {"round": str(last.number)})
    assert r["Location"].endswith("/final")
    assert s.tallies() == tallies
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    assert "本桌已结束" in page or "This table is closed" in page
    assert f'href="/s/{s.code}/record"' not in page
    # A second close (another phone) changes nothing.
    assert s.close() is False
    r = client.post(reverse("scorer:reopen", args=[s.code]), {"note": "算错了一局"})
    s.refresh_from_db()
    assert s.closed_at is None
    history = list(s.changes.values_list("action", "note"))
    assert history == [(SessionChange.CLOSE, ""), (SessionChange.REOPEN, "算错了一局")]
    record(s, DRAW)
    final = html(client.get(reverse("scorer:final", args=[s.code])))
    assert "算错了一局" in final


def test_close_waits_for_a_round_in_progress() -> None:
    s = make_table("sichuan", NAMES)
    s.params = dict(s.rules.params)
    s.save()
    event(s, {"type": "kong", "player": 1, "kong": "concealed"})
    with pytest.raises(RuleError):
        s.close()
    assert s.closed_at is None


def test_an_events_round_round_trips() -> None:
    s = make_table("yunnan", NAMES)
    s.params = dict(s.rules.params)
    s.save()
    event(s, {"type": "kong", "player": 1, "kong": "concealed"})
    hands = [{"seat": x, "status": "ready" if x == 2 else "not_ready"} for x in range(4)]
    event(s, {"type": "wall_end", "hands": hands})
    data = table_json(s)
    t = import_table(data, copy_of=origin_of(data))
    assert t.tallies() == s.tallies() == [-1, -1, 3, -1]


def test_picture_is_an_svg_with_the_names(client: Client) -> None:
    s = generated_table(4)
    r = client.get(reverse("scorer:final_svg", args=[s.code]))
    assert r["Content-Type"].startswith("image/svg+xml")
    svg: Any = html(r)
    assert svg.startswith("<svg") and all(n in svg for n in NAMES)
    assert 'width="1080"' in svg
