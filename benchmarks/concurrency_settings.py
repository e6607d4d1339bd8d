"""Settings for benchmarks/concurrency.py's servers: the site's own, with the SQLite
connection set as BENCH_SQLITE says, to compare the site's set-up with SQLite's defaults.

* ``ours``      -- the site's settings unchanged (IMMEDIATE, 20 s timeout, WAL, NORMAL)
* ``immediate`` -- IMMEDIATE and the 20 s timeout, SQLite's default rollback journal
* ``default``   -- Django's and SQLite's defaults (DEFERRED, 5 s timeout, rollback journal)
"""

from __future__ import annotations

import os

from mahjong_site.settings import *  # noqa: F403
from mahjong_site.settings import DATABASES

_variant = os.environ.get("BENCH_SQLITE", "ours")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and _variant != "ours":
    if _variant == "immediate":
        DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    else:
        DATABASES["default"]["OPTIONS"] = {}
