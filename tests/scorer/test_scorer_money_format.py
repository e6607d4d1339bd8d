"""Money in one format per table, decimals only where the rate needs them (never
"金额 +16" beside "+3.50" at 0.25 a point, which reads as two formats)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from scorer.present.words import money_places, money_text
from tests.factories import SHORT_NAMES, by_tiles, make_table, record
from tests.pages import html, text_of

HANDS = [
    ({"concealed": "111m222m333m456p7z", "win_tile": "7z"}, 0, None),
    ({"concealed": "123m456m789m123p5p", "win_tile": "5p"}, 1, 2),
]


@pytest.mark.parametrize(
    ("rate", "places", "amounts", "texts"),
    [
        ("0.25", 2, ["16", "3.5", "-0.25", "0"], ["+16.00", "+3.50", "−0.25", "0.00"]),
        ("0.5", 2, ["16", "-3.5"], ["+16.00", "−3.50"]),
        ("1", 0, ["16", "-3"], ["+16", "−3"]),
        ("2.00", 0, ["32"], ["+32"]),
    ],
)
def test_one_format_per_rate(rate: str, places: int, amounts: list[str], texts: list[str]) -> None:
    assert money_places(Decimal(rate)) == places
    assert [money_text(Decimal(a), Decimal(rate)) for a in amounts] == texts


@pytest.mark.django_db
def test_every_amount_of_a_quarter_point_table_has_two_decimals(client: Client) -> None:
    s = make_table("mcr", SHORT_NAMES, money_per_point=Decimal("0.25"))
    s.params = dict(s.rules.params)
    s.save()
    for hand, winner, discarder in HANDS:
        record(s, by_tiles(winner, discarder, hand))
    assert any(t * Decimal("0.25") == int(t * Decimal("0.25")) for t in s.tallies())
    for name in ("session", "final", "ledger"):
        page = html(client.get(reverse(f"scorer:{name}", args=[s.code])))
        amounts = re.findall(r"金额\s*([+−]?[\d.]+)", text_of(page)) + re.findall(
            r"<small>(?:<span[^>]*>)?([+−]?\d[\d.]*)<", page
        )
        assert amounts, name
        assert all(re.fullmatch(r"[+−]?\d+\.\d\d", a) for a in amounts), (name, amounts)
