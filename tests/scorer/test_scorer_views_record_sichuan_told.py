"""The 四川 event page, driven like a phone through the Django test client: a 流局
told per player (花猪 / 没听牌 / 听牌 with the best wait's fans, its claim shown at
once), and the kongs recorded as events met again in the hands shown later
(prefilled, and flagged when a hand says otherwise).

Amounts are worked out here from the tables' rules (xuezhan: base 6,
base × 2^(番−1); chengdu: base 5, base × 2^番; 花猪 16 × base to every non-pig),
never read back from the engine.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from rules import REGISTRY
from rules.registry import get_ruleset
from scorer.models import GameSession
from tests.factories import event, make_table
from tests.support.phone import NAMES, Phone
from tests.support.state import checks, confirm_enabled, tap_message, transfers

pytestmark = pytest.mark.django_db

CHENGDU = dict(REGISTRY["sichuan"].preset("chengdu").params)  # type: ignore[union-attr]
WARNING = re.compile(r'<p class="pk-msg ev-kong-warn" role="alert">(.*?)</p>')
CLAIM = re.compile(r'<p class="ev-told-claim"[^>]*><b>(.*?)</b> · (.*?)</p>')


def table(params: dict[str, Any] | None = None) -> GameSession:
    return make_table("sichuan", NAMES, params=params or {})


def fan_id(session: GameSession, name_zh: str) -> int:
    catalog = get_ruleset("sichuan").fan_catalog(session.rules.params)
    return int(next(f["id"] for f in catalog if f["name_zh"] == name_zh))


def kong(player: int, kind: str, tile: str | None = None, discarder: int | None = None) -> dict:
    ev: dict[str, Any] = {"type": "kong", "player": player, "kong": kind}
    if tile:
        ev["tile"] = tile
    if discarder is not None:
        ev["discarder"] = discarder
    return ev


# ------------------------------------------------------------------ 流局 told

# (params, the fans picked as (name, count), the claim worked out by hand)
TOLD_CASES = [
    # 清七对 5 番 in xuezhan: 6 × 2^4.
    ({}, [("清七对", 1)], 6 * 2**4),
    # The same with a cap of 2 番: 6 × 2^1 ("cap_fans" caps the money, like a win).
    ({"cap_fans": 2}, [("清七对", 1)], 6 * 2**1),
    # 成都: 清一色 2 + 根 1 = 3 番, 5 × 2^3.
    (CHENGDU, [("清一色", 1), ("根", 1)], 5 * 2**3),
    # 成都, nothing picked: 平胡 0 番, 5 × 2^0.
    (CHENGDU, [], 5),
]


@pytest.mark.parametrize(("params", "picked", "claim"), TOLD_CASES)
def test_a_told_ready_hand_shows_its_claim_at_once_and_pays_it(
    client: Client, params: dict[str, Any], picked: list[tuple[str, int]], claim: int
) -> None:
    session = table(params)
    resolved = session.rules.params
    pig = int(resolved["base"]) * int(resolved["pig_multiplier"])  # "16倍點數" to each non-pig
    phone = Phone(client, session, kind="wall_end")
    phone.tap("wstatus:ready")
    for name, count in picked:
        phone.tap(*[f"wfan:{fan_id(session, name)}:+"] * count)
    # Before any other hand is in: the claim, and how many 番 it is counted on.
    page = phone.page
    assert not confirm_enabled(page)
    m = CLAIM.search(page)
    assert m, page
    assert m.group(1) == f"大叫 {claim}"
    # The others told in three taps each at most; confirm records what was shown.
    phone.tap("seat:1", "wstatus:not_ready", "seat:2", "wstatus:pig", "seat:3")
    page = phone.tap("wstatus:not_ready")
    assert checks(page) == [
        ("甲", "ready"),
        ("乙", "not_ready"),
        ("丙", "pig"),
        ("丁", "not_ready"),
    ]
    assert re.search(rf'class="ev-claim">[^<]*\b{claim}\b', page)
    assert sorted(transfers(page)) == sorted(
        [("丙", "甲", pig), ("丙", "乙", pig), ("丙", "丁", pig), ("乙", "甲", claim),
         ("丁", "甲", claim)]
    )  # fmt: skip
    assert phone.confirm().status_code == 302
    assert session.tallies() == [pig + 2 * claim, pig - claim, -3 * pig, pig - claim]
    wall = session.rounds.get().current.entry["events"][-1]
    assert [h.get("status") for h in wall["hands"]] == ["ready", "not_ready", "pig", "not_ready"]
    assert all("concealed" not in h for h in wall["hands"])


def test_the_claims_fan_count_is_shown(client: Client) -> None:
    session = table({"cap_fans": 2})
    phone = Phone(client, session, kind="wall_end")
    page = phone.tap("wstatus:ready", f"wfan:{fan_id(session, '清七对')}:+", "wfan:15:+")
    m = CLAIM.search(page)
    # 清七对 5 + 根 1 = 6 番 (the cap limits the money, not the 番 told), 6 × 2^(2−1).
    assert m and m.groups() == ("大叫 12", "6 番")


def test_two_patterns_are_refused_at_once_and_confirm_stays_off(client: Client) -> None:
    session = table()
    phone = Phone(client, session, kind="wall_end")
    a, b = fan_id(session, "对对胡"), fan_id(session, "七对")
    page = phone.tap("wstatus:ready", f"wfan:{a}:+", f"wfan:{b}:+")
    assert re.search(r'<p class="pk-msg ev-told-claim" role="alert">[^<]*牌型只能选一个', page)
    assert not CLAIM.search(page)
    phone.tap("seat:1", "wstatus:pig", "seat:2", "wstatus:pig", "seat:3", "wstatus:pig")
    assert not confirm_enabled(phone.page)
    assert phone.confirm().status_code == 400 and session.rounds.count() == 0


def test_status_and_tiles_mixed_in_one_wall_end(client: Client) -> None:
    """Seat 0 shown as tiles (the app works out its waits), the others told."""
    session = table()
    phone = Phone(client, session, kind="wall_end")
    page = phone.tiles("123456789m1234m")  # waits 1m / 4m: 清一色 3 番 either way
    phone.tap("seat:1", "wstatus:not_ready", "seat:2", "wstatus:not_ready", "seat:3")
    page = phone.tap("wstatus:not_ready")
    claim = 6 * 2 ** (3 - 1)
    assert sorted(transfers(page)) == sorted([("乙", "甲", claim), ("丙", "甲", claim),
                                              ("丁", "甲", claim)])  # fmt: skip
    assert phone.confirm().status_code == 302
    hands = session.rounds.get().current.entry["events"][-1]["hands"]
    assert "concealed" in hands[0] and [h.get("status") for h in hands[1:]] == ["not_ready"] * 3


def test_a_told_hand_holds_no_tiles_for_the_others(client: Client) -> None:
    """A hand told, not shown, adds nothing to the copies counted (as in the engine)."""
    phone = Phone(client, table(), kind="wall_end")
    phone.tap("tool:kong", "tile:5p")  # 甲 began with a kong of 5p, then was told 花猪
    phone.tap("wstatus:pig", "seat:1")
    page = phone.tap("tile:5p")
    assert not tap_message(page) and phone.state["hand"] == "5p"


# ------------------------------------------------------------------ recorded kongs


def test_the_wall_end_hands_start_with_the_recorded_kongs(client: Client) -> None:
    session = table()
    event(session, kong(1, "concealed", "5m"))
    event(session, kong(2, "exposed", "7p", discarder=0))
    event(session, kong(2, "added", "9s"))
    phone = Phone(client, session, kind="wall_end")
    assert phone.state["seat"] == "0" and phone.state["melds"] == ""
    assert phone.state["wall_1"] == "concealed_kong:5m"
    assert phone.state["wall_2"] == "kong:7p added_kong:9s"
    assert not WARNING.findall(phone.page)
    page = phone.tap("seat:1")
    assert phone.state["melds"] == "concealed_kong:5m" and "3/13" in page
    page = phone.tiles("1234678999m")
    assert "13/13" in page and not WARNING.findall(page)
    # Taken out of 乙's hand: said next to it, and confirm is not blocked.
    page = phone.tap("meld:0")
    assert WARNING.findall(page) == ["乙 在这一局记过一个五万的杠，这手牌里却没有。"]
    phone.tap("tool:concealed_kong", "tile:6p")  # another kong that no event recorded
    page = phone.page
    assert WARNING.findall(page) == [
        "乙 在这一局记过一个五万的杠，这手牌里却没有。",
        "乙 的手牌里有一个六筒的杠没有记过：它的钱还没付（请先记杠）。",
    ]
    phone.tap("seat:0", "wstatus:not_ready", "seat:2", "wstatus:pig", "seat:3")
    page = phone.tap("wstatus:pig")
    assert len(WARNING.findall(page)) == 2 and confirm_enabled(page)
    assert phone.confirm().status_code == 302


def test_a_wall_end_seat_told_is_not_checked_against_its_kongs(client: Client) -> None:
    session = table()
    event(session, kong(1, "concealed", "5m"))
    phone = Phone(client, session, kind="wall_end")
    page = phone.tap("seat:1", "meld:0")
    assert len(WARNING.findall(page)) == 1
    page = phone.tap("wstatus:not_ready")
    assert not WARNING.findall(page)


def test_a_kong_shown_as_another_kind_is_flagged(client: Client) -> None:
    session = table()
    event(session, kong(1, "concealed", "5m"))
    phone = Phone(client, session, kind="win")
    phone.tap("winner:1", "from:0")
    assert phone.state["melds"] == "concealed_kong:5m"
    page = phone.tap("meld:0", "tool:kong", "tile:5m")
    assert phone.state["melds"] == "kong:5m"
    assert WARNING.findall(page) == ["乙 在这一局记的五万杠是暗杠，这手牌里却是直杠。"]


def test_the_kong_comes_back_when_the_form_returns_to_the_win(client: Client) -> None:
    session = table()
    event(session, kong(1, "concealed", "5m"))
    phone = Phone(client, session, kind="win")
    phone.tap("winner:1")
    phone.tap("kind:kong", "kind:win")
    assert phone.state["winner"] == "1" and phone.state["melds"] == "concealed_kong:5m"
    phone.tap("winner:1", "winner:2", "winner:1")  # picked again: never twice
    assert phone.state["melds"] == "concealed_kong:5m"


def test_a_robbed_kong_is_not_prefilled(client: Client) -> None:
    """抢杠: the added kong robbed by the win right after it was never made."""
    session = table()
    event(session, kong(1, "added", "5m"))
    rob = {"type": "win", "discarder": 1, "robbing_kong": True,
           "winners": [{"seat": 0, "fans": {}}]}  # fmt: skip
    event(session, rob)
    phone = Phone(client, session, kind="wall_end")
    assert "wall_1" not in phone.state
    page = phone.tap("seat:1")
    assert phone.state["melds"] == "" and not WARNING.findall(page)
