"""Typed errors of the engine.

Every error a caller can provoke is a :class:`CovenError` with a stable ``code`` (used by the command
line, the HTTP API and the websocket). Rule errors also subclass :class:`ValueError`, as python-chess
does, so ``except ValueError`` still catches them. Raising one of these never changes a state.
"""

from __future__ import annotations

from typing import ClassVar


class CovenError(Exception):
    """Base of every error the engine raises on purpose."""

    code: ClassVar[str] = "error"


class GameError(CovenError, ValueError):
    """An action or a request that the rules refuse."""

    code = "game_error"


class NotYourTurnError(GameError):
    """The seat may not act now (or is not a seat of this game)."""

    code = "not_your_turn"


class IllegalActionError(GameError):
    """The action is well formed but the rules forbid it in this state."""

    code = "illegal_action"


class GameOverError(GameError):
    """The game has ended; nobody may act."""

    code = "game_over"


class InvalidOptionError(GameError):
    """An option (or the number of players) is unknown or out of range."""

    code = "invalid_option"


class NotationError(GameError):
    """A text or JSON form of an action, view or record cannot be parsed."""

    code = "bad_notation"


class UnknownGameError(CovenError, KeyError):
    """No game is registered under that id."""

    code = "unknown_game"

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "unknown game"


class UnknownBotError(CovenError, KeyError):
    """No bot of that name exists for the game."""

    code = "unknown_bot"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown bot"
