"""End-to-end in a real browser: a 自定义规则 (house) table on a 360x740 phone, in Chinese.

The first ruleset built only on the one-folder structure plays at the table with
nothing of its own outside its folder: start it from the home page with the
翻牌定癞子 preset, record 赵六's 暗杠 (paid at once), then 李四's self-drawn win,
where the phone turns up the tile that decides the wild tiles (四万 → 五万 wild),
sees the wild tiles marked on the picker, and wins with a wild 五万.

Expected numbers by hand from docs/rules/house.md (points 1, self-draw ×2,
暗杠 2 from each other player), and by the engine's `settle()` of the same
events.  Screenshots: test-artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import REGISTRY, settle
from rules.tiles import parse_tiles, tile_str
from scorer.models import Round
from tests.support.browser import (
    LI,
    PLAYERS,
    WANG,
    ZHANG,
    ZHAO,
    choose_rules,
    confirm,
    expect_totals,
    expect_transfers,
    fill_players,
    grid_tile,
    press,
    seat_button,
    signed,
    start_table,
)
from tests.support.layout import (
    assert_no_horizontal_scroll,
    assert_touch_targets,
    snap,
    snap_page_and_screen,
)

pytestmark = pytest.mark.browser

TURNED = "4m"  # turned up: the next kind, 五万, is wild
WILD = "5m"
# 123m 456p 789s 234s 7s, self-drawn 五万 (wild) standing for the second 七条.
CONCEALED = "123m456p789s234s7s"


def open_record(page: Page, link: str, kind: str) -> None:
    page.locator("#tallies .event-actions").get_by_role("link", name=link, exact=True).click()
    expect(page).to_have_url(re.compile(rf"/record\?kind={kind}$"))


def test_house_table_with_a_turned_wild_tile(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    rs = REGISTRY["house"]
    preset = rs.preset("turned")
    assert preset is not None
    params = rs.resolve_params(preset.params)
    assert (params["points"], params["self_draw_multiplier"], params["kong_concealed"]) == (1, 2, 2)

    # ------------------------------------------------------------ start from the home page
    page.goto(live_server.url + "/")
    assert choose_rules(page, "自定义规则").startswith("简单计分")
    choose_rules(page, "自定义规则", "翻牌定癞子")
    # The parameters follow the preset, with their labels from the ruleset.
    expect(page.get_by_label("癞子", exact=True).locator("option:checked")).to_have_text(
        "翻牌定癞子（下一张）"
    )
    fill_players(page)
    assert_no_horizontal_scroll(page)
    snap(page, "start-form")
    session = start_table(page)
    code = session.code
    assert session.ruleset == "house" and session.params == dict(params)
    # The events this table declares: kong, win, drawn game.
    actions = page.locator("#tallies .event-actions").get_by_role("link")
    expect(actions).to_have_text(["记杠", "记和牌", "荒庄"])
    assert_touch_targets(page, ".event-actions .button")
    assert_no_horizontal_scroll(page)

    # ------------------------------------------------------------ 赵六 暗杠, paid at once
    open_record(page, "记杠", "kong")
    press(seat_button(page, "杠牌", PLAYERS[ZHAO]))
    press(page.locator(".ev-kongs").get_by_role("button", name="暗杠", exact=True))
    expect_transfers(page, [(s, ZHAO, 2, "暗杠") for s in (ZHANG, LI, WANG)])
    snap(page, "kong")
    confirm(page, live_server, code, "已记入第 1 局。")
    expect_totals(page, [-2, -2, -2, 6])

    # ------------------------------------------------------------ 李四 self-draws with a wild tile
    open_record(page, "记和牌", "win")
    press(seat_button(page, "和牌者", PLAYERS[LI]))
    press(page.get_by_role("button", name="自摸", exact=True))
    # The first win of the round asks for the turned tile, once.
    expect(page.locator(".ev-result .pk-hint")).to_have_text("请先翻牌定癞子。")
    press(page.locator(".pk-turned").get_by_role("button"))
    grid_tile(page, TURNED).click()
    expect(page.locator(".pk-turned button")).to_contain_text("翻出")
    expect(page.locator(".pk-turned .pk-turned-wild")).to_contain_text("癞子")
    # Every 五万 on the grid is marked wild; nothing else is.
    expect(page.locator(".pk-grid .pk-wild")).to_have_count(1)
    expect(grid_tile(page, WILD)).to_have_class(re.compile(r"\bpk-wild\b"))
    count = page.locator(".pk-hand-count")
    tiles = [tile_str(t) for t in parse_tiles(CONCEALED)] + [WILD]
    for n, t in enumerate(tiles, start=1):
        grid_tile(page, t).click()
        expect(count).to_have_text(f"{n} / 14 张")
    expect(page.locator(".pk-tile-win")).to_have_class(re.compile(r"\bpk-wild\b"))
    result = page.locator(".ev-result")
    expect(result.locator(".pk-fans tbody tr .pk-zh")).to_have_text(["和牌"])
    # 1 point × 2 from each of the other three.
    expect_transfers(page, [(s, LI, 2, "和牌") for s in (ZHANG, WANG, ZHAO)])
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-turned button, .ev-kind button, .rec-seats button, .pk-confirm")
    assert_touch_targets(page, ".pk-grid .pk-tile", min_px=36)
    snap_page_and_screen(page, "win-with-wild")
    confirm(page, live_server, code, "第 1 局结束。")

    # ------------------------------------------------------------ the tallies, checked twice
    totals = [-2 - 2, -2 + 6, -2 - 2, 6 - 2]
    expect_totals(page, totals)
    engine = settle(
        {
            "ruleset": "house",
            "params": dict(params),
            "players": 4,
            "dealer": 0,
            "turned": TURNED,
            "events": [
                {"type": "kong", "player": ZHAO, "kong": "concealed"},
                {"type": "win", "discarder": None,
                 "winners": [{"seat": LI, "hand": {"concealed": CONCEALED, "win_tile": WILD}}]},
            ],
        }
    )  # fmt: skip
    assert engine["ok"] and engine["deltas"] == totals
    rnd = Round.objects.get(session=session)
    assert not rnd.in_progress and rnd.current is not None
    assert rnd.current.entry["turned"] == TURNED
    page.goto(f"{live_server.url}/s/{code}/ledger")
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    assert_no_horizontal_scroll(page)
    snap(page, "ledger")
    assert not page_errors, page_errors
