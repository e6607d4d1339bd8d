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
