"""The HTTP protocol Coven serves with (and the bench's echo): a websocket connection leaves no reference
cycle behind at its upgrade, so closed connections are freed at once, not by a pause of the collector; and
a client that does not send its request in time is let go."""

from __future__ import annotations

import gc
import logging
import select
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from coven.server.echo import ECHO_PATH, LOOPBACK, TRANSPORT, create_echo_app, http_protocol
from coven.server.framing import LeanWebSocketProtocol
from tests.server.helpers import served


@contextmanager
def _serving(http: type[Any], **config: Any) -> Iterator[str]:
    """The echo app under uvicorn in a thread of this process (its objects are this test's to count);
    ``config``: uvicorn's settings beyond the bench's."""
    with served(create_echo_app(), http=http, **{**TRANSPORT, **config}) as port:
        yield f"ws://{LOOPBACK}:{port}{ECHO_PATH}"


def _protocols(kind: type[Any] = HttpToolsProtocol) -> int:
    """The protocol objects of ``kind`` alive in this process (by their type: ``isinstance`` would look
    through a dead weak proxy, and fail)."""
    return sum(issubclass(type(o), kind) for o in gc.get_objects())


def _left_behind(
    http: type[Any], connections: int, kind: type[Any] = HttpToolsProtocol, **config: Any
) -> int:
    """How many protocol objects of ``kind`` outlive ``connections`` closed websocket connections, with the
    collector off (what only a collection would free)."""
    with _serving(http, **config) as url:
        gc.collect()
        gc.disable()
        try:
            before = _protocols(kind)
            for i in range(connections):
                with connect(url) as ws:
                    ws.send(f"hello {i}")
                    assert ws.recv(timeout=10) == f"hello {i}"
            time.sleep(0.3)  # the server sees the last close
            return _protocols(kind) - before
        finally:
            gc.enable()


def test_a_websocket_leaves_no_cycle_behind_at_its_upgrade() -> None:
    assert issubclass(http_protocol(), HttpToolsProtocol)
    assert _left_behind(http_protocol(), 8) == 0
    # uvicorn's own protocol keeps each one in a cycle with its parser until a collection (the reason)
    assert _left_behind(HttpToolsProtocol, 8) >= 8


# ------------------------------------------------------------------------- a request's clock
def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (sending ``trickle`` every 0.1 s meanwhile)."""
    sock.settimeout(0.1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if trickle:
                sock.sendall(trickle)
            if sock.recv(1024) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:  # (reset: closed too)
            return True
    return False


def test_coven_websocket_protocol_leaves_no_cycle_behind() -> None:
    """The protocol that offers the app ``send_text_now`` in the scope (the protocol's own method, so a
    cycle while the app runs) takes it back when the app is done: a closed connection is freed at once."""
    assert _left_behind(http_protocol(), 8, LeanWebSocketProtocol, ws=LeanWebSocketProtocol) == 0


def test_a_client_that_does_not_send_its_request_in_time_is_let_go() -> None:
    # a connection that says nothing, and one that sends its headers a few bytes at a time, each held for
    # ever by uvicorn alone (a slowloris): both are closed once the request's time is up
    with _serving(http_protocol(request_seconds=0.5)) as url:
        port = int(url.split(":")[2].split("/")[0])
        with socket.create_connection((LOOPBACK, port)) as silent:
            assert _closed_within(silent, 10.0)
        with socket.create_connection((LOOPBACK, port)) as slow:
            slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            assert _closed_within(slow, 10.0, trickle=b"X-A: b\r\n")
        # a whole request is answered, and the connection kept alive past the request's time
        with socket.create_connection((LOOPBACK, port)) as fine:
            fine.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            fine.settimeout(10.0)
            assert fine.recv(1024).startswith(b"HTTP/1.1 200")
            time.sleep(1.0)  # (uvicorn's keep-alive is 5 s)
            fine.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert fine.recv(1024).startswith(b"HTTP/1.1 200")
        # a websocket is not an HTTP request any more once upgraded: idle past the request's time, it lives
        with connect(url) as ws:
            time.sleep(1.0)
            ws.send("still here")
            assert ws.recv(timeout=10) == "still here"


def test_uvicorns_own_protocol_holds_a_silent_connection() -> None:
    # (why the clock is needed: the same check against uvicorn's protocol finds the connection still open)
    with _serving(HttpToolsProtocol) as url:
        port = int(url.split(":")[2].split("/")[0])
        with socket.create_connection((LOOPBACK, port)) as silent:
            assert not _closed_within(silent, 1.5)


def test_a_frame_that_is_not_utf8_is_the_clients_fault_on_one_info_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn logs a text frame that is not UTF-8 as an ERROR with its traceback: any client could fill
    the server's log with errors that are not the server's. Through Coven's log filter it is one INFO line
    (none at the ``warning`` level), and the connection is closed (1007) as before."""
    from coven.server.commands import OneLineLogs

    lines: list[tuple[int, str]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append((record.levelno, self.format(record)))

    handler = Keep()
    handler.addFilter(OneLineLogs())
    logger = logging.getLogger("uvicorn.error")
    monkeypatch.setattr(logger, "handlers", [handler])
    monkeypatch.setattr(logger, "propagate", False)
    original = logger.level
    try:
        for level, expected in ((logging.INFO, 1), (logging.WARNING, 0)):
            logger.setLevel(level)
            lines.clear()
            with _serving(http_protocol(), log_config=None, log_level=None) as url, connect(url) as ws:
                with ws.protocol_mutex:  # (a frame the client's own send would refuse to make)
                    ws.protocol.send_text(b"\xff\xfe not text")
                    ws.send_data()
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
            faults = [line for line in lines if "UTF-8" in line[1]]
            assert len(faults) == expected, lines
            assert all(lv == logging.INFO and "\n" not in text for lv, text in faults), faults
            assert not [line for line in lines if line[0] >= logging.ERROR], lines
    finally:
        logger.setLevel(original)  # (through setLevel: the loggers' cached answers go too)


def _sent_until_refused(sock: socket.socket, piece: bytes, most: int) -> tuple[int, bytes]:
    """Send ``piece`` after ``piece`` until the server answers or drops the connection (at most ``most``
    bytes): how much was sent, and the answer (empty if the connection was reset before it was read)."""
    sent = 0
    sock.settimeout(10.0)
    while sent < most:
        readable, _, _ = select.select([sock], [], [], 0.01)
        if readable:
            break
        try:
            sock.sendall(piece)
        except OSError:  # reset: the server closed with our bytes unread
            break
        sent += len(piece)
    try:
        return sent, sock.recv(65536)
    except OSError:
        return sent, b""


def test_a_request_head_that_does_not_end_is_refused_early() -> None:
    # one connection sending one endless header (or URL) held the event loop for seconds: its parser copies
    # all it has at every piece; past the head's bound the request is refused and the connection closed
    with _serving(http_protocol(head_bytes=8192)) as url:
        port = int(url.split(":")[2].split("/")[0])
        for start in (b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ", b"GET /api/health?q="):
            with socket.create_connection((LOOPBACK, port)) as greedy:
                greedy.sendall(start)
                sent, answer = _sent_until_refused(greedy, b"a" * 1024, 8 * 2**20)
                assert sent < 2**20, "the server went on reading an endless head"
                assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:80]
        # a head within the bound is answered, and a body larger than the bound is not a head: on one
        # connection kept alive, a request with a 20 kB body, then another
        with socket.create_connection((LOOPBACK, port)) as fine:
            fine.settimeout(10.0)
            fine.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Fine: " + b"b" * 6000 + b"\r\n\r\n")
            assert fine.recv(4096).startswith(b"HTTP/1.1 200")
            body = b"c" * 20_000
            fine.sendall(b"POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n" + body)
            assert fine.recv(4096).startswith(b"HTTP/1.1 405")  # (the route takes GET: not refused as a head)
            fine.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert fine.recv(4096).startswith(b"HTTP/1.1 200")
