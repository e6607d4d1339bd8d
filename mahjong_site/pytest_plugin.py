"""Tiny pytest plugin, loaded with ``-p mahjong_site.pytest_plugin`` (see pyproject.toml).

pytest-django imports the settings module while pytest is still starting up,
before any ``conftest.py`` is read, so the test environment has to be set here,
at import time of this plugin, which pytest loads earlier (from ``addopts``).

* ``DJANGO_ALLOW_INSECURE_KEY=1``: the suite runs with DEBUG off (like
  production) but on the built-in development SECRET_KEY, which the settings
  otherwise refuse when DEBUG is off.
* ``MAHJONG_LIVE_STREAM_SECONDS=0``, ``MAHJONG_LIVE_BROKER=memory``: event streams
  end at once, and no listening connection stays open (below).
* ``DJANGO_STATIC_MANIFEST=0``: plain static-files storage, so templates using
  ``{% static %}`` render without running ``collectstatic`` first.

Values already in the environment win, so a run can still opt into either.
"""

import os

os.environ.setdefault("DJANGO_ALLOW_INSECURE_KEY", "1")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
# A table's event stream says what is new and ends (a test that follows a stream
# sets settings.LIVE_STREAM_SECONDS itself): a page walk must not wait on one.
os.environ.setdefault("MAHJONG_LIVE_STREAM_SECONDS", "0")
# The in-process broker on PostgreSQL too: no listening connection left open on the
# test database (tests/scorer/test_live.py makes a PostgreSQL one of its own).
os.environ.setdefault("MAHJONG_LIVE_BROKER", "memory")

# Hypothesis: no per-example deadline by default. Speed is measured by the benchmarks,
# never by a test, and CI shares two cores: a 200 ms deadline failed an example of
# test_yunnan under load with nothing wrong. A test may still set its own.
try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # the dev extras are not installed: no property tests to run
    pass
else:
    _hypothesis_settings.register_profile("suite", deadline=None)
    _hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))
