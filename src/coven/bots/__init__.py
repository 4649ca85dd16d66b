"""Bots above the games: lookup by name, the arena that plays tournaments, and the generic search
(:mod:`coven.bots.search`) the games' strong bots build on. This layer imports only :mod:`coven.core`;
each game hands in what is its own (evaluation, policies, candidates) from its ``bots.py``."""

from coven.bots.arena import TournamentResult, make_bot, run_tournament
from coven.bots.search import SearchBot, SearchPlan

__all__ = ["SearchBot", "SearchPlan", "TournamentResult", "make_bot", "run_tournament"]
