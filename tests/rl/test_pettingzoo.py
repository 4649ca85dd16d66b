"""coven.rl's PettingZoo AEC environments pass PettingZoo's own API test, deal the same game from the
same seed, and show an agent only its own view and its own mask."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from rich.text import Text

from coven.core import InvalidOptionError
from coven.rl import make_env, make_parallel_env
from coven.rl.env import CovenEnv

GAMES = ("amulets", "brujas", "commandments", "namaste")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", ["fewest", "most"])
# PettingZoo's test suggests flat observations; a dict of "observation" and "action_mask" is the form its
# own classic environments use (and it warns about them too).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
def test_pettingzoo_api_test_passes(game_id: str, players: str) -> None:
    env = make_env(game_id)
    if players == "most":
        env = make_env(game_id, players=env.encoding.game.spec.max_players)
    api_test(env, num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
def test_the_parallel_environment_passes_pettingzoos_parallel_test(game_id: str) -> None:
    parallel_api_test(make_parallel_env(game_id), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_parallel_environment_plays_the_aec_game(game_id: str) -> None:
    """Stepping every agent at once plays the same game as the AEC environment: the one agent with a
    mask moves, and the same choices give the same rewards."""
    agents, _, rewards = run(make_env(game_id), seed=5, choose=2)
    env = make_parallel_env(game_id)
    observations, _ = env.reset(seed=5)
    movers: list[str] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        open_ = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert len(open_) == 1, "exactly one agent has a decision open"
        movers.append(open_[0])
        legal = np.flatnonzero(observations[open_[0]]["action_mask"])
        # every other agent sends something: it is ignored
        actions = {a: int(legal[2 % len(legal)]) if a == open_[0] else 0 for a in env.agents}
        observations, step_rewards, _, _, _ = env.step(actions)
        for agent, value in step_rewards.items():
            totals[agent] += value
    assert movers == agents
    assert totals == rewards


def run(env: CovenEnv, seed: int, choose: int) -> tuple[list[str], list[np.ndarray], dict[str, float]]:
    """Plays to the end choosing the ``choose``-th legal index (mod the count); returns who acted, what
    they observed and the cumulative rewards."""
    env.reset(seed=seed)
    agents: list[str] = []
    observations: list[np.ndarray] = []
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] = rewards.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        agents.append(agent)
        observations.append(observation["observation"])
        env.step(int(legal[choose % len(legal)]))
    return agents, observations, rewards


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_deals_the_same_game(game_id: str) -> None:
    first = run(make_env(game_id), seed=7, choose=3)
    again = run(make_env(game_id), seed=7, choose=3)
    assert first[0] == again[0]
    assert all(np.array_equal(a, b) for a, b in zip(first[1], again[1], strict=True))
    assert first[2] == again[2]
    other = run(make_env(game_id), seed=8, choose=3)
    assert not (
        first[0] == other[0] and all(np.array_equal(a, b) for a, b in zip(first[1], other[1], strict=False))
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_win_rewards_go_to_the_winners(game_id: str) -> None:
    env = make_env(game_id)
    _, _, rewards = run(env, seed=1, choose=0)
    winners = env.table.game.winners(env.table.state)
    assert rewards == {f"seat_{s}": (1.0 if s in winners else 0.0) for s in range(env.players)}


def test_only_the_agent_to_move_has_a_mask_and_observations_are_its_own() -> None:
    env = make_env("brujas", players=4)
    env.reset(seed=3)
    mover = env.agent_selection
    for agent in env.agents:
        observation = env.observe(agent)
        assert observation["action_mask"].any() == (agent == mover)
        # the hand part of the observation (after the seat's one-hot) is this agent's own hand
        seat = int(agent.split("_")[1])
        hand = env.table.game.view(env.table.state, seat).hand
        assert observation["observation"][4 : 4 + 20].sum() * 2 == pytest.approx(len(hand))


def test_the_score_reward_pays_the_final_scores() -> None:
    env = make_env("namaste", players=3, reward="score")
    _, _, rewards = run(env, seed=2, choose=1)
    scores = env.table.game.scores(env.table.state)
    assert rewards == {f"seat_{s}": float(scores[s]) for s in range(3)}


def test_render_shows_the_spectators_view() -> None:
    env = make_env("namaste", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text
    assert "[bold]" not in text and "[/" not in text and "\x1b[" in text  # ANSI codes, not Rich's tags
    game = env.unwrapped.table.game
    markup = game.render(game.view(env.unwrapped.table.state, None))
    assert re.sub(r"\x1b\[[0-9;]*m", "", text) == Text.from_markup(markup).plain
    assert make_env("namaste").render() is None


@pytest.mark.parametrize("seed", [np.int64(7), np.uint32(7)], ids=repr)
def test_a_numpy_integer_seed_deals_as_its_int(seed: object) -> None:
    env = make_env("namaste", players=2)
    env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.unwrapped.table.seed == 7 and type(env.unwrapped.table.seed) is int
    numpy_seeded = run(make_env("namaste"), seed=seed, choose=3)  # type: ignore[arg-type]
    int_seeded = run(make_env("namaste"), seed=7, choose=3)
    assert numpy_seeded[0] == int_seeded[0] and numpy_seeded[2] == int_seeded[2]
    assert all(np.array_equal(a, b) for a, b in zip(numpy_seeded[1], int_seeded[1], strict=True))


@pytest.mark.parametrize("seed", ["7", 1.5, True], ids=repr)
def test_a_seed_that_is_no_whole_number_is_refused_at_reset(seed: object) -> None:
    with pytest.raises(InvalidOptionError, match="a seed is a whole number"):
        make_env("namaste", players=2).reset(seed=seed)  # type: ignore[arg-type]
