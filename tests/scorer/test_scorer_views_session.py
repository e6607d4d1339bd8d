"""The table's pages: start a session, the session page and its polling, undo, ledger, rounds."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules import REGISTRY
from rules.registry import get_ruleset
from rules.rulesets.mcr.ruleset import Mcr
from scorer.models import GameSession, RoomConfig, Round
from scorer.models.rooms import default_room
from scorer.present.words import author_label
from scorer.templatetags.scorer_format import signed_text
from tests.factories import DRAW, by_tiles, make_table, phone, record
from tests.pages import html
from tests.support.start import start_data

pytestmark = pytest.mark.django_db

MINUS = "\u2212"  # points are printed with a true minus sign, never an ASCII hyphen

NAMES = ["老王", "小李", "阿强", "美玲"]


@pytest.fixture
def en_client() -> Client:
    return phone("en")


# --------------------------------------------------------------------------- home / start


def test_home_is_the_start_form_in_chinese(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = html(response)
    assert '<html lang="zh-hans">' in page
    assert '<h1 class="place-head">棋牌室</h1>' in page
    first = default_room().offered_configs()[0]
    assert f'action="{reverse("scorer:room_create", args=[first.room.slug])}"' in page
    assert 'name="csrfmiddlewaretoken"' in page
    # The room's first configuration, preselected; its parameters come from the engine, in Chinese.
    assert first.ruleset == "mcr"
    assert re.search(rf'<option value="{first.pk}" selected>[^<]*国标麻将</option>', page)
    for label in ("起和番", "明暗杠", "每张花分", "连庄", "底分"):
        assert label in page
    assert "和牌最少需要的番数" in page  # help text
    for i in range(4):
        assert f'name="name_{i}"' in page


def test_home_offers_the_rooms_configurations_once_each_in_its_order(client: Client) -> None:
    page = html(client.get("/"))
    offered = re.findall(r'<option value="([^"]+)"[^>]*>[^<]*</option>', page.split("name_0")[0])
    # A configuration copied from every preset of every table ruleset, in the rulesets'
    # declared order; nothing listed by hand, no code preset beside them.
    room = default_room()
    table = sorted((rs for rs in REGISTRY.values() if rs.table_play), key=lambda r: (r.order, r.id))
    configs = room.offered_configs()
    assert offered == [str(c.pk) for c in configs]
    order = [rs.id for rs in table]
    assert sorted({c.ruleset for c in configs}, key=order.index) == order
    assert [order.index(c.ruleset) for c in configs] == sorted(
        order.index(c.ruleset) for c in configs
    )
    assert 'value="generic"' not in page
    # The admins' order and choice: a configuration moved first is preselected, one
    # no longer offered is gone.
    last, first = configs[-1], configs[0]
    last.order = 0
    last.save()
    first.enabled = False
    first.save()
    page = html(client.get("/"))
    offered = re.findall(r'<option value="([^"]+)"[^>]*>[^<]*</option>', page.split("name_0")[0])
    assert offered[0] == str(last.pk) and str(first.pk) not in offered
    assert re.search(rf'<option value="{last.pk}" selected>', page)


def test_home_parameter_inputs_follow_the_declarations(client: Client) -> None:
    page = html(client.get("/"))
    min_fans = re.search(r'<input type="number" name="param_min_fans"[^>]*>', page)
    assert min_fans and 'value="8"' in min_fans[0]
    assert 'min="0"' in min_fans[0] and 'max="88"' in min_fans[0]
    checkbox = re.search(r'<input type="checkbox" name="param_mixed_kong_fan"[^>]*>', page)
    assert checkbox and "checked" in checkbox[0]
    assert '<select name="param_dealer_repeat"' in page
    for choice in ("never", "dealer_wins", "dealer_wins_or_draw"):
        assert f'<option value="{choice}"' in page
    # MCR is played by four: no player-count choice, just the fixed value.
    assert '<input type="hidden" name="players" value="4">' in page


def test_home_in_english(en_client: Client) -> None:
    page = html(en_client.get("/"))
    assert '<html lang="en">' in page
    assert "Chinese Official (MCR)" in page
    assert "Minimum fans" in page and "起和番" not in page
    assert "Start a table" in page


def test_home_in_english_from_accept_language(client: Client) -> None:
    page = html(client.get("/", headers={"accept-language": "en-US,en;q=0.8"}))
    assert "Minimum fans" in page


def test_home_ruleset_change_renders_only_its_fields(client: Client) -> None:
    config = default_room().configs.filter(ruleset="mcr").first()
    assert config is not None
    response = client.get("/", {"config": config.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = html(response)
    assert fragment.lstrip().startswith('<div id="ruleset-fields"')
    assert "<html" not in fragment and "name_0" not in fragment
    assert 'name="param_min_fans"' in fragment


def test_home_is_read_only(client: Client) -> None:
    assert client.post("/").status_code == 405


def test_create_stores_the_session_and_every_parameter_value(client: Client) -> None:
    data = start_data(
        param_min_fans="6",
        param_dealer_repeat="dealer_wins",
        money_per_point="0.50",
        first_dealer="2",
    )
    del data["param_mixed_kong_fan"]  # unticked: differs from the default (on)
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302
    s = GameSession.objects.get()
    assert response["Location"] == reverse("scorer:session", args=[s.code])
    assert s.ruleset == "mcr"
    assert s.players == NAMES
    assert s.first_dealer == 2
    assert s.money_per_point == Decimal("0.50")
    # Every value the session plays with, the changed ones and the defaults: a later
    # change of a default never changes this session's rounds.
    changed = {"min_fans": 6, "dealer_repeat": "dealer_wins", "mixed_kong_fan": False}
    assert s.params == {**get_ruleset("mcr").defaults, **changed}
    assert s.rules.params["base"] == 8


def test_create_with_defaults_stores_the_defaults(client: Client) -> None:
    data = start_data(name_1="", name_3="  ")
    for key in ("param_min_fans", "param_base"):
        data[key] = ""  # a blank number keeps the default
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302
    s = GameSession.objects.get()
    assert s.params == dict(get_ruleset("mcr").defaults)
    assert s.money_per_point is None
    assert s.players[0] == "老王" and s.players[2] == "阿强"
    assert s.players[1] and s.players[3] and s.players[1] != s.players[3]  # named after seats


@pytest.mark.parametrize(
    ("field", "value", "message_zh"),
    [
        ("param_min_fans", "abc", "必须是整数"),
        ("param_min_fans", "99", "在 0 到 88 之间"),
        ("param_flower_points", "1.5", "必须是整数"),
        ("param_dealer_repeat", "sometimes", "之一"),
    ],
)
def test_create_parameter_errors_save_nothing(
    client: Client, field: str, value: str, message_zh: str
) -> None:
    response = client.post(reverse("scorer:create"), start_data(**{field: value}))
    assert response.status_code == 400
    page = html(response)
    assert message_zh in page  # the ruleset's own message, in Chinese
    assert f'id="id_{field}_error"' in page  # beside its field
    assert 'role="alert"' in page
    assert GameSession.objects.count() == 0


def test_create_parameter_error_in_english(en_client: Client) -> None:
    response = en_client.post(reverse("scorer:create"), start_data(param_min_fans="99"))
    assert response.status_code == 400
    page = html(response)
    assert "must be from 0 to 88" in page
    assert "Nothing was saved" in page
    assert GameSession.objects.count() == 0


@pytest.mark.parametrize(
    "overrides",
    [
        {"ruleset": "generic"},  # not a table ruleset
        {"ruleset": "nope"},
        {"players": "3"},  # MCR is played by four
        {"first_dealer": "4"},
        {"money_per_point": "-1"},
        {"money_per_point": "lots"},
        {"name_0": "x" * 17},
        {"name_1": "老王"},  # two players with one name
    ],
)
def test_create_form_errors_save_nothing(client: Client, overrides: dict[str, str]) -> None:
    response = client.post(reverse("scorer:create"), start_data(**overrides))
    assert response.status_code == 400
    assert 'class="form-errors"' in html(response)
    assert GameSession.objects.count() == 0


def test_create_is_post_only(client: Client) -> None:
    assert client.get(reverse("scorer:create")).status_code == 405


def test_create_needs_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("scorer:create"), start_data()).status_code == 403
    assert GameSession.objects.count() == 0
    page = html(client.get("/"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    data = start_data(csrfmiddlewaretoken=token[1])
    assert client.post(reverse("scorer:create"), data).status_code == 302
    assert GameSession.objects.count() == 1


class _ThreeOrFour(Mcr):
    id = "three_or_four"
    players = (3, 4)


@pytest.fixture
def three_player_rules(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(REGISTRY, _ThreeOrFour.id, _ThreeOrFour())
    RoomConfig.objects.create(room=default_room(), ruleset=_ThreeOrFour.id, name="三四人")
    return _ThreeOrFour.id


def test_three_player_option_when_the_ruleset_allows_it(
    client: Client, three_player_rules: str
) -> None:
    page = html(client.get("/", {"ruleset": three_player_rules}))
    assert '<select name="players"' in page
    assert '<option value="3"' in page and '<option value="4"' in page
    data = start_data(ruleset=three_player_rules, players="3", first_dealer="2")
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302
    s = GameSession.objects.get()
    assert s.players == NAMES[:3] and s.first_dealer == 2


def test_three_players_cannot_have_the_fourth_seat_deal(
    client: Client, three_player_rules: str
) -> None:
    data = start_data(ruleset=three_player_rules, players="3", first_dealer="3")
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 400
    assert 'id="id_first_dealer_error"' in html(response)
    assert GameSession.objects.count() == 0


# --------------------------------------------------------------------------- the session page


def test_session_page_shows_seats_totals_and_actions(client: Client) -> None:
    s = make_table()
    record(s)  # seat 1 wins on seat 2's discard; dealer was seat 0
    response = client.get(reverse("scorer:session", args=[s.code]))
    assert response.status_code == 200
    page = html(response)
    for name in NAMES:
        assert name in page
    totals = re.findall(
        r'<span class="total (pos|neg|zero)"><span class="pts n\d+">([^<]+)</span>', page
    )
    assert [t for _, t in totals] == [f"{MINUS}8", "+69", f"{MINUS}53", f"{MINUS}8"]
    assert [c for c, _ in totals] == ["neg", "pos", "neg", "neg"]
    # MCR passes the deal every hand: seat 1 deals next.
    assert page.count('class="seat is-dealer"') == 1
    seats = re.findall(r'<li class="seat( is-dealer)?">', page)
    assert seats[1] == " is-dealer"
    assert f'href="{reverse("scorer:record", args=[s.code])}"' in page
    assert f'href="{reverse("scorer:ledger", args=[s.code])}"' in page
    assert f'action="{reverse("scorer:undo", args=[s.code])}"' in page
    assert '<input type="hidden" name="round" value="1">' in page
    # The absolute share link, whole (it wraps) and selected by a tap to copy.
    share = re.search(r'<textarea id="share-url"[^>]*>([^<]*)</textarea>', page)
    assert share and share[1] == f"http://testserver/s/{s.code}/"
    assert "data-select-on-focus" in share[0] and "readonly" in share[0]
    assert f'src="{reverse("scorer:qr", args=[s.code])}"' in page
    assert f'hx-get="{reverse("scorer:tallies", args=[s.code])}"' in page
    # The stream's nudge (live.js fetches a version newer than the one shown), or the poll.
    assert 'hx-trigger="live:fetch, wake, every 3s"' in page
    s.refresh_from_db()
    assert f'data-live-version="{s.version}"' in page
    assert 'class="money' not in page  # no money per point set


def test_session_page_money(client: Client) -> None:
    s = make_table(money_per_point=Decimal("0.5"))
    record(s)
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    money = re.findall(
        r'<span class="money (?:pos|neg|zero)">.*?<span class="pts n\d+">([−+\d.]+)</span>', page
    )
    # One format per table: a rate with decimals gives every amount two.
    assert money == [f"{MINUS}4.00", "+34.50", f"{MINUS}26.50", f"{MINUS}4.00"]


def test_session_page_without_rounds(en_client: Client) -> None:
    s = make_table(first_dealer=3)
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert "No rounds yet" in page
    assert "dealer 美玲" in page
    assert reverse("scorer:undo", args=[s.code]) not in page  # nothing to undo
    assert (
        re.findall(r'<span class="total zero"><span class="pts n1">0</span>', page)
        and "+0" not in page
    )


def test_session_page_in_chinese_and_english(client: Client, en_client: Client) -> None:
    s = make_table()
    record(s)
    assert '<html lang="zh-hans">' in html(client.get(reverse("scorer:session", args=[s.code])))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert '<html lang="en">' in page
    assert "1 round played" in page and "Record a round" in page


def test_session_page_htmx_renders_the_tallies_partial(client: Client) -> None:
    s = make_table()
    record(s)
    response = client.get(reverse("scorer:session", args=[s.code]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    fragment = html(response)
    assert fragment.lstrip().startswith('<section id="tallies"')
    assert "<html" not in fragment and "<header" not in fragment
    assert "+69" in fragment


def test_session_page_unknown_code_is_404(client: Client) -> None:
    make_table()
    assert client.get("/s/nosuchcode/").status_code == 404


def test_session_page_is_read_only(client: Client) -> None:
    s = make_table()
    assert client.post(reverse("scorer:session", args=[s.code])).status_code == 405


def test_messages_show_on_the_session_page(en_client: Client) -> None:
    s = make_table()
    response = en_client.post(reverse("scorer:undo", args=[s.code]), follow=True)
    assert 'class="messages"' in html(response)


# --------------------------------------------------------------------------- polling


def test_tallies_etag_and_304(client: Client) -> None:
    s = make_table()
    url = reverse("scorer:tallies", args=[s.code])
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag == f'"0-{settings.LANGUAGE_CODE}"'
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    assert html(first).lstrip().startswith('<section id="tallies"')
    assert "&quot;If-None-Match&quot;: &quot;\\&quot;0-" in html(first)  # htmx sends it back

    same = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_HX_REQUEST="true")
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == etag

    record(s)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "+69" in html(changed)


def test_tallies_304_loads_only_the_session(client: Client, django_assert_num_queries: Any) -> None:
    s = make_table()
    for _ in range(3):
        record(s)
    s.refresh_from_db()
    url = reverse("scorer:tallies", args=[s.code])
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_tallies_mark_the_totals_that_moved_since_the_last_poll(client: Client) -> None:
    """The poll sends the totals it shows; the answer flashes the seats whose total moved."""
    s = make_table()
    url = reverse("scorer:tallies", args=[s.code])
    first = html(client.get(url, HTTP_HX_REQUEST="true"))
    assert " changed" not in first
    vals = re.search(r'hx-vals="([^"]+)"', first)
    assert vals and vals[1] == "{&quot;was&quot;: &quot;0,0,0,0&quot;}"
    record(s)  # -8 +69 -53 -8
    record(s, DRAW)
    page = html(client.get(url, {"was": "0,0,0,0"}, HTTP_HX_REQUEST="true"))
    assert len(re.findall(r'<li class="seat[^"]* changed">', page)) == 4
    assert "&quot;was&quot;: &quot;-8,69,-53,-8&quot;" in page  # for the next poll
    page = html(client.get(url, {"was": "-8,69,0,0"}, HTTP_HX_REQUEST="true"))
    seats = re.findall(r'<li class="seat([^"]*)">', page)
    assert ["changed" in c for c in seats] == [False, False, True, True]
    # A full page load, or a poll that sent nothing readable, flashes nothing.
    for was in ("", "1,2", "a,b,c,d"):
        assert " changed" not in html(client.get(url, {"was": was}, HTTP_HX_REQUEST="true"))
    assert " changed" not in html(client.get(reverse("scorer:session", args=[s.code])))


def test_recording_a_round_says_so_on_the_session_page(en_client: Client) -> None:
    s = make_table()
    state = {
        "token": str(uuid.uuid4()), "kind": "draw", "winner": "", "discarder": "",
        "dealer": "0", "wind": "E", "mode": "tiles", "hand": "", "win_tile": "", "melds": "",
        "tool": "", "flags": "", "flowers": "0", "fans": "", "confirm": "1",
    }  # fmt: skip
    response = en_client.post(reverse("scorer:confirm", args=[s.code]), state, follow=True)
    assert response.redirect_chain[-1][0] == reverse("scorer:session", args=[s.code])
    page = html(response)
    assert re.search(r'<li class="message success">Round 1 recorded.</li>', page)
    # Shown once: the next visit has no message.
    assert "Round 1 recorded." not in html(en_client.get(reverse("scorer:session", args=[s.code])))


def test_tallies_etag_depends_on_language(client: Client, en_client: Client) -> None:
    s = make_table()
    url = reverse("scorer:tallies", args=[s.code])
    zh = client.get(url)["ETag"]
    en = en_client.get(url)["ETag"]
    assert zh != en
    assert en_client.get(url, HTTP_IF_NONE_MATCH=zh).status_code == 200


def test_tallies_errors(client: Client) -> None:
    s = make_table()
    assert client.get("/s/nosuchcode/tallies").status_code == 404
    assert client.post(reverse("scorer:tallies", args=[s.code])).status_code == 405


# --------------------------------------------------------------------------- QR code


def test_qr_code_is_an_svg_of_the_link(client: Client) -> None:
    s = make_table()
    response = client.get(reverse("scorer:qr", args=[s.code]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content and b"<path" in response.content
    assert "max-age" in response["Cache-Control"]


def test_qr_code_errors(client: Client) -> None:
    s = make_table()
    assert client.get("/s/nosuchcode/qr.svg").status_code == 404
    assert client.post(reverse("scorer:qr", args=[s.code])).status_code == 405


# --------------------------------------------------------------------------- undo


def test_undo_the_last_round(en_client: Client) -> None:
    s = make_table()
    record(s)
    second = record(s)
    # The phone said once which player it is: its undo carries that name.
    en_client.post(reverse("scorer:whoami", args=[s.code]), {"seat": "2"})
    response = en_client.post(
        reverse("scorer:undo", args=[s.code]),
        {"round": "2"},
        HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40",
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:session", args=[s.code])
    second.refresh_from_db()
    assert second.status == Round.UNDONE
    assert second.undone_by == s.players[2]  # not the browser's name
    assert Round.objects.filter(status=Round.ACTIVE).count() == 1
    page = html(en_client.get(response["Location"]))
    assert "Round 2 undone" in page
    assert '<input type="hidden" name="round" value="1">' in page


def test_undo_with_nothing_to_undo(en_client: Client) -> None:
    s = make_table()
    response = en_client.post(reverse("scorer:undo", args=[s.code]), {"round": "1"}, follow=True)
    assert response.status_code == 200
    assert "There is no round to undo." in html(response)
    s.refresh_from_db()
    assert s.version == 0


def test_undo_refuses_a_stale_page(en_client: Client) -> None:
    """Two phones tapping undo for round 2: the second must not undo round 1."""
    s = make_table()
    record(s)
    record(s)
    url = reverse("scorer:undo", args=[s.code])
    en_client.post(url, {"round": "2"})
    response = en_client.post(url, {"round": "2"}, follow=True)
    assert "Nothing was undone" in html(response)
    assert Round.objects.filter(status=Round.ACTIVE).count() == 1
    en_client.post(url, {})  # no round given: nothing either
    assert Round.objects.filter(status=Round.ACTIVE).count() == 1


def test_undo_over_htmx_redirects_the_page(client: Client) -> None:
    s = make_table()
    record(s)
    response = client.post(
        reverse("scorer:undo", args=[s.code]), {"round": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Redirect"] == reverse("scorer:session", args=[s.code])
    assert Round.objects.get().status == Round.UNDONE


def test_undo_default_author(client: Client) -> None:
    s = make_table()
    rnd = record(s, author="A")  # the round's author is not the undo's
    client.post(reverse("scorer:undo", args=[s.code]), {"round": "1"})
    rnd.refresh_from_db()
    assert rnd.undone_by == ""  # the phone never said who it is: no name made up


def test_undo_errors(client: Client) -> None:
    s = make_table()
    record(s)
    assert client.get(reverse("scorer:undo", args=[s.code])).status_code == 405
    assert client.post("/s/nosuchcode/undo", {"round": "1"}).status_code == 404
    assert Round.objects.get().status == Round.ACTIVE


def test_undo_needs_csrf() -> None:
    s = make_table()
    record(s)
    client = Client(enforce_csrf_checks=True)
    url = reverse("scorer:undo", args=[s.code])
    assert client.post(url, {"round": "1"}).status_code == 403
    assert Round.objects.get().status == Round.ACTIVE
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    assert client.post(url, {"round": "1", "csrfmiddlewaretoken": token[1]}).status_code == 302
    assert Round.objects.get().status == Round.UNDONE


# --------------------------------------------------------------------------- ledger


def number_of(text: str) -> int:
    """A signed figure as the pages print it ("+69", "−53", "0") as an int."""
    return int(text.replace(MINUS, "-"))


def test_ledger_deltas_running_sums_and_details(client: Client) -> None:
    s = make_table()
    record(s)
    record(s, by_tiles(3, None))
    response = client.get(reverse("scorer:ledger", args=[s.code]))
    assert response.status_code == 200
    page = html(response)
    deltas = re.findall(r'<span class="delta pts n\d+">([^<]+)</span>', page)
    sums = re.findall(r'<small class="sum pts n\d+">([^<]+)</small>', page)
    r2 = Round.objects.get(number=2).current
    assert r2 is not None
    assert deltas[:4] == [f"{MINUS}8", "+69", f"{MINUS}53", f"{MINUS}8"]
    assert [number_of(d) for d in deltas[4:]] == r2.deltas
    assert [number_of(x) for x in sums[4:]] == s.tallies()
    assert "-" not in "".join(deltas + sums)
    assert "小字为累计" in page or "Small figures" in page  # the running sums are labelled
    foot = page.split('class="ledger-row ledger-foot"')[1]
    assert "合计" in foot and "Σ" not in page
    # Each round opens to its fans, payments and points, loaded then (htmx), with a real
    # link to the round's page for a phone without script.
    assert page.count('<details class="ledger-round"') == 2
    round_1 = reverse("scorer:round", args=[s.code, 1])
    assert f'hx-get="{round_1}?part=current" hx-trigger="toggle once"' in page
    assert 'hx-target="find .round-detail"' in page
    assert f'href="{round_1}"' in page
    assert "一色三节高" not in page  # not rendered until asked for
    part = html(client.get(round_1, {"part": "current"}, HTTP_HX_REQUEST="true"))
    assert part.lstrip().startswith('<div class="revision">')
    assert "<html" not in part
    assert "一色三节高" in part and "Pure Shifted Pungs" in part
    assert "老王 → 小李" in part
    assert f'<strong class="neg"><span class="sign">{MINUS}</span>53</strong>' in part


def test_ledger_shows_the_hand_in_chinese_tiles(client: Client) -> None:
    s = make_table()
    melded = {
        "concealed": "111m222m7z",
        "melds": [
            {"type": "pung", "tiles": "333m", "exposed": True},
            {"type": "kong", "tiles": "5555s", "exposed": False},
        ],
        "win_tile": "7z",
    }
    record(s)
    rnd = record(s, by_tiles(hand=melded))
    part = html(client.get(reverse("scorer:round", args=[s.code, 1]), {"part": "current"}))
    hand = re.search(r'<p class="hand">(.*?)</p>', part, re.S)
    assert hand
    text = re.sub(r"<[^>]+>", " ", hand[1])
    assert " ".join(text.split()) == "手牌 111222333万 456筒 中 + 和牌张 中"
    assert "7z" not in part and "111m" not in part
    assert rnd.current is not None
    part = html(client.get(reverse("scorer:round", args=[s.code, 2]), {"part": "current"}))
    hand = re.search(r'<p class="hand">(.*?)</p>', part, re.S)
    assert hand
    assert " ".join(re.sub(r"<[^>]+>", " ", hand[1]).split()) == (
        "手牌 111222万 中 碰 333万 暗杠 5555条 + 和牌张 中"
    )


def test_round_part_of_a_round_without_a_version(client: Client) -> None:
    s = make_table()
    Round.objects.create(session=s, number=1, token=uuid.uuid4())
    response = client.get(reverse("scorer:round", args=[s.code, 1]), {"part": "current"})
    assert response.status_code == 200 and response.content == b""


def test_ledger_undone_rounds_behind_a_toggle(en_client: Client) -> None:
    s = make_table()
    record(s)
    record(s, by_tiles(3, None))
    s.undo_last(author="iPhone WeChat")
    url = reverse("scorer:ledger", args=[s.code])
    page = html(en_client.get(url))
    assert "1 round undone." in page
    assert 'href="?undone=1"' in page
    assert 'id="round-2"' not in page
    page = html(en_client.get(url, {"undone": "1"}))
    assert '<details class="ledger-round is-undone" id="round-2"' in page
    struck = re.findall(r'<del class="delta pts n\d+">(.*?)</del>', page)
    # The sign apart from the struck digits (a line-through does not cross it).
    undone = Round.objects.get(number=2).current
    assert undone is not None
    assert struck == [
        f'<span class="sign">{"+" if d > 0 else MINUS}</span>{abs(d)}' for d in undone.deltas
    ]
    assert "Undone by iPhone WeChat" in page
    assert 'href="?undone=0"' in page
    # the running sums ignore it
    sums = re.findall(r'<small class="sum pts n\d+">([^<]+)</small>', page)
    assert sums == [f"{MINUS}8", "+69", f"{MINUS}53", f"{MINUS}8"]
    # Its details, loaded when opened, are greyed and struck: they count for nothing.
    part = html(en_client.get(reverse("scorer:round", args=[s.code, 2]), {"part": "current"}))
    assert part.lstrip().startswith('<div class="revision is-undone">')
    standing = html(en_client.get(reverse("scorer:round", args=[s.code, 1]), {"part": "current"}))
    assert standing.lstrip().startswith('<div class="revision">')


def test_undone_by_reads_in_the_reader_language(client: Client, en_client: Client) -> None:
    s = make_table()
    record(s)
    record(s)
    s.undo_last(author="phone")
    with translation.override("zh-hans"):
        phone = translation.gettext("phone")
    url = reverse("scorer:ledger", args=[s.code])
    assert f"由 {phone} 撤销" in html(client.get(url, {"undone": "1"}))
    assert "Undone by phone at" in html(en_client.get(url, {"undone": "1"}))
    assert f"由 {phone} 撤销" in html(client.get(reverse("scorer:round", args=[s.code, 2])))


def test_author_label() -> None:
    with translation.override("zh-hans"):
        phone, wechat = translation.gettext("phone"), translation.gettext("WeChat")
        assert author_label("phone") == phone
        assert author_label("iPhone WeChat") == f"iPhone {wechat}"
        assert author_label("Linux Chrome") == "Linux Chrome"
        assert author_label("phone A") == "phone A"  # a name the player typed stays
        assert author_label("") == ""
    with translation.override("en"):
        assert author_label("phone") == "phone"
        assert author_label("iPhone WeChat") == "iPhone WeChat"


def test_signed_text() -> None:
    assert signed_text(8) == "+8"
    assert signed_text(-8) == f"{MINUS}8"
    assert signed_text(0) == "0"
    assert signed_text(Decimal("-7.50")) == f"{MINUS}7.50"
    assert signed_text(Decimal("0.00")) == "0"
    assert signed_text(None) == ""
    assert signed_text("x") == "x"


def test_ledger_marks_corrected_rounds_and_totals_money(client: Client) -> None:
    s = make_table(money_per_point=Decimal("2"))
    rnd = record(s)
    rnd.revise(by_tiles(3, 0, dealer=0, prevalent_wind="E"), author="B")
    page = html(client.get(reverse("scorer:ledger", args=[s.code])))
    assert "<sup" in page  # corrected
    foot = page.split('class="ledger-row ledger-foot"')[1]
    assert "<small>" in foot  # money


def test_ledger_empty_and_errors(client: Client) -> None:
    s = make_table()
    assert client.get(reverse("scorer:ledger", args=[s.code])).status_code == 200
    assert client.get("/s/nosuchcode/ledger").status_code == 404
    assert client.post(reverse("scorer:ledger", args=[s.code])).status_code == 405


# --------------------------------------------------------------------------- one round


def test_round_page_current_version_and_history(en_client: Client) -> None:
    s = make_table()
    rnd = record(s, author="phone A")
    record(s)
    rnd.revise(by_tiles(3, None, dealer=0, prevalent_wind="E"), author="phone B")
    response = en_client.get(reverse("scorer:round", args=[s.code, 1]))
    assert response.status_code == 200
    page = html(response)
    assert "Current version: 2 of 2" in page
    assert "美玲 wins, self-drawn" in page
    assert "phone A" in page and "phone B" in page
    assert page.count("<details") == 2  # every version kept
    assert "is-undone" not in page
    assert "Three Concealed Pungs" in page and "三暗刻" in page
    assert "East round, dealer 老王" in page
    assert f'href="{reverse("scorer:edit", args=[s.code, 1])}"' in page
    assert f'href="{reverse("scorer:round", args=[s.code, 2])}"' in page  # next round


def test_round_page_of_an_undone_round(en_client: Client) -> None:
    s = make_table()
    record(s)
    s.undo_last(author="Android Chrome")
    page = html(en_client.get(reverse("scorer:round", args=[s.code, 1])))
    assert "Undone by Android Chrome" in page
    assert reverse("scorer:edit", args=[s.code, 1]) not in page
    # The current version and the history are greyed and struck: nothing counts.
    assert '<div class="revision is-undone">' in page
    assert '<details class="version is-current is-undone">' in page


def test_round_page_shows_a_draw(en_client: Client) -> None:
    s = make_table()
    record(s, DRAW)
    page = html(en_client.get(reverse("scorer:round", args=[s.code, 1])))
    assert "Drawn hand: nobody wins" in page


def test_round_page_errors(client: Client) -> None:
    s = make_table()
    record(s)
    assert client.get(reverse("scorer:round", args=[s.code, 2])).status_code == 404
    assert client.get("/s/nosuchcode/rounds/1/").status_code == 404
    assert client.post(reverse("scorer:round", args=[s.code, 1])).status_code == 405


# --------------------------------------------------------------------------- error pages


def test_404_page_in_both_languages(client: Client, en_client: Client) -> None:
    response = client.get("/s/nosuchcode/")
    assert response.status_code == 404
    assert '<html lang="zh-hans">' in html(response)
    assert 'class="site-header"' in html(response)
    page = html(en_client.get("/s/nosuchcode/"))
    assert "Page not found" in page
    assert "Traceback" not in page


def test_500_page_has_both_languages_and_no_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    s = make_table()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(GameSession, "standing_rounds", broken)
    client = Client(raise_request_exception=False)
    response = client.get(reverse("scorer:session", args=[s.code]))
    assert response.status_code == 500
    page = html(response)
    assert "出错了" in page and "Server error" in page
    assert "boom" not in page and "Traceback" not in page
    # Its way back is the table's own page (read off the address: no database).
    back = reverse("scorer:session", args=[s.code])
    assert render_to_string("500.html", {"back": back, "table": True}) == page
    assert f'href="{back}"' in page and "Back to the table" in page


def test_preset_fills_the_rule_options(client: Client) -> None:
    config = default_room().configs.get(ruleset="mcr", preset="room")
    page = html(client.get("/", {"config": config.pk}))
    assert "棋牌室" in page
    assert 'value="dealer_wins_or_draw" selected' in page or 'dealer_wins_or_draw" selected' in page


def test_create_from_a_preset_keeps_its_values(client: Client) -> None:
    config = default_room().configs.get(ruleset="mcr", preset="standard81")
    data = {
        "config": str(config.pk),
        "players": "4",
        "first_dealer": "0",
        "param_min_fans": "8",
        "param_knitted_wait_fans": "on",
        "param_flower_points": "1",
        "param_dealer_repeat": "never",
        "param_base": "8",
        # mixed_kong_fan unticked, as the preset shows it
    }
    response = client.post("/s/new", data)
    assert response.status_code == 302
    s = GameSession.objects.get()
    assert s.preset == f"room:{config.pk}"
    assert s.params == {**get_ruleset("mcr").defaults, "mixed_kong_fan": False}
