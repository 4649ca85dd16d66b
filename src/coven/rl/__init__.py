"""Research adapters for reinforcement learning (``pip install coven[rl]``).

- :mod:`coven.rl.encoding` and one module per game: the observation tensor of a seat's view and a
  finite action index with its mask (numpy only; :mod:`coven.spiel` uses them too);
- :mod:`coven.rl.table`: a game as a sequence of single decisions in the order every front end uses;
- :mod:`coven.rl.env`: PettingZoo AEC environments (needs ``pettingzoo`` and ``gymnasium``), and the
  same games behind PettingZoo's parallel API.

``coven.rl.make_env("namaste", players=3)`` builds an AEC environment and
``coven.rl.make_parallel_env("namaste", players=3)`` a parallel one; nothing below this package imports
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coven.rl.encoding import PASS, Encoding
from coven.rl.games import ENCODINGS, encoding_for
from coven.rl.table import REWARDS, Table

if TYPE_CHECKING:
    from pettingzoo import ParallelEnv

    from coven.rl.env import CovenEnv


def make_env(game_id: str, **kwargs: Any) -> CovenEnv:
    """A PettingZoo AEC environment of ``game_id`` (see :class:`coven.rl.env.CovenEnv`)."""
    from coven.rl.env import CovenEnv

    return CovenEnv(game_id, **kwargs)


def make_parallel_env(game_id: str, **kwargs: Any) -> ParallelEnv[str, Any, int]:
    """``game_id`` behind PettingZoo's parallel API (for libraries that step every agent at once).

    It is the AEC environment of :func:`make_env` (same arguments) under PettingZoo's own converter for
    turn-based games: every ``step`` takes a dict with an action for each live agent, and only the agent
    whose decision is open moves (its action mask is the only one that is not all zeros; the others'
    actions are ignored). A simultaneous decision (Namaste's) is still taken one seat per step, so no
    seat's choice can depend on another's."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    from coven.rl.env import CovenEnv

    return turn_based_aec_to_parallel(CovenEnv(game_id, **kwargs))


__all__ = [
    "ENCODINGS",
    "PASS",
    "REWARDS",
    "Encoding",
    "Table",
    "encoding_for",
    "make_env",
    "make_parallel_env",
]
