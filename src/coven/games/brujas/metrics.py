"""Figures for ``coven simulate brujas``: how bots win tricks and where their points come from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coven.core import Event, JSONValue
from coven.games.brujas.state import NO_LEAD, BrujasState, devil_scores, trick_status, witch_scores


class BrujasMetrics:
    """Per bot (index in ``--bots``): tricks won, witch and devil points per game; per game: the Leads."""

    def __init__(self) -> None:
        self.games = 0
        self.seats_of_bot: dict[int, int] = {}
        self.tricks: dict[int, int] = {}
        self.witch: dict[int, int] = {}
        self.devil: dict[int, int] = {}
        self.leads = [0, 0, 0]

    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        assert isinstance(state, BrujasState)
        self.games += 1
        w = witch_scores(state.piles, state.rank, state.values, state.conflict)
        d = devil_scores(state.piles)
        for seat, bot in enumerate(bot_of_seat):
            self.seats_of_bot[bot] = self.seats_of_bot.get(bot, 0) + 1
            self.witch[bot] = self.witch.get(bot, 0) + w[seat]
            self.devil[bot] = self.devil.get(bot, 0) + d[seat]
        for _, cards, winner, _, _ in state.history:
            bot = bot_of_seat[winner]
            self.tricks[bot] = self.tricks.get(bot, 0) + 1
            # The witch column may have changed since; the Lead depends only on the cards.
            self.leads[trick_status(cards, state.rank)[0]] += 1

    def result(self) -> dict[str, JSONValue]:
        bots = sorted(self.seats_of_bot)

        def per_seat(table: dict[int, int]) -> list[JSONValue]:
            return [round(table.get(b, 0) / self.seats_of_bot[b], 3) for b in bots]

        total = sum(self.leads) or 1
        return {
            "tricks_won_per_game": per_seat(self.tricks),
            "witch_points_per_game": per_seat(self.witch),
            "devil_points_per_game": per_seat(self.devil),
            "lead_share": {
                "colour": round(self.leads[1] / total, 3),
                "number": round(self.leads[2] / total, 3),
                "none": round(self.leads[NO_LEAD] / total, 3),
            },
        }
