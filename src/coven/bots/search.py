"""One generic search for every game: single-observer information-set MCTS (SO-ISMCTS).

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012). A
:class:`SearchBot` decides for one seat, the *observer*, from that seat's view alone:

1. **Determinization.** Every iteration draws a full world from the view with the game's sampler,
   :meth:`Game.world_sampler`, each world as :meth:`Game.world_from_view` draws it (uniform over the
   states consistent with what the seat saw; the future chance of the world is fresh, never the true
   one). The true state is never seen.
2. **Selection and expansion** descend one tree, whose nodes are the observer's information sets (the
   same tree for every world). Who decides next in the world is worked out as every front end does it,
   by :func:`coven.core.driver.decisions`: seats that *may* act are offered the chance first (their
   "let it pass", ``None``, is a choice like any other), then the seats the game waits for. Each
   decision is a step of the tree, its children keyed by ``(seat, action)``; a child is chosen by UCB1
   with availability counts (a child only competes in the iterations whose world allows it, as in
   ISMCTS), an untried choice first. Decisions with one choice are not nodes. The bot does not know
   who moved before it, so after its own root decision the offers go clockwise from itself; when it
   lets a moment pass at the root, it is not offered again until somebody acts (as the driver does).

   Other seats' decisions are chosen in the tree by their own statistics (each node keeps the mean
   reward of the seat that moved there), so the search models opponents as players who maximise
   their own outcome. They choose as if they saw the sampled world (the known weakness of
   single-observer ISMCTS: their information is not modelled apart); with ``opponents_in_tree=False``
   they play the playout policy instead, and only the observer's choices are nodes. ``max_depth``
   bounds the decisions on a path through the tree (``1``: flat Monte Carlo with UCB1 at the root, for
   games whose proposals are costly to compute).
3. **Playout.** From the new node the world is played on with the plan's ``policy`` (uniform random
   by default; optional actors are skipped unless ``optional_in_playouts``), to the end or for at most
   ``playout_depth`` decisions.
4. **Evaluation and back-propagation.** The plan's ``evaluate`` gives every seat its reward in the
   final (or cut-off) world: by default its share of the victory plus ``margin_weight`` times its
   score margin over the best other seat, in units of the game's score range (in a world cut off
   before the end, the scores so far stand: games that cut playouts short give their own evaluation).

The choice is the root child visited most (ties: the better mean). Games with huge or open-ended
action spaces give a ``candidates`` hook (as :class:`coven.bots.reference.ReferencePlan` does): from a
seat's view, its legal actions and ``required``, the family of actions worth searching (``None`` in it:
let the moment pass; the actions need not be among ``legal`` when the rules accept them). Without the
hook, every legal action is a choice (so ``legal`` must be small enough to list). It is asked with the
observer's real view at the root, and with the acting seat's view of the world deeper down (so a
proposal never uses what that seat could not know).

The budget is a number of iterations (``iterations``), or, with ``steps``, a number of simulated
actions (tree and playout together) spread over iterations between ``min_iterations`` and
``iterations``, so that early decisions with long playouts cost about as much as late ones. Either
way it is counted, never timed: a decision is a function of the view and the bot's seed.

This layer imports only :mod:`coven.core`; each game configures the search in its own ``bots.py``
(policies, evaluation, candidates) and registers the bots it builds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from coven.core.bot import Bot, BotFactory
from coven.core.driver import decisions
from coven.core.game import AnyGame
from coven.core.types import Seat

Policy = Callable[[Any, Seat, Sequence[Hashable], bool, random.Random], Hashable | None]
"""A playout choice for ``seat`` in a (sampled, fully known) world state: one of ``legal`` (or another
legal action), or ``None`` to let an optional moment pass (``required`` False)."""
Evaluate = Callable[[Any], Sequence[float]]
"""Every seat's reward in a world state (over, or cut off by ``playout_depth``); larger is better."""
Candidates = Callable[[Any, Sequence[Hashable], bool, random.Random], list[Hashable | None]]
"""The choices worth searching, from a seat's view, its legal actions and ``required``."""
Playout = Callable[[Any, Any, int, random.Random], int]
"""A game's own playout loop ``(game, state, limit, rng)``: plays on at most ``limit`` actions, returns
how many it applied (the policy inlined, for speed)."""

PASS = None
"""Letting an optional moment pass."""


def random_policy(
    state: Any, seat: Seat, legal: Sequence[Hashable], required: bool, rng: random.Random
) -> Hashable | None:
    """Uniform among the legal actions; never acts when it need not."""
    if not required:
        return PASS
    return legal[int(rng.random() * len(legal))]


def bots_policy(game: AnyGame, factory: BotFactory, seed: int = 0) -> Policy:
    """A playout policy that asks one bot per seat (made by ``factory``, kept across playouts) on that
    seat's view of the world: honest play between, say, the game's ``greedy`` bots. Slower than a rule
    on the state, as every decision builds a view."""
    bots: dict[Seat, Bot] = {}

    def choose(
        state: Any, seat: Seat, legal: Sequence[Hashable], required: bool, rng: random.Random
    ) -> Hashable | None:
        bot = bots.get(seat)
        if bot is None:
            bot = bots[seat] = factory(game, seat, seed * 7919 + seat)
        action = bot.act(game.view(state, seat), legal, required)
        if action is None and required:
            return legal[0]
        return action

    return choose


def outcome_rewards(game: AnyGame, state: Any, margin_weight: float) -> list[float]:
    """Each seat's share of the victory plus ``margin_weight`` times its margin over the best other
    seat, in units of the game's score range (the default evaluation; for finished worlds)."""
    scores = game.scores(state)
    winners = game.winners(state)
    players = len(scores)
    out = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
    if margin_weight and players > 1:
        bounds = game.bounds(players, game.options(state))
        width = max(1e-9, bounds.max_score - bounds.min_score)
        for s in range(players):
            best_other = max(v for o, v in enumerate(scores) if o != s)
            out[s] += margin_weight * (scores[s] - best_other) / width
    return out


@dataclass(frozen=True)
class SearchPlan:
    """How the search plays one game (see the module docstring)."""

    iterations: int = 1000
    """Iterations per decision (with ``steps``: the most)."""
    steps: int | None = None
    """When set, the budget in simulated actions, spread over ``min_iterations``..``iterations``."""
    min_iterations: int = 100
    exploration: float = 0.7
    """UCB1's exploration constant (rewards are about 0..1)."""
    policy: Policy = random_policy
    evaluate: Evaluate | None = None
    """``None``: :func:`outcome_rewards` with ``margin_weight`` (the playout then runs to the end)."""
    margin_weight: float = 0.0
    candidates: Candidates | None = None
    """``None``: every legal action (and a pass when the seat need not act)."""
    playout_depth: int | None = None
    """Decisions played out before the world is evaluated (``None``: to the end)."""
    opponents_in_tree: bool = True
    max_depth: int | None = None
    """The most decisions a path through the tree holds (1: flat Monte Carlo with UCB1 at the root,
    for games whose choices are costly to propose); below it, the playout policy."""
    optional_in_playouts: bool = False
    """Offer the optional actors their chance in playouts too (the policy then sees ``required`` False)."""
    playout: Playout | None = None
    """``None``: the generic loop with ``policy``; else the game's own loop (which replaces ``policy``
    and ``optional_in_playouts``, and is still bounded by ``playout_depth``). A game gives one to run
    many more playouts in the same time, typically the very choices its policy makes."""


class _Node:
    __slots__ = ("avail", "children", "n", "seat", "w")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        """The seat that chose this node (whose reward it keeps)."""
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.children: dict[tuple[Seat, Hashable | None], _Node] = {}


class SearchBot:
    """Single-observer IS-MCTS from the view (see the module docstring)."""

    def __init__(self, game: AnyGame, seat: Seat, seed: int, plan: SearchPlan | None = None) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.plan = plan or SearchPlan()
        self.root_visits: dict[Hashable | None, int] = {}
        """After a decision: how often each root choice was visited (for tests and explanations)."""
        self.iterations_done = 0

    # ---------------------------------------------------------------------------------- the protocol
    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        self.root_visits = {}
        self.iterations_done = 0
        if not legal:
            return None
        options = self._options(view, legal, required)
        if not options:
            return None if not required else legal[0]
        if len(options) == 1:
            return self._intern(options[0], legal)
        root = self.search(view, options)
        ranked = {key[1]: child for key, child in root.children.items()}
        self.root_visits = {a: ch.n for a, ch in ranked.items()}
        best = max(
            (a for a in options if a in ranked),
            key=lambda a: (ranked[a].n, ranked[a].w / max(1, ranked[a].n)),
        )
        return self._intern(best, legal)

    def _options(self, view: Any, legal: Sequence[Hashable], required: bool) -> list[Hashable | None]:
        if self.plan.candidates is not None:
            return list(dict.fromkeys(self.plan.candidates(view, legal, required, self.rng)))
        options: list[Hashable | None] = list(legal)
        if not required:
            options.append(PASS)
        return options

    @staticmethod
    def _intern(action: Hashable | None, legal: Sequence[Hashable]) -> Hashable | None:
        """The equal member of ``legal`` (games may keep one object per action), else ``action``; a huge
        ``legal`` (a family enumerated lazily) is not searched."""
        if action is None or len(legal) > 4096:
            return action
        for a in legal:
            if a == action:
                return a
        return action

    # ---------------------------------------------------------------------------------- the search
    def search(self, view: Any, root_options: Sequence[Hashable | None]) -> _Node:
        """Run the budget from ``view``; the root with its statistics."""
        plan, me = self.plan, self.seat
        root = _Node(me)
        max_iter = plan.iterations
        min_iter = min(plan.min_iterations, max_iter) if plan.steps is not None else max_iter
        used = 0
        done = 0
        draw = self.world_source(view)
        while done < max_iter and (plan.steps is None or done < min_iter or used < plan.steps):
            world = draw()
            used += self._iterate(world, root, root_options)
            done += 1
        self.iterations_done = done
        return root

    def world_source(self, view: Any) -> Callable[[], Any]:
        """Where one decision's worlds come from: by default the game's sampler for the view
        (:meth:`Game.world_sampler`: what the view fixes worked out once a decision), a fresh draw for
        every iteration (a game's bot may weight the worlds)."""
        draw, rng = self.game.world_sampler(view), self.rng
        return lambda: draw(rng)

    def _iterate(self, state: Any, root: _Node, root_options: Sequence[Hashable | None]) -> int:
        """One iteration on the world ``state``; returns the actions it simulated."""
        game, plan, rng, me = self.game, self.plan, self.rng, self.seat
        apply = game.advance
        path: list[_Node] = []
        node = root
        steps = 0
        expanded = False
        # The root: the observer's own decision, its options from its real view.
        first, child, expanded = self._choose(node, me, root_options)
        path.append(child)
        node = child
        last = me
        skip: Seat | None = None
        if first is not PASS:
            apply(state, me, first)
            steps += 1
        else:
            skip = me  # it let this round of offers pass: not offered again until someone acts
        players = game.num_players(state)
        guard = game.bounds(players, game.options(state)).max_decisions
        # Down the tree, one offered decision after another, until a node is added.
        depth = plan.max_depth if plan.max_depth is not None else guard
        while not expanded and len(path) < depth and steps < guard and not game.is_over(state):
            acted = False
            for seat, required in decisions(game, state, last):
                if not required and seat == skip:
                    continue
                legal = game.legal_actions(state, seat)
                if not legal:
                    continue
                if seat != me and not plan.opponents_in_tree:
                    action = plan.policy(state, seat, legal, required, rng)
                else:
                    if plan.candidates is not None:
                        options = self._options_in_world(state, seat, legal, required)
                    else:
                        options = [*legal, PASS] if not required else list(legal)
                    if len(options) == 1:
                        action = options[0]
                    else:
                        action, child, expanded = self._choose(node, seat, options)
                        path.append(child)
                        node = child
                if action is PASS and required:
                    action = legal[0]
                if action is PASS:
                    if expanded or len(path) >= depth:
                        break
                    continue
                apply(state, seat, action)
                steps += 1
                last, skip, acted = seat, None, True
                break
            if not acted and not expanded:
                break
        steps += self._playout(state, guard - steps)
        rewards = (
            plan.evaluate(state)
            if plan.evaluate is not None
            else outcome_rewards(game, state, plan.margin_weight)
        )
        for ch in path:
            ch.n += 1
            ch.w += rewards[ch.seat]
        return steps

    def _options_in_world(
        self, state: Any, seat: Seat, legal: Sequence[Hashable], required: bool
    ) -> list[Hashable | None]:
        assert self.plan.candidates is not None
        view = self.game.view(state, seat)
        options = list(dict.fromkeys(self.plan.candidates(view, legal, required, self.rng)))
        return options or ([legal[0]] if required else [PASS])

    def _choose(
        self, node: _Node, seat: Seat, options: Sequence[Hashable | None]
    ) -> tuple[Hashable | None, _Node, bool]:
        """The choice at ``node`` among ``options`` (UCB1 with availability; an untried one first):
        the choice, its child, and whether the child is new."""
        children = node.children
        untried = [a for a in options if (seat, a) not in children]
        if untried:
            for a in options:
                ch = children.get((seat, a))
                if ch is not None:
                    ch.avail += 1
            action = untried[int(self.rng.random() * len(untried))]
            child = children[(seat, action)] = _Node(seat)
            child.avail = 1
            return action, child, True
        c = self.plan.exploration
        best_value = -math.inf
        best: tuple[Hashable | None, _Node] | None = None
        for a in options:
            ch = children[(seat, a)]
            ch.avail += 1
            value = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
            if value > best_value:
                best_value, best = value, (a, ch)
        assert best is not None
        return best[0], best[1], False

    def _playout(self, state: Any, limit: int) -> int:
        """Play on with the policy (at most ``playout_depth`` decisions); the actions applied."""
        game, plan, rng = self.game, self.plan, self.rng
        policy = plan.policy
        first_to_act, legal_actions, apply = game.first_to_act, game.legal_actions, game.advance
        if plan.playout_depth is not None:
            limit = min(limit, plan.playout_depth)
        if plan.playout is not None:
            return plan.playout(game, state, limit, rng)
        steps = 0
        while steps < limit:
            seat = first_to_act(state)
            if seat is None:
                break
            if plan.optional_in_playouts:
                acted = False
                for other in sorted(game.may_act(state)):
                    legal = legal_actions(state, other)
                    if legal:
                        action = policy(state, other, legal, False, rng)
                        if action is not None:
                            apply(state, other, action)
                            steps += 1
                            acted = True
                            break
                if acted:
                    continue
            legal = legal_actions(state, seat)
            if not legal:
                break
            action = legal[0] if len(legal) == 1 else policy(state, seat, legal, True, rng)
            apply(state, seat, legal[0] if action is None else action)
            steps += 1
        return steps


def search_factory(plan: SearchPlan) -> BotFactory:
    """A bot factory for a :class:`SearchBot` with ``plan``."""

    def make(game: AnyGame, seat: Seat, seed: int) -> SearchBot:
        return SearchBot(game, seat, seed, plan)

    return make


__all__ = [
    "PASS",
    "Candidates",
    "Evaluate",
    "Playout",
    "Policy",
    "SearchBot",
    "SearchPlan",
    "bots_policy",
    "outcome_rewards",
    "random_policy",
    "search_factory",
]
