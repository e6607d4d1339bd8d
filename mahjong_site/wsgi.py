"""WSGI entry point: ``gunicorn mahjong_site.wsgi`` or any WSGI server.

Everything is Django's, except the live streams' paths (`/s/<code>/events`,
`/r/<slug>/manage/events`): a WSGI worker serves one request at a time, so an
open stream would hold it until the server's timeout kills it (gunicorn:
`WORKER TIMEOUT` and a traceback, 30 s later) and a room's phones would take every
worker.  Here they are answered at once with "poll instead" (scorer/live/streams.py
`wsgi_poll_instead`), and the page polls its tallies every 3 s.  The streams are
served by the ASGI app (mahjong_site/asgi.py, uvicorn: docs/deploy.md).

`django_application` is Django's own, for the development server
(settings.WSGI_APPLICATION): runserver gives each connection a thread of its own,
without a limit, so there a stream holds a thread and no one waits for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

django_application = get_wsgi_application()

from scorer.live.streams import wsgi_poll_instead  # noqa: E402
from scorer.services.live import LEAGUE_EVENTS, ROOM_EVENTS, TABLE_EVENTS  # noqa: E402


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    path = environ.get("PATH_INFO", "")
    if any(p.match(path) for p in (TABLE_EVENTS, ROOM_EVENTS, LEAGUE_EVENTS)):
        return wsgi_poll_instead(environ, start_response)
    return django_application(environ, start_response)
