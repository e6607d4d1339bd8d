"""The record page for a ruleset played as events (四川麻将): one kong, win or wall's end at a time.

The tests drive the page like a phone (read the form's state back from the
page, add one tap, post it) and check what confirm left in the database.  Every
expected amount is worked out here from the seed rules (base 6: 直杠 1× from
the discarder, 暗杠 2× from each player still in, a discard win pays
base × 2^(番-1), 自摸 adds one base) or from the engine's single-hand
`rules.score`, never read back from the page.

The new strings are English msgids until locale/pending/record_sichuan.po is
merged, so the Chinese pages are checked by data and markup, not by wording.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError, score, waits
from rules.registry import get_ruleset
from rules.tiles import parse_tiles
from scorer.models import GameSession, Round, RoundRevision
from tests.factories import by_tiles, event, make_table, phone, record
from tests.pages import html
from tests.support.events import PUNGS, PURE_PAIRS, kong_event, win_event
from tests.support.htmx import HTMX
from tests.support.phone import NAMES, Phone
from tests.support.state import (
    button,
    checks,
    confirm_enabled,
    disabled,
    pressed,
    result_message,
    state_of,
    tap_message,
    transfers,
    transfers_with_reasons,
)

pytestmark = pytest.mark.django_db

DEFAULTS = get_ruleset("sichuan").defaults
BASE = int(DEFAULTS["base"])  # 6


def hand_value(hand: dict[str, Any], self_drawn: bool = False, **flags: bool) -> int:
    r = score({"ruleset": "sichuan", **hand, "self_drawn": self_drawn, **flags})
    assert r["ok"] and r["win"], r
    return int(r["value"])


def discard_value(fans: int) -> int:
    """ "胡牌時收取放炮者 底分×2^(番-1)" (seed 002)."""
    return BASE * 2 ** (fans - 1)


# ------------------------------------------------------------------ reading the page


@pytest.fixture
def session() -> GameSession:
    return make_table("sichuan", NAMES)


@pytest.fixture
def en_client() -> Client:
    return phone("en")


def revisions() -> int:
    return RoundRevision.objects.count()


# ------------------------------------------------------------------ the page


def test_the_kind_row_offers_win_kong_and_wall_end(client: Client, session: GameSession) -> None:
    page = Phone(client, session).page
    for kind in ("kind:win", "kind:kong", "kind:wall_end"):
        assert button(page, kind)
    assert 'value="kind:draw"' not in page
    assert pressed(page, "kind:win")
    # No chi in 四川, no honor tiles, no flowers: three rows of nine.
    assert 'value="tool:chi"' not in page and 'value="tile:1z"' not in page
    assert page.count('name="tap" value="tile:') == 27
    assert "flowers:+" not in page


@pytest.mark.parametrize("kind", ["win", "kong", "wall_end"])
def test_get_kind_preselects_the_event(client: Client, session: GameSession, kind: str) -> None:
    phone = Phone(client, session, kind=kind)
    assert phone.state["kind"] == kind and pressed(phone.page, f"kind:{kind}")
    assert phone.state["expected"] == "0"


def test_an_unknown_kind_falls_back_to_a_win(client: Client, session: GameSession) -> None:
    assert Phone(client, session, kind="draw").state["kind"] == "win"


def test_honors_are_refused_on_the_picker(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    page = phone.tap("tile:1z")
    assert tap_message(page) and phone.state["hand"] == "" and phone.state["win_tile"] == ""
    phone.tap("tool:chi")
    assert phone.state["tool"] == ""


def test_no_javascript_taps_post_to_the_page(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    response = client.post(phone.page_url, {**phone.state, "tap": "player:1"})
    page = html(response)
    assert response.status_code == 200 and "<html" in page
    assert state_of(page)["player"] == "1" and state_of(page)["kind"] == "kong"


def test_mcr_sessions_keep_the_win_or_draw_form(client: Client) -> None:
    mcr = make_table("mcr", NAMES)
    page = html(client.get(reverse("scorer:record", args=[mcr.code])))
    assert 'value="kind:draw"' in page and 'value="tool:chi"' in page
    assert 'value="kind:kong"' not in page and "ev-result" not in page
    assert 'name="expected"' not in page
    page = html(client.get(reverse("scorer:record", args=[mcr.code]) + "?kind=kong"))
    assert 'value="kind:kong"' not in page
    # A draw confirms through the MCR path exactly as before.
    state = state_of(page)
    state["wind"] = "E"
    client.post(reverse("scorer:preview", args=[mcr.code]), {**state, "tap": "kind:draw"}, **HTMX)
    state["kind"] = "draw"
    response = client.post(reverse("scorer:confirm", args=[mcr.code]), {**state, "confirm": "1"})
    assert response.status_code == 302
    assert Round.objects.get().current.kind == RoundRevision.DRAW  # type: ignore[union-attr]


# ------------------------------------------------------------------ kongs


def test_exposed_kong_preview_then_confirm(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    page = phone.tap("player:0")
    assert not confirm_enabled(page)  # which kong?
    page = phone.tap("kong:exposed")
    assert not confirm_enabled(page) and 'value="from:1"' in page  # from whom?
    assert 'value="from:0"' not in page  # not from himself
    page = phone.tap("from:1", "tile:5m")
    amount = BASE * int(DEFAULTS["kong_exposed"])  # "直杠,立刻收取引杠者1倍點數"
    assert transfers(page) == [("乙", "甲", amount)]
    assert confirm_enabled(page) and phone.state["kong_tile"] == "5m"
    assert pressed(page, "tile:5m")
    response = phone.confirm(author="小王")
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:session", args=[session.code])
    assert session.tallies() == [amount, -amount, 0, 0]
    rnd = session.round_in_progress()
    assert rnd is not None and rnd.current is not None and rnd.current.author == "小王"
    assert rnd.current.entry["events"] == [
        {"type": "kong", "player": 0, "kong": "exposed", "discarder": 1, "tile": "5m"}
    ]
    assert str(rnd.current.token) == phone.state["token"]


def test_concealed_kong_every_player_still_in_pays(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    page = phone.tap("player:2", "kong:concealed")
    each = BASE * int(DEFAULTS["kong_concealed"])  # "下雨立刻收取其他未胡者2倍點數"
    assert sorted(transfers(page)) == sorted((n, "丙", each) for n in ("甲", "乙", "丁"))
    assert 'value="from:1"' not in page  # no 引杠 row for a concealed kong
    response = phone.confirm(htmx=True)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("scorer:session", args=[session.code])
    assert session.tallies() == [-each, -each, 3 * each, -each]


def test_a_kong_tile_tap_toggles(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    phone.tap("tile:7p")
    assert phone.state["kong_tile"] == "7p"
    phone.tap("tile:7p")
    assert phone.state["kong_tile"] == ""


def test_a_winner_left_from_a_win_does_not_bother_a_kong(
    client: Client, session: GameSession
) -> None:
    phone = Phone(client, session)
    phone.tap("winner:1", "kind:kong", "player:0", "kong:exposed", "from:1", "kong:exposed")
    assert phone.state["discarder"] == "1"
    assert transfers(phone.page) == [("乙", "甲", BASE * int(DEFAULTS["kong_exposed"]))]


def test_an_exposed_kong_needs_its_discarder(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    phone.tap("player:1", "kong:exposed")
    page = phone.tap("from:1")  # his own discard
    assert tap_message(page) and phone.state["discarder"] == ""
    response = phone.confirm()
    assert response.status_code == 400 and tap_message(html(response))
    assert revisions() == 0


# ------------------------------------------------------------------ wins


def test_a_win_by_tiles_shows_fans_and_pays(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    phone.tap("winner:1", "from:2")
    page = phone.tiles(PUNGS["concealed"] + PUNGS["win_tile"])
    value = hand_value(PUNGS)
    assert value == discard_value(2)  # 对对胡, 2 番
    assert "对对胡" in page and "All pungs" in page
    assert re.search(r'class="pk-pts pk-total">2<', page)
    assert transfers(page) == [("丙", "乙", value)]
    assert confirm_enabled(page)
    assert phone.confirm().status_code == 302
    assert session.tallies() == [0, value, -value, 0]
    rnd = Round.objects.get()
    assert rnd.in_progress and rnd.current is not None and rnd.current.winners == [1]
    ev = rnd.current.entry["events"][0]
    assert ev["winners"] == [
        {"seat": 1, "hand": {"concealed": "111222p3334455s", "win_tile": "5s"}}
    ]
    assert ev["discarder"] == 2 and ev["after_kong"] is False


def test_a_self_drawn_win_with_melds(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    phone.tap("winner:0", "from:self", "tool:pung", "tile:5s", "tool:concealed_kong", "tile:7s")
    assert phone.state["melds"] == "pung:5s concealed_kong:7s"
    page = phone.tiles("11p22p3s3s3s2p")
    hand = {"concealed": "1122p333s", "win_tile": "2p",
            "melds": [{"type": "pung", "tiles": "555s", "exposed": True},
                      {"type": "kong", "tiles": "7777s", "exposed": False}]}  # fmt: skip
    each = hand_value(hand, self_drawn=True) + BASE  # 自摸加底
    assert sorted(transfers(page)) == sorted((n, "甲", each) for n in ("乙", "丙", "丁"))
    assert phone.confirm().status_code == 302
    assert session.tallies() == [3 * each, -each, -each, -each]


def test_waits_when_one_tile_short(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    page = phone.tiles("123456789m1234m")
    want = waits({"ruleset": "sichuan", "concealed": "123456789m1234m"})["waits"]
    shown = re.findall(r'<div class="pk-waits">(.*?)</div>', page, re.S)
    assert shown and re.findall(r'value="tile:(\w+)"', shown[0]) == want
    assert not confirm_enabled(page)


def test_a_flower_pig_cannot_win(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    phone.tap("winner:1", "from:2")
    page = phone.tiles("123m456p789s1122m3m")
    assert "花猪" in result_message(page) and not confirm_enabled(page)
    response = phone.confirm()
    assert response.status_code == 400 and "花猪" in html(response)
    assert revisions() == 0


def test_a_win_by_quick_entry(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    phone.tap("winner:2", "from:0", "mode:quick")
    page = phone.page
    assert "清一色" in page and "根" in page and button(page, "fan:15:+")
    assert not confirm_enabled(page)
    page = phone.tap("fan:3:+", "fan:15:+", "fan:15:+")
    assert phone.state["fans"] == "3:1,15:2"
    assert button(page, "fan:3:-")  # tapping the pattern again takes it back
    total = 3 + 2  # 清一色 3 番, 根 ×2
    assert re.search(rf'class="pk-pts pk-total">{total}<', page)
    assert transfers(page) == [("甲", "丙", discard_value(total))]
    assert phone.confirm().status_code == 302
    assert session.tallies() == [-discard_value(total), 0, discard_value(total), 0]
    ev = Round.objects.get().current.entry["events"][0]  # type: ignore[union-attr]
    assert ev["winners"] == [{"seat": 2, "fans": {"3": 1, "15": 2}}]


def test_quick_entry_respects_the_catalog_limits(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    phone.tap("mode:quick", *["fan:15:+"] * 6, "fan:3:+", "fan:3:+", "fan:999:+")
    assert phone.state["fans"] == "3:1,15:4"  # 根 at most 4, a pattern once, no unknown fan
    assert disabled(phone.page, "fan:15:+")
    phone.tap("fan:3:-")
    assert phone.state["fans"] == "15:4"


def test_win_on_a_kong_discard_hands_the_kong_money_over(
    client: Client, session: GameSession
) -> None:
    kong = BASE * int(DEFAULTS["kong_exposed"])
    event(session, kong_event(1, "exposed", discarder=2))
    phone = Phone(client, session)
    assert phone.state["expected"] == "1"
    phone.tap("winner:0", "from:1", "flag:after_kong")
    page = phone.tiles(PUNGS["concealed"] + PUNGS["win_tile"])
    value = hand_value(PUNGS, after_kong=True)  # 杠上炮 +1 番
    assert value == discard_value(3)
    assert sorted(transfers(page)) == sorted([("乙", "甲", value), ("乙", "甲", kong)])
    assert phone.confirm().status_code == 302
    assert session.tallies() == [value + kong, kong - value - kong, -kong, 0]


def test_flags_that_do_not_apply_are_not_offered(client: Client, session: GameSession) -> None:
    phone = Phone(client, session)
    page = phone.tap("winner:0", "from:self")
    assert 'value="flag:robbing_kong"' not in page and 'value="flag:last_tile"' in page
    page = phone.tap("from:2")
    assert 'value="flag:robbing_kong"' in page and 'value="flag:last_tile"' not in page


# ------------------------------------------------------------------ 一炮多响


def test_join_the_last_win_on_the_same_discard(client: Client, session: GameSession) -> None:
    first = {"concealed": "111222333p4499m", "win_tile": "9m"}
    second = {"concealed": "123456789p1178m", "win_tile": "9m"}
    event(session, win_event(3, 0, first))
    phone = Phone(client, session)
    assert 'value="join:on"' in phone.page
    assert disabled(phone.page, "winner:3")  # out: already won
    page = phone.tap("join:on")
    assert phone.state["join"] == "1" and phone.state["discarder"] == "0"
    assert pressed(page, "join:off") and 'value="flag:after_kong"' not in page
    phone.tap("winner:2")
    assert phone.state["win_tile"] == "9m"  # the discard: fixed, not asked
    page = phone.tiles(second["concealed"])
    assert transfers(page) == [("甲", "丙", hand_value(second))]  # only the new winner's
    assert phone.confirm().status_code == 302
    rnd = Round.objects.get()
    assert rnd.current is not None
    events = rnd.current.entry["events"]
    assert len(events) == 1 and [w["seat"] for w in events[0]["winners"]] == [3, 2]
    a, b = hand_value(first), hand_value(second)
    assert session.tallies() == [-a - b, 0, b, a]


# One discard, 七条, two winners: 丙's 清一色 (111 234 567 888 99s) and 甲's 对对胡
# (222m 666m 888m 444s 77s).
WANG_ON_7S = {"concealed": "11123456888s99s", "win_tile": "7s"}
ZHANG_ON_7S = {"concealed": "222666888m4447s", "win_tile": "7s"}


def test_a_joining_winner_wins_on_the_discard_and_no_other_tile(
    client: Client, session: GameSession
) -> None:
    """After 一炮多响 on 七条 the joining winner's winning tile is the discard, fixed: the
    page neither asks for it nor lists waits, and a tapped 八条 joins his tiles."""
    event(session, win_event(2, 1, WANG_ON_7S))
    phone = Phone(client, session)
    page = phone.tap("join:on", "winner:0")
    assert phone.state["win_tile"] == "7s"
    assert 'value="tool:win"' not in page  # nothing to pick
    # Twelve of his tiles: no waits offered, the hint says which tile he wins on.
    page = phone.tiles(ZHANG_ON_7S["concealed"][:-3] + "4s")
    assert 'class="pk-waits"' not in page and "七条" in page
    assert phone.state["win_tile"] == "7s"
    # Tapping 八条 adds 八条 to his tiles; the winning tile stays 七条.
    phone.tap("tile:8s")
    assert phone.state["win_tile"] == "7s" and "8s" in phone.state["hand"]
    # Taking back the winning tile does not take it: it is the discard.
    page = phone.tap("hand:win")
    assert phone.state["win_tile"] == "7s" and tap_message(page)
    phone.tap("hand:8s", "tile:7s")
    assert phone.state["win_tile"] == "7s"
    # The server refuses another winning tile posted for him, and records nothing.
    r = phone.confirm(htmx=True, win_tile="8s", hand=phone.state["hand"].replace("7s", "8s", 1))
    assert r.status_code == 200 and "七条" in result_message(html(r)) + html(r)
    rnd = Round.objects.get()
    assert len(rnd.current.entry["events"][0]["winners"]) == 1  # type: ignore[union-attr]
    assert phone.confirm().status_code == 302
    rnd.refresh_from_db()
    winners = rnd.current.entry["events"][0]["winners"]  # type: ignore[union-attr]
    assert [w["seat"] for w in winners] == [2, 0]
    assert winners[1]["hand"]["win_tile"] == "7s"
    assert "对对胡" in str(rnd.current.result)  # type: ignore[union-attr]


def test_the_engine_refuses_a_joining_winner_on_another_tile(session: GameSession) -> None:
    event(session, win_event(2, 1, WANG_ON_7S))
    other = {"concealed": "222666888m4447s", "win_tile": "8s"}
    with pytest.raises(RuleError, match="7 Bamboo") as e:
        event(session, win_event(0, 1, other), join_last_win=True)
    assert e.value.code == "bad_event" and "七条" in e.value.message_zh
    assert len(Round.objects.get().current.entry["events"][0]["winners"]) == 1  # type: ignore[union-attr]


def undo_step(client: Client, session: GameSession, round_no: int, steps: int) -> None:
    url = reverse("scorer:undo_event", args=[session.code])
    client.post(url, {"round": str(round_no), "events": str(steps)})


def test_undo_takes_back_the_last_winner_only_and_two_phones_one(
    client: Client, session: GameSession
) -> None:
    event(session, kong_event(3, "concealed"))
    event(session, win_event(2, 1, WANG_ON_7S))
    event(session, win_event(0, 1, ZHANG_ON_7S), join_last_win=True)
    page = html(client.get(reverse("scorer:session", args=[session.code])))
    # Three steps: the kong, 丙's win, 甲 joining it; the last is 甲's win alone.
    assert 'name="events" value="3"' in page
    assert "甲 和牌，乙 放炮" in page
    other = phone()
    undo_step(client, session, 1, 3)
    undo_step(other, session, 1, 3)  # the second phone saw 3 steps too: nothing more
    rnd = Round.objects.get()
    assert rnd.status == Round.ACTIVE and rnd.in_progress
    events = rnd.current.entry["events"]  # type: ignore[union-attr]
    assert len(events) == 2 and [w["seat"] for w in events[1]["winners"]] == [2]
    kong = 2 * BASE * 3
    assert session.tallies() == [-BASE * 2, -hand_value(WANG_ON_7S) - BASE * 2,
                                 hand_value(WANG_ON_7S) - BASE * 2, kong]  # fmt: skip
    undo_step(client, session, 1, 2)  # then 丙's win
    rnd.refresh_from_db()
    assert [e["type"] for e in rnd.current.entry["events"]] == ["kong"]  # type: ignore[union-attr]


def test_no_join_offer_after_a_self_drawn_win(client: Client, session: GameSession) -> None:
    event(session, win_event(3, None, PUNGS))
    phone = Phone(client, session)
    assert 'value="join:on"' not in phone.page
    phone.tap("join:on")
    assert phone.state["join"] == ""


def test_another_discarder_leaves_the_join(client: Client, session: GameSession) -> None:
    event(session, win_event(3, 0, PUNGS))
    phone = Phone(client, session)
    phone.tap("join:on", "from:1")
    assert phone.state["join"] == "" and phone.state["discarder"] == "1"


# ------------------------------------------------------------------ tiles shown in earlier hands


def grid_classes(page: str, code: str) -> list[str]:
    """The classes of a tile of the picker's grid (pk-dim: no copy of it is left)."""
    m = re.search(rf'<button type="submit" name="tap" value="tile:{code}" id="g-{code}" '
                  r'class="([^"]*)"', page)  # fmt: skip
    assert m, f"no grid tile {code}"
    return m.group(1).split()


def grid_badge(page: str, code: str) -> int:
    """The badge of a grid tile: copies of it in the hand being entered."""
    m = re.search(rf'id="g-{code}"[^>]*>.*?</button>', page, re.S)
    assert m, f"no grid tile {code}"
    badge = re.search(r'<span class="pk-held" aria-hidden="true">(\d+)</span>', m.group(0))
    return int(badge.group(1)) if badge else 0


# 丁's 对对胡 with an exposed pung of 二筒: 1p ×3, 2p ×3 (the meld), 3s ×3, 4s ×2, 5s ×3.
MELDED = {
    "concealed": "111p333s4455s",
    "win_tile": "5s",
    "melds": [{"type": "pung", "tiles": "222p", "exposed": True}],
}


def test_tiles_in_an_earlier_winners_hand_count_on_the_picker(
    en_client: Client, session: GameSession
) -> None:
    event(session, win_event(3, 0, MELDED))
    phone = Phone(en_client, session)
    page = phone.tap("winner:1", "from:self")
    # Three copies shown (2p in 丁's pung, 5s with his win tile): one left, not dimmed yet.
    for code in ("1p", "2p", "3s", "5s"):
        assert "pk-dim" not in grid_classes(page, code) and grid_badge(page, code) == 0
    page = phone.tap("tile:2p")
    # The fourth 二筒 is in this hand now: the badge counts this hand, the grid all four.
    assert phone.state["win_tile"] == "2p" and grid_badge(page, "2p") == 1
    assert "pk-dim" in grid_classes(page, "2p")
    page = phone.tap("tile:2p")  # a fifth 二筒
    assert tap_message(page) == (
        "There are only four 2 Dots: the others are in hands already shown in this round."
    )
    assert phone.state["hand"] == "" and phone.state["win_tile"] == "2p"
    # A meld needs as many copies left: a pung of 一筒 would make six.
    page = phone.tap("tool:pung", "tile:1p")
    assert "already shown in this round" in tap_message(page) and phone.state["melds"] == ""
    # Tiles nobody has shown stay free: four 九万 go in.
    phone.tap("tile:9m", "tile:9m", "tile:9m", "tile:9m")
    assert phone.state["hand"].count("9") + phone.state["win_tile"].count("9") == 4
    page = phone.tap("tile:9m")
    assert tap_message(page) == (
        "There are only four 9 Characters: all of them are in the hand already."
    )


def test_a_kong_in_an_earlier_winners_melds_leaves_no_copy(
    client: Client, session: GameSession
) -> None:
    kong_hand = {
        "concealed": "123456789p6p",
        "win_tile": "6p",
        "melds": [{"type": "kong", "tiles": "9999m", "exposed": False}],
    }
    event(session, win_event(2, None, kong_hand))
    phone = Phone(client, session)
    page = phone.tap("winner:0", "from:1")
    assert "pk-dim" in grid_classes(page, "9m")
    page = phone.tap("tile:9m")
    assert tap_message(page) and phone.state["win_tile"] == "" and phone.state["hand"] == ""
    # 六筒: 丙 shows two (one his win tile); two are left for this hand.
    page = phone.tap("tile:6p", "tile:6p")
    assert "pk-dim" in grid_classes(page, "6p")
    assert tap_message(phone.tap("tile:6p"))


def test_joining_a_win_shares_its_discard_not_another_copy(
    client: Client, session: GameSession
) -> None:
    first = {"concealed": "111222333p4499m", "win_tile": "9m"}  # 九万: two in hand + the discard
    event(session, win_event(3, 0, first))
    joiner = {"concealed": "123456789s111s9m", "win_tile": "9m"}
    phone = Phone(client, session)
    page = phone.tap("join:on", "winner:2")
    # The discard 丁 won on is this hand's win tile too: one 九万 left besides it.
    assert phone.state["win_tile"] == "9m" and grid_badge(page, "9m") == 1
    page = phone.tap("tile:9m")
    assert grid_badge(page, "9m") == 2 and "pk-dim" in grid_classes(page, "9m")
    page = phone.tap("tile:9m")
    assert tap_message(page) and grid_badge(page, "9m") == 2
    phone.tap("hand:9m", "hand:win")  # the one he added goes; the discard stays his
    assert phone.state["win_tile"] == "9m" and phone.state["hand"] == ""
    page = phone.tiles(joiner["concealed"])
    assert phone.state["win_tile"] == "9m" and confirm_enabled(page)
    # The engine counts the shared discard once too: four 九万 in all, accepted.
    assert phone.confirm().status_code == 302
    events = Round.objects.get().current.entry["events"]  # type: ignore[union-attr]
    assert [w["seat"] for w in events[0]["winners"]] == [3, 2]
    assert events[0]["winners"][1]["hand"] == {
        "concealed": tiles_str_sorted(joiner["concealed"]),
        "win_tile": "9m",
    }


def test_a_win_on_another_discard_counts_every_copy(client: Client, session: GameSession) -> None:
    first = {"concealed": "111222333p4499m", "win_tile": "9m"}
    event(session, win_event(3, 0, first))
    phone = Phone(client, session)
    phone.tap("winner:2", "from:1")  # not the same discard: a tile of its own
    page = phone.tap("tile:9m")
    assert "pk-dim" in grid_classes(page, "9m")
    assert tap_message(phone.tap("tile:9m")) and grid_badge(phone.page, "9m") == 1


def test_the_wall_end_counts_the_winners_hands_too(client: Client, session: GameSession) -> None:
    event(session, win_event(3, 0, MELDED))
    phone = Phone(client, session, kind="wall_end")
    page = phone.tap("tile:5s")
    assert "pk-dim" in grid_classes(page, "5s")
    assert tap_message(phone.tap("tile:5s")) and phone.state["hand"] == "5s"


# ------------------------------------------------------------------ the wall's end

PIG = "123m456p789s1239m"  # three suits: 花猪
READY = "123456789m1234m"  # waits on 1m 4m (and 2m 3m?): ready
NOT_READY = "12345678p13579s"  # not ready


def test_wall_end_preview_statuses_and_confirm(client: Client, session: GameSession) -> None:
    event(session, win_event(3, 0, PUNGS))
    phone = Phone(client, session, kind="wall_end")
    page = phone.page
    assert phone.state["seat"] == "0" and disabled(page, "seat:3")  # 丁 has won
    assert 'value="tool:win"' not in page and not confirm_enabled(page)
    page = phone.tiles(PIG)
    assert phone.state["hand"] == tiles_str_sorted(PIG) and phone.state["win_tile"] == ""
    assert "13/13" in page and not confirm_enabled(page)
    # This hand alone: its waits from the engine (a 花猪 has none).
    assert re.search(r'<div class="pk-waits">.*?class="ev-none"', page, re.S)
    page = phone.tap("tile:5s")  # a 14th tile does not fit a standing hand
    assert tap_message(page) and phone.state["hand"] == tiles_str_sorted(PIG)
    phone.tap("seat:1")
    assert phone.state["seat"] == "1" and phone.state["hand"] == ""
    assert phone.state["wall_0"] == tiles_str_sorted(PIG)
    page = phone.tiles(READY)
    assert not confirm_enabled(page) and not checks(page)
    phone.tap("seat:2")
    page = phone.tiles(NOT_READY)
    assert checks(page) == [("甲", "pig"), ("乙", "ready"), ("丙", "not_ready")]
    assert confirm_enabled(page)
    ready = waits({"ruleset": "sichuan", "concealed": READY})["waits"]
    claim = max(hand_value({"concealed": READY, "win_tile": t}) for t in ready)
    assert re.search(rf'class="ev-claim">[^<]*\b{claim}\b', page)
    pig = BASE * int(DEFAULTS["pig_multiplier"])  # "花豬賠給非花豬玩家16倍點數"
    assert sorted(transfers(page)) == sorted(
        [("甲", "乙", pig), ("甲", "丙", pig), ("丙", "乙", claim)]
    )
    # Going back to a seat shows its hand again; nothing is lost on the way.
    phone.tap("seat:0")
    assert phone.state["hand"] == tiles_str_sorted(PIG)
    assert phone.state["wall_1"] == tiles_str_sorted(READY)
    assert phone.confirm().status_code == 302
    v = hand_value(PUNGS)
    assert session.tallies() == [-v - 2 * pig, pig + claim, pig - claim, v]
    rnd = Round.objects.get()
    assert not rnd.in_progress and session.round_in_progress() is None
    assert rnd.current is not None and len(rnd.current.entry["events"]) == 2


def test_wall_end_with_melds_counts_them_as_three(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="wall_end")
    phone.tap("tool:pung", "tile:9m", "tool:kong", "tile:5p")
    page = phone.tiles("1234567m")
    assert "13/13" in page and phone.state["melds"] == "pung:9m kong:5p"
    phone.tap("seat:1")
    assert phone.state["wall_0"] == "1234567m pung:9m kong:5p"


def test_a_wall_end_kong_refund(client: Client, session: GameSession) -> None:
    """A player without a 叫 at the wall's end returns his kong money (退杠钱)."""
    each = BASE * int(DEFAULTS["kong_concealed"])
    event(session, kong_event(2, "concealed"))
    phone = Phone(client, session, kind="wall_end")
    for seat, hand in ((0, READY), (1, "123456789p1234p"), (2, NOT_READY), (3, "11223355779m99m")):
        phone.tap(f"seat:{seat}")
        if seat == 2:
            phone.tap("tool:concealed_kong", "tile:9s")  # the kong he declared
            phone.tiles("1234567p135s")
        else:
            phone.tiles(hand)
    page = phone.page
    assert dict(checks(page))["丙"] == "not_ready"
    refunds = [t[:3] for t in transfers_with_reasons(page) if "退杠钱" in t[3]]
    assert sorted(refunds) == sorted(("丙", n, each) for n in ("甲", "乙", "丁"))
    before = session.tallies()
    assert phone.confirm().status_code == 302
    after = session.tallies()
    assert after[2] <= before[2] - 3 * each and sum(after) == 0


def tiles_str_sorted(tiles: str) -> str:
    from rules.tiles import tiles_str

    return tiles_str(sorted(parse_tiles(tiles)))


# ------------------------------------------------------------------ refusals


def test_players_already_out_cannot_be_picked(client: Client, session: GameSession) -> None:
    event(session, win_event(3, 0, PUNGS))
    phone = Phone(client, session)
    assert disabled(phone.page, "winner:3") and disabled(phone.page, "from:3")
    page = phone.tap("winner:3")
    assert tap_message(page) and phone.state["winner"] == ""
    phone.tap("kind:kong")
    assert disabled(phone.page, "player:3")
    page = phone.tap("player:3")
    assert tap_message(page) and phone.state["player"] == ""
    page = phone.tap("kind:wall_end", "seat:3")
    assert tap_message(page) and phone.state["seat"] == "0"
    # A form that says otherwise anyway (an old page, a crafted post) is refused.
    before = (session.tallies(), revisions())
    forged = {"kind": "kong", "player": "3", "kong": "concealed"}
    response = phone.confirm(**forged)
    assert response.status_code == 400 and result_message(html(response))
    response = phone.confirm(htmx=True, kind="win", winner="1", discarder="3", mode="quick",
                             fans="3:1")  # fmt: skip
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert result_message(html(response))
    assert (session.tallies(), revisions()) == before


def test_a_stale_form_is_refused_then_confirms_knowingly(
    client: Client, session: GameSession
) -> None:
    phone = Phone(client, session, kind="kong")
    phone.tap("player:0", "kong:concealed")
    # Meanwhile another phone records a kong by 乙.
    event(session, kong_event(1, "concealed"), expected=0)
    page = phone.tap("player:0")
    assert 'class="pk-msg ev-stale"' in page
    response = phone.confirm()
    assert response.status_code == 400
    page = html(response)
    assert "别的手机" in tap_message(page)
    each = BASE * int(DEFAULTS["kong_concealed"])
    assert session.tallies() == [-each, 3 * each, -each, -each] and revisions() == 1
    phone.state = state_of(page)
    assert phone.state["expected"] == "1" and "ev-stale" not in page
    assert phone.confirm().status_code == 302
    assert session.tallies() == [2 * each, 2 * each, -2 * each, -2 * each]


def test_double_confirm_records_once(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    phone.tap("player:1", "kong:concealed")
    other = Client()  # a second phone posting the very same form
    assert phone.confirm().status_code == 302
    assert phone.confirm(htmx=True)["HX-Redirect"]
    assert other.post(phone.confirm_url, {**phone.state, "confirm": "1"}).status_code == 302
    each = BASE * int(DEFAULTS["kong_concealed"])
    assert session.tallies() == [-each, 3 * each, -each, -each]
    assert Round.objects.count() == 1 and revisions() == 1


def test_double_confirm_of_the_event_that_ends_the_round(
    client: Client, session: GameSession
) -> None:
    event(session, win_event(3, 0, PUNGS))
    event(session, win_event(2, 0, PURE_PAIRS))
    phone = Phone(client, session)
    phone.tap("winner:1", "from:self", "mode:quick", "fan:1:+")
    assert phone.confirm().status_code == 302
    assert session.round_in_progress() is None
    tallies = session.tallies()
    assert phone.confirm().status_code == 302  # not a new round started by the same form
    assert session.tallies() == tallies and Round.objects.count() == 1 and revisions() == 3


def test_an_expired_token_gets_a_fresh_one(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    phone.tap("player:1", "kong:concealed")
    response = phone.confirm(token="not-a-uuid")
    assert response.status_code == 400 and tap_message(html(response))
    assert state_of(html(response))["token"] != "not-a-uuid"
    assert revisions() == 0


# ------------------------------------------------------------------ rounds and dealers


def test_a_new_round_takes_the_dealer_from_the_form(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    assert '<select name="dealer">' in phone.page
    phone.state["dealer"] = "2"
    phone.tap("player:1", "kong:concealed")
    assert phone.confirm().status_code == 302
    rnd = Round.objects.get()
    assert rnd.current is not None and rnd.current.dealer == 2
    # The round in progress keeps its dealer: no select, one line.
    page = Phone(client, session).page
    assert '<select name="dealer">' not in page and 'class="ev-round"' in page
    assert state_of(page)["dealer"] == "2" and state_of(page)["expected"] == "1"


def test_after_the_round_ends_the_next_event_starts_a_new_round(
    client: Client, session: GameSession
) -> None:
    event(session, win_event(3, 0, PUNGS))
    event(session, win_event(2, 0, PURE_PAIRS))
    event(session, win_event(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"}))
    phone = Phone(client, session, kind="kong")
    assert phone.state["expected"] == "0" and not disabled(phone.page, "player:3")
    phone.tap("player:3", "kong:concealed")
    assert phone.confirm().status_code == 302
    assert [r.number for r in Round.objects.order_by("number")] == [1, 2]
    assert session.round_in_progress() == Round.objects.get(number=2)


def test_no_wind_travels_with_the_form_and_rounds_stay_east(
    client: Client, session: GameSession
) -> None:
    """四川 has no wind tiles and no 圈风: the form carries no wind, every round is "E"."""
    # Round 1 dealt by 丁: 血战 proposes the next seat, 甲, the first dealer again --
    # where a game with winds would move on to the South round.
    first_round = {"dealer": 3, "prevalent_wind": "E"}
    event(session, win_event(3, 0, PUNGS), position=first_round)
    event(session, win_event(2, 0, PURE_PAIRS))
    event(session, win_event(1, 0, {"concealed": "123456789s1122s", "win_tile": "2s"}))
    assert session.next_position() == (0, "E")
    phone = Phone(client, session, kind="kong")
    assert "wind" not in phone.state and 'name="wind"' not in phone.page
    phone.tap("player:1", "kong:concealed")
    assert "wind" not in phone.state
    # A form that sends one anyway (an old page) does not bring it in.
    assert phone.confirm(wind="S").status_code == 302
    rnd = Round.objects.get(number=2)
    assert rnd.current is not None and rnd.current.prevalent_wind == "E"
    assert rnd.current.dealer == 0


# ------------------------------------------------------------------ corrections


def test_edit_of_a_round_played_as_events_opens_its_correction(
    client: Client, session: GameSession
) -> None:
    """改这一局 on a round of events opens the list of its steps (its correction:
    tests/scorer/test_scorer_correct_events.py); a stray confirm saves nothing."""
    rnd = event(session, kong_event(1, "concealed"))
    url = reverse("scorer:edit", args=[session.code, rnd.number])
    response = client.get(url)
    assert response.status_code == 200 and 'name="remove" value="0"' in html(response)
    response = client.post(url, {"confirm": "1"}, **HTMX)
    assert response["HX-Redirect"] == url
    assert revisions() == 1


def test_edit_of_a_whole_win_in_a_sichuan_session_still_opens(
    client: Client, session: GameSession
) -> None:
    rnd = record(session, by_tiles(hand=PUNGS))
    response = client.get(reverse("scorer:edit", args=[session.code, rnd.number]))
    assert response.status_code == 200 and 'name="round"' in html(response)


# ------------------------------------------------------------------ language


def test_english_labels_and_reasons(en_client: Client, session: GameSession) -> None:
    phone = Phone(en_client, session, kind="kong")
    page = phone.page
    assert '<html lang="en">' in page
    assert ">Kong<" in page and ">Wall end<" in page and ">Exposed kong<" in page
    page = phone.tap("player:0", "kong:exposed", "from:1")
    assert "Exposed kong" in page and "(刮风)" not in page  # one language: no gloss
    event(session, win_event(3, 0, PUNGS))
    page = Phone(en_client, session, kind="win").page  # (kind: not the kong entry kept)
    assert re.search(
        r'value="winner:3"[^>]*disabled title="丁"><span class="nm">丁</span><small class="ev-note">Won</small>',
        page,
    )


def test_chinese_reasons_by_default(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="kong")
    assert '<html lang="zh-hans">' in phone.page
    page = phone.tap("player:0", "kong:concealed")
    assert "下雨（暗杠）" in page and ">暗杠<" in page


def test_wall_end_told_in_a_few_taps(client: Client, session: GameSession) -> None:
    """花猪 / 没听牌 / 听牌 with the best wait's fans, no 13-tile hands."""
    event(session, win_event(3, 0, PUNGS))
    phone = Phone(client, session, kind="wall_end")
    page = phone.tap("wstatus:pig")
    assert 'class="pk-grid"' not in page  # told: no tile picker for this seat
    phone.tap("seat:1", "wstatus:ready")
    catalog = {f["name_zh"]: f for f in get_ruleset("sichuan").fan_catalog(DEFAULTS)}
    duidui = catalog["对对胡"]
    page = phone.tap(f"wfan:{duidui['id']}:+", "wfan:15:+")  # 对对胡 + 1 根
    assert phone.state["ws_1"] == f"ready:{min(duidui['id'], 15)}:1,{max(duidui['id'], 15)}:1"
    page = phone.tap("seat:2", "wstatus:not_ready")  # 7 taps in all, no tiles
    assert confirm_enabled(page)
    # The claim is the engine's value of a discard win with those fans.
    ruleset = get_ruleset("sichuan")
    claim = int(ruleset.quick_result({str(duidui["id"]): 1, "15": 1}, DEFAULTS, False)["value"])
    pig = BASE * int(DEFAULTS["pig_multiplier"])
    assert checks(page) == [("甲", "pig"), ("乙", "ready"), ("丙", "not_ready")]
    assert sorted(transfers(page)) == sorted(
        [("甲", "乙", pig), ("甲", "丙", pig), ("丙", "乙", claim)]
    )
    assert phone.confirm().status_code == 302
    v = hand_value(PUNGS)
    assert session.tallies() == [-v - 2 * pig, pig + claim, pig - claim, v]
    # Back to tiles for a seat: its told standing is dropped.
    other = Phone(client, make_table("sichuan", NAMES), kind="wall_end")
    other.tap("wstatus:pig", "wstatus:tiles")
    assert "ws_0" not in other.state and 'class="pk-grid"' in other.page


def test_wall_end_told_ready_needs_one_pattern(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="wall_end")
    catalog = [f for f in get_ruleset("sichuan").fan_catalog(DEFAULTS) if f["group"] == "pattern"]
    a, b = catalog[1], catalog[2]
    phone.tap("wstatus:ready", f"wfan:{a['id']}:+", f"wfan:{b['id']}:+")
    phone.tap("seat:1", "wstatus:pig", "seat:2", "wstatus:pig", "seat:3", "wstatus:pig")
    page = phone.page
    assert not confirm_enabled(page) and "牌型只能选一个" in page


def test_a_recorded_kong_starts_in_the_winners_hand(client: Client, session: GameSession) -> None:
    """乙's 暗杠 of 5m, recorded as an event, is in 乙's winning hand already."""
    event(session, {"type": "kong", "player": 1, "kong": "concealed", "tile": "5m"})
    phone = Phone(client, session, kind="win")
    page = phone.tap("winner:1")
    assert phone.state["melds"] == "concealed_kong:5m"
    assert "ev-kong-warn" not in page
    phone.tap("winner:2")  # another winner: 乙's kong leaves the hand
    assert phone.state["melds"] == ""
    phone.tap("winner:1", "from:0")
    page = phone.tiles("123m789m789p11p")  # 11 tiles + the kong (counts 3): complete
    assert "ev-kong-warn" not in page
    assert confirm_enabled(page)
    # Taking the kong out of the hand contradicts the record: said, not blocked.
    page = phone.tap("meld:0")
    warn = re.findall(r'<p class="pk-msg ev-kong-warn" role="alert">(.*?)</p>', page)
    assert warn == ["乙 在这一局记过一个五万的杠，这手牌里却没有。"]


def test_a_hand_with_an_unrecorded_kong_is_flagged(client: Client, session: GameSession) -> None:
    phone = Phone(client, session, kind="win")
    phone.tap("winner:1", "from:0", "tool:kong", "tile:7p")
    page = phone.tap("tile:1m")
    warn = re.findall(r'<p class="pk-msg ev-kong-warn" role="alert">(.*?)</p>', page)
    assert warn == ["这手牌里有一个七筒的杠没有记过：它的钱还没付（请先记杠）。"]


def test_a_kong_recorded_without_its_tile_asks_for_it(client: Client, session: GameSession) -> None:
    event(session, {"type": "kong", "player": 1, "kong": "exposed", "discarder": 0})
    phone = Phone(client, session, kind="win")
    page = phone.tap("winner:1")
    assert phone.state["melds"] == ""
    warn = re.findall(r'<p class="pk-msg ev-kong-warn" role="alert">(.*?)</p>', page)
    assert warn == ["乙 这一局记过一个杠，但没记是哪张牌：请用杠的按钮把它加进手牌。"]


def test_a_joining_winner_with_a_wrong_hand_is_refused_in_players_words(
    client: Client, session: GameSession
) -> None:
    """The refusal names the player, not the event's place in the round's JSON
    ("第 3 个事件（王姐）：…" read like a developer's message)."""
    event(session, win_event(2, 1, WANG_ON_7S))
    phone = Phone(client, session)
    phone.tap("join:on", "winner:0")
    phone.tiles("135m246m1379p248s")
    r = phone.confirm(htmx=True)
    said = re.search(r"pk-confirm-state pk-refused[^>]*>([^<]*)<", html(r))[1]  # type: ignore[index]
    assert r.status_code == 200 and "不能" in said, said
    assert "个事件" not in said and "号位" not in said and said.startswith("没有记录：甲："), said
    assert len(Round.objects.get().current.entry["events"][0]["winners"]) == 1  # type: ignore[union-attr]
