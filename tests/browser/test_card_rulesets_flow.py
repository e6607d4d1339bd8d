"""End-to-end in a real browser on a 360-px phone: a round of each of 北京, 河北,
山东, 陕西 and 云南.  Start the table from the home page with its default preset, tap
the winner, the discarder and the hand (北京: the turned tile, a 混儿 standing
in), enter the per-player counts the table asks (kongs, 炮子), confirm, and find
the engine's numbers in the tallies and the ledger.  Amounts by hand from
docs/rules/<id>.md."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset, settle
from rules.tiles import parse_tiles, tile_str
from tests.support.browser import (
    LI,
    PLAYERS,
    WANG,
    ZHANG,
    choose_rules,
    count_up,
    expect_totals,
    fill_players,
    grid_tile,
    press,
    settled,
    signed,
    start_table,
)
from tests.support.layout import assert_no_horizontal_scroll, assert_touch_targets, snap

pytestmark = pytest.mark.browser


CASES: list[dict[str, Any]] = [
    # 北京 basic: 9s turned → 1s is the 混儿, standing for 白; 门清 only (a 混儿 in hand):
    # 1 × 2 = 2 from 王五; 张三's 暗杠 4 from each.
    {"id": "beijing", "turned": "9s", "concealed": "123m456p789s23m5z1s", "win": "4m",
     "counts": [(ZHANG, "暗杠")], "totals": [12, -2, -6, -4],
     "seat_inputs": {"an_gang": [1, 0, 0, 0]}, "bar": "赢 2 分", "working": "王五：平胡 1 × 2 = 2"},
    # 河北 basic1: a plain win on 王五's discard: 5.
    {"id": "hebei", "concealed": "123m456p789s234m5s", "win": "5s", "counts": [],
     "totals": [0, 5, -5, 0], "seat_inputs": {}, "bar": "赢 5 分", "working": "王五：平胡 5"},
    # 山东 basic1: 七巧对 on 王五's discard: 5 × 2 = 10.
    {"id": "shandong", "concealed": "1133m5577p99s114z", "win": "4z", "counts": [],
     "totals": [0, 10, -10, 0], "seat_inputs": {}, "bar": "赢 10 分", "working": "王五：平胡 5 × 2 = 10"},
    # 陕西: 放胡, 炮子 张三 1, 李四 2: 张三 (dealer) 3 × (2 + 1 + 2) = 15, the others
    # 3 × (1 + 0 + 2) = 9 each.
    {"id": "shaanxi", "concealed": "123m456p789s234m5s", "win": "5s",
     "counts": [(ZHANG, "炮子"), (LI, "炮子"), (LI, "炮子")], "totals": [-15, 33, -9, -9],
     "seat_inputs": {"paozi": [1, 2, 0, 0]}, "bar": "赢 33 分",
     "working": "张三：放胡 A 1 × 底分 3 × (庄 2 + 炮子 1 + 赢家炮子 2) = 15"},
    # 云南 yuxi: 清一色 + 碰碰胡 on 王五's discard: 4 × 2 = 8 ("清一色+碰碰胡點炮=4*2=8分").
    {"id": "yunnan", "concealed": "111222333m4445m", "win": "5m", "counts": [],
     "totals": [0, 8, -8, 0], "seat_inputs": {}},
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_round_of_each(
    case: dict[str, Any], page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    rs = get_ruleset(case["id"])
    page.goto(live_server.url + "/")
    choose_rules(page, rs.name_zh)
    fill_players(page)
    assert_no_horizontal_scroll(page)
    session = start_table(page)
    code = session.code
    assert session.ruleset == rs.id

    if any(e.id == "kong" for e in rs.table().events):  # a round of events: 记杠, 记和牌, 荒庄
        page.locator("#tallies .event-actions").get_by_role("link", name="记和牌").click()
    else:
        page.locator(".actions").get_by_role("link", name="记一局").click()
    press(page.get_by_role("group", name="和牌者").get_by_role(
        "button", name=re.compile(f"^{PLAYERS[LI]}")))  # fmt: skip
    press(page.get_by_role("group", name="自摸或放炮者").get_by_role(
        "button", name=PLAYERS[WANG], exact=True))  # fmt: skip
    if "turned" in case:
        press(page.locator(".pk-turned").get_by_role("button"))
        grid_tile(page, case["turned"]).click()
        expect(page.locator(".pk-grid .pk-wild")).to_have_count(1)
    count = page.locator(".pk-hand-count")
    taps = [tile_str(t) for t in parse_tiles(case["concealed"])] + [case["win"]]
    for n, t in enumerate(taps, start=1):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
    folds = page.locator(".pk-si-seat").count() > 0  # more than two inputs: a fold a player
    for seat, label in case["counts"]:
        if folds:
            count_up(page, seat, label)
        else:
            page.get_by_role("button", name=f"+ {PLAYERS[seat]} {label}", exact=True).click()
            settled(page)
    expect(page.locator(".pk-result")).to_be_visible()
    # Shown as it counts: the unit is 分, and the working, not a sum of fans.
    if "bar" in case:
        expect(page.locator(".pk-bar-total")).to_have_text(case["bar"])
    if case.get("working"):
        expect(page.locator(".pk-working").first).to_have_text(case["working"])
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-confirm, .rec-seats button")
    snap(page, case["id"])
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(f"{live_server.url}/s/{code}/")
    expect_totals(page, case["totals"])
    event: dict[str, Any] = {
        "type": "win", "discarder": WANG, "seat_inputs": case["seat_inputs"],
        "winners": [{"seat": LI, "hand": {"concealed": case["concealed"], "win_tile": case["win"]}}],
    }  # fmt: skip
    rnd: dict[str, Any] = {"ruleset": rs.id, "dealer": 0, "events": [event]}
    if "turned" in case:
        rnd["turned"] = case["turned"]
    assert settle(rnd)["deltas"] == case["totals"]
    page.goto(f"{live_server.url}/s/{code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text(
        [signed(t) for t in case["totals"]]
    )
    assert not page_errors, page_errors
