"""A table is retired, or given a new QR code, by the room's admins.

A retired table leaves the print sheet and its code answers "no longer in use" in
the room's words; a new code stops the old one at once, and the sheet and the
table's QR image show the new one at once; the games played at the table keep
working by their own links; a retired table can be brought back."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.rooms import Room, RoomTable
from scorer.services.seating import TableRetired, start_at
from scorer.web.share import qr_svg
from tests.factories import make_room, make_table, member_client, record
from tests.pages import html, text, text_of
from tests.support.start import form_data

pytestmark = pytest.mark.django_db

NAMES = ["老王", "小李", "阿强", "美玲"]


@pytest.fixture
def room() -> Room:
    room = make_room("laowang", "老王棋牌室")
    room.add_tables(1, 4)
    return room


@pytest.fixture
def owner(room: Room) -> Client:
    return member_client(room, "boss", shown="老板")


def table(room: Room, number: int) -> RoomTable:
    return room.tables.get(number=number)


def scan(code: str, room: Room) -> Any:
    """What a phone gets that scans a table's QR code."""
    return Client().get(reverse("scorer:table", args=[room.slug, code]))


def retire(owner: Client, room: Room, number: int) -> Any:
    url = reverse("scorer:manage_table_retire", args=[room.slug, number])
    return owner.post(url, {"confirm": "yes"})


def new_code(owner: Client, room: Room, number: int) -> Any:
    t = table(room, number)
    url = reverse("scorer:manage_table_new_code", args=[room.slug, number])
    return owner.post(url, {"confirm": t.qr_version})


def sheet(owner: Client, room: Room) -> str:
    return html(owner.get(reverse("scorer:manage_qr_sheet", args=[room.slug])))


def test_a_retired_table_leaves_the_sheet_and_its_code_says_so(room: Room, owner: Client) -> None:
    t3 = table(room, 3)
    assert scan(t3.code, room).status_code == 200
    assert t3.code in sheet(owner, room)
    assert retire(owner, room, 3).status_code == 302
    t3.refresh_from_db()
    assert t3.retired_at is not None
    page = sheet(owner, room)
    assert t3.code not in page and page.count('<figure class="qr-card">') == 3
    assert "3号桌" not in text_of(page.split('class="qr-sheet"')[1])
    response = scan(t3.code, room)
    assert response.status_code == 410
    words = text(response)
    # In the room's words (its name, the table's label), not the wrong-link 404.
    assert "老王棋牌室" in words and "3号桌 已停用" in words
    assert "这个地址什么也没有" not in words and "检查链接" not in words
    assert not GameSession.objects.filter(room_table=t3).exists()


def test_a_new_code_stops_the_old_one_at_once(room: Room, owner: Client) -> None:
    t2 = table(room, 2)
    old, old_version = t2.code, t2.qr_version
    assert new_code(owner, room, 2).status_code == 302
    t2.refresh_from_db()
    assert t2.code != old and t2.in_use
    response = scan(old, room)
    assert response.status_code == 410
    words = text(response)
    assert "2号桌 的这个二维码已换成新的" in words and "请扫桌上现在贴的二维码" in words
    assert t2.code not in html(response)  # nothing leads to the new code
    assert scan(t2.code, room).status_code == 200
    # The sheet prints the new code, never the old one.
    page = sheet(owner, room)
    assert t2.code in page and old not in page
    # The table's QR image: the new code, at a URL of its own (no stale cache).
    url = "http://testserver" + reverse("scorer:table", args=[room.slug, t2.code])
    tables_page = html(owner.get(reverse("scorer:manage_tables", args=[room.slug])))
    image = reverse("scorer:manage_table_qr_versioned", args=[room.slug, 2, t2.qr_version])
    assert image in tables_page and old_version not in tables_page
    response = owner.get(image)
    assert response.content == qr_svg(url)
    assert "no-store" in response["Cache-Control"]  # an admin's download: never cached
    stale = reverse("scorer:manage_table_qr_versioned", args=[room.slug, 2, old_version])
    assert owner.get(stale).status_code == 404
    plain = owner.get(reverse("scorer:manage_table_qr", args=[room.slug, 2]))
    assert plain.content == qr_svg(url) and "no-store" in plain["Cache-Control"]


def test_games_at_the_table_keep_working_by_their_own_links(room: Room, owner: Client) -> None:
    """Retired mid-game: the open game goes on by its own link until closed, the
    past ones keep theirs; the same after a new code."""
    t3, t2 = table(room, 3), table(room, 2)
    past = make_table("mcr", NAMES, room=room, room_table=t3, seated=True)
    record(past)
    past.close("阿强")
    phone = Client()
    phone.get(reverse("scorer:table", args=[room.slug, t3.code]))
    start = form_data(room.offered_configs()[0], NAMES, table=t3.code)
    response = phone.post(reverse("scorer:room_create", args=[room.slug]), start)
    assert response.status_code == 302
    playing = GameSession.objects.get(room_table=t3, closed_at__isnull=True)
    at_two = make_table("mcr", NAMES, room=room, room_table=t2, seated=True)
    retire(owner, room, 3)
    new_code(owner, room, 2)
    for session in (past, playing, at_two):
        for page in ("session", "ledger", "final"):
            url = reverse(f"scorer:{page}", args=[session.code])
            assert phone.get(url).status_code == 200, url
    # The open game is still played and closed by its own link.
    record(playing)
    response = phone.post(reverse("scorer:close", args=[playing.code]))
    assert response.status_code in (200, 302)
    playing.refresh_from_db()
    assert playing.closed_at is not None and playing.rounds.count() == 1


def test_a_start_form_opened_before_the_change_starts_nothing(room: Room, owner: Client) -> None:
    t3, t2 = table(room, 3), table(room, 2)
    old_two = t2.code
    retire(owner, room, 3)
    new_code(owner, room, 2)
    for code in (t3.code, old_two):
        start = form_data(room.offered_configs()[0], NAMES, table=code)
        response = Client().post(reverse("scorer:room_create", args=[room.slug]), start)
        assert response.status_code == 410, code
    assert not GameSession.objects.exists()


def test_the_start_is_refused_under_the_tables_lock(room: Room) -> None:
    """A phone holding the table as it was before the retirement (the race start_at's
    row lock settles): nothing is started."""
    t3 = table(room, 3)
    stale = RoomTable.objects.get(pk=t3.pk)
    RoomTable.objects.filter(pk=t3.pk).update(retired_at=room.created_at)
    with pytest.raises(TableRetired):
        start_at(stale, ruleset="mcr", players=NAMES)
    assert not GameSession.objects.exists()


def test_a_retired_table_is_brought_back_with_its_code(room: Room, owner: Client) -> None:
    t3 = table(room, 3)
    retire(owner, room, 3)
    # It keeps its number: adding table 3 again says to bring it back instead.
    response = owner.post(
        reverse("scorer:manage_tables", args=[room.slug]), {"number": "3", "count": "1"}
    )
    assert response.status_code == 400 and "恢复使用" in text(response)
    page = html(owner.get(reverse("scorer:manage_tables", args=[room.slug])))
    assert "已停用的牌桌" in text_of(page)
    back = reverse("scorer:manage_table_bring_back", args=[room.slug, 3])
    assert owner.post(back).status_code == 302
    t3.refresh_from_db()
    assert t3.in_use and scan(t3.code, room).status_code == 200
    assert t3.code in sheet(owner, room)
    # A retired table gets no new code (bring it back first): nothing changes.
    retire(owner, room, 3)
    code = RoomTable.objects.get(pk=t3.pk).code
    response = owner.post(
        reverse("scorer:manage_table_new_code", args=[room.slug, 3]), {"confirm": t3.qr_version}
    )
    assert response.status_code == 302 and RoomTable.objects.get(pk=t3.pk).code == code


def test_a_code_never_opens_another_rooms_table(room: Room, owner: Client) -> None:
    """An old code is looked up within its room, like a current one."""
    old = table(room, 2).code
    new_code(owner, room, 2)
    other = make_room("other")
    assert Client().get(reverse("scorer:table", args=[other.slug, old])).status_code == 404
    assert Client().get(reverse("scorer:table", args=[room.slug, "nosuchcode"])).status_code == 404
