"""Fan-out of table updates between server processes: in-process by default, Redis to scale out.

A bus carries small JSON notices ("table T committed step N: seat S played A", "table T's seats
changed"). The database stays the single source of truth; a notice only tells other processes to catch
up (see :mod:`coven.server.tables`).
"""

from urllib.parse import urlsplit

from coven.bus.base import RESYNC, Bus, Handler, LocalBus
from coven.bus.redis import RedisBus


def make_bus(url: str | None, prefix: str = "coven:", name: str | None = None) -> Bus:
    """``None`` or ``memory://``: in-process; ``redis://...``: Redis pub/sub on channel ``{prefix}tables``
    (``name``: how this process's connections show in Redis's ``CLIENT LIST``)."""
    if url is None or url in {"", "memory://", "local"}:
        return LocalBus()
    if url.startswith(("redis://", "rediss://")):
        _check_redis_db(url)
        return RedisBus(url, prefix, name)
    if url.startswith("unix://"):
        return RedisBus(url, prefix, name)
    raise ValueError(f"unknown bus URL {url!r} (use memory:// or redis://host:port/db)")


def _check_redis_db(url: str) -> None:
    """Raise ValueError if ``url`` names its Redis database other than by number (``redis://host:port/0``):
    the Redis client reads ``/abc`` as database 0 without a word, and such a process would share the
    bus of every other process on database 0."""
    path = urlsplit(url).path.strip("/")
    if path and not (path.isascii() and path.isdigit()):
        raise ValueError(f"the Redis database in a bus URL is a number (redis://host:port/0), not {path!r}")


__all__ = ["RESYNC", "Bus", "Handler", "LocalBus", "RedisBus", "make_bus"]
