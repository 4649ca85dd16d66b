"""A seeded arena: many games with any mix of bots, chairs rotated so no bot profits from its seat.

Games are played in blocks of ``players`` games that share one deal (the same seed): within a block
every bot sits once in every chair, so luck of the deal and of the chair cancels out (duplicate
scoring). Each game runs through the one turn driver (:mod:`coven.core.driver`), like the terminal: bots
only ever receive their seat's view and legal actions, and seats that may act without having to
(``Game.may_act``) are offered the chance before every required decision, clockwise from the seat after
the last mover; a bot passes by returning ``None``. Decision times count only real decisions
(not passes) and are reported apart, since they are not deterministic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from coven.core.bot import Bot
from coven.core.driver import BotError, Driver
from coven.core.errors import InvalidOptionError, UnknownBotError
from coven.core.events import Event
from coven.core.game import AnyGame, check_seed
from coven.core.types import JSONValue, Seat

__all__ = [
    "BotError",  # the driver's: a bot answered what the rules refuse
    "GameResult",
    "TournamentResult",
    "make_bot",
    "play_game",
    "run_tournament",
    "seat_assignment",
]


def make_bot(game: AnyGame, name: str, seat: Seat, seed: int) -> Bot:
    """The bot called ``name`` for ``game``, sitting at ``seat``; raises UnknownBotError."""
    factories = game.bots()
    factory = factories.get(name)
    if factory is None:
        known = ", ".join(sorted(factories))
        raise UnknownBotError(f"{game.spec.title} has no bot {name!r}; bots: {known}")
    return factory(game, seat, check_seed(seed))


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


@dataclass
class GameResult:
    state: Any
    events: list[Event]
    scores: tuple[float, ...]
    winners: frozenset[Seat]
    decisions: int
    moves: list[tuple[Seat, Hashable]]


class _Timed:
    """A bot whose real decisions (not its passes) are timed; the clock stays out of core/."""

    def __init__(self, bot: Bot, seat: Seat, on_decision: Callable[[Seat, float, float], None]) -> None:
        self.bot = bot
        self.seat = seat
        self.on_decision = on_decision

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        started, cpu_started = time.perf_counter(), time.thread_time()
        action = self.bot.act(view, legal, required)
        if action is not None:  # a pass is no decision worth timing
            self.on_decision(self.seat, time.perf_counter() - started, time.thread_time() - cpu_started)
        return action


def play_game(
    game: AnyGame,
    bots: Sequence[Bot],
    players: int,
    options: Mapping[str, object] | None,
    seed: int,
    on_decision: Callable[[Seat, float, float], None] | None = None,
) -> GameResult:
    """Play one game between ``bots`` (one per seat) through the turn driver; return how it ended."""
    state = game.new_game(players, options, seed)
    actors: dict[Seat, Bot] = {
        seat: bot if on_decision is None else _Timed(bot, seat, on_decision) for seat, bot in enumerate(bots)
    }
    driver = Driver(game, state, actors)
    driver.run()
    return GameResult(
        state, driver.events, game.scores(state), game.winners(state), len(driver.moves), driver.moves
    )


@dataclass
class TournamentResult:
    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    options: dict[str, JSONValue]
    wins: list[float]
    mean_score: list[float]
    games_per_second: float
    metrics: dict[str, JSONValue] = field(default_factory=dict)
    timing: dict[str, JSONValue] = field(default_factory=dict)
    """Decision times per bot (ms); not deterministic, so only in the JSON when asked for."""

    def to_json(self, timing: bool = False) -> dict[str, JSONValue]:
        out: dict[str, JSONValue] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "options": dict(self.options),
            "wins": [round(w, 6) for w in self.wins],
            "mean_score": [round(m, 6) for m in self.mean_score],
            "games_per_second": round(self.games_per_second, 3),
            "metrics": self.metrics,
        }
        if timing:
            out["timing"] = self.timing
        return out


def seat_assignment(game_index: int, players: int) -> list[int]:
    """``bot_of_seat`` for the ``game_index``-th game: rotate the bot list by one chair per game."""
    shift = game_index % players
    return [(seat + shift) % players for seat in range(players)]


def run_tournament(
    game: AnyGame,
    bot_names: Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games; entries of the result follow the order of ``bot_names``."""
    game.spec.check_players(players)
    seed = check_seed(seed)
    names = list(bot_names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InvalidOptionError(f"give one bot per seat ({players}), or one bot for all; got {len(names)}")
    if games < 1:
        raise InvalidOptionError("play at least one game")
    resolved = game.spec.resolve_options(options)
    game.validate_options(players, resolved)
    for name in set(names):
        make_bot(game, name, 0, 0)  # unknown names fail before any game is played

    wins = [0.0] * players
    totals = [0.0] * players
    times: list[list[float]] = [[] for _ in range(players)]
    cpu_times: list[list[float]] = [[] for _ in range(players)]
    metrics = game.new_metrics()
    started = time.perf_counter()
    for index in range(games):
        block_seed = random.Random(f"{seed}/{index // players}").getrandbits(62)
        bot_of_seat = seat_assignment(index, players)
        bots = [
            make_bot(game, names[bot_of_seat[s]], s, random.Random(f"{seed}/{index}/{s}").getrandbits(62))
            for s in range(players)
        ]

        def record_time(seat: Seat, seconds: float, cpu: float, bot_of_seat: list[int] = bot_of_seat) -> None:
            times[bot_of_seat[seat]].append(seconds)
            cpu_times[bot_of_seat[seat]].append(cpu)

        result = play_game(game, bots, players, resolved, block_seed, record_time)
        for seat, score in enumerate(result.scores):
            totals[bot_of_seat[seat]] += score
        for seat in result.winners:
            wins[bot_of_seat[seat]] += 1.0 / len(result.winners)
        metrics.add(result.state, result.events, bot_of_seat)
        if progress is not None:
            progress(index + 1)
    elapsed = time.perf_counter() - started

    timing: dict[str, JSONValue] = {
        "decision_ms_p50": [round(_percentile(t, 0.50) * 1000, 3) for t in times],
        "decision_ms_p95": [round(_percentile(t, 0.95) * 1000, 3) for t in times],
        "decision_ms_max": [round(max(t, default=0.0) * 1000, 3) for t in times],
        # CPU time of the deciding thread: what a decision costs on one core, whatever else runs.
        "decision_cpu_ms_p50": [round(_percentile(t, 0.50) * 1000, 3) for t in cpu_times],
        "decision_cpu_ms_p95": [round(_percentile(t, 0.95) * 1000, 3) for t in cpu_times],
    }
    figures: dict[str, JSONValue] = {"decisions_per_game": round(sum(len(t) for t in times) / games, 3)}
    figures.update(metrics.result())
    return TournamentResult(
        game=game.spec.id,
        players=players,
        games=games,
        seed=seed,
        bots=names,
        options=dict(resolved),
        wins=wins,
        mean_score=[t / games for t in totals],
        games_per_second=games / elapsed if elapsed > 0 else float("inf"),
        metrics=figures,
        timing=timing,
    )
