"""An imported table is input too: read as strict JSON, so NaN or a lone surrogate
never reaches the database (PostgreSQL's jsonb refuses the surrogate)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scorer.clean.table_schema import problem
from scorer.models import GameSession
from scorer.services.export import import_table, origin_of, table_json
from tests.pages import html
from tests.support.tables import generated_table

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
    assert "不是导出的牌桌" in html(r)
    assert GameSession.objects.count() == before


# Values of the wrong type, each refused by its field's name (never a 500 from a
# TypeError half-way through the import).
BROKEN = [
    (("changes",), 1, "changes"),
    (("changes",), 2.5, "changes"),
    (("changes",), True, "changes"),
    (("rounds", 0, "changes"), 7, "rounds[0].changes"),
    (("rounds", 0, "revisions", 0, "number"), [1], "rounds[0].revisions[0].number"),
    (("rounds", 0, "current"), {}, "rounds[0].current"),
    (("rounds", 0, "number"), 1.0, "rounds[0].number"),
    (("first_dealer",), True, "first_dealer"),
    (("players", 1), "  ", "players[1]"),
    (("rounds", 0, "revisions", 0, "deltas"), None, "rounds[0].revisions[0].deltas"),
]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


@pytest.mark.parametrize(("path", "value", "field"), BROKEN, ids=[b[2] for b in BROKEN])
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_wrong_type_anywhere_is_refused_naming_the_field(
    path: tuple[Any, ...], value: Any, field: str, lang: str
) -> None:
    data = table_json(generated_table(3))
    _set(data, path, value)
    before = GameSession.objects.count()
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=lang)
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "table.json"
    with override_settings(DEBUG=False):
        r = client.post(reverse("scorer:import"), {"file": upload}, follow=True)
    assert r.status_code == 200
    page = html(r)
    assert field in page
    assert ("导出的牌桌格式不符" if lang == "zh-hans" else "does not fit an exported table") in page
    assert GameSession.objects.count() == before


def test_the_schema_names_fields_and_takes_a_real_export() -> None:
    data = table_json(generated_table(3))
    assert problem(data) is None
    assert import_table(data, copy_of=origin_of(data)).tallies() == data["tallies"]
    _set(data, ("rounds", 0, "revisions", 0, "number"), [1])
    en, zh = problem(data) or ("", "")
    assert en == "rounds[0].revisions[0].number must be a whole number"
    assert zh == "rounds[0].revisions[0].number：应为整数"
    del data["rounds"]
    assert problem(data) == ("the file has no 'rounds'", "文件：缺少“rounds”")
