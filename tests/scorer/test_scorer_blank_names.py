"""Players left unnamed are placeholders, numbered by seat, and never players of the
registry (the unnamed tables never add up under one "东家")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorer.models import GameSession
from scorer.models.players import Player, Seat, is_placeholder
from tests.pages import html
from tests.support.start import start_data

pytestmark = pytest.mark.django_db


def test_unnamed_seats_are_placeholders_and_never_join_the_registry(client: Client) -> None:
    for _ in range(2):  # two unnamed tables: still no "player" shared by them
        r = client.post(reverse("scorer:create"), start_data(name_0="老王", name_1="", name_3=""))
        assert r.status_code == 302
    s = GameSession.objects.order_by("-pk").first()
    assert s is not None
    assert s.players == ["老王", "玩家2", "阿强", "玩家4"]
    assert set(Player.objects.values_list("name", flat=True)) == {"老王", "阿强"}
    assert Player.objects.get(name="老王").seats.count() == 2
    assert not Seat.objects.filter(session=s, seat__in=[1, 3]).exists()
    # Not a wind: the names no longer contradict the seat winds that move round.
    page = html(client.get(reverse("scorer:session", args=[s.code])))
    assert "东家" not in page and "北家" not in page


def test_a_placeholder_is_known_in_either_language_and_only_at_its_seat() -> None:
    assert is_placeholder("玩家2", 1) and is_placeholder("Player 2", 1)
    assert not is_placeholder("玩家2", 0) and not is_placeholder("老王", 0)
