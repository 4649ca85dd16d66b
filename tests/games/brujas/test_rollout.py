"""``best``'s inlined rollout (:func:`coven.games.brujas.bots.rollout`) makes the very choices of its
policy (:func:`coven.games.brujas.bots.rollout_policy`) run by the generic playout loop."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from coven.bots.search import SearchBot
from coven.games.brujas import GAME
from coven.games.brujas.bots import SEARCH_PLAN, rollout
from coven.games.brujas.notation import format_position


def _positions(players: int, seed: int, options: dict[str, bool]) -> list[str]:
    """Positions along one random game, every phase included."""
    state = GAME.new_game(players, options, seed)
    rng = random.Random(seed)
    out = []
    while not GAME.is_over(state):
        out.append(format_position(state))
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(
    ("players", "options"), [(3, {}), (4, {"silent": True}), (5, {"conflict": True}), (5, {})]
)
def test_the_inlined_rollout_plays_as_the_policy_does(players: int, options: dict[str, bool]) -> None:
    generic = SearchBot(GAME, 0, 1, replace(SEARCH_PLAN, playout=None))
    for i, text in enumerate(_positions(players, 10 + players, options)):
        a, b = GAME.read_position(text), GAME.read_position(text)
        generic.rng = random.Random(i)
        steps = generic._playout(a, 1000)
        assert rollout(GAME, b, 1000, random.Random(i)) == steps
        assert format_position(a) == format_position(b)
        assert GAME.is_over(b)


def test_a_rollout_stops_at_its_limit() -> None:
    state = GAME.new_game(4, {}, 3)
    assert rollout(GAME, state, 7, random.Random(0)) == 7
    assert not GAME.is_over(state)


def test_the_search_with_either_playout_searches_alike() -> None:
    # The plan's playout hook replaces the generic loop: same iterations, same statistics.
    state = GAME.new_game(5, {}, 21)
    (seat,) = GAME.to_act(state)
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    visits = []
    for playout in (rollout, None):
        bot = SearchBot(GAME, seat, 5, replace(SEARCH_PLAN, iterations=60, steps=None, playout=playout))
        bot.act(view, legal, True)
        visits.append(bot.root_visits)
    assert visits[0] == visits[1]
    assert sum(visits[0].values()) == 60
