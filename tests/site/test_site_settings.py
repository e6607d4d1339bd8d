"""The settings refuse an unsafe production configuration and accept a safe one.

Each case runs in a subprocess because the settings module is evaluated once
per process, from the environment.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
from django.conf import settings

from tests.support.cli import clean_env, run_python

BASE_DIR = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, "
    "'secure_cookie': s.SESSION_COOKIE_SECURE, "
    "'static': s.STORAGES['staticfiles']['BACKEND']}))"
)


def real_key() -> str:
    return secrets.token_urlsafe(50)


def test_refuses_missing_secret_key_when_debug_is_off() -> None:
    result = run_python(["-c", PRINT_SETTINGS], clean_env())
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_refuses_the_development_key_when_debug_is_off() -> None:
    env = clean_env(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=settings.INSECURE_DEV_SECRET_KEY)
    result = run_python(["-c", PRINT_SETTINGS], env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_starts_with_a_real_key() -> None:
    result = run_python(["-c", PRINT_SETTINGS], clean_env(DJANGO_SECRET_KEY=real_key()))
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["debug"] is False
    assert values["hosts"] == ["localhost", "127.0.0.1", "[::1]"]
    # Production default: hashed, compressed static files (after collectstatic).
    assert values["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    # Plain-http LAN use keeps working unless DJANGO_HTTPS=1.
    assert values["secure_cookie"] is False


def test_debug_mode_needs_no_key() -> None:
    result = run_python(["-c", PRINT_SETTINGS], clean_env(DJANGO_DEBUG="1"))
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["debug"] is True
    assert values["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_allowed_hosts_from_environment() -> None:
    env = clean_env(
        DJANGO_SECRET_KEY=real_key(),
        DJANGO_ALLOWED_HOSTS=" mj.example.org, 192.168.1.20 ,,",
        DJANGO_HTTPS="1",
    )
    result = run_python(["-c", PRINT_SETTINGS], env)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["hosts"] == ["mj.example.org", "192.168.1.20"]
    assert values["secure_cookie"] is True


def test_deploy_check_is_clean_over_https() -> None:
    env = clean_env(DJANGO_SECRET_KEY=real_key(), DJANGO_HTTPS="1")
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_test_suite_runs_like_production() -> None:
    # pytest-django forces DEBUG off; the suite is allowed only the dev key.
    assert settings.DEBUG is False
    assert settings.LANGUAGE_CODE == "zh-hans"
    assert [code for code, _name in settings.LANGUAGES] == ["zh-hans", "en"]
    assert settings.TIME_ZONE == "Asia/Shanghai"
    assert settings.USE_TZ is True


@pytest.mark.parametrize("app", ["django_htmx", "template_partials", "scorer"])
def test_apps_installed(app: str) -> None:
    from django.apps import apps

    assert apps.is_installed(app)


@pytest.mark.parametrize("listen", ["0.0.0.0:8000", "127.0.0.1:8000"])
def test_make_run_on_all_interfaces_allows_the_lan_address(listen: str) -> None:
    """`make run ADDR=0.0.0.0:8000`: the other phones come in by this machine's LAN address."""
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "from scorer.web import lan; "
        "print(json.dumps({'hosts': s.ALLOWED_HOSTS, 'lan': lan.lan_address()}))"
    )
    result = run_python(["-c", code], clean_env(DJANGO_DEBUG="1", MAHJONG_LISTEN=listen))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    if out["lan"] is None:
        pytest.skip("this machine has no network address")
    assert (out["lan"] in out["hosts"]) == listen.startswith("0.0.0.0")


def test_the_deploy_configuration_passes_check_deploy() -> None:
    """docs/deploy.md's environment: `manage.py check --deploy` has nothing to say."""
    env = clean_env(
        DJANGO_SECRET_KEY=real_key(),
        DJANGO_ALLOWED_HOSTS="mj.example.org",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://mj.example.org",
        DJANGO_HTTPS="1",
        DJANGO_BEHIND_PROXY="1",
        MAHJONG_PUBLIC_URL="https://mj.example.org",
    )
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_sqlite_default_queues_writers(tmp_path: Path) -> None:
    """The embedded default's connection (docs/deploy.md, "SQLite or PostgreSQL"):
    WAL journal, synchronous=NORMAL, a busy timeout, IMMEDIATE transactions."""
    script = (
        "import json, django; django.setup(); from django.db import connection, transaction;"
        "c = connection.cursor();"
        "mode = c.execute('PRAGMA journal_mode').fetchone()[0];"
        "sync = c.execute('PRAGMA synchronous').fetchone()[0];"
        "busy = c.execute('PRAGMA busy_timeout').fetchone()[0];"
        "print(json.dumps([mode, sync, busy, connection.transaction_mode]))"
    )
    env = clean_env(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = run_python(["-c", script], env)
    assert result.returncode == 0, result.stderr
    # NORMAL is 1; the busy timeout is in ms.
    assert json.loads(result.stdout) == ["wal", 1, 20000, "IMMEDIATE"]


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("abc", "it has 3 characters, fewer than 50"),
        ("x" * 49, "it has 49 characters"),
        ("ab" * 40, "fewer than 5 different characters"),
        ("django-insecure-" + secrets.token_urlsafe(50), "it starts with 'django-insecure-'"),
    ],
    ids=["3-characters", "49-characters", "4-different", "django-insecure"],  # not the keys
)
def test_refuses_a_production_key_weaker_than_djangos_check(key: str, why: str) -> None:
    """A weak DJANGO_SECRET_KEY (3 characters, say) is refused in production mode; the
    limits are those of Django's security.W009, so `check --deploy` agrees."""
    result = run_python(["-c", PRINT_SETTINGS], clean_env(DJANGO_SECRET_KEY=key))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is too weak for production" in result.stderr
    assert why in result.stderr
    # DJANGO_ALLOW_INSECURE_KEY is for the development key only, never a weak key of one's own.
    env = clean_env(DJANGO_SECRET_KEY=key, DJANGO_ALLOW_INSECURE_KEY="1")
    assert run_python(["-c", PRINT_SETTINGS], env).returncode != 0


def test_a_key_just_strong_enough_passes_the_settings_and_check_deploy() -> None:
    key = "abcde" * 10  # 50 characters, 5 different: Django's minimum, exactly
    env = clean_env(DJANGO_SECRET_KEY=key, DJANGO_HTTPS="1")
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_mode_takes_any_key() -> None:
    result = run_python(
        ["-c", PRINT_SETTINGS], clean_env(DJANGO_DEBUG="1", DJANGO_SECRET_KEY="abc")
    )
    assert result.returncode == 0, result.stderr


def test_behind_pgbouncer_no_server_side_cursors_no_prepared_statements() -> None:
    """MAHJONG_DB_PGBOUNCER=1 (transaction pooling): what the database needs; the
    broker's LISTEN goes to MAHJONG_LIVE_DATABASE_URL, past the pooler."""
    script = (
        "import json, django; django.setup(); from django.conf import settings;"
        "from scorer.live.broker import django_conninfo; d = settings.DATABASES['default'];"
        "print(json.dumps([d.get('DISABLE_SERVER_SIDE_CURSORS', False),"
        " 'prepare_threshold' in d.get('OPTIONS', {}),"
        " d.get('OPTIONS', {}).get('prepare_threshold'), django_conninfo()]))"
    )
    env = clean_env(
        DJANGO_ALLOW_INSECURE_KEY="1",
        DATABASE_URL="postgres://app@127.0.0.1:6432/mahjong",
        MAHJONG_DB_PGBOUNCER="1",
        MAHJONG_LIVE_DATABASE_URL="postgres://app@127.0.0.1:5432/mahjong",
    )
    result = run_python(["-c", script], env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        True,
        True,
        None,
        "postgresql://app@127.0.0.1:5432/mahjong",
    ]
    without = clean_env(
        DJANGO_ALLOW_INSECURE_KEY="1", DATABASE_URL="postgres://app@127.0.0.1:5432/m"
    )
    result = run_python(["-c", script], without)
    assert result.returncode == 0, result.stderr
    cursors, prepared, _, conninfo = json.loads(result.stdout)
    assert not cursors and not prepared and "port=5432" in conninfo
