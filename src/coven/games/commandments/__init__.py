"""The 3 Commandments (Friese, Lamont, Lamont; BeWitched-Spiele 2008) for 3-7 players.

The package has the shape every game has (DESIGN.md): :mod:`.rules` (state, setup, legal actions,
apply; its docstring lists the rulebook readings and our choices), :mod:`.view` (each seat's view and
the events' audiences), :mod:`.notation` (actions and positions as text), :mod:`.worlds` (sampled
worlds, from the exact inference of :mod:`.inference`), :mod:`.bots`, :mod:`.render`, :mod:`.metrics`;
and its own helpers: :mod:`.board` (the Holy Circle as data), :mod:`.lang` (the cards' safe expression
language), :mod:`.deck` and :mod:`.cards` (the deck as data, custom cards), :mod:`.lexicon` (free words)
and :mod:`.explain`. This module assembles them: the rules never import bots or renderers.
"""

from coven.core import Parts
from coven.games.commandments.bots import BOTS
from coven.games.commandments.explain import explain
from coven.games.commandments.metrics import CommandmentsMetrics
from coven.games.commandments.render import describe_event, render
from coven.games.commandments.rules import CommandmentsGame
from coven.games.commandments.worlds import build_world, secrets, world_sampler

GAME = CommandmentsGame(
    Parts(
        bots=BOTS,
        render=render,
        describe_event=describe_event,
        explain=explain,
        metrics=CommandmentsMetrics,
        world_from_view=build_world,
        world_sampler=world_sampler,
        hidden_facts=secrets,
    )
)

__all__ = ["GAME", "CommandmentsGame"]
