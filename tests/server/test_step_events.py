"""A step's events as the server sends them to each seat: made once, shown to each seat as it may see them."""

from __future__ import annotations

import random

import pytest

from coven.core import private, public
from coven.games import REGISTRY
from coven.server.tables import LoggedStep


def test_each_seat_gets_the_events_it_may_see_and_no_other() -> None:
    events = [public("play", seat=0), private("hand", [1], cards="secret"), private("both", [0, 2], n=1)]
    step = LoggedStep(1, 0, "x", events)
    shown = {seat: [e["kind"] for e in step.events_json(seat)] for seat in (None, 0, 1, 2)}
    assert shown == {None: ["play"], 0: ["play", "both"], 1: ["play", "hand"], 2: ["play", "both"]}
    assert step.events_json(0)[0] is step.events_json(1)[0]  # one JSON form for every seat


@pytest.mark.parametrize("game_id", sorted(REGISTRY.ids()))
def test_a_steps_events_match_what_each_event_says_of_its_audience(game_id: str) -> None:
    game = REGISTRY.get(game_id)
    rng = random.Random(11)
    players = game.spec.player_counts[-1]
    state = game.new_game(players, None, 11)
    private_seen = 0
    for number in range(1, 120):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        events = game.apply(state, seat, legal[rng.randrange(min(len(legal), 60))])
        step = LoggedStep(number, seat, "", events)
        private_seen += sum(e.audience is not None for e in events)
        for viewer in (None, *range(players)):
            expected = [e.to_json() for e in events if e.visible_to(viewer)]
            assert step.events_json(viewer) == expected
    if game_id in {"commandments", "namaste"}:
        assert private_seen > 0  # the games that deal private events did: the filter was put to work
