"""Simultaneous decisions (Namaste: after a roll, every player writes at once): an action chosen at a
number that other seats' parts of the same decision have since moved past is taken, not refused as
stale; anything else behind the table still is."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from coven.server.messages import ErrorCode, ProtocolError
from coven.server.settings import Settings
from coven.server.table import Table
from coven.server.tables import SeatRequest, TableService, parse_action_text


class Listener:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.frames: list[str] = []

    def send_text(self, text: str) -> None:
        self.frames.append(text)


async def _service(tmp_path: Path) -> TableService:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}", bot_processes=0, bot_pause=0, ping_interval=0
    )
    service = TableService(settings)
    await service.start()
    return service


async def _until_together(service: TableService, table: Table) -> None:
    """Play the first listed action of the first seat to act until several seats must act at once."""
    while len(table.turn()[0]) < 2:
        seat = table.turn()[0][0]
        legal: Any = table.legal(seat, 60)
        await service.act(table, seat, table.number, parse_action_text(legal["actions"][0]["notation"]))


def test_a_simultaneous_choice_behind_the_table_is_taken(tmp_path: Path) -> None:
    async def run() -> None:
        service = await _service(tmp_path)
        try:
            table, _ = await service.create("namaste", 2, {}, [SeatRequest("human")] * 2)
            for seat in range(2):
                await service.claim(table, seat)
            await _until_together(service, table)
            number = table.number
            first, second = table.turn()[0][:2]
            choices = {s: table.legal(s, 60)["actions"][0]["notation"] for s in (first, second)}  # type: ignore[index]
            await service.act(table, first, number, parse_action_text(choices[first]))
            assert table.number == number + 1 and second in table.turn()[0]
            # the second seat chose at the same number, before it heard of the first's choice
            await service.act(table, second, number, parse_action_text(choices[second]))
            assert table.number == number + 2
            assert [s.actor for s in table.steps[-2:]] == [first, second]
            # its own step is behind it now: the same number again is stale
            with pytest.raises(ProtocolError) as refused:
                await service.act(table, second, number, parse_action_text(choices[second]))
            assert refused.value.code in {ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN}
        finally:
            await service.stop()

    asyncio.run(run())


def test_a_turn_decision_behind_the_table_is_stale(tmp_path: Path) -> None:
    async def run() -> None:
        service = await _service(tmp_path)
        try:
            table, _ = await service.create("brujas", 3, {}, [SeatRequest("human")] * 3)
            for seat in range(3):
                await service.claim(table, seat)
            for _ in range(2):
                seat = table.turn()[0][0]
                legal: Any = table.legal(seat, 60)
                await service.act(
                    table, seat, table.number, parse_action_text(legal["actions"][0]["notation"])
                )
            seat = table.turn()[0][0]
            legal = table.legal(seat, 60)
            with pytest.raises(ProtocolError) as refused:  # one seat at a time: an old number is stale
                await service.act(
                    table, seat, table.number - 1, parse_action_text(legal["actions"][0]["notation"])
                )
            assert refused.value.code == ErrorCode.STALE
        finally:
            await service.stop()

    asyncio.run(run())
