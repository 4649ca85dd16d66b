"""The 3 Commandments (Friese, Lamont, Lamont; BeWitched-Spiele 2008) for 3-7 players.

Modules: :mod:`board` (the Holy Circle as data), :mod:`lang` (the cards' safe expression language),
:mod:`deck` and :mod:`cards` (the deck as data, custom cards), :mod:`actions` (actions and notation),
:mod:`game` (the rules; its docstring lists the rulebook readings and our choices), :mod:`worlds`
(sampled worlds), :mod:`bots`, :mod:`render`, :mod:`metrics`.
"""

from coven.games.commandments.game import CommandmentsGame

GAME = CommandmentsGame()

__all__ = ["GAME", "CommandmentsGame"]
