"""The word 局 is a hand, everywhere.  A table of hands, an adjustment, a penalty and a
closing fee: every count of 局 (the table's header, the phone's list, the room's
dashboard and fees, the day report and its CSV, the import question, the messages)
counts the hands only; "第 N 局" on every page and message is the hand's number
(Round.hand_number), and a line that is no hand is named by its kind ("第 4 行：罚分");
Round.number stays the ledger's line number (URLs, the CSV's 行)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer.models import GameSession, Round
from scorer.models.rooms import default_room
from scorer.services import books as book
from scorer.services import calendar, day
from scorer.views.export import _described
from tests.factories import NAMES, SHORT_NAMES, event, make_table, member_client, record
from tests.pages import html, text, text_of
from tests.support.htmx import HTMX
from tests.support.state import state_of, taken_panel

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DRAW = {"kind": "draw"}
# 四川 hands won on one discard (对对胡, 清七对, 清一色).
PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}
PAIRS = {"concealed": "1122334466778m", "win_tile": "8m"}
STRAIGHT = {"concealed": "123456789s1122s", "win_tile": "2s"}


def flash(response: object) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]


def said(response: object) -> str:
    """The message this request added (those before it wait for a page to show them)."""
    return flash(response)[-1]


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
    assert [row.rounds for row in book.books(room, calendar.today(room)).rows] == [3]
    csv = boss.get(reverse("scorer:manage_report", args=[room.slug]), **ZH).content.decode()
    assert csv.splitlines()[1].split(",")[5] == "3"
    assert _described(s)["rounds"] == 3


def a_table_of_hands_and_lines() -> tuple[GameSession, Client]:
    """武汉: hands 1 and 2 (lines 1, 2), an adjustment (line 3), a penalty (line 4),
    hand 3 (line 5)."""
    wuhan = get_ruleset("wuhan")
    s = make_table("wuhan", NAMES, params=dict(wuhan.defaults))
    record(s, DRAW)
    record(s, DRAW)
    record(s, {"kind": "adjust", "reason": "借分", "lines": [{"from": 1, "to": 0, "amount": 5}]})
    record(s, {"kind": "penalty", "penalty": "escape", "seat": 3})
    record(s, DRAW)
    return s, Client()


def test_every_page_names_a_hand_by_its_number_and_a_line_by_its_kind() -> None:
    s, c = a_table_of_hands_and_lines()
    session_url = reverse("scorer:session", args=[s.code])

    # The table's page: 撤销 names the last hand by its number; the chart's marks name
    # the adjustment and the penalty by their kind and line.
    page = html(c.get(session_url, **ZH))
    assert "已打 3 局" in text_of(page)
    assert "撤销第 3 局？" in text_of(page) and "确认撤销第 3 局" in page
    assert "第 3 行：调整" in page and "第 4 行：罚分" in page
    assert "第 5 局" not in page and "第 4 局" not in page
    en = html(c.get(session_url, **EN))
    assert "Undo round 3?" in text_of(en) and "Line 3: adjustment" in en
    assert "Line 4: penalty" in en and "Round 5" not in en and "round 5" not in en

    # Each line's page: a hand by its number (its URL keeps the line), the others by kind.
    third = html(c.get(reverse("scorer:round", args=[s.code, 5]), **ZH))
    assert "<title>第 3 局 ·" in third and "<h1>第 3 局</h1>" in third and "第 5 局" not in third
    for line, kind in ((3, "调整"), (4, "罚分")):
        shown = html(c.get(reverse("scorer:round", args=[s.code, line]), **ZH))
        assert (
            f"<h1>第 {line} 行：{kind}</h1>" in shown and f"<title>第 {line} 行：{kind} ·" in shown
        )
        assert "改这一行" in shown and ">得失<" in shown and "这一行的每个版本" in shown
        assert "这一局" not in shown and "本局" not in shown and f"第 {line} 局" not in shown
    assert "<h1>Line 3: adjustment</h1>" in html(
        c.get(reverse("scorer:round", args=[s.code, 3]), **EN)
    )
    # Corrections are titled the same way.
    assert '<h1 class="rec-title">更正第 3 局</h1>' in html(
        c.get(reverse("scorer:edit", args=[s.code, 5]), **ZH)
    )
    assert "修改第 3 行：调整" in text(c.get(reverse("scorer:adjust_edit", args=[s.code, 3]), **ZH))

    # 撤销 the third hand, 恢复 it: said as 第 3 局 throughout.
    r = c.post(reverse("scorer:undo", args=[s.code]), {"round": "5"}, **ZH)
    assert said(r) == "已撤销第 3 局，不再计分。账本里点“显示已撤销的局”可以看到它（划掉显示）。"
    page = text(c.get(session_url, **ZH))
    assert "恢复第 3 局" in page and "撤销第 4 行：罚分？" in page and "已打 2 局" in page
    ledger = text(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert "已撤销 1 局。" in ledger and "行调整" not in ledger
    assert "<h1>第 3 局</h1>" in html(c.get(reverse("scorer:round", args=[s.code, 5]), **ZH))
    r = c.post(reverse("scorer:restore", args=[s.code, 5]), **ZH)
    assert said(r) == "第 3 局已恢复，重新计分。"
    r = c.post(reverse("scorer:restore", args=[s.code, 5]), **ZH)
    assert said(r) == "第 3 局没有被撤销（可能已在别的手机上恢复）。"
    # A page that still offers the penalty's 撤销 undoes nothing, and says what is last.
    r = c.post(reverse("scorer:undo", args=[s.code]), {"round": "4"}, **ZH)
    assert said(r) == "没有撤销：最后一笔现在是第 3 局。请先核对分数再试。"

    # 撤销 the hand, then the penalty: the penalty is named by its kind, never a 局.
    c.post(reverse("scorer:undo", args=[s.code]), {"round": "5"}, **ZH)
    r = c.post(reverse("scorer:undo", args=[s.code]), {"round": "4"}, **ZH)
    assert (
        said(r) == "已撤销第 4 行：罚分，不再计分。账本里点“显示已撤销的局”可以看到它（划掉显示）。"
    )
    assert "撤销第 3 行：调整？" in text(c.get(session_url, **ZH))
    ledger = text(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert "已撤销 1 局。" in ledger and "已撤销 1 行调整、罚分或台费。" in ledger
    r = c.post(reverse("scorer:restore", args=[s.code, 4]), **ZH)
    assert said(r) == "第 4 行：罚分已恢复，重新计分。"
    r = c.post(reverse("scorer:restore", args=[s.code, 5]), **EN)
    assert said(r) == "Round 3 restored: it counts again."


def test_a_line_recorded_meanwhile_is_named_by_its_kind_and_the_entry_by_the_next_hand() -> None:
    """Another phone's adjustment lands while this phone enters a hand: the panel
    says "第 3 行：调整刚被记录" and offers "记为第 3 局"."""
    s = make_table("wuhan", NAMES, params=dict(get_ruleset("wuhan").defaults))
    c = Client()
    record(s, DRAW)
    record(s, DRAW)
    state = state_of(html(c.get(reverse("scorer:record", args=[s.code]), **ZH)))
    assert state["for_round"] == "3"
    record(s, {"kind": "adjust", "reason": "借分", "lines": [{"from": 1, "to": 0, "amount": 5}]})
    r = c.post(reverse("scorer:preview", args=[s.code]), {**state, "tap": "winner:0"}, **HTMX, **ZH)
    panel = taken_panel(html(r))
    assert "第 3 行：调整刚被记录" in panel and "记为第 3 局" in panel and "第 4 局" not in panel


def test_a_round_played_as_events_is_said_by_its_hand_number() -> None:
    """四川 (no 圈风: a round is said by its number and dealer), after an adjustment:
    the round on line 2 is 第 1 局 on every page that says it."""
    s = make_table("sichuan", SHORT_NAMES, first_dealer=0)
    c = Client()
    record(s, {"kind": "adjust", "reason": "借分", "lines": [{"from": 1, "to": 0, "amount": 5}]})
    session_url = reverse("scorer:session", args=[s.code])
    record_url = reverse("scorer:record", args=[s.code])
    assert "新开第 1 局" in text(c.get(record_url + "?kind=kong", **ZH))
    event(s, {"type": "kong", "player": 1, "kong": "concealed"})
    page = text(c.get(session_url, **ZH))
    assert "第 1 局 · 进行中" in page and "第 1 局到目前为止" in page
    assert "撤销第 1 局的上一步" in page and "第 2 局" not in page
    assert "第 1 局 · 已记 1 项" in text(c.get(record_url + "?kind=kong", **ZH))
    assert "第 1 局 · 庄家 甲" in text(c.get(reverse("scorer:round", args=[s.code, 2]), **ZH))
    detail = c.get(reverse("scorer:round", args=[s.code, 2]), {"part": "current"}, **ZH)
    assert "第 1 局 · 庄家 甲" in text(detail)
    for seat, hand in ((3, PUNGS), (2, PAIRS), (1, STRAIGHT)):
        event(s, {"type": "win", "discarder": 0, "winners": [{"seat": seat, "hand": hand}]})
    page = text(c.get(session_url, **ZH))
    assert "上一局（第 1 局）" in page and "第 2 局" not in page
    assert "新开第 2 局" in text(c.get(record_url + "?kind=kong", **ZH))
    r = c.post(reverse("scorer:undo_event", args=[s.code]), {"round": "2", "events": "4"}, **ZH)
    assert said(r).startswith("已撤销第 1 局的上一步")
    r = c.post(reverse("scorer:undo_event", args=[s.code]), {"round": "2", "events": "9"}, **ZH)
    assert said(r) == "没有撤销：第 1 局刚被别的手机改过了。请看一下最新情况再试。"
