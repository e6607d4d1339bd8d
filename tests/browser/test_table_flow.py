"""End-to-end in a real browser: a table of four on 360x740 phones, in Chinese.

Start a session from the home page; record an MCR round by tapping tiles in
the picker while the live preview (htmx) follows every tap; confirm; a second
phone follows the totals by polling; undo through the confirm step; quick
entry (选番) and a drawn hand (荒庄) in the ledger with its running sums.

Every expected number comes from the rule engine (`rules.score` for the tiles,
the ruleset's `quick_score` for picked fans), worked out here from the
situation itself, never read from the page; the database is read only to
cross-check what was recorded.  Screenshots: test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from rules import get_ruleset, score, waits
from rules.hand import Table
from rules.tiles import parse_tile, parse_tiles, tile_zh, tiles_str
from scorer.models import GameSession, Round
from tests.factories import make_table
from tests.support.browser import (
    PLAYERS,
    POLL_MS,
    TAPS,
    assert_same_document,
    choose_rules,
    expect_totals,
    fill_players,
    grid_tile,
    mark_document,
    seat_totals,
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

WINDS = "ESWN"

# The form sends the standing tiles sorted and compact: "111222333m456p7z".
CONCEALED, WIN_TILE = tiles_str(sorted(parse_tiles("".join(TAPS[:13])))), TAPS[13]


# --------------------------------------------------------------------------- helpers


def session_url(live_server: LiveServer, session: GameSession) -> str:
    return f"{live_server.url}/s/{session.code}/"


def make_session(first_dealer: int = 0) -> GameSession:
    return make_table("mcr", PLAYERS, first_dealer=first_dealer)


def tile_situation(dealer: int, winner: int, discarder: int | None, wind: str = "E") -> dict:
    """The situation of the TAPS hand won by `winner`, as the engine's contract spells it."""
    return {
        "ruleset": "mcr",
        "concealed": CONCEALED,
        "win_tile": WIN_TILE,
        "self_drawn": discarder is None,
        "seat_wind": WINDS[(winner - dealer) % 4],
        "prevalent_wind": wind,
        "table": {"players": 4, "dealer": dealer, "winner": winner, "discarder": discarder},
    }


def tile_entry(dealer: int, winner: int, discarder: int | None) -> dict:
    """The same round as the record form would send it (for rounds set up via the ORM)."""
    return {
        "kind": "win",
        "mode": "tiles",
        "winner": winner,
        "discarder": discarder,
        "dealer": dealer,
        "prevalent_wind": "E",
        "hand": {"concealed": CONCEALED, "win_tile": WIN_TILE},
    }


def preview_signed(n: int) -> str:
    """How the record page's preview prints one: "+8", "−53" (a real minus sign), "0"."""
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def seat_group(page: Page, legend: str) -> Locator:
    return page.get_by_role("group", name=legend)


def undo_last_round(page: Page, number: int) -> None:
    """The session page's undo: open the box, read the question, say yes."""
    page.locator("#tallies .undo-box summary").click()
    expect(
        page.get_by_text(
            f"撤销第 {number} 局？撤销后不再计分；账本里点“显示已撤销的局”可以看到它（划掉显示）。"
        )
    ).to_be_visible()
    page.get_by_role("button", name=f"确认撤销第 {number} 局").click()
    expect(page.locator(".messages")).to_contain_text(f"已撤销第 {number} 局")


def record_quick_round(page: Page, winner: int, discarder: int | None, fans: list[str]) -> None:
    """On the record page: pick the winner, 自摸/discarder and fans by name, then confirm."""
    page.get_by_role("button", name="选番").click()
    expect(page.get_by_role("button", name="选番")).to_have_attribute("aria-pressed", "true")
    pick_winner(page, winner, discarder)
    for name in fans:
        fan = page.locator(".pk-quick").get_by_role("button", name=re.compile(f"^{name}"))
        fan.click()
        expect(fan).to_contain_text("×1")
    expect(page.locator(".pk-confirm")).to_be_enabled()
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/$"))


def pick_winner(page: Page, winner: int, discarder: int | None) -> None:
    win_button = seat_group(page, "和牌者").get_by_role(
        "button", name=re.compile(f"^{PLAYERS[winner]}")
    )
    win_button.click()
    expect(win_button).to_have_attribute("aria-pressed", "true")
    source = seat_group(page, "自摸或放炮者").get_by_role(
        "button", name="自摸" if discarder is None else PLAYERS[discarder], exact=True
    )
    source.click()
    expect(source).to_have_attribute("aria-pressed", "true")


# --------------------------------------------------------------------------- 1. start a table


def test_start_a_table_from_the_home_page(
    page: Page, live_server: LiveServer, page_errors: list[str]
) -> None:
    page.goto(live_server.url + "/")

    assert choose_rules(page, "国标麻将") == "国标麻将"  # the ruleset's defaults
    fill_players(page)
    page.get_by_label("首局庄家").select_option(label="南家")
    session = start_table(page)
    code = session.code
    assert (session.ruleset, session.players, session.first_dealer) == ("mcr", PLAYERS, 1)

    # Four seats in play order; 李四 (seat 1) deals first, so he sits East.
    seats = page.locator("#tallies li.seat")
    expect(seats).to_have_count(4)
    expect(seats.locator(".seat-name")).to_have_text(PLAYERS)
    expect(seats.locator(".seat-wind")).to_have_text(["北", "东", "南", "西"])
    expect(seat_totals(page)).to_have_text(["0", "0", "0", "0"])
    expect(seats.nth(1)).to_have_class(re.compile(r"\bis-dealer\b"))
    expect(seats.nth(1).locator(".dealer-mark")).to_have_text("庄")
    expect(page.locator(".dealer-mark")).to_have_count(1)
    expect(page.locator("#tallies .round-info")).to_contain_text("还没有开打")
    expect(page.locator("#tallies .round-info")).to_contain_text("下一局：东风圈，庄家 李四")
    # No round yet: nothing to undo.
    expect(page.locator("#tallies .undo-box")).to_have_count(0)
    # The share box is open on a new table: the link and its QR code.
    expect(page.locator("#share-url")).to_have_value(re.compile(rf"/s/{re.escape(code)}/$"))
    expect(page.locator("img.qr")).to_be_visible()

    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".actions .button")
    assert_touch_targets(page, ".session-nav a")
    assert_touch_targets(page, ".share summary")
    snap(page, "session-new")
    assert not page_errors, page_errors


# --------------------------------------------------------------------------- 2-3. the tile picker


def test_record_an_mcr_round_by_tapping_tiles(page: Page, live_server: LiveServer) -> None:
    dealer, winner, discarder = 1, 2, 0  # 李四 deals, 王五 wins on 张三's discard
    session = make_session(first_dealer=dealer)
    expected = score(tile_situation(dealer, winner, discarder))
    assert expected["ok"] and expected["win"] and expected["total"] >= 8, expected
    fan_names = {f["name_zh"] for f in expected["fans"]}
    assert "一色三节高" in fan_names, fan_names

    page.goto(session_url(live_server, session))
    page.locator(".actions").get_by_role("link", name="记一局").click()
    expect(page).to_have_url(re.compile(r"/record$"))
    expect(page.locator("h1")).to_have_text("记一局")
    # The dealer and wind the session proposes are preselected.
    expect(page.locator('select[name="dealer"]')).to_have_value(str(dealer))
    expect(page.locator('select[name="wind"]')).to_have_value("E")
    snap(page, "record-open-screen", full_page=False)  # the first screen the phone shows

    # From here on every tap is an htmx request that swaps the form's inside.
    mark_document(page)
    previews: list[dict[str, str]] = []
    page.on(
        "request",
        lambda r: previews.append(r.headers) if r.url.endswith("/record/preview") else None,
    )
    navigations: list[str] = []
    page.on("framenavigated", lambda f: navigations.append(f.url) if f == page.main_frame else None)

    pick_winner(page, winner, discarder)
    expect(page.locator(".rec-seatwind")).to_have_text("门风 南")

    count = page.locator(".pk-hand-count")
    hand_tiles = page.locator(".pk-hand-tiles .pk-tile")
    result = page.locator(".pk-result")
    for n, code in enumerate(TAPS, start=1):
        grid_tile(page, code).click()
        expect(count).to_have_text(f"{n} / 14 张")
        expect(hand_tiles).to_have_count(n)
        if n < 13:
            expect(result.locator(".pk-hint")).to_have_text(f"点选和牌的牌：还差 {14 - n} 张。")
            expect(page.locator(".pk-confirm")).to_be_disabled()
        if n == 13:
            # One tile short: the engine's waits, as tiles to tap.
            w = waits({"ruleset": "mcr", "concealed": CONCEALED})
            assert w["ok"] and "7z" in w["waits"], w
            expect(result.locator(".pk-hint")).to_have_text("听牌了：点和的那张牌。")
            expect(result.locator(".pk-waits h2")).to_have_text("听牌")
            expect(result.locator(".pk-waits .pk-tile")).to_have_count(len(w["waits"]))
            for i, wait in enumerate(w["waits"]):
                expect(result.locator(".pk-waits .pk-tile").nth(i)).to_have_attribute(
                    "aria-label", tile_zh(parse_tile(wait))
                )
            expect(result.locator(".pk-fans")).to_have_count(0)
            assert_no_horizontal_scroll(page)
            snap(page, "picker-13-tiles-waits")
            snap(page, "picker-13-tiles-screen", full_page=False)

    # 14 tiles: the fans (Chinese and English), the total, who pays whom.
    rows = result.locator(".pk-fans tbody tr")
    expect(rows).to_have_count(len(expected["fans"]))
    for i, fan in enumerate(expected["fans"]):
        expect(rows.nth(i).locator(".pk-zh")).to_have_text(fan["name_zh"])
        expect(rows.nth(i).locator(".pk-en")).to_have_text(fan["name_en"])
        pts = str(fan["points"]) + (f" ×{fan['count']}" if fan["count"] > 1 else "")
        expect(rows.nth(i).locator(".pk-pts")).to_have_text(pts)
    expect(result.get_by_role("row", name=re.compile("一色三节高"))).to_contain_text(
        "Pure Shifted Pungs"
    )
    expect(result.locator(".pk-total")).to_have_text(str(expected["total"]))
    # The fans, and what the win brings its winner (the points that move to him).
    gain = expected["deltas"][winner]
    expect(page.locator(".pk-bar-total")).to_have_text(f"{expected['total']} 番 · 赢 {gain} 分")
    expect(result.locator(".pk-deltas li b")).to_have_text(
        [preview_signed(d) for d in expected["deltas"]]
    )
    expect(result.locator(".pk-payments li")).to_have_count(len(expected["payments"]))
    for pay in expected["payments"]:
        line = f"{PLAYERS[pay['from']]} 付给 {PLAYERS[pay['to']]} {pay['amount']}"
        expect(result.locator(".pk-payments li", has_text=line)).to_have_count(1)
    # The last tile tapped stands apart as the winning tile.
    expect(page.locator(".pk-tile-win")).to_have_attribute("aria-label", "中 和 (和牌张)")
    expect(page.locator(".pk-confirm")).to_be_enabled()

    # All of that came through htmx: 2 seat taps + 14 tiles, no page load.
    assert_same_document(page)
    assert navigations == [], navigations
    assert len(previews) == 16, len(previews)
    assert all(h.get("hx-request") == "true" for h in previews)

    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".rec-kind button, .rec-seats button, .rec-tabs button")
    assert_touch_targets(page, ".pk-tools button, .pk-flags button, .pk-confirm")
    # Nine tiles a row cannot be 44 px wide on a 360 px screen; 36 px is the floor here.
    assert_touch_targets(page, ".pk-grid .pk-tile", min_px=36)
    snap_page_and_screen(page, "picker-result")  # what the thumb sees after tile 14

    # 确认: back on the session page with the engine's numbers in the right seats.
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(session_url(live_server, session))
    expect_totals(page, expected["deltas"])
    seats = page.locator("#tallies li.seat")
    expect(seats.locator(".seat-name")).to_have_text(PLAYERS)
    expect(seats.nth(winner).locator(".total")).to_have_class(re.compile(r"\bpos\b"))
    expect(seats.nth(discarder).locator(".total")).to_have_class(re.compile(r"\bneg\b"))
    expect(page.locator("#tallies .round-info")).to_contain_text("已打 1 局")
    # MCR passes the deal on (连庄 off by default): 王五 deals next and sits East.
    expect(seats.nth(2)).to_have_class(re.compile(r"\bis-dealer\b"))
    expect(seats.locator(".seat-wind")).to_have_text(["西", "北", "东", "南"])

    rnd = Round.objects.get(session=session)
    assert rnd.number == 1 and rnd.status == Round.ACTIVE
    assert rnd.current is not None and rnd.current.entry["hand"] == {
        "concealed": CONCEALED,
        "win_tile": WIN_TILE,
    }
    assert rnd.current is not None and rnd.current.deltas == expected["deltas"]
    assert rnd.current.result["total"] == expected["total"]

    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".actions .button, #tallies .undo-box summary")
    snap(page, "session-after-round")


# --------------------------------------------------------------------------- 4. a second phone


def test_second_phone_follows_by_polling(
    page: Page, second_page: Page, live_server: LiveServer
) -> None:
    session = make_session(first_dealer=0)
    rs = get_ruleset("mcr")
    # 李四 wins self-drawn with 碰碰和 + 混一色 (12 fans), 张三 dealing.
    expected = rs.quick_score({48: 1, 49: 1}, 0, Table(4, 0, 1, None), True, rs.resolve_params({}))
    assert expected["win"]

    second_page.goto(session_url(live_server, session))
    expect_totals(second_page, [0, 0, 0, 0])
    mark_document(second_page)
    polls: list[int] = []
    second_page.on("response", lambda r: polls.append(r.status) if "/tallies" in r.url else None)

    page.goto(session_url(live_server, session))
    page.locator(".actions").get_by_role("link", name="记一局").click()
    record_quick_round(page, winner=1, discarder=None, fans=["碰碰和", "混一色"])
    expect_totals(page, expected["deltas"])

    # The other phone picks it up by polling, without a reload.
    expect_totals(second_page, expected["deltas"], timeout=POLL_MS)
    expect(second_page.locator("#tallies .round-info")).to_contain_text("已打 1 局")
    expect(second_page.locator("#tallies .undo-box summary")).to_have_text("撤销")
    assert_same_document(second_page)
    snap(second_page, "second-phone-after-round")

    undo_last_round(page, 1)
    expect_totals(page, [0, 0, 0, 0])

    expect_totals(second_page, [0, 0, 0, 0], timeout=POLL_MS)
    expect(second_page.locator("#tallies .round-info")).to_contain_text("还没有开打")
    expect(second_page.locator("#tallies .undo-box")).to_have_count(0)
    assert_same_document(second_page)
    # Unchanged polls are answered 304 and leave the page alone.
    assert 200 in polls, polls
    assert set(polls) <= {200, 304}, polls


# --------------------------------------------------------------------------- 5. undo and the ledger


def test_undo_then_the_ledger_strikes_the_round_through(
    page: Page, live_server: LiveServer
) -> None:
    session = make_session(first_dealer=0)
    expected = score(tile_situation(0, 2, 3))
    session.record_round(uuid.uuid4(), tile_entry(0, 2, 3), "测试")

    page.goto(session_url(live_server, session))
    expect_totals(page, expected["deltas"])

    box = page.locator("#tallies .undo-box")
    expect(box.get_by_role("button", name="确认撤销第 1 局")).to_be_hidden()
    box.locator("summary").click()
    expect(box.get_by_role("button", name="确认撤销第 1 局")).to_be_visible()
    assert_touch_targets(page, "#tallies .undo-box summary, #tallies .undo-box button")
    assert_no_horizontal_scroll(page)
    snap(page, "undo-confirm-step")
    # Still nothing undone until "yes".
    assert Round.objects.get(session=session).status == Round.ACTIVE

    box.get_by_role("button", name="确认撤销第 1 局").click()
    expect(page.locator(".messages")).to_have_text(
        "已撤销第 1 局，不再计分。账本里点“显示已撤销的局”可以看到它（划掉显示）。"
    )
    expect_totals(page, [0, 0, 0, 0])
    expect(page.locator("#tallies .undo-box")).to_have_count(0)
    assert Round.objects.get(session=session).status == Round.UNDONE
    snap(page, "session-after-undo")

    # The ledger hides undone rounds behind a link.
    page.locator(".session-nav").get_by_role("link", name="账本").click()
    expect(page.locator("h1")).to_have_text("账本")
    expect(page.locator(".undone-toggle")).to_contain_text("已撤销 1 局。")
    expect(page.locator(".ledger-round")).to_have_count(0)
    page.get_by_role("link", name="显示已撤销的局").click()
    expect(page).to_have_url(re.compile(r"/ledger\?undone=1$"))

    row = page.locator("#round-1")
    expect(row).to_have_class(re.compile(r"\bis-undone\b"))
    struck = row.locator("summary .cell del")
    expect(struck).to_have_text([signed(d) for d in expected["deltas"]])
    for i in range(4):
        decoration = struck.nth(i).evaluate("e => getComputedStyle(e).textDecorationLine")
        assert "line-through" in decoration, decoration
    expect(row.locator("summary .sum")).to_have_count(0)  # an undone round adds nothing
    expect(page.locator(".ledger-foot .cell strong")).to_have_text(["0", "0", "0", "0"])
    expect(page.get_by_role("link", name="隐藏已撤销的局")).to_be_visible()

    row.locator("summary").click()
    expect(row.locator(".undone-note")).to_contain_text("撤销，不计分。")
    expect(row.locator(".outcome")).to_be_visible()
    assert_no_horizontal_scroll(page)
    snap(page, "ledger-undone-round")


# --------------------------------------------------------------------------- 6. quick entry, draw


def test_quick_entry_and_drawn_game_in_the_ledger(page: Page, live_server: LiveServer) -> None:
    rs = get_ruleset("mcr")
    params = rs.resolve_params({})
    session = make_session(first_dealer=0)
    # Round 1 (set up directly): 王五 wins on 赵六's discard, 张三 dealing.
    first = score(tile_situation(0, 2, 3))
    session.record_round(uuid.uuid4(), tile_entry(0, 2, 3), "测试")
    # Round 2 (quick entry): the deal has passed to 李四; 赵六 wins on 李四's discard.
    second = rs.quick_score({48: 1, 49: 1, 59: 1}, 0, Table(4, 1, 3, 1), False, params)
    assert second["win"] and second["total"] == 14, second
    rounds = [first["deltas"], second["deltas"], [0, 0, 0, 0]]

    page.goto(session_url(live_server, session))
    page.locator(".actions").get_by_role("link", name="记一局").click()
    expect(page.locator('select[name="dealer"]')).to_have_value("1")
    page.get_by_role("button", name="选番").click()
    # Wait for the swap: a tap while the previous one is in flight is queued by
    # htmx and may be dropped when its button is replaced (the user sees it unpressed).
    expect(page.get_by_role("button", name="选番")).to_have_attribute("aria-pressed", "true")
    pick_winner(page, 3, 1)
    quick = page.locator(".pk-quick")
    expect(quick.get_by_role("heading", name="88 番")).to_be_visible()
    for name in ("碰碰和", "混一色", "箭刻"):
        fan = quick.get_by_role("button", name=re.compile(f"^{name}"))
        fan.click()
        expect(fan).to_contain_text("×1")
    # The preview: the picked fans with both names, the sum, who pays.
    result = page.locator(".pk-result")
    expect(result.locator(".pk-fans tbody .pk-zh")).to_have_text(["碰碰和", "混一色", "箭刻"])
    expect(result.locator(".pk-fans tbody .pk-en")).to_have_text(
        [f["name_en"] for f in second["fans"]]
    )
    expect(result.locator(".pk-total")).to_have_text(str(second["total"]))
    expect(result.locator(".pk-deltas li b")).to_have_text(
        [preview_signed(d) for d in second["deltas"]]
    )
    assert_no_horizontal_scroll(page)
    assert_touch_targets(page, ".pk-quick-add, .pk-quick-less, .rec-tabs button, .pk-confirm")
    snap_page_and_screen(page, "quick-entry")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(session_url(live_server, session))
    expect_totals(page, [a + b for a, b in zip(*rounds[:2], strict=True)])

    # Round 3: 荒庄.
    page.locator(".actions").get_by_role("link", name="记一局").click()
    page.get_by_role("button", name="荒庄").click()
    expect(page.get_by_role("button", name="荒庄")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("group", name="和牌者")).to_have_count(0)
    expect(page.locator(".pk-picker")).to_have_count(0)
    expect(page.locator(".pk-result .pk-hint")).to_have_text("荒庄：不计分")
    expect(page.locator(".pk-bar-total")).to_have_text("荒庄")
    assert_no_horizontal_scroll(page)
    snap(page, "drawn-game")
    page.locator(".pk-confirm").click()
    expect(page).to_have_url(session_url(live_server, session))
    expect(page.locator("#tallies .round-info")).to_contain_text("已打 3 局")

    totals = [sum(col) for col in zip(*rounds, strict=True)]
    expect_totals(page, totals)
    recorded = [r.current.deltas for r in session.rounds.select_related("current") if r.current]
    assert recorded == rounds, recorded

    # The ledger: one row per round, each cell its delta and the running sum.
    page.locator(".actions").get_by_role("link", name="账本").click()
    expect(page.locator(".ledger-head .cell")).to_have_text(PLAYERS)
    expect(page.locator(".ledger-round")).to_have_count(3)
    running = [0, 0, 0, 0]
    for number, deltas in enumerate(rounds, start=1):
        running = [a + b for a, b in zip(running, deltas, strict=True)]
        row = page.locator(f"#round-{number} summary")
        expect(row.locator(".num")).to_have_text(str(number))
        expect(row.locator(".delta")).to_have_text([signed(d) for d in deltas])
        expect(row.locator(".sum")).to_have_text([signed(s) for s in running])
    expect(page.locator(".ledger-foot .cell strong")).to_have_text([signed(t) for t in totals])
    expect(page.locator(".undone-toggle")).to_have_count(0)

    # Each row opens on the round: the quick one says its fans were picked by hand.
    page.locator("#round-2 summary").click()
    body = page.locator("#round-2 .round-body")
    expect(body.locator(".outcome")).to_contain_text("赵六")
    expect(body.locator(".meta")).to_contain_text("直接选番")
    page.locator("#round-3 summary").click()
    expect(page.locator("#round-3 .outcome")).to_have_text("荒庄：无人和牌")
    assert_no_horizontal_scroll(page)
    snap(page, "ledger-three-rounds")
