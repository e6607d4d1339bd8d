"""台费 where money is shown or checked: the start page's line, the tallies' room line,
the ledger, a round's page, the result's settle-up (the room a payee), the API and the
exports (the import charges the fee again and refuses a file whose fee is not its own)."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleError
from scorer.models import GameSession, Player, RoomConfig
from scorer.models.rooms import Room, default_room
from scorer.services.export import import_table, origin_of, table_json
from scorer.services.player_records import records
from tests.factories import DRAW, by_tiles, make_table, record
from tests.pages import html, text, text_of
from tests.scorer.csv_export import ROOM, read_export

pytestmark = pytest.mark.django_db

NAMES = ["甲", "乙", "丙", "丁"]
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def table(fee: dict[str, Any], rate: str | None = None, room: Room | None = None) -> GameSession:
    money = None if rate is None else Decimal(rate)
    return make_table(
        "mcr", NAMES, seated=True, fee=fee, room=room or default_room(), money_per_point=money
    )


def played(fee: dict[str, Any], rate: str | None = None) -> GameSession:
    s = table(fee, rate)
    record(s, by_tiles(1, 2))
    record(s, by_tiles(3, None))
    record(s, DRAW)
    return s


def test_the_start_page_says_how_the_chosen_configuration_charges(client: Client) -> None:
    room = Room.open("雀友棋牌室", "queyou")
    first = room.offered_configs()[0]
    first.fee = {"mode": "win_percent", "percent": 5, "cap": 20}
    first.save()
    page = text(client.get(reverse("scorer:room", args=["queyou"]), **ZH))
    assert "台费（抽水）：每把赢分的 5%，最多 20 分。" in page
    other = room.offered_configs()[1]
    part = client.get(reverse("scorer:room", args=["queyou"]), {"config": other.pk},
                      HTTP_HX_REQUEST="true", **ZH)  # fmt: skip
    assert "台费" not in text(part)  # a configuration without a fee
    # The table started from it snapshots the fee; a later change does not reach it.
    r = client.post(reverse("scorer:room_create", args=["queyou"]),
                    {"config": first.pk, "players": 4, "first_dealer": 0})  # fmt: skip
    assert r.status_code == 302
    s = GameSession.objects.get(room=room)
    assert s.fee == {"mode": "win_percent", "percent": 5, "cap": 20}
    first.fee = {"mode": "aa", "amount": 50}
    first.save()
    s.refresh_from_db()
    assert s.rules.fee.mode == "win_percent"


def test_the_tallies_show_the_room_on_its_own_line(client: Client) -> None:
    s = played({"mode": "win_fixed", "amount": 4}, rate="0.5")
    page = html(client.get(reverse("scorer:session", args=[s.code]), **ZH))
    line = re.search(r'<p class="room-line">(.*?)</p>', page, re.S)
    assert line is not None
    words = text_of(line.group(1))
    assert words.startswith(f"台费 {s.room.name} 8 ") and "金额 4" in words
    assert "每局每位和牌者 4 分" in words
    seats = re.findall(r'<span class="total [a-z]+"><span class="pts n\d+">([^<]+)</span>', page)
    assert [int(x.replace("−", "-")) for x in seats] == s.tallies()
    assert sum(s.tallies()) + 8 == 0
    plain = played({})
    assert "room-line" not in html(client.get(reverse("scorer:session", args=[plain.code])))


def test_the_result_page_pays_the_room_in_the_settle_up(client: Client) -> None:
    Room.objects.filter(pk=default_room().pk).update(name="雀友棋牌室")
    s = played({"mode": "aa", "amount": 10})
    s.close()
    page = text(client.get(reverse("scorer:final", args=[s.code]), **ZH))
    assert f"台费 · {s.room.name} 40" in page
    pays = re.findall(r"(\S+) → (\S+) (\d+)", page)
    owed = dict.fromkeys([*NAMES, s.room.name], 0)
    for payer, payee, amount in pays:
        owed[payer] -= int(amount)
        owed[payee] += int(amount)
    totals = s.tallies()
    # Every payment settles the players' net and the room's take, nothing more.
    assert [owed[n] for n in NAMES] == totals and owed[s.room.name] == 40
    assert any(p[1] == s.room.name for p in pays)
    svg = html(client.get(reverse("scorer:final_svg", args=[s.code])))
    assert s.room.name in svg


def test_the_ledger_and_the_round_page_say_the_fee(client: Client) -> None:
    s = played({"mode": "big_winner", "amount": 30})
    s.close()
    fee_round = s.rounds.get(number=4)
    page = html(client.get(reverse("scorer:ledger", args=[s.code]), **ZH))
    assert 'class="ledger-round ledger-fee"' in page and "<abbr" in page
    foot = re.search(r'<p class="room-line">(.*?)</p>', page, re.S)
    assert foot is not None and " 30 " in f" {text_of(foot.group(1))} "
    detail = html(client.get(reverse("scorer:round", args=[s.code, 4]), **ZH))
    assert "台费：结束本桌时收取" in text_of(detail)
    assert fee_round.current is not None and fee_round.current.room_take == 30
    assert "→ 台费 30" in text_of(detail)
    raked = played({"mode": "win_fixed", "amount": 4})
    ledger = html(client.get(reverse("scorer:ledger", args=[raked.code]), **ZH))
    assert ledger.count('<sup class="room-mark" title="台费 4">费</sup>') == 2  # two wins
    part = client.get(reverse("scorer:round", args=[raked.code, 1]), {"part": "current"}, **ZH)
    assert "乙 → 台费 4" in text(part)


def test_the_api_carries_the_room_take(client: Client) -> None:
    s = played({"mode": "win_percent", "percent": 10}, rate="2")
    body = client.get(f"/api/sessions/{s.code}").json()
    assert body["room_take"] == s.room_take() > 0
    assert sum(body["totals"]) + body["room_take"] == 0
    assert body["room_money"] == f"{s.room_take() * 2}.00"
    assert body["fee"] == {"mode": "win_percent", "percent": 10, "cap": 0}
    assert body["rounds"] == 3
    s.close()
    assert client.get(f"/api/sessions/{s.code}").json()["rounds"] == 3


@pytest.mark.parametrize(
    "fee",
    [{"mode": "win_percent", "percent": 10, "cap": 3}, {"mode": "aa", "amount": 6},
     {"mode": "big_winner", "amount": 9}],
)  # fmt: skip
def test_the_exports_carry_the_fee_and_the_import_checks_it(
    client: Client, fee: dict[str, Any]
) -> None:
    s = played(fee)
    s.close()
    s.reopen(note="再来一局")  # the first fee at the close, undone, stays in the history
    record(s, by_tiles(0, 1))
    s.close()
    data = json.loads(json.dumps(table_json(s), ensure_ascii=False))
    assert data["fee"] == s.rules.fee.to_json() and data["room_take"] == s.room_take() > 0
    t = import_table(data, copy_of=origin_of(data))  # a second copy, chosen
    assert t.tallies() == s.tallies() and t.room_take() == s.room_take()
    assert sum(t.tallies()) + t.room_take() == 0
    # A file whose fee is not the one its rule charges is refused whole.
    for tamper in ("deltas", "room_take", "fee", "totals"):
        bad = json.loads(json.dumps(data))
        last = bad["rounds"][-1]["revisions"][-1]
        if tamper == "deltas":
            last["deltas"][0] += 1
            last["deltas"][1] -= 1
        elif tamper == "room_take":
            bad["rounds"][0]["revisions"][-1]["room_take"] += 1
            bad["room_take"] += 1
        elif tamper == "fee":
            bad["fee"] = {"mode": "aa", "amount": 1} if fee["mode"] != "aa" else {}
        else:
            if last["entry"].get("kind") != "fee":
                continue
            last["entry"]["totals"] = [t + 1 for t in last["entry"]["totals"][:2]] + \
                last["entry"]["totals"][2:]  # fmt: skip
        before = GameSession.objects.count()
        with pytest.raises(RuleError):
            import_table(bad)
        assert GameSession.objects.count() == before
    got = read_export(html(client.get(reverse("scorer:export", args=[s.code, "csv"]), **ZH)), NAMES)
    assert [got.net[n] for n in NAMES] == [got.totals[n] for n in NAMES] == s.tallies()
    assert got.net[ROOM] == got.totals[ROOM] == s.room_take() > 0
    # The room's payments are its own lines: to the room, as 台费.
    fees = [x for x in got.body if x["给谁"] == ROOM]
    assert fees and {x["原因"] for x in fees} == {"台费"}
    assert any(x["类型"] == "台费" for x in fees) == (fee["mode"] != "win_percent")


def test_a_win_counts_at_its_full_value_in_the_players_records() -> None:
    raked = played({"mode": "win_percent", "percent": 50})
    plain = played({})
    raked.close()
    plain.close()
    for seat in (1, 3):
        got = records(Player.objects.get(room=raked.room, name=NAMES[seat]))[0][""]
        # Both tables' wins are in his record, each at the value the hand was worth.
        assert got.wins == 2 and got.rounds == 6
        assert got.top is not None and got.won == 2 * got.top > 0
    mine = records(Player.objects.get(room=raked.room, name=NAMES[1]))[0][""]
    assert mine.rounds == 6  # closing charged no hand
    assert mine.net == plain.tallies()[1] + raked.tallies()[1]


def test_a_copy_of_a_configuration_keeps_its_fee() -> None:
    config = RoomConfig.objects.create(ruleset="mcr", name="x",
                                       fee={"mode": "aa", "amount": 10})  # fmt: skip
    assert config.clone("y").fee == {"mode": "aa", "amount": 10}
