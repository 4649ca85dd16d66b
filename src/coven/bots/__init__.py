"""Bots above the games: lookup by name, and the arena that plays tournaments."""

from coven.bots.arena import TournamentResult, make_bot, run_tournament

__all__ = ["TournamentResult", "make_bot", "run_tournament"]
