"""The HTTP protocol Coven serves with (and the bench's echo): a websocket connection leaves no reference
cycle behind at its upgrade, so closed connections are freed at once, not by a pause of the collector."""

from __future__ import annotations

import gc
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.sync.client import connect

from coven.server.echo import ECHO_PATH, LOOPBACK, TRANSPORT, create_echo_app, http_protocol


@contextmanager
def _serving(http: type[Any]) -> Iterator[str]:
    """The echo app under uvicorn in a thread of this process (its objects are this test's to count)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_echo_app(), http=http, **TRANSPORT))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20.0
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield f"ws://{LOOPBACK}:{sock.getsockname()[1]}{ECHO_PATH}"
    finally:
        server.should_exit = True
        thread.join(timeout=20.0)
        sock.close()


def _protocols() -> int:
    """The HTTP protocol objects alive in this process (by their type: ``isinstance`` would look through a
    dead weak proxy, and fail)."""
    return sum(issubclass(type(o), HttpToolsProtocol) for o in gc.get_objects())


def _left_behind(http: type[Any], connections: int) -> int:
    """How many HTTP protocol objects outlive ``connections`` closed websocket connections, with the
    collector off (what only a collection would free)."""
    with _serving(http) as url:
        gc.collect()
        gc.disable()
        try:
            before = _protocols()
            for i in range(connections):
                with connect(url) as ws:
                    ws.send(f"hello {i}")
                    assert ws.recv(timeout=10) == f"hello {i}"
            time.sleep(0.3)  # the server sees the last close
            return _protocols() - before
        finally:
            gc.enable()


def test_a_websocket_leaves_no_cycle_behind_at_its_upgrade() -> None:
    assert issubclass(http_protocol(), HttpToolsProtocol)
    assert _left_behind(http_protocol(), 8) == 0
    # uvicorn's own protocol keeps each one in a cycle with its parser until a collection (the reason)
    assert _left_behind(HttpToolsProtocol, 8) >= 8
