"""WSGI entry point: ``gunicorn mahjong_site.wsgi`` or any WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

application = get_wsgi_application()
