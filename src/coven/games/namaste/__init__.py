"""Namaste (Lach and Rapp; moses. Verlag 2021), the roll-and-write dice game for 2-4 players.

The rules live in :mod:`coven.games.namaste.rules` (its docstring records the rulebook reading, the
rulings and the notation), the sheet geometry in :mod:`coven.games.namaste.sheet`, the bots in
:mod:`coven.games.namaste.bots`, the terminal picture in :mod:`coven.games.namaste.render`.
"""

from coven.games.namaste.rules import (
    KARMA,
    PASS,
    ROLLS,
    Karma,
    NamasteGame,
    NamasteState,
    NamasteView,
    Pass,
    Roll,
    Write,
)

GAME = NamasteGame()

__all__ = [
    "GAME",
    "KARMA",
    "PASS",
    "ROLLS",
    "Karma",
    "NamasteGame",
    "NamasteState",
    "NamasteView",
    "Pass",
    "Roll",
    "Write",
]
