"""A bare Starlette websocket echo: the yardstick ``coven bench server`` measures the server against.

Every text frame a client sends comes back unchanged on the same connection; nothing is parsed,
stored or fanned out. Served by uvicorn with the same transport settings as the bench's Coven server,
its CPU time per message is what one websocket round trip costs on this machine.

Beside it, the same app fans frames out (:data:`FAN_PATH`): a frame sent on one connection of a group
goes, unchanged, to every connection of that group, the sender's included. With a group as large as a
table, its CPU time per message is what a move's frames cost through the transport alone (one in, one
out per seat), with nothing computed: the floor under a Coven move.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

ECHO_PATH = "/ws/echo"
FAN_PATH = "/ws/echo/fan/{group}"
HEALTH_PATH = "/api/health"
LOOPBACK = "127.0.0.1"


HEAD_BYTES = 64 * 1024
"""The most a request's head (its request line and headers) may take; past it, the request is refused
with a 431 and the connection closed. A browser's request head is a few hundred bytes (with cookies, a
few kB: Coven sets none)."""

REQUEST_SECONDS = 20.0
"""How long a client has to send a whole HTTP request (its headers, and its body if it has one), from the
moment it connects or begins the request; past it, the connection is closed."""


def http_protocol(request_seconds: float = REQUEST_SECONDS, head_bytes: int = HEAD_BYTES) -> type[Any]:
    """uvicorn's HTTP protocol (httptools), letting go of its parser when a connection becomes a websocket,
    closing a connection whose request does not arrive whole within ``request_seconds``, and refusing a
    request whose head outgrows ``head_bytes``.

    The parser holds the protocol's bound methods (its callbacks) and the protocol holds the parser: once
    the connection is handed to the websocket protocol, nothing else refers to the two, and the cycle
    (with the transport, flow control and event it holds) waited for a garbage collection. Every websocket
    connection left about 26 such objects, and a young collection that freed those of a few hundred
    connections stopped the whole server for 20-90 ms on this project's machines (issue 12: the slowest
    1 % of acks came in such stalls, every table waiting at once). Let go at the upgrade, they are freed
    at once, a connection at a time. ``coven serve`` serves with it too (it lives here, beside
    :data:`TRANSPORT`, because this module must run as a script without the coven package).

    uvicorn closes a connection that idles between two requests (its keep-alive timeout), but not one that
    says nothing after connecting, nor one that sends its request a byte at a time: a client could hold
    as many connections as the server may open files, each for ever ("slowloris"), and nobody else could
    connect. Here the request's clock runs from the connection (or the request's first byte) until the
    request is whole (or the connection becomes a websocket, which has its own pings).

    Nor does either bound a request's head: the parser's callbacks join each piece of a URL or a header
    value to what came before (``bytes +=``), a copy of the whole each time, so one connection that sent
    one endless header held the event loop for seconds at a time, every table waiting (found by an
    attacker's pass for issue 12: acks of 0.3-5.3 s, pings of 1-3.6 s, 120 MB for a 114 MB header). Here
    a head is counted as it arrives, and past ``head_bytes`` the request is refused with a 431 and the
    connection closed: a few pieces of at most 256 kB are copied, never more.
    """
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    refusal = b"request head too large: its line and headers may take at most %d bytes" % head_bytes
    too_large = (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        b"content-type: text/plain; charset=utf-8\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(refusal), refusal)
    )

    class HttpProtocol(HttpToolsProtocol):
        _request_timer: asyncio.TimerHandle | None = None
        _in_head = True
        """Between two requests, or in a request's head: what arrives is counted in :attr:`_head`."""
        _head = 0
        _turns = 0
        """Heads and requests completed: a piece of data in which one did is not counted (it may hold a
        body, or the start of the next head: at most one piece, of at most 256 kB, goes uncounted)."""

        def data_received(self, data: bytes) -> None:
            turns = self._turns
            super().data_received(data)
            if not self._in_head or self._turns != turns:
                return
            self._head += len(data)
            if self._head > head_bytes and not self.transport.is_closing():
                self._in_head = False
                self._stop_request_clock()
                self.transport.write(too_large)
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._in_head, self._head, self._turns = False, 0, self._turns + 1
            super().on_headers_complete()

        def _start_request_clock(self) -> None:
            self._stop_request_clock()
            self._request_timer = self.loop.call_later(request_seconds, self._request_too_slow)

        def _stop_request_clock(self) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None

        def _request_too_slow(self) -> None:
            self._request_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_request_clock()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_request_clock()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._start_request_clock()

        def on_message_complete(self) -> None:
            self._stop_request_clock()
            self._in_head, self._head, self._turns = True, 0, self._turns + 1  # (next: the next head)
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._stop_request_clock()
            super().handle_websocket_upgrade()
            self.parser = None  # type: ignore[assignment]  # (the connection's data goes to the websocket now)

    return HttpProtocol


TRANSPORT: dict[str, Any] = {"log_level": "warning", "ws_max_size": 2**24, "ws_per_message_deflate": False}
"""uvicorn's settings for the bench's Coven server and for the echo app alike (with :func:`http_protocol`)."""


async def _echo(websocket: WebSocket) -> None:
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


_groups: dict[str, list[WebSocket]] = {}
"""The fan-out's groups: their connections, by the group's name in the path."""


async def _fan(websocket: WebSocket) -> None:
    name = str(websocket.path_params["group"])
    members = _groups.setdefault(name, [])
    members.append(websocket)  # (in the group before its client can send: it is, once accepted)
    try:
        await websocket.accept()
        while True:
            text = await websocket.receive_text()
            for member in members:
                with contextlib.suppress(Exception):  # (a member that has just gone)
                    await member.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        members.remove(websocket)
        if not members:
            del _groups[name]


async def _health(_request: Request) -> JSONResponse:
    return JSONResponse({"ok": True, "echo": True})


def create_echo_app() -> Starlette:
    """The echo app: ``GET /api/health``, the echo socket at ``/ws/echo`` and the fan-out's sockets at
    ``/ws/echo/fan/{group}``."""
    return Starlette(
        routes=[
            Route(HEALTH_PATH, _health),
            WebSocketRoute(ECHO_PATH, _echo),
            WebSocketRoute(FAN_PATH, _fan),
        ]
    )


def serve_on_free_port(app: Any, port_file: str, ws: type[Any] | None = None) -> None:
    """Serve ``app`` with uvicorn on a loopback port the kernel picks, written to ``port_file`` once bound;
    ``ws``: the websocket protocol's class (default uvicorn's own, as the echo is served).

    The server binds its own socket and says which port it got, so two servers started side by side
    can never be handed the same port (nor lose theirs to another process between a parent's
    choice and the child's bind). The file appears whole (written, then renamed) and only once
    the socket listens.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, 0))
    sock.listen(2048)
    target = Path(port_file)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(str(sock.getsockname()[1]), encoding="ascii")
    os.replace(partial, target)
    protocol: dict[str, Any] = {} if ws is None else {"ws": ws}
    uvicorn.Server(uvicorn.Config(app, http=http_protocol(), **protocol, **TRANSPORT)).run(sockets=[sock])


if __name__ == "__main__":  # ``python -P echo.py PORT_FILE``: a script, without importing the coven package
    serve_on_free_port(create_echo_app(), sys.argv[1])
