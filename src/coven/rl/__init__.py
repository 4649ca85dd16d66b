"""Research adapters for reinforcement learning (``pip install coven[rl]``).

- :mod:`coven.rl.encoding` and one module per game: the observation tensor of a seat's view and a
  finite action index with its mask (numpy only; :mod:`coven.spiel` uses them too);
- :mod:`coven.rl.table`: a game as a sequence of single decisions in the order every front end uses;
- :mod:`coven.rl.env`: PettingZoo AEC environments (needs ``pettingzoo`` and ``gymnasium``).

``coven.rl.make_env("namaste", players=3)`` builds an environment; nothing below this package
imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coven.rl.encoding import PASS, Encoding
from coven.rl.games import ENCODINGS, encoding_for
from coven.rl.table import REWARDS, Table

if TYPE_CHECKING:
    from coven.rl.env import CovenEnv


def make_env(game_id: str, **kwargs: Any) -> CovenEnv:
    """A PettingZoo AEC environment of ``game_id`` (see :class:`coven.rl.env.CovenEnv`)."""
    from coven.rl.env import CovenEnv

    return CovenEnv(game_id, **kwargs)


__all__ = ["ENCODINGS", "PASS", "REWARDS", "Encoding", "Table", "encoding_for", "make_env"]
