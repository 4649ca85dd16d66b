"""What a caller hands the engine from outside (a seed, an action object) is refused with a typed error,
in every game, when it is not of the type it stands for; never a bare TypeError, never silently taken."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from coven.bots.arena import make_bot, run_tournament
from coven.core import InvalidOptionError
from coven.games import game_ids, get_game

BAD_SEEDS: list[Any] = ["7", 1.5, None, True, False, b"7", [7], np.float64(7.0)]


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_a_seed_that_is_no_whole_number_is_an_invalid_option(game_id: str, seed: object) -> None:
    game = get_game(game_id)
    players = game.spec.max_players
    with pytest.raises(InvalidOptionError, match="a seed is a whole number, not"):
        game.new_game(players, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="a seed is a whole number, not"):
        game.new_game(players, {}, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", [np.int64(7), np.uint32(7), np.int8(7)], ids=repr)
def test_a_numpy_integer_seed_deals_as_its_int(game_id: str, seed: object) -> None:
    game = get_game(game_id)
    players = game.spec.max_players
    expected = game.write_position(game.new_game(players, seed=7))
    assert game.write_position(game.new_game(players, seed=seed)) == expected  # type: ignore[arg-type]
    assert game.write_position(game.new_game(players, {}, seed=seed)) == expected  # type: ignore[arg-type]


def test_the_arena_and_bots_check_their_seeds() -> None:
    game = get_game("namaste")
    with pytest.raises(InvalidOptionError, match="seed"):
        run_tournament(game, ["random"], 2, 1, seed="7")  # type: ignore[arg-type]
    numpy_seeded = run_tournament(game, ["random"], 2, 2, seed=np.int64(3)).to_json()  # type: ignore[arg-type]
    int_seeded = run_tournament(game, ["random"], 2, 2, seed=3).to_json()
    for result in (numpy_seeded, int_seeded):
        del result["games_per_second"]
    assert numpy_seeded == int_seeded and type(numpy_seeded["seed"]) is int
    with pytest.raises(InvalidOptionError, match="seed"):
        make_bot(game, "random", 0, 1.5)  # type: ignore[arg-type]
    make_bot(game, "random", 0, np.int64(1))  # type: ignore[arg-type]


def test_namaste_positions_check_their_seed() -> None:
    game: Any = get_game("namaste")
    empty = ". / . . . / . . . . . / . . . . . . . / . . . . . / . . . / ."
    with pytest.raises(InvalidOptionError, match="seed"):
        game.position([empty, empty], seed="1")
    numpy_seeded = game.position([empty, empty], seed=np.int64(1))
    assert game.write_position(numpy_seeded) == game.write_position(game.position([empty, empty], seed=1))
