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
that much longer for its acknowledgement. A longer interval does not pay where each table waits for its
last move's acknowledgement before the next, as people do: the tables move more slowly, so the batches
grow no larger (``coven bench server --commit-interval``, Brujas at 20 tables: 2 ms served 3,707-3,947
moves a second at 235-246 µs of CPU a move, 5 ms 2,766-3,219 at 254-301, 10 ms 1,780-1,801 at 283-310;
measured for issue 12).

The batches are handed over by one dedicated thread of this object's own (started on the first step, or
by :meth:`GroupCommit.start`): handing it a batch is a lock and a condition, and its answer comes back to
the event loop as one callback per batch. (``asyncio.to_thread`` per batch cost 20-48 µs of CPU more: an
executor work item, a wrapped future and a context copy for each, measured for issue 12.)

The transactions run on that thread, in the server's process; or, with ``process`` (``coven serve
--commit-process``) and a store that another process can open (a file, a database server), in a child
process, the store's writer (:class:`WriterProcess`, :mod:`coven.server.commitworker`), the thread only
sending it each batch and waiting for its answer. On the thread, the transactions contend with the event
loop for the interpreter lock: the driver lets it go around each statement, several times a batch, and
with the loop busy each time is a hand-over between threads (a batch of 8 steps cost the thread 1.3 ms
of CPU beside a busy loop, 0.19 ms beside an idle one). The writer has no such contention, and costs a
round trip between processes a batch instead: about 0.1 ms more CPU a batch, alone. Measured for issue
12 (``coven bench server``, A/B, three runs each): at 100 tables of Brujas (8 steps a batch) the
writer served 3,924-4,042 moves a second against 3,763-3,906, at the same CPU a move, with an ack p99 of
37-47 ms against 51-59, and on PostgreSQL 2,906-3,389 against 2,489-2,900 (two runs each); at 20
tables of The 3 Commandments (3-4 steps a batch) it cost 88-123 µs of commit CPU a move against 77-84,
and served fewer moves in two runs of three. So the thread is the default, and the writer a choice for
a server under heavy load.

Nor do the transactions run on the event loop itself, though that would spare the thread's hand-overs
(a condition to wake it, the lock passed back and forth around each statement, a callback across
threads for each batch): tried at 20 tables of Brujas on SQLite (each batch committed by a callback
that the first write of an interval schedules), nine alternating runs gave a ``cpu_ratio`` of 10.9,
10.5, 10.5 and 10.9 against the thread's 10.4, 10.1, 10.9, 10.4 and 11.3, with a higher ack p50 (4.6-5.0
ms against 3.7-5.0): the loop then waits out each sync to disk, during which no other table's frame goes
out (measured for issue 12).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError

from coven.server.frames import frame, read_frame
from coven.store import ConflictError, PendingClaim, PendingStep, PendingTable, PendingWrite, Store
from coven.store.store import WriteOutcome

log = logging.getLogger("coven.server")

THREAD_NAME = "coven-commit"
"""The commit thread's name where the operating system shows threads (Linux: ``top -H``, ``ps -L``,
``/proc/PID/task/TID/comm``; 15 bytes at most), so that tools, and ``coven bench server``, can tell its CPU
from the event loop's."""

_Waiting = tuple[PendingWrite, asyncio.Future[Any]]


class WriterLostError(RuntimeError):
    """The store's writer process ended before it answered a batch: whether the batch committed is not
    known (a step that did is found by the table's next step, which conflicts and catches up)."""


def commit_batch(store: Store, writes: Sequence[PendingWrite]) -> list[WriteOutcome]:
    """:meth:`Store.write_batch`, once more on a fresh connection if the database dropped the one it used
    (a restart, a failover)."""
    try:
        return store.write_batch(writes)
    except DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        log.warning("the store's connection dropped during a commit; retrying once")
        return store.write_batch(writes)


class WriterProcess:
    """The store's writer: a child process (:mod:`coven.server.commitworker`) that commits the batches it
    is sent, one at a time. Used from one thread at a time (the group commit's). Started on the first
    batch; a writer that ended is started again for the next batch. It ends with its input: when
    :meth:`close` closes it, or when this process ends, however it ends."""

    def __init__(self, url: str) -> None:
        self.url = url
        """The store's URL, sent to the writer on its input (never on its command line, which every user
        of the machine can read: it may hold a password)."""
        self._process: subprocess.Popen[bytes] | None = None
        self.answered = 0
        """Batches the writers answered (any of them, since this object was made)."""
        self.started = 0
        """Writers started."""

    @property
    def pid(self) -> int | None:
        """The running writer's process id (None: none runs)."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the writer if none runs; :class:`WriterLostError` if it cannot be started."""
        if self._process is not None:
            if self._process.poll() is None:
                return
            self._end(self._process)  # it ended between two batches: its pipes are closed here
            self._process = None
        self.started += 1
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "coven.server.commitworker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        except OSError as exc:  # no interpreter there, no process left to the server
            raise WriterLostError(f"the store's writer could not start: {exc}") from exc
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(frame(self.url))
            self._process.stdin.flush()
        except OSError:
            pass  # it ended at once: the batch finds out

    def write(self, writes: Sequence[PendingWrite]) -> list[WriteOutcome]:
        """Commit ``writes`` in the writer (see :meth:`Store.write_batch`); raise its error, or
        :class:`WriterLostError` if it ended before it answered."""
        self.start()
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(frame(list(writes)))
            process.stdin.flush()
            body = read_frame(process.stdout)
        except OSError:
            body = None
        if body is None:
            self._end(process)
            raise WriterLostError(f"the store's writer (process {process.pid}) ended during a commit")
        self.answered += 1
        ok, value = pickle.loads(body)
        if not ok:
            raise value
        outcomes: list[WriteOutcome] = value
        return outcomes

    def close(self, timeout: float = 30.0) -> None:
        """Let the writer finish the batch it has and end (killed after ``timeout`` seconds)."""
        process, self._process = self._process, None
        if process is not None:
            self._end(process, timeout)

    @staticmethod
    def _end(process: subprocess.Popen[bytes], timeout: float = 0.0) -> None:
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class GroupCommit:
    def __init__(
        self, store: Store, max_batch: int = 500, interval: float = 0.0, process: bool = False
    ) -> None:
        self.store = store
        self.writer: WriterProcess | None = WriterProcess(store.url) if process and store.shared else None
        """The store's writer process, if the transactions run in one (``process``, and a store that
        another process can open); else they run on the commit thread."""
        self.max_batch = max_batch
        self.interval = interval
        """The least time between the starts of two transactions (seconds; 0: one after the other)."""
        self._pending: list[_Waiting] = []
        self._ready = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None
        self._closed = False
        self.batches = 0
        """How many transactions committed steps (for benchmarks: steps per batch)."""

    def start(self) -> None:
        """Start the commit thread (and the writer process) now rather than on the first write, so that
        the first write does not wait for them."""
        with self._ready:
            if self._thread is None:
                self._start()

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
        name_os_thread(THREAD_NAME)
        try:
            if self.writer is not None:
                with contextlib.suppress(WriterLostError):  # (the first batch finds out)
                    self.writer.start()
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
                    if self.writer is not None:
                        self.writer.close()
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
        writer = self.writer
        if writer is None:
            return commit_batch(self.store, writes)
        try:
            return writer.write(writes)
        except WriterLostError:
            if writer.answered == 0 and writer.started >= 2:
                # it never answered, twice started: it cannot run here (an interpreter without Coven's
                # modules, a process limit); commit in this process from now on
                log.exception("the store's writer process cannot run; committing in the server's process")
                self.writer = None
            raise

    def _answer(self, batch: list[_Waiting], done: list[WriteOutcome] | BaseException) -> None:
        """Hand a batch's outcome to the loops its writes came from (one callback per loop)."""
        loops: dict[asyncio.AbstractEventLoop, list[tuple[_Waiting, WriteOutcome | BaseException]]] = {}
        for i, waiting in enumerate(batch):
            outcome = done if isinstance(done, BaseException) else done[i]
            loops.setdefault(waiting[1].get_loop(), []).append((waiting, outcome))
        for loop, answers in loops.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for these any more
                loop.call_soon_threadsafe(_settle(answers))


def name_os_thread(name: str) -> None:
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
