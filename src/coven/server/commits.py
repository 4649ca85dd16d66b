"""Group commit: the steps of many tables that arrive together are committed in one transaction.

Each table applies its actions one at a time (under its lock) and waits for its step to be durable before
it acknowledges; meanwhile other tables' steps queue up. Whenever the store is free, everything queued
goes in one transaction (one sync to disk, however many tables), and each waiting table learns whether
its step committed. Under light load a step is committed at once, alone; under heavy load the batches
grow by themselves, so throughput rises without a timer that would add latency.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.exc import DBAPIError

from coven.store import ConflictError, PendingStep, Store

log = logging.getLogger("coven.server")


class GroupCommit:
    def __init__(self, store: Store, max_batch: int = 500) -> None:
        self.store = store
        self.max_batch = max_batch
        self._pending: list[tuple[PendingStep, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0
        """How many transactions committed steps (for benchmarks: steps per batch)."""

    async def append(self, step: PendingStep) -> None:
        """Return once ``step`` is durably committed; raise ConflictError if another writer got the
        step first (nothing of it is written), or the store's error."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((step, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="coven-group-commit")
        await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[: self.max_batch], self._pending[self.max_batch :]
            steps = [step for step, _ in batch]
            try:
                done = await self._commit(steps)
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            self.batches += 1
            for (step, future), ok in zip(batch, done, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(None)
                else:
                    taken = f"step {step.number} of table {step.table_id} is taken"
                    future.set_exception(ConflictError(taken))

    async def _commit(self, steps: list[PendingStep]) -> list[bool]:
        try:
            return await asyncio.to_thread(self.store.append_actions, steps)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            # the database dropped the connection (a restart, a failover): once more, on a new one
            log.warning("the store's connection dropped during a commit; retrying once")
            return await asyncio.to_thread(self.store.append_actions, steps)
