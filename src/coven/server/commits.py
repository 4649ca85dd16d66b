"""Group commit: the steps of many tables that arrive together are committed in one transaction.

Tables being created and people taking their seats ride along: each would otherwise be a transaction (and
a sync to disk) of its own, several for every new table.

Each table applies its actions one at a time (under its lock) and waits for its step to be durable before
it acknowledges; meanwhile other tables' steps queue up. Whenever the store is free, everything queued
goes in one transaction (one sync to disk, however many tables), and each waiting table learns whether
its step committed.

A sync to disk is the costliest part of a commit, in CPU as well as in time (about 0.25 ms of CPU for
each ``fdatasync`` on this project's machines, more than the rest of a small transaction): so
transactions start at most every ``interval`` seconds (as PostgreSQL's ``commit_delay`` lets a batch
fill before its flush). Under light load a step is committed at once, alone, as the last commit is
long past; under load each batch gathers what arrives within the interval, and every step waits at most
that much longer for its acknowledgement.

The transactions run on one dedicated thread of this object's own (started on the first step): handing
it a batch is a lock and a condition, and its answer comes back to the event loop as one callback per
batch. (``asyncio.to_thread`` per batch cost 20-48 µs of CPU more: an executor work item, a wrapped
future and a context copy for each, measured for issue 12.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError

from coven.store import ConflictError, PendingClaim, PendingStep, PendingTable, PendingWrite, Store
from coven.store.store import WriteOutcome

log = logging.getLogger("coven.server")

THREAD_NAME = "coven-commit"
"""The commit thread's name where the operating system shows threads (Linux: ``top -H``, ``ps -L``,
``/proc/PID/task/TID/comm``; 15 bytes at most), so that tools, and ``coven bench server``, can tell its CPU
from the event loop's."""

_Waiting = tuple[PendingWrite, asyncio.Future[Any]]


class GroupCommit:
    def __init__(self, store: Store, max_batch: int = 500, interval: float = 0.0) -> None:
        self.store = store
        self.max_batch = max_batch
        self.interval = interval
        """The least time between the starts of two transactions (seconds; 0: one after the other)."""
        self._pending: list[_Waiting] = []
        self._ready = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None
        self._closed = False
        self.batches = 0
        """How many transactions committed steps (for benchmarks: steps per batch)."""

    async def append(self, step: PendingStep) -> None:
        """Return once ``step`` is durably committed; raise ConflictError if another writer got the
        step first (nothing of it is written), or the store's error."""
        await self._write(step)

    async def claim(self, table_id: str, seat: int) -> tuple[bool, str]:
        """:meth:`Store.claim_seat`, committed with whatever else is waiting."""
        answer: tuple[bool, str] = await self._write(PendingClaim(table_id, seat))
        return answer

    async def create(self, new: PendingTable) -> None:
        """:meth:`Store.create_table`, committed with whatever else is waiting."""
        await self._write(new)

    async def _write(self, write: PendingWrite) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        with self._ready:
            self._pending.append((write, future))
            if self._thread is None:
                self._start()
            elif len(self._pending) == 1:  # the thread may be waiting for work (else it finds this later)
                self._ready.notify()
        return await future

    def close(self) -> None:
        """Stop the commit thread once everything queued is committed (waits for it; a later step
        starts a new one)."""
        with self._ready:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._closed = True
            self._ready.notify()
        thread.join()
        with self._ready:
            self._closed = False

    # ------------------------------------------------------------ the commit thread
    def _start(self) -> None:
        """Start the commit thread (with ``_ready`` held)."""
        self._thread = threading.Thread(target=self._run, name="coven-group-commit", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        _name_os_thread(THREAD_NAME)
        try:
            self._serve()
        except BaseException:  # the thread dies (it should not); its batch has its answer, and
            with self._ready:  # the steps queued after it go to a new thread: nobody waits for ever
                if self._thread is threading.current_thread():
                    self._thread = None
                    if self._pending:
                        self._start()
            raise

    def _serve(self) -> None:
        started = -float("inf")  # when the last transaction began
        while True:
            with self._ready:
                while not self._pending and not self._closed:
                    self._ready.wait()
                if not self._pending:  # closed, and nothing left to commit
                    return
                # let the batch fill until the interval since the last transaction is over (the writers
                # only notify an empty queue, so this wait is not woken by each write; close() wakes it)
                due = started + self.interval
                while not self._closed and len(self._pending) < self.max_batch:
                    left = due - time.monotonic()
                    if left <= 0:
                        break
                    self._ready.wait(left)
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
            started = time.monotonic()
            writes = [write for write, _ in batch]
            try:
                done: list[WriteOutcome] | BaseException = self._commit(writes)
            except BaseException as exc:
                self._answer(batch, exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            if any(isinstance(write, PendingStep) for write in writes):
                self.batches += 1
            self._answer(batch, done)

    def _commit(self, writes: list[PendingWrite]) -> list[WriteOutcome]:
        try:
            return self.store.write_batch(writes)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            # the database dropped the connection (a restart, a failover): once more, on a new one
            log.warning("the store's connection dropped during a commit; retrying once")
            return self.store.write_batch(writes)

    def _answer(self, batch: list[_Waiting], done: list[WriteOutcome] | BaseException) -> None:
        """Hand a batch's outcome to the loops its writes came from (one callback per loop)."""
        loops: dict[asyncio.AbstractEventLoop, list[tuple[_Waiting, WriteOutcome | BaseException]]] = {}
        for i, waiting in enumerate(batch):
            outcome = done if isinstance(done, BaseException) else done[i]
            loops.setdefault(waiting[1].get_loop(), []).append((waiting, outcome))
        for loop, answers in loops.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for these any more
                loop.call_soon_threadsafe(_settle(answers))


def _name_os_thread(name: str) -> None:
    """Name the running thread ``name`` where the operating system shows it (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError):
        Path(f"/proc/self/task/{threading.get_native_id()}/comm").write_text(name, encoding="ascii")


def _settle(answers: list[tuple[_Waiting, WriteOutcome | BaseException]]) -> Callable[[], None]:
    """What the loop runs to give each waiting write its outcome (a step that was not committed: a
    ConflictError)."""

    def settle() -> None:
        for (write, future), outcome in answers:
            if future.done():
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            elif outcome is False and isinstance(write, PendingStep):
                taken = f"step {write.number} of table {write.table_id} is taken"
                future.set_exception(ConflictError(taken))
            else:
                future.set_result(None if outcome is True else outcome)

    return settle
