"""The Redis bus survives a dropped connection: it subscribes again with backoff, tells its subscribers
to catch up (``RESYNC``), and a server process that missed a notice meanwhile catches up from the store."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
import redis

from coven.bus import RESYNC, RedisBus
from tests.store.backends import unique_prefix


def cut(url: str, name: str) -> int:
    """Kill every Redis connection named ``name`` (as a network drop would); returns how many."""
    admin = redis.Redis.from_url(url)
    try:
        ids = [c["id"] for c in admin.client_list() if c.get("name") == name]
        for client_id in ids:
            admin.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        admin.close()


async def _through_a_drop(url: str, listening: list[bool] | None = None) -> list[dict[str, Any]]:
    """What a bus hears around a cut of its connection; ``listening``: what it said of its subscription,
    before the cut, while it came back (False at some point), once back, and once closed."""
    prefix, name = unique_prefix(), f"coven-test-{uuid.uuid4().hex[:8]}"
    said = listening if listening is not None else []
    heard: list[dict[str, Any]] = []
    resynced, after = asyncio.Event(), asyncio.Event()
    listener, publisher = RedisBus(url, prefix, name), RedisBus(url, prefix)

    async def handler(message: dict[str, Any]) -> None:
        heard.append(message)
        if message == RESYNC:
            resynced.set()
        if message.get("n") == 2:
            after.set()

    listener.subscribe(handler)
    await listener.start()
    try:
        await publisher.publish({"kind": "action", "n": 1})
        await asyncio.sleep(0.2)
        said.append(listener.listening)
        assert await asyncio.to_thread(cut, url, name) >= 1
        async with asyncio.timeout(15):
            coming_back = True
            while not resynced.is_set():
                coming_back = coming_back and listener.listening
                await asyncio.sleep(0.005)
            said.append(coming_back)
        said.append(listener.listening)
        await publisher.publish({"kind": "action", "n": 2})
        await asyncio.wait_for(after.wait(), timeout=15)
    finally:
        await listener.close()
        await publisher.close()
    said.append(listener.listening)
    return heard


@pytest.mark.redis
def test_the_bus_subscribes_again_after_a_drop_and_says_so(bus_redis_url: str) -> None:
    heard = asyncio.run(_through_a_drop(bus_redis_url))
    assert heard[0] == {"kind": "action", "n": 1}
    assert RESYNC in heard
    assert heard[-1] == {"kind": "action", "n": 2}
    assert heard.index(RESYNC) < len(heard) - 1


@pytest.mark.redis
def test_the_bus_says_whether_it_is_subscribed(bus_redis_url: str) -> None:
    """What a server's health tells of its bus: subscribed, not while it comes back from a drop, subscribed
    again, and not once closed."""
    listening: list[bool] = []
    asyncio.run(_through_a_drop(bus_redis_url, listening))
    assert listening == [True, False, True, False]
