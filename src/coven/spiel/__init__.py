"""OpenSpiel adapters (``pip install coven[openspiel]``): every built-in game as a ``pyspiel`` Python
game (``python_coven_<id>``), see :mod:`coven.spiel.game`. Importing this package registers them."""

from __future__ import annotations

from coven.spiel.game import CovenSpielGame, CovenSpielState, load, register, short_name

GAMES = register()
"""The short names of the registered games."""

__all__ = ["GAMES", "CovenSpielGame", "CovenSpielState", "load", "register", "short_name"]
