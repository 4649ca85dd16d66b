"""Bots for Brujas del Sábado: ``random``, ``beginner``, ``casual``, ``greedy`` (rules of thumb) and ``best``
(IS-MCTS).

Both non-random bots work on worlds rebuilt from their view (:class:`~coven.games.brujas.worlds.Sampler`),
never on the true state. The greedy rules read only what the seat may know in any such world (its own
hand, the trick, the witch column and the score piles), so they are a function of the view.

``greedy``:
- picks: the card that raises its own standing most (witch score of its best colour, devil majorities,
  a little for growing colours whose witch stands high), plus part of what it denies the others;
- witch moves: the direction that leaves its standing furthest ahead of the best opponent;
- plays: when it can win the trick now and the trick holds something worth having (or it plays last),
  it wins with its weakest winning card; otherwise it dumps its weakest card, preferring cards it would
  not want to see taken by others; as leader it leads its strongest card.

``best``: the generic single-observer information-set MCTS of :mod:`coven.bots.search`, configured
here (``SEARCH_PLAN``). Each iteration deals a world from the view, descends the tree (UCB1 with
availability counts; forced moves are not tree nodes), adds one node and finishes the game with a fast
rollout policy (random plays, the cheap pick and witch rules below), inlined in :func:`rollout` (the
same choices as :func:`rollout_policy` in the generic loop, about 10% faster). The reward is the seat's
share of the victory plus a small part of its score margin (:func:`rewards_of`). The budget is a number
of simulated steps, spread over iterations (deterministic given the seed; no clock). It replaces this
game's former private copy of the same algorithm, with the same budget (the same iterations at every
decision): at 3 players, 30 games at each of seeds 1, 2 and 3, the generic search won 29% of its
120 seat-games (mean score 7.77), the former copy 36% of its 150 (7.89), within the noise (two seats of
the former copy at seed 1 won 25% and 43%).

Five players (issue 15), with the games of ``coven simulate brujas -p 5 -b best,greedy,greedy,greedy,greedy
--seed 1`` (a fair share is 20%; the same deals and bot seeds, split over processes): this budget of
80,000 steps won 46.7% of the first 200 games (mean score 9.08, decision CPU p95 305 ms), 150,000 steps
45.3% (8.89; p95 595 ms on a loaded machine), so the budget stays. On the first 100 games, 80,000 steps
won 52.2% and 200,000 steps 55.1% (p95 880 ms); greedy-like plays in the rollouts (lead the strongest
card, win a trick cheaply when it can, else dump the weakest; 10% random) won 45.7%, and with the
opponents playing that policy instead of being modelled in the tree 42.1%: none of it beyond the noise
(about 3.5 points at 200 games, 5 at 100), so none was kept.

The check (issue 15, before the model; replaced by it and removed): at 5 players only, after the search,
``best`` took its most visited root choices (its own choice and the next three) and played each out to the end
on the same sampled worlds (common random numbers) with ``greedy`` at every seat, itself included (through
:func:`greedy_kind`: greedy's very choices, tested equal; a whole 5-player game in 2.1 ms of CPU against 5.2
ms through :func:`greedy_action`); it played the candidate with the best mean reward (:func:`rewards_of`; ties
to the search's order). ``greedy`` opponents are modelled exactly in these playouts (given the world), where
the search's random rollouts model nobody. The worlds come from the same sampler as the search's. Measured
with the games of ``coven simulate brujas -p 5 -b best,greedy,greedy,greedy,greedy --seed S`` (same deals and
bot seeds): tuning seed 101, games 0-59: 28.0 -> 31.7 wins; untuned seeds, 200 games each: seed 1 93.4 ->
106.6 (46.7% -> 53.3%), seed 2 100.4 -> 99.7 (50.2% -> 49.8%); together 48.5% -> 51.6%, about one standard
error: the target of 60% is not met. Decision CPU p95 515-574 ms with the check (305 ms without, above), max
839 ms, on a loaded machine. At 4 players it hurt: games 0-59 of ``coven simulate brujas -p 4 -b
best,greedy,greedy,greedy --seed 1`` 42.1 wins without it, 35.5 with it (70.1% -> 59.2%), so below 5 players
the search decides alone (its play there is unchanged).

The greedy model (issue 15, :class:`GreedyModel`), at 5 players only and not in Devils in Conflict, replaced
the check: the search models the other seats as ``greedy`` players. Their decisions, in the tree and
in the playouts, are greedy's on the sampled world (:func:`greedy_policy`, :func:`modelled_rollout`), so
only the seat's own decisions are tree nodes; its own playout moves stay those of :func:`rollout`. The
worlds still come from the exact sampler (the model does not weight them), and greedy's rules read only what
each seat may know, so the model uses nothing the seat cannot see; it is a bet on how the others play, right
against ``greedy`` and the levels built on it, and a rough guess of any player who grabs what helps them
now. A budget of 25,000 steps (greedy's steps are dearer than random ones). Measured with the games of
``coven simulate brujas -p 5 -b best,greedy,greedy,greedy,greedy --seed S`` (same deals and bot seeds):
tuning seed 101, games 0-39: 23.4 wins (58.5%; the check won 52.8% of games 0-59 there), decision CPU p95
609 ms (max 724 ms, loaded machine); the check over every root choice, with half the search budget and twice
the check's, won 13.8 of games 0-27 (49.4%), so it was dropped. Untuned seeds, 200 games each: seed 1 106.6
-> 112.6 wins (53.3% -> 56.3%), seed 2 99.7 -> 110.0 (49.8% -> 55.0%); together 51.6% -> 55.6%, about 1.6
standard errors: better, but the target of 60% is not met. Decision CPU p95 637 ms at both seeds (max 992
ms).

Reading the plays (issue 15, :mod:`coven.games.brujas.reading`, ``GreedyModel.penalty``): the model's worlds
no longer come straight from the exact sampler, which reads nothing into which card a player chose. Greedy's
play is a function of its hand and public facts, so every play another seat made can be replayed in a world
(its hand then: its hand in the world plus the cards it played since); a Metropolis walk over deals (swaps of
two cards between two hidden hands, voids kept) weights a world by 0.05 per play greedy would not have made
there. In seeded greedy games the true world explains every play (tested); uniform draws miss about one play
in the average world, the walk's worlds about a fifth of one. The walk costs 11% more instructions per
decision within the same step budget (callgrind, two decisions of seat 0 in a seeded 5-player greedy game,
less the warm-up: 4.86e9 -> 5.40e9). Measured with the games of ``coven simulate brujas -p 5 -b
best,greedy,greedy,greedy,greedy --seed S``: tuning seed 101, games 0-39: 23.4 -> 27.9 wins (58.5% ->
69.8%); decision CPU p95 1321 ms there against 1298 ms for the model alone (``-n 10 --seed 3``), both on a
machine shared by four jobs on two cores (the 637 ms above was measured on a quieter one). Untuned seed 1,
games 0-119: 83.75 wins (69.8%; the model alone won 56.3% of games 0-199 there), mean score 9.85; seed 2,
games 0-39: 28.8 wins (72.1%; the model alone 55.0% of games 0-199); together 112.6 of 160 (70.4%, about 3.6
standard errors above 55.6%; not the full 400 games, for want of time on the shared machine), decision CPU
p95 1525 ms (seed 1) and 1344 ms (seed 2) on that loaded machine (load about 5 on two cores; the instruction
count above is the figure to trust: about +11% over the model alone). Below 5 players nothing changes (the
same visits, checked against the previous commit).
The step budget of the modelled search then went from 25,000 to 18,000 a decision, so that the 95th
percentile stays under a second on a slower host: on an idle one where the model alone (25,000 steps, no
reading) took 930 ms at p95 (``-n 5 --seed 9 --timing``), the reading at 25,000 steps took 1,144 ms; at
18,000 steps, ``-n 20 --seed 5`` and ``--seed 6`` (one process per core): 11.75 and 15.92 wins (69.2% of
40 games), decision CPU p95 845 and 874 ms.

Witch face down: in no variant does a player choose to play a card face down. In the basic game and in Devils
in Conflict every card is played face up; in "Witches refrain from speaking" (``silent``) a card goes face
down exactly when its player cannot follow (or, before the Lead is set, cannot match the first card), by rule
(:meth:`BrujasGame.apply_unchecked`), and then any card of the hand is legal: the choice there is which card
to give away hidden, and ``best`` makes it like any other play.

``beginner`` and ``casual`` (:mod:`coven.bots.levels`): ``greedy`` with random slips, a uniformly random
legal choice instead of greedy's on 90% (beginner) and 10% (casual) of the decisions (``LEVEL_SLIP``).
Measured with ``coven simulate brujas --players 4 --bots LEVEL,greedy,greedy,greedy --seed 1``:
beginner won 9.8% of 100 games, casual 24.7% of 100 (a fair share is 25%; ``random`` wins
about 12%: greedy's rules of thumb gain little, so the beginner has to slip often).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from coven.bots.levels import level_factories
from coven.bots.reference import ReferencePlan, reference_factory
from coven.bots.search import Playout, SearchBot, SearchPlan
from coven.core import Game, Seat
from coven.core.bot import BotFactory, RandomBot
from coven.games.brujas.cards import BIT, COLOUR, COLOUR40, KIND, KINDS, LOW, NUMBER, NUMBER40
from coven.games.brujas.notation import DOWN, PLAY_ACTION, TAKE_ACTION, UP, Action
from coven.games.brujas.reading import WorldChain, readable
from coven.games.brujas.rules import WITCH_CHOICES, BrujasGame
from coven.games.brujas.state import (
    COLOUR_LEAD,
    NUMBER_LEAD,
    PLAY,
    TAKE,
    WITCH,
    BrujasState,
    score_list,
    trick_status,
    witch_colours,
)
from coven.games.brujas.view import BrujasView
from coven.games.brujas.worlds import Sampler

KIND_OF: dict[Hashable, int] = {a: k for k, a in enumerate(PLAY_ACTION)} | {
    a: k for k, a in enumerate(TAKE_ACTION)
}
"""The card kind of a play or a pick."""

# ------------------------------------------------------------------------------------------ evaluation


def standing(s: BrujasState, seat: int, pile: int) -> float:
    """How well ``pile`` would do for ``seat`` if the game ended now, plus a little for its prospects."""
    rank = s.rank
    values = s.values
    best_count, best_rank = -1, 9
    shaping = 0.0
    for c in range(4):
        cnt = (pile & COLOUR40[c]).bit_count()
        r = rank[c]
        if cnt > best_count or (cnt == best_count and r < best_rank):
            best_count, best_rank = cnt, r
        shaping += cnt * values[r]
    witch = values[best_rank]
    piles = s.piles
    if s.conflict and pile:
        # Devils in Conflict: a witch colour another player also holds most of scores half.
        mine_colour = s.witches[best_rank]
        others = [p for i, p in enumerate(piles) if i != seat and p]
        if others and mine_colour in witch_colours(others, rank):
            witch = (witch + 1) // 2
    value = float(witch) + 0.02 * shaping
    for num in range(1, 6):
        mask = NUMBER40[num]
        mine = (pile & mask).bit_count()
        if not mine:
            continue
        top = 0
        for other, p in enumerate(piles):
            if other != seat:
                cnt = (p & mask).bit_count()
                top = max(top, cnt)
        if mine >= top:
            value += 2.0 if mine > top else 1.6
        elif mine + 1 == top:
            value += 0.4
    return value


def pick_value(s: BrujasState, seat: int, k: int) -> float:
    pile = s.piles[seat]
    b = BIT[k]
    after = pile | (b << KINDS) if pile & b else pile | b
    return standing(s, seat, after) - standing(s, seat, pile)


def greedy_take(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    best: Action = legal[0]
    best_value = -1e9
    n = s.n
    for a in legal:
        k = KIND[a.card]  # type: ignore[union-attr]
        value = pick_value(s, seat, k)
        deny = 0.0
        for other in range(n):
            if other != seat:
                deny = max(deny, pick_value(s, other, k))
        value += 0.35 * deny - 0.01 * NUMBER[k]
        if value > best_value:
            best, best_value = a, value
    return best


def margin(s: BrujasState, seat: int) -> float:
    mine = standing(s, seat, s.piles[seat])
    others = max(standing(s, o, s.piles[o]) for o in range(s.n) if o != seat)
    return mine - others


def greedy_witch(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    if len(legal) == 1:
        return legal[0]
    c = COLOUR[s.trick[s.win_index]]
    rank, witches = s.rank, s.witches
    results: list[tuple[float, Action]] = []
    for a in legal:
        pos = rank[c]
        other_pos = pos - 1 if a == UP else pos + 1
        other = witches[other_pos]
        s.rank, s.witches = rank[:], witches[:]
        s.witches[pos], s.witches[other_pos] = other, c
        s.rank[c], s.rank[other] = other_pos, pos
        results.append((margin(s, seat), a))
    s.rank, s.witches = rank, witches
    results.sort(key=lambda t: t[0], reverse=True)
    return results[0][1]


def would_win(s: BrujasState, k: int) -> bool:
    """Whether card ``k``, played now, would be the winning card of the trick so far."""
    trick = [*s.trick, k]
    return trick_status(trick, s.rank)[2] == len(trick) - 1


def card_strength(s: BrujasState, k: int) -> float:
    """A rough chance-to-win measure of a card: high numbers and colours whose witch stands high."""
    return NUMBER[k] + (3 - s.rank[COLOUR[k]]) * 0.8


def greedy_play(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    if len(legal) == 1:
        return legal[0]
    kinds = [KIND[a.card] for a in legal]  # type: ignore[union-attr]
    if not s.trick:
        # Lead the strongest card; among equals the one least useful to others.
        best = max(range(len(kinds)), key=lambda i: card_strength(s, kinds[i]))
        return legal[best]
    last = len(s.trick) == s.n - 1
    winners = [i for i, k in enumerate(kinds) if would_win(s, k)]
    if winners:
        worth = max(pick_value(s, seat, k) for k in s.trick)
        if last or worth >= 1.0 or len(s.trick) >= s.n - 2:
            i = min(winners, key=lambda i: card_strength(s, kinds[i]))
            return legal[i]

    # Dump: a weak card that helps the others little.
    def dump_cost(i: int) -> float:
        k = kinds[i]
        deny = max(pick_value(s, o, k) for o in range(s.n) if o != seat)
        return card_strength(s, k) * 0.5 + deny

    return legal[min(range(len(kinds)), key=dump_cost)]


def greedy_action(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    if s.phase == PLAY:
        return greedy_play(s, seat, legal)
    if s.phase == TAKE:
        return greedy_take(s, seat, legal)
    return greedy_witch(s, seat, legal)


# ------------------------------------------------------------------------ greedy, fast, in playouts
class _Standings:
    """:func:`pick_value` and :func:`margin` of one position (piles and witch column as they stand),
    from the piles' colour and number counts, counted once and memoised: the same floats as
    :func:`standing` (the same operations in the same order), so the same choices as ``greedy``. Not
    for Devils in Conflict (whose witch score reads the other piles): :func:`greedy_kind` falls back."""

    __slots__ = ("base", "cols", "memo", "nums", "s", "tops")

    def __init__(self, s: BrujasState) -> None:
        self.s = s
        piles = s.piles
        c0, c1, c2, c3 = COLOUR40
        self.cols = [
            [(p & c0).bit_count(), (p & c1).bit_count(), (p & c2).bit_count(), (p & c3).bit_count()]
            for p in piles
        ]
        _, n1, n2, n3, n4, n5 = NUMBER40
        nums = self.nums = [
            [
                0,
                (p & n1).bit_count(),
                (p & n2).bit_count(),
                (p & n3).bit_count(),
                (p & n4).bit_count(),
                (p & n5).bit_count(),
            ]
            for p in piles
        ]
        # The most cards of each number among the other seats: the top, unless the seat alone holds
        # it, then the second.
        tops = self.tops = [[0] * 6 for _ in piles]
        for v, column in enumerate(zip(*nums, strict=True)):
            if not v:
                continue
            top = max(column)
            alone = column.index(top) if column.count(top) == 1 else -1
            second = max([x for x in column if x != top], default=0) if alone >= 0 else top
            for seat in range(len(piles)):
                tops[seat][v] = second if seat == alone else top
        self.base: list[float | None] = [None] * len(piles)
        self.memo: dict[int, float] = {}

    def value(self, seat: int, col: Sequence[int], num: Sequence[int], rank: Sequence[int]) -> float:
        values = self.s.values
        best_count, best_rank = -1, 9
        shaping = 0.0
        for c in range(4):
            cnt = col[c]
            r = rank[c]
            if cnt > best_count or (cnt == best_count and r < best_rank):
                best_count, best_rank = cnt, r
            shaping += cnt * values[r]
        value = float(values[best_rank]) + 0.02 * shaping
        tops = self.tops[seat]
        for v in range(1, 6):
            mine = num[v]
            if not mine:
                continue
            top = tops[v]
            if mine >= top:
                value += 2.0 if mine > top else 1.6
            elif mine + 1 == top:
                value += 0.4
        return value

    def pick(self, seat: int, k: int) -> float:
        """:func:`pick_value` of kind ``k`` for ``seat``."""
        key = seat * KINDS + k
        known = self.memo.get(key)
        if known is not None:
            return known
        base = self.base[seat]
        rank = self.s.rank
        if base is None:
            base = self.base[seat] = self.value(seat, self.cols[seat], self.nums[seat], rank)
        col = self.cols[seat][:]
        col[COLOUR[k]] += 1
        num = self.nums[seat][:]
        num[NUMBER[k]] += 1
        out = self.memo[key] = self.value(seat, col, num, rank) - base
        return out

    def margin(self, seat: int, rank: Sequence[int]) -> float:
        """:func:`margin` of ``seat`` under the witch ranks ``rank``."""
        cols, nums = self.cols, self.nums
        mine = self.value(seat, cols[seat], nums[seat], rank)
        others = max(self.value(o, cols[o], nums[o], rank) for o in range(self.s.n) if o != seat)
        return mine - others


def would_win_kind(s: BrujasState, k: int) -> bool:
    """:func:`would_win` from the trick's bookkeeping (a trick already started)."""
    if not BIT[k] & s.follow:
        return False
    lead = s.lead
    if lead == COLOUR_LEAD:
        return NUMBER[k] >= s.win_val
    if lead == NUMBER_LEAD:
        return -s.rank[COLOUR[k]] >= s.win_val
    f = s.first
    if k == f:
        return True
    if COLOUR[k] == COLOUR[f]:
        return NUMBER[k] > NUMBER[f]
    return s.rank[COLOUR[k]] < s.rank[COLOUR[f]]


def greedy_kind(s: BrujasState, seat: int, m: int) -> int:
    """``greedy``'s play or pick among the kinds of ``m`` (two or more), or its witch move (0 up, 1
    down; ``m`` unused): :func:`greedy_action`'s choice, faster (tested equal)."""
    phase = s.phase
    if s.conflict:
        if phase == WITCH:
            legal: Sequence[Action] = WITCH_CHOICES[s.rank[COLOUR[s.trick[s.win_index]]]]
            return 0 if greedy_witch(s, seat, legal) == UP else 1
        acts = PLAY_ACTION if phase == PLAY else TAKE_ACTION
        chosen = greedy_action(s, seat, [acts[k] for k in range(KINDS) if m >> k & 1])
        return KIND[chosen.card]  # type: ignore[union-attr]
    n = s.n
    if phase == TAKE:
        ev = _Standings(s)
        pick = ev.pick
        best, best_value = -1, -1e9
        while m:
            low = m & -m
            m ^= low
            k = low.bit_length() - 1
            value = pick(seat, k)
            deny = 0.0
            for other in range(n):
                if other != seat:
                    deny = max(deny, pick(other, k))
            value += 0.35 * deny - 0.01 * NUMBER[k]
            if value > best_value:
                best, best_value = k, value
        return best
    if phase == WITCH:
        c = COLOUR[s.trick[s.win_index]]
        rank, witches = s.rank, s.witches
        pos = rank[c]
        ev = _Standings(s)
        best_dir, best_margin = -1, -1e18
        for direction in (0, 1) if 0 < pos < 3 else ((1,) if pos == 0 else (0,)):
            other_pos = pos - 1 if direction == 0 else pos + 1
            new_rank = rank[:]
            new_rank[c], new_rank[witches[other_pos]] = other_pos, pos
            value = ev.margin(seat, new_rank)
            if value > best_margin:
                best_dir, best_margin = direction, value
        return best_dir
    kinds = [k for k in range(KINDS) if m >> k & 1]
    rank = s.rank

    def strength(k: int) -> float:
        return NUMBER[k] + (3 - rank[COLOUR[k]]) * 0.8

    trick = s.trick
    if not trick:
        return max(kinds, key=strength)
    ev = _Standings(s)
    pick = ev.pick
    winners = [k for k in kinds if would_win_kind(s, k)]
    if winners:
        worth = max(pick(seat, k) for k in trick)
        if len(trick) >= n - 2 or worth >= 1.0:
            return min(winners, key=strength)
    others = [o for o in range(n) if o != seat]
    return min(kinds, key=lambda k: strength(k) * 0.5 + max(pick(o, k) for o in others))


# ---------------------------------------------------------------------------- cheap rollout policy
def quick_take(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    """The rollout pick: colours by (cards held + 1) x witch value, plus numbers it would lead."""
    m = 0
    for a in legal:
        m |= BIT[KIND[a.card]]  # type: ignore[union-attr]
    return TAKE_ACTION[quick_take_kind(s, seat, m)]


def quick_take_kind(s: BrujasState, seat: int, kinds: int) -> int:
    """:func:`quick_take` on a set of kinds (bit k: kind k may be picked; not empty): the kind picked,
    the lowest among equals."""
    piles = s.piles
    pile = piles[seat]
    rank = s.rank
    values = s.values
    best = -1
    best_value = -1
    m = kinds
    while m:
        low = m & -m
        m ^= low
        k = low.bit_length() - 1
        c = COLOUR[k]
        value = values[rank[c]] * ((pile & COLOUR40[c]).bit_count() + 1)
        mask = NUMBER40[NUMBER[k]]
        mine = (pile & mask).bit_count() + 1
        for p in piles:
            if (p & mask).bit_count() > mine:
                break
        else:
            value += 8
        if value > best_value:
            best, best_value = k, value
    return best


def quick_witch(s: BrujasState, seat: int, legal: Sequence[Action]) -> Action:
    """The rollout witch move: up if it is the colour the mover holds most of, else down."""
    if len(legal) == 1:
        return legal[0]
    pile = s.piles[seat]
    c = COLOUR[s.trick[s.win_index]]
    mine = (pile & COLOUR40[c]).bit_count()
    most = max((pile & COLOUR40[x]).bit_count() for x in range(4))
    return UP if mine and mine >= most else DOWN


# ---------------------------------------------------------------------------------------------- bots


class GreedyBot:
    def __init__(self, game: Game[Any, Any, Any], seat: Seat, seed: int) -> None:
        assert isinstance(game, BrujasGame)
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        assert isinstance(view, BrujasView)
        s = Sampler(view).draw(self.rng)
        own = self.game.legal_actions(s, self.seat)
        choice = greedy_action(s, self.seat, own)
        for a in legal:
            if a == choice:
                return a
        return legal[0]


def rewards_of(s: BrujasState) -> list[float]:
    """Each seat's share of the victory, plus a little for its margin over the best other seat."""
    scores = score_list(s)
    top = max(scores)
    winners = scores.count(top)
    out: list[float] = []
    for i, v in enumerate(scores):
        others = max(scores[:i] + scores[i + 1 :])
        share = 1.0 / winners if v == top else 0.0
        out.append(share + 0.02 * max(-10, min(10, v - others)))
    return out


def rollout_policy(
    s: Any, seat: Seat, legal: Sequence[Hashable], required: bool, rng: random.Random
) -> Hashable:
    """The rollout policy of ``best``: random plays, the cheap pick and witch rules."""
    phase = s.phase
    if phase == PLAY:
        return legal[int(rng.random() * len(legal))]
    if phase == TAKE:
        return quick_take(s, seat, legal)  # type: ignore[arg-type]
    return quick_witch(s, seat, legal)  # type: ignore[arg-type]


def rollout(game: Any, s: BrujasState, limit: int, rng: random.Random) -> int:
    """:func:`rollout_policy`'s playout, inlined for speed: the same choices from the same random
    numbers (a random play among the distinct cards allowed, in kind order as ``legal_actions`` lists
    them; no number drawn for a single choice), so the search plays the same games with either, about
    10% faster with this one. Plays on at most ``limit`` actions; returns how many it applied."""
    apply = game.apply_unchecked
    steps = 0
    while steps < limit:
        phase = s.phase
        seat = s.turn
        if phase == PLAY:
            h = s.hands[seat]
            m = h & s.follow or h & LOW
            count = m.bit_count()
            if count > 1:
                j = int(rng.random() * count)
                while j:
                    m &= m - 1
                    j -= 1
            apply(s, seat, PLAY_ACTION[(m & -m).bit_length() - 1])
        elif phase == TAKE:
            m = s.pool & LOW
            k = quick_take_kind(s, seat, m) if m & (m - 1) else m.bit_length() - 1
            apply(s, seat, TAKE_ACTION[k])
        elif phase == WITCH:
            apply(s, seat, quick_witch(s, seat, WITCH_CHOICES[s.rank[COLOUR[s.trick[s.win_index]]]]))
        else:
            break
        steps += 1
    return steps


def greedy_policy(
    s: Any, seat: Seat, legal: Sequence[Hashable], required: bool, rng: random.Random
) -> Hashable:
    """``greedy``'s choice as a search policy (through :func:`greedy_kind`): the modelled opponents'
    decisions inside the tree (:class:`GreedyModel`)."""
    if len(legal) == 1:
        return legal[0]
    if s.phase == WITCH:
        return DOWN if greedy_kind(s, seat, 0) else UP
    m = 0
    for a in legal:
        m |= BIT[KIND_OF[a]]
    k = greedy_kind(s, seat, m)
    return (PLAY_ACTION if s.phase == PLAY else TAKE_ACTION)[k]


def modelled_rollout(observer: int) -> Playout:
    """A playout where every seat but ``observer`` plays ``greedy`` (:func:`greedy_kind`) and the
    observer plays :func:`rollout`'s random plays and cheap picks and witch moves."""

    def playout(game: Any, s: BrujasState, limit: int, rng: random.Random) -> int:
        apply = game.apply_unchecked
        steps = 0
        while steps < limit:
            phase = s.phase
            seat = s.turn
            mine = seat == observer
            if phase == PLAY:
                h = s.hands[seat]
                m = h & s.follow or h & LOW
                if not m & (m - 1):
                    k = m.bit_length() - 1
                elif mine:
                    j = int(rng.random() * m.bit_count())
                    while j:
                        m &= m - 1
                        j -= 1
                    k = (m & -m).bit_length() - 1
                else:
                    k = greedy_kind(s, seat, m)
                apply(s, seat, PLAY_ACTION[k])
            elif phase == TAKE:
                m = s.pool & LOW
                if not m & (m - 1):
                    k = m.bit_length() - 1
                elif mine:
                    k = quick_take_kind(s, seat, m)
                else:
                    k = greedy_kind(s, seat, m)
                apply(s, seat, TAKE_ACTION[k])
            elif phase == WITCH:
                if mine:
                    apply(s, seat, quick_witch(s, seat, WITCH_CHOICES[s.rank[COLOUR[s.trick[s.win_index]]]]))
                else:
                    apply(s, seat, DOWN if greedy_kind(s, seat, 0) else UP)
            else:
                break
            steps += 1
        return steps

    return playout


SEARCH_PLAN = SearchPlan(
    iterations=2_000,
    steps=80_000,
    min_iterations=250,
    exploration=0.7,
    policy=rollout_policy,
    playout=rollout,
    evaluate=rewards_of,
)
"""``best``'s search: the budget is counted in simulated actions (tree and rollouts), so that early
decisions, whose rollouts are long, get fewer iterations than late ones and every decision costs about
the same time; deterministic given the seed."""


@dataclass(frozen=True)
class GreedyModel:
    """How ``best``'s search models the other seats as ``greedy`` players: their decisions, in the tree
    and in the playouts, are ``greedy``'s on the sampled world (:func:`greedy_policy`,
    :func:`modelled_rollout`); only the seat's own decisions are tree nodes."""

    players: int = 5
    """The model is used at this many players or more."""
    conflict: bool = False
    """Whether it is used in Devils in Conflict (greedy's slow path there)."""
    steps: int = 18_000
    """The search's step budget when the model is used (greedy's steps cost about 8 random ones)."""
    min_iterations: int = 100
    penalty: float | None = 0.05
    """Worlds read the others' plays as ``greedy``'s (:mod:`coven.games.brujas.reading`): a world's
    weight is multiplied by this for every play greedy would not have made there (``None``: the exact
    sampler's uniform worlds)."""


MODEL: GreedyModel | None = GreedyModel()


class ISMCTSBot(SearchBot):
    """``best``: the generic IS-MCTS (:mod:`coven.bots.search`) with Brujas' rollouts and rewards; at 5
    players, the others modelled as ``greedy`` (:class:`GreedyModel`; ``model=None``: never);
    ``iterations`` fixes the count instead of the step budget (tests)."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seat: Seat,
        seed: int,
        iterations: int | None = None,
        model: GreedyModel | None = MODEL,
    ) -> None:
        plan = SEARCH_PLAN if iterations is None else replace(SEARCH_PLAN, iterations=iterations, steps=None)
        super().__init__(game, seat, seed, plan)
        self.model = model
        self.reading_penalty: float | None = None
        """The reading's penalty during a modelled decision (:meth:`search`)."""
        self.modelled_plan = (
            None
            if model is None
            else replace(
                plan,
                steps=model.steps if plan.steps is not None else None,
                min_iterations=model.min_iterations,
                opponents_in_tree=False,
                policy=greedy_policy,
                playout=modelled_rollout(seat),
            )
        )

    def act(self, view: Any, legal: Sequence[Hashable], required: bool) -> Hashable | None:
        model, modelled_plan = self.model, self.modelled_plan
        if (
            model is None
            or modelled_plan is None
            or view.players < model.players
            or (view.options.get("conflict") and not model.conflict)
        ):
            return super().act(view, legal, required)
        plan, self.plan = self.plan, modelled_plan
        self.reading_penalty = model.penalty
        try:
            return super().act(view, legal, required)
        finally:
            self.plan = plan
            self.reading_penalty = None

    def world_source(self, view: Any) -> Callable[[], Any]:
        """The exact sampler's worlds, or, when the model reads the others' plays (``penalty``), a
        :class:`~coven.games.brujas.reading.WorldChain`'s: worlds weighted by how well greedy explains
        the plays made so far."""
        penalty = self.reading_penalty
        if penalty is not None:
            sampler = Sampler(view)
            if readable(sampler):
                return WorldChain(sampler, self.rng, greedy_kind, penalty).world
        return super().world_source(view)


def _best(game: Game[Any, Any, Any], seat: Seat, seed: int) -> ISMCTSBot:
    return ISMCTSBot(game, seat, seed)


REFERENCE_PLAN = ReferencePlan(playouts=1600, min_worlds=40, max_worlds=400, policy="random")
"""The yardstick's plan (:mod:`coven.bots.reference`): random playouts are cheap here (about 0.25 ms a
whole game), so many worlds per candidate."""


LEVEL_SLIP: dict[str, float] = {"beginner": 0.9, "casual": 0.1}
"""The levels' chance of a random choice instead of ``greedy``'s (:mod:`coven.bots.levels`)."""


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    **level_factories(GreedyBot, LEVEL_SLIP),
    "greedy": GreedyBot,
    "best": _best,
    "reference": reference_factory(REFERENCE_PLAN),
}
