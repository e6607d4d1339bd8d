"""台费: the rule, taken with rounds and at the close, moved by undo,
correction and reopen; the players' net plus the room's take is always zero."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation

from rules import RuleError
from scorer.forms.fees import add_fee_fields, clean_fee
from scorer.models import GameSession, RoomConfig, Round, Transfer
from scorer.money.fees import FeeRule, checked_fee
from tests.factories import by_tiles, event, make_table, record

pytestmark = pytest.mark.django_db

NAMES = ["东家", "南家", "西家", "北家"]


def session(fee: dict[str, Any] | None = None, **kw: Any) -> GameSession:
    return make_table("mcr", NAMES, fee=fee or {}, **kw)


def balanced(s: GameSession) -> None:
    rounds = s.standing_rounds()
    assert sum(s.tallies(rounds)) + s.room_take(rounds) == 0
    for r in s.rounds.prefetch_related("revisions__transfers"):
        for v in r.revisions.all():
            assert sum(v.deltas) + v.room_take == 0
            to_room = sum(t.amount for t in v.transfers.all() if t.to_seat is None)
            assert to_room == v.room_take


# ------------------------------------------------------------------ the rule


@pytest.mark.parametrize(
    ("data", "stored"),
    [
        ({}, {}),
        ({"mode": "none"}, {}),
        ({"mode": "aa", "amount": 20}, {"mode": "aa", "amount": 20}),
        ({"mode": "aa", "amount": "20"}, {"mode": "aa", "amount": 20}),
        ({"mode": "win_fixed", "amount": 2}, {"mode": "win_fixed", "amount": 2}),
        ({"mode": "win_percent", "percent": "5", "cap": 20},
         {"mode": "win_percent", "percent": 5, "cap": 20}),
        ({"mode": "win_percent", "percent": 2.5}, {"mode": "win_percent", "percent": 2.5, "cap": 0}),
        ({"mode": "big_winner", "amount": 80}, {"mode": "big_winner", "amount": 80}),
    ],
)  # fmt: skip
def test_a_fee_reads_and_is_stored_normalized(data: dict[str, Any], stored: dict[str, Any]) -> None:
    assert checked_fee(data) == stored
    assert checked_fee(stored) == stored


@pytest.mark.parametrize(
    "data",
    [
        [1, 2],
        {"mode": "monthly"},
        {"mode": "aa"},
        {"mode": "aa", "amount": 0},
        {"mode": "aa", "amount": 2.5},
        {"mode": "aa", "amount": True},
        {"mode": "aa", "amount": 10**9},
        {"mode": "win_percent", "percent": 0},
        {"mode": "win_percent", "percent": 101},
        {"mode": "win_percent", "percent": "2.55"},
        {"mode": "win_percent", "percent": "NaN"},
        {"mode": "win_percent", "percent": 5, "cap": -1},
        {"mode": "aa", "amount": 5, "per": "hour"},
    ],
)
def test_a_bad_fee_is_refused_in_both_languages(data: Any) -> None:
    with pytest.raises(RuleError) as e:
        FeeRule.from_json(data)
    assert e.value.message and e.value.message_zh and e.value.message != e.value.message_zh


def test_percent_rounds_down_to_a_whole_point_and_stops_at_the_cap() -> None:
    rule = FeeRule.from_json({"mode": "win_percent", "percent": 10, "cap": 5})
    # 10% of 19 is 1.9: one point (the fraction stays with the winner); 10% of 80 capped at 5.
    assert rule.round_fees([19, -19, 0, 0], [0]) == [1, 0, 0, 0]
    assert rule.round_fees([80, -40, -40, 0], [0]) == [5, 0, 0, 0]
    assert rule.round_fees([9, -9, 0, 0], [0]) == [0, 0, 0, 0]
    half = FeeRule.from_json({"mode": "win_percent", "percent": "2.5"})
    assert half.round_fees([200, -200, 0, 0], [0]) == [5, 0, 0, 0]


def test_a_winner_never_pays_more_than_he_won_and_only_winners_pay() -> None:
    rule = FeeRule.from_json({"mode": "win_fixed", "amount": 10})
    assert rule.round_fees([4, -4, 0, 0], [0]) == [4, 0, 0, 0]
    # 一炮多响: each winner pays; a winner whose round is a loss (kongs) pays nothing; a
    # loser never does.
    assert rule.round_fees([30, 20, -50, 0], [0, 1]) == [10, 10, 0, 0]
    assert rule.round_fees([-3, 3, 0, 0], [0]) == [0, 0, 0, 0]
    assert rule.round_fees([0, 0, 0, 0], []) == [0, 0, 0, 0]


def test_the_biggest_winner_pays_and_players_tied_at_the_top_share() -> None:
    rule = FeeRule.from_json({"mode": "big_winner", "amount": 50})
    assert rule.close_fees([30, -10, 5, -25]) == [50, 0, 0, 0]
    assert rule.close_fees([20, 20, -10, -30]) == [25, 25, 0, 0]
    assert rule.close_fees([10, 10, 10, -30]) == [17, 17, 16, 0]
    assert FeeRule.from_json({"mode": "aa", "amount": 20}).close_fees([5, -5, 0]) == [20, 20, 20]


def test_the_rule_is_said_in_the_readers_language() -> None:
    rule = FeeRule.from_json({"mode": "win_percent", "percent": 5, "cap": 20})
    with translation.override("zh-hans"):
        zh = rule.describe()
    with translation.override("en"):
        en = rule.describe()
    assert "5%" in en and "20" in en and "rake" in en
    assert "5%" in zh and "20" in zh and "抽水" in zh


# ------------------------------------------------------------------ configurations


def test_a_configuration_with_a_bad_fee_is_never_saved() -> None:
    config = RoomConfig.objects.create(ruleset="mcr", name="x", fee={"mode": "aa", "amount": "8"})
    assert config.fee == {"mode": "aa", "amount": 8}
    config.fee = {"mode": "aa", "amount": -3}
    with translation.override("zh-hans"), pytest.raises(ValidationError) as e:
        config.save()
    assert "台费" in str(e.value)
    config.refresh_from_db()
    assert config.fee == {"mode": "aa", "amount": 8}


class FeeForm(forms.Form):
    def __init__(self, start: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_fee_fields(self, start)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["fee"] = clean_fee(self, cleaned)
        return cleaned


def test_the_form_fields_start_at_the_stored_fee_and_give_it_back() -> None:
    form = FeeForm({"mode": "win_percent", "percent": 5, "cap": 20})
    assert form.fields["fee_mode"].initial == "win_percent"
    assert form.fields["fee_percent"].initial == Decimal(5)
    assert form.fields["fee_cap"].initial == 20
    posted = FeeForm({}, {"fee_mode": "big_winner", "fee_amount": "60"})
    assert posted.is_valid(), posted.errors
    assert posted.cleaned_data["fee"] == {"mode": "big_winner", "amount": 60}
    none = FeeForm({}, {"fee_mode": "none", "fee_amount": ""})
    assert none.is_valid() and none.cleaned_data["fee"] == {}


def test_the_form_marks_a_missing_or_bad_value_on_its_own_field() -> None:
    with translation.override("zh-hans"):
        form = FeeForm({}, {"fee_mode": "aa", "fee_amount": ""})
        assert not form.is_valid()
        assert "fee_amount" in form.errors and "分" in form.errors["fee_amount"][0]
        form = FeeForm({}, {"fee_mode": "win_percent", "fee_percent": "150"})
        assert not form.is_valid() and "fee_percent" in form.errors
        form = FeeForm({}, {"fee_mode": "win_percent", "fee_percent": "5", "fee_cap": "-1"})
        assert not form.is_valid() and "fee_cap" in form.errors


# ------------------------------------------------------------------ per round


def test_a_rake_is_taken_from_the_winner_with_the_round() -> None:
    s = session({"mode": "win_percent", "percent": 10, "cap": 20})
    plain = session()
    r = record(s, by_tiles(1, 2))
    p = record(plain, by_tiles(1, 2))
    assert r.current is not None and p.current is not None
    gross = p.current.deltas
    fee = min(gross[1] // 10, 20)
    assert fee > 0
    assert r.current.room_take == fee
    assert r.current.deltas == [gross[0], gross[1] - fee, gross[2], gross[3]]
    to_room = Transfer.objects.get(revision=r.current, to_seat=None)
    assert (to_room.from_seat, to_room.amount, to_room.reason) == (1, fee, "fee")
    assert s.room_take() == fee
    balanced(s)


def test_undo_restore_and_correction_move_the_fee_with_the_round() -> None:
    s = session({"mode": "win_fixed", "amount": 3})
    record(s, by_tiles(1, 2))
    r2 = record(s, by_tiles(3, None))
    assert s.room_take() == 6
    s.undo_last(expected=2)
    assert s.room_take() == 3
    balanced(s)
    s.restore(2)
    assert s.room_take() == 6
    r2.revise({"kind": "draw"})
    assert s.room_take() == 3  # a draw has no winner: no fee
    balanced(s)
    r2.revise(by_tiles(0, 1))
    assert s.room_take() == 6
    balanced(s)


def test_a_round_of_events_charges_each_winner_on_his_net() -> None:
    fee = {"mode": "win_percent", "percent": 50}
    s = make_table("sichuan", NAMES, fee=fee)
    plain = make_table("sichuan", NAMES)
    pungs = {"concealed": "111222p333s4455s", "win_tile": "5s"}
    pairs = {"concealed": "1122334466778m", "win_tile": "8m"}
    events = [
        {"type": "kong", "player": 1, "kong": "concealed"},
        {"type": "win", "discarder": 0, "winners": [{"seat": 3, "hand": pungs}]},
        {"type": "win", "discarder": None, "winners": [{"seat": 2, "hand": pairs}]},
    ]
    for i, ev in enumerate(events):
        for t in (s, plain):
            event(t, ev)
        if i == 0:
            assert s.room_take() == 0  # a kong is no win: its gainer pays nothing
    gross = plain.tallies()
    r = s.rounds.get(number=1)
    assert r.current is not None and sorted(r.current.winners) == [2, 3]
    # 丁 won 12 on a discard but paid 12 for 乙's kong: his round nets 0, so he pays nothing.
    assert gross[3] == 0 and gross[2] > 0
    fees = [0, 0, gross[2] // 2, 0]
    assert s.tallies() == [g - f for g, f in zip(gross, fees, strict=True)]
    assert s.room_take() == sum(fees)
    balanced(s)
    # Taking the last win back takes its fee back with it.
    s.undo_last(step=True)
    plain.undo_last(step=True)
    assert s.room_take() == 0 and s.tallies() == plain.tallies()
    balanced(s)


# ------------------------------------------------------------------ at the close


def test_aa_is_charged_at_the_close_and_taken_back_by_reopening() -> None:
    s = session({"mode": "aa", "amount": 20})
    record(s, by_tiles(1, 2))
    before = s.tallies()
    assert s.close(author="老板")
    fee_round = s.rounds.get(number=2)
    assert fee_round.is_fee and fee_round.current is not None
    assert fee_round.current.deltas == [-20, -20, -20, -20]
    assert s.tallies() == [t - 20 for t in before] and s.room_take() == 80
    assert s.close() is False  # closed once, charged once
    assert s.room_take() == 80
    balanced(s)
    s.reopen(author="老板", note="忘了一局")
    assert s.room_take() == 0 and s.tallies() == before
    fee_round.refresh_from_db()
    assert fee_round.status == Round.UNDONE  # kept in the history
    with pytest.raises(RuleError):
        s.restore(2)
    assert s.next_position()[0] == s.standing_rounds()[-1].current.dealer or True
    record(s, by_tiles(3, None))
    s.close()
    assert s.room_take() == 80 and s.rounds.filter(status=Round.ACTIVE).count() == 3
    balanced(s)


def test_an_empty_table_owes_nothing_and_a_fee_round_is_no_hand() -> None:
    s = session({"mode": "big_winner", "amount": 40})
    s.close()
    assert s.room_take() == 0 and not s.rounds.exists()
    s.reopen()
    record(s, by_tiles(1, 2))
    position = s.next_position()
    s.close()
    assert s.next_position() == position
    r = s.rounds.get(number=2)
    assert r.current is not None and r.current.deltas == [0, -40, 0, 0]
    with pytest.raises(RuleError):
        r.revise(by_tiles(1, 2))


def test_the_fee_fields_partial_renders_the_fields_for_a_configuration_form() -> None:
    from django.template.loader import render_to_string

    with translation.override("zh-hans"):
        html = render_to_string(
            "room/_fee_fields.html", {"form": FeeForm({"mode": "aa", "amount": 8})}
        )
    assert "<legend>台费</legend>" in html
    for name in ("fee_mode", "fee_amount", "fee_percent", "fee_cap"):
        assert f'name="{name}"' in html
    assert 'value="8"' in html and 'value="aa" selected' in html
