"""PettingZoo AEC environments for the Coven games (``pip install coven[rl]``).

``CovenEnv("brujas", players=4)`` is a :class:`pettingzoo.AECEnv` whose agents are ``seat_0`` ..
``seat_{n-1}``. The turn order is the one every Coven front end follows (:class:`~coven.rl.table.Table`):
an optional actor (an Amulets wizard who may cast out of turn) gets a turn whose ``pass`` index lets
the chance go; simultaneous decisions (Namaste) are taken one seat after another.

Each observation is a dict: ``observation``, the game's :class:`~coven.rl.encoding.Encoding` of the
agent's own view (float32, values scaled to about [-1, 1] and clipped to [-4, 4]), and ``action_mask``
(int8, 1 for each index the agent may choose now; all zeros when it is not the agent's turn). Actions
are indices into the game's action index (see the game's module in :mod:`coven.rl`).

Rewards come only at the end (``reward="win"``: 1 to each winner, 0 to everyone else, so a shared
victory pays every winner and a game nobody wins pays nobody; ``reward="score"``: the final scores).
Games always end within the game's bound of decisions, so nothing is truncated. ``infos[agent]``
holds ``legal_moves`` (the agent's legal indices when it is to act) and, at the end, ``scores``.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any, SupportsIndex

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from rich.console import Console

from coven.core.errors import IllegalActionError
from coven.core.game import check_seed
from coven.games import get_game
from coven.rl.encoding import Encoding, Mask, Observation
from coven.rl.games import encoding_for
from coven.rl.table import Table

CLIP = 4.0
AgentObservation = dict[str, Observation | Mask]


def ansi(markup: str) -> str:
    """Rich ``markup`` as text with ANSI codes (the standard 16 colours, no line wrapped)."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", highlight=False)
    console.print(markup, soft_wrap=True, end="")
    return out.getvalue()


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class CovenEnv(AECEnv[str, AgentObservation, int]):  # type: ignore[misc]
    """One Coven game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        game = get_game(game_id)
        self.encoding: Encoding = encoding_for(game_id, players, options)
        self.players = self.encoding.players
        self.reward = reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"coven_{game.spec.id}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-CLIP, CLIP, (self.encoding.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.encoding.num_actions)
        self._seeds = random.Random()
        self.table = Table(self.encoding, seed=0, reward=reward)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------------------------------ episodes
    def reset(self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: from ``seed`` when given (a whole number: an ``int`` or a numpy integer, as
        PettingZoo's tests and seeding helpers give; anything else raises
        :class:`~coven.core.errors.InvalidOptionError`), else the next seed of the environment's own
        source (itself seeded by the first ``reset(seed=...)``)."""
        if seed is not None:
            deal = check_seed(seed)
            self._seeds.seed(deal)
        else:
            deal = self._seeds.getrandbits(63)
        self.table = Table(self.encoding, seed=deal, reward=self.reward)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = agent_name(self.table.current())
        self._update_infos()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an index now")
        self._cumulative_rewards[agent] = 0.0
        self.table.step(int(action))
        self._clear_rewards()
        if self.table.is_over():
            for other, value in zip(self.agents, self.table.returns(), strict=True):
                self.rewards[other] = value
                self.terminations[other] = True
        else:
            self.agent_selection = agent_name(self.table.current())
        self._update_infos()
        self._accumulate_rewards()

    def _update_infos(self) -> None:
        over = self.table.is_over()
        current = None if over else agent_name(self.table.current())
        legal = [] if over else self.table.legal_indices()
        scores = list(self.table.game.scores(self.table.state)) if over else None
        for agent in self.agents:
            info: dict[str, Any] = {"legal_moves": legal if agent == current else []}
            if scores is not None:
                info["scores"] = scores
            self.infos[agent] = info

    # --------------------------------------------------------------------------------- information
    def observe(self, agent: str) -> AgentObservation:
        seat = self._seats[agent]
        observation = np.clip(self.table.observe(seat), -CLIP, CLIP).astype(np.float32)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if not self.table.is_over() and self.table.current() == seat:
            mask[self.table.legal_indices()] = 1
        return {"observation": observation, "action_mask": mask}

    def render(self) -> str | None:
        """The spectator's picture of the table (``render_mode="ansi"``): text with ANSI colour codes, as
        a terminal shows it (the game's picture is Rich markup, rendered here; its tags never show)."""
        if self.render_mode is None:
            return None
        game = self.table.game
        return ansi(game.render(game.view(self.table.state, None)))

    def close(self) -> None:
        pass


def env(game_id: str, **kwargs: Any) -> CovenEnv:
    """PettingZoo's usual constructor name: ``coven.rl.env.env("namaste", players=3)``."""
    return CovenEnv(game_id, **kwargs)
