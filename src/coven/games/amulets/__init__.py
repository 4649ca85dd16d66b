"""Amulets (Jörg Hansen, Warpspawn), a deduction game for 3-5 wizards.

The package assembles the game from its parts: the rules (:mod:`.rules`: state, setup, legal actions,
apply; rulebook reading and choices in its docstring), the altar's encoding (:mod:`.board`), what a
wizard sees (:mod:`.view`), actions and positions as text (:mod:`.notation`), sampled worlds
(:mod:`.worlds`, by the exact deduction engine of :mod:`.deduction`), the bots (:mod:`.bots`), the
terminal's text (:mod:`.render`), explained results (:mod:`.explain`) and figures for simulations
(:mod:`.metrics`). The rules import none of the last four: they are handed over here.
"""

from coven.core import Parts
from coven.games.amulets.bots import BOTS
from coven.games.amulets.explain import explain
from coven.games.amulets.metrics import AmuletsMetrics
from coven.games.amulets.notation import Ask, Cast
from coven.games.amulets.render import describe_event, render_view
from coven.games.amulets.rules import AmuletsGame, AmuletsState
from coven.games.amulets.view import AmuletsView, Entry
from coven.games.amulets.worlds import secrets, world_from_view

GAME = AmuletsGame(
    Parts(
        bots=BOTS,
        render=render_view,
        describe_event=describe_event,
        explain=explain,
        metrics=AmuletsMetrics,
        world_from_view=world_from_view,
        hidden_facts=secrets,
    )
)

__all__ = ["GAME", "AmuletsGame", "AmuletsState", "AmuletsView", "Ask", "Cast", "Entry"]
