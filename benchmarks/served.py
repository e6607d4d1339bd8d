"""A server started for a benchmark (the development server, or uvicorn or gunicorn
as docs/deploy.md runs them): on a free port, answered once /healthz answers.  The whole-process benchmarks (concurrency, taps) measure the app
as a phone meets it, through a real server, each on its own database."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

# The servers a benchmark can measure on; each figure it prints names its server.
SERVERS = {
    # The embedded default (`make run`): one process, a thread per connection.
    "runserver": ["manage.py", "runserver", "127.0.0.1:{port}", "--noreload"],
    # As deployed (docs/deploy.md): two workers, the live streams on the event loop.
    "uvicorn": ["-m", "uvicorn", "mahjong_site.asgi:application", "--host", "127.0.0.1",
                "--port", "{port}", "--workers", "2", "--log-level", "warning"],
    # gunicorn's default sync workers, two: one request at a time each.
    "gunicorn": ["-m", "gunicorn", "mahjong_site.wsgi", "--bind", "127.0.0.1:{port}",
                 "--workers", "2", "--log-level", "warning"],
}  # fmt: skip


def runserver(
    cwd: Path, env: dict[str, str], name: str, server: str = "runserver"
) -> tuple[subprocess.Popen[bytes], str]:
    """`server` (SERVERS: runserver by default) in `cwd` with `env`, and its base URL
    once it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, *(a.format(port=port) for a in SERVERS[server])]
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
