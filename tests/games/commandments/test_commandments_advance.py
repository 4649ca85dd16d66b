"""``advance`` (no events, no notation) takes a game exactly where ``apply`` takes it: random games of
every variant (expert, a judging priestess, cards never revealed, custom cards, moves off the offered
family, forfeits), the two positions compared after every step; and ``apply_unchecked`` with its
``events`` flag false returns no events."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from coven.games.commandments import GAME
from coven.games.commandments.notation import FORFEIT, Move

CUSTOM = json.dumps(
    [
        {"id": "X1", "type": "artefact", "value": 2, "en": "a", "expr": "count(to) > 2"},
        {"id": "X2", "type": "artefact", "value": "?", "en": "b", "expr": "count(to, colour)"},
        {"id": "X3", "type": "artefact", "value": 1, "en": "c", "expr": 'colour == "white"'},
        {"id": "X4", "type": "action", "value": 2, "en": "d", "expr": 'did("bow")'},
    ]
)
VARIANTS = {
    "default": {},
    "expert": {"expert": True},
    "judge": {"judge": "priestess"},
    "never": {"reveal": "never"},
    "custom": {"custom_cards": CUSTOM},
    "custom-judge-expert": {"custom_cards": CUSTOM, "judge": "priestess", "expert": True},
}


@pytest.mark.parametrize("players", [3, 5, 7])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_advance_keeps_the_positions_of_apply(variant: str, players: int) -> None:
    options = VARIANTS[variant]
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(f"{variant}/{players}/{seed}")
        state = GAME.new_game(players, options, seed)
        quiet = GAME.clone(state)
        assert GAME.write_position(quiet) == GAME.write_position(state)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            assert GAME.to_act(quiet) == GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            roll = rng.random()
            if isinstance(action, Move) and roll < 0.2:  # a move of no family: the general path
                action = dataclasses.replace(action, seconds=rng.randrange(60))
            elif isinstance(action, Move) and roll < 0.25:
                action = FORFEIT
            kinds.add(type(action).__name__)
            events = GAME.apply(state, seat, action)
            assert GAME.advance(quiet, seat, action) is None
            assert events, action  # every action has an event: the apply path still builds them
            assert GAME.write_position(quiet) == GAME.write_position(state), (seed, action)
            assert GAME.scores(quiet) == GAME.scores(state)  # the karma, which the position derives
        assert GAME.to_act(quiet) == frozenset()
    expected = {"Ordain", "Place", "Move", "Forfeit"}
    if options.get("judge") == "priestess":
        expected.add("Judge")
    assert expected <= kinds


def test_apply_unchecked_without_events_returns_no_events_and_goes_to_the_same_place() -> None:
    rng = random.Random(5)
    state = GAME.new_game(4, None, 5)
    quiet = GAME.clone(state)
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        assert GAME.apply_unchecked(state, seat, action) != []
        assert GAME.apply_unchecked(quiet, seat, action, False) == []
        assert GAME.write_position(quiet) == GAME.write_position(state)
        assert GAME.scores(quiet) == GAME.scores(state)
