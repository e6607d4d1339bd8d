"""The Redis the live tests may use, when one answers."""

from __future__ import annotations


def redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS).ping())
    except Exception:
        return False


REDIS = "redis://127.0.0.1:6379/9"  # (its own database number, never the site's)
