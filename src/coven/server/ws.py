"""The live socket: one small state machine per connection (hello, then play or watch).

Frames are size-checked and rate-limited before parsing; parsing yields one of a closed set of typed
messages (:mod:`coven.server.messages`); every refusal is a typed ``error`` and changes nothing. The
parsers are total (any frame gives a typed message or a typed error); should anything still fail, the
connection's one catch-all (:func:`table_socket`) logs one line, answers ``internal`` and closes that
connection only (1011).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from coven.core import Seat
from coven.server.framing import SEND_TEXT_NOW
from coven.server.limits import ClientCounts, RateLimiter
from coven.server.messages import (
    PROTOCOL_VERSION,
    Act,
    Chat,
    CloseCode,
    ErrorCode,
    Hello,
    Ping,
    PlainAct,
    ProtocolError,
    Sync,
    dumps,
    error_message,
    message_id,
    parse_client_message,
    shorten,
    visible_text,
)
from coven.server.settings import Settings
from coven.server.table import Ack, Table
from coven.server.tables import (
    ActionSource,
    TableService,
    checked_action,
    checked_text_action,
    parse_action_json,
)
from coven.store import unreachable

log = logging.getLogger("coven.server.ws")


class _CloseError(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


TRANSPORT_KEY = "coven.transport"
"""The scope key under which the app's edge (:class:`coven.server.app.HttpEdge`) leaves a websocket's raw
ASGI ``receive`` and ``send``: a table's frames go straight to the server's transport, past Starlette's
per-frame state checks and its two exception wrappers (which have nothing to do once the socket is
accepted: what can go wrong on a frame is a closed connection, handled here)."""


class Connection:
    """A client of one table: its seat (None: spectator), its outgoing frames and their writer.

    A frame is written at once when nothing is waiting before it: by the server protocol's own
    ``send_text_now`` (:mod:`coven.server.framing`), else by the server's ``send`` driven by hand, which,
    as long as the transport takes the bytes (no back-pressure), finishes without suspending; either way
    the frame costs no hop through a task (a frame per seat per move goes through here). A send that does
    suspend, and every frame queued behind it, are finished in order by the connection's writer task.
    """

    def __init__(self, websocket: WebSocket, settings: Settings) -> None:
        self.websocket = websocket
        self.settings = settings
        self.seat: Seat | None = None
        self.token: str | None = None
        self.token_hash: str | None = None
        """The stored hash that matched :attr:`token` at hello (a later act with it needs no hashing)."""
        self.joined = False
        self.watching = False
        """Counted as one of the table's spectators (:attr:`TableService.spectators`), until it goes."""
        self.queue: deque[str | tuple[int, str]] = deque()
        """Frames waiting for the writer (a close: its code and reason, last)."""
        self.queued_chars = 0
        """The characters of the frames in :attr:`queue`."""
        self._waiting: asyncio.Future[None] | None = None
        """The writer's wait for work, while it has none."""
        self._suspended: tuple[Coroutine[Any, Any, None], Any] | None = None
        """A send begun by hand that had to wait (its coroutine, what it waits on): the writer's first job."""
        self.gone = False
        """The client is gone (a send found the connection closed): frames are dropped."""
        self.overflow = False
        self.limiter = RateLimiter(settings.rate_limit, settings.rate_burst)
        self.strikes = 0
        transport = websocket.scope.get(TRANSPORT_KEY)
        extensions = websocket.scope.get("extensions") or {}
        self._send_now: Callable[[str], bool] | None = extensions.get(SEND_TEXT_NOW)
        """The server protocol's own way to write a text frame at once (see :mod:`coven.server.framing`),
        if it has one."""
        self._receive: Callable[[], Awaitable[Message]]
        self._send: Callable[[Message], Awaitable[None]]
        if transport is None:  # an app without the edge: Starlette's own methods do the same
            self._receive, self._send = websocket.receive, websocket.send
        else:
            self._receive, self._send = transport

    def receive(self) -> Awaitable[Message]:
        """The next ASGI message from the client (after :meth:`WebSocket.accept`)."""
        return self._receive()

    def _wake(self) -> None:
        waiting = self._waiting
        if waiting is not None:
            self._waiting = None
            if not waiting.done():
                waiting.set_result(None)

    def send_text(self, text: str) -> None:
        if self.overflow or self.gone:
            return
        if self._waiting is not None and not self.queue:  # the writer is idle: write it now
            self._write_now(text)
            return
        if (
            len(self.queue) >= self.settings.send_queue
            or self.queued_chars + len(text) > self.settings.send_queue_chars
        ):
            self.overflow = True
            self.queue.append((CloseCode.TOO_SLOW, "not reading"))
        else:
            self.queue.append(text)
            self.queued_chars += len(text)
        self._wake()

    def _write_now(self, text: str) -> None:
        send_now = self._send_now
        if send_now is not None:
            try:
                if send_now(text):
                    return
            except Exception:  # as below: the connection's failure, not the sender's
                self._lost()
                return
        send = self._send({"type": "websocket.send", "text": text})
        try:
            awaited = send.send(None)  # type: ignore[attr-defined]
        except StopIteration:
            return
        except Exception:  # whatever the failure, it stays this connection's, not the sender's (another
            self._lost()  # seat's move)
            return
        self._suspended = (send, awaited)  # type: ignore[assignment]
        self._wake()

    def _lost(self) -> None:
        """A send failed: the client went away (its reader learns it from the disconnect); drop the rest."""
        self.gone = True
        self.queue.clear()
        self.queued_chars = 0

    def close(self, code: int, reason: str) -> None:
        """Close after every message queued so far has gone out."""
        if not self.overflow:
            self.overflow = True
            self.queue.append((code, reason))
            self._wake()

    async def writer(self) -> None:
        queue = self.queue
        while True:
            sending: Awaitable[None]
            suspended = self._suspended
            if suspended is not None:  # a send begun by hand comes first
                self._suspended = None
                sending = _go_on(*suspended)
            elif not queue:
                self._waiting = asyncio.get_running_loop().create_future()
                await self._waiting
                continue
            else:
                item = queue.popleft()
                if isinstance(item, str):
                    self.queued_chars -= len(item)
                else:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(item[0], item[1])
                    return
                sending = self._send({"type": "websocket.send", "text": item})
            try:
                await sending
            except Exception:
                self._lost()
                return


async def _go_on(send: Coroutine[Any, Any, None], awaited: Any) -> None:
    """Finish a send coroutine that was driven by hand until it suspended on ``awaited``: do with what it
    yielded what a task does (wait for the future, or give the loop a turn for a bare yield), then drive
    it on, until it returns."""
    while True:
        try:
            if awaited is None:
                await asyncio.sleep(0)
            else:
                awaited._asyncio_future_blocking = False  # taken in charge, as a task marks it
                await awaited
        except BaseException as exc:
            try:
                awaited = send.throw(exc)
            except StopIteration:
                return
            continue
        try:
            awaited = send.send(None)
        except StopIteration:
            return


def describe(exc: BaseException) -> str:
    """An exception on one short line (logs carry no traceback)."""
    return shorten(f"{type(exc).__name__}: {exc}")


async def table_socket(
    websocket: WebSocket, service: TableService, sockets: ClientCounts | None = None
) -> None:
    """Serve one table's live socket. ``sockets``: the connections each client address holds (one more is
    refused past its limit: closed with 4030 before anything else is done for it)."""
    settings = service.settings
    await websocket.accept()
    table_id = str(websocket.path_params.get("table_id", ""))
    conn = Connection(websocket, settings)
    writer = asyncio.create_task(conn.writer())
    pinger: asyncio.Task[None] | None = None
    table: Table | None = None
    closing = False
    host = websocket.client.host if websocket.client is not None else None
    counted = sockets is None or sockets.enter(host)
    try:
        if not counted:
            assert sockets is not None
            message = (
                f"too many connections from this address ({sockets.limit} open): close some, then try again"
            )
            conn.send_text(error_message(ErrorCode.RATE_LIMITED, message, None))
            raise _CloseError(CloseCode.TOO_MANY_SOCKETS, "too many connections")
        table = await service.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            conn.send_text(error_message(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}", None))
            raise _CloseError(CloseCode.UNKNOWN_TABLE, "unknown table")
        pinger = asyncio.create_task(_keepalive(conn, settings.ping_interval))
        await _serve(conn, table, service)
    except _CloseError as closed:
        conn.close(closed.code, closed.reason)
        closing = True
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # the connection's one catch-all: the parsers are total, so this is a bug
        log.error("table %s: a connection failed: %s", shorten(table_id, 40), describe(exc))
        number = table.number if table is not None else None
        if unreachable(exc):  # not a bug: the database is away for a while (the page connects again)
            message = "the server cannot reach its database just now: try again in a moment"
            conn.send_text(error_message(ErrorCode.UNAVAILABLE, message, number))
            conn.close(CloseCode.TRY_AGAIN_LATER, "database unavailable")
        else:
            conn.send_text(error_message(ErrorCode.INTERNAL, "the server failed on this connection", number))
            conn.close(CloseCode.INTERNAL_ERROR, "internal error")
        closing = True
    finally:
        if counted and sockets is not None:
            sockets.leave(host)
        if table is not None:
            table.listeners.discard(conn)
            if conn.watching:
                service.spectators.leave(table.id)
            service.let_go_if_finished(table)
        if pinger is not None:
            pinger.cancel()
        if closing and websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), timeout=2.0)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _keepalive(conn: Connection, interval: float) -> None:
    if interval <= 0:
        return
    while True:
        await asyncio.sleep(interval)
        conn.send_text('{"type":"ping"}')


async def _receive(
    conn: Connection, timeout: float | None
) -> Hello | Act | PlainAct | Sync | Ping | Chat | None:
    """The next well-formed message, or None after a refused frame (the error is already queued)."""
    settings = conn.settings
    if timeout is not None:
        try:
            async with asyncio.timeout(timeout):  # (no task of its own, as wait_for would make)
                message = await conn.receive()
        except TimeoutError:
            conn.send_text(error_message(ErrorCode.HELLO_REQUIRED, "no hello in time", None))
            raise _CloseError(CloseCode.HELLO_TIMEOUT, "no hello") from None
    else:
        message = await conn.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    data = message.get("bytes")
    if _too_large(text, data, settings.max_frame_bytes):
        conn.send_text(
            error_message(ErrorCode.TOO_LARGE, f"frames are at most {settings.max_frame_bytes} bytes", None)
        )
        raise _CloseError(CloseCode.TOO_BIG, "frame too large")
    if not conn.limiter.allow():
        conn.strikes += 1
        if conn.strikes >= settings.rate_strikes:
            conn.send_text(error_message(ErrorCode.RATE_LIMITED, "too many messages; closing", None))
            raise _CloseError(CloseCode.RATE_LIMITED, "rate limited")
        said = f"at most {settings.rate_limit:g} messages a second"
        msg_id = message_id(text) if isinstance(text, str) else None  # (which message it was)
        conn.send_text(error_message(ErrorCode.RATE_LIMITED, said, None, msg_id))
        return None
    conn.strikes = 0
    if not isinstance(text, str):
        conn.send_text(error_message(ErrorCode.BAD_JSON, "frames are JSON text, not binary", None))
        return None
    try:
        return parse_client_message(text)
    except ProtocolError as exc:
        conn.send_text(error_message(exc.code, exc.message, None, exc.msg_id, reason=exc.reason))
        return None


def _too_large(text: object, data: object, limit: int) -> bool:
    """Whether a frame's payload exceeds ``limit`` bytes (text counted as UTF-8)."""
    if isinstance(text, str):
        # a character is 1 to 4 bytes: only text near the limit needs encoding to be measured
        if len(text) > limit:
            return True
        return len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit
    return isinstance(data, bytes | bytearray) and len(data) > limit


async def _serve(conn: Connection, table: Table, service: TableService) -> None:
    settings = service.settings
    deadline = time.monotonic() + settings.hello_timeout
    # ----------------------------------------------------------- hello first
    while True:
        message = await _receive(conn, max(0.01, deadline - time.monotonic()))
        if message is None:
            continue
        if not isinstance(message, Hello):
            conn.send_text(error_message(ErrorCode.HELLO_REQUIRED, "send hello first", None))
            continue
        break
    if message.protocol != PROTOCOL_VERSION:
        conn.send_text(
            error_message(ErrorCode.BAD_PROTOCOL, f"this server speaks protocol {PROTOCOL_VERSION}", None)
        )
        raise _CloseError(CloseCode.BAD_PROTOCOL, "protocol version")
    if message.token is not None:
        seat = table.seat_of_token(message.token)
        if seat is None:
            conn.send_text(error_message(ErrorCode.BAD_TOKEN, "this token opens no seat here", None))
            raise _CloseError(CloseCode.BAD_TOKEN, "bad token")
        conn.seat = seat
        conn.token = message.token
        conn.token_hash = table.seats[seat].token_hash
    if conn.seat is None:
        if not service.spectators.enter(table.id):
            limit = settings.spectators_per_table
            text = f"this table has as many spectators as it can take ({limit}): try again later"
            conn.send_text(error_message(ErrorCode.TOO_MANY_SPECTATORS, text, None))
            raise _CloseError(CloseCode.TOO_MANY_SPECTATORS, "too many spectators")
        conn.watching = True
    conn.joined = True
    if conn.seat is not None and not table.seats[conn.seat].claimed:
        await service.claim(table, conn.seat)  # before the welcome: it shows the seat taken
    if conn.seat is not None:
        await service.returned(table, conn.seat)  # a bot that stood in gives the seat back
    async with table.lock:
        # The welcome (with the seats), the sync and the listening, with nothing between them: a seat taken,
        # or a bot standing in, is broadcast under this lock, so it is in the welcome or reaches this
        # connection as a ``table`` frame after it (the welcome sent before the lock let two people joining
        # at once each miss the other's claim, and see them absent for the whole game).
        _welcome(conn, table)
        lines = await service.chat_log(table)
        conn.send_text(await service.sync_text(table, conn.seat, message.last))
        if lines:  # (nothing when nothing was said: a client keeps what it has)
            conn.send_text(dumps({"type": "chat_log", "lines": [line.to_json() for line in lines]}))
        table.listeners.add(conn)
    # ------------------------------------------------------------ main loop
    while True:
        message = await _receive(conn, None)
        if message is None:
            continue
        if isinstance(message, Hello):
            conn.send_text(error_message(ErrorCode.ALREADY_JOINED, "hello was already said", table.number))
        elif isinstance(message, Ping):
            conn.send_text(dumps({"type": "pong", "id": message.id}))
        elif isinstance(message, Sync):
            async with table.lock:
                text = await service.sync_text(table, conn.seat, message.last)
            conn.limiter.charge(len(text) // settings.sync_chars_per_token)
            conn.send_text(text)
        elif isinstance(message, Chat):
            await _chat(conn, table, service, message)
        else:
            await _act(conn, table, service, message)


def _welcome(conn: Connection, table: Table) -> None:
    """The ``welcome`` frame: who this connection is at the table, and the table's seats as they stand."""
    conn.send_text(
        dumps(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "table": table.id,
                "game": table.game.spec.id,
                "seat": conn.seat,
                "role": "spectator" if conn.seat is None else "player",
                "players": table.players,
                "options": table.options,
                "seats": table.seats_json(),
                "status": table.status,
                "pace": {"kind": table.pace, "seconds": table.pace_seconds},
            }
        )
    )


async def _chat(conn: Connection, table: Table, service: TableService, message: Chat) -> None:
    """Say a line, acknowledged to its sender with the chat's ``id`` (in the ``chat`` frame that shows it);
    every refusal carries the ``id`` too."""
    try:
        if conn.seat is None:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators read the chat but do not write")
        text = visible_text(message.text)  # (a line of nothing visible says nothing)
        if not text:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "say something: the line is empty")
        if not service.chat_limits.allow(table.id, conn.seat):  # the seat's, whichever socket says it
            why = "you are saying more than a table can read: wait a moment, then say it again"
            raise ProtocolError(ErrorCode.RATE_LIMITED, why)
        try:
            await service.say(table, conn.seat, text, Ack(conn, message.id))
        except ProtocolError:  # not kept, so not said: it does not count against the seat's limit
            service.chat_limits.give_back(table.id, conn.seat)
            raise
    except ProtocolError as exc:
        conn.send_text(error_message(exc.code, exc.message, table.number, message.id, exc.reason))


async def _act(conn: Connection, table: Table, service: TableService, message: Act | PlainAct) -> None:
    seat = conn.seat
    if seat is None:
        conn.send_text(error_message(ErrorCode.SPECTATOR, "spectators cannot act", table.number, message.id))
        return
    token = message.token if message.token is not None else conn.token
    # the token said at hello was checked then; another one (or a seat's token changed since) is checked now
    checked = token is not None and token == conn.token and conn.token_hash == table.seats[seat].token_hash
    if not checked and (token is None or not table.token_matches(seat, token)):
        conn.send_text(
            error_message(ErrorCode.BAD_TOKEN, "this token is not your seat's", table.number, message.id)
        )
        return
    source: ActionSource
    if message.action is not None:
        if not message.action.isascii() and any(c.isdigit() and not c.isascii() for c in message.action):
            # int() reads "٣" as 3 and str.isdigit() takes "²": a game's parser must never see them
            text = "digits in a notation are ASCII 0-9"
            conn.send_text(error_message(ErrorCode.BAD_NOTATION, text, table.number, message.id))
            return
        source = checked_text_action(message.action)
    else:
        assert message.action_json is not None
        source = checked_action(parse_action_json(message.action_json))

    await service.returned(table, seat)  # acting is coming back: a bot that stood in steps aside
    try:
        ack = Ack(conn, message.id)
        await service.submit(table, seat, message.number, source, ack, animation_ms=message.animation_ms)
    except ProtocolError as exc:
        conn.send_text(error_message(exc.code, exc.message, table.number, message.id, exc.reason))
