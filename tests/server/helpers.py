"""Small helpers to talk to the server in tests."""

from __future__ import annotations

import contextlib
import itertools
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from starlette.websockets import WebSocketDisconnect

from coven.server.settings import Settings, secure_seed
from coven.server.tables import TableService

if TYPE_CHECKING:
    from starlette.testclient import TestClient, WebSocketTestSession


@contextlib.contextmanager
def served(app: Any, **config: Any) -> Iterator[int]:
    """``app`` under uvicorn (``config``: its settings) in a thread of this process, so that its objects are
    the test's to count, on a loopback port the kernel picks: the port."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20.0
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=20.0)
        sock.close()


@contextlib.asynccontextmanager
async def running_service(database: Path, **settings: Any) -> AsyncIterator[TableService]:
    """A started table service on the SQLite file ``database`` (no bot worker processes, no pings; other
    ``settings`` as given), stopped when the block ends."""
    service = TableService(
        Settings(database_url=f"sqlite:///{database}", bot_processes=0, ping_interval=0, **settings)
    )
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


class SeedQueue:
    """The test server's deal seeds: those a test pushed, in order, then secure ones.

    Clients can never choose a deal (the request has no seed); a test fixes one through the server's
    own settings (``Settings.deal_seeds``), as an operator could."""

    def __init__(self) -> None:
        self.pending: list[int] = []

    def push(self, seed: int) -> None:
        self.pending.append(seed)

    def __call__(self) -> int:
        return self.pending.pop(0) if self.pending else secure_seed()


def create(
    client: TestClient, game: str = "toy", players: int = 2, seed: int | None = None, **body: Any
) -> dict[str, Any]:
    """Create a table; ``seed`` fixes its deal through the server's settings (never the request)."""
    if seed is not None:
        source = client.app.state.settings.deal_seeds  # type: ignore[attr-defined]
        assert isinstance(source, SeedQueue), "this client's server does not take seeds from tests"
        source.push(seed)
    response = client.post("/api/tables", json={"game": game, "players": players, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def humans(n: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def ws_url(table_id: str) -> str:
    return f"/ws/tables/{table_id}"


def hello(
    ws: WebSocketTestSession, token: str | None = None, last: int | None = None
) -> list[dict[str, Any]]:
    """Say hello; returns [welcome, sync]."""
    ws.send_json({"type": "hello", "token": token, "last": last})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    sync = ws.receive_json()
    assert sync["type"] == "sync", sync
    return [welcome, sync]


_drains = itertools.count()


def drain(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Every message the server has queued for this client so far (a ping round trip marks the end)."""
    marker = f"drain-{next(_drains)}"
    ws.send_json({"type": "ping", "id": marker})
    out = []
    while True:
        message = ws.receive_json()
        if message == {"type": "pong", "id": marker}:
            return out
        out.append(message)


def wait_for(
    ws: WebSocketTestSession, predicate: Any, seconds: float = 60.0, already: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """Drain until a message satisfies ``predicate`` (bots play in the background); returns all seen,
    starting with ``already``: what the client received before (its hello's welcome and sync, say). If one
    of those satisfies ``predicate``, nothing is drained: a bots' game may be over before the sync is sent,
    and then no update follows it.

    Bounded by time, not by rounds: bots think in threads, slower when the machine is busy."""
    seen: list[dict[str, Any]] = list(already)
    if any(predicate(m) for m in already):
        return seen
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        batch = drain(ws)
        seen.extend(batch)
        if any(predicate(m) for m in batch):
            return seen
        time.sleep(0.01)
    raise AssertionError(f"never saw the awaited message; last: {seen[-3:]}")


def latest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The last message that carries a view (sync or update)."""
    return [m for m in messages if m["type"] in {"sync", "update"}][-1]


def errors(messages: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in messages if m["type"] == "error"]


def refused_and_closed(ws: WebSocketTestSession, code: str, close_code: int) -> dict[str, Any]:
    """The next frame is the error ``code``, then the server closes the socket with ``close_code``; the
    error frame (its message says why)."""
    error = ws.receive_json()
    assert error["type"] == "error" and error["code"] == code, error
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == close_code
    return error
