"""Quick entry (选番) at the table: exclusions shown and applied, common fans first,
the last mode kept per phone, and the session's own parameters (成都 fans)."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client

from rules import get_ruleset
from rules.rulesets.mcr.fans import FANS
from scorer.models import Round
from scorer.present.fan_list import fan_pinyin, search_words
from tests.factories import make_table
from tests.pages import html
from tests.support.phone import NAMES, Phone
from tests.support.state import state_of

pytestmark = pytest.mark.django_db


def fan_row(page: str, fid: int) -> str:
    m = re.search(
        rf'<div class="pk-quick-fan[^"]*"[^>]*>\s*<button type="submit" name="tap" value="fan:{fid}:\+".*?</div>',
        page,
        re.S,
    )
    assert m, f"fan {fid} not listed"
    return m.group(0)


def test_picked_fans_apply_the_exclusions_and_grey_the_excluded() -> None:
    phone = Phone(Client(), make_table("mcr", NAMES))
    phone.tap("mode:quick", "winner:1", "from:2")
    page = phone.tap("fan:48:+", "fan:75:+")
    assert "pk-void" not in fan_row(page, 75)  # nothing excludes 缺一门 yet
    page = phone.tap("fan:22:+")  # 清一色 includes 缺一门 and 无字
    for fid in (75, 76):
        # 缺一门 was picked; 无字 was not, and is greyed before anyone picks it.
        row = fan_row(page, fid)
        assert "pk-void" in row and "不计：清一色 已含" in htmllib.unescape(row)
    assert "pk-void" not in fan_row(page, 48)
    page = phone.tap("fan:76:+")
    total = re.search(r'<td class="pk-pts pk-total">(\d+)</td>', page)
    assert total and int(total.group(1)) == FANS[48].points + FANS[22].points == 30
    assert phone.confirm().status_code == 302
    rev = Round.objects.get().current
    assert rev is not None and rev.result["total"] == 30
    # base 8: the discarder (seat 2) pays 8 + 30, the others 8 each: the winner gets 54.
    assert rev.deltas == [-8, 54, -38, -8]


def test_quick_entry_keeps_the_last_mode_of_this_phone() -> None:
    session = make_table("mcr", NAMES)
    client = Client()
    phone = Phone(client, session)
    phone.tap("mode:quick", "winner:1", "from:2", "fan:22:+", "fan:48:+")
    assert phone.confirm().status_code == 302
    assert state_of(html(client.get(phone.page_url)))["mode"] == "quick"
    assert state_of(html(Client().get(phone.page_url)))["mode"] == "tiles"  # another phone
    Phone(client, session).tap("mode:tiles")
    assert state_of(html(client.get(phone.page_url)))["mode"] == "tiles"


def test_quick_entry_has_a_search_box_and_common_fans_first() -> None:
    page = Phone(Client(), make_table("mcr", NAMES)).tap("mode:quick")
    assert "data-fan-search" in page
    common = get_ruleset("mcr").fan_catalog()
    # Every fan can be found by its names, Chinese, English and pinyin, and by its
    # everyday names (rules/fan_help.py) with theirs.
    helped = get_ruleset("mcr").fan_help()
    for f in common:
        words = search_words(f["name_zh"], helped[f["id"]].aliases)
        names = f"{f['name_zh']} {htmllib.escape(f['name_en'].lower())} {htmllib.escape(words)}"
        assert f'data-fan-names="{names}"' in page
        assert words.startswith(fan_pinyin(f["name_zh"]))
    assert fan_pinyin("碰碰和").split() == ["pengpenghe", "pph", "pengpenghu"]
    assert fan_pinyin("箭刻").split() == ["jianke", "jk"]


def test_a_chengdu_table_quick_entry_shows_the_chengdu_fans() -> None:
    rs = get_ruleset("sichuan")
    chengdu = rs.resolve_params(next(p for p in rs.presets if p.id == "chengdu").params)
    xuezhan = rs.resolve_params({})
    assert chengdu["fan_table"] != xuezhan["fan_table"]
    session = make_table("sichuan", NAMES, params=dict(chengdu))
    mine = {(f["name_zh"], f["points"]) for f in rs.fan_catalog(chengdu)}
    theirs = {(f["name_zh"], f["points"]) for f in rs.fan_catalog(xuezhan)}
    assert mine != theirs
    client = Client()
    page = html(client.get(f"/s/{session.code}/record", {"kind": "win"}))
    state = {
        k: htmllib.unescape(v)
        for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
        if k != "csrfmiddlewaretoken"
    }
    response = client.post(
        f"/s/{session.code}/record/preview", {**state, "tap": "mode:quick"}, HTTP_HX_REQUEST="true"
    )
    page = htmllib.unescape(html(response))
    shown = re.findall(
        r'<span class="pk-zh" lang="zh-hans">(.*?)</span> <span class="pk-quick-count">(\d+) 番',
        page,
    )
    patterns = {
        (f["name_zh"], f["points"]) for f in rs.fan_catalog(chengdu) if f.get("group") != "extra"
    }
    assert {(n, int(p)) for n, p in shown} == patterns


def test_fans_that_exclude_each_other_are_not_greyed_the_wrong_way() -> None:
    """一色三节高 picked: 一色三同顺 added would count (it ranks first) and exclude it,
    so 一色三同顺 is no mistake to pick; the other way round it is."""
    phone = Phone(Client(), make_table("mcr", NAMES))
    page = phone.tap("mode:quick", "winner:1", "from:2", "fan:24:+")
    assert "pk-void" not in fan_row(page, 23)
    page = phone.tap("fan:24:-", "fan:23:+")
    assert "pk-void" in fan_row(page, 24)
