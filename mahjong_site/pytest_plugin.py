"""Tiny pytest plugin, loaded with ``-p mahjong_site.pytest_plugin`` (see pyproject.toml).

pytest-django imports the settings module while pytest is still starting up,
before any ``conftest.py`` is read, so the test environment has to be set here,
at import time of this plugin, which pytest loads earlier (from ``addopts``).

* ``DJANGO_ALLOW_INSECURE_KEY=1``: the suite runs with DEBUG off (like
  production) but on the built-in development SECRET_KEY, which the settings
  otherwise refuse when DEBUG is off.
* ``DJANGO_STATIC_MANIFEST=0``: plain static-files storage, so templates using
  ``{% static %}`` render without running ``collectstatic`` first.

Values already in the environment win, so a run can still opt into either.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
