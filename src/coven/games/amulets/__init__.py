"""Amulets (Jörg Hansen, Warpspawn), a deduction game for 3-5 wizards.

The rules live in :mod:`.rules` (rulebook reading and choices in its docstring), the altar and the
notation in :mod:`.board`, the exact deduction engine in :mod:`.deduction`, the bots in :mod:`.bots`.
"""

from coven.games.amulets.rules import AmuletsGame, AmuletsState, AmuletsView, Ask, Cast, Entry

GAME = AmuletsGame()

__all__ = ["GAME", "AmuletsGame", "AmuletsState", "AmuletsView", "Ask", "Cast", "Entry"]
