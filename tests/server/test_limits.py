"""The token buckets: one per connection for its messages, one per client address for tables created."""

from __future__ import annotations

import math

import pytest

from coven.server import limits
from coven.server.limits import ClientCounts, ClientLimits, RateLimiter, client_key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(limits.time, "monotonic", fake)
    return fake


def test_a_bucket_gives_its_burst_then_its_rate(clock: Clock) -> None:
    bucket = RateLimiter(rate=2.0, burst=3)
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait_seconds() == pytest.approx(0.5)
    clock.now += 0.25
    assert not bucket.allow() and bucket.wait_seconds() == pytest.approx(0.25)
    clock.now += 0.25
    assert bucket.allow() and not bucket.allow()
    clock.now += 100  # refills up to the burst, not beyond
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]


def test_a_bucket_that_never_refills_waits_for_ever(clock: Clock) -> None:
    bucket = RateLimiter(rate=0.0, burst=1)
    assert bucket.wait_seconds() == 0.0 and bucket.allow()
    assert math.isinf(bucket.wait_seconds())
    clock.now += 1e6
    assert not bucket.allow() and math.isinf(bucket.wait_seconds())


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),  # the same /64: the same bucket
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4 mapped into IPv6 counts as itself
        ("testclient", "testclient"),
        (None, "-"),
        ("", "-"),
    ],
)
def test_whose_bucket_a_request_takes_from(host: str | None, key: str) -> None:
    assert client_key(host) == key


def test_client_limits_are_per_address_and_per_ipv6_network(clock: Clock) -> None:
    limit = ClientLimits(rate=1 / 60, burst=2)
    assert limit.take("198.51.100.7") == 0 and limit.take("198.51.100.7") == 0
    assert limit.take("198.51.100.7") == pytest.approx(60)
    assert limit.take("198.51.100.8") == 0  # another address has its own
    assert limit.take("2001:db8::1") == 0 and limit.take("2001:db8::2") == 0
    assert limit.take("2001:db8::3") > 0  # a new address in the same /64 is the same client
    clock.now += 60
    assert limit.take("198.51.100.7") == 0 and limit.take("198.51.100.7") > 0


def test_client_limits_keep_a_bounded_number_of_buckets(clock: Clock) -> None:
    limit = ClientLimits(rate=1 / 60, burst=1, kept=100)
    for i in range(1000):
        limit.take(f"10.0.{i // 256}.{i % 256}")
    assert len(limit) == 100
    assert limit.take("10.0.3.231") > 0  # the most recent are kept (and still limited)
    assert limit.take("10.0.0.0") == 0  # the oldest went: it starts full again


def test_no_limit_takes_nothing_and_keeps_nothing() -> None:
    limit = ClientLimits(rate=0, burst=1)
    assert all(limit.take("198.51.100.7") == 0 for _ in range(100))
    assert len(limit) == 0


@pytest.mark.parametrize(("rate", "burst", "kept"), [(-1.0, 1, 1), (1.0, 0, 1), (1.0, 1, 0)])
def test_a_senseless_limit_is_refused(rate: float, burst: int, kept: int) -> None:
    with pytest.raises(ValueError, match="client limit"):
        ClientLimits(rate, burst, kept)


def test_client_counts_bound_each_address_and_forget_the_closed() -> None:
    counts = ClientCounts(limit=2)
    assert counts.enter("198.51.100.7") and counts.enter("::ffff:198.51.100.7")  # the same client
    assert not counts.enter("198.51.100.7") and counts.held("198.51.100.7") == 2
    assert counts.enter("2001:db8::1") and counts.enter("2001:db8::2")
    assert not counts.enter("2001:db8::3")  # the same /64
    counts.leave("198.51.100.7")
    assert counts.enter("198.51.100.7")
    for host in ["198.51.100.7", "198.51.100.7", "2001:db8::1", "2001:db8::2"]:
        counts.leave(host)
    assert len(counts) == 0 and counts.held("198.51.100.7") == 0
    unlimited = ClientCounts(limit=0)
    assert all(unlimited.enter("198.51.100.7") for _ in range(1000))
    with pytest.raises(ValueError, match="connection limit"):
        ClientCounts(limit=-1)
