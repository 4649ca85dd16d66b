"""Typed errors of the engine.

Every error a caller can provoke is a :class:`CovenError` with a stable ``code`` (used by the command
line, the HTTP API and the websocket). Rule errors also subclass :class:`ValueError`, as python-chess
does, so ``except ValueError`` still catches them. Raising one of these never changes a state.

A :class:`GameError` raised with a :class:`~coven.core.texts.Message` (a refusal: see
:mod:`coven.core.refusals`) carries its stable key and params as :attr:`GameError.reason`, for a front end
to say it in the person's language; ``str(exc)`` is the English text either way.
"""

from __future__ import annotations

import reprlib
from typing import ClassVar

from coven.core.texts import Message


class CovenError(Exception):
    """Base of every error the engine raises on purpose."""

    code: ClassVar[str] = "error"


class GameError(CovenError, ValueError):
    """An action or a request that the rules refuse.

    Raised with a :class:`~coven.core.texts.Message` as its one argument (``IllegalActionError(REFUSALS(
    "refusal.brujas.not_in_hand", card="R3"))``), it says why in words that do not depend on a language:
    :attr:`reason`. Raised with a plain text, it says why in English only."""

    code = "game_error"

    @property
    def reason(self) -> Message | None:
        """The refusal's stable key and params (the message whose text is ``str(self)``), or None."""
        said = self.args[0] if len(self.args) == 1 else None
        return said if isinstance(said, Message) else None


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


SHORT_REPR = 40
"""How many characters of a caller's value an error message quotes at most."""


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with small limits, and whole numbers too long for ``repr`` described instead."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxarray = self.maxdict = 4
        self.maxset = self.maxfrozenset = self.maxdeque = 4
        self.maxstring = self.maxlong = self.maxother = SHORT_REPR - 8

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:  # repr() refuses ints past 4300 digits; nobody reads 77 of them
            sign = "negative " if x < 0 else ""
            return f"<a {sign}number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()


def short_repr(value: object, limit: int = SHORT_REPR) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for quoting a caller's input in a message.

    Never raises: a megabyte of text, a number of ten thousand digits or a list nested a million deep
    each come out as a few dozen characters.
    """
    try:
        text = _SHORT.repr(value)
    except Exception:  # a hostile __repr__, a recursion limit: the type still says something
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: max(limit - 3, 1)] + "..."
