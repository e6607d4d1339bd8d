"""Set-up commands, database and committed translations."""

from __future__ import annotations

import gettext
import os
import re
from ast import literal_eval
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.django_db
def test_load_presets_creates_one_configuration_per_preset_once() -> None:
    """One room configuration per preset of every table ruleset, never overwriting an
    admin's edits; run twice, nothing more is created."""
    from rules import REGISTRY
    from scorer.models import RoomConfig

    out = StringIO()
    call_command("load_presets", stdout=out)
    presets = {
        (rs.id, p.id): p.params for rs in REGISTRY.values() if rs.table_play for p in rs.presets
    }
    # A ruleset whose defaults no preset plays is offered at its defaults too (preset "").
    for rs in REGISTRY.values():
        if rs.table_play and all(
            dict(rs.resolve_params(p.params)) != dict(rs.resolve_params({})) for p in rs.presets
        ):
            presets[(rs.id, "")] = {}
    assert len(presets) >= 3 and "Room configurations:" in out.getvalue()
    configs = {(c.ruleset, c.preset): c for c in RoomConfig.objects.all()}
    assert configs.keys() == presets.keys()
    for key, c in configs.items():
        rs = REGISTRY[key[0]]
        assert c.params == dict(rs.resolve_params(presets[key])) and c.enabled
    # An admin edits one; the next set-up keeps the edit and creates nothing.
    edited = next(iter(configs.values()))
    edited.name = "我们的规则"
    edited.save()
    out = StringIO()
    call_command("load_presets", stdout=out)
    assert "0 created" in out.getvalue() and RoomConfig.objects.count() == len(presets)
    edited.refresh_from_db()
    assert edited.name == "我们的规则"


@pytest.mark.django_db
def test_database_matches_database_url() -> None:
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else None
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    if expected:
        assert connection.vendor == expected
    else:
        assert connection.vendor == "sqlite"


@pytest.mark.django_db
def test_no_missing_migrations() -> None:
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())


def test_system_checks_pass() -> None:
    call_command("check", stdout=StringIO())


def _po_entries(path: Path) -> dict[tuple[str | None, str], str]:
    """Minimal .po reader: (msgctxt, msgid) -> msgstr (no plurals needed yet)."""
    entries: dict[tuple[str | None, str], str] = {}
    key: str | None = None
    current: dict[str, str] = {}

    def flush() -> None:
        if "msgstr" in current:
            entries[(current.get("msgctxt"), current["msgid"])] = current["msgstr"]

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        match = re.match(r'^(msgctxt|msgid|msgstr) "(.*)"$', line)
        if match:
            if match.group(1) in ("msgctxt", "msgid") and "msgstr" in current:
                flush()
                current = {}
            key = match.group(1)
            current[key] = match.group(2)
        elif line.startswith('"') and key:
            current[key] += line[1:-1]
    flush()
    entries.pop((None, ""), None)
    # .po strings use C escapes, which Python string literals share.
    return {
        (None if c is None else literal_eval(f'"{c}"'), literal_eval(f'"{k}"')): literal_eval(
            f'"{v}"'
        )
        for (c, k), v in entries.items()
    }


def test_compiled_translations_are_up_to_date() -> None:
    po = LOCALE_DIR / "zh_Hans" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    entries = _po_entries(po)
    assert entries, "the .po file has translations"
    with mo.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    for (ctxt, msgid), msgstr in entries.items():
        assert msgstr, f"untranslated: {msgid!r}"
        got = catalog.gettext(msgid) if ctxt is None else catalog.pgettext(ctxt, msgid)
        assert got == msgstr, f"{mo} is stale; run `make messages`"


def test_chinese_catalog_has_one_plural_form() -> None:
    """Chinese has one plural form; without the header every plural falls back to English."""
    mo = LOCALE_DIR / "zh_Hans" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    assert catalog.ngettext("%(n)s fan", "%(n)s fans", 2) == "%(n)s 番"
