"""The server's websocket protocol (:mod:`coven.server.framing`) against uvicorn's own.

The same client byte streams go to both: to uvicorn's a frame at a time, to Coven's cut into pieces
anywhere. The app behind each must receive the same messages, and the client the same bytes (the
handshake's answer, the app's replies, pongs, closes), whatever the frames: text of any length, pings,
pongs, binary, fragments, bad UTF-8, unmasked frames, reserved bits, unknown opcodes, a frame past the
size limit, a close, frames after it. (uvicorn's own protocol is the reference a frame at a time only: when
a piece holds whole frames and then a frame that breaks the protocol, it drops the whole frames too, so
what its app receives depends on how the network cut the stream. Coven's delivers every whole frame that
came before the break, however the stream was cut.) And the direct path must really be the one a game's
frames take."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import os
import struct
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect as ws_connect

from coven.server.framing import SEND_TEXT_NOW, LeanWebSocketProtocol, protocols
from tests.server.helpers import served

LIMIT = 4096
"""The size limit of the protocols under test (``ws_max_size``)."""

HANDSHAKE = (
    b"GET /ws/tables/abc HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class _Transport:
    """What a protocol did to its connection: the bytes written, and each pause, resume and close."""

    def __init__(self) -> None:
        self.log: list[tuple[str, bytes]] = []
        self.closing = False
        self.paused = False

    def write(self, data: bytes) -> None:
        self.log.append(("write", bytes(data)))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            self.log.append(("close", b""))

    def pause_reading(self) -> None:
        self.paused = True
        self.log.append(("pause", b""))

    def resume_reading(self) -> None:
        self.paused = False
        self.log.append(("resume", b""))

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 40000)}.get(name, default)


def _opened(kind: type[WebSocketsSansIOProtocol], app: Any) -> tuple[WebSocketsSansIOProtocol, _Transport]:
    """A ``kind`` protocol serving ``app`` (frames of at most :data:`LIMIT` bytes), its connection made."""
    config = Config(
        app,
        ws_max_size=LIMIT,
        ws_ping_interval=None,
        ws_per_message_deflate=False,
        lifespan="off",
        log_level="critical",
    )
    config.load()
    proto = kind(config=config, server_state=ServerState(), app_state={})
    transport = _Transport()
    proto.connection_made(transport)  # type: ignore[arg-type]
    return proto, transport


Seen = tuple[list[Any], bytes, bool]
"""What a session gave: the app's messages, every byte written to the client, whether it was closed."""


async def _session(
    protocol: type[WebSocketsSansIOProtocol],
    pieces: Sequence[bytes],
    reply: bool | str = True,
    early: bytes = b"",
) -> Seen:
    """Feed ``pieces`` (after the handshake) to a fresh ``protocol`` whose app accepts, records every
    message, and (``reply``) answers each text with the same text upside down (``"close"``: closes the
    connection at the first text instead). ``early``: what the client sends with its handshake, before
    the answer."""
    received: list[Any] = []
    closed: list[bool] = []

    async def app(scope: Any, receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
        received.append(await receive())
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            received.append({k: v for k, v in message.items() if k != "reason"})
            if message["type"] == "websocket.disconnect":
                return
            if reply == "close" and message.get("text") is not None and not closed:
                await send({"type": "websocket.close", "code": 4321, "reason": "enough"})
                closed.append(True)
            elif reply is True and message.get("text") is not None:
                await send({"type": "websocket.send", "text": message["text"][::-1]})

    proto, transport = _opened(protocol, app)
    proto.data_received(HANDSHAKE + early)
    for _ in range(5):
        await asyncio.sleep(0)
    for piece in pieces:
        if transport.closing or transport.paused:  # (a transport reads nothing more while paused)
            break
        proto.data_received(piece)
        for _ in range(5):  # the app takes what came, and reading goes on
            await asyncio.sleep(0)
    if not transport.closing:
        proto.connection_lost(None)
    for _ in range(5):
        await asyncio.sleep(0)
    for task in list(proto.tasks):
        task.cancel()
    await asyncio.gather(*proto.tasks, return_exceptions=True)
    written = b"".join(data for kind, data in transport.log if kind == "write")
    return received, written, transport.closing


def _both(
    frames: Sequence[bytes], pieces: Sequence[bytes] | None = None, reply: bool | str = True
) -> tuple[Seen, Seen]:
    """uvicorn's protocol fed ``frames`` one at a time, and Coven's fed the same bytes in ``pieces``
    (default: the same frames)."""

    async def run() -> tuple[Seen, Seen]:
        stock = await _session(WebSocketsSansIOProtocol, frames, reply)
        lean = await _session(LeanWebSocketProtocol, frames if pieces is None else pieces, reply)
        return stock, lean

    return asyncio.run(run())


def _masked(opcode: Opcode, payload: bytes, fin: bool = True, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    """A client frame (masked, as clients must send them)."""
    head = bytes([(0x80 if fin else 0) | opcode.value])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", size)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


def _text(text: str, **kwargs: Any) -> bytes:
    return _masked(Opcode.TEXT, text.encode(), **kwargs)


def _cut(stream: bytes, cuts: Sequence[int]) -> list[bytes]:
    """``stream`` in pieces, cut at ``cuts`` (offsets, any order, repeats ignored)."""
    points = sorted({c for c in cuts if 0 < c < len(stream)})
    edges = [0, *points, len(stream)]
    return [stream[a:b] for a, b in itertools.pairwise(edges) if b > a]


# ----------------------------------------------------------------------------------- the frames
_texts = st.text(max_size=40).map(_text)
_long_texts = st.integers(min_value=120, max_value=LIMIT).map(lambda n: _text("é" * (n // 2)))
_pings = st.binary(max_size=20).map(lambda b: _masked(Opcode.PING, b))
_pongs = st.binary(max_size=20).map(lambda b: _masked(Opcode.PONG, b))
_binaries = st.binary(max_size=30).map(lambda b: _masked(Opcode.BINARY, b))
_fragments = st.tuples(st.text(max_size=10), st.text(max_size=10)).map(
    lambda parts: _masked(Opcode.TEXT, parts[0].encode(), fin=False) + _masked(Opcode.CONT, parts[1].encode())
)
_lone_starts = st.text(max_size=10).map(lambda t: _masked(Opcode.TEXT, t.encode(), fin=False))
_bad_utf8 = st.sampled_from([b"\xff", b"\xc3", b"ab\xed\xa0\x80"]).map(lambda b: _masked(Opcode.TEXT, b))
_unmasked = st.text(max_size=10).map(lambda t: bytes([0x81, len(t.encode())]) + t.encode())
_reserved = st.text(max_size=10).map(lambda t: bytes([0xC1]) + _text(t)[1:])  # RSV1 set
_unknown = st.binary(max_size=5).map(lambda b: bytes([0x83]) + _masked(Opcode.TEXT, b)[1:])
_too_long = st.just(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", LIMIT + 1) + b"\x00" * 40)
_closes = st.sampled_from([1000, 1001, 4000]).map(lambda code: _masked(Opcode.CLOSE, struct.pack("!H", code)))

_frames = st.one_of(
    _texts,
    _texts,
    _texts,
    _long_texts,
    _pings,
    _pongs,
    _binaries,
    _fragments,
    _lone_starts,
    _bad_utf8,
    _unmasked,
    _reserved,
    _unknown,
    _too_long,
    _closes,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(frames=[_masked(Opcode.TEXT, b"ab", fin=False), _text("x")], cuts=[])  # a text inside a message
@example(frames=[_masked(Opcode.CLOSE, struct.pack("!H", 1000)), _text("after")], cuts=[])
@example(frames=[_text("a"), _masked(Opcode.TEXT, b"\xff"), _text("b")], cuts=[3])
@example(frames=[_text("a"), bytes([0x81, 1]) + b"u", _text("b")], cuts=[])  # unmasked
@example(frames=[_text("a"), bytes([0xC1]) + _text("r")[1:], _text("b")], cuts=[])  # a reserved bit
@example(
    frames=[_masked(Opcode.PING, b"1"), _text("t"), _masked(Opcode.BINARY, b"b"), _text("u")], cuts=[1, 9]
)
@given(
    frames=st.lists(_frames, min_size=1, max_size=8),
    cuts=st.lists(st.integers(min_value=1, max_value=20_000), max_size=6),
)
def test_the_app_and_the_client_see_what_uvicorns_protocol_gives_them(
    frames: list[bytes], cuts: list[int]
) -> None:
    # (the app does not answer here: an answer races with a close that the same piece brings, and which
    # comes first depends on the cut, with uvicorn's protocol too; answers are compared below)
    stock, lean = _both(frames, _cut(b"".join(frames), cuts), reply=False)
    assert lean == stock


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 4095, 4096])
def test_text_of_every_length_class_is_received_and_sent_as_uvicorn_does(size: int) -> None:
    frame = _text("a" * size)
    stock, lean = _both([frame, frame], [frame + frame])  # (two in one piece)
    assert lean == stock
    received = [m for m in lean[0] if m["type"] == "websocket.receive"]
    assert [m["text"] for m in received] == ["a" * size] * 2


def test_a_frame_in_single_bytes_is_gathered_whole() -> None:
    frames = [_text("hello"), _text("x" * 300), _masked(Opcode.PING, b"p"), _text("end")]
    stock, lean = _both(frames, [bytes([b]) for b in b"".join(frames)])
    assert lean == stock
    texts = [m.get("text") for m in lean[0] if m["type"] == "websocket.receive"]
    assert texts == ["hello", "x" * 300, "end"]


@pytest.mark.parametrize("together", [False, True])
def test_frames_after_the_server_closes_go_where_uvicorn_sends_them(together: bool) -> None:
    """Once the app has closed the connection, what the client still sends is not the app's (and the
    client's own close ends it), as with uvicorn's protocol; frames that came in the same piece as the
    one the app answers with its close were already the app's, with uvicorn's protocol too."""
    frames = [_text("first"), _text("second"), _masked(Opcode.PING, b"p"), _text("third")]
    frames.append(_masked(Opcode.CLOSE, struct.pack("!H", 4321)))
    pieces = [b"".join(frames)] if together else frames
    stock, lean = _both(pieces, pieces, reply="close")
    assert lean == stock
    texts = [m.get("text") for m in lean[0] if m["type"] == "websocket.receive"]
    assert texts == (["first", "second", "third"] if together else ["first"])


@pytest.mark.parametrize("early", [b"\x81", b"\x81\x85", b"\x81\x85\r\n\r\n", b"\x81\x85\r\n\r\nab"])
def test_a_frame_begun_with_the_handshake_is_read_whole(early: bytes) -> None:
    """A client that sends the start of a frame with its handshake (before the answer, as it should
    not): its parser is in the middle of a frame, so the connection stays the library's until a frame
    ends."""
    payload = bytes(b ^ m for b, m in zip(b"hello", b"\r\n\r\n\r", strict=True))
    stream = b"\x81\x85\r\n\r\n" + payload + _text("next")
    rest = stream[len(early) :]

    async def run() -> tuple[Seen, Seen]:
        stock = await _session(WebSocketsSansIOProtocol, [rest], reply=False, early=early)
        lean = await _session(LeanWebSocketProtocol, [rest], reply=False, early=early)
        return stock, lean

    stock, lean = asyncio.run(run())
    assert lean == stock


def test_a_game_frame_takes_the_direct_path() -> None:
    """After the handshake, a whole text frame reaches the app without the library's parser; a ping
    goes to the library (which answers it), and the direct path goes on after it."""

    async def run() -> tuple[list[str], int, list[tuple[str, bytes]]]:
        parsed = 0
        received: list[str] = []

        async def app(scope: Any, receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                received.append(message["text"])

        proto, transport = _opened(LeanWebSocketProtocol, app)
        proto.data_received(HANDSHAKE)
        await asyncio.sleep(0)
        library = proto.conn.receive_data

        def counted(data: bytes) -> None:
            nonlocal parsed
            parsed += 1
            library(data)

        proto.conn.receive_data = counted  # type: ignore[method-assign]
        for piece in (_text("one"), _masked(Opcode.PING, b"hi"), _text("two") + _text("three")):
            proto.data_received(piece)
            for _ in range(3):
                await asyncio.sleep(0)
        proto.connection_lost(None)
        await asyncio.gather(*proto.tasks, return_exceptions=True)
        return received, parsed, transport.log

    received, parsed, log = asyncio.run(run())
    assert received == ["one", "two", "three"]
    assert parsed == 1  # the ping alone
    assert ("write", bytes([0x8A, 2]) + b"hi") in log  # its pong


@pytest.mark.parametrize("ending", ["close", "lost"])
def test_the_app_can_write_a_text_frame_at_once(ending: str) -> None:
    """The scope offers ``send_text_now``: the frame uvicorn's ``send`` would write, written without a
    coroutine, of every length class; False, with nothing written, while the transport takes no more
    bytes, once the connection is closing, and once the client is gone."""
    sizes = [0, 125, 126, 65535, 65536]

    async def run() -> tuple[list[bool], list[tuple[str, bytes]]]:
        done: list[bool] = []

        async def app(scope: Any, receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            now = scope["extensions"][SEND_TEXT_NOW]
            done.extend(now("b" * size) for size in sizes)
            proto.pause_writing()
            done.append(now("held back"))
            proto.resume_writing()
            done.append(now("c"))
            if ending == "close":
                await send({"type": "websocket.close", "code": 1000})
            else:
                assert (await receive())["type"] == "websocket.disconnect"
            done.append(now("at the end"))

        proto, transport = _opened(LeanWebSocketProtocol, app)
        proto.data_received(HANDSHAKE)
        await asyncio.sleep(0)
        proto.connection_lost(None)  # (when the app is past its frames: it waits, or has closed)
        await asyncio.gather(*proto.tasks, return_exceptions=True)
        return done, transport.log

    done, log = asyncio.run(run())
    assert done == [True] * 5 + [False, True, False]
    writes = [data for kind, data in log if kind == "write"]
    expected = [Frame(Opcode.TEXT, b"b" * size).serialize(mask=False, extensions=[]) for size in sizes]
    assert writes[1:7] == [*expected, b"\x81\x01c"]  # (after the handshake's answer)
    assert [w[:1] for w in writes[7:]] == ([b"\x88"] if ending == "close" else [])


def test_a_frame_past_the_limit_is_refused_from_its_header() -> None:
    """A frame announcing more than the limit closes the connection with 1009 as uvicorn's does, without
    waiting for (or keeping) its body."""
    head = bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 2**40) + os.urandom(4)
    frames, pieces = [_text("before"), head + b"\x00" * 1000], [_text("before") + head, b"\x00" * 1000]
    stock, lean = _both(frames, pieces, reply=False)
    assert lean == stock
    assert lean[0][-1] == {"type": "websocket.disconnect", "code": 1009}
    close = lean[1].split(b"\r\n\r\n", 1)[1]  # (after the handshake's answer: the close frame alone)
    assert close[:1] == b"\x88" and close[2:4] == struct.pack("!H", 1009)


def test_a_tables_sockets_leave_no_protocol_behind(tmp_path: Path) -> None:
    """Coven's app under ``coven serve``'s protocols: the people of a table connect, say hello, see the
    table and leave; with the collector off, none of their connections' protocols is left (each is
    freed when its connection ends, not by a collection that would stop every table)."""
    from coven.server.app import create_app
    from coven.server.settings import Settings

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}", ping_interval=0, create_limit=0)

    def alive() -> int:
        return sum(issubclass(type(o), LeanWebSocketProtocol) for o in gc.get_objects())

    def a_table(port: int) -> None:
        body = json.dumps({"game": "brujas", "players": 3, "seats": [{"kind": "human"}] * 3}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=body, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            created = json.loads(answer.read())
        for invite in created["invites"]:
            with ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{created['table']['id']}") as ws:
                hello = {"type": "hello", "protocol": 1, "token": invite["token"], "last": None}
                ws.send(json.dumps(hello))
                while json.loads(ws.recv(timeout=10))["type"] not in {"sync", "update"}:
                    pass

    with served(create_app(settings), log_level="warning", **protocols()) as port:
        a_table(port)  # (the first connections make what lives as long as the server)
        gc.collect()
        gc.disable()
        try:
            before = alive()
            for _ in range(3):
                a_table(port)
            time.sleep(0.3)  # the server sees the last close
            assert alive() - before == 0
        finally:
            gc.enable()
