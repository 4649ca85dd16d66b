"""One ladder for all of a game's bots: games in rotating seats, ratings with uncertainty (OpenSkill).

The games are played in blocks of ``players`` games that share one deal, chairs rotated (as in the
arena, :func:`coven.bots.arena.run_tournament`), so luck of the deal and of the chair cancels out. Each
block seats one combination of ``players`` bots, the combinations in turn (:func:`lineup`), so every bot
meets every other and, over whole cycles, plays as often as the others. With fewer bots than seats a bot
sits more than once; its rating then moves by the mean of its
seats' updates, and its wins add up over its seats (its mean score is per seat).

Every game updates the ratings with the Plackett-Luce model of OpenSkill (Weng-Lin), ranked by
:func:`placings`: the winners first, sharing the first place (the game's own tie-break, as Namaste's fewer
bad-karma spaces, has decided who they are), then the others by score (ties share a place). A rating is
``mu`` (the skill estimate) and ``sigma`` (its uncertainty); the table is
sorted by the ordinal ``mu - 3 sigma``, a skill the bot has almost surely reached.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from coven.bots.arena import make_bot, play_game, seat_assignment
from coven.core import AnyGame, check_seed
from coven.core.errors import InvalidOptionError
from coven.core.types import JSONValue


@dataclass
class Standing:
    bot: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    score_total: float = 0.0
    seats: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "bot": self.bot,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "mean_score": round(self.score_total / self.seats, 4) if self.seats else 0.0,
        }


@dataclass
class LadderResult:
    game: str
    players: int
    games: int
    seed: int
    options: dict[str, JSONValue]
    standings: list[Standing]
    """Best first (by ordinal)."""

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "model": "openskill PlackettLuce",
            "ratings": [s.to_json() for s in self.standings],
        }


def placings(scores: Sequence[float], winners: Collection[int]) -> list[float]:
    """Each seat's place in a finished game (1 is first; equal places are ties): the winners share the
    first, whatever their scores (a tie the rules break goes to the winners alone), then the others by
    score. With no winner (an Amulets game where every wizard failed), all by score."""
    below = sorted({v for s, v in enumerate(scores) if s not in winners}, reverse=True)
    first = 2 if winners else 1
    return [1.0 if s in winners else float(first + below.index(v)) for s, v in enumerate(scores)]


def lineup(block: int, bots: Sequence[str], players: int) -> list[str]:
    """The bots of block ``block``: with more bots than seats, the ``players``-bot combinations in turn
    (so every bot meets every other; a full cycle is C(bots, players) blocks, in which every bot plays
    equally often); otherwise every bot, then the first ones again, cyclically."""
    if len(bots) > players:
        combos = list(itertools.combinations(range(len(bots)), players))
        return [bots[i] for i in combos[block % len(combos)]]
    return [bots[j % len(bots)] for j in range(players)]


def run_ladder(
    game: AnyGame,
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> LadderResult:
    """Play ``games`` games between ``bots`` and rate them; raises InvalidOptionError, UnknownBotError."""
    game.spec.check_players(players)
    seed = check_seed(seed)
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise InvalidOptionError("a ladder needs at least two different bots")
    if games < 1:
        raise InvalidOptionError("play at least one game")
    resolved = game.spec.resolve_options(options)
    game.validate_options(players, resolved)
    for name in names:
        make_bot(game, name, 0, 0)  # unknown names fail before any game is played

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    standings = {name: Standing(name, ratings[name].mu, ratings[name].sigma) for name in names}
    for index in range(games):
        block = index // players
        seated = lineup(block, names, players)
        block_seed = random.Random(f"ladder/{seed}/{block}").getrandbits(62)
        bot_of_seat = seat_assignment(index, players)
        entries = [seated[bot_of_seat[s]] for s in range(players)]
        actors = [
            make_bot(game, entries[s], s, random.Random(f"ladder/{seed}/{index}/{s}").getrandbits(62))
            for s in range(players)
        ]
        result = play_game(game, actors, players, resolved, block_seed)
        teams = [[ratings[name]] for name in entries]
        rated = model.rate(teams, ranks=placings(result.scores, result.winners))
        moved: dict[str, list[tuple[float, float]]] = {}
        for s, name in enumerate(entries):
            moved.setdefault(name, []).append((rated[s][0].mu, rated[s][0].sigma))
            standing = standings[name]
            standing.seats += 1
            standing.score_total += result.scores[s]
            if s in result.winners:
                standing.wins += 1.0 / len(result.winners)
        for name, updates in moved.items():
            standings[name].games += 1
            mu = sum(m for m, _ in updates) / len(updates)
            sigma = sum(sg for _, sg in updates) / len(updates)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
            standings[name].mu, standings[name].sigma = mu, sigma
        if progress is not None:
            progress(index + 1)
    ordered = sorted(standings.values(), key=lambda s: (-s.ordinal, s.bot))
    return LadderResult(game.spec.id, players, games, seed, dict(resolved), ordered)
