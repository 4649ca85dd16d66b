"""The server's websocket protocol: uvicorn's (on websockets' sans-I/O parser), with a direct path for the
frames a game is made of.

A move is one small text frame in and one text frame out per seat. Through uvicorn's protocol, each frame
in passes through websockets' generator-driven parser (a ``Frame`` object, its checks, an event), then
uvicorn's dispatch and an ``asyncio.Queue``; each frame out is a ``Frame`` object serialized by the library,
behind the send coroutine's checks. Measured for issue 12 (a fake transport, this project's machine): a
small frame in, until the app has it, 7.9 µs of CPU through uvicorn's protocol and 4.1 µs here (each with
the event loop's turn that hands it over); a 1.3 kB frame out, 1.8 µs through uvicorn's ``send`` and
0.8 µs here (less by :meth:`LeanWebSocketProtocol.send_text_now`, which needs no coroutine).

The direct path takes only what needs no judgement: once the handshake is done and the connection is
open, a whole client frame that is a complete (FIN) text frame, masked, no longer than the size limit,
whose UTF-8 is valid, outside a fragmented message. Everything else (pings, pongs, closes, binary frames,
fragments, bad masking or reserved bits, invalid UTF-8) goes to the library as it would have, one whole
frame at a time, so that the library's parser is always at a frame's start when it gets one and judges it
as it would have (closing with 1002, 1007, ...). A frame announcing more than the size limit hands the
rest of the connection to the library, which refuses it from its header (1009) without buffering it.
Frames out: a text frame is written directly when the connection is open and the transport takes bytes;
anything else goes through uvicorn.

The differential tests (``tests/server/test_framing.py``) feed the same byte streams, cut anywhere, to this
protocol and to uvicorn's, and require the same messages to the app and the same bytes to the client.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # (a build of the library without its C part)
    from websockets.utils import apply_mask

SEND_TEXT_NOW = "coven.send_text_now"
"""The scope extension under which this protocol offers :meth:`LeanWebSocketProtocol.send_text_now`: a
text frame written at once, without a coroutine, or False when only the ASGI ``send`` may write now."""

_TEXT_FIN = 0x81
"""A frame's first byte for a whole text message: FIN, no reserved bit, opcode 1."""
_HEAD_16 = struct.Struct("!BBH")
_HEAD_64 = struct.Struct("!BBQ")


class _Inbox:
    """What uvicorn's protocol asks of its ``asyncio.Queue`` (``put_nowait``, ``get``, ``empty``), for one
    reader: the app's ``receive``. A deque and, while the reader waits, one future."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._items: deque[Any] = deque()
        self._loop = loop
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        items = self._items
        while not items:
            waiter = self._waiter
            if waiter is None or waiter.done():
                waiter = self._waiter = self._loop.create_future()
            await waiter
        return items.popleft()


def _at_frame_start(parser: Any) -> bool:
    """Whether websockets' parser (a generator) waits for the first byte of a frame: suspended in the
    reader's ``at_eof``, which it calls before each frame, with nothing buffered. (Anything else, or
    another version of the library that parses otherwise: False, and the connection stays the library's.)"""
    inner = parser
    while getattr(inner, "gi_yieldfrom", None) is not None:
        inner = inner.gi_yieldfrom
    code = getattr(inner, "gi_code", None)
    return code is not None and code.co_name == "at_eof"


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with a direct path for whole text frames (see the module's text).
    Served by ``coven serve`` and the bench's Coven server (``uvicorn.Config(ws=...)``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Inbox(self.loop)  # type: ignore[assignment]
        self._framing = False
        """Frames are cut here (the library's parser waits at a frame's start between them)."""
        self._library_only = False
        """The library has the rest of the connection (a frame past the size limit, or a parser failure)."""
        self._partial = bytearray()
        """The start of a frame whose end has not arrived (a frame that comes in many pieces is gathered
        here, each piece appended once: never a copy of the whole for each piece)."""

    # ------------------------------------------------------------------ frames in
    def data_received(self, data: bytes) -> None:
        if not self._framing:
            super().data_received(data)
            self._framing = (
                not self._library_only
                and self.handshake_initiated
                and self.conn.parser_exc is None
                and not self.conn.reader.buffer
                and _at_frame_start(self.conn.parser)
            )
            return
        partial = self._partial
        buffer: bytes | bytearray = data
        if partial:
            partial += data
            buffer = partial
        conn = self.conn
        limit = conn.max_message_size
        size = len(buffer)
        at = 0
        while size - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            length = second & 0x7F
            head = 2
            if length == 126:
                if size - at < 4:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 4], "big")
                head = 4
            elif length == 127:
                if size - at < 10:
                    break
                length = int.from_bytes(buffer[at + 2 : at + 10], "big")
                head = 10
            if limit is not None and length > limit:  # the library refuses it from its header
                self._hand_over(bytes(buffer[at:]))
                return
            masked = second & 0x80
            end = at + head + (4 if masked else 0) + length
            if end > size:
                break
            if first == _TEXT_FIN and masked and self._direct():
                body = head + 4
                text = _text(apply_mask(buffer[at + body : end], buffer[at + head : at + body]))
                if text is not None:
                    self._deliver(text)
                    at = end
                    continue
            super().data_received(bytes(buffer[at:end]))  # one whole frame: the library judges it
            at = end
            if conn.parser_exc is not None or self.transport.is_closing():
                self._hand_over(bytes(buffer[at:]))
                return
        if buffer is partial:
            del partial[:at]
        elif at < size:
            partial += buffer[at:]

    def _direct(self) -> bool:
        """Whether a whole text frame may go straight to the app now, as the library would let it (open:
        neither side has sent its close; outside a fragmented message)."""
        return self.conn.state is State.OPEN and self.conn.current_size is None

    def _deliver(self, text: str) -> None:
        """What uvicorn does with a text message: to the app's queue, and no more reading until it is
        taken (the app's ``receive`` reads again)."""
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def _hand_over(self, rest: bytes) -> None:
        """The library has the connection from here on (with ``rest``, the data not yet parsed)."""
        self._framing = False
        self._library_only = True
        self._partial.clear()
        if rest and not self.transport.is_closing():
            super().data_received(rest)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # (the app's task has not begun: it finds the extension)
            scope["extensions"][SEND_TEXT_NOW] = self.send_text_now

    async def run_asgi(self) -> None:
        try:
            await super().run_asgi()
        finally:
            # The scope holds this protocol's method and this protocol the scope: a reference cycle, which
            # the collector (tuned for a server: rarely a full pass) would keep for long, with everything
            # the connection holds. The app is done with it: cut it now.
            self.scope["extensions"].pop(SEND_TEXT_NOW, None)

    # ------------------------------------------------------------------ frames out
    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now, if the connection is open and the transport takes bytes;
        False (nothing written) if not: then the ASGI ``send`` must (it waits, or raises)."""
        if not (self.conn.state is State.OPEN and self.writable.is_set() and not self.disconnected):
            return False
        data = text.encode()
        size = len(data)
        if size < 126:
            head = bytes((_TEXT_FIN, size))
        elif size < 65536:
            head = _HEAD_16.pack(_TEXT_FIN, 126, size)
        else:
            head = _HEAD_64.pack(_TEXT_FIN, 127, size)
        self.transport.write(head + data)
        return True

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.send" and message.get("bytes") is None:
            text = message.get("text")
            if text is not None and self.send_text_now(text):
                return
        await super().send(message)


def _text(payload: bytes | bytearray) -> str | None:
    try:
        return payload.decode()
    except UnicodeDecodeError:  # the library's path refuses it (1007)
        return None


def protocols() -> dict[str, Any]:
    """uvicorn's settings for the protocols Coven serves with (``uvicorn.run(app, **protocols(), ...)``):
    the HTTP protocol of :func:`coven.server.echo.http_protocol` and this websocket protocol. ``coven
    serve`` serves with them, and so do the bench's server and the test suite's real servers."""
    from coven.server.echo import http_protocol

    return {"http": http_protocol(), "ws": LeanWebSocketProtocol}
