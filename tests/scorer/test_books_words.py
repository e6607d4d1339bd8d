"""The till's settings, a table's own price and a configuration's time fee are in the
room's log and the configuration's history in words of the page's language, never
raw JSON or a Python repr; money is written one way ("12.50 元", a true minus)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models.rooms import Room, RoomMember
from scorer.templatetags.scorer_format import yuan_text
from tests.factories import BLOCK_FEE, BLOCK_FEE_SAID, ZH_PAGE

pytestmark = pytest.mark.django_db

ZH = ZH_PAGE
BLOCK = BLOCK_FEE
SAID = BLOCK_FEE_SAID
RAW = ("{", "'mode'", '"mode"', "Decimal(")


def owner(room: Room) -> RoomMember:
    return RoomMember.objects.get(room=room, role=RoomMember.OWNER)


def test_a_configurations_time_fee_in_words(room: Room, boss: Client) -> None:
    config = room.offered_configs()[0]
    config.edit(config.name, config.params, by=owner(room), time_fee=BLOCK)
    log = boss.get(reverse("scorer:manage_log", args=[room.slug]), **ZH).content.decode()
    assert f"不计时收费 → {SAID}" in log
    history = boss.get(
        reverse("scorer:manage_config_history", args=[room.slug, config.pk]), **ZH
    ).content.decode()
    assert SAID in history
    for page in (log, history):
        assert not any(raw in page.split("<body", 1)[1] for raw in RAW if raw != "{")
        assert "'price'" not in page and "time_fee" not in page


def test_a_tables_own_price_and_the_day_end_hour_in_words(room: Room, boss: Client) -> None:
    table = room.add_tables(room.next_table_number(), 1, name="包间A")[0]
    table.edit(table.number, table.name, owner(room), time_fee=BLOCK)
    boss.post(reverse("scorer:manage_till", args=[room.slug]), {"action": "hour", "hour": "2"})
    log = boss.get(reverse("scorer:manage_log", args=[room.slug]), **ZH).content.decode()
    assert SAID in log and "营业日结束时间改为 2:00（原为 6:00）" in log
    assert "time_fee" not in log and "'mode'" not in log


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (Decimal("12.5"), "12.50 元"),
        (Decimal("-12.5"), "\u221212.50 元"),
        (Decimal("0"), "0.00 元"),
        (5, "5.00 元"),
    ],
)
def test_money_is_written_one_way(value: Decimal | int, said: str) -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        assert yuan_text(value) == said


def test_the_price_on_the_rules_line_and_the_tables_list(room: Room, boss: Client) -> None:
    config = room.offered_configs()[0]
    config.edit(config.name, config.params, by=owner(room), time_fee=BLOCK)
    table = room.add_tables(room.next_table_number(), 1, name="包间A")[0]
    table.edit(table.number, table.name, owner(room), time_fee={**BLOCK, "price": "80"})
    configs = boss.get(reverse("scorer:manage_configs", args=[room.slug]), **ZH).content.decode()
    assert SAID in configs and "。 · " not in configs
    tables = boss.get(reverse("scorer:manage_tables", args=[room.slug]), **ZH).content.decode()
    assert "计时：每场 4 小时 80 元" in tables and "名称、编号、价格" in tables
    edit = boss.get(
        reverse("scorer:manage_table", args=[room.slug, table.number]), **ZH
    ).content.decode()
    assert 'name="tf_price"' in edit and 'value="80' in edit
    page = boss.get(
        reverse("scorer:manage_config", args=[room.slug, config.pk]), **ZH
    ).content.decode()
    assert ">分<" in page and "番数" not in page.split('name="fee_unit"', 1)[-1][:400]
