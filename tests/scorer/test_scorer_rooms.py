"""Room configurations (房间规则): checked on every save, edited by staff in
the admin (a form built from the parameter declarations), offered first on the start
page, snapshotted by the tables started from them, every change kept with who and
when; failed sign-ins throttled."""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from rules import get_ruleset
from scorer.models import GameSession, RoomConfig
from tests.factories import NAMES, PASSWORD, by_tiles, record
from tests.pages import html
from tests.support.start import param_fields

pytestmark = pytest.mark.django_db


def mcr_config(**params: object) -> RoomConfig:
    return RoomConfig.objects.create(ruleset="mcr", name="周三比赛", params=dict(params))


@pytest.fixture
def staff() -> Client:
    User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    client = Client()
    response = client.post(reverse("admin:login"), {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302
    return client


# ------------------------------------------------------------------ values checked on every save


def test_a_configuration_keeps_every_value_resolved() -> None:
    config = mcr_config(base=20)
    assert config.params == {**get_ruleset("mcr").defaults, "base": 20}


@pytest.mark.parametrize(
    ("params", "field"),
    [({"base": -1}, "base"), ({"min_fans": "eight"}, "min_fans"), ({"no_such": 1}, "no_such")],
)
def test_an_invalid_value_is_never_saved(params: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as e:
        mcr_config(**params)
    assert field in str(e.value)
    assert not RoomConfig.objects.filter(name="周三比赛").exists()


def test_a_fixture_with_an_invalid_value_is_refused(tmp_path: Path) -> None:
    """loaddata saves raw, past clean(): the model's pre_save check still refuses it."""
    fixture = tmp_path / "rooms.json"
    row = {"model": "scorer.roomconfig", "pk": 90,
           "fields": {"ruleset": "mcr", "name": "坏的", "params": {"base": -5}}}  # fmt: skip
    fixture.write_text(json.dumps([row]))
    with pytest.raises(Exception, match="base"):
        call_command("loaddata", str(fixture), verbosity=0)
    assert not RoomConfig.objects.filter(pk=90).exists()
    row["fields"]["params"] = {"base": 5}  # type: ignore[index]
    fixture.write_text(json.dumps([row]))
    call_command("loaddata", str(fixture), verbosity=0)
    assert RoomConfig.objects.get(pk=90).params["base"] == 5


# ------------------------------------------------------------------ the admin


def test_admin_pages_are_staff_only() -> None:
    client = Client()
    url = reverse("admin:scorer_roomconfig_changelist")
    assert client.get(url).status_code == 302  # to the sign-in page
    User.objects.create_user("player", password=PASSWORD)
    client.post(reverse("admin:login"), {"username": "player", "password": PASSWORD})
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]


def test_staff_edit_a_configuration_with_inline_validation(staff: Client) -> None:
    config = mcr_config()
    url = reverse("admin:scorer_roomconfig_change", args=[config.pk])
    page = html(staff.get(url))
    rs = get_ruleset("mcr")
    for p in rs.params:  # every declared parameter has its field, labelled in Chinese
        assert f'name="param_{p.name}"' in page and p.label_zh in htmllib.unescape(page)
    data = {"name": config.name, "enabled": "on", "order": "5", "param_base": "-3",
            "param_min_fans": "8", "param_flower_points": "1", "param_dealer_repeat": "never",
            "param_mixed_kong_fan": "on", "param_knitted_wait_fans": "on"}  # fmt: skip
    response = staff.post(url, data)
    assert response.status_code == 200  # shown again, with the error on the field
    errors = re.search(r'class="[^"]*field-param_base[^"]*".*?</div>', html(response), re.S)
    assert errors and "errorlist" in errors.group(0)
    config.refresh_from_db()
    assert config.params["base"] == rs.defaults["base"]  # nothing saved
    response = staff.post(url, {**data, "param_base": "16"})
    assert response.status_code == 302
    config.refresh_from_db()
    assert config.params["base"] == 16 and config.order == 5
    # Who changed it and when: the history, shown in the admin.
    last = config.history.first()
    assert last is not None and last.history_user.username == "boss"
    history = staff.get(reverse("admin:scorer_roomconfig_history", args=[config.pk]))
    assert history.status_code == 200 and "boss" in html(history)


def test_staff_add_a_configuration_ruleset_first(staff: Client) -> None:
    add = reverse("admin:scorer_roomconfig_add")
    page = html(staff.get(add))
    assert "?ruleset=sichuan" in page and "?ruleset=mcr" in page
    page = html(staff.get(add, {"ruleset": "sichuan"}))
    assert 'name="param_fan_table"' in page and 'name="param_base"' in page
    rs = get_ruleset("sichuan")
    data = {"name": "成都两块", "ruleset": "sichuan", "enabled": "on", "order": "1"}
    data.update(param_fields(rs, lambda p: rs.defaults[p.name]))
    data["param_base"] = "2"
    response = staff.post(f"{add}?ruleset=sichuan", data)
    assert response.status_code == 302, html(response)[:3000]
    config = RoomConfig.objects.get(name="成都两块")
    assert config.params == {**rs.defaults, "base": 2}


def test_clone_and_disable(staff: Client) -> None:
    config = mcr_config(base=12)
    url = reverse("admin:scorer_roomconfig_changelist")
    staff.post(url, {"action": "clone", "_selected_action": [config.pk]})
    copy = RoomConfig.objects.exclude(pk=config.pk).get(name__startswith=config.name)
    assert copy.params == config.params and not copy.enabled and copy.name.startswith(config.name)
    staff.post(url, {"action": "disable", "_selected_action": [config.pk]})
    config.refresh_from_db()
    assert not config.enabled
    # Configurations are disabled, never deleted.
    assert staff.get(reverse("admin:scorer_roomconfig_delete", args=[config.pk])).status_code == 403


# ------------------------------------------------------------------ tables started from one


def start_from(client: Client, config: RoomConfig) -> GameSession:
    page = html(client.get(reverse("scorer:home")))
    assert f'value="{config.pk}" selected' in page  # offered first
    rs = get_ruleset(config.ruleset)
    data = {"config": str(config.pk), "players": "4",
            "first_dealer": "0", "money_per_point": ""}  # fmt: skip
    data.update({f"name_{i}": n for i, n in enumerate(NAMES)})
    # The fields as the page filled them in from the configuration.
    data.update(param_fields(rs, lambda p: config.params[p.name]))
    response = client.post(reverse("scorer:create"), data)
    assert response.status_code == 302, html(response)[:2000]
    return GameSession.objects.get(code=response["Location"].strip("/").split("/")[-1])


def test_a_table_started_from_a_configuration_keeps_its_values(staff: Client) -> None:
    config = mcr_config(base=20)
    client = Client()
    session = start_from(client, config)
    assert session.params["base"] == 20 and session.preset == f"room:{config.pk}"
    rnd = record(session)
    assert rnd.current is not None
    before = list(rnd.current.deltas)
    # The admin raises the base afterwards.
    config.params = {**config.params, "base": 100}
    config.save()
    session.refresh_from_db()
    assert session.params["base"] == 20
    # A correction and an undo of the old table's round use the values it started with.
    rev = rnd.revise(by_tiles(discarder=2))
    assert list(rev.deltas) == before
    session.undo_last(expected=rnd.number)
    session.restore(rnd.number)
    assert session.tallies() == before
    # A table started now takes the new values.
    assert start_from(Client(), config).params["base"] == 100


def test_a_disabled_configuration_is_not_offered() -> None:
    config = mcr_config(base=20)
    config.enabled = False
    config.save()
    page = html(Client().get(reverse("scorer:home")))
    assert f"room:{config.pk}" not in page


# ------------------------------------------------------------------ failed sign-ins


def test_failed_sign_ins_lock_the_account_out() -> None:
    User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    client = Client()
    login = reverse("admin:login")
    for _ in range(4):
        response = client.post(login, {"username": "boss", "password": "wrong"})
        assert response.status_code == 200  # the form again, "please enter the correct …"
    # The fifth failure locks the account out (django-axes, AXES_FAILURE_LIMIT = 5) …
    assert client.post(login, {"username": "boss", "password": "wrong"}).status_code == 429
    # … and even the right password is refused now.
    response = client.post(login, {"username": "boss", "password": PASSWORD})
    assert response.status_code == 429
    assert client.get(reverse("admin:scorer_roomconfig_changelist")).status_code == 302
    # Another account is not affected.
    User.objects.create_superuser("deputy", "d@example.org", PASSWORD)
    ok = Client().post(login, {"username": "deputy", "password": PASSWORD})
    assert ok.status_code == 302
