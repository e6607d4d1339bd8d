"""Settings for the mahjong scorer site.

Everything that differs between a laptop, the test suite and a real deployment
comes from environment variables (see README.md, "Environment variables"):

* ``DJANGO_DEBUG``          -- "1" turns DEBUG on. Default: off. ``make run`` sets it.
* ``DJANGO_SECRET_KEY``     -- required when DEBUG is off, and as strong as Django's
  own check asks (security.W009: 50+ characters, 5+ different ones).
* ``DJANGO_ALLOWED_HOSTS``  -- comma-separated; default "localhost,127.0.0.1,[::1]".
* ``DATABASE_URL``          -- default ``sqlite:///<project>/db.sqlite3``.
* ``DJANGO_HTTPS``          -- "1" when served over HTTPS: secure cookies, HSTS, redirect.
* ``DJANGO_CSRF_TRUSTED_ORIGINS`` -- comma-separated origins, e.g. "https://mj.example.org".
* ``DJANGO_STATIC_MANIFEST`` -- "1"/"0": hashed, compressed static files (needs
  ``collectstatic``). Default: on when DEBUG is off.
* ``DJANGO_ALLOW_INSECURE_KEY`` -- "1" lets DEBUG-off runs use the development key.
* ``DJANGO_ADMINS``         -- comma-separated "Name <address>" (or bare addresses):
  server errors are mailed to them, besides going to stderr (see LOGGING below);
  ``DJANGO_SERVER_EMAIL``, ``DJANGO_EMAIL_HOST``, ``DJANGO_EMAIL_PORT``,
  ``DJANGO_EMAIL_HOST_USER``, ``DJANGO_EMAIL_HOST_PASSWORD``, ``DJANGO_EMAIL_USE_TLS``
  say how.  ``DJANGO_LOG_LEVEL``: the level of Django's own logger (default INFO).
* ``MAHJONG_LIVE_BROKER``   -- how a table's change reaches its phones' streams:
  "memory" (one process: runserver, one worker), "postgres" (LISTEN/NOTIFY, across
  workers) or "redis" (pub/sub at ``MAHJONG_REDIS_URL``, default
  redis://127.0.0.1:6379/0: each worker hears of its own tables only).  Default: "postgres" on PostgreSQL, else "memory"; anything else, or
  "postgres" on SQLite, refuses to start (scorer/live/broker.py, docs/deploy.md).
* ``MAHJONG_LIVE_STREAM_SECONDS`` -- how long one event stream stays open before the
  server ends it and the phone reconnects (default 1800; 0: say what is new and end,
  as the test suite does).
* ``MAHJONG_DB_POOL``       -- under the ASGI server on PostgreSQL: the connection
  pool's size per worker process (default 10).
* ``MAHJONG_DB_PGBOUNCER``   -- "1" behind PgBouncer in transaction mode: no
  server-side cursors, no prepared statements; ``MAHJONG_LIVE_DATABASE_URL``: the
  broker's LISTEN connection to PostgreSQL itself (default: DATABASE_URL's).
* ``MAHJONG_LIVE_MAX_STREAMS`` -- the streams one worker process holds (default
  4000); one more is refused and its page polls.
* ``MAHJONG_METRICS_TOKEN``  -- the bearer token /metrics asks of anyone but the
  loopback (unset: the loopback only).
* ``MAHJONG_LISTEN``        -- where ``make run`` serves (its ADDR); on all interfaces
  the machine's LAN address is allowed and share links name it.
* ``MAHJONG_PUBLIC_URL``    -- the address share links use, e.g. "https://mj.example.org"
  (behind a proxy that hides it); default: the address the page was opened at, or
  the LAN address when opened on the loopback of a server on all interfaces
  (scorer/web/share.py).
"""

from __future__ import annotations

import os
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from scorer.web import lan

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable into a list without blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --------------------------------------------------------------------------- core

# Off unless explicitly asked for: a forgotten variable must never expose
# debug pages. `make run` sets DJANGO_DEBUG=1 for local development.
DEBUG = env_flag("DJANGO_DEBUG", default=False)

INSECURE_DEV_SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip() or INSECURE_DEV_SECRET_KEY

if (
    not DEBUG
    and SECRET_KEY == INSECURE_DEV_SECRET_KEY
    and not env_flag("DJANGO_ALLOW_INSECURE_KEY")
):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set (or is the built-in development key) while DEBUG is off. "
        "Set DJANGO_SECRET_KEY to a long random value for production, e.g. "
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`, '
        "or set DJANGO_DEBUG=1 for local development."
    )


def weak_key_reason(key: str) -> str | None:
    """Why `key` fails Django's own check of a production key (security.W009), or None.

    `check --deploy` only warns, and only when someone runs it; a 3-character key
    would sign every session and CSRF token meanwhile.  The limits are Django's."""
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"it has {len(key)} characters, fewer than {SECRET_KEY_MIN_LENGTH}"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return f"it has fewer than {SECRET_KEY_MIN_UNIQUE_CHARACTERS} different characters"
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"it starts with '{SECRET_KEY_INSECURE_PREFIX}'"
    return None


# DJANGO_ALLOW_INSECURE_KEY lets the development key through (the test suite, mypy),
# never a weak key of one's own: that one is meant for production.
if not DEBUG and SECRET_KEY != INSECURE_DEV_SECRET_KEY and (why := weak_key_reason(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY is too weak for production: {why} (Django's check security.W009 "
        f"asks for at least {SECRET_KEY_MIN_LENGTH} characters, "
        f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different, not starting with "
        f"'{SECRET_KEY_INSECURE_PREFIX}'). Generate one with "
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`.'
    )

# Django's test setup adds "testserver" itself; DEBUG also allows localhost.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
# `make run ADDR=0.0.0.0:8000` serves the other phones at the table: they come in
# by this machine's LAN address (scorer/web/lan.py), which must then be allowed.
if lan.listens_everywhere() and (LAN_ADDRESS := lan.lan_address()):
    ALLOWED_HOSTS.append(LAN_ADDRESS)
PUBLIC_URL = os.environ.get("MAHJONG_PUBLIC_URL", "").rstrip("/")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Room admins edit the room's configurations (房间规则) here: /admin/.
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so `runserver` also serves static files through WhiteNoise.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # SimpleAppConfig: the partials loader is configured explicitly in TEMPLATES
    # below instead of the default app config rewriting TEMPLATES at start-up.
    "template_partials.apps.SimpleAppConfig",
    # Who changed a room configuration, and when (django-simple-history).
    "simple_history",
    # Failed sign-ins are throttled (django-axes).
    "axes",
    "scorer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Answers compressed (Django's own, with its BREACH mitigation; whitenoise
    # serves static files pre-compressed): a chess room's Wi-Fi is the limit.
    # (Not the tables' event streams: compressed, they would be held back in the buffer.)
    "scorer.live.streams.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's, whose session save after the view answers a lock timeout with
    # "try again" (503) too, not a 500 or a 400 (scorer/web/middleware.py).
    "scorer.web.middleware.SessionMiddleware",
    # What a cache may keep of each answer, by its route (scorer/web/caching.py): outside
    # the rest, so that their redirects and refusals are covered too.
    "scorer.web.caching.CacheMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # An admin's sign-in on a phone: signed out after 14 days unused (the phone's
    # tables kept).
    "scorer.web.signin.AdminSessionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # A change that waited too long for the database's lock: "try again" (503), not a 500.
    "scorer.web.middleware.BusyMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a sign-in while its username and address are locked out.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Five wrong passwords for one username from one address lock it for an hour.
AXES_FAILURE_LIMIT = int(os.environ.get("MAHJONG_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Behind a reverse proxy the client's address is in X-Forwarded-For (docs/deploy.md).
if env_flag("DJANGO_BEHIND_PROXY"):
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]

# Content-Security-Policy (django-csp): scripts and styles only from this site,
# never inline; the browser tests fail on any violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "mahjong_site.urls"
# runserver: Django's own (a thread per stream); gunicorn and other WSGI servers load
# mahjong_site.wsgi.application, which answers the streams "poll instead".
WSGI_APPLICATION = "mahjong_site.wsgi.django_application"
ASGI_APPLICATION = "mahjong_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.static",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorer.views.appearance.large_text",
            ],
            # django-template-partials: "page.html#partial-name" loading, wrapped
            # around Django's cached loader (what its default app config would do).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

# --------------------------------------------------------------------------- database

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
# Under the ASGI server (mahjong_site/asgi.py sets MAHJONG_SERVER=asgi) Django runs
# each request's database work in a worker thread that may be a different one every
# time, so a connection kept per thread (CONN_MAX_AGE) would pile up one per thread:
# there, on PostgreSQL, connections come from a pool of MAHJONG_DB_POOL (default 10)
# per worker process instead, and go back to it when the request ends.
if (
    os.environ.get("MAHJONG_SERVER") == "asgi"
    and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("MAHJONG_DB_POOL", "10")),
        "timeout": 20,
    }
# Behind PgBouncer in transaction mode (docs/deploy.md, section 7): a transaction may
# run on another server connection than the last, so no server-side cursor (they live
# across transactions) and no prepared statement (psycopg prepares a query run 5
# times on its connection); the app's own pool then stays small.  The broker's
# LISTEN needs a session of its own: it goes to MAHJONG_LIVE_DATABASE_URL, PostgreSQL
# itself, bypassing the pooler.
DB_PGBOUNCER = os.environ.get("MAHJONG_DB_PGBOUNCER", "") == "1"
if DB_PGBOUNCER and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
LIVE_DATABASE_URL = os.environ.get("MAHJONG_LIVE_DATABASE_URL", "").strip()
METRICS_TOKEN = os.environ.get("MAHJONG_METRICS_TOKEN", "").strip()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves every phone at a table (and several tables) at
    # once (docs/deploy.md has the figures, benchmarks/concurrency.py measures them):
    # * IMMEDIATE: a transaction takes the write lock when it begins.  SQLite's
    #   default (DEFERRED) starts as a reader and fails at once with "database is
    #   locked" when two of them then both want to write; IMMEDIATE ones queue.
    # * timeout: how long one waits in that queue (seconds) before giving up; a
    #   change takes milliseconds, so 20 s is only ever reached by a stuck writer,
    #   and then the phone is told to try again (scorer/web/middleware.py), never a 500.
    # * WAL: readers (the pages every phone polls) never wait for the writer, nor
    #   it for them; synchronous=NORMAL is safe with WAL (a power cut may lose the
    #   last commits, never corrupt the file) and saves an fsync per change.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --------------------------------------------------------------------------- live tables

# A table's phones and its room's admin pages hear of a change through a stream
# (scorer/services/live.py) fed by a broker (scorer/live/broker.py): in this process only
# ("memory", the embedded default) or across worker processes ("postgres").
_ON_POSTGRES = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
LIVE_BROKER = os.environ.get("MAHJONG_LIVE_BROKER", "").strip() or (
    "postgres" if _ON_POSTGRES else "memory"
)
if LIVE_BROKER not in ("memory", "postgres", "redis"):
    raise ImproperlyConfigured(
        f'MAHJONG_LIVE_BROKER must be "memory", "postgres" or "redis", not {LIVE_BROKER!r}'
    )
LIVE_REDIS_URL = os.environ.get("MAHJONG_REDIS_URL", "redis://127.0.0.1:6379/0")
if LIVE_BROKER == "postgres" and not _ON_POSTGRES:
    raise ImproperlyConfigured('MAHJONG_LIVE_BROKER "postgres" needs DATABASE_URL on PostgreSQL')
# A heartbeat every 20 s (a phone that hears none for 45 s polls instead); a stream
# ends after LIVE_STREAM_SECONDS and the phone reconnects after a random 2-10 s.
LIVE_HEARTBEAT = float(os.environ.get("MAHJONG_LIVE_HEARTBEAT", "20"))
LIVE_STREAM_SECONDS = float(os.environ.get("MAHJONG_LIVE_STREAM_SECONDS", "1800"))
LIVE_RETRY_MS = (2000, 10000)
# The streams one worker process holds at most; one more is refused (503) and its
# page polls until a later try finds room (docs/deploy.md, section 7).
LIVE_MAX_STREAMS = int(os.environ.get("MAHJONG_LIVE_MAX_STREAMS", "4000"))
# A broker's listener that fails is made again after 0.5 s, doubling up to this (s).
LIVE_BROKER_BACKOFF_MAX = float(os.environ.get("MAHJONG_LIVE_BROKER_BACKOFF_MAX", "10"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --------------------------------------------------------------------------- i18n

# Chinese first. Template msgids are English; the Chinese text lives in
# locale/zh_Hans/LC_MESSAGES/django.po, with the compiled django.mo committed.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [
    ("zh-hans", _("Simplified Chinese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

# --------------------------------------------------------------------------- static files

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Hashed + compressed files need `manage.py collectstatic` first, so they are used
# only when DEBUG is off (deployments); development and the test suite (which sets
# DJANGO_STATIC_MANIFEST=0) use the plain storage and serve from the finders.
STATIC_MANIFEST = env_flag("DJANGO_STATIC_MANIFEST", default=not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Without a manifest nothing has been collected into STATIC_ROOT: WhiteNoise
# serves straight from the finders (static/ and the apps' static dirs) and
# re-scans them per request, as in development.
WHITENOISE_USE_FINDERS = DEBUG or not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = WHITENOISE_USE_FINDERS

# --------------------------------------------------------------------------- security

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# A phone's session is its memory of the tables it has opened and who it is at
# each (scorer/services/phone.py): kept for half a year, not Django's two weeks.  An admin
# signed in on the phone is signed out after 14 days without use, the phone's
# tables kept (scorer/web/signin.py).
SESSION_COOKIE_AGE = 180 * 24 * 3600

# HTTPS-only hardening is behind its own flag rather than tied to DEBUG: the app
# is often run on a LAN at a mahjong table over plain http://192.168.x.y:8000,
# where secure-only cookies would silently break the CSRF cookie and sessions.
# Set DJANGO_HTTPS=1 when the site is served over HTTPS.
if env_flag("DJANGO_HTTPS"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Joining the browsers' HSTS preload list is a hard-to-undo decision for the
    # whole domain, so it is not made here (hence check security.W021 is silenced).
    SECURE_HSTS_PRELOAD = False
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it
    # from clients), set DJANGO_BEHIND_PROXY=1.
    if env_flag("DJANGO_BEHIND_PROXY"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --------------------------------------------------------------------------- logging

# Django's default logging writes to the console only when DEBUG is on and mails
# server errors to ADMINS when it is off: with no ADMINS a 500 in production left
# no trace at all.  Here everything of level WARNING and up (Django's own logger
# from DJANGO_LOG_LEVEL) goes to stderr, which gunicorn and systemd keep, server
# errors with their traceback (django.request logs them with exc_info); and to
# ADMINS by mail as well when there are any.
ADMINS = [
    (name or address, address)
    for name, address in map(parseaddr, env_list("DJANGO_ADMINS"))
    if "@" in address
]
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "root@localhost")
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("DJANGO_EMAIL_USE_TLS")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} [pid {process}] {message}", "style": "{"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},  # stderr by default
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],  # (as Django's default: no mail while developing)
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {
            "handlers": ["stderr", "mail_admins"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO").upper(),
            "propagate": False,
        },
    },
}

# --------------------------------------------------------------------------- accounts

# Room owners and admins sign in on the app's own pages (scorer/views/accounts.py);
# Django's admin (/admin/) stays for the site's staff.  After signing in: the
# user's room, or the list of their rooms.
LOGIN_URL = "scorer:login"
LOGIN_REDIRECT_URL = "scorer:my_rooms"
LOGOUT_REDIRECT_URL = "scorer:login"
# django-axes answers a locked-out sign-in with this page (in the reader's language).
AXES_LOCKOUT_TEMPLATE = "accounts/locked.html"
