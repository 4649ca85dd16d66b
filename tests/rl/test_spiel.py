"""coven.spiel's OpenSpiel games pass OpenSpiel's own random simulation checks, their information
states come from views (resampled worlds keep them), and OpenSpiel's IS-MCTS bot plays them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from coven.core import InvalidOptionError, UnknownGameError
from coven.games import game_ids, get_game
from coven.rl import make_env
from coven.spiel import GAMES, load

GAME_IDS = ("amulets", "brujas", "commandments", "namaste")


def test_every_game_is_registered() -> None:
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert set(GAMES) == {f"python_coven_{g}" for g in GAME_IDS} <= registered


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_random_sim_test_passes(game_id: str) -> None:
    pyspiel.random_sim_test(load(game_id), num_sims=2, serialize=False, verbose=False)


def test_openspiel_random_sim_test_passes_with_parameters() -> None:
    game = load("brujas", players=5, conflict=True, rng_seed=4, reward="score")
    assert game.num_players() == 5
    rules = get_game("brujas")
    bounds = rules.bounds(5, rules.spec.resolve_options({"conflict": True}))
    assert (game.min_utility(), game.max_utility()) == (bounds.min_score, bounds.max_score)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_player_count_out_of_range_is_refused_with_the_game_s_range(game_id: str) -> None:
    # (Brujas looked its bounds up by the count first: a bare KeyError)
    spec = get_game(game_id).spec
    for players in (1, 9):
        with pytest.raises(InvalidOptionError, match=f"{spec.min_players} to {spec.max_players} players"):
            load(game_id, players=players)
        with pytest.raises(InvalidOptionError, match=f"{spec.min_players} to {spec.max_players} players"):
            make_env(game_id, players=players)


def test_a_game_coven_does_not_have_is_an_unknown_game() -> None:
    # (not pyspiel's error, which lists every game it knows, some 130 lines)
    with pytest.raises(UnknownGameError, match="unknown game 'nope'"):
        load("nope")


def test_table_options_reach_the_game() -> None:
    game = load("amulets", players=4, question_cap=2)
    assert game.num_players() == 4
    state = game.new_initial_state()
    assert state.table.game.options(state.table.state)["question_cap"] == 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    with pytest.raises(InvalidOptionError, match="question_cap"):
        load("amulets", question_cap=99)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_resampled_worlds_keep_the_information_state(game_id: str) -> None:
    game = load(game_id)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds: set[bool] = set()
    while not state.is_terminal():
        player = state.current_player()
        if rng.random_sample() < 0.2:
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            rules = state.table.game
            moved = rules.write_position(world.table.state) != rules.write_position(state.table.state)
            worlds.add(moved)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert True in worlds, "the hidden parts or the future chance of a world should be redrawn"


def test_a_clone_goes_on_alone() -> None:
    state = load("namaste").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1
    assert state.table.moves != clone.table.moves


@pytest.mark.parametrize("game_id", ["brujas", "namaste", "amulets"])
def test_ismcts_plays_whole_games(game_id: str) -> None:
    """OpenSpiel's IS-MCTS (random rollouts, a few simulations) plays seat 0 to the end of a game
    against random play: every action it picks is legal and the game ends within its bound."""
    game = load(game_id)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player() == 0:
            action = int(bot.step(state))
            searched += 1
        else:
            action = int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert searched > 0
    assert len(state.history()) <= game.max_game_length()
    returns = state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_state_serializes_through_its_position(game_id: str) -> None:
    # OpenSpiel serializes a Python state by pickling its attributes: the table keeps its game's position
    # (future chance included), so a restored state goes on exactly as the original does
    game = load(game_id)
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    while not state.is_terminal():
        assert restored.legal_actions() == state.legal_actions()
        player = state.current_player()
        assert restored.information_state_string(player) == state.information_state_string(player)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        restored.apply_action(action)
    assert restored.is_terminal() and restored.returns() == state.returns()
