"""A connection's frames: written at once when nothing waits before them, in order when a send has to wait
(back-pressure), and a failed send stays that connection's own."""

from __future__ import annotations

import asyncio
from typing import Any

from coven.server.messages import CloseCode
from coven.server.settings import Settings
from coven.server.ws import TRANSPORT_KEY, Connection


class FakeSocket:
    """What a Connection reads of its websocket: the scope carrying the raw transport, and close()."""

    def __init__(self, transport: Transport) -> None:
        self.scope = {"type": "websocket", TRANSPORT_KEY: (transport.receive, transport.send)}
        self.closed: tuple[int, str] | None = None

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class Transport:
    """A server transport: records frames; while ``paused`` is clear, a send waits (back-pressure)."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.paused = asyncio.Event()
        self.paused.set()
        self.broken = False
        self.suspensions = 0

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("never")

    async def send(self, message: dict[str, Any]) -> None:
        if not self.paused.is_set():
            self.suspensions += 1
        await self.paused.wait()
        if self.broken:
            raise OSError("the client is gone")
        self.frames.append(message["text"])


async def _started(
    send_queue: int = 8, send_queue_chars: int = 1_048_576
) -> tuple[Transport, Connection, FakeSocket, asyncio.Task[None]]:
    """A connection on a fresh transport, its writer started and parked, waiting for work."""
    transport = Transport()
    socket = FakeSocket(transport)
    settings = Settings(send_queue=send_queue, send_queue_chars=send_queue_chars)
    conn = Connection(socket, settings)  # type: ignore[arg-type]
    writer = asyncio.create_task(conn.writer())
    for _ in range(3):
        await asyncio.sleep(0)
    return transport, conn, socket, writer


def test_a_frame_is_written_at_once_when_the_writer_is_idle() -> None:
    async def main() -> None:
        transport, conn, _, writer = await _started()
        conn.send_text("a")
        assert transport.frames == ["a"]  # no turn of the loop needed
        conn.send_text("b")
        assert transport.frames == ["a", "b"]
        writer.cancel()

    asyncio.run(main())


def test_frames_behind_a_waiting_send_keep_their_order() -> None:
    async def main() -> None:
        transport, conn, _, writer = await _started()
        transport.paused.clear()  # back-pressure: the next send waits
        conn.send_text("1")
        conn.send_text("2")
        conn.send_text("3")
        for _ in range(5):
            await asyncio.sleep(0)
        assert transport.frames == []
        assert transport.suspensions == 1  # the later frames queue behind it, they are not sent past it
        transport.paused.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert transport.frames == ["1", "2", "3"]
        conn.send_text("4")  # idle again: at once
        assert transport.frames == ["1", "2", "3", "4"]
        writer.cancel()

    asyncio.run(main())


def test_a_client_that_does_not_read_is_closed_after_its_queue() -> None:
    async def main() -> None:
        transport, conn, socket, writer = await _started(send_queue=3)
        transport.paused.clear()
        for i in range(10):
            conn.send_text(str(i))
        assert conn.overflow
        transport.paused.set()
        await asyncio.wait_for(writer, 1.0)  # the writer ends with the close
        assert transport.frames == ["0", "1", "2", "3"]  # the waiting send, then the queue's three
        assert socket.closed == (CloseCode.TOO_SLOW, "not reading")

    asyncio.run(main())


def test_a_client_that_does_not_read_is_closed_after_its_queues_characters() -> None:
    # few frames, but long ones (a full sync of a long game is 33 KB): the queue is bounded in characters
    # too, or a client asking for them and never reading held a gigabyte over its sockets
    async def main() -> None:
        transport, conn, socket, writer = await _started(send_queue=1000, send_queue_chars=10_000)
        transport.paused.clear()
        conn.send_text("w" * 50)  # the waiting send (in the transport, not queued)
        for i in range(5):
            conn.send_text(str(i) * 3_000)
        assert conn.overflow
        assert conn.queued_chars == 9_000  # three queued; the fourth would pass the budget
        transport.paused.set()
        await asyncio.wait_for(writer, 1.0)
        assert [len(f) for f in transport.frames] == [50, 3_000, 3_000, 3_000]
        assert socket.closed == (CloseCode.TOO_SLOW, "not reading")

    asyncio.run(main())


def test_the_queues_characters_are_counted_down_as_frames_go() -> None:
    async def main() -> None:
        transport, conn, socket, writer = await _started(send_queue=1000, send_queue_chars=10_000)
        for _ in range(4):  # each time: a waiting send, then frames behind it that go once it is through
            transport.paused.clear()
            conn.send_text("w")
            for i in range(3):
                conn.send_text(str(i) * 3_000)
            assert conn.queued_chars == 9_000
            transport.paused.set()
            for _ in range(10):
                await asyncio.sleep(0)
            assert conn.queued_chars == 0
        assert not conn.overflow and socket.closed is None  # 36,000 characters in all, never 10,000 at once
        writer.cancel()

    asyncio.run(main())


def test_a_failed_send_is_the_connections_own() -> None:
    async def main() -> None:
        transport, conn, _, writer = await _started()
        transport.broken = True
        conn.send_text("lost")  # raises nothing into the caller (another seat's move)
        assert conn.gone
        conn.send_text("dropped")
        assert transport.frames == []
        writer.cancel()

    asyncio.run(main())


def test_a_waiting_send_that_fails_ends_the_writer_quietly() -> None:
    async def main() -> None:
        transport, conn, _, writer = await _started()
        transport.paused.clear()
        conn.send_text("x")
        conn.send_text("y")
        transport.broken = True
        transport.paused.set()
        await asyncio.wait_for(writer, 1.0)
        assert conn.gone and transport.frames == []
        conn.send_text("z")
        assert not conn.queue

    asyncio.run(main())


def test_a_writer_cancelled_during_a_waiting_send_leaves_nothing_behind() -> None:
    async def main() -> None:
        transport, conn, _, writer = await _started()
        transport.paused.clear()
        conn.send_text("x")
        for _ in range(3):
            await asyncio.sleep(0)
        writer.cancel()  # the socket closes while its frame waits
        done, _ = await asyncio.wait([writer], timeout=1.0)
        assert writer in done and writer.cancelled()
        assert not transport.paused._waiters  # the send's own wait was cancelled with it

    asyncio.run(main())
