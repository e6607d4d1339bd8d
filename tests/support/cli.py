"""Running a command of the project in a fresh Python process, with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The rule engine's command line (python -m rules), `stdin` its input."""
    return run_python(["-m", "rules", *args], stdin=stdin, timeout=60)


def clean_env(**extra: str) -> dict[str, str]:
    """The current environment without any DJANGO_* variable, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "mahjong_site.settings"
    env.update(extra)
    return env


def run_python(
    args: list[str],
    env: dict[str, str] | None = None,
    *,
    stdin: str | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """This Python on `args` from the project's root (`env`: its environment; None:
    this one's); what it printed, whatever its exit code."""
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
