"""What a fan means, on the fan picker: everyday names find it, "?" opens its meaning
and an example hand (rules/fan_help.py).

The search box filters in the browser (static/js/fan_search.js) on each fan's
`data-fan-names`; here the same match is made on the served page, for every alias
of every fan a searchable picker lists (碰碰胡 for 碰碰和, 七对子, "self drawn"):
each finds its fan.  The browser test (tests/browser/test_fan_search.py) types a
few.  The meaning loads when "?" is opened (one small, cacheable answer).
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from rules import REGISTRY
from rules.fan_help import parse_example
from rules.tiles import parse_tiles
from tests.factories import by_tiles, make_table, record
from tests.pages import html, text
from tests.support.phone import NAMES, Phone
from tests.support.phone import Phone as EventPhone

pytestmark = pytest.mark.django_db

_FAN = re.compile(r'data-fan-names="([^"]*)">\s*<button type="submit" name="tap" value="fan:(\d+):')


def found(names: str, typed: str) -> bool:
    """fan_search.js's match: the query lower-cased, with or without its spaces."""
    q = typed.strip().lower()
    return q.replace(" ", "") in names or q in names


def test_every_alias_finds_its_fan() -> None:
    rs_id = "mcr"  # the picker with a search box (a whole round picked by fans)
    phone = Phone(Client(), make_table(rs_id, NAMES))
    page = phone.tap("mode:quick")
    assert "data-fan-search" in page
    listed = {int(fid): htmllib.unescape(names).lower() for names, fid in _FAN.findall(page)}
    help = REGISTRY[rs_id].fan_help()
    assert set(listed) <= set(help)
    checked = 0
    for fid in listed:
        for alias in help[fid].aliases:
            assert found(listed[fid], alias), (fid, alias)
            checked += 1
    assert checked >= len(listed) // 2
    # Names players type that the list once lacked.
    for typed, fid in (("碰碰胡", 48), ("七对子", 19), ("self drawn", 80), ("SELF DRAWN", 80)):
        assert found(listed[fid], typed), typed
    assert not found(listed[48], "七对子")


def test_a_fan_opens_its_meaning_and_an_example_hand() -> None:
    session = make_table("mcr", NAMES)
    client = Client()
    page = Phone(client, session).tap("mode:quick")
    url = reverse("scorer:fan_help", args=["mcr", 48])
    # "?" beside the fan: a <details> that loads the meaning when opened, a link without script.
    assert f'hx-get="{url}"' in page and f'<a href="{url}">' in page
    part = client.get(url, HTTP_HX_REQUEST="true")
    assert part.status_code == 200 and "public" in part["Cache-Control"]
    body = html(part)
    assert "由4副刻子(或杠)、将牌组成的和牌。" in body and "<html" not in body
    example = REGISTRY["mcr"].fan_help()[48].example
    shown = (
        len(parse_tiles(parse_example(example)["concealed"]))
        + 1
        + sum(len(parse_tiles(m["tiles"])) for m in parse_example(example)["melds"])
    )
    assert body.count('class="pk-tile pk-mini') == shown == 14
    # What an example needs besides its tiles is said (自摸, 海底: 妙手回春).
    assert "自摸" in text(client.get(reverse("scorer:fan_help", args=["mcr", 44]),
                                    HTTP_HX_REQUEST="true"))  # fmt: skip
    # Without script: a page of its own.
    assert "<html" in html(client.get(url))
    assert client.get(reverse("scorer:fan_help", args=["mcr", 999])).status_code == 404
    assert client.get(reverse("scorer:fan_help", args=["nope", 1])).status_code == 404


@pytest.mark.parametrize(("rs_id", "fid"), [("sichuan", 2), ("yunnan", 1)])
def test_the_event_pickers_patterns_open_their_meaning_too(rs_id: str, fid: int) -> None:
    # Recorded event by event: the pattern list has "?" as well, and the meaning
    # says the everyday names (the list is short: no search box).
    client = Client()
    phone = EventPhone(client, make_table(rs_id, NAMES), kind="win")
    page = phone.tap("mode:quick")
    url = reverse("scorer:fan_help", args=[rs_id, fid])
    assert f'hx-get="{url}"' in page
    words = text(client.get(url, HTTP_HX_REQUEST="true"))
    assert all(a in words for a in REGISTRY[rs_id].fan_help()[fid].aliases)


@pytest.mark.parametrize("rs_id", ["mcr", "hebei"])  # picked by fans or by tiles only
def test_the_round_page_links_each_fan_to_its_meaning(client: Client, rs_id: str) -> None:
    session = make_table(rs_id, NAMES, params=dict(REGISTRY[rs_id].defaults))
    hand = {"concealed": "1133m5577p2288s1z", "win_tile": "1z"}  # 七对 / 七巧对
    rnd = record(session, by_tiles(1, 2, hand))
    assert rnd.current is not None
    fans = [f["id"] for f in rnd.current.result["fans"]]
    helped = [f for f in fans if f in REGISTRY[rs_id].fan_help()]
    assert helped
    url = reverse("scorer:round", args=[session.code, rnd.number])
    for page in (html(client.get(url)), html(client.get(url + "?part=current"))):
        for fid in helped:
            assert f'href="{reverse("scorer:fan_help", args=[rs_id, fid])}"' in page
