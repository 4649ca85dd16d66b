"""Figures of Amulets games for ``coven simulate``: questions per game and how casts fare."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coven.core import Event, JSONValue


class AmuletsMetrics:
    """``mean_questions`` counts questions per game, all askers together."""

    def __init__(self) -> None:
        self.games = 0
        self.questions = 0
        self.casts = 0
        self.successes = 0
        self.no_winner = 0
        self.out_of_turn_casts = 0
        self.questions_per_game: list[int] = []

    def add(self, state: Any, events: Sequence[Event], bot_of_seat: Sequence[int]) -> None:
        self.games += 1
        asked = 0
        turn = 0
        for entry in state.book:
            if entry.kind == "ask":
                asked += 1
            else:
                self.casts += 1
                if "n" not in entry.answers:
                    self.successes += 1
        for event in events:
            if event.kind == "turn":
                turn = int(event.data["seat"])  # type: ignore[arg-type]
            elif event.kind == "cast" and event.data.get("seat") != turn:
                self.out_of_turn_casts += 1
        self.questions += asked
        self.questions_per_game.append(asked)
        if state.winner < 0:
            self.no_winner += 1

    def result(self) -> dict[str, JSONValue]:
        games = max(1, self.games)
        ordered = sorted(self.questions_per_game)
        return {
            "mean_questions": round(self.questions / games, 4),
            "median_questions": ordered[len(ordered) // 2] if ordered else 0,
            "max_questions": ordered[-1] if ordered else 0,
            "casts_per_game": round(self.casts / games, 4),
            "cast_success_rate": round(self.successes / self.casts, 4) if self.casts else 0.0,
            "out_of_turn_casts": self.out_of_turn_casts,
            "no_winner_rate": round(self.no_winner / games, 4),
        }
