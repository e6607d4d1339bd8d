"""What a room's owner tripped on: the room and the table on the
players' pages, the fee choice's order and its note on win-linked fees, success
messages said once, old names kept as aliases, the configurations page (folded, to
the top, 底分 and fee on each line), a stale tab of the same admin told as such, and
a configuration whose values the players cannot change."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scorer.forms.room import ConfigForm
from scorer.models import GameSession
from scorer.models.invites import RoomInvite
from scorer.models.players import Player, PlayerAlias
from scorer.models.rooms import Room, RoomConfig, RoomMember, default_room
from scorer.money.fees import AA, BIG_WINNER, NONE, WIN_FIXED, WIN_LINKED, WIN_PERCENT
from tests.factories import (
    PASSWORD,
    make_member,
    make_room,
    make_table,
    member_client,
    phone,
    record,
)
from tests.pages import html, text, text_of
from tests.support.state import form_data

pytestmark = pytest.mark.django_db


def url(name: str, room: Room, *args: object) -> str:
    return reverse(f"scorer:{name}", args=[room.slug, *args])


def heading(page: str) -> tuple[str, str]:
    """The page's <title> and its <h1>, as written in the HTML (escaped)."""
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert title and h1, page[:400]
    return title.group(1).strip(), h1.group(1).strip()


def start(client: Client, room: Room, config: RoomConfig, **fields: str) -> Any:
    """The start form posted with four names and whatever `fields` add."""
    data = {"config": str(config.pk), "players": "4", "first_dealer": "0", **fields}
    for seat, name in enumerate(("甲", "乙", "丙", "丁")):
        data.setdefault(f"name_{seat}", name)
    return client.post(url("room_create", room), data)


# ----------------------------------------------------------------------------- item 7


def test_the_room_and_the_table_head_the_players_pages_escaped() -> None:
    room = make_room("wang", '老王<b>棋牌室</b> & "友"')
    t1 = room.add_tables(1)[0]
    escaped = "老王&lt;b&gt;棋牌室&lt;/b&gt; &amp; &quot;友&quot;"
    player = phone()

    # The room's start page: the room.
    assert heading(html(player.get(url("room", room)))) == (escaped, escaped)
    # The table's QR code, nothing open there: the room and the table.
    landing = html(player.get(url("table", room, t1.code)))
    assert heading(landing) == (f"{escaped} · 1号桌", f"{escaped} · 1号桌")
    assert "<b>棋牌室</b>" not in landing
    # Started there: the table's page says the same, and the QR code now leads to it.
    response = player.post(
        url("room_create", room),
        {"table": t1.code, "config": str(room.offered_configs()[0].pk), "players": "4",
         "first_dealer": "0"},
    )  # fmt: skip
    session = GameSession.objects.get(room_table=t1)
    assert response["Location"] == reverse("scorer:session", args=[session.code])
    page = html(player.get(response["Location"]))
    assert heading(page) == (f"{escaped} · 1号桌", f"{escaped} · 1号桌")
    # A table started on the room's own page: the room only.
    other = make_table(room=room)
    assert heading(html(player.get(reverse("scorer:session", args=[other.code])))) == (
        escaped,
        escaped,
    )
    # The default room too, as `/` serves it; a table's own name as the room calls it.
    home = escape(default_room().name)
    assert heading(html(phone().get("/"))) == (home, home)
    named = Room.open("老李", "li").add_tables(1, name="<i>包间A</i>")[0]
    page = html(phone("en").get(reverse("scorer:table", args=["li", named.code])))
    assert heading(page) == ("老李 · &lt;i&gt;包间A&lt;/i&gt;",) * 2
    assert "<i>包间A" not in page


# ----------------------------------------------------------------------------- item 8


def _modes(choices: list[tuple[Any, Any]]) -> list[tuple[str, str | None]]:
    """The choice's modes in order, each with its group's heading (None: no group)."""
    out: list[tuple[str, str | None]] = []
    for value, label in choices:
        if isinstance(label, list | tuple):
            out += [(v, str(value)) for v, _ in label]
        else:
            out.append((value, None))
    return out


def test_the_fee_choice_puts_per_person_first_and_win_linked_last_with_a_note(
    room: Room, boss: Client
) -> None:
    config = room.offered_configs()[0]
    field = ConfigForm(config).fields["fee_mode"]
    modes = _modes(list(field.choices))
    order = [m for m, _ in modes]
    # Per person (and the time fees, when there are) first; no fee; then those tied
    # to winnings, under their heading, whatever else is added to the modes later.
    assert order[0] == AA and order.index(NONE) < min(order.index(m) for m in WIN_LINKED)
    assert not set(order[: order.index(NONE)]) & set(WIN_LINKED)
    assert {m for m, group in modes if group is not None} == set(WIN_LINKED)
    assert set(order) >= {AA, NONE, WIN_FIXED, WIN_PERCENT, BIG_WINNER}
    # A room's configurations charge nothing tied to winnings until an admin says so.
    assert all(c.fee.get("mode", NONE) not in WIN_LINKED for c in room.configs.all())
    assert field.initial == NONE

    assert '<optgroup label="与输赢挂钩">' in html(boss.get(url("manage_config", room, config.pk)))
    page = text(boss.get(url("manage_config", room, config.pk)))
    assert "有些地方把与输赢挂钩的台费（按赢分抽成、大赢家付）视为抽头。请按当地规定收取。" in page
    english = member_client(room, "clerk", RoomMember.ADMIN)
    english.cookies["django_language"] = "en"
    assert '<optgroup label="Tied to winnings">' in html(
        english.get(url("manage_config", room, config.pk))
    )
    page = text(english.get(url("manage_config", room, config.pk)))
    assert "as 抽头. Follow your local rules." in page


# ----------------------------------------------------------------------------- item 9


def _messages(response: Any) -> list[str]:
    return re.findall(r'<li class="message [^"]*">(.*?)</li>', html(response))


def test_success_messages_are_said_once(room: Room, boss: Client) -> None:
    added = boss.post(url("manage_tables", room), {"number": 1, "count": 2}, follow=True)
    assert _messages(added) == ["已添加 2 张桌：1号桌、2号桌。"]

    session = make_table(room=room)
    record(session)
    closed = boss.post(url("manage_close", room, session.code), {"note": "走了"}, follow=True)
    assert _messages(closed) == ["本桌已结束。"]

    invite = RoomInvite.objects.create(room=room)
    joined = phone().post(
        reverse("scorer:invite", args=[invite.token]),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert len(_messages(joined)) == 1 and "欢迎" in _messages(joined)[0]
    # Said, then gone: the next page says nothing again.
    assert _messages(boss.get(url("manage", room))) == []


def _seated(session: GameSession) -> list[int]:
    return list(session.seats.order_by("seat").values_list("player_id", flat=True))


def test_an_old_name_typed_again_is_the_same_player(room: Room, boss: Client) -> None:
    first = make_table(room=room, players=["老王", "阿强", "美玲", "路人"], seated=True)
    make_table(room=room, players=["小李", "阿强", "美玲", "路人"], seated=True)
    wang, li = (Player.objects.get(room=room, name=n) for n in ("老王", "小李"))
    wang.rename("王哥")
    boss.post(url("manage_players_merge", room), {"gone": li.pk, "keep": wang.pk, "confirm": "1"})
    assert not Player.objects.filter(pk=li.pk).exists()
    assert sorted(wang.aliases.values_list("name", flat=True)) == ["小李", "老王"]

    # Typed again at a table (old names, and the new one), each is him: no new player.
    again = make_table(room=room, players=["老王", "阿强", "美玲", "路人"], seated=True)
    assert _seated(again)[0] == wang.pk
    third = make_table(room=room, players=["小李", "阿强", "美玲", "路人"], seated=True)
    assert _seated(third)[0] == wang.pk
    assert Player.objects.filter(room=room).count() == 4  # 王哥, 阿强, 美玲, 路人
    assert _seated(first)[0] == wang.pk

    # The room's players page says them, and finds him by one.
    found = text(boss.get(url("manage_players", room) + "?q=小李"))
    assert "王哥" in found and "也叫: 小李, 老王" in found
    # A name is one player's: another cannot be renamed to it; he can take it back.
    qiang = Player.objects.get(room=room, name="阿强")
    with pytest.raises(ValueError):
        qiang.rename("老王")
    wang.rename("老王")
    assert sorted(wang.aliases.values_list("name", flat=True)) == ["小李", "王哥"]
    # Unique per room (the constraint is the last word) ...
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerAlias.objects.create(room=room, player=qiang, name="小李")
    # ... and another room's 小李 is its own player.
    elsewhere = make_room("other")
    there = make_table(room=elsewhere, players=["小李", "甲", "乙", "丙"], seated=True)
    assert Player.objects.get(pk=_seated(there)[0]).room_id == elsewhere.pk


def test_the_configurations_page_folds_moves_to_the_top_and_says_stake_and_fee(
    room: Room, boss: Client
) -> None:
    configs = list(room.configs.order_by("order", "pk"))
    # The presets' 国标 copies and a 四川 one offered; the rest folded.
    mcr = next(c for c in configs if c.ruleset == "mcr")
    sichuan = next(c for c in configs if c.ruleset == "sichuan")
    room.configs.exclude(pk__in=[mcr.pk, sichuan.pk]).update(enabled=False)
    sichuan.edit(sichuan.name, {**sichuan.params, "base": 5}, {"mode": AA, "amount": 10})
    page = html(boss.get(url("manage_configs", room)))
    head, folded = page.split('<details class="configs-off"')
    assert f'id="config-{mcr.pk}"' in head and f'id="config-{sichuan.pk}"' in head
    off = room.configs.filter(enabled=False).count()
    assert folded.count('class="manage-row config-row is-off"') == off
    assert f"{off} 套未提供的规则" in folded and " open" not in folded.split(">")[0]
    line = re.search(rf'id="config-{sichuan.pk}".*?</li>', page, re.S)
    assert line and "底分 5 · 台费：每人 10 分，结束时收（AA）" in text_of(line.group(0))
    no_fee = re.search(rf'id="config-{mcr.pk}".*?</li>', page, re.S)
    assert no_fee and "不收台费" in text_of(no_fee.group(0))

    # To the top: the start page's first, preselected; logged.
    boss.post(url("manage_config_do", room, sichuan.pk, "top"), headers={"HX-Request": "true"})
    assert room.offered_configs()[0] == sichuan
    assert "移到了最前" in text(boss.get(url("manage_log", room)))
    # Up and down go past one of their kind: the folded ones do not stand between.
    boss.post(url("manage_config_do", room, mcr.pk, "up"))
    assert room.offered_configs()[0] == mcr
    # A tap on one folded keeps the fold open.
    hidden = room.configs.filter(enabled=False).first()
    assert hidden is not None
    answer = html(
        boss.post(url("manage_config_do", room, hidden.pk, "down"), headers={"HX-Request": "true"})
    )
    assert '<details class="configs-off" open>' in answer


def test_a_stale_tab_of_the_same_admin_is_told_so(room: Room, boss: Client) -> None:
    config = room.offered_configs()[0]
    edit = url("manage_config", room, config.pk)
    tab1, tab2 = form_data(html(boss.get(edit))), form_data(html(boss.get(edit)))
    assert boss.post(edit, {**tab1, "name": "周末"}).status_code == 302
    response = boss.post(edit, {**tab2, "name": "周三"})
    assert response.status_code == 409
    assert "你刚才在另一个页面或另一部手机上改过这套规则" in text(response)
    assert "另一位管理员" not in text(response)
    # Another admin's stale form names the one who saved.
    clerk = member_client(room, "clerk", RoomMember.ADMIN, "小美")
    theirs = form_data(html(clerk.get(edit)))
    boss.post(edit, {**form_data(html(boss.get(edit))), "name": "周四"})
    response = clerk.post(edit, {**theirs, "name": "周五"})
    assert response.status_code == 409 and "刚才 老板 改过这套规则" in text(response)


def test_a_room_locks_a_configurations_values(room: Room, boss: Client) -> None:
    config = room.configs.get(ruleset="mcr", preset="competition")
    config.set_offered(True)
    edit = url("manage_config", room, config.pk)
    data = form_data(html(boss.get(edit)))
    assert boss.post(edit, {**data, "param_base": "10", "locked": "on"}).status_code == 302
    config.refresh_from_db()
    assert config.locked and config.params["base"] == 10
    assert "锁定数值：玩家不能修改" in text(boss.get(url("manage_config_history", room, config.pk)))

    # The start page shows the values, read-only: no field to change them.
    player = phone()
    page = html(player.get(url("room", room) + f"?config={config.pk}"))
    assert 'name="param_base"' not in page
    assert re.search(r"<dt>底分</dt><dd>10</dd>", page)
    # The server keeps them whatever a form sends.
    response = start(player, room, config, param_base="99", param_min_fans="1")
    assert response.status_code == 302
    session = GameSession.objects.get(room=room)
    assert session.params["base"] == 10 and session.params["min_fans"] == config.params["min_fans"]

    # Unlocked, the players choose again.
    data = form_data(html(boss.get(edit)))
    data.pop("locked", None)
    assert boss.post(edit, data).status_code == 302
    config.refresh_from_db()
    assert not config.locked
    assert 'name="param_base"' in html(player.get(url("room", room) + f"?config={config.pk}"))
    start(player, room, config, param_base="99")
    assert GameSession.objects.filter(room=room).latest("pk").params["base"] == 99


def test_a_copy_keeps_the_lock_and_a_new_room_locks_nothing() -> None:
    room = make_room("fresh")
    assert not room.configs.filter(locked=True).exists()
    config = room.offered_configs()[0]
    config = config.edit(config.name, config.params, locked=True)
    owner = make_member(room, "fresh-boss")
    assert config.clone("副本", by=owner).locked


def test_the_migration_keeps_the_names_the_log_says_went(room: Room) -> None:
    """Renames and merges made before aliases existed: the room's log has them (newest
    first: 小王 → 王哥 → 老王, and 阿王 merged into 王哥 between), and each old name
    becomes the player it is now; a name someone has now stays his."""
    from importlib import import_module

    from scorer.models.roomlog import PLAYER_RENAMED, PLAYERS_MERGED, RoomLogEntry

    backfill = import_module("scorer.migrations.0019_player_alias_config_locked").backfill
    boss = make_member(room, "boss-m")
    wang = Player.objects.create(room=room, name="老王")
    Player.objects.create(room=room, name="小王")  # a new 小王 since: his own name
    steps = [
        (PLAYER_RENAMED, {"before": "小王", "after": "王哥"}),
        (PLAYERS_MERGED, {"gone": "阿王", "keep": "王哥", "seats": 1}),
        (PLAYER_RENAMED, {"before": "王哥", "after": "老王"}),
        (PLAYER_RENAMED, {"before": "nobody", "after": "gone since"}),
    ]
    with transaction.atomic():
        for action, data in steps:
            room.log_action(action, boss, data)
    assert backfill(Player, PlayerAlias, RoomLogEntry) == 2
    assert sorted(wang.aliases.values_list("name", flat=True)) == ["王哥", "阿王"]
    assert not PlayerAlias.objects.filter(name__in=["小王", "nobody"]).exists()
