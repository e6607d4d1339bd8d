"""The room's log, one append-only trail of what its admins did -- who (the user and
the name shown, which survives the admin), what, when, before and after -- written in
the same transaction as the change, and read on a phone page in the page's language
and local time."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.admin.sites import site as admin_site
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.translation import gettext_lazy

from scorer.models import GameSession, SessionChange, roomlog
from scorer.models.invites import RoomInvite
from scorer.models.roomlog import LogIsAppendOnly, RoomLogEntry
from scorer.models.rooms import EditConflict, Room, RoomMember
from tests.factories import NAMES, make_member, make_room, make_table
from tests.pages import html, text
from tests.support.start import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def room() -> Room:
    return make_room("laowang", "老王棋牌室")


@pytest.fixture
def boss(room: Room) -> RoomMember:
    return make_member(room, "boss", shown="老板")


@pytest.fixture
def owner(boss: RoomMember) -> Client:
    client = Client()
    client.force_login(boss.user)
    return client


def game(room: Room, names: Sequence[str], **kw: Any) -> GameSession:
    return make_table("mcr", names, room=room, seated=True, **kw)


def entries(room: Room) -> list[tuple[str, str, dict[str, Any]]]:
    """(action, name shown, data) of the room's log, oldest first."""
    rows = room.log.order_by("at", "pk").values_list("action", "user_name", "data")
    return [(a, n, d) for a, n, d in rows]


def log_text(client: Client, room: Room, page: int = 1) -> str:
    url = reverse("scorer:manage_log", args=[room.slug]) + f"?page={page}"
    return text(client.get(url))


def test_every_admin_action_is_logged_with_who_and_before_after(
    room: Room, boss: RoomMember, owner: Client
) -> None:
    slug = room.slug
    t = add_table(owner, room)
    # Tables: renamed, a new code, retired (the second tap confirms each).
    owner.post(reverse("scorer:manage_table", args=[slug, 3]), {"number": "7", "name": "包间A"})
    version = room.tables.get(number=7).qr_version
    owner.post(reverse("scorer:manage_table_new_code", args=[slug, 7]), {"confirm": version})
    owner.post(reverse("scorer:manage_table_retire", args=[slug, 7]), {"confirm": "yes"})
    owner.post(reverse("scorer:manage_table_bring_back", args=[slug, 7]))
    # A configuration edited (its history keeps it too), offered and withdrawn.
    config = room.offered_configs()[0]
    data = form_data(config, [])
    data = {k: v for k, v in data.items() if k.startswith("param_")}
    data["param_base"] = str(int(config.params["base"]) + 2) if "base" in config.params else ""
    owner.post(
        reverse("scorer:manage_config", args=[slug, config.pk]),
        {**data, "name": "周末规则", "seen": config.version},
    )
    # Players renamed and merged.
    game(room, NAMES)
    game(room, ["王哥", "小李", "阿强", "美玲"])
    wang = room.players.get(name="老王")
    owner.post(reverse("scorer:manage_player_rename", args=[slug, wang.pk]), {"name": "老王头"})
    gone = room.players.get(name="王哥")
    owner.post(
        reverse("scorer:manage_players_merge", args=[slug]),
        {"gone": gone.pk, "keep": wang.pk, "confirm": "yes"},
    )
    # Admins: invited, withdrawn, joined, removed; the owner's name and the room's.
    owner.post(reverse("scorer:manage_invite", args=[slug]))
    invite = RoomInvite.objects.get()
    owner.post(reverse("scorer:manage_invite_withdraw", args=[slug, invite.pk]))
    owner.post(reverse("scorer:manage_invite", args=[slug]))
    clerk = User.objects.create_user("clerk")
    RoomInvite.objects.get(used_at__isnull=True).accept(clerk, "小张")
    member = room.members.get(user=clerk)
    owner.post(reverse("scorer:manage_member_remove", args=[slug, member.pk]), {"confirm": "yes"})
    owner.post(reverse("scorer:manage_room_name", args=[slug]), {"name": "老王麻将馆"})
    owner.post(reverse("scorer:manage_member_name", args=[slug]), {"display_name": "王老板"})

    log = entries(room)
    actions = [a for a, _, _ in log]
    assert actions == [
        roomlog.TABLES_ADDED,
        roomlog.TABLE_EDITED,
        roomlog.TABLE_CODE_REPLACED,
        roomlog.TABLE_RETIRED,
        roomlog.TABLE_BROUGHT_BACK,
        roomlog.CONFIG_EDITED,
        roomlog.PLAYER_RENAMED,
        roomlog.PLAYERS_MERGED,
        roomlog.INVITE_MADE,
        roomlog.INVITE_WITHDRAWN,
        roomlog.INVITE_MADE,
        roomlog.MEMBER_JOINED,
        roomlog.MEMBER_REMOVED,
        roomlog.ROOM_RENAMED,
        roomlog.MEMBER_RENAMED,
    ]
    by = dict(zip(actions, log, strict=False))
    assert all(name == "老板" for a, name, _ in log if a != roomlog.MEMBER_JOINED)
    assert by[roomlog.MEMBER_JOINED][1] == "小张"
    assert by[roomlog.TABLES_ADDED][2]["tables"] == [{"number": 3, "name": ""}]
    edited = by[roomlog.TABLE_EDITED][2]
    assert (edited["before"], edited["after"]) == (
        {"number": 3, "name": ""},
        {"number": 7, "name": "包间A"},
    )
    cfg = by[roomlog.CONFIG_EDITED][2]
    assert cfg["before"]["name"] == config.name and cfg["after"]["name"] == "周末规则"
    assert config.history.count() >= 2  # django-simple-history keeps it as well
    assert by[roomlog.PLAYER_RENAMED][2] == {"before": "老王", "after": "老王头"}
    assert by[roomlog.PLAYERS_MERGED][2] == {"gone": "王哥", "keep": "老王头", "seats": 1}
    assert by[roomlog.MEMBER_REMOVED][2]["name"] == "小张"
    assert by[roomlog.ROOM_RENAMED][2] == {"before": "老王棋牌室", "after": "老王麻将馆"}
    assert by[roomlog.MEMBER_RENAMED][2] == {"before": "老板", "after": "王老板"}
    # No secret is logged: neither the table's codes nor the invitation's token.
    text = str(log)
    assert t.code not in text and room.tables.get(number=7).code not in text
    assert all(i.token not in text for i in RoomInvite.objects.all())


def add_table(owner: Client, room: Room) -> Any:
    owner.post(reverse("scorer:manage_tables", args=[room.slug]), {"number": "3", "count": "1"})
    return room.tables.get(number=3)


def test_an_admins_close_is_in_the_tables_history_and_the_rooms_log(
    room: Room, owner: Client
) -> None:
    (t,) = room.add_tables(5)
    s = game(room, NAMES, room_table=t)
    response = owner.post(
        reverse("scorer:manage_close", args=[room.slug, s.code]), {"note": "客人走了没结束"}
    )
    assert response.status_code == 302
    change = SessionChange.objects.get(session=s, action=SessionChange.CLOSE)
    assert (change.author, change.note) == ("老板", "客人走了没结束")
    ((action, who, data),) = entries(room)
    assert (action, who) == (roomlog.TABLE_CLOSED, "老板")
    assert data["note"] == "客人走了没结束" and data["table"] == {"number": 5, "name": ""}
    assert "老板 结束了 5号桌 的牌局：客人走了没结束" in log_text(owner, room)
    # A table closed by its players is the table's own business: not in the room's log.
    other = game(room, NAMES)
    other.close("老王")
    assert len(entries(room)) == 1


def test_a_refused_change_logs_nothing(room: Room, boss: RoomMember, owner: Client) -> None:
    """The entry is written in the change's transaction: no change, no entry."""
    game(room, ["老王", "王哥", "阿强", "美玲"])  # one table: two people
    gone, keep = room.players.get(name="王哥"), room.players.get(name="老王")
    owner.post(
        reverse("scorer:manage_players_merge", args=[room.slug]),
        {"gone": gone.pk, "keep": keep.pk, "confirm": "yes"},
    )
    config = room.offered_configs()[0]
    with pytest.raises(EditConflict):
        config.edit("x", config.params, seen="stale", by=boss)
    t3, _t4 = room.add_tables(3, 2)
    with pytest.raises(IntegrityError), transaction.atomic():
        t3.edit(4, "", by=boss)  # table 4 exists: the constraint refuses, all rolls back
    assert entries(room) == []
    # And an entry whose change fails later in the same transaction goes with it.
    with pytest.raises(RuntimeError), transaction.atomic():
        t3.retire(by=boss)
        raise RuntimeError("the rest of the change failed")
    assert entries(room) == [] and room.tables.get(number=3).in_use


@pytest.mark.django_db(transaction=True)
def test_log_action_is_refused_outside_a_transaction() -> None:
    room = make_room("solo")
    with pytest.raises(RuntimeError, match="atomic"):
        room.log_action(roomlog.TABLE_RETIRED, data={"table": {"number": 1, "name": ""}})
    with pytest.raises(ValueError, match="undeclared"), transaction.atomic():
        room.log_action("room.nothing.declared")
    assert not RoomLogEntry.objects.exists()


def test_the_log_is_append_only(room: Room, boss: RoomMember) -> None:
    (t,) = room.add_tables(3)
    t.retire(by=boss)
    entry = RoomLogEntry.objects.get()
    entry.user_name = "别人"
    with pytest.raises(LogIsAppendOnly):
        entry.save()
    with pytest.raises(LogIsAppendOnly):
        entry.delete()
    with pytest.raises(LogIsAppendOnly):
        RoomLogEntry.objects.filter(pk=entry.pk).update(user_name="别人")
    with pytest.raises(LogIsAppendOnly):
        RoomLogEntry.objects.all().delete()
    with pytest.raises(LogIsAppendOnly):
        room.log.all().delete()
    assert RoomLogEntry.objects.get().user_name == "老板"
    # The Django admin shows it read-only, to the site's superusers too.
    model_admin = admin_site._registry[RoomLogEntry]
    request = RequestFactory().get("/admin/")
    request.user = User.objects.create_superuser("root", password="x" * 20)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    # A room deleted by the site's staff takes its log with it (no path through the app).
    room.delete()
    assert not RoomLogEntry.objects.exists()


def test_the_who_survives_the_admin(room: Room, boss: RoomMember, owner: Client) -> None:
    member = make_member(room, "clerk", RoomMember.ADMIN, "小张")
    (t,) = room.add_tables(3)
    t.retire(by=member)
    member.remove(by=boss)
    member.user.delete()
    entry = room.log.get(action=roomlog.TABLE_RETIRED)
    assert entry.user is None and entry.user_name == "小张"
    text = log_text(owner, room)
    assert "小张 把 3号桌 停用了" in text and "老板 移除了管理员 小张" in text


def test_the_log_page_reads_in_the_pages_language_and_local_time(
    room: Room, boss: RoomMember, owner: Client
) -> None:
    (t,) = room.add_tables(3)
    at = dt.datetime(2026, 11, 26, 13, 5, tzinfo=dt.UTC)  # 21:05 in Shanghai
    RoomLogEntry.objects.create(
        room=room, at=at, user=boss.user, user_name="老板",
        action=roomlog.TABLE_RETIRED, data={"table": t.log_data()},
    )  # fmt: skip
    zh = log_text(owner, room)
    assert "老板 把 3号桌 停用了" in zh and "2026-11-26 21:05" in zh
    owner.cookies["django_language"] = "en"
    en = log_text(owner, room)
    assert "老板 retired Table 3" in en and "2026-11-26 21:05" in en
    # Linked from every admin page's menu.
    page = html(owner.get(reverse("scorer:manage", args=[room.slug])))
    assert f'href="{reverse("scorer:manage_log", args=[room.slug])}"' in page


def test_the_log_is_newest_first_a_page_at_a_time(
    room: Room, boss: RoomMember, owner: Client
) -> None:
    room.add_tables(1, 52, by=boss)
    for n in range(1, 53):
        room.tables.get(number=n).retire(by=boss)
    first, second = log_text(owner, room, 1), log_text(owner, room, 2)
    assert first.index("52号桌") < first.index("51号桌")
    assert "停用了" in second and "52号桌 停用了" not in second
    assert "老板 添加了 1–52号桌" in second  # the first thing done, last on the last page
    assert first.count("停用了") == 50


def test_adding_an_action_type_is_one_line(room: Room, boss: RoomMember, owner: Client) -> None:
    """What the till will do: declare its action, log it, and the page says it."""
    topup = roomlog.action("room.till.topup", gettext_lazy("%(who)s topped up %(player)s"))
    try:
        with transaction.atomic():
            room.log_action(topup, boss, {"player": "老王", "amount": "200.00"})
        assert "老板 topped up 老王" in log_text(owner, room)
    finally:
        roomlog.SENTENCES.pop(topup)


def test_the_logs_are_each_rooms_own(room: Room, boss: RoomMember, owner: Client) -> None:
    other = make_room("other", "别家")
    (t,) = other.add_tables(9)
    theirs = make_member(other, "other-boss", RoomMember.ADMIN, "别家老板")
    t.retire(by=theirs)
    assert "别家老板" not in log_text(owner, room)
    assert other.log.count() == 1 and room.log.count() == 0
