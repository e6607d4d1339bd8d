"""Setting 计时 fees: per configuration, a fixed table's own price
over it, snapshotted when a table starts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.roomlog import CONFIG_EDITED, TABLE_EDITED
from scorer.models.rooms import Room
from tests.support.start import start
from tests.support.state import form_data as page_form

pytestmark = pytest.mark.django_db


def test_the_hall_by_the_session_and_room_a_by_the_hour(boss: Client, room: Room) -> None:
    config = room.offered_configs()[0]
    edit = reverse("scorer:manage_config", args=[room.slug, config.pk])
    data = page_form(boss.get(edit).content.decode())
    data.update(tf_mode="block", tf_price="50", tf_hours="4", tf_grace="10", tf_overtime="block")
    assert boss.post(edit, data).status_code == 302
    config.refresh_from_db()
    assert config.time_fee == {
        "mode": "block", "price": "50.00", "hours": 4, "grace": 10, "overtime": "block"
    }  # fmt: skip
    assert room.log.filter(action=CONFIG_EDITED).exists()
    hall, box = room.add_tables(1, 1)[0], room.add_tables(2, 1, name="包间A")[0]
    url = reverse("scorer:manage_table", args=[room.slug, box.number])
    bad = {"number": "2", "name": "包间A", "tf_mode": "hour", "tf_price": ""}
    assert boss.post(url, bad).status_code == 400  # the price is said missing on its field
    ok = {**bad, "tf_price": "30", "tf_unit": "30", "tf_minimum": "120"}
    assert boss.post(url, ok).status_code == 302
    box.refresh_from_db()
    assert box.time_fee == {"mode": "hour", "price": "30.00", "unit": 30, "minimum": 120}
    entry = room.log.get(action=TABLE_EDITED)
    assert entry.data["after"]["time_fee"]["mode"] == "hour"
    # Tables started at each snapshot their rule; a later change moves neither.
    start(Client(), hall, ["甲", "乙", "丙", "丁"], config)
    start(Client(), box, ["甲", "乙", "丙", "丁"], config)
    at_hall = GameSession.objects.get(room_table=hall)
    at_box = GameSession.objects.get(room_table=box)
    assert at_hall.rules.time_fee.mode == "block" and at_box.rules.time_fee.mode == "hour"
    box.edit(2, "包间A", by=room.members.get(), time_fee={})
    at_box.refresh_from_db()
    assert at_box.rules.time_fee.price == 30


def test_aa_set_in_yuan_on_the_configuration(boss: Client, room: Room) -> None:
    config = room.offered_configs()[0]
    edit = reverse("scorer:manage_config", args=[room.slug, config.pk])
    data = page_form(boss.get(edit).content.decode())
    data.update(fee_mode="aa", fee_unit="yuan", fee_price="")
    assert boss.post(edit, data).status_code == 400  # the amount is said missing
    data.update(fee_price="20")
    assert boss.post(edit, data).status_code == 302
    config.refresh_from_db()
    assert config.fee == {"mode": "aa", "unit": "yuan", "amount": "20.00"}
