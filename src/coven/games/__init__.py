"""The built-in games, one package each, and the registry that maps their ids to them."""

from __future__ import annotations

from typing import Any

from coven.core.game import Game
from coven.core.registry import Registry

REGISTRY = Registry()
"""Every game Coven knows. Third-party games call ``REGISTRY.register(game)``."""

_BUILTIN: dict[str, str] = {
    "amulets": "coven.games.amulets:GAME",
    "brujas": "coven.games.brujas:GAME",
    "commandments": "coven.games.commandments:GAME",
    "namaste": "coven.games.namaste:GAME",
}
for _id, _target in _BUILTIN.items():
    REGISTRY.register_lazy(_id, _target)


def get_game(game_id: str) -> Game[Any, Any, Any]:
    """The game registered as ``game_id``; raises UnknownGameError."""
    return REGISTRY.get(game_id)


def game_ids() -> list[str]:
    return REGISTRY.ids()
