"""Moves are taken by their table's owning process: another process sends them over the bus.

Two services (two "processes": each its own store connection, bus connection and node id) share one
SQLite file and the machine's Redis. A person connected to the process that does not own the table has
their moves taken by the owner, one at a time with the owner's own; the acknowledgement comes back
inside the step's update, and the process they are connected to commits nothing. If the owner is
silent, the move is taken where it arrived; if the owner's answer is lost, the move is not taken twice.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from coven.server.messages import ErrorCode, ProtocolError
from coven.server.settings import Settings
from coven.server.table import Ack, Table
from coven.server.tables import SeatRequest, TableService, parse_action_text
from tests.store.backends import unique_prefix

pytestmark = pytest.mark.redis


class Listener:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.frames: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def acks(self) -> list[tuple[str, Any]]:
        """(the frame type it came in, the ack's id) of every acknowledgement received."""
        out = []
        for frame in self.frames:
            if frame["type"] == "update" and "ack" in frame:
                out.append(("update", frame["ack"]["id"]))
            elif frame["type"] == "ack":
                out.append(("ack", frame["id"]))
        return out


async def _pair(tmp_path: Path, redis: str, route_seconds: float = 5.0) -> tuple[TableService, TableService]:
    prefix = unique_prefix()
    services = []
    for node in ("owner", "other"):
        settings = Settings(
            database_url=f"sqlite:///{tmp_path / 'shared.sqlite3'}",
            bus_url=redis,
            bus_prefix=prefix,
            node_id=node,
            bot_processes=0,
            bot_pause=0,
            ping_interval=0,
            route_seconds=route_seconds,
        )
        service = TableService(settings)
        await service.start()
        services.append(service)
    return services[0], services[1]


async def _stop(*services: TableService) -> None:
    for service in services:
        await service.stop()


async def _table(owner: TableService, other: TableService, game: str = "namaste") -> tuple[Table, Table]:
    """A table of two people created on ``owner`` (which owns it) and ``other``'s replica of it."""
    table, _ = await owner.create(game, 2, {}, [SeatRequest("human")] * 2)
    for seat in range(2):
        await owner.claim(table, seat)
    replica = await other.get(table.id)
    assert replica is not None and replica.status == "playing"
    assert table.id in owner.owned and table.id not in other.owned
    return table, replica


def _first_legal(table: Table, seat: int) -> str:
    legal: Any = table.legal(seat, 60)
    return str(legal["actions"][0]["notation"])


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def test_a_move_made_on_another_process_is_taken_by_the_owner(tmp_path: Path, bus_redis_url: str) -> None:
    async def run() -> None:
        owner, other = await _pair(tmp_path, bus_redis_url)
        try:
            table, replica = await _table(owner, other)
            there, here = Listener(0), Listener(1)
            replica.listeners.add(there)  # seat 0 is connected to the process that does not own the table
            table.listeners.add(here)
            sent = 0
            together_seen = False
            while table.status == "playing" and table.number < 40:
                to_act = table.turn()[0]
                number = table.number
                moves: list[Awaitable[None]] = []
                if 0 in to_act:
                    sent += 1
                    source = parse_action_text(_first_legal(table, 0))
                    moves.append(other.submit(replica, 0, number, source, Ack(there, sent)))
                if 1 in to_act:
                    source = parse_action_text(_first_legal(table, 1))
                    moves.append(owner.submit(table, 1, number, source, Ack(here, "x")))
                together_seen |= len(moves) == 2
                await asyncio.gather(*moves)  # both at the same number when they decide together
                await _until(lambda: replica.number == table.number)
            assert together_seen, "the game never had the two seats decide at once"
            assert sent > 3
            # every move of seat 0 was committed by the owner, none by the process it arrived at
            assert other.commits.batches == 0 and owner.commits.batches > 0
            assert there.acks() == [("update", i) for i in range(1, sent + 1)]
            assert replica.number == table.number
            assert [s.action for s in replica.steps] == [s.action for s in table.steps]
            assert not [f for f in there.frames + here.frames if f["type"] == "error"]
        finally:
            await _stop(owner, other)

    _run(run)


def test_a_refused_move_is_refused_on_the_process_it_came_to(tmp_path: Path, bus_redis_url: str) -> None:
    async def run() -> None:
        owner, other = await _pair(tmp_path, bus_redis_url)
        try:
            table, replica = await _table(owner, other)
            seat = table.turn()[0][0]
            listener = Listener(seat)
            replica.listeners.add(listener)
            # the owner judges: an action at a number the table is not at is stale there
            with pytest.raises(ProtocolError) as stale:
                source = parse_action_text(_first_legal(table, seat))
                await other.submit(replica, seat, table.number + 5, source, Ack(listener, 1))
            assert stale.value.code == ErrorCode.STALE
            # what cannot be read is refused at once, without troubling the owner
            with pytest.raises(ProtocolError) as bad:
                await other.submit(replica, seat, table.number, parse_action_text("no such move"), None)
            assert bad.value.code in {ErrorCode.BAD_NOTATION, ErrorCode.ILLEGAL_ACTION}
            # the owner's refusal comes back with its reason (a circle written before the dice are rolled)
            with pytest.raises(ProtocolError) as illegal:
                await other.submit(replica, seat, table.number, parse_action_text("14@c3"), Ack(listener, 2))
            assert illegal.value.code == ErrorCode.ILLEGAL_ACTION
            assert illegal.value.reason == {
                "key": "refusal.namaste.roll_first",
                "params": {"action": "14@c3"},
            }
            assert table.number == 0 and replica.number == 0 and other.commits.batches == 0
        finally:
            await _stop(owner, other)

    _run(run)


def test_a_silent_owner_does_not_lose_the_move(tmp_path: Path, bus_redis_url: str) -> None:
    async def run() -> None:
        owner, other = await _pair(tmp_path, bus_redis_url, route_seconds=0.3)
        try:
            _, replica = await _table(owner, other)
            owner.bus.unsubscribe(owner._on_bus)  # alive in the database, deaf on the bus
            seat = replica.turn()[0][0]
            listener = Listener(seat)
            replica.listeners.add(listener)
            move = parse_action_text(_first_legal(replica, seat))
            await other.submit(replica, seat, 0, move, Ack(listener, 7))
            assert replica.number == 1 and other.commits.batches == 1  # taken where it arrived
            assert listener.acks() == [("update", 7)]
        finally:
            await _stop(owner, other)

    _run(run)


def test_a_lost_answer_does_not_take_the_move_twice(tmp_path: Path, bus_redis_url: str) -> None:
    async def run() -> None:
        owner, other = await _pair(tmp_path, bus_redis_url, route_seconds=0.3)
        try:
            table, replica = await _table(owner, other)
            publish = owner._publish

            async def mute(message: dict[str, Any]) -> bool:  # the owner's notices and answers are lost
                return message.get("kind") not in {"action", "acted"} and await publish(message)

            owner._publish = mute  # type: ignore[method-assign]
            seat = replica.turn()[0][0]
            listener = Listener(seat)
            replica.listeners.add(listener)
            move = parse_action_text(_first_legal(replica, seat))
            await other.submit(replica, seat, 0, move, Ack(listener, 9))
            # the owner took it; the other process found it in the store and acknowledged it once
            assert table.number == 1 and replica.number == 1
            assert other.commits.batches == 0 and owner.commits.batches == 1
            assert listener.acks() == [("update", 9)]
            assert not [f for f in listener.frames if f["type"] == "error"]
        finally:
            await _stop(owner, other)

    _run(run)


def test_an_ack_the_update_could_not_carry_follows_alone(tmp_path: Path, bus_redis_url: str) -> None:
    async def run() -> None:
        owner, other = await _pair(tmp_path, bus_redis_url)
        try:
            table, replica = await _table(owner, other)
            # the process cannot tell the step that comes back is this move (as if its notation differed)
            other._routed_ack = lambda *_: None  # type: ignore[method-assign]
            seat = replica.turn()[0][0]
            listener = Listener(seat)
            replica.listeners.add(listener)
            move = parse_action_text(_first_legal(replica, seat))
            await other.submit(replica, seat, 0, move, Ack(listener, 5))
            assert table.number == 1 and replica.number == 1 and other.commits.batches == 0
            kinds = [f["type"] for f in listener.frames]
            assert kinds == ["update", "ack"] and "ack" not in listener.frames[0]
            action = table.steps[0].action
            assert listener.frames[1] == {"type": "ack", "id": 5, "number": 1, "action": action}
        finally:
            await _stop(owner, other)

    _run(run)
