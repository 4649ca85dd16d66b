"""Namaste (Lach and Rapp; moses. Verlag 2021), the roll-and-write dice game for 2-4 players.

The package's modules, as in every game: the rules in :mod:`coven.games.namaste.rules` (its docstring
records the rulebook reading and the rulings), the view and the events' audiences in
:mod:`~coven.games.namaste.view`, actions and positions as text in :mod:`~coven.games.namaste.notation`,
sampled worlds in :mod:`~coven.games.namaste.worlds`, the sheet geometry in
:mod:`~coven.games.namaste.sheet`, the bots in :mod:`~coven.games.namaste.bots`, the terminal picture in
:mod:`~coven.games.namaste.render`, explanations in :mod:`~coven.games.namaste.explain` and the figures
of simulations in :mod:`~coven.games.namaste.metrics`. This module assembles them.
"""

from coven.core import Parts
from coven.games.namaste.bots import BOTS
from coven.games.namaste.explain import explain
from coven.games.namaste.metrics import NamasteMetrics
from coven.games.namaste.notation import KARMA, PASS, ROLLS, Karma, Pass, Roll, Write
from coven.games.namaste.render import describe_event, render
from coven.games.namaste.rules import NamasteGame, NamasteState
from coven.games.namaste.view import NamasteView
from coven.games.namaste.worlds import secrets, world_from_view

GAME = NamasteGame(
    Parts(
        bots=BOTS,
        render=render,
        describe_event=describe_event,
        explain=explain,
        metrics=NamasteMetrics,
        world_from_view=world_from_view,
        hidden_facts=secrets,
    )
)

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
