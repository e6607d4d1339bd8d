"""A configuration's history as readable lines in the page's language and local time:
"底分 8 → 10 · 老板 · 11-26 20:31" (labels from the ruleset, choices by their label,
是/否 for a yes/no, the admin by the name the room gives him)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorer.models.rooms import Room
from tests.factories import member_client
from tests.pages import html, text
from tests.support.state import form_data

pytestmark = pytest.mark.django_db


def test_an_edit_reads_as_a_line_in_chinese_and_local_time(room: Room, boss: Client) -> None:
    config = room.configs.get(ruleset="mcr", preset="competition")
    edit = reverse("scorer:manage_config", args=[room.slug, config.pk])
    data = form_data(html(boss.get(edit)))
    base = config.params["base"]
    flip = "param_mixed_kong_fan"
    was_on = flip in data
    data = {k: v for k, v in data.items() if k != flip}
    if not was_on:
        data[flip] = "on"
    rs = config.rules
    assert rs is not None
    repeat = next(p for p in rs.params if p.name == "dealer_repeat")
    other = next(c for c in repeat.choices if c != config.params["dealer_repeat"])
    response = boss.post(edit, {**data, "param_base": str(base + 2), "param_dealer_repeat": other})
    assert response.status_code == 302
    created, edited = config.history.order_by("history_date")
    # 12:31 UTC this year is 20:31 in the site's time zone (Asia/Shanghai).
    year = timezone.localtime().year
    created.history_date = datetime(year, 1, 1, 1, 0, tzinfo=UTC)
    created.save()
    edited.history_date = datetime(year, 6, 1, 12, 31, tzinfo=UTC)
    edited.save()
    page = boss.get(reverse("scorer:manage_config_history", args=[room.slug, config.pk]))
    words = text(page)
    kong = next(p for p in rs.params if p.name == "mixed_kong_fan")
    old_repeat = repeat.choice_label(config.params["dealer_repeat"])[0]
    new_repeat = repeat.choice_label(other)[0]
    yes_no = ("是", "否") if was_on else ("否", "是")
    parts = {
        "base": f"底分 {base} → {base + 2}",
        "dealer_repeat": f"{repeat.label_zh} {old_repeat} → {new_repeat}",
        "mixed_kong_fan": f"{kong.label_zh} {yes_no[0]} → {yes_no[1]}",
    }
    # One line for the save, the values in the order the ruleset declares them.
    changes = "；".join(parts[p.name] for p in rs.params if p.name in parts)
    expected = f"{changes} · 老板 · 06-01 20:31"
    assert expected in words, words
    assert "None" not in words and "{" not in words  # no raw values, no "None" reason
    assert "新建：" in words  # the first version, made when the room opened
    assert "系统" in words  # by the site itself


def test_lines_in_english_for_an_english_reader(room: Room) -> None:
    boss = member_client(room, "boss")  # no name shown: the user name
    config = room.configs.get(ruleset="mcr", preset="competition")
    base = config.params["base"]
    config.edit(config.name, {**config.params, "base": 30})
    url = reverse("scorer:manage_config_history", args=[room.slug, config.pk])
    boss.post(reverse("scorer:manage_config_do", args=[room.slug, config.pk, "withdraw"]))
    words = text(boss.get(url, headers={"accept-language": "en"}))
    assert "no longer offered · boss ·" in words
    rs = config.rules
    assert rs is not None
    label = next(p.label_en for p in rs.params if p.name == "base")
    assert f"{label} {base} → 30 · set-up ·" in words  # changed from the shell: no user
    assert "底分" not in words


def test_moves_and_renames_read_as_words(room: Room, boss: Client) -> None:
    second = room.configs.order_by("order", "pk")[1]
    boss.post(reverse("scorer:manage_config_do", args=[room.slug, second.pk, "up"]))
    second.refresh_from_db()
    second.edit("周三比赛", second.params)
    words = text(boss.get(reverse("scorer:manage_config_history", args=[room.slug, second.pk])))
    assert "上移 · 老板" in words
    assert f"名称 {room.configs.get(pk=second.pk).history.last().name} → 周三比赛" in words
