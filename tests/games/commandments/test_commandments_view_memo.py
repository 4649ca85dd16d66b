"""Views of finished rituals are made once, kept with the ritual, and shared (see
:func:`view.build_view`): the shared ones must equal views made afresh, for every seat, at every step of
random games in both variants."""

from __future__ import annotations

import random

import pytest

from coven.games import REGISTRY


@pytest.mark.parametrize("options", [{}, {"expert": True}, {"reveal": "never"}])
def test_memoised_ritual_views_equal_fresh_ones(options: dict[str, object]) -> None:
    game = REGISTRY.get("commandments")
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        players = 3 + seed % 3
        state = game.setup(players, game.spec.resolve_options(options), seed)
        states, memoised = [], []
        while not game.is_over(state):
            seat = sorted(game.to_act(state))[0]
            actions = game.legal_actions(state, seat)
            after = game.clone(state)  # as the server does: the move is applied to a clone
            game.apply(after, seat, actions[rng.randrange(min(len(actions), 100))])
            state = after
            states.append(state)
            # seen when it was the table's position (a ritual changed later would show here)
            memoised.append([game.view(state, seat) for seat in [None, *range(players)]])
        for s, views in zip(states, memoised, strict=True):
            for seat, seen in zip([None, *range(players)], views, strict=True):
                for ritual in s.rituals:  # what was kept goes: the view is made afresh
                    ritual.shown = None
                assert game.view(s, seat) == seen, (seed, seat)
                compared += 1
    assert compared > 100


def test_a_finished_ritual_keeps_its_views_and_a_copy_starts_without() -> None:
    game = REGISTRY.get("commandments")
    rng = random.Random(7)
    state = game.setup(3, game.spec.resolve_options(None), 7)
    while len(state.rituals) < 2:
        seat = sorted(game.to_act(state))[0]
        actions = game.legal_actions(state, seat)
        game.apply(state, seat, actions[rng.randrange(min(len(actions), 100))])
    finished = state.rituals[0]
    assert finished.ended and finished.shown is None
    first = game.view(state, None)
    assert finished.shown is not None and len(finished.shown) == 1  # a spectator's kind of seat
    again = game.view(state, None)
    assert again.rituals[0] is first.rituals[0]  # kept, not made again
    assert state.rituals[-1].shown is None  # the ritual in play is never kept
    assert finished.copy().shown is None
