#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as e:
        # The settings refuse to start without a production key while DEBUG is off:
        # say what to do in one paragraph, not a traceback (`make admin` and `make
        # run` set DJANGO_DEBUG=1 on a laptop; docs/deploy.md sets the key).
        if "DJANGO_SECRET_KEY" not in str(e):
            raise
        sys.exit(f"manage.py: {e}\n(On a laptop, `make admin` and `make run` do this for you.)")


if __name__ == "__main__":
    main()
