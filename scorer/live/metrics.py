"""What a deployment watches of the live tables, in Prometheus's text format (/metrics).

The streams open and refused, the broker's state (up, down since, reconnects) and
the publish lag (a change's publish to its arrival at this worker's listener).
prometheus-client rather than our own text: under several uvicorn workers each
keeps its figures in files under PROMETHEUS_MULTIPROC_DIR, and one scrape sums them
(its multiprocess mode: streams summed over the live workers, the broker's state
the worst of them); without the variable, a process's own figures.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

STREAMS = Gauge("mahjong_live_streams", "Event streams open", multiprocess_mode="livesum")
REFUSED = Counter("mahjong_live_streams_refused", "Streams refused over the worker's cap")
BROKER_UP = Gauge("mahjong_live_broker_up", "1 while the broker's listener is up (the worst worker)",
                  multiprocess_mode="livemin")  # fmt: skip
DOWN_SINCE = Gauge("mahjong_live_broker_down_since_seconds",
                   "Unix time the listener went down, 0 while up (the longest down)",
                   multiprocess_mode="livemax")  # fmt: skip
RECONNECTS = Counter("mahjong_live_broker_reconnects", "The listener back after a failure")
FAILURES = Counter("mahjong_live_broker_failures", "Listener sessions ended by an error")
LAG = Histogram("mahjong_live_publish_lag_seconds", "A change's publish to its arrival here",
                buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))  # fmt: skip


def forget_dead_workers(folder: str) -> list[int]:
    """Drop the live gauges of workers that are gone: uvicorn has no hook at a
    worker's exit (gunicorn's child_exit), so a restarted worker's streams would
    be counted on.  A worker is gone when its process is (its pid in the file's name)."""
    gone = []
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            gone.append(pid)
        except PermissionError:
            pass  # someone else's process: alive
    for pid in gone:
        mark_process_dead(pid, folder)
    return gone


def text() -> bytes:
    """Every worker's figures (multiprocess mode) or this process's."""
    if folder := os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        forget_dead_workers(folder)
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def allowed(request: HttpRequest) -> bool:
    """The loopback without a proxy in between (the proxy sets X-Forwarded-For), or
    the bearer token MAHJONG_METRICS_TOKEN."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False
