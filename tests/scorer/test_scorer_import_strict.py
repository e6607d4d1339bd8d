"""An imported table is input too (issue 17): read as strict JSON, so NaN or a lone
surrogate never reaches the database (PostgreSQL's jsonb refuses the surrogate)."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from scorer.export import table_json
from scorer.models import GameSession
from tests.scorer.test_scorer_final import generated_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("change", ["nan", "surrogate", "surrogate_bytes"])
def test_an_export_with_nan_or_a_lone_surrogate_is_refused_whole(
    client: Client, change: str
) -> None:
    data = table_json(generated_table(4))
    if change == "nan":
        data["rounds"][0]["revisions"][0]["deltas"][0] = float("nan")
        body = json.dumps(data).encode()
    else:
        data["players"][0] = "\ud800"
        body = json.dumps(data).encode()  # as the escape "\ud800"
        if change == "surrogate_bytes":
            body = body.replace(b"\\ud800", b"\xed\xa0\x80")
    before = GameSession.objects.count()
    upload = io.BytesIO(body)
    upload.name = "table.json"
    r = client.post(reverse("scorer:import"), {"file": upload}, follow=True)
    assert r.status_code == 200
    assert "不是导出的牌桌" in r.content.decode()
    assert GameSession.objects.count() == before
