"""Issue 35 (7): "局" is a hand, everywhere.  A table of hands, an adjustment, a
penalty and a closing fee: every count of 局 (the table's header, the phone's list,
the room's dashboard and fees, the day report and its CSV, the import question, the
messages) counts the hands only; Round.number stays the ledger's line number."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer import day
from scorer.models import GameSession, Round
from scorer.rooms import default_room
from scorer.views.export import _described
from tests.factories import NAMES, make_table, member_client, record
from tests.pages import html, text_of

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
DRAW = {"kind": "draw"}


def flash(response: object) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]


def test_every_count_of_hands_leaves_out_adjustments_penalties_and_the_fee() -> None:
    wuhan = get_ruleset("wuhan")
    s = make_table("wuhan", NAMES, params=dict(wuhan.defaults), fee={"mode": "aa", "amount": 5})
    c = Client()
    record(s, DRAW)
    record(s, DRAW)
    record(s, {"kind": "adjust", "reason": "借分", "lines": [{"from": 1, "to": 0, "amount": 5}]})
    # The penalty through its page: its message says what it is, not "第 4 局".
    r = c.post(reverse("scorer:adjust", args=[s.code]), {
        "token": str(uuid.uuid4()), "for_round": 4, "kind": "penalty", "penalty": "escape",
        "seat": "3"}, **ZH)  # fmt: skip
    assert r.status_code == 302 and flash(r) == ["罚分已记录。"]
    # The third hand is line 5 of the ledger (its URL, the CSV's line) and 第 3 局.
    third = record(s, DRAW)
    assert third.number == 5 and third.hand_number() == 3
    assert Round.objects.get(session=s, number=4).hand_number() is None
    room = default_room()

    # The table's header, the phone's list of tables, the dashboard, the import question.
    page = text_of(html(c.get(reverse("scorer:session", args=[s.code]), **ZH)))
    assert "已打 3 局" in page
    assert GameSession.standings_of([s])[s.pk][1] == 3
    (open_table,) = day.open_tables(room)
    assert open_table.rounds == 3
    boss = member_client(room, "boss")
    dashboard = text_of(html(boss.get(reverse("scorer:manage", args=[room.slug]), **ZH)))
    assert "3 局" in dashboard and "5 局" not in dashboard
    assert _described(s)["rounds"] == 3

    # Closed: the AA fee is a sixth line, still 3 hands in the books.
    assert s.close()
    assert s.rounds.filter(status=Round.ACTIVE).count() == 6
    today = day.today()
    assert [row.rounds for row in day.day_report(room, today)] == [3]
    assert day.fees_of_day(room, today).total.rounds == 3
    csv = boss.get(reverse("scorer:manage_report", args=[room.slug]), **ZH).content.decode()
    assert csv.splitlines()[1].split(",")[5] == "3"
    assert _described(s)["rounds"] == 3
