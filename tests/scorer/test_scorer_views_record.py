"""Recording a round: the tile picker, quick entry, the live preview, confirm, corrections.

Most tests drive the page like a phone does: read the form's state back from
the page (hidden inputs and the two selects), add one tap, post it, repeat.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from rules.tiles import parse_tiles
from scorer.entry.pick import Pick
from scorer.models import GameSession, Round, RoundRevision
from tests.factories import DRAW, by_fans, by_tiles, make_table, record
from tests.pages import html
from tests.support.htmx import HTMX
from tests.support.phone import NAMES, WIN_TILES, Phone, winning_phone
from tests.support.state import confirm_enabled, result_message, state_of, tap_message

pytestmark = pytest.mark.django_db


# A seat's name as the result's deltas show it (cut with an ellipsis when long).
NM = {n: f'<span class="nm" title="{n}">{n}</span> ' for n in NAMES}


@pytest.fixture
def session() -> GameSession:
    return make_table("mcr", NAMES)


@pytest.fixture
def phone(client: Client, session: GameSession) -> Phone:
    return Phone(client, session)


@pytest.fixture
def en_client() -> Client:
    c = Client()
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return c


# ------------------------------------------------------------------ the page


def test_record_page_in_chinese_by_default(client: Client, session: GameSession) -> None:
    response = client.get(reverse("scorer:record", args=[session.code]))
    assert response.status_code == 200
    page = html(response)
    assert '<html lang="zh-hans">' in page
    assert "css/picker.css" in page
    for name in NAMES:
        assert f'value="winner:{NAMES.index(name)}"' in page and name in page
    # The 34 tile kinds of MCR, drawn as Chinese text tiles; flowers are a counter, not tiles.
    assert len(re.findall(r'name="tap" value="tile:[1-9][mpsz]"', page)) == 34
    assert 'aria-label="一万"' in page and 'aria-label="中"' in page
    assert "tile:1f" not in page and 'value="flowers:+"' in page
    state = state_of(page)
    assert uuid.UUID(state["token"]).version == 4
    assert state["dealer"] == "0" and state["wind"] == "E"  # the first hand: 东 dealer, 东风圈
    assert state["kind"] == "win" and state["mode"] == "tiles" and state["hand"] == ""
    assert 'hx-post="{}"'.format(reverse("scorer:preview", args=[session.code])) in page
    assert not confirm_enabled(page)


def test_each_visit_gets_a_new_token(client: Client, session: GameSession) -> None:
    url = reverse("scorer:record", args=[session.code])
    assert state_of(html(client.get(url)))["token"] != state_of(html(client.get(url)))["token"]


def test_dealer_and_wind_prefilled_from_next_position(client: Client, session: GameSession) -> None:
    record(session)
    dealer, wind = session.next_position()
    state = state_of(html(client.get(reverse("scorer:record", args=[session.code]))))
    assert (state["dealer"], state["wind"]) == (str(dealer), wind) == ("1", "E")


def test_preview_answers_the_form_partial_only(phone: Phone) -> None:
    page = phone.tap("tile:1m")
    assert "<html" not in page and "<form" not in page
    assert 'name="token"' in page and 'name="csrfmiddlewaretoken"' in page


def test_the_tile_that_completes_the_hand_scrolls_to_the_hand(phone: Phone) -> None:
    phone.tap("winner:1", "from:2")
    phone.tiles(WIN_TILES[:-4])  # 12 tiles
    post = phone.client.post
    response = post(phone.preview_url, {**phone.state, "tap": "tile:7z"}, **HTMX)
    assert "HX-Reswap" not in response  # tile 13: the grid stays where the finger is
    phone.state = state_of(html(response))
    response = post(phone.preview_url, {**phone.state, "tap": "tile:7z"}, **HTMX)
    assert response["HX-Reswap"] == "innerHTML show:.pk-live:top"  # hand and result together
    phone.state = state_of(html(response))
    response = post(phone.preview_url, {**phone.state, "tap": "tile:1s"}, **HTMX)
    assert "HX-Reswap" not in response and tap_message(html(response))  # refused: stay


def test_no_javascript_taps_post_to_the_page(client: Client, phone: Phone) -> None:
    response = client.post(phone.page_url, {**phone.state, "tap": "tile:5p"})
    assert response.status_code == 200
    page = html(response)
    assert "<html" in page and state_of(page)["win_tile"] == "5p"


# ------------------------------------------------------------------ the tile picker


def test_tap_adds_tiles_last_one_is_the_win_tile(phone: Phone) -> None:
    phone.tap("tile:1m", "tile:9p", "tile:7z")
    assert phone.state["hand"] == "1m9p" and phone.state["win_tile"] == "7z"


def test_tap_a_hand_tile_takes_it_back(phone: Phone) -> None:
    phone.tap("tile:1m", "tile:1m", "tile:2m")
    phone.tap("hand:1m")
    assert phone.state["hand"] == "1m" and phone.state["win_tile"] == "2m"
    phone.tap("hand:win")
    assert phone.state["hand"] == "1m" and phone.state["win_tile"] == ""
    phone.tap("tile:3s")  # the next tile added is the win tile again
    assert phone.state["win_tile"] == "3s"
    phone.tap("clear")
    assert phone.state["hand"] == "" and phone.state["win_tile"] == ""


def test_choose_another_win_tile(phone: Phone) -> None:
    phone.tap("winner:1", "from:2")
    phone.tiles(WIN_TILES)
    page = phone.tap("tool:win")
    assert phone.state["tool"] == "win" and 'value="tool:win" aria-pressed="true"' in page
    phone.tap("hand:4p")
    assert phone.state["win_tile"] == "4p" and phone.state["tool"] == ""
    assert sorted(parse_tiles(phone.state["hand"])) == sorted(parse_tiles("111222333m56p77z"))
    page = phone.tap("tool:win", "tile:9s")  # not in the hand
    assert tap_message(page) == "手牌里没有九条。"
    assert phone.state["win_tile"] == "4p"


def test_melds_chi_pung_kongs(phone: Phone) -> None:
    phone.tap("tool:chi", "tile:1m")
    assert phone.state["melds"] == "chi:1m" and phone.state["tool"] == ""  # one tap per tool
    phone.tap("tool:pung", "tile:7z", "tool:kong", "tile:3s", "tool:concealed_kong", "tile:5p")
    assert phone.state["melds"] == "chi:1m pung:7z kong:3s concealed_kong:5p"
    page = phone.tap("meld:1")  # tap a meld to remove it
    assert phone.state["melds"] == "chi:1m kong:3s concealed_kong:5p"
    phone.tap("tool:added_kong", "tile:9m")
    assert phone.state["melds"].endswith("added_kong:9m")
    page = phone.tap("tool:chi", "tool:chi")  # tapping the active tool again leaves it
    assert phone.state["tool"] == ""
    assert page.count('class="pk-meld ') == 4
    pick = Pick.read(phone.state, phone.session, __import__("rules").get_ruleset("mcr"))
    assert pick.hand()["melds"] == [
        {"type": "chi", "tiles": "123m", "exposed": True},
        {"type": "kong", "tiles": "3333s", "exposed": True},
        {"type": "kong", "tiles": "5555p", "exposed": False},
        {"type": "kong", "tiles": "9999m", "exposed": True, "added": True},
    ]


def test_illegal_chi_is_refused_with_a_message(phone: Phone) -> None:
    page = phone.tap("tool:chi", "tile:8m")
    assert "八万" in tap_message(page) and phone.state["melds"] == ""
    page = phone.tap("tool:chi", "tile:5z")
    assert "白" in tap_message(page) and phone.state["melds"] == ""
    assert phone.state["tool"] == ""


def test_a_fifth_copy_is_refused(phone: Phone) -> None:
    phone.tap("tile:1m", "tile:1m", "tile:1m", "tile:1m")
    page = phone.tap("tile:1m")
    assert "一万" in tap_message(page)
    assert phone.state["hand"] == "111m" and phone.state["win_tile"] == "1m"
    page = phone.tap("tool:chi", "tile:1m")  # a chi needs one more 1m too
    assert "一万" in tap_message(page) and phone.state["melds"] == ""
    phone.tap("tool:pung", "tile:9p", "tile:9p")
    page = phone.tap("tool:kong", "tile:9p")
    assert "九筒" in tap_message(page) and phone.state["melds"] == "pung:9p"


def test_a_complete_hand_takes_no_more_tiles(phone: Phone) -> None:
    phone.tiles(WIN_TILES)
    page = phone.tap("tile:9s")
    assert tap_message(page) and "9s" not in phone.state["hand"]
    page = phone.tap("tool:pung", "tile:9s")
    assert tap_message(page) and phone.state["melds"] == ""


def test_at_most_four_melds(phone: Phone) -> None:
    phone.tap(*[x for t in ("1m", "2p", "3s", "4z") for x in ("tool:pung", f"tile:{t}")])
    page = phone.tap("tool:pung", "tile:5z")
    assert tap_message(page) and len(phone.state["melds"].split()) == 4


def test_waits_when_one_tile_short(phone: Phone) -> None:
    page = phone.tiles("1112345678999m")  # 九莲宝灯 waits on every 万
    assert 'class="pk-waits"' in page
    waits = re.findall(r'<div class="pk-waits">.*?</div>', page, re.S)[0]
    assert re.findall(r'value="tile:(\w\w)"', waits) == [f"{n}m" for n in range(1, 10)]
    page = phone.tap("tile:5m")  # tap a wait: the hand is complete
    assert 'class="pk-waits"' not in page and phone.state["win_tile"] == "5m"


def test_waits_with_melds_and_not_ready(phone: Phone) -> None:
    phone.tap("tool:pung", "tile:7z")
    page = phone.tiles("123m456p789s1z")
    assert re.findall(r'<div class="pk-waits">.*?value="tile:(\w\w)"', page, re.S) == ["1z"]
    phone.tap("hand:9s", "hand:1z")
    page = phone.tiles("1z3z")  # 78s, 1z, 3z: nothing completes it
    assert 'class="pk-waits"' not in page and "这手牌没有听牌。" in page


def test_winner_needed_before_scoring(phone: Phone) -> None:
    page = phone.tiles(WIN_TILES)
    assert "谁和牌？请选择和牌者。" in page and 'class="pk-fans"' not in page
    page = phone.tap("winner:1")
    assert "是自摸，还是谁放的炮？" in page
    page = phone.tap("from:1")  # the winner cannot be his own discarder
    assert tap_message(page) and phone.state["discarder"] == ""
    page = phone.tap("from:2")
    assert 'class="pk-fans"' in page and confirm_enabled(page)


def test_a_winning_hand_shows_fans_total_and_payments(phone: Phone) -> None:
    page = winning_phone(phone).page
    assert "一色三节高" in page and "Pure Shifted Pungs" in page  # both names, from the engine
    assert "三暗刻" in page and "Three Concealed Pungs" in page
    total = int(re.search(r'<td class="pk-pts pk-total">(\d+)</td>', page).group(1))
    assert total >= 8
    # 乙 wins on 丙's discard: 丙 pays 8 + total, the others 8 each.
    assert f"{NM['乙']}<b>+{24 + total}</b>" in page
    assert f"{NM['丙']}<b>\u2212{8 + total}</b>" in page
    assert f"{NM['甲']}<b>\u22128</b>" in page and f"{NM['丁']}<b>\u22128</b>" in page
    assert not result_message(page) and confirm_enabled(page)
    assert "门风" in page and "<b>南</b>" in page  # 乙 sits South when 甲 deals


def test_not_a_win_shows_the_engine_message(phone: Phone) -> None:
    phone.tap("winner:1", "from:2")
    page = phone.tiles("123m456p789s1123z4z")
    assert result_message(page).startswith("这手牌不能和")
    assert not confirm_enabled(page)


def test_too_few_fans_shows_the_fans_and_the_shortfall(phone: Phone) -> None:
    phone.tap("winner:1", "from:2", "tool:chi", "tile:2p")
    page = phone.tiles("234m456p678s5p5p")
    assert "差" in result_message(page) and "8" in result_message(page)
    assert 'class="pk-fans"' in page  # what the hand has, so the table sees what is missing
    assert not confirm_enabled(page)


def test_flags_and_flowers_reach_the_engine(phone: Phone) -> None:
    phone.tap("winner:1", "from:2", "tool:kong", "tile:1m")
    phone.tiles("222333m456p7z7z")
    page = phone.tap("flag:last_tile", "flowers:+", "flowers:+")
    assert "海底捞月" in page and "花牌" in page and phone.state["flowers"] == "2"
    assert 'value="flag:robbing_kong"' in page and 'value="flag:after_kong"' not in page
    page = phone.tap("from:self", "flag:after_kong")
    assert "杠上开花" in page and "妙手回春" in page and 'value="flag:robbing_kong"' not in page
    pick = Pick.read({**phone.state, "flags": "after_kong,robbing_kong"}, phone.session,
                          __import__("rules").get_ruleset("mcr"))  # fmt: skip
    hand = pick.hand()
    assert hand["after_kong"] is True and "robbing_kong" not in hand  # 抢杠和 needs a discard


def test_unreadable_state_is_ignored_not_an_error(client: Client, session: GameSession) -> None:
    junk = {"token": "x", "kind": "?", "winner": "9", "discarder": "x", "dealer": "-1",
            "wind": "Q", "mode": "?", "hand": "11q", "win_tile": "0z", "melds": "chi:8m pung:?? x",
            "tool": "zzz", "flags": "a,b", "flowers": "99", "fans": "a:b,1:", "tap": "tile:9z"}  # fmt: skip
    response = client.post(reverse("scorer:preview", args=[session.code]), junk, **HTMX)
    assert response.status_code == 200
    state = state_of(html(response))
    assert state["hand"] == "" and state["melds"] == "" and state["winner"] == ""
    assert state["dealer"] == "0" and state["wind"] == "E"
    assert tap_message(html(response))  # "9z" is not a tile: the engine's message


# ------------------------------------------------------------------ quick entry


def test_quick_entry_lists_the_fans_and_scores_them(phone: Phone) -> None:
    page = phone.tap("winner:1", "from:self", "mode:quick")
    assert 'value="fan:48:+"' in page and "一色四节高" in page and "Quad Chow" not in page
    assert 'value="tile:1m"' not in page  # no picker in quick mode
    page = phone.tap("fan:59:+", "fan:59:+")  # 箭刻 x2 = 4: not enough
    assert "不足 8 番" in result_message(page) and not confirm_enabled(page)
    page = phone.tap("fan:24:+", "fan:59:-", "flowers:+")  # 一色三节高 24 + 箭刻 2 + a flower
    assert phone.state["fans"] == "24:1,59:1" and phone.state["flowers"] == "1"
    total = int(re.search(r'<td class="pk-pts pk-total">(\d+)</td>', page).group(1))
    assert total == 24 + 2 + 1
    assert f"{NM['乙']}<b>+{3 * (8 + total)}</b>" in page and confirm_enabled(page)
    page = phone.tap("fan:24:-", "fan:59:-")
    assert phone.state["fans"] == "" and "请选出这手牌的番种。" in page


def test_quick_entry_lists_everyday_fans_first_and_folds_the_big_ones(phone: Phone) -> None:
    page = phone.tap("mode:quick")
    heads = re.findall(r'<h2 class="pk-quick-group">(.*?)</h2>', page)
    # The everyday fans (the ruleset's list) first, then every other fan by its points.
    catalog = get_ruleset("mcr").fan_catalog()
    others = sorted({f["points"] for f in catalog if not f.get("common")})
    assert heads == ["常用番种", *(f"{p} 番" for p in others)]
    common = re.search(r"常用番种</h2>(.*?)<h2", page, re.S)
    assert common is not None
    names = re.findall(r'<span class="pk-zh" lang="zh-hans">(.*?)</span>', common.group(1))
    assert names[:3] == ["平和", "断幺", "门前清"] and "清一色" in names and "大四喜" not in names
    fold = r'<details class="pk-quick-fold"( open)?>\s*<summary>\s*<h2[^>]*>(\d+)'
    folded = re.findall(fold, page)
    assert folded == [("", p) for p in ("12", "16", "24", "32", "48", "64", "88")]
    assert "一色四节高" in page  # a folded fan is on the page, only hidden until opened
    page = phone.tap("fan:1:+")  # 大四喜, 88: its group stays open while it is picked
    assert re.search(r'<details class="pk-quick-fold" open>\s*<summary>\s*<h2[^>]*>88 番', page)
    page = phone.tap("fan:1:-")  # ...and after the tap that takes it back
    assert re.search(r'<details class="pk-quick-fold" open>\s*<summary>\s*<h2[^>]*>88 番', page)
    page = phone.tap("fan:59:+")
    assert not re.search(r'<details class="pk-quick-fold" open>', page)


def test_dealer_and_wind_fold_into_one_line(phone: Phone) -> None:
    assert '<details class="rec-where">' in phone.page
    assert "东风圈，庄家 甲" in phone.page
    # A select changed: htmx posts the form without a tap; the selects stay open.
    response = phone.client.post(phone.preview_url, {**phone.state, "dealer": "2"}, **HTMX)
    page = html(response)
    assert '<details class="rec-where" open>' in page and "东风圈，庄家 丙" in page
    phone.state = state_of(page)
    page = phone.tap("winner:1")  # any tap folds them again; 丙 deals, so 乙 sits North
    assert '<details class="rec-where">' in page and "门风 <b>北</b>" in page


def test_the_status_line_shows_one_thing_at_a_time(phone: Phone) -> None:
    page = phone.tap("tile:1m")
    assert '<p class="pk-hint">' in page
    page = phone.tap("tool:chi")  # the tool's tip replaces the hint
    assert '<p class="pk-tool-tip">' in page and '<p class="pk-hint">' not in page
    page = phone.tap("tile:8m")  # a refused tap: its message, not the hint
    assert tap_message(page) and '<p class="pk-hint">' not in page
    page = phone.tap("tile:9m")
    assert '<p class="pk-hint">' in page
    # The hand keeps room for all 14 tiles from the start.
    assert page.count('<span class="pk-slot" aria-hidden="true"></span>') == 14 - 2


def test_draw_needs_no_hand(phone: Phone) -> None:
    page = phone.tap("kind:draw")
    assert 'value="tile:1m"' not in page and 'value="winner:0"' not in page
    assert "荒庄" in page and confirm_enabled(page)


# ------------------------------------------------------------------ confirm


def test_confirm_records_the_round_and_goes_to_the_session(client: Client, phone: Phone) -> None:
    winning_phone(phone)
    response = phone.confirm(me="3")  # the phone says who it is: the fourth seat
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:session", args=[phone.session.code])
    rnd = Round.objects.get()
    assert str(rnd.token) == phone.state["token"] and rnd.current is not None
    rev = rnd.current
    assert rev.author == NAMES[3] and rev.winners == [1] and rev.kind == "win"
    assert rev.entry["hand"] == {"concealed": "111222333m456p7z", "win_tile": "7z"}
    assert rev.entry["discarder"] == 2 and rev.entry["dealer"] == 0
    # Remembered for this table: the next form says who records without asking.
    assert state_of(html(client.get(phone.page_url)))["me"] == "3"
    # Another phone has not said who it is: it is asked, never given this one's name.
    assert state_of(html(Client().get(phone.page_url)))["me"] == ""


def test_confirm_by_htmx_redirects_the_client(phone: Phone) -> None:
    winning_phone(phone)
    response = phone.confirm(htmx=True)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("scorer:session", args=[phone.session.code])
    assert Round.objects.count() == 1
    # The phone never said who it is: no name is made up (no browser name either).
    assert Round.objects.get().current.author == ""


def test_double_confirm_records_once(client: Client, session: GameSession) -> None:
    phone = winning_phone(Phone(client, session))
    other = Client()  # a second phone posting the very same form
    assert phone.confirm().status_code == 302
    assert phone.confirm(htmx=True)["HX-Redirect"]
    assert other.post(phone.confirm_url, {**phone.state, "confirm": "1"}).status_code == 302
    assert Round.objects.count() == 1 and RoundRevision.objects.count() == 1


def test_confirm_a_bad_hand_saves_nothing(phone: Phone) -> None:
    phone.tap("winner:1", "from:2")
    phone.tiles("123m456p789s1123z4z")
    response = phone.confirm()
    assert response.status_code == 400
    page = html(response)
    assert "<html" in page and result_message(page).startswith("这手牌不能和")
    response = phone.confirm(htmx=True)
    assert response.status_code == 200 and "<html" not in html(response)
    assert "这手牌不能和" in html(response)
    assert Round.objects.count() == 0 and RoundRevision.objects.count() == 0
    phone.session.refresh_from_db()
    assert phone.session.version == 0


def test_confirm_an_incomplete_form_saves_nothing(phone: Phone) -> None:
    phone.tiles(WIN_TILES)
    page = html(phone.confirm())  # no winner yet: the engine asks for one
    assert "请选择和牌者" in page
    phone.tap("winner:1")
    page = html(phone.confirm())  # self-drawn or a discard: never guessed
    assert "是自摸，还是谁放的炮？" in tap_message(page)
    response = phone.confirm(token="not-a-uuid")
    assert response.status_code == 400 and tap_message(html(response))
    assert state_of(html(response))["token"] != "not-a-uuid"  # a fresh one to retry with
    assert Round.objects.count() == 0


def test_confirm_a_draw(phone: Phone) -> None:
    phone.tap("kind:draw")
    response = phone.confirm(token="")  # messages show without the picker too
    assert response.status_code == 400 and tap_message(html(response))
    phone.state = state_of(html(response))
    assert phone.confirm().status_code == 302
    rev = Round.objects.get().current
    assert rev.kind == "draw" and rev.deltas == [0, 0, 0, 0] and rev.winners == []


def test_confirm_quick_entry(phone: Phone) -> None:
    phone.tap("winner:3", "from:self", "mode:quick", "fan:24:+", "fan:59:+")
    assert phone.confirm().status_code == 302
    rev = Round.objects.get().current
    assert rev.entry["mode"] == "quick" and rev.entry["fans"] == {"24": 1, "59": 1}
    assert rev.deltas[3] == 3 * (8 + 26)


# ------------------------------------------------------------------ corrections


def recorded(session: GameSession, **entry: Any) -> Round:
    hand = {"concealed": "111222333m456p7z", "win_tile": "7z", "melds": [], "flowers": 1}
    return record(session, by_tiles(**{"hand": hand, **entry}), author="A")


def test_edit_is_prefilled_from_the_current_revision(client: Client, session: GameSession) -> None:
    rnd = recorded(session, dealer=3, prevalent_wind="S", hand={
        "concealed": "123m456p78s11z", "win_tile": "9s", "last_tile": True,
        "melds": [{"type": "kong", "tiles": "5555z", "exposed": False}]})  # fmt: skip
    phone = Phone(client, session, rnd.number)
    s = phone.state
    assert (s["hand"], s["win_tile"], s["melds"]) == ("123m456p78s11z", "9s", "concealed_kong:5z")
    assert (s["winner"], s["discarder"], s["dealer"], s["wind"]) == ("1", "2", "3", "S")
    assert s["flags"] == "last_tile" and s["base"] == "1" and s["round"] == "1"
    edit_url = reverse("scorer:edit", args=[session.code, rnd.number])
    assert f'action="{edit_url}"' in phone.page and f'formaction="{edit_url}"' in phone.page
    page = phone.tap("tile:1m")  # previews keep the edit context
    assert f'hx-post="{edit_url}"' in page and tap_message(page)  # complete: no more tiles


def test_edit_prefills_quick_entry_and_draws(client: Client, session: GameSession) -> None:
    q = record(session, by_fans({"24": 1}, winner=0, discarder=None, flowers=2))
    d = record(session, DRAW)
    s = Phone(client, session, q.number).state
    assert (s["mode"], s["fans"], s["flowers"], s["discarder"]) == ("quick", "24:1", "2", "self")
    assert Phone(client, session, d.number).state["kind"] == "draw"


def test_edit_confirm_adds_a_revision(client: Client, session: GameSession) -> None:
    rnd = recorded(session)
    phone = Phone(client, session, rnd.number)
    phone.tap("winner:3", "from:0", "flowers:-")
    response = phone.confirm(author="裁判")
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:round", args=[session.code, rnd.number])
    rnd.refresh_from_db()
    assert [r.number for r in rnd.revisions.all()] == [1, 2]
    assert rnd.current is not None and rnd.current.number == 2
    assert rnd.current.winners == [3] and rnd.current.author == "裁判"
    assert rnd.revisions.get(number=1).winners == [1]  # the first version is kept
    # a double tap on the same correction adds nothing
    assert phone.confirm(htmx=True)["HX-Redirect"]
    assert rnd.revisions.count() == 2


def test_edit_confirm_without_changes_adds_nothing(client: Client, session: GameSession) -> None:
    rnd = recorded(session)
    response = Phone(client, session, rnd.number).confirm()
    assert response.status_code == 302 and rnd.revisions.count() == 1


def test_edit_confirm_after_someone_else_corrected(client: Client, session: GameSession) -> None:
    rnd = recorded(session)
    phone = Phone(client, session, rnd.number)
    rnd.revise({**rnd.current.entry, "winner": 0, "discarder": 1}, author="other phone")
    phone.tap("flowers:+")
    response = phone.confirm()
    assert response.status_code == 409 and "另一部手机" in tap_message(html(response))
    assert rnd.revisions.count() == 2
    phone.state = state_of(html(response))  # the page now knows; confirming again replaces it
    assert phone.confirm().status_code == 302 and rnd.revisions.count() == 3


def test_edit_bad_correction_saves_nothing(client: Client, session: GameSession) -> None:
    rnd = recorded(session)
    phone = Phone(client, session, rnd.number)
    phone.tap("hand:7z", "tile:4z")
    response = phone.confirm()
    assert response.status_code == 400 and result_message(html(response))
    assert rnd.revisions.count() == 1


def test_edit_without_javascript(client: Client, session: GameSession) -> None:
    rnd = recorded(session)
    phone = Phone(client, session, rnd.number)
    response = client.post(phone.page_url, {**phone.state, "tap": "flowers:+"})
    assert response.status_code == 200 and state_of(html(response))["flowers"] == "2"
    assert rnd.revisions.count() == 1


# ------------------------------------------------------------------ errors, language


def test_unknown_session_and_round_404(client: Client, session: GameSession) -> None:
    assert client.get(reverse("scorer:record", args=["nope"])).status_code == 404
    assert client.post(reverse("scorer:preview", args=["nope"]), **HTMX).status_code == 404
    assert client.post(reverse("scorer:confirm", args=["nope"])).status_code == 404
    assert client.get(reverse("scorer:edit", args=["nope", 1])).status_code == 404
    assert client.get(reverse("scorer:edit", args=[session.code, 1])).status_code == 404
    assert client.post(reverse("scorer:edit", args=[session.code, 7])).status_code == 404
    preview = reverse("scorer:preview", args=[session.code])
    assert client.post(preview, {"round": "3"}, **HTMX).status_code == 404


def test_wrong_methods_405(client: Client, session: GameSession) -> None:
    code = session.code
    assert client.get(reverse("scorer:preview", args=[code])).status_code == 405
    assert client.get(reverse("scorer:confirm", args=[code])).status_code == 405
    assert client.put(reverse("scorer:record", args=[code])).status_code == 405
    rnd = recorded(session)
    assert client.delete(reverse("scorer:edit", args=[code, rnd.number])).status_code == 405


def test_english_from_the_language_cookie(en_client: Client, session: GameSession) -> None:
    phone = Phone(en_client, session)
    assert '<html lang="en">' in phone.page
    # A tile's name starts with what its face shows (WCAG 2.5.3), then its English name.
    assert 'aria-label="一万 (1 Character)"' in phone.page and 'aria-label="中 (Red)"' in phone.page
    assert "Pick tiles" in phone.page and "Record a round" in phone.page
    page = phone.tap("tool:chi", "tile:8m")
    assert tap_message(page).startswith("8 Characters cannot start a chi")
    phone.tap("clear", "winner:1", "from:2")
    page = phone.tiles("123m456p789s1123z4z")
    assert "is not a winning hand" in result_message(page)
    phone.tap("clear", "tool:chi", "tile:2p")
    page = phone.tiles("234m456p678s5p5p")
    assert "short of the 8-fan minimum" in result_message(page)
