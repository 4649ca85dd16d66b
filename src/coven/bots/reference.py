"""``reference``: the yardstick every game's ``best`` is measured against.

A plain, generic perfect-information Monte Carlo (PIMC) player, kept apart from the games' own ``best``
bots (it shares no code with them) so that "``best`` beats ``reference``" means something:

1. From its view alone it draws worlds with the game's sampler (``Game.world_from_view``: exact,
   uniform over the deals consistent with what the seat saw; checked in
   ``tests/games/test_world_samplers.py``).
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

The games register it under the name ``reference`` (each game's ``bots()``) through
:func:`reference_bot`, imported lazily so that no game imports this layer when it loads (a departure
from the layering, which has games below bots/: it is the only way every front end that names bots,
the server included, finds it). The Commandments have no ``reference``: registering it would mean
editing that game's package, and its open-ended performances need candidates of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from coven.core.bot import Bot, BotFactory
from coven.core.game import Game
from coven.core.types import Seat

AnyGame = Game[Any, Any, Any]
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
        for _ in range(worlds):
            world = game.world_from_view(view, rng)
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
            game.apply_unchecked(state, self.seat, first)
        if self.plan.policy == "greedy":
            self.greedy_playout(state, rng, skip=self.seat if first is PASS else None)
        else:
            self.state_playout(state, rng)
        return self.outcome(state)

    def state_playout(self, state: Any, rng: random.Random) -> None:
        game = self.game
        policy = self.plan.state_policy or random_policy
        to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply_unchecked
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
                        game.apply_unchecked(state, seat, action)
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
                game.apply_unchecked(state, seat, legal[0] if action is None else action)

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


# ------------------------------------------------------------------------------------ the games' plans
def _amulets_candidates(
    view: Any, legal: Sequence[Hashable], required: bool, rng: random.Random
) -> list[Hashable | None]:
    """Whether to cast, judged by playouts: the question the game's ``greedy`` bot would ask against the
    cast that catches the most remaining worlds (considered once it has a fair chance, >= 1/5; a
    certain cast is made at once). Comparing many questions by playouts would need far more than the
    budget, so the questions are greedy's and the reference's own judgement is in its casts."""
    from coven.games.amulets import GAME
    from coven.games.amulets.board import FIELDS
    from coven.games.amulets.bots import GreedyBot, best_cast
    from coven.games.amulets.rules import Ask, Cast, knowledge_of

    knowledge = knowledge_of(view)
    own = view.amulet * FIELDS + view.field
    count = knowledge.count()
    worlds = knowledge.worlds(64) if count <= 64 else None
    cast: Cast | None = None
    chance = 0.0
    if worlds:
        placement, covered = best_cast(worlds, own)
        cast, chance = Cast(placement), covered / len(worlds)
    can_ask = Ask((0, 1, 2, 3, 4)) in legal
    if cast is not None and (chance >= 1.0 or (required and not can_ask)):
        return [cast]
    if required and not can_ask:  # a cast is due and nothing is clear: a sampled world's placement
        world = knowledge.sample(rng)
        return [Cast(_placement_of(world, own, rng))]
    options: list[Hashable | None] = []
    if cast is not None and chance >= 0.2:
        options.append(cast)
    if not required:
        return [PASS, *options]
    question = GreedyBot(GAME, view.seat, rng.getrandbits(62)).act(view, legal, True)
    return [question, *options]


def _placement_of(world: Sequence[int], own: int | None, rng: random.Random) -> tuple[int, ...]:
    """Each wizard's amulet of ``world`` on its field (and the caster's own), the rest on free fields."""
    from coven.games.amulets.board import AMULETS, FIELDS

    placed = {p // FIELDS: p % FIELDS for p in world}
    if own is not None:
        placed.setdefault(own // FIELDS, own % FIELDS)
    free = [f for f in range(FIELDS) if f not in placed.values()]
    rng.shuffle(free)
    return tuple(placed[a] if a in placed else free.pop() for a in range(AMULETS))


PLANS: dict[str, ReferencePlan] = {
    # Random playouts are cheap here (about 0.25 ms a whole game): many worlds per candidate.
    "brujas": ReferencePlan(playouts=1600, min_worlds=40, max_worlds=400, policy="random"),
    # Random sheets score nothing alike real play: greedy playouts, fewer of them (about 15 ms each).
    "namaste": ReferencePlan(playouts=48, min_worlds=3, max_worlds=24, policy="greedy"),
    # Greedy playouts (its questions and certain casts): ask greedy's question or cast now.
    "amulets": ReferencePlan(
        playouts=30,
        min_worlds=5,
        max_worlds=16,
        policy="greedy",
        candidates=_amulets_candidates,
        margin_weight=0.0,
    ),
}


def reference_bot(game: AnyGame, seat: Seat, seed: int) -> ReferenceBot:
    """The ``reference`` bot of ``game`` (its plan, or plain random playouts for a game without one)."""
    return ReferenceBot(game, seat, seed, PLANS.get(game.spec.id))
