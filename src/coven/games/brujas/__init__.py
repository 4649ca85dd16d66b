"""Brujas del Sábado (Yoidore Shuzō, 2021): a 2-way trick-taking game for 3-5 players.

The package, as every game package of Coven: the rules in :mod:`~coven.games.brujas.rules` (its docstring
says which rulebook reading and rulings it implements) over the state in :mod:`~coven.games.brujas.state`;
the view and events in :mod:`~coven.games.brujas.view`; actions and whole positions as text in
:mod:`~coven.games.brujas.notation`; sampled worlds in :mod:`~coven.games.brujas.worlds`; bots, the
terminal's text, explained results and metrics in ``bots``, ``render``, ``explain`` and ``metrics``. This
module assembles them: the rules never import the bots or the text.
"""

from coven.core import Parts
from coven.games.brujas.bots import BOTS
from coven.games.brujas.explain import explain
from coven.games.brujas.metrics import BrujasMetrics
from coven.games.brujas.notation import MoveWitch, Play, Take
from coven.games.brujas.render import describe_event, render
from coven.games.brujas.rules import BrujasGame
from coven.games.brujas.state import BrujasState
from coven.games.brujas.view import BrujasView, PastTrick
from coven.games.brujas.worlds import secrets, world_from_view, world_sampler

GAME = BrujasGame(
    Parts(
        bots=BOTS,
        render=render,
        describe_event=describe_event,
        explain=explain,
        metrics=BrujasMetrics,
        world_from_view=world_from_view,
        world_sampler=world_sampler,
        hidden_facts=secrets,
    )
)

__all__ = ["GAME", "BrujasGame", "BrujasState", "BrujasView", "MoveWitch", "PastTrick", "Play", "Take"]
