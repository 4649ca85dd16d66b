"""The conformance suite over every registered game, every player count, several seeds."""

from __future__ import annotations

import pytest

from coven.core.game import Game
from coven.games import game_ids, get_game
from coven.testing.conformance import check_bad_setup, check_game
from tests.core.toygame import GAME as TOY

SEEDS = (1, 2, 3)


def _games() -> list[Game[object, object, object]]:
    return [TOY, *(get_game(i) for i in game_ids())]


CASES = [
    pytest.param(game, players, seed, id=f"{game.spec.id}-{players}p-s{seed}")
    for game in _games()
    for players in game.spec.player_counts
    for seed in SEEDS
]


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_random_game_keeps_every_promise(game: Game[object, object, object], players: int, seed: int) -> None:
    report = check_game(game, players, seed)
    assert report.decisions > 0
    assert report.checked_steps > 0
    assert report.worlds_sampled > 0


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_hidden_information_varies_in_sampled_worlds(game: Game[object, object, object]) -> None:
    if not game.spec.hidden_information:
        pytest.skip(f"{game.spec.id} declares no hidden information")
    players = game.spec.min_players
    assert any(check_game(game, players, seed).hidden_varied for seed in SEEDS)


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_bad_setup_is_refused(game: Game[object, object, object]) -> None:
    check_bad_setup(game)


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.spec.id)
def test_every_game_offers_the_three_bots(game: Game[object, object, object]) -> None:
    if game is TOY:
        pytest.skip("the toy game only has the random bot")
    assert {"random", "greedy", "best"} <= set(game.bots())
