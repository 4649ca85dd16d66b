"""The bus delivers every notice to every subscriber, in process and across Redis."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from coven.bus import LocalBus, RedisBus, make_bus
from tests.store.backends import unique_prefix


async def _collect(bus_in: Any, bus_out: Any, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    done = asyncio.Event()

    async def handler(message: dict[str, Any]) -> None:
        got.append(message)
        if len(got) == len(messages):
            done.set()

    bus_out.subscribe(handler)
    await bus_out.start()
    await bus_in.start()
    for m in messages:
        await bus_in.publish(m)
    await asyncio.wait_for(done.wait(), timeout=10)
    await bus_in.close()
    if bus_out is not bus_in:
        await bus_out.close()
    return got


def test_make_bus_picks_the_backend() -> None:
    assert isinstance(make_bus(None), LocalBus)
    assert isinstance(make_bus("memory://"), LocalBus)
    assert isinstance(make_bus("redis://127.0.0.1:6379/0"), RedisBus)
    with pytest.raises(ValueError, match="unknown bus"):
        make_bus("carrier-pigeon://")


@pytest.mark.parametrize("db", ["abc", "0x1", "²", "-1", "1/2"])
def test_a_redis_database_that_is_no_number_is_refused(db: str) -> None:
    # redis-py reads "/abc" as database 0 without a word: such a process would share database 0's bus
    with pytest.raises(ValueError, match="the Redis database in a bus URL is a number"):
        make_bus(f"redis://127.0.0.1:6379/{db}")


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379", "redis://127.0.0.1:6379/", "redis://127.0.0.1:6379/12"]
)
def test_a_redis_url_with_or_without_its_database_number_is_taken(url: str) -> None:
    assert isinstance(make_bus(url), RedisBus)


def test_local_bus_delivers_in_order() -> None:
    bus = LocalBus()
    messages = [{"kind": "action", "table": "t", "number": n} for n in range(1, 6)]
    assert asyncio.run(_collect(bus, bus, messages)) == messages


@pytest.mark.redis
def test_redis_bus_delivers_between_instances(bus_redis_url: str) -> None:
    prefix = unique_prefix()
    messages = [{"kind": "action", "table": "t", "number": n, "origin": "a"} for n in range(1, 4)]
    got = asyncio.run(_collect(RedisBus(bus_redis_url, prefix), RedisBus(bus_redis_url, prefix), messages))
    assert got == messages
