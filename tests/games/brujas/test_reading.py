"""Reading the others' plays as greedy's: the true world explains every play of greedy players, the
walk keeps the deal a deal that fits the view, and it prefers worlds that explain the plays."""

from __future__ import annotations

import random

import pytest

from coven.games.brujas import GAME, BrujasState
from coven.games.brujas.bots import GreedyModel, ISMCTSBot, greedy_kind
from coven.games.brujas.cards import KINDS, LOW
from coven.games.brujas.reading import Reading, WorldChain, readable
from coven.games.brujas.worlds import Sampler


def positions(bot: str, options: dict[str, bool], seed: int, every: int = 5) -> list[BrujasState]:
    """Every ``every``-th position of a seeded five-player game between ``bot`` players."""
    state = GAME.new_game(5, options, seed)
    bots = [GAME.bots()[bot](GAME, s, seed * 10 + s) for s in range(5)]
    out: list[BrujasState] = []
    step = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        if step % every == 0:
            out.append(GAME.clone(state))
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, bots[seat].act(GAME.view(state, seat), legal, True))
        step += 1
    return out


@pytest.mark.parametrize("options", [{}, {"conflict": True}])
def test_the_true_world_explains_every_greedy_play(options: dict[str, bool]) -> None:
    # The positions rebuilt from the view (witch column undone, piles rebuilt, hands grown back) must be
    # the ones greedy saw: in the true world, every play of every other seat is greedy's.
    plays = 0
    for seed in (1, 2):
        for state in positions("greedy", options, seed):
            seat = state.turn
            reading = Reading(Sampler(GAME.view(state, seat)), greedy_kind)
            for other in range(5):
                if other != seat:
                    plays += len(reading.plays[other])
                    assert reading.mismatches(other, state.hands[other]) == 0
    assert plays > 200


def test_random_plays_are_not_read_as_greedy() -> None:
    # The same check fails for players who are not greedy (so the one above can fail).
    bad = 0
    for state in positions("random", {}, 3):
        reading = Reading(Sampler(GAME.view(state, state.turn)), greedy_kind)
        bad += sum(reading.mismatches(o, state.hands[o]) for o in range(5) if o != state.turn)
    assert bad > 10


def hands_multiset(state: BrujasState, seat: int) -> list[int]:
    out: list[int] = []
    for other, h in enumerate(state.hands):
        if other != seat:
            out += [k for k in range(KINDS) if h >> k & 1] + [k for k in range(KINDS) if h >> (k + KINDS) & 1]
    return sorted(out)


def test_the_walk_deals_the_unseen_cards_within_the_voids() -> None:
    rng = random.Random(4)
    for state in positions("greedy", {}, 4, every=9):
        seat = state.turn
        view = GAME.view(state, seat)
        sampler = Sampler(view)
        assert readable(sampler)
        chain = WorldChain(sampler, rng, greedy_kind, burn_in=50, spacing=4)
        for _ in range(10):
            world = chain.world()
            assert GAME.view(world, seat) == view
            assert hands_multiset(world, seat) == hands_multiset(state, seat)
            for other in range(5):
                if other != seat:
                    assert not world.hands[other] & LOW & sampler.voids[other]
                    assert world.hands[other].bit_count() == state.hands[other].bit_count()


def test_the_walk_prefers_worlds_that_explain_the_plays() -> None:
    rng = random.Random(5)
    uniform = walked = 0
    for seed in (5, 6):
        for state in positions("greedy", {}, seed, every=7):
            seat = state.turn
            sampler = Sampler(GAME.view(state, seat))
            reading = Reading(sampler, greedy_kind)
            chain = WorldChain(sampler, rng, greedy_kind)
            for _ in range(5):
                drawn, world = sampler.draw(rng), chain.world()
                uniform += sum(reading.mismatches(o, drawn.hands[o]) for o in range(5) if o != seat)
                walked += sum(reading.mismatches(o, world.hands[o]) for o in range(5) if o != seat)
    assert walked * 3 < uniform


def test_without_a_penalty_the_search_draws_from_the_sampler() -> None:
    # penalty None: the exact sampler's worlds, as before the reading (the same visits).
    state = positions("greedy", {}, 7, every=30)[1]
    seat = state.turn
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    read = ISMCTSBot(GAME, seat, 5, iterations=60, model=GreedyModel())
    plain = ISMCTSBot(GAME, seat, 5, iterations=60, model=GreedyModel(penalty=None))
    assert read.act(view, legal, True) in legal
    plain.act(view, legal, True)
    again = ISMCTSBot(GAME, seat, 5, iterations=60, model=GreedyModel(penalty=None))
    again.world_source = lambda v: lambda: GAME.world_from_view(v, again.rng)  # type: ignore[method-assign]
    again.act(view, legal, True)
    assert again.root_visits == plain.root_visits
