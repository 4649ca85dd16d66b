"""Replays of finished games, made off the event loop, a few at a time, and kept.

A replay plays a finished game again from its deal and makes the seat's view after every step. That can
cost a lot of CPU (Amulets with the deduction assistant counts the worlds left at every step: a long
game of five wizards took seconds) and any client may ask for any finished table's replay, again and
again. Made in the request's handler, on the event loop, every table on the process waited for it: forty
requests for one such replay held every other table's moves for minutes.

So a replay is made in a worker thread (the event loop goes on between the interpreter's switches), at
most ``workers`` at once; at most ``waiting`` more wait their turn, and past that a request is refused
at once (:class:`ReplayBusyError`, 503 with ``Retry-After``) rather than queued without bound. What was
made is kept, encoded, by table, seat and reveal (a finished game never changes), up to ``budget`` bytes
in all, the least recently used going first: the same replay asked for again costs a copy.

The costly part of such a replay, the views' derived part (:meth:`Game.derive_view`: the assistant's
counts), is not worked out in that thread, which would hold the interpreter lock through each count
(compiled code does not let it go): the thread makes the bare views, the bot pool's deriver derives
them (:meth:`BotPool.derive`), a few steps at a time, and the thread writes the replay with them (``derive``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from coven.core import Move, Record
from coven.core.record import replay_steps
from coven.core.types import Seat
from coven.server.messages import encode_json
from coven.server.table import Table

ReplayKey = tuple[str, Seat | None, bool]


class ReplayBusyError(Exception):
    """Every replay worker is busy and the queue is full: try again in a moment."""


def record_of(table: Table) -> Record:
    """The record of ``table``'s game so far: its deal (the seed: served only once the game is over, and
    only where the game reveals everything at its end) and its moves."""
    return Record(
        game=table.game.spec.id,
        players=table.players,
        options=dict(table.options),
        seed=table.seed,
        seats=tuple(s.name for s in table.seats),
        moves=tuple(Move(s.actor, s.action) for s in table.steps),
    )


def replay_json(
    table: Table, seat: Seat | None, reveal: bool, views: Sequence[Any] | None = None
) -> list[dict[str, Any]]:
    """Every step of a finished table as ``seat`` (None: a spectator) saw it, the starting position first:
    its number, actor, action (only the seat's own, or all with ``reveal``), the events it saw, its view
    and every seat's score after it (:class:`coven.server.schemas.ReplayStepOut`'s fields). ``views``: the
    seat's view at each of those steps, made already (derived elsewhere, see :func:`bare_views`); made
    here without it."""
    game = table.game
    numbers = [0, *(s.number for s in table.steps)]
    out: list[dict[str, Any]] = []
    for index, (number, step) in enumerate(zip(numbers, replay_steps(game, record_of(table)), strict=True)):
        move = step.move
        shown = move is not None and (reveal or move.seat == seat)
        view = game.view(step.state, seat) if views is None else views[index]
        out.append(
            {
                "number": number,
                "actor": None if move is None else move.seat,
                "action": move.action if move is not None and shown else None,
                "events": [e.to_json() for e in step.events if reveal or e.visible_to(seat)],
                "view": game.view_to_json(view),
                "scores": [float(s) for s in game.scores(step.state)],
            }
        )
    return out


def bare_views(table: Table, seat: Seat | None) -> list[Any]:
    """``seat``'s bare view (:meth:`Game.bare_views`) at every step of ``table``'s game, the start first."""
    game = table.game
    return [game.bare_views(step.state, (seat,))[seat] for step in replay_steps(game, record_of(table))]


Derive = Callable[[Table, dict[int, Any]], Awaitable[dict[int, Any] | None]]
"""Derives views elsewhere (:meth:`coven.server.botpool.BotPool.derive`): a table's bare views by any key,
back derived (None: not derived)."""

DERIVED_AT_ONCE = 8
"""Steps of a replay whose views are sent to be derived together (each batch has the derivation's
budget)."""


class Replays:
    def __init__(
        self, workers: int = 1, waiting: int = 32, budget: int = 32 << 20, derive: Derive | None = None
    ) -> None:
        if workers < 1 or waiting < 0 or budget < 0:
            raise ValueError("replays need a worker, a queue of 0 or more and a budget of 0 or more bytes")
        self.workers = workers
        self.waiting = waiting
        self.budget = budget
        self.derive = derive
        """Where the views of a table that derives part of them (:meth:`Game.derives_views`: Amulets'
        assistant) are derived: the bot pool's deriver (None: in the replay's thread, as they are made)."""
        self._slots = asyncio.Semaphore(workers)
        self._making: dict[ReplayKey, asyncio.Task[bytes]] = {}
        """Replays being made or waiting for a worker; a second request for one waits for it instead of
        making it again (and a request that goes away leaves it to be made for the others)."""
        self._kept: OrderedDict[ReplayKey, bytes] = OrderedDict()
        self._kept_bytes = 0
        self.made = 0
        """How many replays were made (not served from what was kept), for tests and operators."""

    @property
    def kept_bytes(self) -> int:
        return self._kept_bytes

    async def steps(self, table: Table, seat: Seat | None, reveal: bool) -> bytes:
        """The JSON list of :func:`replay_json` of ``table`` (which must be over); raises
        ReplayBusyError if it has to be made and too many are being made or waiting already."""
        key: ReplayKey = (table.id, seat, reveal)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        making = self._making.get(key)
        if making is None:
            if len(self._making) >= self.workers + self.waiting:
                raise ReplayBusyError(f"{len(self._making)} replays are being made or waiting for a worker")
            making = self._making[key] = asyncio.ensure_future(self._make(key, table, seat, reveal))
        return await asyncio.shield(making)

    async def _make(self, key: ReplayKey, table: Table, seat: Seat | None, reveal: bool) -> bytes:
        try:
            async with self._slots:
                views = await self._derived_views(table, seat)
                made = await asyncio.to_thread(_encoded_steps, table, seat, reveal, views)
            self.made += 1
            self._keep(key, made)
            return made
        finally:
            del self._making[key]

    async def _derived_views(self, table: Table, seat: Seat | None) -> list[Any] | None:
        """``seat``'s views at every step, derived by the bot pool's deriver, :data:`DERIVED_AT_ONCE` steps
        at a time (a batch not derived stays bare), if the table derives part of its views; None
        otherwise."""
        derive = self.derive
        if derive is None or not table.derives():
            return None
        views = await asyncio.to_thread(bare_views, table, seat)
        for start in range(0, len(views), DERIVED_AT_ONCE):
            batch = dict(enumerate(views[start : start + DERIVED_AT_ONCE], start))
            derived = await derive(table, batch)
            for index, view in (derived or {}).items():
                views[index] = view
        return views

    def _keep(self, key: ReplayKey, made: bytes) -> None:
        if len(made) > self.budget:
            return
        self._kept[key] = made
        self._kept_bytes += len(made)
        while self._kept_bytes > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self._kept_bytes -= len(dropped)


def _encoded_steps(table: Table, seat: Seat | None, reveal: bool, views: list[Any] | None) -> bytes:
    return encode_json(replay_json(table, seat, reveal, views))
