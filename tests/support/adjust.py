"""Posting an adjustment (调整) from a phone."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from scorer.models import GameSession

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def post_adjust(c: Client, s: GameSession, token: str, **extra: Any) -> Any:
    data = {"token": token, "for_round": s.next_number(), "kind": "adjust", "reason": "协商",
            "from_0": "1", "to_0": "0", "amount_0": "30", **extra}  # fmt: skip
    return c.post(reverse("scorer:adjust", args=[s.code]), data, **ZH)
