"""Group commit: steps of many tables arriving together share one transaction; a conflict in the batch
refuses only its own step."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import String, cast, event, select
from sqlalchemy.exc import IntegrityError

from coven.server.commits import GroupCommit
from coven.store import (
    ConflictError,
    PendingClaim,
    PendingStep,
    PendingTable,
    Store,
    StoredSeat,
    StoredTable,
)
from coven.store.models import ActionRow, TableRow


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    s = Store(database_url)
    s.migrate()
    yield s
    s.dispose()


def _table(table_id: str) -> StoredTable:
    seats = (StoredSeat(0, "bot", "b", "random", None, True), StoredSeat(1, "bot", "b", "random", None, True))
    return StoredTable(table_id, "toy", 2, {}, 1, "playing", 0, datetime.now(UTC), seats)


def test_a_batch_commits_each_step_that_is_next_and_only_those(store: Store) -> None:
    for i in range(3):
        store.create_table(_table(f"g{i}"))
    steps = [
        PendingStep("g0", 1, 0, "a", "playing"),
        PendingStep("g1", 2, 0, "b", "playing"),  # g1 is at 0: not its next step
        PendingStep("g2", 1, 1, "c", "over"),
        PendingStep("g0", 2, 1, "d", "playing"),  # g0's next, after the first in this batch
    ]
    assert store.append_actions(steps) == [True, False, True, True]
    assert store.actions_after("g0", 0) == [(1, 0, "a"), (2, 1, "d")]
    assert store.actions_after("g1", 0) == []
    assert store.progress(["g0", "g1", "g2"]) == {
        "g0": (2, "playing"),
        "g1": (0, "playing"),
        "g2": (1, "over"),
    }


def test_steps_arriving_together_share_a_transaction(store: Store) -> None:
    tables = [f"t{i}" for i in range(40)]
    for table_id in tables:
        store.create_table(_table(table_id))
    commits = GroupCommit(store)

    async def play() -> list[BaseException | None]:
        steps = [PendingStep(t, 1, 0, "x", "playing") for t in tables]
        steps.append(PendingStep("t0", 5, 0, "late", "playing"))  # not t0's next: refused alone
        return await asyncio.gather(*(commits.append(s) for s in steps), return_exceptions=True)

    outcomes = asyncio.run(play())
    assert outcomes[:-1] == [None] * len(tables)
    assert isinstance(outcomes[-1], ConflictError)
    assert commits.batches <= 2, f"{len(tables)} steps took {commits.batches} transactions"
    assert all(store.actions_after(t, 0) == [(1, 0, "x")] for t in tables)


def _rows(store: Store, table_id: str) -> list[tuple[object, ...]]:
    with store.engine.connect() as conn:
        actions = conn.execute(
            select(ActionRow.number, ActionRow.seat, ActionRow.action, cast(ActionRow.created_at, String))
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.number)
        ).all()
        table = conn.execute(
            select(TableRow.number, TableRow.status, cast(TableRow.updated_at, String)).where(
                TableRow.id == table_id
            )
        ).one()
    return [tuple(row) for row in actions] + [tuple(table)]


def test_the_usual_batch_runs_on_the_driver_and_writes_what_sqlalchemy_writes(store: Store) -> None:
    store.create_table(_table("fast"))
    store.create_table(_table("slow"))
    through_sqlalchemy: list[str] = []
    listen = lambda *args: through_sqlalchemy.append(args[2])  # noqa: E731 - (conn, cursor, statement, ...)
    event.listen(store.engine, "before_cursor_execute", listen)
    try:
        assert store.append_actions([PendingStep("fast", 1, 0, "a", "playing")]) == [True]
        assert through_sqlalchemy == [], "a batch with every step in place goes straight to the driver"
        # a batch with a conflict in it is done again through SQLAlchemy, step by step
        late = PendingStep("slow", 9, 0, "z", "playing")
        assert store.append_actions([PendingStep("slow", 1, 0, "a", "playing"), late]) == [True, False]
        assert through_sqlalchemy, "the conflicting batch went through SQLAlchemy"
    finally:
        event.remove(store.engine, "before_cursor_execute", listen)
    fast, slow = _rows(store, "fast"), _rows(store, "slow")
    assert [r[:3] for r in fast[:-1]] == [r[:3] for r in slow[:-1]] == [(1, 0, "a")]
    assert fast[-1][:2] == slow[-1][:2] == (1, "playing")

    # the timestamps are stored in the same form (SQLite keeps text: the form SQLAlchemy reads back),
    # digits aside (PostgreSQL's text drops a fraction's trailing zeros)
    def shape(text: object) -> str:
        return re.sub(r"\.\d+", "", re.sub(r"\d", "0", str(text)))

    assert shape(fast[0][3]) == shape(slow[0][3]) and shape(fast[-1][2]) == shape(slow[-1][2])
    loaded = store.load_table("fast")
    assert loaded is not None and loaded.actions == ((0, "a"),)


def test_a_large_batch_goes_straight_to_the_driver_and_keeps_every_notation(store: Store) -> None:
    # on PostgreSQL the batch's steps travel as arrays, one statement for them all: notations with quotes,
    # commas, braces, backslashes, NULL's name or nothing at all must come back as they went
    odd = ["a", 'say "hi", {x}', "back\\slash", "NULL", "", "ünïcode ✓", "it's", "{}"]
    tables = [f"b{i}" for i in range(30)]
    for table_id in tables:
        store.create_table(_table(table_id))
    store.append_actions([PendingStep("b0", 1, 0, "first", "playing")])
    numbers = {t: (2 if t == "b0" else 1) for t in tables}
    ending = {"b7", "b29"}
    steps = [
        PendingStep(t, numbers[t], i % 2, odd[i % len(odd)], "over" if t in ending else "playing")
        for i, t in enumerate(tables)
    ]
    through_sqlalchemy: list[str] = []
    listen = lambda *args: through_sqlalchemy.append(args[2])  # noqa: E731 - (conn, cursor, statement, ...)
    event.listen(store.engine, "before_cursor_execute", listen)
    try:
        assert store.append_actions(steps) == [True] * len(tables)
    finally:
        event.remove(store.engine, "before_cursor_execute", listen)
    assert through_sqlalchemy == [], "every step was in place: the batch went straight to the driver"
    for i, table_id in enumerate(tables):
        logged = store.actions_after(table_id, numbers[table_id] - 1)
        assert logged == [(numbers[table_id], i % 2, odd[i % len(odd)])]
    expected = {t: (numbers[t], "over" if t in ending else "playing") for t in tables}
    assert store.progress(tables) == expected
    # and a batch naming one table twice still commits both of its steps, in order
    twice = [PendingStep("b1", 2, 0, "x", "playing"), PendingStep("b1", 3, 1, "y", "playing")]
    assert store.append_actions(twice) == [True, True]
    assert store.actions_after("b1", 1) == [(2, 0, "x"), (3, 1, "y")]


def test_a_driver_failure_falls_back_to_sqlalchemy(store: Store) -> None:
    store.create_table(_table("t"))
    broken = "INSERT INTO no_such_table VALUES (1)"  # the driver fails after the first statement
    store._log.sql = broken
    if store._all is not None:  # (PostgreSQL: the batch's log in one statement)
        store._all[1].sql = broken
    assert store.append_actions([PendingStep("t", 1, 0, "a", "over")]) == [True]
    assert store.actions_after("t", 0) == [(1, 0, "a")]
    assert store.progress(["t"]) == {"t": (1, "over")}


def test_the_commit_thread_is_named_where_the_system_shows_threads(store: Store) -> None:
    from pathlib import Path

    from coven.server.commits import THREAD_NAME

    store.create_table(_table("n"))
    commits = GroupCommit(store)
    asyncio.run(commits.append(PendingStep("n", 1, 0, "a", "playing")))
    try:
        thread = commits._thread
        assert thread is not None and thread.native_id is not None
        comm = Path(f"/proc/self/task/{thread.native_id}/comm")
        if not comm.parent.exists():
            pytest.skip("no /proc here")
        assert comm.read_text().strip() == THREAD_NAME
    finally:
        commits.close()


class _Fatal(BaseException):
    """What no ``except Exception`` catches: it kills the commit thread."""


def test_a_dying_commit_thread_fails_its_steps_and_the_next_step_gets_a_new_thread(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    store.create_table(_table("d0"))
    commits = GroupCommit(store)
    real = store.append_actions
    calls = 0

    def append_actions(steps: list[PendingStep]) -> list[bool]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise _Fatal("the thread dies")
        return real(steps)

    monkeypatch.setattr(store, "append_actions", append_actions)
    monkeypatch.setattr(threading, "excepthook", lambda args: None)  # the dying thread's report

    async def play() -> tuple[BaseException | None, BaseException | None]:
        first = await asyncio.wait_for(
            asyncio.gather(commits.append(PendingStep("d0", 1, 0, "a", "playing")), return_exceptions=True),
            timeout=10,
        )
        second = await asyncio.wait_for(
            asyncio.gather(commits.append(PendingStep("d0", 1, 0, "b", "playing")), return_exceptions=True),
            timeout=10,
        )
        return first[0], second[0]

    first, second = asyncio.run(play())
    assert isinstance(first, _Fatal)  # answered, not left waiting
    assert second is None
    assert store.actions_after("d0", 0) == [(1, 0, "b")]
    commits.close()


def _waiting(table_id: str, people: int = 2) -> StoredTable:
    seats = tuple(StoredSeat(i, "human", f"p{i}", None, f"{i}" * 64, False) for i in range(people))
    return StoredTable(table_id, "toy", people, {}, 1, "waiting", 0, datetime.now(UTC), seats)


def test_new_tables_claims_and_steps_arriving_together_share_a_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_table(_table("playing"))
    store.create_table(_waiting("joining"))
    commits = GroupCommit(store)
    transactions = 0
    on_driver = store._on_driver

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal transactions
        transactions += 1
        return on_driver(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_on_driver", counted)

    async def arrive() -> list[object]:
        return await asyncio.gather(
            *(commits.create(PendingTable(_waiting(f"new{i}"), "node-a", 30.0)) for i in range(5)),
            commits.claim("joining", 0),
            commits.claim("joining", 1),
            commits.append(PendingStep("playing", 1, 0, "x", "playing")),
            commits.claim("nowhere", 0),
            return_exceptions=True,
        )

    outcomes = asyncio.run(arrive())
    commits.close()
    assert outcomes == [None] * 5 + [(True, "waiting"), (True, "playing"), None, (False, "unknown")]
    assert transactions <= 2, f"9 writes took {transactions} transactions"
    assert commits.batches == 1  # (batches count the transactions that committed steps)
    for i in range(5):
        new = store.load_table(f"new{i}")
        assert new is not None and new.status == "waiting" and len(new.seats) == 2
    assert sorted(store.orphaned_ids()) == ["joining", "playing"]  # the new tables' lease is node-a's
    joining = store.load_table("joining")
    assert joining is not None and joining.status == "playing" and all(s.claimed for s in joining.seats)
    assert store.actions_after("playing", 0) == [(1, 0, "x")]


def test_a_write_refused_in_a_mixed_batch_refuses_only_itself(store: Store) -> None:
    store.create_table(_table("p"))
    store.create_table(_waiting("w"))
    store.create_table(_waiting("taken"))
    writes = [
        PendingTable(_waiting("fresh")),
        PendingClaim("w", 1),
        PendingStep("p", 1, 0, "a", "playing"),
        PendingStep("p", 7, 0, "late", "playing"),  # not p's next step: the batch is done part by part
        PendingTable(_waiting("taken")),  # the id exists: this table alone is refused
    ]
    outcomes = store.write_batch(writes)
    assert outcomes[:4] == [None, (True, "waiting"), True, False]
    assert isinstance(outcomes[4], IntegrityError)
    assert store.actions_after("p", 0) == [(1, 0, "a")]
    fresh = store.load_table("fresh")
    assert fresh is not None and fresh.status == "waiting"
    waiting = store.load_table("w")
    assert waiting is not None and [s.claimed for s in waiting.seats] == [False, True]
    # the usual mixed batch, every step in place: all of it at once
    assert store.write_batch([PendingClaim("w", 0), PendingStep("p", 2, 1, "b", "over")]) == [
        (True, "playing"),
        True,
    ]
    assert store.progress(["p", "w"]) == {"p": (2, "over"), "w": (0, "playing")}


def test_steps_arriving_within_the_interval_share_the_next_transaction(store: Store) -> None:
    tables = [f"s{i}" for i in range(6)]
    for table_id in tables:
        store.create_table(_table(table_id))
    commits = GroupCommit(store, interval=1.0)

    async def play() -> None:
        await commits.append(PendingStep("s0", 1, 0, "first", "playing"))  # the store was idle: at once
        later = []
        for table_id in tables[1:]:  # one after the other, as moves of other tables come in
            later.append(asyncio.ensure_future(commits.append(PendingStep(table_id, 1, 0, "x", "playing"))))
            await asyncio.sleep(0.01)
        await asyncio.gather(*later)

    asyncio.run(play())
    commits.close()
    assert commits.batches == 2, f"the five later steps took {commits.batches - 1} transactions, not one"
    assert all(store.actions_after(t, 0) for t in tables)


def test_an_idle_store_commits_at_once_and_close_does_not_wait_for_the_interval(store: Store) -> None:
    store.create_table(_table("i0"))
    store.create_table(_table("i1"))
    commits = GroupCommit(store, interval=600.0)

    async def play() -> None:
        # no transaction for longer than the interval (none yet): no wait
        await asyncio.wait_for(commits.append(PendingStep("i0", 1, 0, "a", "playing")), 60.0)
        waiting = asyncio.ensure_future(commits.append(PendingStep("i1", 1, 0, "b", "playing")))
        await asyncio.sleep(0.05)
        assert not waiting.done()  # within the interval: it waits for more company
        await asyncio.wait_for(asyncio.to_thread(commits.close), 60.0)  # closing commits it now
        await asyncio.wait_for(waiting, 60.0)

    asyncio.run(play())
    assert store.actions_after("i1", 0) == [(1, 0, "b")]


# ------------------------------------------------------------------ the store's writer process
def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a child that ended and was not yet waited for is a zombie
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_the_writer_process_commits_what_the_commit_thread_would(store: Store) -> None:
    import os
    from pathlib import Path

    from coven.server.commits import THREAD_NAME

    store.create_table(_table("playing"))
    store.create_table(_waiting("joining"))
    store.create_table(_waiting("taken"))
    commits = GroupCommit(store, process=True)
    assert commits.writer is not None

    async def arrive() -> list[object]:
        return await asyncio.gather(
            *(commits.create(PendingTable(_waiting(f"new{i}"), "node-a", 30.0)) for i in range(3)),
            commits.claim("joining", 0),
            commits.claim("joining", 1),
            commits.append(PendingStep("playing", 1, 0, "x", "playing")),
            commits.append(PendingStep("playing", 9, 0, "late", "playing")),  # not its next: refused
            commits.create(PendingTable(_waiting("taken"))),  # the id exists: refused alone
            return_exceptions=True,
        )

    try:
        outcomes = asyncio.run(arrive())
        pid = commits.writer.pid
        assert pid is not None and pid != os.getpid() and _alive(pid)
        if Path("/proc").exists():  # named as the commit thread is, for the tools that show threads
            assert Path(f"/proc/{pid}/comm").read_text().strip() == THREAD_NAME
    finally:
        commits.close()
    assert outcomes[:6] == [None] * 3 + [(True, "waiting"), (True, "playing"), None]
    assert isinstance(outcomes[6], ConflictError)
    assert isinstance(outcomes[7], IntegrityError)  # the database's own error, across the pipe
    assert commits.writer.answered >= 1 and commits.writer.started == 1
    assert not _alive(pid)  # close ended it
    assert store.actions_after("playing", 0) == [(1, 0, "x")]
    joining = store.load_table("joining")
    assert joining is not None and joining.status == "playing"
    assert all(store.load_table(f"new{i}") is not None for i in range(3))


def test_a_writer_that_dies_fails_its_batch_and_the_next_batch_gets_a_new_one(store: Store) -> None:
    import os
    import signal

    from coven.server.commits import WriterLostError

    store.create_table(_table("k"))
    commits = GroupCommit(store, process=True)
    assert commits.writer is not None

    async def play() -> list[object]:
        await commits.append(PendingStep("k", 1, 0, "a", "playing"))
        first = commits.writer.pid if commits.writer is not None else None
        assert first is not None
        os.kill(first, signal.SIGSTOP)  # it hangs with the next batch in its pipe ...
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, os.kill, first, signal.SIGKILL)  # ... and dies: the OOM killer, say
        lost = await asyncio.gather(
            commits.append(PendingStep("k", 2, 1, "b", "playing")), return_exceptions=True
        )
        after = await asyncio.gather(
            commits.append(PendingStep("k", 2, 1, "c", "playing")), return_exceptions=True
        )
        # a writer found dead before a batch is sent is replaced first: nothing fails
        second = commits.writer.pid if commits.writer is not None else None
        assert second is not None
        os.kill(second, signal.SIGKILL)
        await asyncio.sleep(0.2)
        again = await asyncio.gather(
            commits.append(PendingStep("k", 3, 0, "d", "playing")), return_exceptions=True
        )
        return [first, lost[0], after[0], again[0]]

    try:
        first, lost, after, again = asyncio.run(play())
        assert isinstance(lost, WriterLostError)  # answered at once, not left waiting
        assert after is None and again is None
        assert commits.writer is not None and commits.writer.started == 3 and commits.writer.pid != first
    finally:
        commits.close()
    assert store.actions_after("k", 0) == [(1, 0, "a"), (2, 1, "c"), (3, 0, "d")]


def test_the_writer_outlives_a_shutdown_signal_and_ends_with_its_input(store: Store) -> None:
    import os
    import signal
    import time

    store.create_table(_table("s"))
    commits = GroupCommit(store, process=True)
    assert commits.writer is not None

    async def play() -> int:
        await commits.append(PendingStep("s", 1, 0, "a", "playing"))
        pid = commits.writer.pid if commits.writer is not None else None
        assert pid is not None
        for sent in (signal.SIGTERM, signal.SIGINT):  # what a service manager or Ctrl-C sends the group
            os.kill(pid, sent)
        await asyncio.sleep(0.2)
        await commits.append(PendingStep("s", 2, 1, "b", "playing"))  # the shutdown's last moves
        return pid

    try:
        pid = asyncio.run(play())
        assert commits.writer is not None and commits.writer.pid == pid and commits.writer.started == 1
    finally:
        commits.close()
    assert store.actions_after("s", 0) == [(1, 0, "a"), (2, 1, "b")]
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:  # (close waited for it: at once)
        time.sleep(0.05)
    assert not _alive(pid)


@pytest.mark.parametrize("interpreter", ["/bin/false", "/nowhere/python3"])
def test_a_writer_that_cannot_run_leaves_the_commits_to_the_thread(
    store: Store, monkeypatch: pytest.MonkeyPatch, interpreter: str
) -> None:
    from coven.server import commits as commits_module
    from coven.server.commits import WriterLostError

    store.create_table(_table("f"))
    # an interpreter that fails at once, or none at all
    monkeypatch.setattr(commits_module.sys, "executable", interpreter)
    commits = GroupCommit(store, process=True)

    async def play() -> list[object]:
        outcomes: list[object] = []
        for letter in "abcd":  # the same step again until it is committed
            done = await asyncio.gather(
                commits.append(PendingStep("f", 1, 0, letter, "playing")), return_exceptions=True
            )
            outcomes.append(done[0])
            if done[0] is None:
                break
        return outcomes

    try:
        outcomes = asyncio.run(play())
    finally:
        commits.close()
    # started twice (once ahead of the first batch, whether it was seen to end before that batch or not),
    # never an answer: one or two batches fail, then the commit thread writes, as for a memory store
    *lost, committed = outcomes
    assert 1 <= len(lost) <= 2 and all(isinstance(outcome, WriterLostError) for outcome in lost)
    assert committed is None and commits.writer is None
    assert store.actions_after("f", 0) == [(1, 0, "abcd"[len(lost)])]


def test_a_store_in_memory_is_written_by_the_thread_only() -> None:
    memory = Store("sqlite://")
    memory.migrate()
    try:
        assert not memory.shared and GroupCommit(memory, process=True).writer is None
        memory.create_table(_table("m"))
        commits = GroupCommit(memory, process=True)
        asyncio.run(commits.append(PendingStep("m", 1, 0, "a", "playing")))
        commits.close()
        assert memory.actions_after("m", 0) == [(1, 0, "a")]
    finally:
        memory.dispose()


def test_an_error_that_cannot_be_pickled_reaches_the_server_as_its_text() -> None:
    import pickle

    from coven.server.commitworker import answer_frame
    from coven.server.frames import HEADER

    class OddError(Exception):
        def __init__(self) -> None:
            super().__init__("held a lock")
            self.lock = __import__("threading").Lock()  # no pickle for this

    def read(framed: bytes) -> object:
        (size,) = HEADER.unpack(framed[: HEADER.size])
        assert len(framed) == HEADER.size + size
        return pickle.loads(framed[HEADER.size :])

    ok, error = read(answer_frame(False, OddError()))  # type: ignore[misc]
    assert ok is False and isinstance(error, RuntimeError) and str(error) == "OddError: held a lock"
    ok, outcomes = read(answer_frame(True, [True, OddError(), (True, "playing")]))  # type: ignore[misc]
    assert ok is True and outcomes[0] is True and outcomes[2] == (True, "playing")
    assert isinstance(outcomes[1], RuntimeError) and str(outcomes[1]) == "OddError: held a lock"
    assert read(answer_frame(True, [None, False])) == (True, [None, False])  # the usual answer, as it is
