"""A development server started for a benchmark: on a free port, answered once
/healthz answers.  The whole-process benchmarks (concurrency, taps) measure the app
as a phone meets it, through a real server, each on its own database."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def runserver(cwd: Path, env: dict[str, str], name: str) -> tuple[subprocess.Popen[bytes], str]:
    """`manage.py runserver` in `cwd` with `env`, and its base URL once it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5):
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"{name}: the server did not start")


def stop_server(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None:
        proc.terminate()
        proc.wait(timeout=10)
