"""Adjustments and penalties at the table: entered on their own small page (zh first),
recorded once per form under the session's lock, refused whole with a message in the
reader's language, undone, corrected, shown as such in the ledger, on the round's
page and in the chart, exported (CSV, JSON) and re-checked by the JSON import."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError
from scorer.models import Round, RoundRevision
from scorer.services.export import import_table, origin_of, table_json
from tests.factories import event, make_table, record
from tests.pages import html, text
from tests.scorer.csv_export import ROOM, read_export, zh_csv
from tests.support.adjust import ZH, post_adjust

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_an_adjustment_is_recorded_once_and_shown_as_such() -> None:
    s = make_table("mcr", NAMES)
    c = Client()
    page = html(c.get(reverse("scorer:session", args=[s.code]), **ZH))
    assert reverse("scorer:adjust", args=[s.code]) in page and "调整 / 罚分" in page
    form = html(c.get(reverse("scorer:adjust", args=[s.code]), **ZH))
    assert "原因" in form and "罚分" in form and "错和" in form  # mcr declares 错和
    token = str(uuid.uuid4())
    extra = {"from_1": "2", "to_1": "3", "amount_1": "5"}
    r = post_adjust(c, s, token, **extra)
    assert r.status_code == 302
    post_adjust(c, s, token, **extra)  # a double tap: the same form, recorded once
    assert s.rounds.count() == 1
    assert s.tallies() == [30, -30, -5, 5]
    rev = s.rounds.get().current
    assert rev.kind == RoundRevision.ADJUST and rev.result["reason"] == "协商"
    ledger = text(c.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert "调整 +30" in ledger  # labelled by its kind, not by a number
    detail = text(c.get(reverse("scorer:round", args=[s.code, 1]), **ZH))
    assert "调整：协商" in detail and "乙 → 甲：30" in detail and "丙 → 丁：5" in detail
    chart = html(c.get(reverse("scorer:session", args=[s.code]), **EN))
    assert 'class="chart-mark"' in chart and "Line 1: adjustment" in chart
    # No hand was dealt: the dealer proposed next is still the first.
    assert s.next_position() == (0, "E")


@pytest.mark.parametrize(
    ("extra", "zh"),
    [
        ({"reason": " "}, "请写明调整的原因"),
        ({"to_0": "1"}, "第 1 行：不能自己给自己"),
        ({"amount_0": "0"}, "第 1 行：分数要是 1 到 100000 的整数"),
        ({"amount_0": "2.5"}, "第 1 行：分数要是 1 到 100000 的整数"),
        (
            {"from_0": "", "to_0": "", "amount_0": "", "from_1": "", "to_1": "", "amount_1": ""},
            "调整至少要有一行",
        ),
    ],
)
def test_a_bad_adjustment_is_refused_whole_in_the_readers_language(
    extra: dict[str, str], zh: str
) -> None:
    s = make_table("mcr", NAMES)
    r = post_adjust(Client(), s, str(uuid.uuid4()), **{"from_1": "2", "to_1": "3", "amount_1": "5",
                                                        **extra})  # fmt: skip
    assert r.status_code == 400 and zh in html(r)
    assert s.rounds.count() == 0 and s.tallies() == [0, 0, 0, 0]


def test_shaanxi_escape_from_the_form_reads_the_stakes_and_pays_the_others() -> None:
    s = make_table("shaanxi", NAMES)
    c = Client()
    form = html(c.get(reverse("scorer:adjust", args=[s.code]) + "?kind=penalty", **ZH))
    assert "逃跑" in form and "炮子" in form and "这桌罚的分由其他玩家平分" in form
    r = c.post(reverse("scorer:adjust", args=[s.code]), {
        "token": str(uuid.uuid4()), "for_round": 1, "kind": "penalty", "penalty": "escape",
        "seat": "1", "paozi_0": "1", "paozi_1": "2", "paozi_2": "0", "paozi_3": "3"}, **ZH)  # fmt: skip
    assert r.status_code == 302
    # 扣分 = 底分 × (8 + 自己的炮子數 × 3 + 其余玩家炮子數和) = 3 × (8 + 6 + 4)
    assert s.tallies() == [18, -54, 18, 18]
    detail = text(c.get(reverse("scorer:round", args=[s.code, 1]), **ZH))
    assert "罚分：乙" in detail and "逃跑：扣 54，其他玩家平分" in detail


def test_wuhan_escape_paid_to_the_room_is_the_rooms_take() -> None:
    s = make_table("wuhan", NAMES, params={"escape_to": "room"})
    record(s, {"kind": "penalty", "penalty": "escape", "seat": 3})
    assert s.tallies() == [0, 0, 0, -400] and s.room_take() == 400
    rev = s.rounds.get().current
    assert [(t.from_seat, t.to_seat, t.amount) for t in rev.transfers.all()] == [(3, None, 400)]
    got = read_export(zh_csv(s), NAMES)
    assert got.totals == {**dict(zip(NAMES, [0, 0, 0, -400], strict=True)), ROOM: 400}
    (line,) = got.body
    assert (line["类型"], line["谁给"], line["给谁"], line["原因"]) == ("罚分", "丁", ROOM, "逃跑")


def test_undo_restore_and_correction_of_an_adjustment() -> None:
    s = make_table("mcr", NAMES)
    entry = {"kind": "adjust", "reason": "借分", "lines": [{"from": 0, "to": 2, "amount": 50}]}
    rnd = record(s, entry)
    s.undo_last()
    assert s.tallies() == [0, 0, 0, 0]
    s.restore(rnd.number)
    assert s.tallies() == [-50, 0, 50, 0]
    c = Client()
    edit = reverse("scorer:adjust_edit", args=[s.code, rnd.number])
    assert c.get(reverse("scorer:edit", args=[s.code, rnd.number]))["Location"] == edit
    form = html(c.get(edit, **ZH))
    assert 'value="借分"' in form and 'name="base" value="1"' in form
    r = c.post(edit, {"base": "1", "kind": "adjust", "reason": "借分（改）", "from_0": "0",
                      "to_0": "2", "amount_0": "20"}, **ZH)  # fmt: skip
    assert r.status_code == 302
    assert s.tallies() == [-20, 0, 20, 0]
    stale = c.post(edit, {"base": "1", "kind": "adjust", "reason": "x", "from_0": "0",
                          "to_0": "1", "amount_0": "9"}, **ZH)  # fmt: skip
    assert stale.status_code == 409 and s.tallies() == [-20, 0, 20, 0]
    rnd.refresh_from_db()
    with pytest.raises(RuleError):  # an adjustment is corrected as one
        rnd.revise({"kind": "draw"})


def test_a_closed_table_and_a_round_in_progress_take_no_adjustment() -> None:
    s = make_table("sichuan", NAMES)
    event(s, {"type": "kong", "player": 1, "kong": "concealed"})
    entry = {"kind": "adjust", "reason": "x", "lines": [{"from": 0, "to": 1, "amount": 5}]}
    with pytest.raises(RuleError) as e:
        record(s, entry)
    assert "还有一局没打完" in e.value.message_zh
    t = make_table("mcr", NAMES)
    record(t, entry)
    t.close()
    r = post_adjust(Client(), t, str(uuid.uuid4()))
    assert r.status_code == 302 and t.rounds.filter(status=Round.ACTIVE).count() == 1


def test_the_json_export_round_trips_and_the_import_re_checks_it() -> None:
    s = make_table(
        "shaanxi", NAMES, params={"escape_to": "room"}, fee={"mode": "win_fixed", "amount": 2}
    )
    record(s, {"kind": "adjust", "reason": "协商", "lines": [{"from": 0, "to": 1, "amount": 7}]})
    record(
        s,
        {"kind": "penalty", "penalty": "escape", "seat": 2, "seat_inputs": {"paozi": [0, 0, 4, 0]}},
    )
    data = json.loads(json.dumps(table_json(s), ensure_ascii=False))
    t = import_table(data, copy_of=origin_of(data))  # a second copy, chosen
    assert t.tallies() == s.tallies() == [-7, 7, -60, 0] and t.room_take() == 60
    got = read_export(zh_csv(s), NAMES)
    assert [(x["类型"], x["谁给"], x["给谁"], x["分数"], x["原因"]) for x in got.body] == [
        ("调整", "甲", "乙", "7", "调整: 协商"), ("罚分", "丙", ROOM, "60", "逃跑")]  # fmt: skip
    assert got.totals == {**dict(zip(NAMES, s.tallies(), strict=True)), ROOM: 60}
    forged = json.loads(json.dumps(data))
    forged["rounds"][1]["revisions"][0]["entry"]["seat_inputs"]["paozi"] = [0, 0, 0, 0]
    with pytest.raises(RuleError):
        import_table(forged)


def test_the_escape_remainder_rotates_from_one_penalty_to_the_next() -> None:
    """500 three ways is not 167, 167, 166 every time (which gave 501 / 501 / 498 after
    three): the odd points start one seat further on with each penalty."""
    s = make_table("wuhan", NAMES, params={"escape_penalty": 500})
    for _ in range(3):
        record(s, {"kind": "penalty", "penalty": "escape", "seat": 0})
    deltas = [r.current.deltas for r in s.standing_rounds()]  # type: ignore[union-attr]
    assert deltas == [[-500, 167, 167, 166], [-500, 166, 167, 167], [-500, 167, 166, 167]]
    assert s.tallies() == [-1500, 500, 500, 500]
    # A correction keeps where its odd points start.
    third = s.standing_rounds()[-1]
    third.revise({"kind": "penalty", "penalty": "escape", "seat": 0})
    assert third.current.deltas == [-500, 167, 166, 167]  # type: ignore[union-attr]


def test_the_wuhan_adjust_page_says_points_and_ends_its_sentences_in_chinese() -> None:
    """The amount is labelled as points, not 番数 (msgid "Points"); the 逃跑 help ends
    its sentences with a Chinese full stop, never "（口口翻 500）. 这桌"."""
    s = make_table("wuhan", NAMES)
    form = html(Client().get(reverse("scorer:adjust", args=[s.code]), **ZH))
    assert "番数" not in form and form.count("分数") == form.count('name="amount_')
    assert "（口口翻 500）。这桌" in form and "）. " not in form
    en = html(Client().get(reverse("scorer:adjust", args=[s.code]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "500). At this table" in en
