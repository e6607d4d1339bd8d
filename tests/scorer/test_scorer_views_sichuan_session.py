"""四川麻将 at the table: the start form, the round in progress on the session page
(event by event, polled), taking back the last event, the ledger, a round's page
and the JSON API.

Every expected amount is worked out here from the seed rules (base 6; 直杠 1×
base from the discarder; 暗杠 2× base from each player still in; a discard win
pays base × 2^(番−1); 花猪 16× base) or from the engine's single-hand `score()`,
never read back from the page.  Texts are checked in English (the Chinese of
the new words is pending in locale/pending/session_sichuan.po).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import REGISTRY, score, waits
from rules.rulesets.sichuan.round import REASONS
from rules.tiles import parse_tile, tile_zh
from scorer.models import GameSession, Round
from scorer.models.rooms import default_room
from scorer.templatetags.scorer_format import signed_text
from tests.factories import event, make_table, phone, record
from tests.pages import html, text, text_of

pytestmark = pytest.mark.django_db

BASE = 6
NAMES = ["甲", "乙", "丙", "丁"]
# 清七对 in 万: 5 番 → 6 × 2^4 = 96 on a discard.
PURE_PAIRS = {"concealed": "1122334466778m", "win_tile": "8m"}
# 对对胡 in 筒/条: 2 番 → 12 on a discard.
PUNGS = {"concealed": "111222p333s4455s", "win_tile": "5s"}
STRAIGHT = {"concealed": "123456789s1122s", "win_tile": "2s"}
RULES = REGISTRY["sichuan"]
REFUND_ZH = "退杠钱（没听牌）"


# --------------------------------------------------------------------------- helpers


def sichuan(**kw: Any) -> GameSession:
    return make_table("sichuan", kw.pop("players", NAMES), first_dealer=0, **kw)


def kong(player: int, kind: str, discarder: int | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind}
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


def win(seat: int, discarder: int | None, hand: dict[str, Any]) -> dict[str, Any]:
    return {"type": "win", "discarder": discarder, "winners": [{"seat": seat, "hand": hand}]}


def hand_value(hand: dict[str, Any], self_drawn: bool = False) -> int:
    r = score({"ruleset": "sichuan", **hand, "self_drawn": self_drawn})
    assert r["ok"] and r["win"], r
    return int(r["value"])


def events_shown(page: str) -> list[str]:
    return [text_of(m) for m in re.findall(r'<span class="ev-text">(.*?)</span>', page, re.S)]


def payments_shown(page: str) -> list[str]:
    return [
        text_of(m)
        for m in re.findall(
            r'<span class="ev-pay">(.*?)</span>(?=<span class="ev-pay">|\s*</li>)', page, re.S
        )
    ]


def fans_said(hand: dict[str, Any]) -> str:
    """A discard win's fans as the engine scores them: "Full flush Root 4 fans"."""
    r = score({"ruleset": "sichuan", **hand})
    names = [f["name_en"] + (f" ×{f['count']}" if f["count"] > 1 else "") for f in r["fans"]]
    return " ".join([*names, f"{r['total']} fans"])


def last_round(page: str) -> str:
    """The folded round just over on the session page (its <details>)."""
    m = re.search(r'<details class="last-round">.*?</details>', page, re.S)
    assert m, "no last round shown"
    return m.group(0)


def seat_cards(page: str) -> list[str]:
    return re.findall(r'<li class="seat[^"]*">.*?</li>', page, re.S)


@pytest.fixture
def en_client() -> Client:
    return phone("en")


class _FormReader(HTMLParser):
    """What a browser would submit from the start form as rendered (no JavaScript)."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self.kinds: dict[str, str] = {}
        self._select: str | None = None
        self._first_option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            self.kinds[name] = kind
            if kind == "checkbox":
                if "checked" in a:
                    self.data[name] = "on"
            elif kind != "submit":
                self.data[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._first_option = name, None
            self.kinds[name] = "select"
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
                self.data.setdefault(self._select, self._first_option)
            if "selected" in a:
                self.data[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def read_form(page: str) -> _FormReader:
    reader = _FormReader()
    reader.feed(
        page[
            page.index('<form class="start-form"') : page.index(
                "</form>", page.index('<form class="start-form"')
            )
        ]
    )
    return reader


# --------------------------------------------------------------------------- start a 四川 table


def test_home_offers_sichuan_with_its_presets(client: Client) -> None:
    page = html(client.get("/", {"ruleset": "sichuan"}))
    configs = {c.preset: c for c in default_room().configs.filter(ruleset="sichuan")}
    assert [p.id for p in RULES.presets] == ["xuezhan", "chengdu"] and configs.keys() == {
        "xuezhan",
        "chengdu",
    }
    select = re.findall(r'<select name="config".*?</select>', page, re.S)
    assert select
    offered = re.findall(r'<option value="([^"]+)"', select[0])
    assert offered.index(str(configs["xuezhan"].pk)) + 1 == offered.index(
        str(configs["chengdu"].pk)
    )
    assert re.search(rf'<option value="{configs["xuezhan"].pk}" selected>', select[0])


def test_home_renders_every_sichuan_parameter_from_its_declaration(en_client: Client) -> None:
    page = html(en_client.get("/", {"ruleset": "sichuan"}))
    form = read_form(page)
    for p in RULES.params:
        name = f"param_{p.name}"
        assert p.label_en in page
        if p.type == "bool":
            # An on/off switch, ticked as the default says.
            assert form.kinds[name] == "checkbox"
            assert (name in form.data) is p.default
        elif p.type == "choice":
            assert form.kinds[name] == "select"
            select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
            assert select
            options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select[0])
            assert [v for v, _ in options] == list(p.choices)
            # Each value is said in words, never shown as its raw id.
            assert all(label.strip() and label.strip() != value for value, label in options)
            assert form.data[name] == p.default
        else:
            assert form.kinds[name] == "number"
            assert form.data[name] == str(p.default)
            field = re.search(rf'<input type="number" name="{name}"[^>]*>', page)
            assert field and f'min="{int(p.min or 0)}"' in field[0]
            assert f'max="{int(p.max or 0)}"' in field[0]
    # The choices' help texts only explained the raw values, now said by the options.
    assert "xuezhan:" not in page and "pow_fan_minus_1:" not in page
    # Sichuan is played by four: no choice.
    assert form.kinds["players"] == "hidden" and form.data["players"] == "4"


def test_home_parameters_in_chinese(client: Client) -> None:
    page = html(client.get("/", {"ruleset": "sichuan"}))
    for p in RULES.params:
        assert p.label_zh in page
    assert "xuezhan：" not in page  # the raw values' explanation is not shown


def test_changing_the_preset_renders_its_values(client: Client) -> None:
    chengdu = RULES.preset("chengdu")
    assert chengdu is not None
    config = default_room().configs.get(ruleset="sichuan", preset="chengdu")
    response = client.get("/", {"config": config.pk}, HTTP_HX_REQUEST="true")
    fragment = html(response)
    assert fragment.lstrip().startswith('<div id="ruleset-fields"')
    reader = _FormReader()
    reader.feed(fragment)
    for name, value in chengdu.params.items():
        if isinstance(value, bool):
            assert (f"param_{name}" in reader.data) is value
        else:
            assert reader.data[f"param_{name}"] == str(value)


def test_start_form_creates_a_sichuan_session_with_the_chengdu_preset(client: Client) -> None:
    chengdu = RULES.preset("chengdu")
    assert chengdu is not None
    # What the phone submits after picking 四川麻将 and 成都五元: the form as rendered.
    config = default_room().configs.get(ruleset="sichuan", preset="chengdu")
    data = read_form(html(client.get("/", {"config": config.pk}))).data
    assert data["config"] == str(config.pk)
    data.update({f"name_{i}": name for i, name in enumerate(NAMES)})
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302
    s = GameSession.objects.get()
    assert response["Location"] == reverse("scorer:session", args=[s.code])
    assert (s.ruleset, s.preset, s.players) == ("sichuan", f"room:{config.pk}", NAMES)
    assert dict(s.rules.params) == {**RULES.defaults, **chengdu.params}
    # Every value is stored, so a later change of a default changes nothing here.
    assert s.params == {**RULES.defaults, **chengdu.params}
    # And the session scores with it: 成都 money is base × 2^番, base 5 here.
    r = event(s, win(2, 0, PUNGS))
    value = int(score({"ruleset": "sichuan", "params": s.params, **PUNGS})["value"])
    assert value == 5 * 2 ** score({"ruleset": "sichuan", "params": s.params, **PUNGS})["total"]
    assert r.current is not None and r.current.deltas == [-value, 0, value, 0]


def test_start_form_refuses_a_bad_sichuan_parameter(client: Client) -> None:
    data = read_form(html(client.get("/", {"ruleset": "sichuan"}))).data
    data["param_kong_concealed"] = "17"  # declared max 16
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 400
    assert 'id="id_param_kong_concealed_error"' in html(response)
    assert GameSession.objects.count() == 0


# --------------------------------------------------------------------------- the session page


def test_session_page_offers_kong_win_and_wall_end(en_client: Client) -> None:
    s = sichuan()
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    record = reverse("scorer:record", args=[s.code])
    for kind in ("kong", "win", "wall_end"):
        assert f'href="{record}?kind={kind}"' in page
    assert "Record a kong" in page and "Record a win" in page and "The wall ran out" in page
    # No round yet: the next round's start is proposed (no 圈风 in 四川), nothing to take back.
    assert "Next hand: dealer 甲" in text_of(page) and "East round" not in text_of(page)
    assert 'class="live-round"' not in page and 'class="last-round"' not in page
    assert reverse("scorer:undo_event", args=[s.code]) not in page


def test_mcr_session_page_keeps_its_one_record_button(en_client: Client) -> None:
    s = make_table("mcr", NAMES)
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert "?kind=" not in page and "Record a kong" not in page
    assert (
        f'<a class="button primary" href="{reverse("scorer:record", args=[s.code])}">Record a round</a>'
        in page
    )


def test_a_kong_shows_in_the_round_in_progress_with_its_payments(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(0, "concealed"))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert "Round 1 · in progress" in text_of(page)
    assert events_shown(page) == ["甲: concealed kong"]
    each = 2 * BASE  # 暗杠: "下雨立刻收取其他未胡者2倍點數"
    assert payments_shown(page) == [f"乙, 丙, 丁 pay {each} each"]
    totals = [3 * each, -each, -each, -each]
    shown = [text_of(m) for m in re.findall(r'<span class="total [^"]+">(.*?)</span></span>', page)]
    assert shown == [signed_text(t) for t in totals]


def test_exposed_kong_and_a_discard_win_in_plain_words(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "exposed", discarder=2))
    event(s, win(2, 0, PURE_PAIRS))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    fans = score({"ruleset": "sichuan", **PURE_PAIRS})["total"]
    value = hand_value(PURE_PAIRS)
    assert value == BASE * 2 ** (fans - 1)
    assert events_shown(page) == [
        "乙: exposed kong on 丙's discard",
        f"丙 wins on 甲's discard · Pure seven pairs {fans} fans",
    ]
    # 直杠: the discarder pays 1 × base; the win: the discarder pays the hand's value.
    assert payments_shown(page) == [f"丙 → 乙 {BASE}", f"甲 → 丙 {value}"]
    # 丙 has won: marked on his seat, the others play on.
    cards = seat_cards(page)
    assert ["is-out" in c for c in cards] == [False, False, True, False]
    assert "Won" in text_of(cards[2]) and "Already won: 丙." in text_of(page)


def test_a_self_draw_after_a_win_is_paid_by_the_players_still_in(en_client: Client) -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, None, PURE_PAIRS))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    each = hand_value(PURE_PAIRS, self_drawn=True) + BASE  # 自摸加底
    assert payments_shown(page)[-1] == f"甲, 乙 pay {each} each"  # 丁 is out: he pays nothing
    assert ["is-out" in c for c in seat_cards(page)] == [False, False, True, True]


def test_the_round_in_progress_is_dealt_by_its_own_dealer(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"), position={"dealer": 2, "prevalent_wind": "E"})
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    cards = seat_cards(page)
    assert ["is-dealer" in c for c in cards] == [False, False, True, False]
    assert "Round 1 · in progress Dealer 丙" in text_of(page) and "Next hand" not in page
    assert "East round" not in text_of(page)
    # Finished: the next round is proposed (血战: the next seat deals).
    event(s, win(3, 0, PUNGS))
    event(s, win(1, 0, PURE_PAIRS))
    event(s, win(2, 0, STRAIGHT))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert 'class="live-round"' not in page
    assert "Next hand: dealer 丁" in text_of(page) and "East round" not in text_of(page)


def test_wall_end_lines_pigs_not_ready_and_refunds(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(0, "concealed"))  # 甲 collects 12 from each, then turns out a 花猪
    event(s, win(3, 1, PUNGS))
    hands = [
        {"seat": 0, "concealed": "123m456p789s1239m"},  # three suits: 花猪
        {"seat": 1, "concealed": "123456789m1234m"},  # ready
        {"seat": 2, "concealed": "12345678p13579s"},  # not ready
    ]
    r = event(s, {"type": "wall_end", "hands": hands})
    assert not r.in_progress
    ready = waits({"ruleset": "sichuan", "concealed": "123456789m1234m"})["waits"]
    claim = max(hand_value({"concealed": "123456789m1234m", "win_tile": t}) for t in ready)
    pig = 16 * BASE
    kong_each = 2 * BASE
    page = html(en_client.get(reverse("scorer:round", args=[s.code, 1])))
    current = page[page.index('class="current-version"') : page.index('class="history"')]
    wall = re.findall(r'<li class="event">.*?</ul>', current, re.S)[-1]
    assert "The wall has run out" in wall
    assert "甲: flower pig (still holds three suits)" in text_of(wall)
    assert "丙: not ready" in text_of(wall)
    moves = re.findall(
        r'<span class="ev-move">(\S+) → (\S+) <strong>(\d+)</strong></span>\s*'
        r'<span class="ev-why"><span lang="zh-hans" class="pk-zh">([^<]+)</span> <span lang="en" class="pk-en">([^<]+)</span>',
        wall,
    )
    assert moves == [
        ("甲", "乙", str(pig), *REASONS["pig"]),
        ("甲", "丙", str(pig), *REASONS["pig"]),
        ("丙", "乙", str(claim), *REASONS["not_ready"]),
        # 甲 is not ready (a 花猪): his 暗杠 money goes back to the three who paid it,
        # said with the one term for readiness (没听牌).
        ("甲", "乙", str(kong_each), REFUND_ZH, REASONS["kong_refund"][1]),
        ("甲", "丙", str(kong_each), REFUND_ZH, REASONS["kong_refund"][1]),
        ("甲", "丁", str(kong_each), REFUND_ZH, REASONS["kong_refund"][1]),
    ]
    # On the session page the same, grouped and labelled, in the round just over.
    s_page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert 'class="live-round"' not in s_page  # the round is over
    last = last_round(s_page)
    assert events_shown(last)[-1] == "The wall has run out"
    assert "丙: not ready" in text_of(last) and "乙: ready (best wait" in text_of(last)
    assert f"甲 → 乙, 丙, 丁, {kong_each} each" in payments_shown(last)[-1]


def test_a_finished_round_stays_folded_until_the_next_one_starts(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    event(s, win(1, 0, STRAIGHT))  # the third winner: the round is over
    assert s.round_in_progress() is None
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert 'class="live-round"' not in page
    last = last_round(page)  # folded: <details> without "open"
    assert text_of(re.search(r"<summary>(.*?)</summary>", last, re.S)[1]) == "Last round (round 1)"
    assert events_shown(last) == [
        "乙: concealed kong",
        f"丁 wins on 甲's discard · {fans_said(PUNGS)}",
        f"丙 wins on 甲's discard · {fans_said(PURE_PAIRS)}",
        f"乙 wins on 甲's discard · {fans_said(STRAIGHT)}",
    ]
    each = 2 * BASE
    a, b, c = hand_value(PUNGS), hand_value(PURE_PAIRS), hand_value(STRAIGHT)
    assert payments_shown(last) == [
        f"甲, 丙, 丁 pay {each} each",
        f"甲 → 丁 {a}",
        f"甲 → 丙 {b}",
        f"甲 → 乙 {c}",
    ]
    # The round's points, which are the totals after one round.
    deltas = [-each - a - b - c, 3 * each + c, -each + b, -each + a]
    assert s.tallies() == deltas
    shown = re.search(r'<p class="last-round-deltas">(.*?)</p>', last, re.S)
    assert shown and text_of(shown[1]) == "Points this round " + " · ".join(
        f"{n} {signed_text(d)}" for n, d in zip(NAMES, deltas, strict=True)
    )
    # What 撤销上一步 would take back is the last event listed.
    box = re.search(r'<details class="undo-box undo-event">.*?</details>', page, re.S)
    assert box and undo_form(page) == {"round": "1", "events": "4"}
    assert f"round 1: “{events_shown(last)[-1]}”" in text_of(box[0])
    # The next round starts: only it is shown.
    event(s, kong(0, "concealed"))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert 'class="last-round"' not in page and 'class="live-round"' in page
    assert events_shown(page) == ["甲: concealed kong"]


def test_taking_back_from_the_round_just_over_shows_it_in_progress_again(
    en_client: Client,
) -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    event(s, win(1, 0, STRAIGHT))
    url = reverse("scorer:undo_event", args=[s.code])
    page = html(en_client.post(url, {"round": "1", "events": "3"}, follow=True))
    assert 'class="last-round"' not in page
    live = re.search(r'<section class="live-round".*?</section>', page, re.S)
    assert live and len(events_shown(live[0])) == 2


# --------------------------------------------------------------------------- polling


def test_polling_answers_304_then_200_after_another_phone_adds_an_event(client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    url = reverse("scorer:tallies", args=[s.code])
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    was = ",".join(str(t) for t in s.tallies())
    # Another phone: 丙 wins on 甲's discard.
    event(s, win(2, 0, PUNGS), author="Android WeChat")
    again = client.get(url, {"was": was}, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    fragment = html(again)
    assert fragment.lstrip().startswith('<section id="tallies"')
    assert len(re.findall(r'<li class="event', fragment)) == 2
    value = hand_value(PUNGS)
    assert payments_shown(fragment)[-1] == f"甲 → 丙 {value}"
    # The totals that moved flash: 甲 paid, 丙 was paid.
    assert ["changed" in c for c in seat_cards(fragment)] == [True, False, True, False]
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_polling_shows_the_round_just_over_and_answers_304_while_it_stays(
    client: Client,
) -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    url = reverse("scorer:tallies", args=[s.code])
    first = client.get(url)
    etag = first["ETag"]
    assert 'class="live-round"' in html(first)
    event(s, win(1, 0, STRAIGHT), author="another phone")  # the round is over
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    fragment = html(again)
    assert 'class="live-round"' not in fragment
    assert "上一局（第 1 局）" in last_round(fragment) and len(events_shown(fragment)) == 3
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


# --------------------------------------------------------------------------- take back the last event


def undo_form(page: str) -> dict[str, str]:
    form = re.search(r'<details class="undo-box undo-event">.*?</details>', page, re.S)
    assert form, "no undo-last-event box"
    return dict(re.findall(r'<input type="hidden" name="(round|events)" value="([^"]*)">', form[0]))


def test_undo_last_event_is_a_confirm_step_with_what_the_page_shows(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    box = re.search(r'<details class="undo-box undo-event">.*?</details>', page, re.S)
    assert box
    assert f'action="{reverse("scorer:undo_event", args=[s.code])}"' in box[0]
    assert undo_form(page) == {"round": "1", "events": "2"}
    assert "Take back the last event of round 1: “丙 wins on 甲's discard" in text_of(box[0])
    assert "Undo the last step" in box[0]  # the <summary>: nothing is taken back before the confirm


def test_undo_last_event_takes_back_one_event(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    url = reverse("scorer:undo_event", args=[s.code])
    response = en_client.post(url, {"round": "1", "events": "2"}, follow=True)
    assert response.redirect_chain == [(reverse("scorer:session", args=[s.code]), 302)]
    page = html(response)
    assert "Took back the last event of round 1: “丙 wins on 甲's discard" in text_of(page)
    each = 2 * BASE
    assert s.tallies() == [-each, 3 * each, -each, -each]
    rnd = s.rounds.get()
    assert rnd.in_progress and rnd.status == Round.ACTIVE and rnd.revisions.count() == 3
    assert events_shown(page) == ["乙: concealed kong"]
    assert undo_form(page) == {"round": "1", "events": "1"}


def test_undo_last_event_seen_stale_takes_back_nothing(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    s.refresh_from_db()
    before = (s.tallies(), s.version, s.rounds.get().revisions.count())
    url = reverse("scorer:undo_event", args=[s.code])
    for stale in ({"round": "1", "events": "1"}, {"round": "2", "events": "2"}, {}):
        page = html(en_client.post(url, stale, follow=True))
        assert "Nothing was taken back: round 1 changed on another phone meanwhile" in page
    s.refresh_from_db()
    assert (s.tallies(), s.version, s.rounds.get().revisions.count()) == before


def test_two_phones_taking_back_at_once_take_back_one_event(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, kong(3, "exposed", discarder=0))
    event(s, win(2, 0, PUNGS))
    url = reverse("scorer:undo_event", args=[s.code])
    seen = {"round": "1", "events": "3"}  # both phones show the same three events
    other = Client()
    assert en_client.post(url, seen).status_code == 302
    page = html(other.post(url, seen, HTTP_ACCEPT_LANGUAGE="en", follow=True))
    assert "Nothing was taken back" in page
    rnd = s.rounds.get()
    assert rnd.current is not None and len(rnd.current.entry["events"]) == 2
    each = 2 * BASE
    assert s.tallies() == [-each - BASE, 3 * each, -each, -each + BASE]


def test_taking_back_the_only_event_undoes_the_round(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    url = reverse("scorer:undo_event", args=[s.code])
    page = html(en_client.post(url, {"round": "1", "events": "1"}, follow=True))
    assert "the only event of round 1: the round is undone" in text_of(page)
    rnd = s.rounds.get()
    assert rnd.status == Round.UNDONE and not rnd.in_progress
    assert s.tallies() == [0, 0, 0, 0]
    assert 'class="live-round"' not in page and "undo-event" not in page
    assert 'class="last-round"' not in page  # an undone round is not shown as the last one
    assert "Next hand: dealer 甲" in text_of(page)


def test_taking_back_the_last_win_reopens_a_finished_round(en_client: Client) -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    event(s, win(1, 0, STRAIGHT))
    page = html(en_client.get(reverse("scorer:session", args=[s.code])))
    assert 'class="live-round"' not in page
    assert undo_form(page) == {"round": "1", "events": "3"}
    url = reverse("scorer:undo_event", args=[s.code])
    page = html(en_client.post(url, {"round": "1", "events": "3"}, follow=True))
    rnd = s.rounds.get()
    assert rnd.in_progress
    assert "Round 1 · in progress" in text_of(page)
    value = hand_value(PUNGS) + hand_value(PURE_PAIRS)
    assert s.tallies() == [-value, 0, hand_value(PURE_PAIRS), hand_value(PUNGS)]


def test_undo_event_with_no_round_played_as_events(en_client: Client) -> None:
    mcr = make_table("mcr", NAMES)
    record(mcr)
    url = reverse("scorer:undo_event", args=[mcr.code])
    page = html(en_client.post(url, {"round": "1", "events": "1"}, follow=True))
    assert "There is no event to take back." in page
    assert mcr.rounds.get().status == Round.ACTIVE
    empty = sichuan()
    page = html(en_client.post(reverse("scorer:undo_event", args=[empty.code]), {}, follow=True))
    assert "There is no event to take back." in page


def test_undo_event_is_post_only_and_htmx_gets_a_client_redirect(client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    url = reverse("scorer:undo_event", args=[s.code])
    assert client.get(url).status_code == 405
    assert client.post(reverse("scorer:undo_event", args=["nope"])).status_code == 404
    response = client.post(url, {"round": "1", "events": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("scorer:session", args=[s.code])
    assert s.rounds.get().status == Round.UNDONE


# --------------------------------------------------------------------------- ledger and the round's page


def ledger_rows(page: str) -> list[str]:
    return re.findall(r'<details class="ledger-round[^"]*".*?</details>', page, re.S)


def test_ledger_marks_the_round_in_progress_and_sums_it(en_client: Client) -> None:
    s = sichuan()
    event(s, win(3, 0, PUNGS))
    event(s, win(2, 0, PURE_PAIRS))
    event(s, win(1, 0, STRAIGHT))
    event(s, kong(2, "concealed"))  # round 2, in progress
    page = html(en_client.get(reverse("scorer:ledger", args=[s.code])))
    rows = ledger_rows(page)
    assert len(rows) == 2
    assert "In progress" not in rows[0] and "In progress" in rows[1]
    # A version per event is no correction: no asterisk.
    assert "<sup" not in rows[0] and "<sup" not in rows[1]
    first = [-hand_value(PUNGS) - hand_value(PURE_PAIRS) - hand_value(STRAIGHT),
             hand_value(STRAIGHT), hand_value(PURE_PAIRS), hand_value(PUNGS)]  # fmt: skip
    second = [-2 * BASE, -2 * BASE, 6 * BASE, -2 * BASE]
    running = [a + b for a, b in zip(first, second, strict=True)]
    cells = re.findall(
        r'<span class="delta pts n\d+">([^<]+)</span><small class="sum pts n\d+">([^<]+)</small>',
        rows[1],
    )
    assert cells == [(signed_text(d), signed_text(t)) for d, t in zip(second, running, strict=True)]
    assert s.tallies() == running


def test_ledger_row_detail_lists_every_transfer_with_its_reason(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, kong(3, "exposed", discarder=0))
    event(s, win(2, 0, PUNGS))
    page = html(en_client.get(reverse("scorer:ledger", args=[s.code])))
    detail_url = reverse("scorer:round", args=[s.code, 1]) + "?part=current"
    assert f'hx-get="{detail_url}"' in page
    detail = html(en_client.get(detail_url))
    moves = re.findall(
        r'<span class="ev-move">(\S+) → (\S+) <strong>(\d+)</strong></span>\s*'
        r'<span class="ev-why"><span lang="zh-hans" class="pk-zh">([^<]+)</span> <span lang="en" class="pk-en">([^<]+)</span>',
        detail,
    )
    concealed = 2 * BASE
    assert moves == [
        ("甲", "乙", str(concealed), *REASONS["kong_concealed"]),
        ("丙", "乙", str(concealed), *REASONS["kong_concealed"]),
        ("丁", "乙", str(concealed), *REASONS["kong_concealed"]),
        ("甲", "丁", str(BASE), *REASONS["kong_exposed"]),
        ("甲", "丙", str(hand_value(PUNGS)), *REASONS["win_discard"]),
    ]
    assert "In progress" in detail
    # Each event says where the round stands once it is paid.
    after_kong = [-concealed, 3 * concealed, -concealed, -concealed]
    running = re.findall(r'<span class="ev-running">(.*?)</span>\s*</li>', detail, re.S)
    assert text_of(running[0]).endswith(
        " · ".join(f"{n} {signed_text(v)}" for n, v in zip(NAMES, after_kong, strict=True))
    )


def test_round_page_history_lists_each_event_added_and_taken_back(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"), author="iPhone WeChat")
    event(s, win(2, 0, PUNGS), author="老王")
    en_client.post(reverse("scorer:whoami", args=[s.code]), {"seat": "1"})  # this phone is 乙
    en_client.post(
        reverse("scorer:undo_event", args=[s.code]),
        {"round": "1", "events": "2"},
        HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/120.0",
    )
    page = html(en_client.get(reverse("scorer:round", args=[s.code, 1])))
    history = page[page.index('class="history"') :]
    summaries = [text_of(m) for m in re.findall(r"<summary>(.*?)</summary>", history, re.S)]
    assert len(summaries) == 3
    newest, middle, oldest = summaries
    assert newest.startswith("v3 current · 乙") and "Taken back: 丙 wins on 甲's discard" in newest
    assert middle.startswith("v2 · 老王") and "Added: 丙 wins on 甲's discard" in middle
    assert oldest.startswith("v1 · iPhone WeChat") and "Added: 乙: concealed kong" in oldest
    # The round is corrected like any other, a step at a time (test_scorer_correct_events.py).
    assert reverse("scorer:edit", args=[s.code, 1]) in page


def test_an_undone_events_round_is_struck_through(en_client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    s.undo_last(author="phone", expected=1)
    page = html(en_client.get(reverse("scorer:ledger", args=[s.code]), {"undone": "1"}))
    rows = ledger_rows(page)
    assert len(rows) == 1 and "is-undone" in rows[0] and "<del" in rows[0]
    assert "In progress" not in rows[0]
    detail = html(en_client.get(reverse("scorer:round", args=[s.code, 1]), {"part": "current"}))
    assert 'class="revision is-undone"' in detail and "Not finished" in detail


def test_the_pages_render_in_chinese_too(client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    for url in (
        reverse("scorer:session", args=[s.code]),
        reverse("scorer:ledger", args=[s.code]),
        reverse("scorer:round", args=[s.code, 1]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert '<html lang="zh-hans">' in html(response)
    page = html(client.get(reverse("scorer:round", args=[s.code, 1])))
    assert REASONS["kong_concealed"][0] in page and REASONS["win_discard"][0] in page


def test_chinese_pages_say_ting_pai_and_no_prevalent_wind(client: Client) -> None:
    """One term for readiness (听牌 / 没听牌 / 花猪) and no 圈风 on any 四川 page."""
    s = sichuan()
    event(s, kong(0, "concealed"), position={"dealer": 2, "prevalent_wind": "E"})
    page = text(client.get(reverse("scorer:session", args=[s.code])))
    assert "第 1 局 · 进行中 庄家 丙" in page and "风圈" not in page
    event(s, win(3, 1, PUNGS))
    hands = [
        {"seat": 0, "concealed": "123m456p789s1239m"},  # three suits: 花猪
        {"seat": 1, "concealed": "123456789m1234m"},  # ready
        {"seat": 2, "concealed": "12345678p13579s"},  # not ready
    ]
    event(s, {"type": "wall_end", "hands": hands})
    ready = waits({"ruleset": "sichuan", "concealed": "123456789m1234m"})["waits"]
    best = max(ready, key=lambda t: hand_value({"concealed": "123456789m1234m", "win_tile": t}))
    best_fans = score({"ruleset": "sichuan", "concealed": "123456789m1234m", "win_tile": best})
    ready_line = f"乙 听牌（和{tile_zh(parse_tile(best))}最大，{best_fans['total']} 番）"
    session_page = html(client.get(reverse("scorer:session", args=[s.code])))
    last = text_of(last_round(session_page))
    detail = text_of(
        html(client.get(reverse("scorer:round", args=[s.code, 1]), {"part": "current"}))
    )
    round_page = text(client.get(reverse("scorer:round", args=[s.code, 1])))
    assert "下一局：庄家 丁" in text_of(session_page) and "上一局（第 1 局）" in last
    for shown in (last, detail, round_page):
        assert "甲 花猪（手上还有三门牌）" in shown
        assert ready_line in shown and "丙 没听牌" in shown
        assert "有叫" not in shown and "没叫" not in shown and "无叫" not in shown
        assert REFUND_ZH in shown
    for shown in (detail, round_page):
        assert "第 1 局 · 庄家 丙" in shown and "风圈" not in shown
    assert "风圈" not in text_of(session_page)


def test_mcr_pages_keep_the_prevalent_wind(client: Client) -> None:
    mcr = make_table("mcr", NAMES)
    record(mcr)
    assert "下一局：东风圈，庄家" in text_of(
        html(client.get(reverse("scorer:session", args=[mcr.code])))
    )
    detail = html(client.get(reverse("scorer:round", args=[mcr.code, 1]), {"part": "current"}))
    assert "东风圈，庄家 甲" in text_of(detail)
    assert "东风圈，庄家 甲" in text_of(
        html(client.get(reverse("scorer:round", args=[mcr.code, 1])))
    )


# --------------------------------------------------------------------------- the JSON API


def test_api_includes_the_round_in_progress(client: Client) -> None:
    s = sichuan()
    event(s, kong(1, "concealed"))
    event(s, win(2, 0, PUNGS))
    body = client.get(reverse("scorer:api_session", args=[s.code])).json()
    each = 2 * BASE
    value = hand_value(PUNGS)
    deltas = [-each - value, 3 * each, -each + value, -each]
    assert body["totals"] == deltas
    assert body["round_in_progress"] == {
        "number": 1,
        "dealer": 0,
        "prevalent_wind": "E",
        "events": 2,
        "out": [2],
        "finished": False,
        "deltas": deltas,
    }
    event(s, win(3, 0, PURE_PAIRS))
    event(s, win(1, 0, STRAIGHT))
    assert (
        client.get(reverse("scorer:api_session", args=[s.code])).json()["round_in_progress"] is None
    )


def test_api_of_an_mcr_session_is_unchanged(client: Client) -> None:
    s = make_table("mcr", NAMES)
    assert (
        "round_in_progress" not in client.get(reverse("scorer:api_session", args=[s.code])).json()
    )
