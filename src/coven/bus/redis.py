"""A bus over Redis pub/sub, for several server processes sharing one database.

Every Redis name the bus uses (today one pub/sub channel, ``{prefix}tables``) goes through
:meth:`RedisBus.key`, so two deployments with different prefixes (``Settings.bus_prefix``, from
``COVEN_BUS_NAMESPACE`` or ``coven serve --bus-namespace``) can share one Redis without hearing each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from coven.bus.base import RESYNC, Bus, Message

log = logging.getLogger("coven.bus")

BACKOFF_FIRST = 0.05
"""Seconds before the first attempt to reconnect after a drop (doubled after each failure) ..."""
BACKOFF_MAX = 5.0
"""... up to this."""


class RedisBus(Bus):
    reaches_others = True

    def __init__(self, url: str, prefix: str = "coven:", name: str | None = None) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.name = name
        """The connections' name in Redis (``CLIENT SETNAME``), so an operator can tell them apart."""
        self.channel = self.key("tables")
        self._client: aioredis.Redis | None = None
        """Publishes; a command on a dropped connection is retried on a new one."""
        self._listener: aioredis.Redis | None = None
        """Subscribes; without retries, so that a drop surfaces and is answered with :data:`RESYNC`."""
        self._pubsub: aioredis.client.PubSub | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def listening(self) -> bool:
        """Subscribed now (False after a drop, until the listener has subscribed again)."""
        return self._task is not None and not self._task.done() and self._pubsub is not None

    def key(self, name: str) -> str:
        """The Redis name (channel or key) ``name`` within this deployment's namespace."""
        return f"{self.prefix}{name}"

    async def start(self) -> None:
        if self._client is not None:
            return
        # a command on a dropped connection is retried on a new one (with backoff) before it fails
        retry = Retry(ExponentialBackoff(cap=BACKOFF_MAX, base=BACKOFF_FIRST), 5)
        self._client = aioredis.from_url(
            self.url,
            decode_responses=True,
            client_name=self.name,
            retry=retry,
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        self._listener = aioredis.from_url(
            self.url, decode_responses=True, client_name=self.name, retry=Retry(ExponentialBackoff(), 0)
        )
        self._pubsub = await self._subscribe()
        self._task = asyncio.create_task(self._listen())

    async def _subscribe(self) -> aioredis.client.PubSub:
        """A new subscription to the channel, confirmed, so nothing published after it is missed."""
        assert self._listener is not None
        pubsub = self._listener.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            for _ in range(50):
                confirmation = await pubsub.get_message(timeout=0.1)
                if confirmation is not None and confirmation.get("type") == "subscribe":
                    break
        except BaseException:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            raise
        return pubsub

    async def _listen(self) -> None:
        """Deliver notices; after any drop, subscribe again with backoff and deliver :data:`RESYNC`."""
        delay = BACKOFF_FIRST
        while True:
            try:
                if self._pubsub is None:
                    self._pubsub = await self._subscribe()
                    log.warning("bus: subscribed again to %s after a drop", self.channel)
                    delay = BACKOFF_FIRST
                    await self._deliver(dict(RESYNC))
                raw = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as exc:
                log.warning("bus: lost %s (%s); reconnecting in %.2f s", self.channel, exc, delay)
                if self._pubsub is not None:
                    with contextlib.suppress(Exception):
                        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
                    self._pubsub = None
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            if raw is None or raw.get("type") != "message":
                continue
            try:
                message = json.loads(raw["data"])
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("kind") != RESYNC["kind"]:
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
        for client in (self._client, self._listener):
            if client is not None:
                await client.aclose()
        self._client = self._listener = None
