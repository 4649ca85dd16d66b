"""A seeded arena: many games with any mix of bots, chairs rotated so no bot profits from its seat.

Games are played in blocks of ``players`` games that share one deal (the same seed): within a block
every bot sits once in every chair, so luck of the deal and of the chair cancels out (duplicate
scoring). Bots only ever receive their seat's view and legal actions. Seats that may act without having
to (``Game.may_act``) are offered the chance before every required decision, clockwise from the seat
after the last mover; a bot passes by returning ``None``. Decision times count only real decisions
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
from coven.core.errors import CovenError, IllegalActionError, InvalidOptionError, UnknownBotError
from coven.core.events import Event
from coven.core.game import Game
from coven.core.types import JSONValue, Seat

AnyGame = Game[Any, Any, Any]


class BotError(CovenError):
    """A bot returned something that is not a legal action."""

    code = "bot_error"


def make_bot(game: AnyGame, name: str, seat: Seat, seed: int) -> Bot:
    """The bot called ``name`` for ``game``, sitting at ``seat``; raises UnknownBotError."""
    factories = game.bots()
    factory = factories.get(name)
    if factory is None:
        known = ", ".join(sorted(factories))
        raise UnknownBotError(f"{game.spec.title} has no bot {name!r}; bots: {known}")
    return factory(game, seat, seed)


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


def play_game(
    game: AnyGame,
    bots: Sequence[Bot],
    players: int,
    options: Mapping[str, object] | None,
    seed: int,
    on_decision: Callable[[Seat, float, float], None] | None = None,
) -> GameResult:
    """Play one game between ``bots`` (one per seat) and return how it ended."""
    state = game.new_game(players, options, seed)
    bounds = game.bounds(players, game.options(state))
    events: list[Event] = []
    moves: list[tuple[Seat, Hashable]] = []
    last = players - 1  # the seat that moved last

    def decide(seat: Seat, required: bool) -> Hashable | None:
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        started, cpu_started = time.perf_counter(), time.thread_time()
        action = bots[seat].act(view, legal, required)
        if on_decision is not None and action is not None:  # a pass is no decision worth timing
            on_decision(seat, time.perf_counter() - started, time.thread_time() - cpu_started)
        return action

    def apply(seat: Seat, action: Hashable) -> None:
        try:
            events.extend(game.apply(state, seat, action))
        except IllegalActionError as exc:
            raise BotError(f"the bot at seat {seat} chose {action!r}: {exc}") from exc
        moves.append((seat, action))
        nonlocal last
        last = seat

    while not game.is_over(state):
        if len(moves) > bounds.max_decisions:
            raise BotError(f"{game.spec.id}: more than {bounds.max_decisions} decisions")
        acted = False
        # Optional actors are asked clockwise from the seat after the last mover, so no chair is
        # always first in a race to act out of turn.
        for seat in sorted(game.may_act(state), key=lambda s: (s - last - 1) % players):
            action = decide(seat, False)
            if action is not None:
                apply(seat, action)
                acted = True
                break
        if acted:
            continue
        seat = min(game.to_act(state))
        action = decide(seat, True)
        if action is None:
            raise BotError(f"the bot at seat {seat} passed on a required decision")
        apply(seat, action)
    return GameResult(state, events, game.scores(state), game.winners(state), len(moves), moves)


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
