"""A room's configurations on its admins' pages: the list (offer, stop offering, move,
copy), a new one, the edit form with each value checked on its field, a form opened
before another admin's save refused; what the start page then offers."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer.models import GameSession
from scorer.models.rooms import Room, RoomConfig, RoomMember
from tests.factories import make_table, member_client
from tests.pages import html, text, text_of
from tests.support.state import form_data

pytestmark = pytest.mark.django_db


def url(name: str, room: Room, *args: object) -> str:
    return reverse(f"scorer:{name}", args=[room.slug, *args])


def names_offered(client: Client, room: Room) -> list[str]:
    page = html(client.get(reverse("scorer:room", args=[room.slug])))
    select = re.search(r'<select name="config".*?</select>', page, re.S)
    assert select
    return re.findall(r'<option value="(\d+)"', select.group(0))


def mcr(room: Room) -> RoomConfig:
    return room.configs.get(ruleset="mcr", preset="competition")


def test_the_list_shows_every_configuration_once_in_order(boss: Client, room: Room) -> None:
    page = html(boss.get(url("manage_configs", room)))
    ids = re.findall(r'id="config-(\d+)"', page)
    assert ids == [str(c.pk) for c in room.configs.order_by("order", "pk")]
    assert len(ids) == len(set(ids)) == room.configs.count()


def test_moving_one_up_changes_the_start_pages_order(boss: Client, room: Room) -> None:
    second = room.offered_configs()[1]
    response = boss.post(
        url("manage_config_do", room, second.pk, "up"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    # The answer is the list alone (what changed), not the page.
    assert 'id="configs"' in html(response)
    assert "<html" not in html(response)
    assert names_offered(Client(), room)[0] == str(second.pk)
    # At the top it moves no further.
    boss.post(url("manage_config_do", room, second.pk, "up"))
    assert room.offered_configs()[0] == second


def test_stop_offering_and_offer_again(boss: Client, room: Room) -> None:
    config = room.offered_configs()[0]
    response = boss.post(url("manage_config_do", room, config.pk, "withdraw"))
    assert response.status_code == 302
    assert str(config.pk) not in names_offered(Client(), room)
    boss.post(url("manage_config_do", room, config.pk, "offer"))
    assert str(config.pk) in names_offered(Client(), room)


def test_the_last_offered_configuration_cannot_be_withdrawn(boss: Client, room: Room) -> None:
    keep = room.offered_configs()[0]
    room.configs.exclude(pk=keep.pk).update(enabled=False)
    response = boss.post(
        url("manage_config_do", room, keep.pk, "withdraw"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200  # the list, with the refusal above it
    assert "至少" in text(response)  # said in the reader's language
    keep.refresh_from_db()
    assert keep.enabled
    response = boss.post(url("manage_config_do", room, keep.pk, "withdraw"), follow=True)
    assert "至少" in text(response)
    keep.refresh_from_db()
    assert keep.enabled


def test_copy_makes_an_unoffered_copy_with_its_values(boss: Client, room: Room) -> None:
    config = mcr(room)
    config = config.edit(config.name, {**config.params, "base": 12})
    boss.post(url("manage_config_do", room, config.pk, "copy"))
    boss.post(url("manage_config_do", room, config.pk, "copy"))
    copies = list(room.configs.filter(name__startswith=config.name).exclude(pk=config.pk))
    assert len(copies) == 2 and len({c.name for c in copies}) == 2  # each its own name
    for c in copies:
        assert c.params == config.params and not c.enabled and c.preset == ""


def test_new_from_a_code_preset_opens_its_form(boss: Client, room: Room) -> None:
    response = boss.post(url("manage_config_new", room), {"source": "preset:mcr:competition"})
    assert response.status_code == 302
    made = room.configs.order_by("-pk").first()
    assert made is not None and response["Location"] == url("manage_config", room, made.pk)
    rs = get_ruleset("mcr")
    preset = rs.preset("competition")
    assert preset is not None
    assert made.params == dict(rs.resolve_params(preset.params))
    assert not made.enabled and made.preset == "" and made.name != mcr(room).name


def test_a_new_name_another_configuration_has_is_refused(boss: Client, room: Room) -> None:
    taken = mcr(room).name
    count = room.configs.count()
    response = boss.post(
        url("manage_config_new", room), {"source": "preset:mcr:competition", "name": taken}
    )
    assert response.status_code == 400 and room.configs.count() == count


def test_edit_a_value_checked_on_its_field_then_saved(boss: Client, room: Room) -> None:
    config = mcr(room)
    edit = url("manage_config", room, config.pk)
    page = html(boss.get(edit))
    rs = get_ruleset("mcr")
    for p in rs.params:  # every declared parameter has its field, labelled in Chinese
        assert f'name="param_{p.name}"' in page and p.label_zh in text_of(page)
    data = form_data(page)
    assert data["param_base"] == str(config.params["base"])
    response = boss.post(edit, {**data, "param_base": "-3"})
    assert response.status_code == 400
    field = re.search(r'<div class="field[^"]*has-error[^"]*">.*?</div>', html(response), re.S)
    assert field and 'name="param_base"' in field.group(0) and "errorlist" in field.group(0)
    config.refresh_from_db()
    assert config.params["base"] != -3
    response = boss.post(edit, {**data, "param_base": "10"})
    assert response.status_code == 302
    config.refresh_from_db()
    assert config.params["base"] == 10
    last = config.history.first()
    assert last is not None and last.history_user.username == "boss"


def test_a_form_opened_before_another_admins_save_is_refused(boss: Client, room: Room) -> None:
    clerk = member_client(room, "clerk", RoomMember.ADMIN)
    config = mcr(room)
    edit = url("manage_config", room, config.pk)
    mine, theirs = (
        form_data(html(boss.get(edit))),
        form_data(html(clerk.get(edit))),
    )
    assert boss.post(edit, {**mine, "param_base": "10"}).status_code == 302
    response = clerk.post(edit, {**theirs, "param_base": "20"})
    assert response.status_code == 409
    config.refresh_from_db()
    assert config.params["base"] == 10  # the first admin's change stands
    assert form_data(html(response))["param_base"] == "10"  # shown as it is now
    # A move in the list meanwhile is no conflict: the form edits name and values only.
    again = form_data(html(clerk.get(edit)))
    boss.post(url("manage_config_do", room, config.pk, "down"))
    assert clerk.post(edit, {**again, "param_base": "20"}).status_code == 302


def test_an_edit_changes_every_table_started_afterwards_and_none_before(
    boss: Client, room: Room
) -> None:
    """The start page preselects, and each option it lists, give the edited values; a
    table started before keeps its own."""
    first = room.offered_configs()[0]
    before = make_table(
        first.ruleset, ["甲", "乙", "丙", "丁"], room=room, params=dict(first.params)
    )
    edited = {}
    for config in room.offered_configs():
        rs = config.rules
        assert rs is not None
        p = next((p for p in rs.params if p.type == "int" and (p.max is None or p.max > 9)), None)
        if p is None:
            continue
        edit = url("manage_config", room, config.pk)
        data = form_data(html(boss.get(edit)))
        value = int(config.params[p.name]) + 1
        assert boss.post(edit, {**data, f"param_{p.name}": str(value)}).status_code == 302
        edited[config.pk] = (p.name, value)
    assert first.pk in edited
    player = Client()
    start = reverse("scorer:room", args=[room.slug])
    for pk in [None, *names_offered(player, room)]:
        page = html(player.get(start, {"config": pk} if pk else {}))
        data = form_data(page)
        for i, name in enumerate(["东", "南", "西", "北"]):
            data[f"name_{i}"] = name
        response = player.post(reverse("scorer:room_create", args=[room.slug]), data)
        assert response.status_code == 302, text(response)[:300]
        session = GameSession.objects.order_by("-pk").first()
        assert session is not None
        chosen = int(session.preset.removeprefix("room:"))
        assert chosen == (int(pk) if pk else first.pk)
        if chosen in edited:
            name, value = edited[chosen]
            assert session.params[name] == value
    before.refresh_from_db()
    assert before.params == first.params
