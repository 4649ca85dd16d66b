"""The ``reference`` bot: generic PIMC over sampled worlds, registered for Brujas, Amulets and Namaste."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable
from typing import Any

import pytest

from coven.bots.arena import make_bot, play_game
from coven.bots.reference import ReferenceBot, ReferencePlan
from coven.games import get_game
from coven.games.amulets.rules import Cast


def small(game_id: str) -> ReferencePlan:
    """The game's plan (set in its ``bots.py``) on a budget small enough for tests."""
    bot = make_bot(get_game(game_id), "reference", 0, 0)
    assert isinstance(bot, ReferenceBot)
    plan = bot.plan
    policy = "random" if game_id == "namaste" else plan.policy  # greedy playouts: covered by amulets
    if game_id == "namaste":  # long games of many decisions: the smallest budget
        return dataclasses.replace(plan, playouts=3, min_worlds=1, max_worlds=1, policy=policy)
    return dataclasses.replace(plan, playouts=12, min_worlds=2, max_worlds=4, policy=policy)


def play(game_id: str, players: int, seed: int, bot_seed: int) -> list[Hashable]:
    """Seat 0 is a small reference bot, the others random; returns seat 0's decisions."""
    game = get_game(game_id)
    state = game.new_game(players, None, seed)
    bot = ReferenceBot(game, 0, bot_seed, small(game_id))
    others = {s: make_bot(game, "random", s, seed + s) for s in range(1, players)}
    chosen: list[Hashable] = []
    steps = 0
    while not game.is_over(state) and steps < 400:
        steps += 1
        for seat in sorted(game.may_act(state)):
            if seat == 0:
                action = bot.act(game.view(state, 0), game.legal_actions(state, 0), False)
                if action is not None:
                    chosen.append(action)
                    game.apply(state, 0, action)
        if game.is_over(state):
            break
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            actor: Any = bot if seat == 0 else others[seat]
            action = actor.act(game.view(state, seat), legal, True)
            assert action is not None
            if seat == 0:
                chosen.append(action)
            game.apply(state, seat, action)  # checked: raises if illegal
    assert game.is_over(state)
    return chosen


@pytest.mark.parametrize(("game_id", "players"), [("brujas", 3), ("namaste", 2), ("amulets", 3)])
def test_reference_plays_legal_moves_and_is_deterministic(game_id: str, players: int) -> None:
    first = play(game_id, players, 5, 7)
    assert first
    assert play(game_id, players, 5, 7) == first


def test_reference_decides_from_the_view_alone() -> None:
    # Two deals that seat 0 cannot tell apart: the same bot (same seed) makes the same decision.
    game = get_game("brujas")
    state = game.new_game(4, None, 3)
    rng = random.Random(2)
    while len(game.view(state, 0).past) < 3 or min(game.to_act(state)) != 0:
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.randrange(len(legal))])
    view = game.view(state, 0)
    other = game.world_from_view(view, random.Random(9))
    assert game.view(other, 0) == view and other.hands != state.hands
    decisions = [
        ReferenceBot(game, 0, 11, small("brujas")).act(game.view(s, 0), game.legal_actions(s, 0), True)
        for s in (state, other)
    ]
    assert decisions[0] == decisions[1]


def test_reference_casts_at_once_when_sure() -> None:
    game = get_game("amulets")
    state = game.new_game(3, None, 1)
    # Ask the questions that pin both other wizards down (their pairs, placed), until seat 0 is sure.
    for _ in range(12):
        if game.is_over(state):
            break
        view = game.view(state, 0)
        bot = ReferenceBot(game, 0, 1, small("amulets"))
        action = bot.act(view, game.legal_actions(state, 0), state.turn == 0)
        worlds = game.world_from_view(view, random.Random(0))
        knows = all(
            game.world_from_view(view, random.Random(k)).fields == worlds.fields for k in range(40)
        ) and all(game.world_from_view(view, random.Random(k)).amulets == worlds.amulets for k in range(40))
        if knows:
            assert isinstance(action, Cast)
            game.apply(state, 0, action)
            assert state.winner == 0
            return
        seat = state.turn
        legal = game.legal_actions(state, seat)
        move = make_bot(game, "greedy", seat, 3).act(game.view(state, seat), legal, True)
        assert move is not None
        game.apply(state, seat, move)
    pytest.fail("seat 0 never came to know the other wizards' secrets")


def test_reference_beats_random_at_brujas() -> None:
    game = get_game("brujas")
    plan = dataclasses.replace(small("brujas"), playouts=150, min_worlds=10, max_worlds=400)
    wins = 0.0
    for seed in range(3):
        bots = [ReferenceBot(game, 0, seed, plan), *(make_bot(game, "random", s, seed) for s in (1, 2))]
        result = play_game(game, bots, 3, None, seed)
        wins += 1.0 / len(result.winners) if 0 in result.winners else 0.0
    assert wins >= 2
