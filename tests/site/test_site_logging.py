"""Server errors leave a trace with DEBUG off: their traceback on stderr, and a mail
to ADMINS when DJANGO_ADMINS names any.

Each case runs in a subprocess: the settings (and the logging they configure) are
read once per process, from the environment.
"""

from __future__ import annotations

import json
import secrets

from tests.support.cli import clean_env, run_python

# A 500 from inside the API (the engine made to raise), with DEBUG off as in production.
RAISE_500 = """
import json, django
django.setup()
from django.conf import settings
from django.core import mail
from django.test import Client
import scorer.views.api as api
def boom(situation):
    raise RuntimeError("engine exploded on purpose")
api.score_situation = boom
settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
r = Client(raise_request_exception=False).post(
    "/api/score", json.dumps({"ruleset": "mcr"}), content_type="application/json")
print(json.dumps({"status": r.status_code, "debug": settings.DEBUG,
                  "admins": settings.ADMINS,
                  "mails": [m.subject for m in getattr(mail, "outbox", [])],
                  "to": [m.to for m in getattr(mail, "outbox", [])]}))
"""


def run_500(code: str = RAISE_500, **extra: str) -> tuple[dict[str, object], str]:
    env = clean_env(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_STATIC_MANIFEST="0",
        **extra,
    )
    result = run_python(["-c", code], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def test_a_server_error_goes_to_stderr_with_its_traceback() -> None:
    out, stderr = run_500()
    assert out["status"] == 500 and out["debug"] is False
    assert "ERROR django.request" in stderr and "Internal Server Error: /api/score" in stderr
    assert "Traceback (most recent call last)" in stderr
    assert "RuntimeError: engine exploded on purpose" in stderr
    assert out["admins"] == [] and out["mails"] == []


def test_a_server_error_is_mailed_to_the_admins_when_configured() -> None:
    out, stderr = run_500(DJANGO_ADMINS="Ops <ops@example.org>, dev@example.org")
    assert out["admins"] == [["Ops", "ops@example.org"], ["dev@example.org", "dev@example.org"]]
    assert len(out["mails"]) == 1 and "Internal Server Error: /api/score" in out["mails"][0]
    assert out["to"] == [["ops@example.org", "dev@example.org"]]
    assert "RuntimeError: engine exploded on purpose" in stderr  # and still on stderr


def test_a_bad_request_is_a_warning_line_without_a_traceback() -> None:
    """4xx answers are the client's problem: one line, no traceback, no mail."""
    code = RAISE_500.replace("api.score_situation = boom", "").replace(
        '{"ruleset": "mcr"}', '{"id": float("nan")}'
    )
    out, stderr = run_500(code, DJANGO_ADMINS="ops@example.org")
    assert out["status"] == 400 and out["mails"] == []
    assert "WARNING django.request" in stderr and "Traceback" not in stderr
