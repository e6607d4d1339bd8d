"""End-to-end in a real browser: one 四川麻将 血战到底 round at a table of four
phones (360x740, Chinese), event by event.

Start a Sichuan table from the home page; 李四 declares a 暗杠 and 王五 a 直杠 on
赵六's discard, each paid at once (刮风下雨); 李四 then discards a 九条 that 王五
(清一色, tapped on the picker, a kong meld included) and 张三 (对对胡, 一炮多响)
both win on, and the round goes on (血战); at the wall's end 李四 and 赵六 show
their hands: 李四 first as a 花猪, then corrected to 没听牌, 赵六 听牌 on 4p/7p
(查大叫, 退杠钱).  A second phone follows by polling.

Every expected number is worked out here twice: by the engine (`rules.settle`
on the same events, `score`/`waits` for single hands) and by hand from the seed
rules (base 6; 暗杠 2× base from each other player still in; 直杠 1× base from
the discarder; a discard win pays base × 2^(番−1); 花猪 16× base; 查大叫 the
largest value over the ready hand's waits).  The database is a secondary check.
Screenshots: test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import REGISTRY, score, settle, waits
from scorer.models import Round
from tests.support.browser import (
    LI,
    PLAYERS,
    POLL_MS,
    WANG,
    ZHANG,
    ZHAO,
    assert_same_document,
    choose_rules,
    codes,
    confirm,
    expect_totals,
    expect_transfers,
    fill_players,
    grid_tile,
    mark_document,
    press,
    seat_button,
    signed,
    start_table,
    zh,
)
from tests.support.layout import (
    assert_no_horizontal_scroll,
    assert_touch_targets,
    snap,
    snap_page_and_screen,
)

pytestmark = pytest.mark.browser

FIRST_DEALER = LI  # 南家


# --- the round -----------------------------------------------------------------------
# No tile kind more than four times across the hands shown (the 九条 both winners
# win on counts once): 9p ×4 in 李四's 暗杠, 5s ×4 in 王五's 直杠, 9s ×3, 4s ×3, ...
LI_KONG_TILE = "9p"  # 暗杠 (下雨)
WANG_KONG_TILE = "5s"  # 直杠 (刮风) on 赵六's discard
WIN_TILE = "9s"  # 李四's discard: 王五 and 张三 both win on it (一炮多响)
# 王五: 直杠 5s + 123s 678s 678s 9s, on 9s → 123 678 678 99 + kong, 条 only: 清一色.
WANG_CONCEALED = "1236677889s"
# 张三: 222m 666m 888m 444s 9s, on 9s → all pungs: 对对胡.
ZHANG_CONCEALED = "222666888m4449s"
# At the wall's end (13 tiles, no win tile): 李四 holds his 暗杠 9p and ten loose tiles,
# first with a 七条 (three suits: 花猪), then corrected to a 七万 (two suits, 没听牌).
LI_PIG = "135m124578p7s"
LI_NOT_READY = "1357m124578p"
# 赵六: 33 44 55m 44 55 66p 7p → waits 4p (平胡) and 7p (七对).
ZHAO_READY = "334455m4455667p"
# The 退杠钱 of a player not ready, as the pages say it (听牌 / 没听牌 throughout).
REFUND_ZH = "退杠钱（没听牌）"


# --------------------------------------------------------------------------- helpers


def hand_tile(page: Page, code: str) -> Locator:
    return page.locator(".pk-hand-tiles").get_by_role("button", name=zh(code), exact=True)


def tap_tiles(page: Page, tiles: list[str], start: int, size: int) -> None:
    """Tap tiles on the grid; each tap waits for the hand's count to move."""
    count = page.locator(".pk-hand-count")
    for n, code in enumerate(tiles, start=start + 1):
        grid_tile(page, code).click()
        expect(count).to_have_text(f"{n} / {size} 张")


def open_record(page: Page, link: str, kind: str) -> None:
    """记杠 / 记和牌 / 流局 on the session page: the record page opens on that event."""
    page.locator("#tallies .event-actions").get_by_role("link", name=link, exact=True).click()
    expect(page).to_have_url(re.compile(rf"/record\?kind={kind}$"))
    expect(page.locator(".ev-kind button[aria-pressed=true]")).to_have_text(
        {"kong": "杠", "win": "和牌", "wall_end": "流局"}[kind]
    )


def expect_preview_deltas(page: Page, deltas: list[int]) -> None:
    expect(page.locator(".ev-result .pk-deltas li b")).to_have_text([signed(d) for d in deltas])


def assert_face_readable(page: Page, pressed: Locator, like: str) -> None:
    """A chosen kong tile keeps its face's colours (a ring marks it), like another
    tile of its suit: the pressed-button style must not paint its text in the
    page's background colour."""
    colour = "e => getComputedStyle(e).color"
    other = page.locator(".ev-kong-tile").get_by_role("button", name=zh(like), exact=True)
    assert pressed.evaluate(colour) == other.evaluate(colour), (
        pressed.evaluate(colour),
        other.evaluate(colour),
    )


def check_phone_layout(page: Page) -> None:
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".ev-kind button, .rec-seats button, .ev-join, .pk-confirm")


def hand_score(hand: dict[str, Any]) -> dict[str, Any]:
    """The engine's score of one winning hand on a discard (as 四川 with default params)."""
    r = score({"ruleset": "sichuan", **hand})
    assert r["ok"] and r["win"], r
    return r


# --------------------------------------------------------------------------- the round


def test_sichuan_blood_battle_round(
    page: Page, second_page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    rs = REGISTRY["sichuan"]
    params = rs.resolve_params({})
    # The seed's rules (seed 002), which the 血战到底 preset keeps.
    base = params["base"]
    assert base == 6
    assert params["kong_concealed"] == 2 and params["kong_exposed"] == 1
    assert params["pig_multiplier"] == 16
    assert params["blood_battle"] and params["refund_kongs"]

    # ------------------------------------------------------------ 1. start the table
    page.goto(live_server.url + "/")
    # htmx swaps in the Sichuan fields (rule options) of the room's 血战到底.
    choose_rules(page, "四川麻将", "血战到底")
    fill_players(page)
    page.get_by_label("首局庄家").select_option(label="南家")
    assert_no_horizontal_scroll(page)
    snap(page, "start-form")
    session = start_table(page)
    code = session.code
    assert (session.ruleset, session.players, session.first_dealer) == (
        "sichuan",
        PLAYERS,
        FIRST_DEALER,
    )
    assert session.rules.params == params

    seats = page.locator("#tallies li.seat")
    expect(seats.locator(".seat-name")).to_have_text(PLAYERS)
    expect_totals(page, [0, 0, 0, 0])
    expect(seats.nth(LI)).to_have_class(re.compile(r"\bis-dealer\b"))
    actions = page.locator("#tallies .event-actions")
    expect(actions.get_by_role("link")).to_have_text(["记杠", "记和牌", "流局"])
    expect(page.locator("#tallies .live-round")).to_have_count(0)
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".event-actions .button, .actions .button, .session-nav a")
    snap(page, "session-new")

    # The other phone opens the table now and only polls from here on.
    second_page.goto(f"{live_server.url}/s/{code}/")
    expect_totals(second_page, [0, 0, 0, 0])
    mark_document(second_page)

    # ------------------------------------------------------------ 2. two kongs, paid at once
    # 李四 暗杠 (下雨): "下雨立刻收取其他未胡者2倍點數" -- 2 × 6 from each of the three others.
    concealed_kong = 2 * base
    open_record(page, "记杠", "kong")
    expect(page.locator(".ev-round")).to_have_count(0)  # no round yet: this one starts it
    expect(page.locator(".rec-where-line")).to_have_text("新开第 1 局，庄家 李四")
    press(seat_button(page, "杠牌", PLAYERS[LI]))
    expect(page.locator(".ev-result .pk-hint")).to_have_text("哪种杠：直杠、面下杠还是暗杠？")
    press(page.locator(".ev-kongs").get_by_role("button", name="暗杠", exact=True))
    # The tile is optional; tapped, it shows pressed.
    kong_tile = page.locator(".ev-kong-tile").get_by_role(
        "button", name=zh(LI_KONG_TILE), exact=True
    )
    press(kong_tile)
    assert_face_readable(page, kong_tile, "8p")
    expect_transfers(page, [(s, LI, concealed_kong, "下雨（暗杠）") for s in (ZHANG, WANG, ZHAO)])
    expect_preview_deltas(
        page, [-concealed_kong, 3 * concealed_kong, -concealed_kong, -concealed_kong]
    )
    check_phone_layout(page)
    assert_touch_targets(page, ".ev-kongs button")
    assert_touch_targets(page, ".ev-kong-tile .pk-tile", min_px=36)
    snap_page_and_screen(page, "kong-concealed")
    confirm(page, live_server, code, "已记入第 1 局。")
    totals = [-12, 36, -12, -12]
    assert totals == [-concealed_kong, 3 * concealed_kong, -concealed_kong, -concealed_kong]
    expect_totals(page, totals)

    live = page.locator("#tallies .live-round")
    expect(page.locator("#tallies .round-info .live-head")).to_have_text("第 1 局 · 进行中")
    # 四川 has no 圈风: the round is said by its number and dealer, no "东风圈".
    expect(page.locator("#tallies .round-info .next-hand")).to_have_text("庄家 李四")
    expect(live.locator("h2")).to_have_text("第 1 局到目前为止")
    events = live.locator(".events > li")
    expect(events.locator(".ev-text")).to_have_text(["李四 暗杠 · 九筒"])
    expect(events.nth(0).locator(".ev-pay")).to_have_text(["张三、王五、赵六 各付 12"])
    expect(page.locator("#tallies .undo-event summary")).to_have_text("撤销上一步")
    snap(page, "session-after-kong")

    # The second phone picks the kong up by polling, without a reload.
    expect_totals(second_page, totals, timeout=POLL_MS)
    expect(second_page.locator("#tallies .live-round .ev-text")).to_have_text(["李四 暗杠 · 九筒"])
    assert_same_document(second_page)

    # 王五 直杠 on 赵六's discard (刮风): "直杠,立刻收取引杠者1倍點數" -- 6 from 赵六 alone.
    exposed_kong = 1 * base
    open_record(page, "记杠", "kong")
    expect(page.locator(".ev-round")).to_have_text("第 1 局 · 已记 1 项 · 庄家 李四")
    press(seat_button(page, "杠牌", PLAYERS[WANG]))
    press(page.locator(".ev-kongs").get_by_role("button", name="直杠", exact=True))
    expect(page.locator(".ev-result .pk-hint")).to_have_text("直杠杠的是谁打出的牌？")
    # 王五 cannot be his own discarder: he is not in the row.
    kong_from = page.get_by_role("group", name="引杠", exact=True).get_by_role("button")
    expect(kong_from).to_have_text([PLAYERS[s] for s in (ZHANG, LI, ZHAO)])
    press(seat_button(page, "引杠", PLAYERS[ZHAO]))
    kong_tile = page.locator(".ev-kong-tile").get_by_role(
        "button", name=zh(WANG_KONG_TILE), exact=True
    )
    press(kong_tile)
    assert_face_readable(page, kong_tile, "4s")
    expect_transfers(page, [(ZHAO, WANG, exposed_kong, "刮风（直杠）")])
    expect_preview_deltas(page, [0, 0, exposed_kong, -exposed_kong])
    check_phone_layout(page)
    snap(page, "kong-exposed")
    confirm(page, live_server, code, "已记入第 1 局。")
    totals = [-12, 36, -6, -18]
    expect_totals(page, totals)
    expect(events.locator(".ev-text")).to_have_text(
        ["李四 暗杠 · 九筒", "王五 直杠，赵六 点杠 · 五条"]
    )
    expect(events.nth(1).locator(".ev-pay")).to_have_text(["赵六 → 王五 6"])

    # ------------------------------------------------------------ 3. two winners on one discard
    wang_hand = {
        "concealed": WANG_CONCEALED,
        "win_tile": WIN_TILE,
        "melds": [{"type": "kong", "tiles": WANG_KONG_TILE * 4}],
    }
    zhang_hand = {"concealed": ZHANG_CONCEALED, "win_tile": WIN_TILE}
    wang_score, zhang_score = hand_score(wang_hand), hand_score(zhang_hand)
    # By hand: 清一色 3 番 → 6 × 2^2 = 24; 对对胡 2 番 → 6 × 2 = 12 (the kong is no 根 in 血战).
    assert [f["name_zh"] for f in wang_score["fans"]] == ["清一色"]
    assert (wang_score["total"], wang_score["value"]) == (3, base * 2 ** (3 - 1)) == (3, 24)
    assert [f["name_zh"] for f in zhang_score["fans"]] == ["对对胡"]
    assert (zhang_score["total"], zhang_score["value"]) == (2, base * 2 ** (2 - 1)) == (2, 12)

    # 王五 wins on 李四's 九条: his kong (recorded with its tile, so already in the
    # hand once he is the winner), then the tiles, the 九条 last.
    open_record(page, "记和牌", "win")
    expect(page.locator(".ev-round")).to_have_text("第 1 局 · 已记 2 项 · 庄家 李四")
    expect(page.locator(".ev-join")).to_have_count(0)  # no win yet to join
    press(seat_button(page, "和牌者", PLAYERS[WANG]))
    press(seat_button(page, "自摸或放炮者", PLAYERS[LI]))
    mark_document(page)
    expect(page.locator(".pk-hand-count")).to_have_text("3 / 14 张")
    expect(page.locator(".pk-melds .pk-meld-name")).to_have_text("直杠")
    expect(page.locator(".ev-kong-warn")).to_have_count(0)
    tap_tiles(page, [*codes(WANG_CONCEALED), WIN_TILE], 3, 14)
    result = page.locator(".ev-result")
    expect(page.locator(".pk-tile-win")).to_have_attribute(
        "aria-label", f"{zh(WIN_TILE)} 和 (和牌张)"
    )
    rows = result.locator(".pk-fans tbody tr")
    expect(rows.locator(".pk-zh")).to_have_text([f["name_zh"] for f in wang_score["fans"]])
    expect(rows.locator(".pk-en")).to_have_text([f["name_en"] for f in wang_score["fans"]])
    expect(result.locator(".pk-total")).to_have_text(str(wang_score["total"]))
    expect(page.locator(".pk-bar-total")).to_have_text(f"{wang_score['total']} 番 · 赢 24 分")
    expect_transfers(page, [(LI, WANG, 24, "点炮")])
    expect_preview_deltas(page, [0, -24, 24, 0])
    assert_same_document(page)  # every tap was an htmx swap
    check_phone_layout(page)
    assert_touch_targets(page, ".pk-tools button")
    assert_touch_targets(page, ".pk-grid .pk-tile", min_px=36)
    snap_page_and_screen(page, "win-wang")
    confirm(page, live_server, code, "已记入第 1 局。")
    totals = [-12, 12, 18, -18]
    expect_totals(page, totals)
    expect(events.nth(2).locator(".ev-text")).to_have_text("王五 和牌，李四 放炮 · 清一色 3 番")
    expect(seats.nth(WANG)).to_have_class(re.compile(r"\bis-out\b"))
    expect(seats.nth(WANG).locator(".out-mark")).to_have_text("已和")
    expect(page.locator("#tallies .live-out")).to_have_text("已和：王五。其余玩家继续打。")

    # 张三 wins on the same discard: 一炮多响.
    open_record(page, "记和牌", "win")
    winners = page.get_by_role("group", name="和牌者", exact=True)
    expect(winners.get_by_role("button", name=re.compile("^王五"))).to_be_disabled()
    expect(winners.get_by_role("button", name=re.compile("^王五"))).to_contain_text("已和")
    join = page.locator(".ev-join")
    expect(join).to_contain_text("一炮多响：也和这张炮")
    expect(join.locator("small")).to_contain_text("李四")
    expect(join.locator("small")).to_contain_text("王五")
    press(join)
    expect(seat_button(page, "自摸或放炮者", PLAYERS[LI])).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="自摸", exact=True)).to_be_disabled()
    press(seat_button(page, "和牌者", PLAYERS[ZHANG]))
    # The four 五条 of 王五's 直杠 are in a hand already shown this round: none is left.
    expect(grid_tile(page, WANG_KONG_TILE)).to_have_class(re.compile(r"\bpk-dim\b"))
    expect(grid_tile(page, WIN_TILE)).not_to_have_class(re.compile(r"\bpk-dim\b"))
    # His winning tile is the discard, there from the start and fixed: the page asks
    # for his other tiles only (no 和牌张 tool, no waits to pick from).
    hand_win = page.locator(".pk-hand-tiles .pk-tile-win")
    expect(hand_win).to_have_count(1)
    expect(hand_win).to_have_attribute("aria-label", re.compile(f"^{zh(WIN_TILE)} 和"))
    expect(page.locator('.pk-tools button[value="tool:win"]')).to_have_count(0)
    tap_tiles(page, codes(ZHANG_CONCEALED), 1, 14)
    expect(page.locator(".pk-waits")).to_have_count(0)
    rows = result.locator(".pk-fans tbody tr")
    expect(rows.locator(".pk-zh")).to_have_text(["对对胡"])
    expect(result.locator(".pk-total")).to_have_text(str(zhang_score["total"]))
    # Only this winner's own payment: the discarder pays each winner.
    expect_transfers(page, [(LI, ZHANG, 12, "点炮")])
    expect_preview_deltas(page, [12, -12, 0, 0])
    check_phone_layout(page)
    snap(page, "win-zhang-joins")
    confirm(page, live_server, code, "已记入第 1 局。")
    totals = [0, 0, 18, -18]
    expect_totals(page, totals)
    expect(events).to_have_count(3)  # merged into the last win
    expect(events.nth(2).locator(".ev-text")).to_have_text("王五、张三 和牌，李四 放炮（一炮多响）")
    # Each winner's fans, then the working of what he was paid (rules/working.py).
    expect(events.nth(2).locator(".ev-line")).to_have_text(
        ["王五 清一色 3 番", "李四：底分 6 × 2² = 24", "张三 对对胡 2 番", "李四：底分 6 × 2 = 12"]
    )
    expect(page.locator("#tallies .out-mark")).to_have_count(2)
    expect(seats.nth(ZHANG).locator(".out-mark")).to_have_text("已和")
    # 血战: two have won, two play on.
    expect(page.locator("#tallies .round-info .live-head")).to_have_text("第 1 局 · 进行中")
    expect(page.locator("#tallies .live-out")).to_have_text("已和：王五、张三。其余玩家继续打。")
    rnd = Round.objects.get(session=session)
    assert rnd.in_progress and rnd.current is not None
    assert rnd.current.result["out"] == [WANG, ZHANG]
    assert_no_horizontal_scroll(page)
    snap(page, "session-two-out")

    # A fresh load of the other phone shows the round in progress as it is now.
    second_page.reload()
    expect_totals(second_page, totals)
    expect(second_page.locator("#tallies .live-round .events > li")).to_have_count(3)
    expect(second_page.locator("#tallies .out-mark")).to_have_count(2)
    expect(second_page.locator("#tallies .live-out")).to_contain_text("王五、张三")
    mark_document(second_page)

    # ------------------------------------------------------------ 4. the wall runs out
    zhao_waits = waits({"ruleset": "sichuan", "concealed": ZHAO_READY})
    assert zhao_waits["ok"] and zhao_waits["waits"] == ["4p", "7p"], zhao_waits
    # 查大叫: the largest value over the waits ("最大的可能番"): 7p makes 七对 3 番 = 24,
    # 4p only 平胡 1 番 = 6.
    values = {
        w: hand_score({"concealed": ZHAO_READY, "win_tile": w})["value"]
        for w in zhao_waits["waits"]
    }
    assert values == {"4p": base * 2**0, "7p": base * 2**2}
    claim = max(values.values())
    assert claim == 24
    pig = params["pig_multiplier"] * base
    assert pig == 96

    open_record(page, "流局", "wall_end")
    expect(page.locator(".ev-round")).to_have_text("第 1 局 · 已记 3 项 · 庄家 李四")
    wall_seats = page.get_by_role("group", name="手牌", exact=True).get_by_role("button")
    expect(wall_seats).to_have_count(4)
    for s in (ZHANG, WANG):
        expect(wall_seats.nth(s)).to_be_disabled()
        expect(wall_seats.nth(s)).to_contain_text("已和")
    # 李四, the first still in, is shown first; the picker has no 和牌张 tool. His
    # 暗杠, recorded as the round's first event with its tile, is in his hand already.
    expect(wall_seats.nth(LI)).to_have_attribute("aria-pressed", "true")
    expect(wall_seats.nth(LI)).to_contain_text("3/13")
    expect(page.locator(".pk-tools").get_by_role("button", name="和牌张")).to_have_count(0)
    expect(page.locator(".pk-hand-count")).to_have_text("3 / 13 张")
    expect(page.locator(".pk-melds .pk-meld")).to_have_count(1)
    expect(page.locator(".pk-melds .pk-meld")).to_contain_text("暗杠")
    expect(page.locator(".ev-kong-warn")).to_have_count(0)
    mark_document(page)

    # 李四: ten tiles of three suits besides the 暗杠 -- a 花猪 at first.
    tap_tiles(page, codes(LI_PIG), 3, 13)
    expect(page.locator(".pk-tile-win")).to_have_count(0)
    expect(result.locator(".pk-hint")).to_have_text("还要填这几家的手牌（每家 13 张）：赵六。")
    expect(wall_seats.nth(LI)).to_contain_text("13/13")

    # 赵六's hand.
    press(wall_seats.nth(ZHAO))
    expect(page.locator(".pk-hand-count")).to_have_text("0 / 13 张")
    expect(result.locator(".pk-hint")).to_have_text("点选赵六的手牌：还差 13 张。")
    tap_tiles(page, codes(ZHAO_READY), 0, 13)

    # Both hands in: 李四 花猪, 赵六 听牌 (大叫 24 on 七筒).
    checks = result.locator(".ev-checks li")
    expect(checks.locator(".ev-check-name")).to_have_text([PLAYERS[LI], PLAYERS[ZHAO]])
    expect(checks.locator(".ev-status")).to_have_text(["花猪", "听牌"])
    expect(checks.nth(1).locator(".ev-check-waits .pk-tile")).to_have_count(2)
    expect(checks.nth(1).locator(".ev-check-waits .pk-tile").nth(0)).to_have_attribute(
        "aria-label", zh("4p")
    )
    expect(checks.nth(1).locator(".ev-check-waits .pk-tile").nth(1)).to_have_attribute(
        "aria-label", zh("7p")
    )
    expect(checks.nth(1).locator(".ev-claim")).to_have_text(f"大叫 {claim}")
    expect(wall_seats.nth(LI)).to_contain_text("花猪")
    expect(wall_seats.nth(ZHAO)).to_contain_text("听牌")
    # 查花猪: 16 × 6 to the one non-pig still in; 退杠钱: 李四 returns his 暗杠's 12 to each payer.
    # One term for readiness on every page: 没听牌.
    refunds = [(LI, s, concealed_kong, REFUND_ZH) for s in (ZHANG, WANG, ZHAO)]
    expect_transfers(page, [(LI, ZHAO, pig, "查花猪"), *refunds])
    expect_preview_deltas(page, [12, -(pig + 36), 12, pig + 12])
    check_phone_layout(page)
    assert_touch_targets(page, ".pk-tools button")
    snap_page_and_screen(page, "wall-end-pig")

    # Back to 李四: the 七条 was really a 七万 -- two suits, not ready.
    press(wall_seats.nth(LI))
    expect(page.locator(".pk-hand-count")).to_have_text("13 / 13 张")
    hand_tile(page, "7s").click()
    expect(page.locator(".pk-hand-count")).to_have_text("12 / 13 张")
    grid_tile(page, "7m").click()
    expect(page.locator(".pk-hand-count")).to_have_text("13 / 13 张")
    expect(checks.locator(".ev-status")).to_have_text(["没听牌", "听牌"])
    expect(wall_seats.nth(LI)).to_contain_text("没听牌")
    # 查大叫: the not-ready player pays the ready one his largest claim; 退杠钱 as before.
    expect_transfers(page, [(LI, ZHAO, claim, "查大叫"), *refunds])
    expect_preview_deltas(page, [12, -(claim + 36), 12, claim + 12])
    assert_same_document(page)
    check_phone_layout(page)
    snap(page, "wall-end-not-ready")
    confirm(page, live_server, code, "第 1 局结束。")

    # ------------------------------------------------------------ 5. the round's money
    # The engine, on the same events as the form sent them.
    engine = settle(
        {
            "ruleset": "sichuan",
            "players": 4,
            "events": [
                {"type": "kong", "player": LI, "kong": "concealed", "tile": LI_KONG_TILE},
                {
                    "type": "kong",
                    "player": WANG,
                    "kong": "exposed",
                    "discarder": ZHAO,
                    "tile": WANG_KONG_TILE,
                },
                {
                    "type": "win",
                    "discarder": LI,
                    "winners": [
                        {"seat": WANG, "hand": wang_hand},
                        {"seat": ZHANG, "hand": zhang_hand},
                    ],
                },
                {
                    "type": "wall_end",
                    "hands": [
                        {
                            "seat": LI,
                            "concealed": LI_NOT_READY,
                            "melds": [
                                {"type": "kong", "tiles": LI_KONG_TILE * 4, "exposed": False}
                            ],
                        },
                        {"seat": ZHAO, "concealed": ZHAO_READY},
                    ],
                },
            ],
        }
    )
    assert engine["ok"] and engine["finished"], engine
    # By hand, seat by seat (张三, 李四, 王五, 赵六):
    by_hand = [
        -concealed_kong + 12 + concealed_kong,  # 暗杠, 对对胡 12 from 李四, refund
        3 * concealed_kong - 24 - 12 - claim - 3 * concealed_kong,  # collects, pays, refunds
        -concealed_kong + exposed_kong + 24 + concealed_kong,
        -concealed_kong - exposed_kong + claim + concealed_kong,
    ]
    assert by_hand == engine["deltas"] == [12, -60, 30, 18], (by_hand, engine["deltas"])
    final = engine["deltas"]

    expect_totals(page, final)
    expect(page.locator("#tallies .live-round")).to_have_count(0)
    expect(page.locator("#tallies .out-mark")).to_have_count(0)
    expect(page.locator("#tallies .round-info")).to_contain_text("已打 1 局")
    expect(page.locator("#tallies .round-info .next-hand")).to_have_text("下一局：庄家 王五")
    expect(page.locator("#tallies")).not_to_contain_text("风圈")
    # The round just over stays, folded, until the next one starts: its four events,
    # the last of them what 撤销上一步 would take back.
    last = page.locator("#tallies .last-round")
    expect(last).to_have_count(1)
    expect(last).not_to_have_attribute("open", "")
    expect(last.locator("summary")).to_have_text("上一局（第 1 局）")
    expect(last.locator(".events > li")).to_have_count(4)
    expect(last.locator(".events > li").nth(3)).not_to_be_visible()
    last.locator("summary").click()
    last_events = last.locator(".events > li")
    expect(last_events.nth(3)).to_be_visible()
    expect(last_events.locator(".ev-text")).to_have_text(
        [
            "李四 暗杠 · 九筒",
            "王五 直杠，赵六 点杠 · 五条",
            "王五、张三 和牌，李四 放炮（一炮多响）",
            "流局",
        ]
    )
    expect(last_events.nth(3).locator(".ev-line")).to_have_text(
        ["李四 没听牌", "赵六 听牌（和七筒最大，3 番）"]
    )
    expect(last.locator(".last-round-deltas")).to_have_text(
        "本局得失 " + " · ".join(f"{n} {signed(d)}" for n, d in zip(PLAYERS, final, strict=True))
    )
    expect(page.locator("#tallies .undo-event form")).to_contain_text("第 1 局")
    # 血战: "每局投骰", the next seat is proposed to deal.
    expect(seats.nth(WANG)).to_have_class(re.compile(r"\bis-dealer\b"))
    assert_no_horizontal_scroll(page)
    snap(page, "session-round-over")
    expect_totals(second_page, final, timeout=POLL_MS)
    expect(second_page.locator("#tallies .live-round")).to_have_count(0, timeout=POLL_MS)
    expect(second_page.locator("#tallies .last-round summary")).to_have_text("上一局（第 1 局）")
    assert_same_document(second_page)
    snap(second_page, "second-phone-round-over")

    # The database agrees (secondary).
    rnd = Round.objects.get(session=session)
    assert not rnd.in_progress and rnd.status == Round.ACTIVE
    assert rnd.current is not None
    assert rnd.current.deltas == final
    assert rnd.current.result["transfers"] == engine["transfers"]
    assert [e["type"] for e in rnd.current.entry["events"]] == ["kong", "kong", "win", "wall_end"]

    # The ledger: one round, its deltas, the totals; opened, every transfer and why.
    page.locator(".actions").get_by_role("link", name="账本").click()
    expect(page.locator("h1")).to_have_text("账本")
    expect(page.locator(".ledger-round")).to_have_count(1)
    row = page.locator("#round-1")
    expect(row.locator("summary .delta")).to_have_text([signed(d) for d in final])
    expect(row.locator("summary .sum")).to_have_text([signed(d) for d in final])
    expect(row.locator(".ledger-live")).to_have_count(0)
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(d) for d in final])
    row.locator("summary").click()
    detail = row.locator(".round-detail")
    expect(detail.locator(".round-events > li")).to_have_count(4)
    expect(detail.locator(".ev-transfers li")).to_have_count(len(engine["transfers"]))
    for t, item in zip(engine["transfers"], detail.locator(".ev-transfers li").all(), strict=True):
        expect(item.locator(".ev-move")).to_have_text(
            f"{PLAYERS[t['from']]} → {PLAYERS[t['to']]} {t['amount']}"
        )
        expect(item.locator(".ev-why [lang=zh-Hans]")).to_have_text(
            REFUND_ZH if t["reason"] == "kong_refund" else t["reason_zh"]
        )
    expect(detail.locator(".round-events > li").nth(3).locator(".ev-line")).to_have_text(
        ["李四 没听牌", "赵六 听牌（和七筒最大，3 番）"]
    )
    expect(detail.locator(".meta")).to_have_text("第 1 局 · 庄家 李四")
    assert_no_horizontal_scroll(page)
    snap(page, "ledger-round")
    assert not page_errors, page_errors
