"""Brujas del Sábado (Yoidore Shuzō, 2021): a 2-way trick-taking game for 3-5 players.

The rules engine lives in :mod:`coven.games.brujas.game` (its docstring says which rulebook reading and
rulings it implements); notation for whole positions in :mod:`~coven.games.brujas.position`, sampled
worlds in :mod:`~coven.games.brujas.worlds`, bots in :mod:`~coven.games.brujas.bots`.
"""

from coven.games.brujas.game import (
    GAME,
    BrujasGame,
    BrujasState,
    BrujasView,
    MoveWitch,
    PastTrick,
    Play,
    Take,
)

__all__ = ["GAME", "BrujasGame", "BrujasState", "BrujasView", "MoveWitch", "PastTrick", "Play", "Take"]
