"""Rate limits: a token bucket, and one bucket per client address for what costs the server memory.

A websocket connection has its own bucket for its messages (:class:`RateLimiter`). Creating a table has
one per client address (:class:`ClientLimits`): each table is kept in memory while it lives, so one
client creating tables in a loop could otherwise grow the server without bound. Behind a reverse proxy
the address is the client's only if the proxy is trusted (``coven serve --forwarded-allow-ips``);
otherwise every client shares the proxy's bucket.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict

IPV6_GROUP = 64
"""IPv6 addresses count by their /64 network: one home or one server is given a whole /64, and could
otherwise take a fresh address (and a fresh bucket) for every request."""
CLIENTS_KEPT = 10_000
"""Buckets kept at most; past it the least recently used go (they come back full: a bucket is a limit
for a busy client, not a record)."""


class RateLimiter:
    """A token bucket: ``rate`` tokens per second, at most ``burst`` at once (it starts full)."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self) -> bool:
        """Take a token if there is one."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait_seconds(self) -> float:
        """Seconds until the next token (0: one is there now)."""
        self._refill()
        if self.tokens >= 1.0:
            return 0.0
        return math.inf if self.rate <= 0 else (1.0 - self.tokens) / self.rate


def client_key(host: str | None) -> str:
    """Whose bucket a request from ``host`` takes from: the IPv4 address, the IPv6 /64 network (an IPv4
    address mapped into IPv6 counts as itself), or the host as the server was given it (a test client's
    name, a Unix socket's empty one)."""
    if not host:
        return "-"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((address, IPV6_GROUP), strict=False))
    return str(address)


class ClientLimits:
    """One :class:`RateLimiter` per client (by :func:`client_key`), at most ``kept`` of them.

    ``rate`` per second with ``burst`` at once; a ``rate`` of 0 means no limit at all."""

    def __init__(self, rate: float, burst: int, kept: int = CLIENTS_KEPT) -> None:
        if rate < 0 or burst < 1 or kept < 1:
            raise ValueError("a client limit needs rate >= 0, burst >= 1 and room for one client")
        self.rate = rate
        self.burst = burst
        self.kept = kept
        self._buckets: OrderedDict[str, RateLimiter] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, host: str | None) -> float:
        """Take one of ``host``'s tokens: 0.0 if it had one, else the seconds until it has (nothing
        taken)."""
        if self.rate == 0:
            return 0.0
        key = client_key(host)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimiter(self.rate, self.burst)
            while len(self._buckets) > self.kept:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if bucket.allow():
            return 0.0
        return bucket.wait_seconds()
