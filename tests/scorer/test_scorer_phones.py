"""Phones at one table: nothing doubled, nothing lost.

Two phones entering the same hand record it once; a reload keeps the entry in
progress; the home page lists the tables this phone opened (and no others); an
undone round can be restored; each phone says once which player it is.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession, Round, RoundChange
from scorer.templatetags.scorer_format import signed_text
from tests.factories import by_tiles, event, make_table, record
from tests.pages import html, text, text_of
from tests.support.htmx import HTMX
from tests.support.phone import ENTRY, NAMES, WIN_TILES, Phone, seven_pairs_phone, winning_phone
from tests.support.start import start_data
from tests.support.state import state_of, taken_panel

pytestmark = pytest.mark.django_db


def dealer_of(page: str) -> int:
    m = re.search(r'<select name="dealer">.*?<option value="(\d)" selected', page, re.S)
    assert m
    return int(m.group(1))


# ------------------------------------------------------------------ two phones, one hand


def test_two_phones_confirming_the_same_hand_record_it_once() -> None:
    session = make_table("mcr", NAMES)
    record(session, ENTRY)  # rounds 1 and 2 are played already
    record(session, by_tiles(winner=1, discarder=0))
    a, b = seven_pairs_phone(Client(), session), seven_pairs_phone(Client(), session)
    loaded_dealer = dealer_of(b.page)
    assert a.state["for_round"] == b.state["for_round"] == "3"

    assert a.confirm().status_code == 302
    response = b.confirm()
    assert response.status_code == 409  # nothing recorded: the phone is asked
    assert list(session.rounds.values_list("number", flat=True)) == [1, 2, 3]
    panel = taken_panel(html(response))
    assert "第 3 局刚被记录" in panel
    third = session.rounds.get(number=3)
    assert third.current is not None
    assert f"和牌：{NAMES[2]}" in panel and f"{third.current.result['total']} 番" in panel
    for seat, d in enumerate(third.current.deltas):
        assert f"{NAMES[seat]} {signed_text(d)}" in panel
    # While the question stands the round cannot be confirmed again by mistake.
    assert re.search(r'class="pk-confirm"[^>]*disabled', html(response))

    # B's hand was another one: record it as round 4, with the dealer after round 3.
    b.state = state_of(html(response))
    page = b.tap("taken:next")
    assert b.state["for_round"] == "4" and not taken_panel(page)
    session.refresh_from_db()
    expected_dealer, _ = session.next_position()
    assert dealer_of(page) == expected_dealer
    assert expected_dealer != loaded_dealer  # the stale dealer was replaced
    assert b.confirm().status_code == 302
    fourth = session.rounds.get(number=4)
    assert fourth.current is not None and fourth.current.dealer == expected_dealer


def test_the_second_phone_can_drop_its_entry() -> None:
    session = make_table("mcr", NAMES)
    a_client, b_client = Client(), Client()
    a, b = seven_pairs_phone(a_client, session), seven_pairs_phone(b_client, session)
    a.confirm(htmx=True)
    response = b.confirm(htmx=True)
    assert response.status_code == 200 and "第 1 局刚被记录" in taken_panel(html(response))
    b.state = state_of(html(response))
    response = b_client.post(b.preview_url, {**b.state, "tap": "taken:discard"}, **HTMX)
    assert response["HX-Redirect"] == reverse("scorer:session", args=[session.code])
    assert Round.objects.count() == 1
    # The dropped entry is gone from this phone: a new form starts empty, for round 2.
    fresh = state_of(html(b_client.get(b.page_url)))
    assert fresh["hand"] == "" and fresh["win_tile"] == "" and fresh["for_round"] == "2"


def test_a_form_learns_of_the_round_recorded_meanwhile_on_its_next_tap() -> None:
    session = make_table("mcr", NAMES)
    b = Phone(Client(), session)
    b.tap("winner:1")
    record(session, ENTRY, author=NAMES[3])  # phone A, meanwhile
    page = b.tap("from:2")
    panel = taken_panel(page)
    assert "第 1 局刚被记录" in panel and f"由 {NAMES[3]}" in panel


def test_the_same_form_confirmed_twice_is_no_conflict() -> None:
    """A double tap (same token) is answered with the round it recorded, not the question."""
    session = make_table("mcr", NAMES)
    phone = winning_phone(Phone(Client(), session))
    assert phone.confirm().status_code == 302
    assert phone.confirm().status_code == 302
    assert Round.objects.count() == 1


def test_an_event_table_starting_the_same_round_twice_is_asked_too() -> None:
    """四川: a round over in one event (血战 off) must not be recorded twice either."""
    session = make_table("sichuan", NAMES, params={"blood_battle": False})
    session.params = dict(session.rules.params)
    session.save()
    won = {"type": "win", "winners": [{"seat": 0, "hand": {"concealed": "111222333m4445m",
           "win_tile": "5m"}}], "discarder": 1}  # fmt: skip
    event(session, won, number=1)
    with pytest.raises(Exception) as e:
        event(session, won, number=1)
    assert type(e.value).__name__ == "RoundTaken"
    assert session.rounds.count() == 1


# ------------------------------------------------------------------ a reload keeps the entry


def test_a_reload_restores_the_entry_in_progress_until_confirmed() -> None:
    session = make_table("mcr", NAMES)
    client = Client()
    phone = Phone(client, session)
    phone.tap("winner:1", "from:2")
    phone.tiles("111222333m")
    reloaded = state_of(html(client.get(phone.page_url)))  # pull to refresh
    assert reloaded["hand"] == phone.state["hand"] != ""
    assert reloaded["winner"] == "1" and reloaded["discarder"] == "2"
    assert reloaded["token"] == phone.state["token"]  # still the same form: recorded once
    # Another phone has its own entry (none).
    assert state_of(html(Client().get(phone.page_url)))["hand"] == ""
    phone.state = reloaded
    phone.tiles("456p7z7z")
    assert phone.confirm().status_code == 302
    after = state_of(html(client.get(phone.page_url)))
    assert after["hand"] == "" and after["winner"] == "" and after["token"] != reloaded["token"]


def test_a_reload_restores_an_event_entry() -> None:
    session = make_table("sichuan", NAMES)
    session.params = dict(session.rules.params)
    session.save()
    client = Client()
    url = reverse("scorer:record", args=[session.code])
    page = html(client.get(url, {"kind": "kong"}))
    state = state_of(page)
    response = client.post(
        reverse("scorer:preview", args=[session.code]), {**state, "tap": "player:2"}, **HTMX
    )
    state = state_of(html(response))
    assert state["player"] == "2"
    again = state_of(html(client.get(url)))
    assert again["kind"] == "kong" and again["player"] == "2"
    # Asking for another kind of event starts that one afresh.
    assert state_of(html(client.get(url, {"kind": "win"})))["kind"] == "win"


# ------------------------------------------------------------------ the home page's tables


def _start(client: Client, names: list[str]) -> GameSession:
    data = start_data(**{f"name_{i}": n for i, n in enumerate(names)})
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302, html(response)[:2000]
    return GameSession.objects.get(code=response["Location"].strip("/").split("/")[-1])


def test_home_lists_the_tables_this_phone_opened_and_no_others() -> None:
    mine, theirs = Client(), Client()
    first = _start(mine, ["东一", "南一", "西一", "北一"])
    other = _start(theirs, ["别人甲", "别人乙", "别人丙", "别人丁"])
    shared = _start(theirs, ["共享甲", "共享乙", "共享丙", "共享丁"])
    mine.get(reverse("scorer:session", args=[shared.code]))  # opened from a shared link
    record(shared, ENTRY)  # played on: the latest activity
    page = text(mine.get(reverse("scorer:home")))
    assert "东一" in page and "共享甲" in page and "别人甲" not in page
    assert page.index("共享甲") < page.index("东一")  # latest activity first
    record(first, ENTRY)
    page = html(mine.get(reverse("scorer:home")))
    assert page.index("东一") < page.index("共享甲")
    assert reverse("scorer:session", args=[first.code]) in page  # reopened from there
    their_page = text(theirs.get(reverse("scorer:home")))
    assert "别人甲" in their_page and "东一" not in their_page
    assert other.code not in page
    # A phone that opened nothing sees no list at all.
    assert 'class="my-tables"' not in html(Client().get(reverse("scorer:home")))


# ------------------------------------------------------------------ undo, then restore


def test_an_undone_round_is_restored_with_its_history() -> None:
    session = make_table("mcr", NAMES)
    client = Client()
    client.post(reverse("scorer:whoami", args=[session.code]), {"seat": "3"})
    record(session, ENTRY)
    second = record(session, by_tiles(winner=2, discarder=0))
    before = session.tallies()
    client.post(reverse("scorer:undo", args=[session.code]), {"round": "2"})
    assert session.tallies() != before
    page = html(client.get(reverse("scorer:session", args=[session.code])))
    restore_url = reverse("scorer:restore", args=[session.code, 2])
    assert restore_url in page and "恢复第 2 局" in text_of(page)
    response = client.post(restore_url, follow=True)
    assert "第 2 局已恢复" in text(response)
    second.refresh_from_db()
    assert second.status == Round.ACTIVE and session.tallies() == before
    assert restore_url not in html(client.get(reverse("scorer:session", args=[session.code])))
    changes = list(second.changes.values_list("action", "author"))
    assert changes == [(RoundChange.UNDO, NAMES[3]), (RoundChange.RESTORE, NAMES[3])]
    history = text(client.get(reverse("scorer:round", args=[session.code, 2])))
    assert f"由 {NAMES[3]} 撤销" in history and f"由 {NAMES[3]} 恢复" in history
    # Restoring twice (two phones) restores once.
    client.post(restore_url)
    assert second.changes.count() == 2


def test_restoring_a_round_in_progress_waits_for_the_one_being_played() -> None:
    session = make_table("sichuan", NAMES)
    session.params = dict(session.rules.params)
    session.save()
    kong = {"type": "kong", "player": 1, "kong": "concealed"}
    event(session, kong)
    session.undo_last(step=True, steps=1)  # its only event: the round is undone
    event(session, kong)  # round 2 is being played
    from rules import RuleError

    with pytest.raises(RuleError):
        session.restore(1)
    assert session.rounds.get(number=1).status == Round.UNDONE
    session.undo_last(step=True, steps=1)
    rnd = session.restore(1)
    assert rnd is not None and rnd.in_progress and rnd.status == Round.ACTIVE


# ------------------------------------------------------------------ who this phone is


def test_a_phone_is_asked_once_which_player_it_is() -> None:
    session = make_table("mcr", NAMES)
    client = Client()
    url = reverse("scorer:session", args=[session.code])
    assert "你是哪位" in text(client.get(url))
    client.post(reverse("scorer:whoami", args=[session.code]), {"seat": "1"})
    page = text(client.get(url))
    assert "你是哪位" not in page and f"本机：{NAMES[1]}" in page
    # Another table asks again: a phone may be a different player there.
    other = make_table("mcr", NAMES)
    assert "你是哪位" in text(client.get(reverse("scorer:session", args=[other.code])))
    # A seat that does not exist is no answer.
    client.post(reverse("scorer:whoami", args=[other.code]), {"seat": "9"})
    assert "你是哪位" in text(client.get(reverse("scorer:session", args=[other.code])))


# ------------------------------------------------------------------ flags and refused hands


def flag_note(page: str, flag: str) -> str:
    m = re.search(rf'<p class="pk-flag-note" id="flag-note-{flag}">(.*?)</p>', page, re.S)
    return htmllib.unescape(m.group(1)) if m else ""


def bar_total(page: str) -> str:
    m = re.search(r'<span class="pk-bar-total">(.*?)</span>', page, re.S)
    assert m
    return text_of(m.group(1))


def test_a_flag_the_tiles_contradict_is_explained_next_to_it() -> None:
    phone = Phone(Client(), make_table("mcr", NAMES))
    phone.tap("winner:1", "from:self", "flag:after_kong")
    page = phone.tiles(WIN_TILES)  # no kong in the hand
    assert flag_note(page, "after_kong") == "手里没有杠：不算杠上开花"
    assert 'class="pk-flag-void"' in page
    assert "杠上开花" not in re.sub(r'<div class="pk-flags".*?</div>', "", page, flags=re.S)
    # With a kong the flag counts, and nothing is said.
    phone.tap("clear", "tool:concealed_kong", "tile:1m")
    page = phone.tiles("222333m456p7z7z")
    assert flag_note(page, "after_kong") == "" and "杠上开花" in page


def test_robbing_a_kong_of_a_tile_the_hand_holds_is_explained() -> None:
    phone = Phone(Client(), make_table("mcr", NAMES))
    phone.tap("winner:1", "from:2", "flag:robbing_kong")
    page = phone.tiles("111222333m456p7z7z")  # the win tile 7z: its pair is in the hand
    assert flag_note(page, "robbing_kong") == "手里已有这张牌：不可能是抢杠"


def test_a_hand_under_the_minimum_shows_no_score() -> None:
    phone = Phone(Client(), make_table("mcr", NAMES))
    phone.tap("winner:1", "from:2")
    page = phone.tiles("123m345m567p789p5s5s")  # 门前清 平和 单钓将: 5, under 8
    assert "不够" in page or "不足" in page
    assert bar_total(page) == "不能和牌"
    assert 'class="pk-pts pk-total"' not in page
    assert re.search(r"共 \d+ 番：不够起和", text_of(page))


# ------------------------------------------------------------------ feedback


def test_a_correction_says_so_like_a_new_round() -> None:
    session = make_table("mcr", NAMES)
    record(session, ENTRY)
    record(session, ENTRY)
    client = Client()
    phone = Phone(client, session, number=2)
    phone.tap("from:3")
    response = phone.confirm()
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "第 2 局已更正" in page


def test_a_duplicate_name_marks_the_clashing_fields() -> None:
    client = Client()
    response = client.post(
        reverse("scorer:create"), start_data(name_0="老王", name_1="小李", name_2="老王")
    )
    assert response.status_code == 400
    page = html(response)
    # Each seat's field in its box: <div class="field seat-field ..."> label, input, errors </div>.
    boxes = re.findall(r'<div class="(field seat-field[^"]*)">(.*?)</div>', page, re.S)
    by_name = {re.search(r'name="(name_\d)"', box).group(1): (cls, box) for cls, box in boxes}
    for i in (0, 2):
        cls, box = by_name[f"name_{i}"]
        field = re.search(rf'<input[^>]*name="name_{i}"[^>]*>', box)
        assert field and 'aria-invalid="true"' in field.group(0), field
        assert "has-error" in cls.split()  # shown in red
        # The reason right under the field, and read out with it.
        assert f'aria-describedby="id_name_{i}_error"' in field.group(0)
        assert re.search(rf'id="id_name_{i}_error">.*?有两位玩家都叫 老王', box, re.S)
    cls, box = by_name["name_1"]
    assert "aria-invalid" not in box and "has-error" not in cls
    assert text_of(page).count("有两位玩家都叫 老王") == 2
    assert GameSession.objects.count() == 0


# ------------------------------------------------------------------ words players read

# Tile codes ("7z", "chow 1s"); plain English "1s and 9s" is no code.
TILE_CODE = re.compile(r"\b[1-9]+[mpz]\b|\b(?:chow|pung|kong|pair) [1-9]s\b")
SEAT_NUMBER = re.compile(r"\d+ ?号位|\bseats? \d+\b")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_pages_name_players_and_tiles_never_seat_numbers_or_codes(language: str) -> None:
    client = Client()
    client.cookies["django_language"] = language
    for ruleset in ("mcr", "house"):
        session = make_table(ruleset, NAMES)
        session.params = dict(session.rules.params)
        session.save()
        record(session, ENTRY)
        for url in (f"/s/{session.code}/", f"/s/{session.code}/rounds/1/",
                    f"/s/{session.code}/ledger", f"/s/{session.code}/record"):  # fmt: skip
            words = text(client.get(url))
            assert not SEAT_NUMBER.search(words), (ruleset, url, SEAT_NUMBER.search(words))
            assert not TILE_CODE.search(words), (ruleset, url, TILE_CODE.search(words))
    # The house notes name who pays: 乙 自摸 … 付：甲 …
    page = text(client.get(f"/s/{session.code}/rounds/1/"))
    assert NAMES[2] in page


def test_an_engine_message_names_the_seat() -> None:
    from scorer.present.words import name_seats

    assert name_seats("event 2 (seat 1): seat 3 has already won", NAMES) == (
        f"event 2 ({NAMES[1]}): {NAMES[3]} has already won"
    )
    assert name_seats("第 2 个事件（1 号位）：3 号位已经和牌出局", NAMES) == (
        f"第 2 个事件（{NAMES[1]}）：{NAMES[3]}已经和牌出局"
    )
    assert name_seats("seat 9 is no seat", NAMES) == "seat 9 is no seat"


# ------------------------------------------------------------------ a correction made meanwhile


def test_a_correction_from_an_older_version_is_refused_and_shows_the_current_one() -> None:
    """Two phones open the same round's correction; the first saves (v2).  The second,
    made from v1, is refused (409) with v2 shown above its entry (who, the result,
    each seat's points), checked under the row lock; confirmed again, knowing it, it
    replaces v2.  A double tap of the first one's correction changes nothing."""
    session = make_table("mcr", NAMES)
    assert winning_phone(Phone(Client(), session)).confirm().status_code == 302
    first, second = Phone(Client(), session, number=1), Phone(Client(), session, number=1)
    assert first.state["base"] == second.state["base"] == "1"
    assert first.confirm(flowers="2", me="2").status_code == 302
    assert first.confirm(flowers="2", me="2").status_code == 302  # the same correction again
    rnd = Round.objects.get()
    assert rnd.current is not None and rnd.current.number == 2
    refused = second.confirm(flowers="5")
    assert refused.status_code == 409
    page = text(refused)
    assert "这一局刚刚在另一部手机上改过" in page
    assert f"现在记下的是第 2 版 (由 {NAMES[2]})" in page
    v2 = rnd.current.deltas
    assert " · ".join(f"{n} {signed_text(d)}" for n, d in zip(NAMES, v2, strict=True)) in page
    rnd.refresh_from_db()
    assert rnd.current is not None and rnd.current.number == 2  # nothing written
    second.state = {**state_of(html(refused)), "flowers": "5"}
    assert second.state["base"] == "2"  # the next confirm is made knowing v2
    assert second.confirm().status_code == 302
    rnd.refresh_from_db()
    assert rnd.current is not None and rnd.current.number == 3
    assert list(rnd.revisions.values_list("number", flat=True)) == [1, 2, 3]
