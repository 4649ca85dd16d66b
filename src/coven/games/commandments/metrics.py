"""Figures for ``coven simulate commandments``: karma per move as a novice, per bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coven.core import Event, JSONValue


class CommandmentsMetrics:
    """Per bot (index in --bots): novice moves, karma earned by own moves, rituals as priestess,
    disempowerments, forfeits."""

    def __init__(self) -> None:
        self.moves: dict[int, int] = {}
        self.karma: dict[int, int] = {}
        self.positive: dict[int, int] = {}
        self.priest: dict[int, int] = {}
        self.priest_gain: dict[int, int] = {}
        self.disempowered: dict[int, int] = {}
        self.games = 0

    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        self.games += 1
        for ritual in state.rituals:
            p = bot_of_seat[ritual.priestess]
            self.priest[p] = self.priest.get(p, 0) + 1
            if ritual.disempowered:
                self.disempowered[p] = self.disempowered.get(p, 0) + 1
            else:
                self.priest_gain[p] = self.priest_gain.get(p, 0) + ritual.gains[ritual.priestess]
            for log in ritual.moves:
                b = bot_of_seat[log.seat]
                self.moves[b] = self.moves.get(b, 0) + 1
                if log.total > 0:
                    self.karma[b] = self.karma.get(b, 0) + log.total
                    self.positive[b] = self.positive.get(b, 0) + 1

    def result(self) -> dict[str, JSONValue]:
        bots = sorted(set(self.moves) | set(self.priest))
        per: dict[str, JSONValue] = {}
        for b in bots:
            moves = self.moves.get(b, 0)
            priest = self.priest.get(b, 0)
            per[str(b)] = {
                "novice_moves": moves,
                "karma_per_move": round(self.karma.get(b, 0) / moves, 3) if moves else 0.0,
                "karma_move_rate": round(self.positive.get(b, 0) / moves, 3) if moves else 0.0,
                "rituals_as_priestess": priest,
                "priestess_gain_per_ritual": round(self.priest_gain.get(b, 0) / priest, 3) if priest else 0.0,
                "disempowered_rate": round(self.disempowered.get(b, 0) / priest, 3) if priest else 0.0,
            }
        return {"games": self.games, "by_bot": per}
