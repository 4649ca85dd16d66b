"""``coven bench server``: simulated people over real websockets on loopback, and the figures of issue 12.

One run has up to five phases, every server in its own child process on 127.0.0.1 (but the last's):

1. **people**: ``tables`` tables of the game, every seat a simulated person who plays a random legal
   action (from the ``legal`` list the server sends) whenever the game waits for it, and, when a game
   ends, sits down at a new table. Measured: moves per second, the time from sending an ``act`` to its
   ``ack``, the server's CPU time (user + system, from ``/proc``: its own, its child processes' and
   those it has waited for) per acknowledged move, the part of it its group commit's thread used
   (``commit_share``: the thread that writes every step to the database and syncs it to disk, or hands
   it to the store's writer process that does, and that process, found by their name,
   :data:`coven.server.commits.THREAD_NAME`), and its resident memory at the start and the end
   of the measured time (over the games that finished in it).
2. **echo**: a bare Starlette websocket echo app (:mod:`coven.server.echo`) under uvicorn with the same
   transport settings, driven by the same client machinery with the same number of connections: per
   table one message at a time, the seats taking turns, each message as long as the mean frame the
   people have received so far. Measured: the echo process's CPU time per message. Beside it, the same
   app's **fan-out**, driven alike: each table's connections are a group, and a message sent on one
   comes back on every one, as a move's update does (one frame in, one out per seat), with nothing
   computed. Its CPU per message over the echo's (``fanout_ratio``) is the part of ``cpu_ratio`` that a
   move's frames cost through uvicorn's transport alone (a little high: the frame that comes in is as
   long as those that go out, where an ``act`` is short). Coven's server reads and writes a game's
   frames through its own protocol (:mod:`coven.server.framing`), which costs less a frame than
   uvicorn's, the echo's: under it, the ``transport`` part is what the frames would cost through the
   echo's stack, and ``rest`` what is left (``socket_protocol`` ``uvicorn`` serves Coven through
   uvicorn's own protocol, to compare).
3. **set-up**: what a table's set-up costs the server alone (``tables`` at a time, for a quarter of
   ``seconds``, at most 2 s): a table is created, its people connect, say hello, see the game start and
   leave. Measured: the server's CPU per table set up. Phase 1's tables were set up the same way, the
   set-up being part of the measured work, so ``setup_share`` tells how much of the server's CPU in
   phase 1 went to setting tables up (the HTTP request, a websocket per person, the hellos, the claims,
   the start's states) rather than to moves (``server_cpu_us_per_move_beyond_setup``): a short game pays
   its set-up over few moves (The 3 Commandments: about 25 moves a game, Brujas: about 90).
4. **people alone, then people and bots** (only with ``bot_tables`` > 0): the same people for ``seconds``,
   then for ``seconds`` more beside ``bot_tables`` tables where every seat is the ``best`` bot, thinking at
   the same time (a finished bot table is replaced). Measured: the people's ack times in each
   (``bot_p99_ratio``). Both run continuously, without slices: slices would hide from the people what the
   server does while the echo is measured (a heartbeat), which it cannot hide from people who play beside
   bots (the p99 beside bots whose worker was stopped was 1.6 times the sliced one). A p99 over a few
   seconds is set by the few moments every table's ack waits at once: the server's garbage collections
   (20-90 ms on a slow machine, measured for issue 12), and the bench's own, until it stopped collecting
   while it measures (:func:`_quiet_collector`). Give the phases more ``seconds`` for a steadier ratio.
5. **a table alone**: a move's own work at a table, in this process once the servers have stopped, for a
   second (:func:`table_cpu_per_move`): the rules, each seat's view, legal list and frame, their JSON,
   as the server runs them, without a socket or a store. Its CPU per move over the echo's CPU per
   message is the ``table`` part of ``cpu_ratio``; what is left beside transport, set-up and commit
   (``rest``) joins them: each message read and checked, the lock, the commit's hand-over, the sends.

Phases 1 and 2 run side by side and are measured in alternating slices of at most a second (people,
echo, fan-out, people, ...; ``seconds`` of each in all): each side's clients send only while its gate
is open, and a slice ends when every request sent in it has its answer, so the work it started is
measured in it. A shared machine's speed drifts over seconds (the same code measured 9.1 and 13.5 a
minute apart when the phases ran one after the other); alternating, every side of the ratios sees the
same drift. The ratio of each round (a people's slice, then the echo's) tells the run's own noise:
``cpu_ratio_q1`` and ``cpu_ratio_q3``, the quartiles of the ``cpu_ratio_rounds`` rounds' ratios.
Work a server does with no client request (a heartbeat) is measured only if it falls in its own
slices.

Each phase begins with a warm-up of ``min(1 s, 20 %)`` (connections, first tables; longer, up to half
the phase, until the first answer comes and the first bot has moved); the figures come from the rest.
``cpu_ratio`` = server CPU per move / echo CPU per message. Nothing here sends a ``seed``: the server
deals; the bench's ``seed`` drives only the simulated people's choices.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.client
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, TypeVar

import msgspec

from coven.server import commits
from coven.server import echo as echo_app
from coven.server.echo import LOOPBACK
from coven.server.settings import redacted_url

_R = TypeVar("_R")

EXPECTED_ERRORS = frozenset({"stale", "conflict"})
"""Errors a correct client meets in normal play (simultaneous decisions, optional actors): it re-sends."""
OPTIONAL_RATE = 0.02
"""How often a simulated person takes an optional action (an Amulets cast) when one is offered."""
STALL_SECONDS = 3.0
"""A people's table that saw nothing for this long at the end of a phase counts as stalled."""


# --------------------------------------------------------------------------- the server processes
_KEPT: dict[tuple[int, str], http.client.HTTPConnection] = {}
"""Open HTTP connections by thread and host (kept alive between requests, as a browser keeps them)."""
_KEPT_LOCK = threading.Lock()


def _close_kept(host: str | None = None) -> None:
    """Close the kept connections to ``host`` (``"127.0.0.1:port"``; None: to every server)."""
    with _KEPT_LOCK:
        going = [key for key in _KEPT if host is None or key[1] == host]
        kept = [_KEPT.pop(key) for key in going]
    for connection in kept:
        connection.close()


def _http(method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON request to a bench server; its JSON answer (an HTTPError for a 4xx or 5xx status).

    The connection stays open for the thread's next request to the same server, as a browser keeps it
    (a lobby does not reconnect for each table it creates); one that the server has closed meanwhile is
    opened again once."""
    if not url.startswith(f"http://{LOOPBACK}:"):
        raise ValueError("the bench only talks to 127.0.0.1")
    parts = urllib.parse.urlsplit(url)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    data = None if body is None else json.dumps(body).encode("utf-8")
    key = (threading.get_ident(), parts.netloc)
    for attempt in (1, 2):
        with _KEPT_LOCK:
            connection = _KEPT.get(key)
            if connection is None:
                connection = _KEPT[key] = http.client.HTTPConnection(parts.netloc, timeout=30)
        try:
            connection.request(method, target, body=data, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            payload = response.read()
        except (http.client.HTTPException, OSError):
            connection.close()
            with _KEPT_LOCK:
                _KEPT.pop(key, None)
            if attempt == 2:
                raise
            continue
        if response.status >= 400:
            raise urllib.error.HTTPError(url, response.status, response.reason, response.headers, None)
        return json.loads(payload.decode("utf-8"))
    raise AssertionError("unreachable")


@dataclass(frozen=True, slots=True)
class Usage:
    """A process's CPU time so far (user + system, seconds) and resident memory (bytes)."""

    cpu: float
    rss: int
    commit_cpu: float | None = None
    """The part of :attr:`cpu` its group commit used: its thread's, and its store writer process's (both
    named :data:`coven.server.commits.THREAD_NAME`); None if it has neither (yet)."""


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def process_usage(pid: int, group: bool = False) -> Usage | None:
    """CPU time (every thread, live or ended) and RSS of process ``pid``, from ``/proc`` (Linux); None
    where there is no ``/proc``.

    ``group``: the CPU of the whole process group ``pid`` leads, as well (a server's bot workers and store
    writer are its children, in its group: their work is the server's): the live members' own, and what
    the children it has waited for used (``cutime``/``cstime``). Its RSS stays its own."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        statm = Path(f"/proc/{pid}/statm").read_text()
    except OSError:
        return None
    fields = _stat_fields(stat)
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    ticks = utime + stime
    members = [pid]
    if group:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime: its children that ended
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or entry.name == str(pid):
                continue
            try:
                member = _stat_fields((entry / "stat").read_text())
            except (OSError, ValueError):
                continue  # gone meanwhile
            if int(member[2]) == pid:  # field 5 of proc(5): its process group
                ticks += int(member[11]) + int(member[12])
                members.append(int(entry.name))
    commit = _thread_cpu(members, commits.THREAD_NAME)
    return Usage(ticks / _TICKS, int(statm.split()[1]) * _PAGE, commit)


def _thread_cpu(pids: Sequence[int], name: str) -> float | None:
    """The CPU time (seconds) of the live threads of processes ``pids`` named ``name`` (the group
    commit's thread, and its store writer process's); None if none is."""
    ticks: int | None = None
    threads: list[Path] = []
    for pid in pids:
        with contextlib.suppress(OSError):
            threads.extend(Path(f"/proc/{pid}/task").iterdir())
    for thread in threads:
        try:
            if (thread / "comm").read_text().strip() != name:
                continue
            fields = _stat_fields((thread / "stat").read_text())
        except (OSError, ValueError):
            continue  # ended meanwhile
        ticks = (ticks or 0) + int(fields[11]) + int(fields[12])
    return None if ticks is None else ticks / _TICKS


def _stat_fields(stat: str) -> list[str]:
    """The fields of a ``/proc/PID/stat`` line after the name (field 3 of proc(5) is the first)."""
    return stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces and parentheses


class Child:
    """A server in a child process on 127.0.0.1, run by ``command`` + a port file.

    The child binds a port of its own choosing and writes it to the port file
    (:func:`coven.server.echo.serve_on_free_port`): two children started at once never share a port.
    """

    def __init__(self, command: list[str], port_file: Path, log: IO[bytes]) -> None:
        self.port_file = port_file
        self.port = 0
        self.log = log
        self.process = subprocess.Popen(
            [*command, str(port_file)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: whatever it spawns (bot workers) ends with it
        )

    @property
    def base_http(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def base_ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}"

    def wait_ready(self) -> dict[str, Any]:
        """Wait until the server says which port it has and answers there; its health answer.

        Raises with the tail of its log if it exits or takes more than a minute.
        """
        deadline = time.monotonic() + 60.0
        while True:
            try:
                if not self.port:
                    self.port = int(self.port_file.read_text(encoding="ascii"))
                health: dict[str, Any] = _http("GET", f"{self.base_http}/api/health")
                return health
            except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.log.flush()
                    self.log.seek(0)
                    tail = self.log.read().decode("utf-8", "replace")[-2000:]
                    raise RuntimeError(f"the bench server did not start:\n{tail}") from None
                time.sleep(0.05)

    def usage(self) -> Usage | None:
        """The server's CPU, its child processes' included (see :func:`process_usage`)."""
        return process_usage(self.process.pid, group=True)

    def stop(self) -> None:
        """Stop the server, then anything left in its process group (a worker it failed to end)."""
        _close_kept(f"{LOOPBACK}:{self.port}")
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)


# --------------------------------------------------------------------------- simulated people
class Gate:
    """Whether a side's clients may send now, and how many of their requests are still unanswered (so that
    a slice of the alternating measurement ends once its work is done, see :func:`_alternate`). Open
    unless closed: the bots' phase never closes it."""

    def __init__(self) -> None:
        self._open = asyncio.Event()
        self._open.set()
        self.busy = 0
        """Requests sent and not answered yet; new tables not yet seen by all their people."""

    def open(self) -> None:
        self._open.set()

    def close(self) -> None:
        self._open.clear()

    async def passed(self) -> None:
        """Return when the gate is open (at once if it is)."""
        if not self._open.is_set():
            await self._open.wait()

    async def drained(self, timeout: float) -> bool:
        """Wait until nothing is unanswered (False: still something after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while self.busy > 0:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.002)
        return True


@dataclass
class Sink:
    """What the clients of one phase saw. Counters move only while ``measuring``."""

    gate: Gate = field(default_factory=Gate)
    measuring: bool = False
    answered: bool = False
    """Whether any action was acknowledged (or message echoed) yet: the warm-up lasts at least until then."""
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    frames: int = 0
    frame_chars: int = 0
    seen_frames: int = 0
    """Frames received, warm-up included (what the echo's messages are sized by)."""
    seen_chars: int = 0
    games: int = 0
    """Games seen to the end while measuring."""
    tables: int = 0
    """People's tables created while measuring (each one's set-up is part of the measured work)."""
    all_games: int = 0
    """Games seen to the end, warm-up included."""
    errors: Counter[str] = field(default_factory=Counter)
    progress: dict[int, float] = field(default_factory=dict)
    """When each people's table last received something."""
    last: dict[int, Any] = field(default_factory=dict)
    """What each people's table last received (to tell why a table stalled): the message, then, for the
    stalled tables only, a line describing it (:func:`_last_seen`)."""
    bot_moves: int = 0
    bots_moved: bool = False
    bot_games: int = 0


_DECODER = msgspec.json.Decoder()


def _decode(raw: str | bytes) -> dict[str, Any]:
    """A server frame as a dict (msgspec rather than ``json``: the simulated people share the machine with
    the server they measure, so their parsing should cost it as little CPU as it can)."""
    message = _DECODER.decode(raw)
    return message if isinstance(message, dict) else {}


def _last_seen(message: Any) -> str:
    """A line saying what a stalled table last received."""
    if not isinstance(message, dict):
        return "nothing yet"
    legal = message.get("legal")
    return (
        f"{message.get('type')} number={message.get('number')} status={message.get('status')} "
        f"to_act={message.get('to_act')} may_act={message.get('may_act')} "
        f"required={legal.get('required') if isinstance(legal, dict) else None}"
    )


def _choices(legal: dict[str, Any]) -> list[str]:
    """The notations listed in a ``legal`` object (a list that was cut short still only offers these)."""
    out: list[str] = []
    for entry in legal.get("actions") or ():
        if isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, dict) and isinstance(entry.get("notation"), str):
            out.append(entry["notation"])
    return out


@contextlib.asynccontextmanager
async def _connect(url: str) -> AsyncIterator[Any]:
    """A client connection for the block: closed at its end, and in any case its socket dropped, so that
    none outlives the phase's event loop (a close handshake that a phase's end cancels halfway would
    otherwise leave the socket open, to be found unclosed later by the garbage collector)."""
    from websockets.asyncio.client import connect

    if not url.startswith(f"ws://{LOOPBACK}:"):
        raise ValueError("the bench only talks to 127.0.0.1")
    ws = await connect(url, max_size=2**24, compression=None, ping_interval=None, close_timeout=1.0)
    try:
        yield ws
    finally:
        try:
            await ws.close()
        finally:
            ws.transport.abort()


HUMAN: dict[str, str] = {"kind": "human"}
BEST_BOT: dict[str, str] = {"kind": "bot", "bot": "best"}


async def _new_table(child: Child, game: str, count: int, seat: dict[str, str]) -> tuple[dict[str, Any], str]:
    """A new table of ``game`` with ``count`` seats like ``seat``, the server dealing: its creation's
    answer (the table and its invites) and its socket's URL."""
    body = {"game": game, "players": count, "seats": [seat] * count}
    created = await asyncio.to_thread(_http, "POST", f"{child.base_http}/api/tables", body)
    return created, f"{child.base_ws}/ws/tables/{created['table']['id']}"


def _hello(token: str | None) -> str:
    """The first frame on a table's socket: a seat's (``token``) or a spectator's (None)."""
    return json.dumps({"type": "hello", "protocol": 1, "token": token, "last": None})


async def _person(
    url: str, token: str, rng: random.Random, sink: Sink, group: int, arrived: Callable[[], None]
) -> bool:
    """One simulated person at one table. Plays a random listed action whenever its ``legal`` is required
    (and, now and then, an optional one); after ``stale``/``conflict`` it decides again on the newest
    state it has. Sends only while its sink's gate is open; calls ``arrived`` once, at its first state
    (or when it leaves without one). Returns whether it saw the game end."""
    next_id = 0
    pending: tuple[int, float, bool] | None = None  # (id, sent at, sent while measuring)
    latest: dict[str, Any] | None = None
    decided_at = -1  # the number this person last acted (or chose not to act) on
    tries: Counter[int] = Counter()
    gate = sink.gate
    try:
        async with _connect(url) as ws:
            await ws.send(_hello(token))
            async for raw in ws:
                now = time.perf_counter()
                sink.progress[group] = now
                sink.seen_frames += 1
                sink.seen_chars += len(raw)
                if sink.measuring:
                    sink.frames += 1
                    sink.frame_chars += len(raw)
                message = _decode(raw)
                kind = message.get("type")
                ack = message.get("ack") if kind == "update" else message if kind == "ack" else None
                if isinstance(ack, dict):  # inside the update our action made (alone: not yet listening)
                    sink.answered = True
                    if pending is not None and ack.get("id") == pending[0]:
                        if pending[2] and sink.measuring:
                            sink.latencies.append((now - pending[1]) * 1000.0)
                            sink.moves += 1
                        pending = None
                        gate.busy -= 1
                    if kind == "ack":
                        continue
                if kind == "error":
                    code = str(message.get("code"))
                    if sink.measuring or code not in EXPECTED_ERRORS:
                        sink.errors[code] += 1
                    if code == "game_over":
                        return True
                    if pending is not None and message.get("id") == pending[0]:
                        pending = None
                        gate.busy -= 1
                        if code not in EXPECTED_ERRORS and latest is not None:
                            number = int(latest["number"])
                            tries[number] += 1
                            if tries[number] < 3:  # another listed action; then wait for the next state
                                decided_at = -1
                elif kind in {"sync", "update"}:
                    if latest is None:
                        arrived()
                    latest = message
                    sink.last[group] = message  # described only if the table stalls (see _last_seen)
                    if message.get("status") == "over":
                        return True
                else:
                    continue
                if pending is not None or latest is None or latest.get("number") == decided_at:
                    continue
                if latest.get("status") != "playing":
                    continue  # not started yet: decide on the sync that comes with the start
                legal = latest.get("legal")
                number = int(latest["number"])
                decided_at = number
                if not isinstance(legal, dict):
                    continue
                if not legal.get("required") and rng.random() >= OPTIONAL_RATE:
                    continue
                listed = _choices(legal)
                if not listed:
                    continue
                await gate.passed()  # (nobody at this table moves while it is closed: the state stays)
                next_id += 1
                pending = (next_id, time.perf_counter(), sink.measuring)
                gate.busy += 1
                act = {"type": "act", "number": number, "action": rng.choice(listed), "id": next_id}
                await ws.send(json.dumps(act))
        return False
    finally:
        if pending is not None:
            gate.busy -= 1
        if latest is None:
            arrived()


async def _people_table(
    child: Child, game: str, count: int, group: int, rng: random.Random, sink: Sink
) -> None:
    """The people of one table: play a game, then sit down at a new table, until cancelled. A table is
    created only while the gate is open, and counts as busy until each of its people has its first state
    (its set-up is part of the measured work)."""
    gate = sink.gate
    while True:
        await gate.passed()
        gate.busy += 1
        waiting = count

        def arrived() -> None:
            nonlocal waiting
            waiting -= 1
            if waiting == 0:
                gate.busy -= 1

        try:
            created, url = await _new_table(child, game, count, HUMAN)
        except BaseException:
            gate.busy -= 1
            raise
        sink.progress[group] = time.perf_counter()
        sink.tables += int(sink.measuring)
        people = [
            _person(url, invite["token"], random.Random(rng.getrandbits(64)), sink, group, arrived)
            for invite in created["invites"]
        ]
        results = await asyncio.gather(*people)
        if any(results):
            sink.all_games += 1
            sink.games += int(sink.measuring)


async def _bot_table(child: Child, game: str, count: int, sink: Sink) -> None:
    """A table of ``best`` bots, watched by a spectator; when it ends, another one."""
    while True:
        _, url = await _new_table(child, game, count, BEST_BOT)
        async with _connect(url) as ws:
            await ws.send(_hello(None))
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "update":
                    sink.bots_moved = True
                    sink.bot_moves += int(sink.measuring)
                if message.get("type") in {"sync", "update"} and message.get("status") == "over":
                    sink.bot_games += int(sink.measuring)
                    break


async def _seated(url: str, token: str) -> None:
    """One person taking a seat and leaving as soon as the game has started: connect, hello, read until
    the state says ``playing``, close."""
    async with _connect(url) as ws:
        await ws.send(_hello(token))
        async for raw in ws:
            message = _decode(raw)
            if message.get("type") in {"sync", "update"} and message.get("status") != "waiting":
                return
            if message.get("type") == "error":
                raise RuntimeError(f"a table's set-up was refused: {message.get('message')}")


async def _setup_phase(
    child: Child, game: str, count: int, tables: int, seconds: float
) -> tuple[int, float | None]:
    """Phase 3: what a table's set-up costs the server, alone. ``tables`` at a time for ``seconds``, a
    table is created, each of its people connects, says hello and waits for the game to start, and
    leaves. Returns how many tables were set up and the server's CPU for them (from the first creation
    until the last of their people has gone)."""
    done = 0
    deadline = time.monotonic() + seconds

    async def setting_up() -> None:
        nonlocal done
        while time.monotonic() < deadline:
            created, url = await _new_table(child, game, count, HUMAN)
            try:
                async with asyncio.timeout(SETUP_TIMEOUT):
                    await asyncio.gather(*(_seated(url, invite["token"]) for invite in created["invites"]))
            except TimeoutError:
                raise RuntimeError(f"a table was not set up within {SETUP_TIMEOUT:g} s") from None
            done += 1

    before = child.usage()
    await asyncio.gather(*(setting_up() for _ in range(tables)))
    await asyncio.sleep(0.1)  # the server sees the last people go
    after = child.usage()
    return done, (after.cpu - before.cpu if before is not None and after is not None else None)


def table_cpu_per_move(game_id: str, players: int, seconds: float, seed: int) -> float | None:
    """Phase 5: a move's own work at a live table, in this process, without a server, a socket or a
    store: the seat the game waits for (the lowest) takes one of its listed actions, chosen at random and
    read from its notation as a person's move arrives, and the step is shown to one listener per seat,
    which drops the frame (:meth:`Table.take`, :meth:`Table.advance`: the rules, each seat's view, legal
    list and ``update`` frame, and their JSON, as the server runs them). Games follow one another for
    ``seconds``, each dealt anew (its set-up counted too, as it is in the set-up part). Returns this
    thread's CPU per move, in µs (None: no move was made)."""
    from datetime import UTC, datetime

    from coven.games import REGISTRY
    from coven.server.settings import Settings
    from coven.server.table import Table
    from coven.server.tables import checked_text_action
    from coven.store import StoredSeat

    class Dropping:
        def __init__(self, seat: int | None) -> None:
            self.seat = seat

        def send_text(self, text: str) -> None:
            pass

    cap = Settings().legal_cap  # (the bench's server keeps the default)
    game = REGISTRY.get(game_id)
    options = game.spec.resolve_options({})
    seats = [StoredSeat(i, "human", f"P{i}", claimed=True) for i in range(players)]
    rng = random.Random(seed)
    moves, deal = 0, seed
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        deal += 1
        state = game.setup(players, options, deal)
        table = Table("bench", game, players, options, deal, "playing", list(seats), datetime.now(UTC), state)
        table.listeners.update(Dropping(i) for i in range(players))
        while table.status == "playing":
            seat = min(game.to_act(table.state))
            legal = table.legal(seat, cap)
            listed = _choices(legal) if legal is not None else []
            if not listed:
                break
            text = rng.choice(listed)
            taken = table.take(seat, table.number, checked_text_action(text), text, 0)
            table.advance(taken, cap, None)
            moves += 1
    spent = time.thread_time() - start
    return round(spent / moves * 1e6, 1) if moves else None


TABLE_SECONDS: Final = 1.0
"""How long phase 5 (:func:`table_cpu_per_move`) plays."""


@dataclass(frozen=True, slots=True)
class Window:
    """The measured part of a phase."""

    seconds: float
    server_cpu: float | None
    client_cpu: float
    rss_before: int | None
    rss_after: int | None
    rss_half: int | None = None
    """With ``games``: the memory when half of them had ended (the second half is the steady state)."""
    games_half: int = 0
    commit_cpu: float | None = None
    """The part of :attr:`server_cpu` the server's commit thread used (None: not told)."""


async def _measure(
    child: Child,
    seconds: float,
    sink: Sink,
    tasks: list[Callable[[], Awaitable[None]]],
    ready: Callable[[], bool],
) -> Window:
    """Run ``tasks`` for ``seconds``; measure after the warm-up (which lasts until ``ready()``, up to half
    the phase), then cancel them."""
    started = time.monotonic()
    running = [asyncio.ensure_future(task()) for task in tasks]
    try:
        await _sleep_watching(running, min(1.0, 0.2 * seconds))
        while not ready() and time.monotonic() < started + 0.5 * seconds:  # a slow start
            await _sleep_watching(running, 0.02)
        collect_garbage()  # the warm-up's (a pause of the warm-up only)
        usage0, client0, t0 = child.usage(), time.process_time(), time.perf_counter()
        sink.measuring = True
        await _sleep_watching(running, max(0.05, started + seconds - time.monotonic()))
        sink.measuring = False
        usage1, client1, t1 = child.usage(), time.process_time(), time.perf_counter()
    finally:
        await _end_clients(running)
    cpu = usage1.cpu - usage0.cpu if usage0 is not None and usage1 is not None else None
    return Window(
        seconds=t1 - t0,
        server_cpu=cpu,
        client_cpu=client1 - client0,
        rss_before=usage0.rss if usage0 is not None else None,
        rss_after=usage1.rss if usage1 is not None else None,
    )


def _steady_growth(window: Window, games: int) -> float | None:
    """Memory growth per 1,000 finished games in the steady state: over the second half of the measured
    games, the first half being the warm-up of what fills once and then stays bounded, which a leak
    would not (a leak grows in the second half as in the first). Measured with ``--game amulets
    --tables 10 --games 3000``: RSS grew by about 10 MB over the first 500 games, then by 3.1 MB per
    1,000 games; with SQLite's page cache cut to 128 KiB a connection (it is 2 MB, per pooled
    connection, filled as the database outgrows it), by 1.3 MB per 1,000 games.
    ``memory_growth_mb_per_1000_games_whole`` is the figure over all the measured games (and this one
    too when no game ended before the second half began)."""
    if window.rss_after is None or window.rss_before is None or not games:
        return None
    if window.rss_half is None or games <= window.games_half:
        return round((window.rss_after - window.rss_before) / 2**20 * 1000 / games, 1)
    return round((window.rss_after - window.rss_half) / 2**20 * 1000 / (games - window.games_half), 1)


async def _end_clients(running: Sequence[asyncio.Future[None]]) -> None:
    """Cancel a phase's clients and wait for them; raise if one of them failed."""
    for task in running:
        task.cancel()
    await asyncio.wait(running, timeout=10.0)
    for task in running:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise RuntimeError(f"a bench client failed: {task.exception()!r}")


def _stalled(sink: Sink) -> int:
    """How many people's tables saw nothing for :data:`STALL_SECONDS`; what the first three last saw
    becomes ``sink.last``."""
    now = time.perf_counter()
    stalled = [g for g, t in sink.progress.items() if now - t > STALL_SECONDS]
    sink.last = {g: _last_seen(sink.last.get(g)) for g in stalled[:3]}
    return len(stalled)


async def _sleep_watching(tasks: Sequence[asyncio.Future[None]], seconds: float) -> None:
    """Sleep, but fail at once if a client task fails (a refused request, a dead server)."""
    done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            raise RuntimeError(f"a bench client failed: {task.exception()!r}") from task.exception()


async def _bots_phase(
    child: Child, game: str, count: int, tables: int, bot_tables: int, seconds: float, seed: int
) -> tuple[Sink, Window, int]:
    """Phase 4, its first part (``bot_tables`` 0) or its second: the people's tables, and ``bot_tables``
    tables of ``best`` bots, for ``seconds``, the people sending whenever they like."""
    sink = Sink()
    rng = random.Random(seed)
    tasks: list[Callable[[], Awaitable[None]]] = []
    for group in range(tables):
        group_rng = random.Random(rng.getrandbits(64))
        tasks.append(functools.partial(_people_table, child, game, count, group, group_rng, sink))
    for _ in range(bot_tables):
        tasks.append(functools.partial(_bot_table, child, game, count, sink))
    window = await _measure(
        child, seconds, sink, tasks, lambda: sink.answered and (sink.bots_moved or not bot_tables)
    )
    return sink, window, _stalled(sink)


async def _echo_connection(
    url: str, count: int, size: list[int], rng: random.Random, sink: Sink, group: int, fan: bool = False
) -> None:
    """``count`` connections of one table: one message at a time, the seats taking turns, each message
    ``size[0]`` characters long (read before each message: the measurement sizes them as the people's
    frames, as it learns their mean). The echo answers on the sender's connection; with ``fan`` (``url``
    a fan-out group of its own) the message comes back on each of the ``count`` connections, as a move's
    update does."""
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(_connect(url)) for _ in range(count)]
        seat = rng.randrange(count)
        head = '{"type":"act","number":0,"id":0,"action":"'
        text, made_for = "", -1
        gate = sink.gate
        while True:
            ws = sockets[seat]
            await gate.passed()
            if made_for != size[0]:
                made_for = size[0]
                text = head + "x" * max(8, made_for - len(head) - 2) + '"}'
            sent = time.perf_counter()
            measured = sink.measuring
            gate.busy += 1
            try:
                await ws.send(text)
                answers = [await other.recv() for other in sockets] if fan else [await ws.recv()]
            finally:
                gate.busy -= 1
            now = time.perf_counter()
            sink.progress[group] = now
            sink.answered = True
            if measured and sink.measuring:
                sink.latencies.append((now - sent) * 1000.0)
                sink.moves += 1
                sink.frames += len(answers)
                sink.frame_chars += sum(len(raw) for raw in answers)
            seat = (seat + 1) % count


SETUP_SECONDS = 2.0
"""The longest the set-up phase lasts (see :func:`_setup_phase`)."""
SETUP_TIMEOUT = 30.0
"""How long the set-up phase waits for one table's people to see their game start."""
SLICE_SECONDS = 1.0
"""The longest slice of the alternating measurement (see :func:`_alternate`)."""
DRAIN_SECONDS = 5.0
"""How long a slice's end waits for the answers to what was sent in it."""


@dataclass
class _Tally:
    """The measured slices of one side, added up."""

    seconds: float = 0.0
    server_cpu: float | None = 0.0
    client_cpu: float = 0.0
    commit_cpu: float | None = 0.0
    """The server's commit thread's part of :attr:`server_cpu` (None: it cannot be told)."""
    first: Usage | None = None
    last: Usage | None = None
    slices: list[tuple[float, int]] = field(default_factory=list)
    """Each slice's server CPU and what was answered in it (moves, echo messages), where the CPU is known."""


def ratio_rounds(people: Sequence[tuple[float, int]], echo: Sequence[tuple[float, int]]) -> list[float]:
    """``cpu_ratio`` round by round: the server's CPU per move in each people's slice over the echo's CPU
    per message in the echo slice that followed it (a round with nothing answered on either side, or no
    CPU, is left out). Their spread is the run's own noise: a change that moves the ratio less than it
    does is not told apart from the machine's drift."""
    rounds = []
    for (cpu, moves), (echo_cpu, messages) in zip(people, echo, strict=False):
        if moves > 0 and messages > 0 and cpu > 0 and echo_cpu > 0:
            rounds.append((cpu / moves) / (echo_cpu / messages))
    return rounds


def quartiles(values: Sequence[float]) -> tuple[float, float] | None:
    """The first and third quartiles of ``values`` (None for fewer than two), rounded as ratios are."""
    if len(values) < 2:
        return None
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return round(q1, 1), round(q3, 1)


def _committing(before: Usage | None, after: Usage | None) -> float | None:
    """The server's commit thread's CPU between two readings (a thread that starts between them counts from
    nothing); None if it cannot be told (no reading, no such thread, or one that ended between them)."""
    if before is None or after is None or after.commit_cpu is None:
        return None
    spent = after.commit_cpu - (before.commit_cpu or 0.0)
    return spent if spent >= 0 else None


async def _slice(
    child: Child,
    sink: Sink,
    running: Sequence[asyncio.Future[None]],
    length: float,
    tally: _Tally,
    done: Callable[[], bool] | None = None,
) -> None:
    """One measured slice of one side: open its gate for ``length`` seconds (or until ``done()``), close
    it, wait for the answers to what it sent, and add the server's CPU, the bench's own CPU and the time
    to ``tally``. Work a slice started is measured in it, to its last answer."""
    usage0, client0, t0 = child.usage(), time.process_time(), time.perf_counter()
    answered = sink.moves
    sink.measuring = True
    sink.gate.open()
    try:
        end = t0 + length
        while (left := end - time.perf_counter()) > 0 and not (done is not None and done()):
            await _sleep_watching(running, min(0.05, left))
    finally:
        sink.gate.close()
    await sink.gate.drained(DRAIN_SECONDS)  # (one that never answers shows as a stalled table)
    sink.measuring = False
    usage1, client1, t1 = child.usage(), time.process_time(), time.perf_counter()
    collect_garbage()  # (both sides' clients are gated now)
    tally.seconds += t1 - t0
    tally.client_cpu += client1 - client0
    if tally.server_cpu is not None and usage0 is not None and usage1 is not None:
        tally.server_cpu += usage1.cpu - usage0.cpu
        tally.slices.append((usage1.cpu - usage0.cpu, sink.moves - answered))
    else:
        tally.server_cpu = None
    committing = _committing(usage0, usage1)
    tally.commit_cpu = (
        None if tally.commit_cpu is None or committing is None else tally.commit_cpu + committing
    )
    tally.first = tally.first or usage0
    tally.last = usage1


@dataclass(frozen=True, slots=True)
class Alternated:
    """What phases 1 and 2 measured (see :func:`_alternate`)."""

    people: Sink
    window: Window
    stalled: int
    echo: Sink
    echo_window: Window
    fan: Sink
    """The fan-out's clients: a message to each group, back on each of its connections."""
    fan_window: Window
    size: int
    """The echo's (and the fan-out's) message length, the people's mean frame."""
    rounds: list[float] = field(default_factory=list)
    """``cpu_ratio`` round by round (see :func:`ratio_rounds`)."""


async def _warm_up(
    sink: Sink,
    running: Sequence[asyncio.Future[None]],
    seconds: float,
    ready: Callable[[], bool] | None = None,
) -> None:
    """A side's warm-up, its gate open: ``min(1 s, 20 %)`` of ``seconds``, longer (up to half) until its
    first answer, and until ``ready()`` if given; then its gate closes and what it sent is answered."""
    started = time.monotonic()
    await _sleep_watching(running, min(1.0, 0.2 * seconds))
    while not sink.answered and time.monotonic() < started + 0.5 * seconds:  # a slow start
        await _sleep_watching(running, 0.02)
    while ready is not None and not ready():
        await _sleep_watching(running, 0.05)
    sink.gate.close()
    await sink.gate.drained(DRAIN_SECONDS)


async def _alternate(
    child: Child,
    echo_child: Child,
    game: str,
    count: int,
    tables: int,
    seconds: float,
    seed: int,
    games: int = 0,
) -> Alternated:
    """Phases 1 and 2, measured in alternating slices (see the module's doc): the people, the echo's
    clients and the fan-out's run side by side, each side sending only while its gate is open, so that
    the machine's speed, which drifts over seconds on a shared machine, is the same for every side of
    the ratios."""
    people, echo, fan = Sink(), Sink(), Sink()
    rng = random.Random(seed)
    running: list[asyncio.Future[None]] = []
    for group in range(tables):
        group_rng = random.Random(rng.getrandbits(64))
        running.append(asyncio.ensure_future(_people_table(child, game, count, group, group_rng, people)))
    try:
        # the people's warm-up: connections, first tables, first answers (and games, if they count)
        first_games = (lambda: people.all_games >= max(1, games // 10)) if games else None
        await _warm_up(people, running, seconds, first_games)
        size = [people.seen_chars // people.seen_frames if people.seen_frames else 256]
        # the echo's warm-up, then the fan-out's (a group of its own for each table)
        for sink, seed_offset, fanned in ((echo, 2, False), (fan, 3, True)):
            side_rng = random.Random(seed + seed_offset)
            for group in range(tables):
                path = f"/ws/echo/fan/{group}" if fanned else "/ws/echo"
                client = _echo_connection(
                    echo_child.base_ws + path,
                    count,
                    size,
                    random.Random(side_rng.getrandbits(64)),
                    sink,
                    group,
                    fan=fanned,
                )
                running.append(asyncio.ensure_future(client))
            await _warm_up(sink, running, seconds)
        # the measured slices, side after side
        length = min(SLICE_SECONDS, max(0.1, seconds / 4))
        mine, theirs, fanned_out = _Tally(), _Tally(), _Tally()
        half: tuple[Usage | None, int] = (None, 0)
        enough = (lambda: people.games >= games) if games else None
        while True:
            more_people = people.games < games if games else mine.seconds < seconds
            more_echo = theirs.seconds < seconds or fanned_out.seconds < seconds
            if not more_people and not more_echo:
                break
            if more_people:
                await _slice(child, people, running, length, mine, enough)
                if games and half[0] is None and people.games >= games // 2 > 0:
                    half = (child.usage(), people.games)
            if more_echo:
                if people.frames:  # as long as the frames the people received, so far
                    size[0] = people.frame_chars // people.frames
                await _slice(echo_child, echo, running, length, theirs)
                await _slice(echo_child, fan, running, length, fanned_out)
    finally:
        await _end_clients(running)
    window = Window(
        seconds=mine.seconds,
        server_cpu=mine.server_cpu,
        client_cpu=mine.client_cpu,
        rss_before=mine.first.rss if mine.first is not None else None,
        rss_after=mine.last.rss if mine.last is not None else None,
        rss_half=half[0].rss if half[0] is not None else None,
        games_half=half[1],
        commit_cpu=mine.commit_cpu,
    )
    return Alternated(
        people=people,
        window=window,
        stalled=_stalled(people),
        echo=echo,
        echo_window=Window(theirs.seconds, theirs.server_cpu, theirs.client_cpu, None, None),
        fan=fan,
        fan_window=Window(fanned_out.seconds, fanned_out.server_cpu, fanned_out.client_cpu, None, None),
        size=size[0],
        rounds=ratio_rounds(mine.slices, theirs.slices),
    )


# --------------------------------------------------------------------------- figures
RATIO_PARTS: Final = ("transport", "setup", "commit", "table", "rest")
"""The parts of ``cpu_ratio`` (:func:`ratio_parts`), in the order they are shown."""


def ratio_parts(result: Mapping[str, Any]) -> dict[str, float] | None:
    """A run's ``cpu_ratio`` in its parts, each in echo messages: a move's frames through uvicorn's
    transport alone (``fanout_ratio``), the tables' set-up (``setup_share`` of it), the durable commit
    (``commit_share`` of it), a move's own work at its table (``table_cpu_us_per_move`` over the echo's
    CPU per message: the rules, the seats' views, legal lists and frames, their JSON) and the rest (what
    joins them: each message read and checked, the table's lock, the commit's hand-over and wait, each
    frame handed to its socket); None if the run lacks one. The parts overlap a little: a set-up's own
    commits are both set-up and commit, and each deal's set-up both set-up and table."""
    keys = ("cpu_ratio", "fanout_ratio", "setup_share", "commit_share", "table_cpu_us_per_move")
    given = [*(result.get(key) for key in keys), result.get("echo_cpu_us_per_message")]
    numbers = [float(v) for v in given if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(numbers) != len(given) or numbers[-1] <= 0:
        return None
    ratio, fan, setup, commit, table, echo = numbers
    parts = {"transport": min(fan, ratio), "setup": setup * ratio, "commit": commit * ratio}
    parts["table"] = min(table / echo, max(0.0, ratio - sum(parts.values())))
    parts["rest"] = max(0.0, ratio - sum(parts.values()))
    return {name: round(parts[name], 2) for name in RATIO_PARTS}


def _run(work: Coroutine[Any, Any, _R]) -> _R:
    """Run a phase's clients on uvloop where it is installed (uvicorn's ``standard`` extra brings it, and
    the servers measured run on it too), else on asyncio's own loop. The simulated people share the
    machine's cores with the server they measure, and at 100 tables the two of them leave no core idle:
    what the people spend, the server cannot. Measured for issue 12 (Brujas, 100 tables, two runs each):
    on uvloop they made 3,926-4,225 moves a second with 20.5-20.7 s of their own CPU, on asyncio's loop
    3,587-3,821 with 21.5-21.7 s."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(work)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _per(amount: float | None, count: int, scale: float = 1.0, digits: int = 1) -> float | None:
    if amount is None or count <= 0:
        return None
    return round(amount * scale / count, digits)


@contextlib.contextmanager
def _quiet_collector() -> Iterator[None]:
    """No garbage collection in this process while the simulated people measure: between slices and
    phases only (:func:`collect_garbage`).

    Their acks are timed in this process: a pause of its collector is a pause of every person at once,
    and their acks all look that much later, as if the server had stalled. Its full collections took
    110-120 ms on a slow machine, twice a run, and were the worst stall of a phase, so its ack p99
    (issue 12); with the imported code frozen out of the scans, still 94 ms, and the young generation's,
    which free the websocket clients' cycles, 30-40 ms. The collector is back as it was afterwards, and
    what was frozen is scanned again."""
    import gc

    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()  # (what exists now, the imported code, need not be scanned by the collections between)
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
        gc.collect()


def collect_garbage() -> None:
    """Collect this process's garbage now, when nobody is measuring (see :func:`_quiet_collector`)."""
    import gc

    if not gc.isenabled():
        gc.collect()


SOCKET_PROTOCOLS: Final = ("coven", "uvicorn")
"""The websocket protocols the bench's Coven server can be served with (see :func:`bench_server`)."""


def bench_server(
    players: int | None = None,
    seconds: float = 10.0,
    game: str = "brujas",
    per_table: int | None = None,
    database: str | None = None,
    seed: int = 1,
    tables: int | None = None,
    bot_tables: int = 0,
    games: int = 0,
    commit_process: bool = False,
    commit_interval: float | None = None,
    socket_protocol: str = "coven",
) -> dict[str, Any]:
    """Run the bench (see the module's doc) and return its figures as one flat JSON object.

    ``tables`` people's tables (default 20; or ``players // per_table`` if ``players`` is given) of
    ``per_table`` seats (default the game's minimum); ``bot_tables`` extra all-``best`` bot tables in a
    second phase; each phase lasts ``seconds``. ``database``: an SQLAlchemy URL (default a temporary
    SQLite file). Servers and clients are on 127.0.0.1 only. ``games`` > 0: the people's phase lasts
    until that many games have ended after the warm-up (memory growth over that many finished games),
    not ``seconds``. ``commit_process``: the server commits in its store writer process (``commit`` in
    the figures: ``process``; else ``thread``), as ``coven serve --commit-process`` does;
    ``commit_interval``: the server's least seconds between two group commits (default, and in the
    figures as ``commit_interval``: the server's default), as ``coven serve --commit-interval`` sets it.
    ``socket_protocol``: the Coven server's websocket protocol, ``coven`` (as ``coven serve`` serves:
    :class:`coven.server.framing.LeanWebSocketProtocol`) or ``uvicorn`` (uvicorn's own, as the echo is
    served), to compare the two (in the figures as ``socket_protocol``).
    """
    from coven.games import get_game
    from coven.server.settings import Settings

    if seconds <= 0 or not math.isfinite(seconds):
        raise ValueError("seconds must be a positive number")
    spec = get_game(game).spec
    count = per_table or spec.min_players
    spec.check_players(count)
    if tables is None:
        tables = max(1, players // count) if players is not None else 20
    if games < 0:
        raise ValueError("games is a positive number of games (0: a phase of seconds)")
    if tables < 1 or bot_tables < 0:
        raise ValueError("at least one people's table, and no negative number of bot tables")
    if socket_protocol not in SOCKET_PROTOCOLS:
        raise ValueError(f"socket_protocol is one of {', '.join(SOCKET_PROTOCOLS)}, not {socket_protocol!r}")
    interval = Settings().commit_interval if commit_interval is None else commit_interval
    if not (math.isfinite(interval) and 0 <= interval <= 0.1):
        raise ValueError("commit_interval is a number of seconds from 0 to 0.1")

    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_collector())
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="coven-bench-")))
        stack.callback(_close_kept)
        url = database or f"sqlite:///{(tmp / 'bench.sqlite3').as_posix()}"
        log = stack.enter_context(open(tmp / "server.log", "w+b"))
        echo_log = stack.enter_context(open(tmp / "echo.log", "w+b"))
        # both start at once (the imports take a while); the echo app idles until its phase
        commit = "process" if commit_process else "thread"
        tuning = json.dumps(
            {
                "commit_process": commit_process,
                "commit_interval": interval,
                "socket_protocol": socket_protocol,
            }
        )
        command = [sys.executable, "-m", "coven.server.bench", "--server", url, tuning]
        child = Child(command, tmp / "server.port", log)
        stack.callback(child.stop)
        echo_child = Child([sys.executable, "-P", echo_app.__file__], tmp / "echo.port", echo_log)
        stack.callback(echo_child.stop)
        if "echo" in child.wait_ready() or "echo" not in echo_child.wait_ready():
            raise RuntimeError("the bench's servers answer on each other's ports")
        measured = _run(_alternate(child, echo_child, game, count, tables, seconds, seed, games))
        people, alone, stalled, echo, echo_window = (
            measured.people,
            measured.window,
            measured.stalled,
            measured.echo,
            measured.echo_window,
        )
        echo_child.stop()
        setups, setup_cpu = _run(
            _setup_phase(child, game, count, tables, min(SETUP_SECONDS, max(0.5, seconds / 4)))
        )
        with_bots: tuple[Sink, Window, int] | None = None
        without_bots: tuple[Sink, Window, int] | None = None
        if bot_tables:  # the people alone, then with the bots, measured alike (continuously)
            without_bots = _run(_bots_phase(child, game, count, tables, 0, seconds, seed + 1))
            with_bots = _run(_bots_phase(child, game, count, tables, bot_tables, seconds, seed + 1))
        child.stop()
        table_cpu = table_cpu_per_move(game, count, TABLE_SECONDS, seed)  # (the servers have stopped)
        log.seek(0)
        server_log = [line for line in log.read().decode("utf-8", "replace").splitlines() if line]

    moves, window = people.moves, alone.seconds
    cpu_per_move = _per(alone.server_cpu, moves, 1e6)
    cpu_per_echo = _per(echo_window.server_cpu, echo.moves, 1e6, 2)
    ratio = round(cpu_per_move / cpu_per_echo, 1) if cpu_per_move is not None and cpu_per_echo else None
    spread = quartiles(measured.rounds)  # (the run's own noise: see ratio_rounds)
    cpu_per_fan = _per(measured.fan_window.server_cpu, measured.fan.moves, 1e6, 2)
    fan_ratio = round(cpu_per_fan / cpu_per_echo, 2) if cpu_per_fan is not None and cpu_per_echo else None
    growth = (
        (alone.rss_after - alone.rss_before) / 2**20
        if alone.rss_after is not None and alone.rss_before is not None
        else None
    )
    steady = _steady_growth(alone, people.games)
    p50, p99 = round(_percentile(people.latencies, 0.50), 2), round(_percentile(people.latencies, 0.99), 2)
    mean = round(statistics.fmean(people.latencies), 2) if people.latencies else 0.0
    moves_per_s = round(moves / window, 1) if window > 0 else 0.0
    setup_each = setup_cpu / setups if setup_cpu is not None and setups else None
    setup_spent = setup_each * people.tables if setup_each is not None else None
    shown_database = redacted_url(database) if database else "sqlite (temporary file)"
    result: dict[str, Any] = {
        "game": game,
        "database": shown_database,
        "commit": commit,
        "commit_interval": interval,
        "socket_protocol": socket_protocol,
        "tables": tables,
        "players_per_table": count,
        "players": tables * count,
        "seconds": round(window, 3),
        "moves": moves,
        "moves_per_s": moves_per_s,
        "games": people.games,
        "ack_p50_ms": p50,
        "ack_p99_ms": p99,
        "ack_mean_ms": mean,
        "server_cpu_s": None if alone.server_cpu is None else round(alone.server_cpu, 2),
        "server_cpu_share": None if alone.server_cpu is None else round(alone.server_cpu / window, 2),
        "server_cpu_us_per_move": cpu_per_move,
        "client_cpu_share": round(alone.client_cpu / window, 2) if window > 0 else None,
        "frames_per_move": _per(people.frames, moves, 1.0, 2),
        "chars_per_move": _per(people.frame_chars, moves, 1.0, 0),
        "echo_messages": echo.moves,
        "echo_per_s": round(echo.moves / echo_window.seconds, 1) if echo_window.seconds > 0 else 0.0,
        "echo_message_chars": measured.size,
        "echo_rtt_p50_ms": round(_percentile(echo.latencies, 0.50), 3),
        "echo_cpu_us_per_message": cpu_per_echo,
        "cpu_ratio": ratio,
        "cpu_ratio_rounds": len(measured.rounds),
        "cpu_ratio_q1": None if spread is None else spread[0],
        "cpu_ratio_q3": None if spread is None else spread[1],
        "fanout_messages": measured.fan.moves,
        "fanout_frames_per_message": _per(measured.fan.frames, measured.fan.moves, 1.0, 2),
        "fanout_cpu_us_per_message": cpu_per_fan,
        "fanout_ratio": fan_ratio,
        "tables_started": people.tables,
        "setup_tables": setups,
        "setup_server_cpu_ms_per_table": None if setup_each is None else round(setup_each * 1000, 2),
        "setup_share": (
            round(setup_spent / alone.server_cpu, 3) if setup_spent is not None and alone.server_cpu else None
        ),
        "commit_cpu_us_per_move": _per(alone.commit_cpu, moves, 1e6),
        "commit_share": (
            round(alone.commit_cpu / alone.server_cpu, 3)
            if alone.commit_cpu is not None and alone.server_cpu
            else None
        ),
        "table_cpu_us_per_move": table_cpu,
        "server_cpu_us_per_move_beyond_setup": (
            _per(alone.server_cpu - setup_spent, moves, 1e6)
            if setup_spent is not None and alone.server_cpu is not None
            else None
        ),
        "memory_rss_mb": None if alone.rss_before is None else round(alone.rss_before / 2**20, 1),
        "memory_growth_mb": None if growth is None else round(growth, 2),
        "memory_growth_mb_per_1000_games": steady,
        "memory_growth_steady_from_game": alone.games_half,
        "memory_growth_mb_per_1000_games_whole": (
            round(growth * 1000 / people.games, 1) if growth is not None and people.games else None
        ),
        "stalled_tables": stalled,
        "stalled_last_seen": list(people.last.values()),
        "errors": dict(people.errors),
        "unexpected_errors": sum(n for code, n in people.errors.items() if code not in EXPECTED_ERRORS),
        "server_log_lines": len(server_log),
        "bot_tables": bot_tables,
        "ack_p99_ms_without_bots": p99,
        "ack_p50_ms_without_bots": None,
        "ack_p50_ms_with_bots": None,
        "ack_p99_ms_with_bots": None,
        "bot_p99_ratio": None,
        "moves_per_s_with_bots": None,
        "bot_moves_per_s": None,
        "bot_games": None,
        # the names of the first version of this command, kept as aliases
        "games_finished": people.games,
        "moves_per_second": moves_per_s,
        "ack_ms_p50": p50,
        "ack_ms_p99": p99,
        "ack_ms_mean": mean,
    }
    if with_bots is not None and without_bots is not None:
        crowd, crowd_window, crowd_stalled = with_bots
        p99_alone = round(_percentile(without_bots[0].latencies, 0.99), 2)
        p99_bots = round(_percentile(crowd.latencies, 0.99), 2)
        result.update(
            {
                "ack_p50_ms_without_bots": round(_percentile(without_bots[0].latencies, 0.50), 2),
                "ack_p99_ms_without_bots": p99_alone,
                "ack_p50_ms_with_bots": round(_percentile(crowd.latencies, 0.50), 2),
                "ack_p99_ms_with_bots": p99_bots,
                "bot_p99_ratio": round(p99_bots / p99_alone, 2) if p99_alone > 0 else None,
                "moves_per_s_with_bots": round(crowd.moves / crowd_window.seconds, 1),
                "bot_moves_per_s": round(crowd.bot_moves / crowd_window.seconds, 1),
                "bot_games": crowd.bot_games,
                "stalled_tables_with_bots": crowd_stalled,
                "errors_with_bots": dict(crowd.errors),
            }
        )
    result["cpu_ratio_parts"] = ratio_parts(result)
    if server_log:
        result["server_log_tail"] = server_log[-3:]
    return result


# --------------------------------------------------------------------------- the child processes
def _serve_coven(url: str, tuning: dict[str, Any], port_file: str) -> None:
    from coven.server.app import create_app
    from coven.server.framing import LeanWebSocketProtocol
    from coven.server.settings import Settings, tune_collector

    # the bench's simulated people send faster than anyone, and create hundreds of tables (and open
    # hundreds of sockets) from one address
    settings = Settings(
        database_url=url,
        bot_pause=0,
        rate_limit=1000,
        rate_burst=1000,
        ping_interval=0,
        create_limit=0,
        sockets_per_client=0,
        http_limit=0,
        commit_process=bool(tuning["commit_process"]),
        commit_interval=float(tuning["commit_interval"]),
    )
    tune_collector()  # as `coven serve` runs
    ws = LeanWebSocketProtocol if tuning["socket_protocol"] == "coven" else None  # (None: uvicorn's own)
    echo_app.serve_on_free_port(create_app(settings), port_file, ws)


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["--server", url, tuning, port_file]:
            _serve_coven(url, json.loads(tuning), port_file)
        case _:
            raise SystemExit("usage: python -m coven.server.bench --server URL TUNING_JSON PORT_FILE")
