"""Rate limits: a token bucket, one bucket per client address, and a count of each address's sockets.

A websocket connection has its own bucket for its messages (:class:`RateLimiter`); the chat lines of a
table's seat take from one bucket of that seat's, whichever of its sockets says them (:class:`SeatLimits`).
API requests and socket upgrades, and tables created, have one bucket per client address each
(:class:`ClientLimits`): some requests cost the loop every table shares milliseconds, and each table is
kept in memory while it lives. The sockets an address holds open are counted (:class:`ClientCounts`), as
are each table's spectators (:class:`Counts`).
Behind a reverse proxy the address is the client's only if the proxy is trusted (``coven serve
--forwarded-allow-ips``); otherwise every client shares the proxy's.
"""

from __future__ import annotations

import functools
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

    def charge(self, tokens: float) -> None:
        """Take ``tokens`` more for what was done (a costly answer), even below none: what follows waits
        until they are refilled."""
        self._refill()
        self.tokens -= tokens

    def give_back(self) -> None:
        """Return a token taken for something that did not happen after all (up to the burst)."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def wait_seconds(self) -> float:
        """Seconds until the next token (0: one is there now)."""
        self._refill()
        if self.tokens >= 1.0:
            return 0.0
        return math.inf if self.rate <= 0 else (1.0 - self.tokens) / self.rate


@functools.lru_cache(maxsize=4096)
def client_key(host: str | None) -> str:
    """Whose bucket a request from ``host`` takes from: the IPv4 address, the IPv6 /64 network (an IPv4
    address mapped into IPv6 counts as itself), or the host as the server was given it (a test client's
    name, a Unix socket's empty one). Kept for the last few thousand addresses: reading an address
    (``ipaddress``) takes about 2.6 µs, and each socket is counted when it opens and when it closes."""
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

    def take(self, host: str | None) -> int:
        """Take one of ``host``'s tokens: 0 if it had one, else the whole seconds until it has, at least 1
        (a ``Retry-After``; nothing taken)."""
        if self.rate == 0:
            return 0
        key = client_key(host)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimiter(self.rate, self.burst)
            while len(self._buckets) > self.kept:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if bucket.allow():
            return 0
        return max(1, math.ceil(bucket.wait_seconds()))  # (finite: the rate is not 0)

    def give_back(self, host: str | None) -> None:
        """Return the token :meth:`take` took from ``host`` for something that was refused after all (a
        table the server did not create counts against nobody's limit)."""
        bucket = self._buckets.get(client_key(host))
        if bucket is not None:
            bucket.give_back()


class SeatLimits:
    """One :class:`RateLimiter` per seat of each table, shared by all of that seat's sockets on this
    process (a limit per socket is no limit: one token opens as many sockets as it likes).

    A seat's bucket is made when it first takes a token; a table's buckets go with :meth:`forget`, called
    when the table leaves memory, so there are never more than the seats of the tables in memory."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._tables: dict[str, dict[int, RateLimiter]] = {}

    def __len__(self) -> int:
        """The tables that have buckets."""
        return len(self._tables)

    def allow(self, table_id: str, seat: int) -> bool:
        """Take a token of ``seat``'s at ``table_id`` if there is one."""
        seats = self._tables.setdefault(table_id, {})
        bucket = seats.get(seat)
        if bucket is None:
            bucket = seats[seat] = RateLimiter(self.rate, self.burst)
        return bucket.allow()

    def give_back(self, table_id: str, seat: int) -> None:
        """Return the token ``seat`` took for a line that was not said after all (the store failed to
        keep it): only what is said counts against the seat."""
        bucket = self._tables.get(table_id, {}).get(seat)
        if bucket is not None:
            bucket.give_back()

    def forget(self, table_id: str) -> None:
        """The table left memory: its buckets go (they would come back full)."""
        self._tables.pop(table_id, None)


class Counts:
    """How many live connections each key holds open, at most ``limit`` each (0: no limit). A key holding
    none is forgotten, so this holds no more entries than connections."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError("a connection limit is 0 (none) or more")
        self.limit = limit
        self._open: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._open)

    def held(self, key: str) -> int:
        """The connections ``key`` holds open."""
        return self._open.get(key, 0)

    def enter(self, key: str) -> bool:
        """Count one more connection of ``key``'s; False (nothing counted) if it holds its limit."""
        held = self._open.get(key, 0)
        if self.limit and held >= self.limit:
            return False
        self._open[key] = held + 1
        return True

    def leave(self, key: str) -> None:
        """One connection counted by :meth:`enter` closed."""
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)


class ClientCounts(Counts):
    """:class:`Counts` of each client's live connections, a client being its address's
    :func:`client_key`."""

    def held(self, host: str | None) -> int:
        return super().held(client_key(host))

    def enter(self, host: str | None) -> bool:
        return super().enter(client_key(host))

    def leave(self, host: str | None) -> None:
        super().leave(client_key(host))
