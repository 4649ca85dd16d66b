"""The store's writer process, ``python -m coven.server.commitworker`` (see
:class:`coven.server.commits.WriterProcess`).

Its input's first frame is the store's URL. It opens the store there (migrated already: the server
migrates it before it writes) and commits the batches of the server's group commit: it reads each batch
from its standard input and writes what became of it to its standard output, in frames
(:mod:`coven.server.frames`). A batch is a list of :data:`coven.store.PendingWrite`; its answer
``(True, outcomes)`` (one :data:`coven.store.WriteOutcome` for each write, in order), or
``(False, error)`` when the transaction failed as a whole (nothing of it is written). It commits one
batch at a time, in the order they came, and ends when its input does (the server closed the pipe, or
is gone), and only then: Ctrl-C and SIGTERM, which a terminal or a service manager sends to the whole
group at once, leave it to finish what the server's shutdown still commits.

Its operating system thread is named :data:`coven.server.commits.THREAD_NAME`, as the commit thread in
the server's own process is, so that tools (and ``coven bench server``) find its CPU time.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from typing import IO, Any

from coven.server.commits import THREAD_NAME, commit_batch, name_os_thread
from coven.server.frames import frame, read_frame
from coven.store import Store


def answer_frame(ok: bool, value: Any) -> bytes:
    """The answer as a frame; an error that cannot be pickled (a driver's exception may hold what cannot)
    is sent as a RuntimeError with its text."""
    try:
        return frame((ok, value))
    except Exception:
        if not ok:
            return frame((False, RuntimeError(_text(value))))
        plain = [
            RuntimeError(_text(outcome)) if isinstance(outcome, BaseException) else outcome
            for outcome in value
        ]
        return frame((True, plain))


def _text(error: object) -> str:
    return f"{type(error).__name__}: {error}"[:2000]


def serve(store: Store, source: IO[bytes], sink: IO[bytes]) -> None:
    """Commit every batch of ``source`` and answer it on ``sink``, until ``source`` ends."""
    while (body := read_frame(source)) is not None:
        writes = pickle.loads(body)
        try:
            answer = answer_frame(True, commit_batch(store, writes))
        except Exception as exc:  # the server fails the batch's writes; this writer goes on
            answer = answer_frame(False, exc)
        try:
            sink.write(answer)
            sink.flush()
        except OSError:  # the server is gone (a broken pipe): nobody waits for answers any more
            return


def main() -> None:
    # Ctrl-C in a terminal reaches the whole process group, and a service manager's stop may send SIGTERM
    # to every process of the service at once: the server shuts down gracefully, committing the moves in
    # flight, and closes this pipe. So the writer leaves when its input ends, not at those signals (it
    # would fail the last batches of the shutdown); however the server ends, its pipe does.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    name_os_thread(THREAD_NAME)
    first = read_frame(sys.stdin.buffer)  # the store's URL (not an argument: ``ps`` shows those)
    if first is None:
        return
    store = Store(pickle.loads(first))
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # anything printed goes to the log, not the answers
    try:
        serve(store, sys.stdin.buffer, answers)
    finally:
        store.dispose()
        with contextlib.suppress(OSError):
            answers.close()


if __name__ == "__main__":
    main()
