"""The bus interface and its in-process implementation."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("coven.bus")

Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[None]]

RESYNC: Message = {"kind": "resync"}
"""Delivered (never published) when a bus has reconnected after a drop: notices may have been missed,
so a subscriber catches up from the store by action number."""


class Bus(ABC):
    """Publish JSON notices to every subscriber (in every process on the same bus)."""

    reaches_others: bool = False
    """Whether other server processes hear what this bus carries (then a move can be sent to its table's
    owning process); an in-process bus reaches this process only."""

    def __init__(self) -> None:
        self._handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        self._handlers.append(handler)

    def unsubscribe(self, handler: Handler) -> None:
        with contextlib.suppress(ValueError):
            self._handlers.remove(handler)

    async def _deliver(self, message: Message) -> None:
        """Hand ``message`` to every handler; one handler's failure never stops the others or the bus."""
        for handler in list(self._handlers):
            try:
                await handler(message)
            except Exception:
                log.exception("bus handler failed on a %s notice", message.get("kind"))

    @property
    def listening(self) -> bool:
        """Whether the notices of other processes reach this one now (an in-process bus: always)."""
        return True

    async def start(self) -> None:  # noqa: B027 - optional hook
        """Connect (if the bus needs to)."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Disconnect."""

    @abstractmethod
    async def publish(self, message: Message) -> None: ...


class LocalBus(Bus):
    """Subscribers in this process only; delivery is asynchronous (a task), in publication order."""

    def __init__(self) -> None:
        super().__init__()
        self._queue: asyncio.Queue[Message] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self._task is None:
            self._queue = asyncio.Queue()
            self._task = asyncio.create_task(self._pump(self._queue))

    async def _pump(self, queue: asyncio.Queue[Message]) -> None:
        while True:
            message = await queue.get()
            with contextlib.suppress(Exception):
                await self._deliver(message)

    async def publish(self, message: Message) -> None:
        if self._queue is None:
            await self.start()
        assert self._queue is not None
        await self._queue.put(message)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            self._queue = None
