"""Bots: legal, deterministic, planning from the view only; the greedy rules do what they say."""

from __future__ import annotations

import random
from collections.abc import Hashable

from coven.bots.arena import run_tournament
from coven.games.brujas import GAME, BrujasState
from coven.games.brujas.bots import ISMCTSBot, greedy_action, quick_take, quick_witch
from coven.games.brujas.notation import parse_position


def play_out(bots: list[object], seed: int, players: int = 4) -> tuple[list[str], tuple[float, ...]]:
    state = GAME.new_game(players, None, seed)
    moves: list[str] = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action: Hashable | None = bots[seat].act(GAME.view(state, seat), legal, True)  # type: ignore[attr-defined]
        assert action in legal
        moves.append(GAME.format_action(action))  # type: ignore[arg-type]
        GAME.apply(state, seat, action)
    return moves, GAME.scores(state)


def make(name: str, seat: int, seed: int) -> object:
    return GAME.bots()[name](GAME, seat, seed)


def test_bots_are_offered() -> None:
    assert {"random", "greedy", "best"} <= set(GAME.bots())


def test_greedy_is_legal_and_deterministic() -> None:
    bots = [make("greedy", s, 5) for s in range(4)]
    first = play_out(bots, 1)
    again = play_out([make("greedy", s, 5) for s in range(4)], 1)
    assert first == again


def test_best_is_legal_and_deterministic_with_a_small_budget() -> None:
    def bots() -> list[object]:
        return [ISMCTSBot(GAME, 0, 3, iterations=30), *(make("greedy", s, 3) for s in (1, 2))]

    first = play_out(bots(), 4, players=3)
    assert first == play_out(bots(), 4, players=3)


def test_best_plans_on_the_view_alone() -> None:
    # Two states that look the same to seat 0 (another world drawn from its view) get the same move.
    state = GAME.new_game(4, None, 8)
    seat = min(GAME.to_act(state))
    view = GAME.view(state, seat)
    other = GAME.world_from_view(view, random.Random(99))
    assert [GAME.view(other, s) for s in range(4) if s != seat] != [GAME.view(state, s) for s in (1, 2, 3)]
    choices = []
    for world in (state, other):
        bot = ISMCTSBot(GAME, seat, 7, iterations=40)
        choices.append(bot.act(GAME.view(world, seat), GAME.legal_actions(world, seat), True))
    assert choices[0] == choices[1]


def test_greedy_beats_random() -> None:
    # 96 games, not 24: with the deals of coven.core.chance the first 24 fell just short of the bar by
    # chance alone (greedy wins about 1.7 times its share over many seeds); the bar is unchanged.
    result = run_tournament(GAME, ["greedy", "random", "random", "random"], 4, 96, seed=2)
    assert result.wins[0] > 96 / 4 * 1.4


def _greedy(state: BrujasState) -> str:
    (seat,) = GAME.to_act(state)
    return GAME.format_action(greedy_action(state, seat, GAME.legal_actions(state, seat)))


def test_greedy_picks_for_its_best_colour_and_numbers() -> None:
    # Seat 0 won and picks first: it holds reds beside the top witch, so it takes the red card.
    state = parse_position("RBYG R1/B1/Y1/G1 R2R3/B2/Y2/G2 0 R4B4Y4G4 take/0/down/-")
    assert _greedy(state) == "xR4"
    assert GAME.format_action(quick_take(state, 0, GAME.legal_actions(state, 0))) == "xR4"


def test_greedy_moves_its_own_colour_up() -> None:
    state = parse_position("GRBY R1/B1/Y1/G1 R2R3R4/B2/Y2/G2 0 R5B3Y3G3 witch")
    assert _greedy(state) == "up"
    assert GAME.format_action(quick_witch(state, 0, GAME.legal_actions(state, 0))) == "up"


def test_greedy_wins_cheaply_when_last() -> None:
    # Last to play with a colour Lead (red): red 4 and red 5 both win; greedy spends the 4.
    state = parse_position("RBYG B1/R1/R2/R4R5 -/-/-/- 0 R3R1R2 play")
    assert _greedy(state) == "R4"
