"""``reference``: the yardstick every game's ``best`` is measured against.

A plain, generic perfect-information Monte Carlo (PIMC) player, kept apart from the games' own ``best``
bots (it shares no code with them) so that "``best`` beats ``reference``" means something:

1. From its view alone it draws worlds with the game's sampler (``Game.world_sampler``, each world as
   ``Game.world_from_view`` draws it: exact, uniform over the deals consistent with what the seat saw;
   checked in ``tests/games/test_world_samplers.py``).
2. It lists its candidate actions: every legal action, or for games with huge action spaces a small
   family the game proposes (:class:`ReferencePlan.candidates`); when it may act without having to,
   "let the moment pass" is a candidate too.
3. Every candidate is played in every world (the same worlds for all candidates, so their comparison
   is not blurred by luck of the draw), and each world is played out to the end with a cheap default
   policy for everyone (random, or the game's ``greedy`` bot).
4. It picks the candidate with the best mean outcome: its share of the victory plus a part of its score
   margin over the best other seat (scaled by the game's score range).

The budget is a fixed number of playouts per decision (no clock), so a decision is reproducible from the
bot's seed; it is set per game so that a decision takes under a second at the 95th percentile on one
core (``coven simulate GAME --timing``, CPU p95 measured: Brujas 0.25-0.31 s at 3-5 players, Namaste
0.28 s at 2 and 0.56-0.71 s at 4, Amulets 0.03-0.05 s at 4). The weaknesses are the classic ones of
PIMC (it plays as if it would learn everything after this move, and never values hiding or gathering
information), which is what makes it a fair yardstick rather than a strong player.

Each game sets its plan (budget, playout policy, candidates) in its own ``bots.py`` and registers the
bot under the name ``reference`` (with :func:`reference_factory`, or a factory of its own when the plan
needs the game); this layer knows no game. The Commandments have no ``reference``: their open-ended
performances would need candidates of their own (their ``search`` bot, :mod:`coven.bots.search`, has
them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from coven.core.bot import Bot, BotFactory
from coven.core.game import AnyGame
from coven.core.types import Seat

StatePolicy = Callable[[Any, Seat, Sequence[Hashable], random.Random], Hashable]
"""A playout move for ``seat`` in a (sampled, fully known) world: picks one of the legal actions."""
Candidates = Callable[[Any, Sequence[Hashable], bool, random.Random], list[Hashable | None]]
"""The actions worth comparing, from the view, the legal actions and ``required`` (``None``: pass)."""

PASS = None


def random_policy(state: Any, seat: Seat, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    return legal[int(rng.random() * len(legal))]


@dataclass(frozen=True)
class ReferencePlan:
    """How the reference plays one game: its budget and its playout policy.

    ``policy``: ``"random"`` (uniform among the legal actions, on the world's state: the cheapest) or
    ``"greedy"`` (the game's own ``greedy`` bot for every seat, each on its own view of the world, so
    the playout is honest play between greedy bots). ``state_policy`` replaces the random one with a
    cheap rule on the world's state when given.
    """

    playouts: int = 600
    """Playouts per decision (candidates x worlds), the whole budget."""
    min_worlds: int = 12
    max_worlds: int = 200
    policy: str = "random"
    state_policy: StatePolicy | None = None
    candidates: Candidates | None = None
    margin_weight: float = 0.5
    """What a score margin as wide as the game's score range is worth beside a whole victory."""


class ReferenceBot:
    """Perfect-information Monte Carlo over correctly sampled worlds (see the module docstring)."""

    def __init__(self, game: AnyGame, seat: Seat, seed: int, plan: ReferencePlan | None = None) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.plan = plan or ReferencePlan()

    # ---------------------------------------------------------------------------------- the protocol
    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not legal:
            return None
        plan = self.plan
        rng = self.rng
        if plan.candidates is not None:
            options = plan.candidates(view, legal, required, rng)
        else:
            options = list(legal)
            if not required:
                options.append(PASS)
        if not options:
            return None if not required else legal[0]
        if len(options) == 1:
            return options[0]
        worlds = max(plan.min_worlds, min(plan.max_worlds, plan.playouts // len(options)))
        totals = [0.0] * len(options)
        game = self.game
        draw = game.world_sampler(view)
        for _ in range(worlds):
            world = draw(rng)
            seed = rng.getrandbits(62)
            for i, option in enumerate(options):
                state = game.clone(world) if i < len(options) - 1 else world
                totals[i] += self.playout(state, option, random.Random(seed))
        best = max(range(len(options)), key=totals.__getitem__)
        return options[best]

    # ---------------------------------------------------------------------------------- the playouts
    def playout(self, state: Any, first: Hashable | None, rng: random.Random) -> float:
        """Play ``first`` (or pass), then everyone by the default policy to the end; the outcome."""
        game = self.game
        if first is not PASS:
            game.advance(state, self.seat, first)
        if self.plan.policy == "greedy":
            self.greedy_playout(state, rng, skip=self.seat if first is PASS else None)
        else:
            self.state_playout(state, rng)
        return self.outcome(state)

    def state_playout(self, state: Any, rng: random.Random) -> None:
        game = self.game
        policy = self.plan.state_policy or random_policy
        to_act, legal_actions, apply = game.to_act, game.legal_actions, game.advance
        while True:
            seats = to_act(state)
            if not seats:
                return
            for seat in sorted(seats):
                legal = legal_actions(state, seat)
                if legal:
                    apply(state, seat, legal[0] if len(legal) == 1 else policy(state, seat, legal, rng))

    def greedy_playout(self, state: Any, rng: random.Random, skip: Seat | None) -> None:
        """Greedy bots on their own views; seats that may act are offered it first (as the driver
        does), except ``skip`` (the seat that just let this moment pass) the first time."""
        game = self.game
        factory = game.bots()["greedy"]
        bots: list[Bot] = [factory(game, s, rng.getrandbits(62)) for s in range(game.num_players(state))]
        guard = game.bounds(game.num_players(state), game.options(state)).max_decisions * 4
        while guard > 0:
            guard -= 1
            seats = game.to_act(state)
            if not seats:
                return
            acted = False
            for seat in sorted(game.may_act(state)):
                if seat == skip:
                    continue
                legal = game.legal_actions(state, seat)
                if legal:
                    action = bots[seat].act(game.view(state, seat), legal, False)
                    if action is not None:
                        game.advance(state, seat, action)
                        acted = True
                        break
            skip = None
            if acted:
                continue
            for seat in sorted(seats):
                legal = game.legal_actions(state, seat)
                if not legal:
                    continue
                action = bots[seat].act(game.view(state, seat), legal, True)
                game.advance(state, seat, legal[0] if action is None else action)

    def outcome(self, state: Any) -> float:
        game = self.game
        scores = game.scores(state)
        winners = game.winners(state)
        share = 1.0 / len(winners) if self.seat in winners else 0.0
        others = [v for s, v in enumerate(scores) if s != self.seat]
        if not others or not self.plan.margin_weight:
            return share
        bounds = game.bounds(game.num_players(state), game.options(state))
        width = max(1e-9, bounds.max_score - bounds.min_score)
        return share + self.plan.margin_weight * (scores[self.seat] - max(others)) / width


def reference_factory(plan: ReferencePlan) -> BotFactory:
    """A bot factory for ``reference`` with the given plan."""

    def make(game: AnyGame, seat: Seat, seed: int) -> ReferenceBot:
        return ReferenceBot(game, seat, seed, plan)

    return make


def reference_bot(game: AnyGame, seat: Seat, seed: int, plan: ReferencePlan | None = None) -> ReferenceBot:
    """A ``reference`` bot for ``game`` with ``plan`` (the game's own, from its ``bots.py``; plain random
    playouts over every legal action without one)."""
    return ReferenceBot(game, seat, seed, plan)
