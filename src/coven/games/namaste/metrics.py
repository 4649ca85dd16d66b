"""Namaste figures for ``coven simulate``: per bot, bad karma, filled circles, lines and first completions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coven.core import Event, JSONValue


class NamasteMetrics:
    def __init__(self) -> None:
        self.games = 0
        self.seats: dict[int, int] = {}
        self.karma_points: dict[int, int] = {}
        self.karma_spaces: dict[int, int] = {}
        self.circles: dict[int, int] = {}
        self.lines: dict[int, int] = {}
        self.firsts: dict[int, int] = {}
        self.turns = 0
        self.all_firsts = 0

    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        self.games += 1
        self.turns += int(state.turns)
        for seat, bot in enumerate(bot_of_seat):
            self.seats[bot] = self.seats.get(bot, 0) + 1
            self.karma_points[bot] = self.karma_points.get(bot, 0) + sum(state.karma[seat])
            self.karma_spaces[bot] = self.karma_spaces.get(bot, 0) + len(state.karma[seat])
            self.circles[bot] = self.circles.get(bot, 0) + sum(1 for v in state.sheets[seat] if v)
            self.lines[bot] = self.lines.get(bot, 0) + sum(1 for p in state.line_points[seat] if p)
        for event in events:
            if event.kind == "line" and event.data.get("first"):
                raw = event.data["seat"]
                assert isinstance(raw, int)
                bot = bot_of_seat[raw]
                self.firsts[bot] = self.firsts.get(bot, 0) + 1
                self.all_firsts += 1

    def result(self) -> dict[str, JSONValue]:
        def mean(table: dict[int, int]) -> dict[str, JSONValue]:
            return {str(b): round(table.get(b, 0) / n, 3) for b, n in sorted(self.seats.items())}

        return {
            "games": self.games,
            "mean_rolls_per_game": round(self.turns / self.games, 2) if self.games else 0,
            "mean_bad_karma_points": mean(self.karma_points),
            "mean_bad_karma_spaces": mean(self.karma_spaces),
            "mean_filled_circles": mean(self.circles),
            "mean_lines_completed": mean(self.lines),
            "first_completion_share": {
                str(b): round(self.firsts.get(b, 0) / self.all_firsts, 3) if self.all_firsts else 0.0
                for b in sorted(self.seats)
            },
        }
