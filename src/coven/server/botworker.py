"""A bot worker process, ``python -m coven.server.botworker`` (see :class:`coven.server.botpool.BotPool`).

It reads requests from its standard input and writes each answer to its standard output, in frames of a
4-byte big-endian length and a pickle. A decision to make is ``(number, "decide", game id, table id,
seat, bot name, seed, view, legal actions, required)`` (the legal actions as they are, or, when they are
a list that never changes, a :class:`coven.server.botpool.SharedLegal`, read once and then kept),
answered ``(number, True, action or None)``. Views to finish are ``(number, "derive", game id, {key:
bare view})`` (keyed by seat, or by a replay's step), answered ``(number, True, {key: view})``
(:meth:`coven.core.Game.derive_view`: Amulets' deduction assistant, worked out here rather than on the
server's event loop). A request that failed is answered ``(number, False, error text)``. It decides one
request at a time, in the order they came, and ends when its input does (the server closed the pipe, or
is gone: however the server ended, its workers follow).
Anything a bot prints goes to the standard error, never into the answers.

The worker thinks at the lowest scheduling priority (see :data:`coven.server.botpool.WORKER_NICENESS`),
but the one started with ``--derive``, which derives views only: a person's move is shown once its
views are derived, so that worker runs at the server's own priority.
(The server's modules do not import this one: run as ``-m``, it is imported once, as ``__main__``.)
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import IO, Any

from coven.core import Bot, Seat
from coven.server.botpool import SHARED_LEGAL_KEPT, WORKER_NICENESS, SharedLegal, derive_all
from coven.server.frames import frame, read_frame

MAX_BOTS = 512
"""The bots a worker keeps (so a bot's random stream and caches carry over between its decisions); the
least recently used go first."""

_BOTS: OrderedDict[tuple[str, Seat, str, int], Bot] = OrderedDict()
_LEGALS: OrderedDict[int, Any] = OrderedDict()
"""The fixed legal lists read so far, by their key (see :class:`coven.server.botpool.SharedLegal`)."""


def legal_of(sent: Any) -> Any:
    """The legal actions a request carries: as they are, or a shared list, read once and then kept."""
    if not isinstance(sent, SharedLegal):
        return sent
    legal = _LEGALS.get(sent.key)
    if legal is None:
        legal = _LEGALS[sent.key] = pickle.loads(sent.pickled)
        if len(_LEGALS) > SHARED_LEGAL_KEPT:
            _LEGALS.popitem(last=False)
    else:
        _LEGALS.move_to_end(sent.key)
    return legal


def decide(
    game_id: str, table_id: str, seat: Seat, bot: str, seed: int, view: Any, legal: Any, required: bool
) -> Hashable | None:
    """The decision of ``bot`` at ``seat`` from its view alone (the bot is built once, then kept)."""
    from coven.bots.arena import make_bot
    from coven.games import get_game

    key = (table_id, seat, bot, seed)
    thinker = _BOTS.get(key)
    if thinker is None:
        thinker = make_bot(get_game(game_id), bot, seat, seed)
        _BOTS[key] = thinker
        if len(_BOTS) > MAX_BOTS:
            _BOTS.popitem(last=False)
    else:
        _BOTS.move_to_end(key)
    action: Hashable | None = thinker.act(view, legal_of(legal), required)
    return action


def derive(game_id: str, views: dict[Hashable, Any]) -> dict[Hashable, Any]:
    """The bare ``views`` of a game (by seat, or any key) with their derived part
    (:meth:`coven.core.Game.derive_view`)."""
    from coven.games import get_game

    return derive_all(get_game(game_id), views)


JOBS: dict[str, Callable[..., Any]] = {"decide": decide, "derive": derive}
"""What a request may ask, by its kind."""


def lower_priority() -> None:
    """People first: think at the lowest scheduling priority there is, so that on a busy machine the
    operating system gives the people's moves the processor before the bots' searches. On Linux an idle
    task (SCHED_IDLE): whenever the server or anything else of normal priority wakes, it takes the
    processor from the worker at once; elsewhere nice 19. A bot is never starved outright (an idle task
    still gets a sliver of a busy processor, and a decision past its budget is answered for it).

    Measured for issue 12 (Linux 6.18, whose EEVDF scheduler does not always let a waking task preempt a
    batch task), ``coven bench server --game commandments --tables 20`` beside a process playing its
    ``best`` bots without pause: the people's ack p99 went 37-41 -> 63-66 ms with that process at nice
    19 as a batch task (SCHED_BATCH, what workers were), and 36-37 -> 46-50 ms as an idle task; moves a
    second fell by a quarter and by a tenth."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """Answer every request of ``source`` on ``sink``, until ``source`` ends."""
    while (body := read_frame(source)) is not None:
        number, kind, *request = pickle.loads(body)
        try:
            answer: tuple[int, bool, Any] = (number, True, JOBS[kind](*request))
        except Exception as exc:  # the server answers for the bot; this worker goes on
            answer = (number, False, f"{type(exc).__name__}: {exc}"[:500])
        try:
            sink.write(frame(answer))
            sink.flush()
        except OSError:  # the server is gone (a broken pipe): nobody waits for answers any more
            return


def leave_with(parent: int) -> None:
    """End this worker within a second of the server that started it, however the server went (a
    decision in progress would otherwise run to its end before the closed pipe is seen)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="coven-bot-parent-watch", daemon=True).start()


def main() -> None:
    # Ctrl-C in a terminal reaches the whole process group: the server shuts down and ends its workers
    # (no traceback from each of them on the way)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    leave_with(os.getppid())
    if "--derive" not in sys.argv[1:]:  # a deriver works for people waiting on their move's frames
        lower_priority()
    import coven.bots.arena
    import coven.games  # noqa: F401  (the games, imported once rather than on the first decision)

    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a bot's print goes to the log, not into the answers
    serve(sys.stdin.buffer, answers)
    with contextlib.suppress(OSError):  # (what is left to flush has nowhere to go if the server is gone)
        answers.close()


if __name__ == "__main__":
    main()
