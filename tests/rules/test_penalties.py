"""Declared penalties settled by the engine, from the seeds' sentences: 武汉 and 陕西's
逃跑 (seed 002) and 国标's 错和 (the competition rules; docs/rules/mcr.md), paid to
the other players (the default) or to the room (`room_take`), and the core naming
no ruleset: a table that declares none refuses the event."""

from __future__ import annotations

from typing import Any

import pytest

from rules import settle
from rules.registry import get_ruleset
from rules.table import describe_table


def escape(ruleset: str, seat: int, params: dict[str, Any] | None = None, **ev: Any) -> Any:
    return settle({"ruleset": ruleset, "players": 4, "dealer": 0, "params": params or {},
                   "events": [{"type": "penalty", "penalty": "escape", "seat": seat, **ev}]})  # fmt: skip


def test_wuhan_escape_loses_400_split_among_the_others() -> None:
    # 「逃跑:游戲結束,逃跑者扣400分(口口翻扣500分)」
    r = escape("wuhan", 1)
    assert r["ok"] and r["finished"]
    assert r["deltas"] == [133, -400, 134, 133]  # the odd point to his right (下家) first
    assert r["room_take"] == 0
    assert {t["reason"] for t in r["transfers"]} == {"penalty_escape"}
    assert r["transfers"][0]["reason_zh"] == "逃跑"


def test_wuhan_koukoufan_escape_loses_500() -> None:
    preset = dict(next(p for p in get_ruleset("wuhan").presets if p.id == "koukoufan").params)
    r = escape("wuhan", 3, preset)
    assert r["deltas"] == [167, 167, 166, -500]


def test_wuhan_escape_paid_to_the_room() -> None:
    r = escape("wuhan", 2, {"escape_to": "room"})
    assert r["deltas"] == [0, 0, -400, 0] and r["room_take"] == 400
    assert r["transfers"] == [
        {"event": 0, "from": 2, "to": None, "amount": 400, "reason": "penalty_escape",
         "reason_zh": "逃跑", "reason_en": "Escape"}
    ]  # fmt: skip


def test_shaanxi_escape_is_base_times_8_plus_own_stakes_3_plus_the_others() -> None:
    # 「逃跑扣分:算該玩家輸,扣分=底分*(8 + 自己的炮子數*3 + 其余玩家炮子數和)」, 底分 3
    r = escape("shaanxi", 1, seat_inputs={"paozi": [1, 2, 0, 3]})
    assert r["events"][0]["amount"] == 3 * (8 + 2 * 3 + (1 + 0 + 3)) == 54
    assert r["deltas"] == [18, -54, 18, 18]
    assert "底分 3 ×（8 + 自己炮子 2 × 3 + 其余炮子 4）= 54" in r["events"][0]["notes_zh"]
    assert escape("shaanxi", 0)["deltas"] == [-24, 8, 8, 8]  # no 炮子: 3 × 8
    room = escape("shaanxi", 0, {"escape_to": "room"}, seat_inputs={"paozi": [4, 4, 4, 4]})
    assert room["deltas"] == [-3 * (8 + 12 + 12), 0, 0, 0] and room["room_take"] == 96


def test_shaanxi_escape_ends_the_round_after_its_kongs() -> None:
    r = settle({"ruleset": "shaanxi", "players": 4, "dealer": 0, "events": [
        {"type": "kong", "player": 2, "kong": "concealed"},
        {"type": "penalty", "penalty": "escape", "seat": 0}]})  # fmt: skip
    assert r["ok"] and r["finished"]
    assert r["deltas"] == [-6 - 24, -6 + 8, 18 + 8, -6 + 8]
    late = settle({"ruleset": "shaanxi", "players": 4, "dealer": 0, "events": [
        {"type": "penalty", "penalty": "escape", "seat": 0}, {"type": "draw"}]})  # fmt: skip
    assert late["error"]["code"] == "bad_event"


def test_mcr_false_win_pays_each_other_player_and_the_hand_plays_on() -> None:
    r = settle({"ruleset": "mcr", "players": 4, "dealer": 0, "events": [
        {"type": "penalty", "penalty": "false_win", "seat": 2},
        {"type": "win", "discarder": None,
         "winners": [{"seat": 0, "hand": {"concealed": "111m222m333m456p7z", "win_tile": "7z"}}]},
    ]})  # fmt: skip
    assert r["ok"] and r["finished"]
    assert r["events"][0]["deltas"] == [10, 10, -30, 10]
    alone = settle({"ruleset": "mcr", "players": 4, "events": [
        {"type": "penalty", "penalty": "false_win", "seat": 2}]})  # fmt: skip
    assert alone["ok"] and not alone["finished"]


def test_the_penalty_amount_and_recipients_are_parameters() -> None:
    r = settle({"ruleset": "mcr", "players": 4, "params": {"false_win_penalty": 5,
                "false_win_to": "room"},
                "events": [{"type": "penalty", "penalty": "false_win", "seat": 0}]})  # fmt: skip
    assert r["deltas"] == [-15, 0, 0, 0] and r["room_take"] == 15


@pytest.mark.parametrize(
    ("ruleset", "ev", "code"),
    [
        ("sichuan", {"penalty": "escape", "seat": 0}, "bad_event"),  # declares none
        ("generic", {"penalty": "escape", "seat": 0}, "bad_event"),
        ("wuhan", {"penalty": "false_win", "seat": 0}, "bad_event"),
        ("wuhan", {"penalty": "escape", "seat": 4}, "bad_table"),
        (
            "shaanxi",
            {"penalty": "escape", "seat": 0, "seat_inputs": {"paozi": [5, 0, 0, 0]}},
            "bad_input",
        ),
    ],
)
def test_bad_penalties_are_refused(ruleset: str, ev: dict[str, Any], code: str) -> None:
    r = settle({"ruleset": ruleset, "players": 4, "events": [{"type": "penalty", **ev}]})
    assert not r["ok"] and r["error"]["code"] == code


def test_the_declaration_lists_the_penalties() -> None:
    d = describe_table(get_ruleset("shaanxi").table())
    assert d["penalties"] == [{"id": "escape", "zh": "逃跑", "en": "Escape",
                               "to_param": "escape_to", "inputs": ["paozi"],
                               "ends_round": True}]  # fmt: skip
    assert describe_table(get_ruleset("sichuan").table())["penalties"] == []
