"""Records: game, options, seats, seed and the ordered actions; they replay to the identical game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from coven.core.errors import NotationError, short_repr
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
        """The record a JSON value describes, or :class:`NotationError` saying what is wrong.

        Checked field by field (nothing is coerced: a seat is a whole number, an action a text), so
        every record it returns dumps and loads back to itself.
        """
        if not isinstance(raw, dict):
            raise NotationError(f"a record is a JSON object, not {short_repr(raw)}")
        missing = [key for key in ("game", "players", "seed", "moves") if key not in raw]
        if missing:
            raise NotationError(f"not a record: no {', '.join(missing)}")
        game = raw["game"]
        if not isinstance(game, str) or not 0 < len(game) <= MAX_GAME_ID:
            raise NotationError(f"a record's game is a game id, not {short_repr(game)}")
        players = _whole(raw["players"], "number of players", 1, MAX_PLAYERS)
        seed = _whole(raw["seed"], "seed", -(1 << SEED_BITS) + 1, (1 << SEED_BITS) - 1)
        seats = _seats(raw.get("seats", []))
        if seats and len(seats) != players:
            raise NotationError(f"a record's seats name all {players} seats or none, not {len(seats)}")
        return cls(
            game=game,
            players=players,
            options=_options(raw.get("options", {})),
            seed=seed,
            seats=seats,
            moves=_moves(raw["moves"], players),
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """The record a JSON text describes, or :class:`NotationError` (never another exception)."""
        if not isinstance(text, str | bytes | bytearray):
            raise NotationError(f"a record is a JSON text, not {short_repr(text)}")
        try:
            raw = json.loads(text, parse_constant=_no_constant)
        except NotationError:
            raise
        except RecursionError:
            raise NotationError("a record is JSON nested too deeply") from None
        except ValueError as exc:  # bad JSON, bad UTF-8, or a number past Python's 4300-digit limit
            raise NotationError(f"a record is JSON: {str(exc)[:80]}") from None
        return cls.from_json(raw)

    def save(self, path: str | PathLike[str]) -> None:
        """Write the record to the file ``path`` (OSError if it cannot be written)."""
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Record:
        """The record in the file ``path``: :class:`NotationError` if it is none, OSError if it cannot be
        read."""
        return cls.loads(Path(path).read_bytes())


MAX_GAME_ID = 64
"""The longest game id a record may name."""
MAX_PLAYERS = 64
"""More seats than any game has; the game's own range is checked when the record is replayed."""
SEED_BITS = 256
"""A record's seed is a whole number of at most this many bits (servers and the arena use 62)."""
OPTION_BITS = 63
"""A whole-number option value in a record fits a signed 64-bit integer."""


def _no_constant(name: str) -> object:
    raise NotationError(f"a record is plain JSON, without {name}")


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"a record's {what} is a whole number, not {short_repr(value)}")
    if not low <= value <= high:
        raise NotationError(
            f"a record's {what} is {short_repr(low)} to {short_repr(high)}, not {short_repr(value)}"
        )
    return int(value)


def _options(raw: object) -> Options:
    if not isinstance(raw, dict):
        raise NotationError(f"a record's options are a JSON object, not {short_repr(raw)}")
    options: Options = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            raise NotationError(f"an option's name is text, not {short_repr(key)}")
        if isinstance(value, bool | str):
            options[key] = value
        elif isinstance(value, int) and value.bit_length() <= OPTION_BITS:
            options[key] = int(value)
        else:
            raise NotationError(
                f"option {short_repr(key)} of a record is true/false, a whole number or a word, "
                f"not {short_repr(value)}"
            )
    return options


def _seats(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list | tuple) or not all(isinstance(name, str) for name in raw):
        raise NotationError(f"a record's seats are a list of names, not {short_repr(raw)}")
    return tuple(raw)


def _moves(raw: object, players: int) -> tuple[Move, ...]:
    if not isinstance(raw, list | tuple):
        raise NotationError(f"a record's moves are a list of [seat, action] pairs, not {short_repr(raw)}")
    moves: list[Move] = []
    for index, pair in enumerate(raw):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise NotationError(f"move {index} of a record is a pair [seat, action], not {short_repr(pair)}")
        seat, action = pair
        seat = _whole(seat, f"seat of move {index}", 0, players - 1)
        if not isinstance(action, str):
            raise NotationError(f"the action of move {index} is notation text, not {short_repr(action)}")
        moves.append(Move(seat, action))
    return tuple(moves)


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
