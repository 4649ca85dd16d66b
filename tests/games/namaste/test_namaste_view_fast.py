"""The fast view of Namaste (the spectator's fields read once per position and kept on the state, the
seats' views filled slot by slot) and its JSON written directly, against the plain readings: the view
made field by field from the state, the JSON written by the view's codec."""

from __future__ import annotations

import random

from coven.core.codec import Codec
from coven.games.namaste import GAME, NamasteState, NamasteView
from coven.games.namaste.view import plain_view

_CODEC: Codec[NamasteView] = Codec(NamasteView)


def _check(state: NamasteState) -> None:
    for seat in [*range(state.players), None]:
        view = GAME.view(state, seat)
        assert view == plain_view(state, seat)
        assert GAME.view_to_json(view) == _CODEC.to_json(view)


def test_every_view_is_the_plain_view_and_its_json_the_codecs() -> None:
    """Along seeded games at 2-4 players (decisions in random order, to the end), every seat's view and
    the spectator's, taken twice (the second time from the kept fields), equal the plain view, and their
    JSON the codec's; the same for a clone and for a twin driven by ``advance``. The views are taken at
    every step of some games and at random steps of others, so that a kept view meets later positions
    (the next roll, the next turn) it must not be mistaken for."""
    rng = random.Random(8)
    decided = 0
    for game in range(30):
        state = GAME.new_game(2 + game % 3, {}, seed=500 + game)
        twin = GAME.clone(state)
        every = game % 2 == 0
        while GAME.to_act(state):
            if every or rng.random() < 0.2:
                _check(state)
                _check(state)
                _check(GAME.clone(state))
                _check(twin)
                decided += any(GAME.view(state, s).my_choice for s in range(state.players))
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            GAME.apply(state, seat, action)
            GAME.advance(twin, seat, action)
        _check(state)
        _check(twin)
    assert decided > 300


def test_a_clone_shows_its_own_position_after_both_go_their_ways() -> None:
    """Original and clone (which starts without the original's kept view), after different decisions on
    the same roll, reach positions with the same rolls completed, seats waited for and no dice (what a
    kept view is checked against), and different sheets: each shows its own."""
    rng = random.Random(2)
    differed = 0
    for game in range(20):
        state = GAME.new_game(2, {}, seed=game)
        while GAME.to_act(state) and state.phase != "decide":
            GAME.apply(state, state.active, GAME.legal_actions(state, state.active)[0])
        legal = GAME.legal_actions(state, state.active)
        if len(legal) < 2:
            continue
        GAME.view(state, None)  # kept on the state
        clone = GAME.clone(state)
        for each, action in ((state, legal[0]), (clone, legal[-1])):
            for seat in sorted(GAME.to_act(each)):
                GAME.apply(each, seat, action if seat == each.active else GAME.legal_actions(each, seat)[-1])
        assert (state.turns, state.waiting, state.roll) == (clone.turns, clone.waiting, clone.roll)
        for seat in (None, 0, 1):
            assert GAME.view(state, seat) == plain_view(state, seat)
            assert GAME.view(clone, seat) == plain_view(clone, seat)
        differed += GAME.view(state, None).sheets != GAME.view(clone, None).sheets
        rng.random()
    assert differed > 10


def test_each_view_has_its_own_options() -> None:
    """The views of one position share their immutable fields, not the options (a dict)."""
    state = GAME.new_game(3, {}, seed=1)
    first, second = GAME.view(state, 0), GAME.view(state, 1)
    assert first.options == second.options and first.options is not second.options
    assert first.sheets is second.sheets
