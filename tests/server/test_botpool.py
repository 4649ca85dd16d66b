"""Bots think in worker processes, with a time budget, and a table survives the loss of its worker."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from coven.server.botpool import WORKER_NICENESS
from coven.server.settings import Settings, default_bot_processes
from tests.server.conftest import TestClient
from tests.server.helpers import create, drain, hello, latest, wait_for, ws_url

REAL = {"games": None, "bot_processes": 1}
"""The global registry of games (worker processes know only it), one worker process."""


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def bots_only(client: TestClient, bot: str, players: int = 3) -> str:
    created = create(client, game="brujas", players=players, seats=[{"kind": "bot", "bot": bot}] * players)
    table_id: str = created["table"]["id"]
    return table_id


def test_bots_think_in_a_worker_process(make_client: Callable[..., TestClient]) -> None:
    client = make_client(**REAL)
    table_id = bots_only(client, "greedy")
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", seconds=120))
    assert final["result"] is not None
    workers = service(client).bot_pool.worker_pids()
    assert workers and all(pid != os.getpid() for pid in workers)
    # people first: the workers think at a lower scheduling priority than the server
    server_nice = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in workers:
        assert os.getpriority(os.PRIO_PROCESS, pid) >= min(19, server_nice + WORKER_NICENESS)
        if hasattr(os, "SCHED_IDLE"):  # Linux: an idle task, which the server preempts whenever it wakes
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE


def test_a_table_survives_the_loss_of_its_worker(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="coven.server")
    client = make_client(**REAL)
    table_id = bots_only(client, "greedy")
    pool = service(client).bot_pool
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        killed: list[int] = []
        deadline = time.monotonic() + 60
        while len(killed) < 2 and time.monotonic() < deadline:  # kill the worker twice, mid-game
            workers = pool.worker_pids()
            if workers and any(m.get("type") == "update" for m in drain(ws)):
                for pid in workers:
                    os.kill(pid, signal.SIGKILL)
                killed += workers
                time.sleep(0.3)
            time.sleep(0.02)
        assert len(killed) >= 2
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", seconds=240))
    assert final["result"] is not None
    said = [r.getMessage() for r in caplog.records]
    for pid in killed:  # each death is told, whether it was thinking (and asked again) or idle
        assert any(line.startswith(f"a bot worker died (process {pid})") for line in said), said


def test_a_bot_past_its_budget_is_answered_for(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="coven.server")
    client = make_client(**REAL, bot_budget_seconds=0.001)
    table_id = bots_only(client, "best")
    with client.websocket_connect(ws_url(table_id)) as ws:
        hello(ws)
        final = latest(wait_for(ws, lambda m: m.get("status") == "over", seconds=240))
    assert final["result"] is not None
    assert any("ran past" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (8, 7)])
def test_bot_workers_leave_a_core_to_people(
    monkeypatch: pytest.MonkeyPatch, cores: int, workers: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)), raising=False)
    assert default_bot_processes() == workers
    assert Settings().bot_processes == workers


@pytest.mark.parametrize("game_id", ["amulets", "brujas", "commandments", "namaste"])
def test_what_a_worker_receives_survives_pickling(game_id: str) -> None:
    """A worker gets a seat's view and legal actions pickled (compiled rules included: a native class
    that cannot be rebuilt from its pickle kills the worker at every decision)."""
    import pickle
    import random

    from coven.games import get_game

    game = get_game(game_id)
    players = game.spec.player_counts[0]
    rng = random.Random(7)
    state = game.new_game(players, None, 11)
    checked = 0
    while (seat := game.first_to_act(state)) is not None and checked < 40:
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        assert pickle.loads(pickle.dumps(view)) == view
        again = pickle.loads(pickle.dumps(legal))
        assert len(again) == len(legal)
        shown = range(min(len(legal), 50))
        assert [again[i] for i in shown] == [legal[i] for i in shown]
        game.advance(state, seat, legal[rng.randrange(len(legal))])
        checked += 1
    assert checked > 0


def test_a_worker_answers_each_request_in_its_frame() -> None:
    """The worker's side of the pipe: one answer per request, in order, by number; a bot that fails is
    answered with its error (the worker goes on), and the worker ends with its input."""
    import io
    import pickle

    from coven.games import get_game
    from coven.server.botworker import frame, read_frame, serve

    game = get_game("brujas")
    state = game.new_game(3, None, 5)
    seat = game.first_to_act(state)
    assert seat is not None
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    amulets = get_game("amulets")
    deduced = amulets.new_game(3, {"assistant": True}, 2)
    bare = amulets.bare_views(deduced, (0, None))
    assert all(v.assistant is None for v in bare.values())
    requests = io.BytesIO(
        frame((7, "decide", "brujas", "t1", seat, "random", 3, view, legal, True))
        + frame((8, "decide", "no-such-game", "t2", seat, "random", 3, view, legal, True))
        + frame((9, "decide", "brujas", "t1", seat, "random", 3, view, legal, True))
        + frame((10, "derive", "amulets", bare))
        + frame((11, "think", "brujas"))
    )
    answers = io.BytesIO()
    serve(requests, answers)
    answers.seek(0)
    got = []
    while (body := read_frame(answers)) is not None:
        got.append(pickle.loads(body))
    assert [(number, ok) for number, ok, _ in got] == [
        (7, True),
        (8, False),
        (9, True),
        (10, True),
        (11, False),
    ]
    assert got[0][2] in list(legal) and got[2][2] in list(legal)
    assert "no-such-game" in got[1][2] or "Unknown" in got[1][2]
    assert got[3][2] == amulets.views(deduced, (0, None))  # the views, derived in the worker
    assert got[3][2][0].assistant is not None
    assert "think" in got[4][2]  # a kind of request the worker does not know: refused, the worker goes on


def test_a_fixed_legal_list_is_pickled_once_and_read_once_by_a_worker() -> None:
    """A list of legal actions that never changes (The 3 Commandments' 2,521 novice moves) is pickled
    once by the server, not on the event loop at every decision, and read once by each worker."""
    import pickle

    from coven.games import get_game
    from coven.server import botworker
    from coven.server.botpool import SHARED_LEGAL_KEPT, SharedLegal, _SharedLegals

    game = get_game("commandments")
    state = game.new_game(3, None, 5)
    for _ in range(100):  # to the novice's move (the first ritual's ordainment and placements come first)
        seat = game.first_to_act(state)
        assert seat is not None
        legal = game.legal_actions(state, seat)
        if len(legal) > 1000:
            break
        game.apply(state, seat, legal[0])
    assert isinstance(legal, tuple) and len(legal) > 1000  # a constant of the game, the same each time
    assert game.legal_actions(state, seat) is legal

    shared = _SharedLegals()
    first = shared.share(legal)
    assert shared.share(legal) is first  # pickled once
    assert pickle.loads(first.pickled) == legal
    other = shared.share(("a", "b"))
    assert other.key != first.key
    for i in range(SHARED_LEGAL_KEPT + 1):  # bounded: the oldest are forgotten
        shared.share((i,))
    again = shared.share(legal)
    assert again.key not in {first.key, other.key} and pickle.loads(again.pickled) == legal

    # the worker reads it once: after that, the key alone names it
    assert botworker.legal_of(first) == legal
    assert botworker.legal_of(SharedLegal(first.key, b"not a pickle")) == legal
    assert botworker.legal_of(["x"]) == ["x"]  # a list sent as it is
    view = game.view(state, seat)
    assert botworker.decide("commandments", "t", seat, "random", 1, view, first, True) in legal


def test_a_worker_whose_server_is_gone_ends_quietly() -> None:
    """A worker that finishes a decision after its server went away (a broken pipe) ends at once, with
    nothing on its standard error (which is the server's log)."""
    import subprocess
    import sys

    from coven.games import get_game
    from coven.server.botworker import frame

    game = get_game("brujas")
    state = game.new_game(3, None, 5)
    seat = game.first_to_act(state)
    assert seat is not None
    request = frame(
        (
            1,
            "decide",
            "brujas",
            "t",
            seat,
            "random",
            1,
            game.view(state, seat),
            game.legal_actions(state, seat),
            True,
        )
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "coven.server.botworker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert worker.stdin is not None and worker.stdout is not None and worker.stderr is not None
    worker.stdout.close()  # the server's end of the answers is gone
    worker.stdin.write(request)
    worker.stdin.close()
    with worker.stderr:
        assert worker.wait(timeout=60) == 0
        assert worker.stderr.read() == b""


def test_a_worker_whose_answer_cannot_be_read_is_given_up(caplog: pytest.LogCaptureFixture) -> None:
    """An answer that is no pickle ends the worker: what it was asked fails as lost (the pool then asks a
    new worker), and the server logs why."""
    import asyncio
    import sys

    from coven.server.botpool import WorkerLostError, _Worker

    caplog.set_level(logging.WARNING, logger="coven.server")
    nonsense = (  # a frame of three bytes that are no pickle, then silence
        "import sys, time; sys.stdout.buffer.write(b'\\x00\\x00\\x00\\x03abc'); sys.stdout.flush(); "
        "time.sleep(30)"
    )

    async def ask() -> BaseException | None:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", nonsense, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        worker = _Worker(process)
        try:
            await asyncio.wait_for(worker.ask(1, b"request"), 20)
        except BaseException as exc:
            return exc
        finally:
            await asyncio.wait_for(worker.ended(), 20)
            assert not worker.alive and process.returncode is not None
        return None

    assert isinstance(asyncio.run(ask()), WorkerLostError)
    assert any("could not be read" in r.getMessage() for r in caplog.records)


SLOW_WORKER = """
import pickle, sys, time
from coven.server.botworker import frame, read_frame
while (body := read_frame(sys.stdin.buffer)) is not None:
    number = pickle.loads(body)[0]
    time.sleep(0.4)  # each decision takes 0.4 s of thinking
    sys.stdout.buffer.write(frame((number, True, f"answer {number}")))
    sys.stdout.buffer.flush()
"""


def test_a_decision_s_budget_counts_from_when_its_worker_starts_on_it() -> None:
    """A worker thinks over one decision at a time: decisions of other tables queued before this one must
    not use up its budget (four decisions of 0.4 s each on one worker, with a budget of 1 s: the last
    waited 1.2 s in line; counted from the queue, it and the one before ran out of time, and their worker
    was killed with them). One that thinks past its budget is still stopped."""
    import asyncio
    import pickle
    import sys

    from coven.server.botpool import _Worker

    async def ask(budget: float, count: int) -> list[object]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SLOW_WORKER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        worker = _Worker(process)
        try:
            # (once started: its first answer also waits for the process to start and import)
            assert await worker.answer(0, worker.ask(0, pickle.dumps((0, "warm up"))), 60) == "answer 0"
            asked = [(n, worker.ask(n, pickle.dumps((n, "request")))) for n in range(1, count + 1)]
            answers = [worker.answer(n, future, budget) for n, future in asked]
            return list(await asyncio.gather(*answers, return_exceptions=True))
        finally:
            worker.kill()
            await asyncio.wait_for(worker.ended(), 20)

    assert asyncio.run(ask(1.0, 4)) == [f"answer {n}" for n in range(1, 5)]
    late = asyncio.run(ask(0.2, 2))
    assert all(isinstance(answer, TimeoutError) for answer in late), late


class _Recorder:
    """A bot that notes, in ``order``, the name it was given when it starts, then thinks until ``gate``
    is open."""

    def __init__(self, name: str, order: list[str], gate: threading.Event) -> None:
        self.name, self.order, self.gate = name, order, gate

    def act(self, view: object, legal: Any, required: bool) -> object:
        self.order.append(self.name)
        assert self.gate.wait(10), "the gate never opened"
        return legal[0]


def _think_in_turn(asked: list[tuple[str, str | None]], threads: int = 1) -> list[str]:
    """Ask a pool of ``threads`` threads for one decision per (name, share) of ``asked``, in that order, one
    loop turn apart (each on a table of its own); the names in the order the bots started thinking. The
    first bots think until every decision is in line (however slow the machine: no timing decides the
    order)."""
    import asyncio

    from coven.server.botpool import BotPool

    order: list[str] = []
    gate = threading.Event()

    async def run() -> list[object]:
        pool = BotPool(0, threads, budget=30.0)
        decisions = []
        for i, (name, share) in enumerate(asked):
            bot = _Recorder(name, order, gate)
            where = ("brujas", f"table-{i}", 0, "recorder", 0)
            decisions.append(asyncio.create_task(pool.decide(bot, where, None, ["x"], True, share=share)))
            await asyncio.sleep(0)
        assert pool.turns.waiting == len(asked) - threads  # every decision is in line or thinking
        gate.set()
        answers = list(await asyncio.gather(*decisions))
        assert pool.turns.free == threads and pool.turns.waiting == 0
        await pool.close()
        return answers

    assert asyncio.run(run()) == ["x"] * len(asked)
    return order


def test_bots_think_in_turn_by_whoever_made_their_tables() -> None:
    """One creator's many bot tables take one turn in each round, not all turns first: a decision of
    another's table waits for at most one of theirs, however many they queued before it (first come,
    first served, it was the sixth). Within one creator, first come, first served."""
    flood = [(f"a{i}", "creator a") for i in range(5)]
    assert _think_in_turn([*flood, ("b0", "creator b")]) == ["a0", "a1", "b0", "a2", "a3", "a4"]
    alternating = [*flood[:3], ("b0", "creator b"), ("b1", "creator b"), ("c0", "creator c")]
    assert _think_in_turn(alternating) == ["a0", "a1", "b0", "c0", "a2", "b1"]
    # tables whose creator is unknown (loaded from the store) each count as their own
    assert _think_in_turn([*flood[:3], ("t0", None), ("t1", None)]) == ["a0", "a1", "t0", "t1", "a2"]
    # two threads: two at a time, the shares still in turn
    assert _think_in_turn([*flood, ("b0", "creator b")], threads=2) == ["a0", "a1", "a2", "b0", "a3", "a4"]


def test_a_turn_given_up_while_waiting_leaves_the_line() -> None:
    """A decision cancelled while it waits (its table ended) leaves the line, and one cancelled just as
    the slot is handed to it passes the slot on: no slot is ever lost, and nobody waits on a slot that
    nobody holds."""
    import asyncio

    from coven.server.botpool import FairTurns

    async def run() -> list[str]:
        turns = FairTurns(1)
        order: list[str] = []
        release = asyncio.Event()

        async def hold(name: str, share: str, until: asyncio.Event | None = None) -> None:
            async with turns.turn(share):
                order.append(name)
                if until is not None:
                    await until.wait()
            if name == "first":  # its slot was just handed to "handed over", which has not run yet
                handed.cancel()

        first = asyncio.create_task(hold("first", "a", release))
        await asyncio.sleep(0)
        given_up = asyncio.create_task(hold("given up", "b"))
        handed = asyncio.create_task(hold("handed over", "c"))
        last = asyncio.create_task(hold("last", "d"))
        await asyncio.sleep(0)
        assert turns.free == 0 and turns.waiting == 3
        given_up.cancel()  # while it waits
        await asyncio.sleep(0)
        assert turns.waiting == 2
        release.set()
        await first
        async with asyncio.timeout(1):
            await last
        for task in (given_up, handed):
            with pytest.raises(asyncio.CancelledError):
                await task
        assert turns.free == 1 and turns.waiting == 0
        async with asyncio.timeout(1):  # and the slot is free again at once
            await hold("again", "a")
        return order

    assert asyncio.run(run()) == ["first", "last", "again"]


def test_a_table_s_bots_think_in_the_turn_of_whoever_made_it(make_client: Callable[..., TestClient]) -> None:
    """The server knows who made each table (their address's key) and asks its bots' decisions in that
    creator's turn."""
    client = make_client(games=None)
    pool = service(client).bot_pool
    shares: list[object] = []
    decide = pool.decide

    async def noting(*args: Any, share: object = None, **named: Any) -> Any:
        shares.append(share)
        return await decide(*args, share=share, **named)

    pool.decide = noting
    table_id = bots_only(client, "random")
    deadline = time.monotonic() + 30
    while not shares and time.monotonic() < deadline:
        time.sleep(0.02)
    assert shares and set(shares) == {"testclient"}  # the test client's address, as the server sees it
    assert service(client).tables[table_id].creator == "testclient"


class _Overthinker:
    """A bot whose first decision thinks until ``gate`` opens; it notes how many of its decisions were
    ever thinking at once."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate
        self.thinking = 0
        self.most = 0
        self.calls = 0
        self.lock = threading.Lock()

    def act(self, view: object, legal: Any, required: bool) -> object:
        with self.lock:
            self.calls += 1
            first = self.calls == 1
            self.thinking += 1
            self.most = max(self.most, self.thinking)
        try:
            if first:
                assert self.gate.wait(30), "the gate never opened"
            return legal[-1]
        finally:
            with self.lock:
                self.thinking -= 1


def test_a_bot_still_thinking_past_its_budget_is_not_asked_again_meanwhile() -> None:
    """In threads, a decision past its budget is answered for but its thread thinks on (a thread cannot
    be stopped). The table's next decisions were handed to the same bot in a new thread, so two of its
    act() ran at once over its caches and random stream; they are answered for until it is done, then
    it thinks again, one decision at a time."""
    import asyncio

    from coven.server.botpool import BotPool

    gate = threading.Event()
    bot = _Overthinker(gate)
    where = ("brujas", "table", 0, "overthinker", 0)

    async def run() -> list[object]:
        pool = BotPool(0, 2, budget=0.05)
        answers: list[object] = []
        while not pool.overdue:  # past its budget (one whose thread had not begun leaves nothing behind)
            answers.append(await pool.decide(bot, where, None, ["first", "last"], True))
        assert set(answers) == {"first"}
        answers = [await pool.decide(bot, where, None, ["first", "last"], True)]  # still thinking
        answers.append(await pool.decide(bot, where, None, ["first", "last"], False))
        assert pool.overdue == 1
        gate.set()
        while pool.overdue:  # (the thought's end, seen by the pool)
            await asyncio.sleep(0.01)
        answers.append(await pool.decide(bot, where, None, ["first", "last"], True))  # done: it thinks
        await pool.close()
        return answers

    assert asyncio.run(run()) == ["first", None, "last"]
    assert bot.most == 1 and bot.calls == 2
