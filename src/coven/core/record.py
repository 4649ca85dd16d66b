"""Records: game, options, seats, seed and the ordered actions; they replay to the identical game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coven.core.errors import NotationError
from coven.core.events import Event
from coven.core.game import Game
from coven.core.types import JSONValue, Options, Seat


@dataclass(frozen=True, slots=True)
class Move:
    """One applied action: who acted and what, in the game's notation."""

    seat: Seat
    action: str


@dataclass(frozen=True, slots=True)
class Record:
    game: str
    players: int
    options: Options
    seed: int
    seats: tuple[str, ...] = ()
    """Who sat where (a person's name or a bot's), for people; replay does not need it."""
    moves: tuple[Move, ...] = field(default=())

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": list(self.seats),
            "moves": [[m.seat, m.action] for m in self.moves],
        }

    @classmethod
    def from_json(cls, raw: Any) -> Record:
        try:
            moves = tuple(Move(int(s), str(a)) for s, a in raw["moves"])
            options = raw.get("options", {})
            if not isinstance(options, dict):
                raise TypeError("options")
            return cls(
                game=str(raw["game"]),
                players=int(raw["players"]),
                options=options,
                seed=int(raw["seed"]),
                seats=tuple(str(s) for s in raw.get("seats", ())),
                moves=moves,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(f"not a record: {exc}") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"a record is JSON: {exc}") from None
        return cls.from_json(raw)

    def save(self, path: Path) -> None:
        path.write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Record:
        return cls.loads(path.read_text(encoding="utf-8"))


@dataclass(slots=True)
class Step:
    """A state right after ``move`` was applied (``move`` is None for the initial state)."""

    state: Any
    move: Move | None
    events: list[Event]


def replay_steps(game: Game[Any, Any, Any], record: Record) -> Iterator[Step]:
    """Replay a record through the checked path, yielding every intermediate state.

    Each yielded state is the live one and is mutated by the next step; clone it to keep it.
    """
    if record.game != game.spec.id:
        raise NotationError(f"record is of {record.game!r}, not {game.spec.id!r}")
    state = game.new_game(record.players, record.options, record.seed)
    yield Step(state, None, [])
    for move in record.moves:
        action = game.parse_action(move.action)
        events = game.apply(state, move.seat, action)
        yield Step(state, move, events)


def replay(game: Game[Any, Any, Any], record: Record) -> Any:
    """The final state of a record."""
    state: Any = None
    for step in replay_steps(game, record):
        state = step.state
    return state
