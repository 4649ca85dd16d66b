"""A bus over Redis pub/sub, for several server processes sharing one database.

Every Redis name the bus uses (today one pub/sub channel, ``{prefix}tables``) goes through
:meth:`RedisBus.key`, so two deployments with different prefixes (``Settings.bus_prefix``, from
``COVEN_BUS_NAMESPACE`` or ``coven serve --bus-namespace``) can share one Redis without hearing each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

import redis.asyncio as aioredis

from coven.bus.base import Bus, Message


class RedisBus(Bus):
    def __init__(self, url: str, prefix: str = "coven:") -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.channel = self.key("tables")
        self._client: aioredis.Redis | None = None
        self._pubsub: aioredis.client.PubSub | None = None
        self._task: asyncio.Task[None] | None = None

    def key(self, name: str) -> str:
        """The Redis name (channel or key) ``name`` within this deployment's namespace."""
        return f"{self.prefix}{name}"

    async def start(self) -> None:
        if self._client is not None:
            return
        self._client = aioredis.from_url(self.url, decode_responses=True)
        self._pubsub = self._client.pubsub()
        await self._pubsub.subscribe(self.channel)
        # wait for the confirmation, so that nothing published after start() is missed
        for _ in range(50):
            confirmation = await self._pubsub.get_message(timeout=0.1)
            if confirmation is not None and confirmation.get("type") == "subscribe":
                break
        self._task = asyncio.create_task(self._listen(self._pubsub))

    async def _listen(self, pubsub: aioredis.client.PubSub) -> None:
        while True:
            raw = await pubsub.get_message(timeout=1.0)
            if raw is None or raw.get("type") != "message":
                continue
            with contextlib.suppress(Exception):
                message = json.loads(raw["data"])
                if isinstance(message, dict):
                    await self._deliver(message)

    async def publish(self, message: Message) -> None:
        if self._client is None:
            await self.start()
        assert self._client is not None
        await self._client.publish(self.channel, json.dumps(message, separators=(",", ":")))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            self._pubsub = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
