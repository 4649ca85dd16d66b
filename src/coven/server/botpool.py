"""Where the server's bots think: in worker processes (outside the server's interpreter lock), or in
threads of the server's own process.

A decision is a pure function of the bot's seat view and legal actions (a bot is a function of its view),
so it can run anywhere: a worker process receives the game's id, the bot's name, its seat and seed, the
view and the legal actions, and returns the action. Each worker keeps the bots it has built (so a bot's
random stream and caches carry over between its decisions when they land on the same worker).

Every decision has a time budget. A decision lost with its worker (a crash, the operating system's OOM
killer) is asked once more of a new worker; a decision past its budget ends its worker (a new one starts
when next needed). Either way, what is still unanswered is answered by the game's first legal action for
a required decision and by a pass for an optional one, so a bot table never waits on a dead worker.
In threads, which cannot be stopped, a bot whose decision ran past its budget thinks on; it is answered
for in the same way, and asked nothing, until that thought ends (never two of its decisions at once).

The workers are child processes (:mod:`coven.server.botworker`) that the event loop talks to through their
standard input and output; they end with the server's pipe, however the server ends.

Thinking is shared fairly between the people who made the tables (:class:`FairTurns`): a worker is handed
one decision at a time, and the decisions waiting for one are taken in turn from each table's creator,
not in the order they came. One person's many tables of ``best`` bots put a decision of each in line at
once, and every other table's bot waited behind all of them; now it waits for at most one of theirs
(measured for issue 12, one worker: beside one creator's 20 tables of Brujas' ``best`` bots, another's
table of them took 2.1 s a move first come, first served, 0.34 s in turn).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import pickle
import sys
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple, TypeVar

from coven.core import AnyGame, Bot, Seat, is_fixed
from coven.server.frames import HEADER

log = logging.getLogger("coven.server")

WORKER_NICENESS = 19
"""How much lower than the server's a bot worker's scheduling priority is (see ``nice(1)``; 19 is the
lowest there is)."""

K = TypeVar("K", bound=Hashable)

DERIVE_BUDGET = 5.0
"""Seconds a worker may take to derive a step's views (:meth:`BotPool.derive`; at most the bots' budget):
the table waits for them before it shows the step."""

SHARED_LEGAL_KEPT = 64
"""How many fixed legal lists the server keeps pickled, and each worker keeps read (see
:class:`SharedLegal`)."""

__all__ = [
    "DERIVE_BUDGET",
    "HEADER",
    "SHARED_LEGAL_KEPT",
    "WORKER_NICENESS",
    "BotPool",
    "FairTurns",
    "SharedLegal",
    "WorkerLostError",
    "derive_all",
]


class FairTurns:
    """At most ``slots`` holders at a time; those waiting are let in by share, in turn (round robin).

    A share is whoever the waiting work is done for (a table's creator). Each time a slot frees, it goes
    to the first waiter of the share at the head of the line, and that share, if it has more waiting,
    goes to the back of it; a share that starts waiting joins at the back. So a share with many waiters
    takes one slot in turn with every other, however many it has and however early they came; within a
    share, first come, first served."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"at least one slot, not {slots}")
        self.slots = slots
        self._free = slots
        self._waiting: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def free(self) -> int:
        """The slots nobody holds."""
        return self._free

    @property
    def waiting(self) -> int:
        """How many are waiting for a slot."""
        return sum(len(queue) for queue in self._waiting.values())

    @contextlib.asynccontextmanager
    async def turn(self, share: Hashable) -> AsyncIterator[None]:
        """Hold a slot for the block, once it is ``share``'s turn."""
        await self._acquire(share)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, share: Hashable) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(share, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.cancelled():  # given up while waiting: out of the line
                queue = self._waiting.get(share)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[share]
            else:  # handed a slot at the moment it was given up: the slot goes on to the next
                self._release()
            raise

    def _release(self) -> None:
        while self._waiting:
            share, queue = next(iter(self._waiting.items()))
            future = queue.popleft()
            if queue:
                self._waiting.move_to_end(share)
            else:
                del self._waiting[share]
            if not future.done():
                future.set_result(None)  # the slot passes to it, never free in between
                return
        self._free += 1


class SharedLegal(NamedTuple):
    """A legal list that can never change (:func:`coven.core.is_fixed`: a game's constant of all the moves
    of a phase, say), as a request carries it: pickled once by the server, read once by each worker.

    The 2,521 moves The 3 Commandments offers a novice took 14 ms to pickle on the event loop, for every
    decision of its bots: the people's moves waited behind them (issue 12: their ack p99 went from 37 to
    79-90 ms beside four tables of its ``best`` bots). ``key`` names this list for as long as the server
    runs (a worker that has read it reads only the key); ``pickled`` is its pickle."""

    key: int
    pickled: bytes


class _SharedLegals:
    """The server's fixed legal lists, pickled once each (the last :data:`SHARED_LEGAL_KEPT` seen), by
    identity: each is kept alive while it is here, so its ``id`` names no other list meanwhile."""

    def __init__(self) -> None:
        self._kept: OrderedDict[int, tuple[Sequence[Hashable], SharedLegal]] = OrderedDict()
        self._keys = itertools.count(1)

    def share(self, legal: Sequence[Hashable]) -> SharedLegal:
        found = self._kept.get(id(legal))
        if found is not None and found[0] is legal:
            self._kept.move_to_end(id(legal))
            return found[1]
        shared = SharedLegal(next(self._keys), pickle.dumps(legal, protocol=pickle.HIGHEST_PROTOCOL))
        self._kept[id(legal)] = (legal, shared)
        if len(self._kept) > SHARED_LEGAL_KEPT:
            self._kept.popitem(last=False)
        return shared


class WorkerLostError(Exception):
    """A worker process ended (or was ended) before it answered."""


class _Worker:
    """One worker process (:mod:`coven.server.botworker`) and what it was asked and has not answered.

    Requests are written to its input and answers read from its output by the event loop itself: a
    decision costs the server one write and one read, and no thread of its own (an executor's queue
    threads woke, took the interpreter lock and handed each decision over, several times per decision)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pending: dict[int, asyncio.Future[Any]] = {}
        """The answers awaited, in the order asked: the worker takes its requests one at a time, in that
        order, so the first is the one it is thinking over."""
        self.started: dict[int, float] = {}
        """When (the loop's clock) the worker started on the request it is thinking over."""
        self.alive = True
        self._reader = asyncio.create_task(self._read(), name=f"coven-bot-worker-{process.pid}")

    @property
    def pid(self) -> int:
        return self.process.pid

    async def _read(self) -> None:
        output = self.process.stdout
        assert output is not None
        try:
            while True:
                (size,) = HEADER.unpack(await output.readexactly(HEADER.size))
                number, ok, value = pickle.loads(await output.readexactly(size))
                future = self.pending.pop(number, None)
                self.started.pop(number, None)
                for queued in self.pending:  # the next in line is the one it thinks over now
                    self.started[queued] = asyncio.get_running_loop().time()
                    break
                if future is None or future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(RuntimeError(str(value)))
        except (asyncio.IncompleteReadError, ConnectionError):  # the worker is gone, with what it was asked
            if self.alive:  # (not ended here: killed from outside, or it crashed, busy or idle)
                log.warning("a bot worker died (process %d); a new one starts when it is needed", self.pid)
        except Exception as exc:  # an answer that cannot be read: the worker is of no more use
            log.warning("a bot worker's answer could not be read (%s); it is replaced", type(exc).__name__)
        finally:
            self._lost()

    def _lost(self) -> None:
        self.alive = False
        pending, self.pending = self.pending, {}
        self.started.clear()
        for future in pending.values():
            if not future.done():
                future.set_exception(WorkerLostError())
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        if self.process.stdin is not None:
            self.process.stdin.close()

    def ask(self, number: int, request: bytes) -> asyncio.Future[Any]:
        """Send a request (a frame's pickle); its answer comes back in the future."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if not self.alive or self.process.stdin is None:
            future.set_exception(WorkerLostError())
            return future
        if not self.pending:
            self.started[number] = future.get_loop().time()
        self.pending[number] = future
        self.process.stdin.write(HEADER.pack(len(request)) + request)
        return future

    async def answer(self, number: int, future: asyncio.Future[Any], budget: float) -> Any:
        """The answer to request ``number`` (``future``, from :meth:`ask`); TimeoutError (the request
        given up) once the worker has thought over it for ``budget`` seconds. Time spent queued behind
        other requests does not count: a decision queued behind other tables' must not run out of time
        (and have its worker killed, with all that is queued on it) before it began."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                since = self.started.get(number)
                left = budget if since is None else since + budget - loop.time()
                if left <= 0 and not future.done():
                    future.cancel()
                    raise TimeoutError
                await asyncio.wait((future,), timeout=max(left, 0.0))
                if future.done():
                    return future.result()
        except asyncio.CancelledError:
            future.cancel()  # (nobody awaits the answer any more)
            raise

    def kill(self) -> None:
        """End the worker now (a runaway decision must not keep a core); its pending requests are lost.
        Its reader ends when the process has (see :meth:`ended`)."""
        self._lost()

    async def ended(self) -> None:
        """Wait until the process has ended and its pipes are read to their end."""
        await asyncio.shield(self._reader)
        await self.process.wait()


class BotPool:
    """Runs bots' decisions with a budget; ``processes`` > 0: in that many worker processes (the games
    come from :data:`coven.games.REGISTRY`); 0: in ``threads`` threads of this process. Each worker (or
    thread) thinks over one decision at a time, and the decisions waiting are shared out fairly between
    the tables' creators (:class:`FairTurns`)."""

    def __init__(self, processes: int, threads: int, budget: float) -> None:
        self.processes = processes
        self.threads = max(1, threads)
        self.budget = budget
        self._workers: list[_Worker] = []
        self._threads: ThreadPoolExecutor | None = None
        self._overdue: dict[int, Future[Any]] = {}
        """In threads: the decisions still thinking past their budget, by their bot's id (the future
        holds the bot, so the id is not another's meanwhile); a bot in it is not asked again."""
        self._numbers = itertools.count(1)
        self._starting: asyncio.Lock | None = None
        self._shared = _SharedLegals()
        self.turns = FairTurns(self.processes if self.processes > 0 else self.threads)
        """Who thinks next: one slot per worker (or thread)."""
        self._deriver: _Worker | None = None
        self._derive_thread: ThreadPoolExecutor | None = None
        self.derivations = FairTurns(1)
        """Whose views are derived next (see :meth:`derive`)."""

    @property
    def in_processes(self) -> bool:
        return self.processes > 0

    @property
    def overdue(self) -> int:
        """In threads: how many bots still think over a decision past its budget (asked nothing
        meanwhile)."""
        return len(self._overdue)

    def worker_pids(self) -> list[int]:
        """The process ids of the live workers (none before the first decision)."""
        return [worker.pid for worker in self._workers if worker.alive]

    def deriver_pid(self) -> int | None:
        """The process id of the live worker that derives views (see :meth:`derive`), if one runs."""
        deriver = self._deriver
        return deriver.pid if deriver is not None and deriver.alive else None

    async def _worker(self) -> _Worker:
        """The live worker with the fewest decisions waiting, after starting any that are missing."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:  # two decisions at once start the missing workers once
            self._workers = [worker for worker in self._workers if worker.alive]
            while len(self._workers) < self.processes:
                self._workers.append(await _start_worker())
        return min(self._workers, key=lambda worker: len(worker.pending))

    async def _deriving_worker(self) -> _Worker:
        """The worker that derives views, started if none runs (one at a time: under the derivations'
        turn)."""
        if self._deriver is None or not self._deriver.alive:
            self._deriver = await _start_worker("--derive")
        return self._deriver

    async def decide(
        self,
        bot: Bot,
        where: tuple[str, str, Seat, str, int],
        view: Any,
        legal: Sequence[Hashable],
        required: bool,
        share: Hashable | None = None,
    ) -> Hashable | None:
        """The bot's choice (``None``: a pass), or the fallback after its budget or its worker's loss.

        ``where`` is (game id, table id, seat, bot name, seed): what a worker process needs to build the
        same bot; ``bot`` is the one built here, used when thinking in threads. ``share``: whose turn the
        decision waits for (the table's creator; None: the table's own). The budget counts from when a
        worker starts on it, not while it waits its turn."""
        game_id, table_id, seat, name, seed = where
        turn = self.turns.turn(("table", table_id) if share is None else ("share", share))
        if not self.in_processes:
            call = functools.partial(bot.act, view, legal, required)
            async with turn:
                if id(bot) in self._overdue:  # its thread still thinks over an earlier decision
                    log.warning(
                        "bot %s of seat %s on table %s still thinks past its budget", name, seat, table_id
                    )
                    return legal[0] if required and len(legal) else None
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(self.threads, thread_name_prefix="coven-bot")
                thought = self._threads.submit(call)
                try:
                    return await asyncio.wait_for(asyncio.wrap_future(thought), self.budget)
                except TimeoutError:  # a thread cannot be stopped: later decisions get new threads
                    self._late(f"bot {name} of seat {seat}", table_id, self.budget)
                    threads, self._threads = self._threads, None
                    threads.shutdown(wait=False, cancel_futures=True)
                    # the bot is asked nothing more until that thought ends: two act() of one bot at
                    # once would share its caches and random stream
                    self._overdue[id(bot)] = thought
                    thought.add_done_callback(lambda _: self._overdue.pop(id(bot), None))
                    return legal[0] if required and len(legal) else None
        sent: Sequence[Hashable] | SharedLegal = self._shared.share(legal) if is_fixed(legal) else legal
        async with turn:
            try:
                answer: Hashable | None = await self._ask(
                    ("decide", game_id, table_id, seat, name, seed, view, sent, required), self.budget
                )
                return answer
            except TimeoutError:
                self._late(f"bot {name} of seat {seat}", table_id, self.budget)
            except WorkerLostError:
                pass
        return legal[0] if required and len(legal) else None

    async def derive(
        self, game: AnyGame, table_id: str, views: dict[K, Any], share: Hashable | None = None
    ) -> dict[K, Any] | None:
        """The bare ``views`` of a table of ``game`` (by seat, or any key) with their derived part
        (:meth:`Game.derive_view`), or None if that took more than :data:`DERIVE_BUDGET` seconds (its
        worker is ended) or failed: the table shows its views bare for that step.

        They are worked out by a worker of their own (or, without worker processes, a thread of their
        own), never behind the bots' decisions, which take seconds where a derivation takes milliseconds
        and a person waits for it to see their move; and at the server's priority, not the bots' lowest.
        The tables' derivations take turns by ``share`` (as for :meth:`decide`)."""
        budget = min(self.budget, DERIVE_BUDGET)
        async with self.derivations.turn(("table", table_id) if share is None else ("share", share)):
            try:
                if not self.in_processes:
                    loop = asyncio.get_running_loop()
                    if self._derive_thread is None:
                        self._derive_thread = ThreadPoolExecutor(1, thread_name_prefix="coven-derive")
                    call = functools.partial(derive_all, game, views)
                    return await asyncio.wait_for(loop.run_in_executor(self._derive_thread, call), budget)
                request = ("derive", game.spec.id, views)
                derived: dict[K, Any] = await self._ask(request, budget, self._deriving_worker)
                return derived
            except TimeoutError:
                self._late("the views", table_id, budget)
                if self._derive_thread is not None:  # a thread cannot be stopped: the next gets a new one
                    self._derive_thread.shutdown(wait=False, cancel_futures=True)
                    self._derive_thread = None
            except Exception:  # a game's derivation that fails: its views go out bare
                log.exception("the views of table %s could not be derived", table_id)
        return None

    async def _ask(
        self,
        request: tuple[Any, ...],
        budget: float,
        worker_of: Callable[[], Awaitable[_Worker]] | None = None,
    ) -> Any:
        """A worker's answer to ``request`` (its kind and arguments, see :mod:`coven.server.botworker`),
        from a bot worker or ``worker_of``'s: asked once more of a new worker if the first is lost;
        TimeoutError, the worker ended, once it thought over it for ``budget`` seconds; WorkerLostError
        if the second is lost too."""
        number = next(self._numbers)
        body = pickle.dumps((number, *request), protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            worker = await (self._worker() if worker_of is None else worker_of())
            try:
                future = worker.ask(number, body)
                return await worker.answer(number, future, budget)
            except TimeoutError:
                worker.kill()
                raise
            except WorkerLostError:
                log.warning("a bot worker died (a request of %s); attempt %d", request[0], attempt)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _late(self, what: str, table_id: str, budget: float) -> None:
        log.warning("%s on table %s ran past %.0f s", what, table_id, budget)

    async def close(self) -> None:
        """End the workers, and wait for them (briefly); the threads end once their decisions are done."""
        workers, self._workers = self._workers, []
        if self._deriver is not None:
            workers.append(self._deriver)
            self._deriver = None
        for worker in workers:
            worker.kill()
        for worker in workers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(worker.ended(), 5.0)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
        if self._derive_thread is not None:
            self._derive_thread.shutdown(wait=False, cancel_futures=True)
            self._derive_thread = None


async def _start_worker(*arguments: str) -> _Worker:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "coven.server.botworker",
        *arguments,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    return _Worker(process)


def derive_all(game: AnyGame, views: dict[K, Any]) -> dict[K, Any]:
    """The bare ``views`` of ``game`` (by seat, or any key) with their derived part: what a deriver does,
    a worker process's or a thread of this one's."""
    return {key: game.derive_view(view) for key, view in views.items()}
