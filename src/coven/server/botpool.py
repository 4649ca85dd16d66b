"""Where the server's bots think: in worker processes (outside the server's interpreter lock), or in
threads of the server's own process.

A decision is a pure function of the bot's seat view and legal actions (a bot is a function of its view),
so it can run anywhere: a worker process receives the game's id, the bot's name, its seat and seed, the
view and the legal actions, and returns the action. Each worker keeps the bots it has built (so a bot's
random stream and caches carry over between its decisions when they land on the same worker).

Every decision has a time budget. A decision past it, or lost with its worker (a crash, the operating
system's OOM killer), is answered by the game's first legal action for a required decision and by a pass
for an optional one, and the pool is rebuilt, so a bot table never waits on a dead worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from coven.core import Bot, Seat

log = logging.getLogger("coven.server")

_BOTS: OrderedDict[tuple[str, Seat, str, int], Bot] = OrderedDict()
"""A worker's bots, by (table, seat, bot name, seed); the least recently used go first."""
_MAX_BOTS = 512
WORKER_NICENESS = 19
"""How much lower than the server's a bot worker's scheduling priority is (see ``nice(1)``; 19 is the
lowest there is)."""


def _decide(
    game_id: str, table_id: str, seat: Seat, bot: str, seed: int, view: Any, legal: Any, required: bool
) -> Hashable | None:
    """Run in a worker process: the decision of ``bot`` at ``seat`` from its view alone."""
    from coven.bots.arena import make_bot
    from coven.games import get_game

    key = (table_id, seat, bot, seed)
    thinker = _BOTS.get(key)
    if thinker is None:
        thinker = make_bot(get_game(game_id), bot, seat, seed)
        _BOTS[key] = thinker
        if len(_BOTS) > _MAX_BOTS:
            _BOTS.popitem(last=False)
    else:
        _BOTS.move_to_end(key)
    action: Hashable | None = thinker.act(view, legal, required)
    return action


def _warm(parent: int) -> None:
    """Start a worker: import the games once (not on its first decision), and end the worker when the
    server that spawned it is gone, however it went (a SIGKILL leaves no time to stop its workers)."""
    import coven.bots.arena
    import coven.games  # noqa: F401

    # People first: a worker thinks at the lowest scheduling priority (nice 19: about 1.5 % of a core
    # it shares with the server), so on a busy machine the operating system gives the people's moves the
    # processor before the bots' searches, yet a bot is never starved outright. On Linux it is also a
    # batch task (SCHED_BATCH): the scheduler takes it for the CPU-bound work it is and never lets its
    # wake-ups preempt the server. (Nice 10 still took about a tenth of a shared core: coven bench server
    # --bot-tables 4 with one worker on 2 cores moved the people's ack p50 3.4 -> 4.8-6.0 ms with it,
    # 4.5-4.6 ms at nice 19.)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="coven-bot-parent-watch", daemon=True).start()


class BotPool:
    """Runs bots' decisions with a budget; ``processes`` > 0: in that many worker processes (the games
    come from :data:`coven.games.REGISTRY`); 0: in ``threads`` threads of this process."""

    def __init__(self, processes: int, threads: int, budget: float) -> None:
        self.processes = processes
        self.threads = max(1, threads)
        self.budget = budget
        self._executor: Executor | None = None

    @property
    def in_processes(self) -> bool:
        return self.processes > 0

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.in_processes:
                context = multiprocessing.get_context("spawn")  # no fork of a threaded, async server
                self._executor = ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_warm, initargs=(os.getpid(),)
                )
            else:
                self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="coven-bot")
        return self._executor

    def _rebuild(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a runaway decision must not keep a core
            if process.is_alive():
                process.kill()

    async def decide(
        self,
        bot: Bot,
        where: tuple[str, str, Seat, str, int],
        view: Any,
        legal: Sequence[Hashable],
        required: bool,
    ) -> Hashable | None:
        """The bot's choice (``None``: a pass), or the fallback after its budget or its worker's loss.

        ``where`` is (game id, table id, seat, bot name, seed): what a worker process needs to build the
        same bot; ``bot`` is the one built here, used when thinking in threads."""
        loop = asyncio.get_running_loop()
        game_id, table_id, seat, name, seed = where
        for attempt in (1, 2):
            if self.in_processes:
                call = functools.partial(_decide, game_id, table_id, seat, name, seed, view, legal, required)
            else:
                call = functools.partial(bot.act, view, legal, required)
            try:
                return await asyncio.wait_for(loop.run_in_executor(self._pool(), call), self.budget)
            except TimeoutError:
                budget = self.budget
                log.warning("bot %s of seat %s on table %s ran past %.0f s", name, seat, table_id, budget)
                self._rebuild()
                break
            except BrokenProcessPool:
                log.warning("a bot worker died (table %s, seat %s); attempt %d", table_id, seat, attempt)
                self._rebuild()
        return legal[0] if required and len(legal) else None

    def close(self) -> None:
        self._rebuild()
